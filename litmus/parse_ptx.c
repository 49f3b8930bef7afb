/* PTX mnemonics: loads, stores, atomics and reductions, fences, barriers. */
#include "litmus/parse_impl.h"

/* ------------------------------------------------------------------------ */
/* PTX mnemonics                                                             */

static const struct word_value ptx_local_ops[] = {
    { "add", OP_ADD }, { "sub", OP_SUB }, { "mul", OP_MUL }, { "div", OP_DIV }, { NULL, 0 }
};
static const struct word_value ptx_mos[] = {
    { "weak", MO_WEAK }, { "relaxed", MO_RELAXED }, { "acquire", MO_ACQUIRE },
    { "release", MO_RELEASE }, { "acq_rel", MO_ACQ_REL }, { "sc", MO_SC }, { NULL, 0 }
};
static const struct word_value ptx_scopes[] = {
    { "cta", SCOPE_CTA }, { "gpu", SCOPE_GPU }, { "sys", SCOPE_SYS }, { NULL, 0 }
};
static const struct word_value ptx_proxies[] = {
    { "generic", PROXY_GENERIC }, { "texture", PROXY_TEXTURE },
    { "surface", PROXY_SURFACE }, { "constant", PROXY_CONSTANT }, { NULL, 0 }
};
static const struct word_value ptx_load_bases[] = {
    { "ld", PROXY_GENERIC }, { "tld", PROXY_TEXTURE }, { "suld", PROXY_SURFACE },
    { "cold", PROXY_CONSTANT }, { NULL, 0 }
};
static const struct word_value ptx_store_bases[] = {
    { "st", PROXY_GENERIC }, { "sust", PROXY_SURFACE }, { NULL, 0 }
};
static const struct word_value ptx_atom_bases[] = {
    { "atom", PROXY_GENERIC }, { "suatom", PROXY_SURFACE }, { NULL, 0 }
};
static const struct word_value ptx_red_bases[] = {
    { "red", PROXY_GENERIC }, { "sured", PROXY_SURFACE }, { NULL, 0 }
};


/* Decodes the memory order at part 1 and checks it is in allowed. */
static bool ptx_memory_order(struct parser *p, const struct mnemonic *m, unsigned allowed,
                             const char *what, struct instr *in)
{
    int mo = 0;
    if (!ps_required_part(p, m, 1, ptx_mos, "a memory order (weak, relaxed, acquire, release, acq_rel or sc)", &mo))
        return false;
    if (!(allowed & mo_bit((enum mo)mo)))
        return ps_fail(p, m->parts[1].pos, "%s does not support memory order '%s'",
                    what, mo_name((enum mo)mo));
    in->mo = (enum mo)mo;
    return true;
}

/* Decodes the scope at part i, which must be present. */
static bool ptx_scope(struct parser *p, const struct mnemonic *m, int i, struct instr *in)
{
    int scope;
    if (!ps_required_part(p, m, i, ptx_scopes, "a scope (cta, gpu or sys)", &scope))
        return false;
    in->scope = (enum scope)scope;
    return true;
}

/* Decodes ".mo[.scope]" of ld/st: weak takes no scope, the others need one. */
static bool ptx_access_order(struct parser *p, const struct mnemonic *m, unsigned allowed,
                             const char *what, struct instr *in)
{
    if (!ptx_memory_order(p, m, allowed, what, in))
        return false;
    if (in->mo == MO_WEAK) {
        if (m->n > 2 && ps_lookup(ptx_scopes, &m->parts[2], &(int){ 0 }))
            return ps_fail(p, m->parts[2].pos, "weak %s takes no scope", what);
        return ps_no_more_parts(p, m, 2);
    }
    return ptx_scope(p, m, 2, in) && ps_no_more_parts(p, m, 3);
}

/* Decodes ld/tld/suld/cold: a load, or "ld r, v" as a local move. */
static bool ptx_decode_load(struct parser *p, const struct mnemonic *m, int proxy,
                            struct instr *in, const char **sig)
{
    if (m->n == 1) {
        in->kind = I_LOCAL;
        in->op = OP_EXCH;
        *sig = "RV";
        return true;
    }
    in->kind = I_LOAD;
    in->proxy = (enum proxy)proxy;
    *sig = "RL";
    return ptx_access_order(p, m, mo_bit(MO_WEAK) | mo_bit(MO_RELAXED) | mo_bit(MO_ACQUIRE),
                            "load", in);
}

/* Decodes st/sust. */
static bool ptx_decode_store(struct parser *p, const struct mnemonic *m, int proxy,
                             struct instr *in, const char **sig)
{
    in->kind = I_STORE;
    in->proxy = (enum proxy)proxy;
    *sig = "LV";
    return ptx_access_order(p, m, mo_bit(MO_WEAK) | mo_bit(MO_RELAXED) | mo_bit(MO_RELEASE),
                            "store", in);
}

/* Decodes atom.<mo>.<scope>.<op> and red.<mo>.<scope>.<op>. */
static bool ptx_decode_rmw(struct parser *p, const struct mnemonic *m, int proxy, bool is_red,
                           struct instr *in, const char **sig)
{
    const char *what = is_red ? "red" : "atom";
    unsigned allowed = mo_bit(MO_RELAXED) | mo_bit(MO_ACQUIRE) | mo_bit(MO_RELEASE) | mo_bit(MO_ACQ_REL);
    static const struct word_value atom_ops[] = {
        { "add", OP_ADD }, { "sub", OP_SUB }, { "mul", OP_MUL }, { "div", OP_DIV },
        { "and", OP_AND }, { "or", OP_OR }, { "xor", OP_XOR }, { "exch", OP_EXCH },
        { "cas", OP_CAS }, { NULL, 0 }
    };
    int op;
    in->kind = I_RMW;
    in->proxy = (enum proxy)proxy;
    if (!ptx_memory_order(p, m, allowed, what, in) || !ptx_scope(p, m, 2, in)
        || !ps_required_part(p, m, 3, is_red ? arith_ops : atom_ops, "an operation", &op)
        || !ps_no_more_parts(p, m, 4))
        return false;
    in->op = (enum binop)op;
    *sig = is_red ? "LV" : op == OP_CAS ? "RLVV" : "RLV";
    return true;
}

/* Decodes fence.sc/acq_rel.<scope>, fence.proxy.<proxy> and fence.proxy.alias. */
static bool ptx_decode_fence(struct parser *p, const struct mnemonic *m, struct instr *in,
                             const char **sig)
{
    int proxy;
    *sig = "";
    if (m->n > 1 && tok_is(&m->parts[1], "proxy")) {
        if (m->n > 2 && tok_is(&m->parts[2], "alias")) {
            in->kind = I_ALIAS_FENCE;
            return ps_no_more_parts(p, m, 3);
        }
        if (!ps_required_part(p, m, 2, ptx_proxies, "a proxy (generic, texture, surface, constant or alias)", &proxy))
            return false;
        in->kind = I_PROXY_FENCE;
        in->proxy = (enum proxy)proxy;
        return ps_no_more_parts(p, m, 3);
    }
    in->kind = I_FENCE;
    return ptx_memory_order(p, m, mo_bit(MO_SC) | mo_bit(MO_ACQ_REL), "fence", in)
        && ptx_scope(p, m, 2, in) && ps_no_more_parts(p, m, 3);
}

/* Decodes bar.cta.sync and bar.cta.arrive. */
static bool ptx_decode_barrier(struct parser *p, const struct mnemonic *m, struct instr *in,
                               const char **sig)
{
    static const struct word_value cta[] = { { "cta", 0 }, { NULL, 0 } };
    static const struct word_value modes[] = { { "sync", 0 }, { "arrive", 1 }, { NULL, 0 } };
    int unused, arrive;
    if (!ps_required_part(p, m, 1, cta, "'cta'", &unused)
        || !ps_required_part(p, m, 2, modes, "'sync' or 'arrive'", &arrive)
        || !ps_no_more_parts(p, m, 3))
        return false;
    in->kind = I_BARRIER;
    in->scope = SCOPE_CTA;
    in->arrive = arrive == 1;
    *sig = "Cvv";
    return true;
}

/* Decodes a PTX mnemonic into in and the operand signature. */
bool ptx_decode(struct parser *p, const struct mnemonic *m, struct instr *in, const char **sig)
{
    const struct token *base = &m->parts[0];
    int proxy;
    if (ps_lookup(ptx_load_bases, base, &proxy))
        return ptx_decode_load(p, m, proxy, in, sig);
    if (ps_lookup(ptx_store_bases, base, &proxy))
        return ptx_decode_store(p, m, proxy, in, sig);
    if (ps_lookup(ptx_atom_bases, base, &proxy))
        return ptx_decode_rmw(p, m, proxy, false, in, sig);
    if (ps_lookup(ptx_red_bases, base, &proxy))
        return ptx_decode_rmw(p, m, proxy, true, in, sig);
    if (tok_is(base, "fence"))
        return ptx_decode_fence(p, m, in, sig);
    if (tok_is(base, "bar"))
        return ptx_decode_barrier(p, m, in, sig);
    return ps_decode_common(p, m, ptx_local_ops, in, sig);
}
