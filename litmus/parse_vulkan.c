/* Vulkan mnemonics: plain and atomic loads and stores with their semantics,
 * read-modify-writes, memory and control barriers, device availability and
 * visibility operations. */
#include "litmus/parse_impl.h"

/* ------------------------------------------------------------------------ */
/* Vulkan mnemonics                                                          */

static const struct word_value vk_mos[] = {
    { "acq", MO_ACQUIRE }, { "rel", MO_RELEASE }, { "acq_rel", MO_ACQ_REL }, { NULL, 0 }
};
static const struct word_value vk_scopes[] = {
    { "sg", SCOPE_SG }, { "wg", SCOPE_WG }, { "qf", SCOPE_QF }, { "dv", SCOPE_DV }, { NULL, 0 }
};
static const struct word_value vk_storage_classes[] = {
    { "sc0", 0 }, { "sc1", 1 }, { "sc2", 2 }, { "sc3", 3 }, { NULL, 0 }
};
static const struct word_value vk_semscs[] = {
    { "semsc0", 0 }, { "semsc1", 1 }, { "semsc2", 2 }, { "semsc3", 3 }, { NULL, 0 }
};

#define VK_SCOPE_WHAT "a scope (sg, wg, qf or dv)"
#define VK_SC_WHAT "a storage class (sc0, sc1, sc2 or sc3)"

/* What an atomic/barrier suffix may contain. */
struct vk_rules {
    unsigned allowed_mos;    /* mo_bit set; 0 = none allowed */
    bool mo_required;
    bool has_storage_class;
    bool allow_op;
};

/* Parsed optional parts of a suffix, for validation. */
struct vk_seen {
    const struct token *mo, *semsc, *semav, *semvis;
};

/* Decodes ".<scope>[.sc<k>]" at *i. */
static bool vk_scope_and_class(struct parser *p, const struct mnemonic *m, int *i,
                               bool has_storage_class, struct instr *in)
{
    int value;
    if (!ps_required_part(p, m, (*i)++, vk_scopes, VK_SCOPE_WHAT, &value))
        return false;
    in->scope = (enum scope)value;
    if (!has_storage_class)
        return true;
    if (!ps_required_part(p, m, (*i)++, vk_storage_classes, VK_SC_WHAT, &value))
        return false;
    in->storage_class = value;
    return true;
}

/* Decodes ".semsc<k>...[.semav][.semvis]" at *i. */
static void vk_semantics(const struct mnemonic *m, int *i, struct instr *in, struct vk_seen *seen)
{
    int bit;
    while (*i < m->n && ps_lookup(vk_semscs, &m->parts[*i], &bit)) {
        if (!seen->semsc)
            seen->semsc = &m->parts[*i];
        in->semsc |= 1u << bit;
        (*i)++;
    }
    if (*i < m->n && tok_is(&m->parts[*i], "semav")) {
        seen->semav = &m->parts[(*i)++];
        in->vk_flags |= VK_SEMAV;
    }
    if (*i < m->n && tok_is(&m->parts[*i], "semvis")) {
        seen->semvis = &m->parts[(*i)++];
        in->vk_flags |= VK_SEMVIS;
    }
}

/* Checks the memory-order/semantics combinations the Vulkan grammar allows. */
static bool vk_check_semantics(struct parser *p, const struct mnemonic *m, const struct vk_rules *r,
                               const struct vk_seen *seen, struct instr *in)
{
    if (seen->mo && !(r->allowed_mos & mo_bit(in->mo)))
        return ps_fail(p, seen->mo->pos, "'" TOK_FMT "' does not support memory order '" TOK_FMT "'",
                    TOK_ARG(&m->parts[0]), TOK_ARG(seen->mo));
    if (!seen->mo && r->mo_required)
        return ps_fail(p, m->all.pos, "'" TOK_FMT "' needs a memory order (acq, rel or acq_rel)",
                    TOK_ARG(&m->all));
    if (seen->mo && !in->semsc)
        return ps_fail(p, m->all.pos, "'" TOK_FMT "' needs storage class semantics (.semsc0 to .semsc3)",
                    TOK_ARG(&m->all));
    if (!seen->mo && seen->semsc)
        return ps_fail(p, seen->semsc->pos, "storage class semantics need a memory order (acq, rel or acq_rel)");
    if (seen->semav && in->mo != MO_RELEASE && in->mo != MO_ACQ_REL)
        return ps_fail(p, seen->semav->pos, "'.semav' needs memory order rel or acq_rel");
    if (seen->semvis && in->mo != MO_ACQUIRE && in->mo != MO_ACQ_REL)
        return ps_fail(p, seen->semvis->pos, "'.semvis' needs memory order acq or acq_rel");
    return true;
}

/* Decodes "[.mo].<scope>[.sc<k>][.semsc..][.semav][.semvis][.op]" from part i. */
static bool vk_suffix(struct parser *p, const struct mnemonic *m, int i, const struct vk_rules *r,
                      struct instr *in)
{
    struct vk_seen seen = { NULL, NULL, NULL, NULL };
    int value;
    if (i < m->n && ps_lookup(vk_mos, &m->parts[i], &value)) {
        seen.mo = &m->parts[i++];
        in->mo = (enum mo)value;
    }
    if (!vk_scope_and_class(p, m, &i, r->has_storage_class, in))
        return false;
    vk_semantics(m, &i, in, &seen);
    if (r->allow_op && i < m->n && ps_lookup(arith_ops, &m->parts[i], &value)) {
        in->op = (enum binop)value;
        i++;
    }
    return ps_no_more_parts(p, m, i) && vk_check_semantics(p, m, r, &seen, in);
}

/* Decodes non-atomic "ld[.nonpriv|.vis.<scope>].sc<k>" and "st[.nonpriv|.av.<scope>].sc<k>". */
static bool vk_decode_plain_access(struct parser *p, const struct mnemonic *m, bool is_load,
                                   struct instr *in, const char **sig)
{
    const char *made = is_load ? "vis" : "av";
    int i = 1, value;
    in->kind = is_load ? I_LOAD : I_STORE;
    in->mo = MO_WEAK;
    *sig = is_load ? "RL" : "LV";
    if (i < m->n && tok_is(&m->parts[i], "nonpriv")) {
        in->vk_flags |= VK_NONPRIV;
        i++;
    } else if (i < m->n && tok_is(&m->parts[i], made)) {
        in->vk_flags |= VK_NONPRIV | (is_load ? VK_VIS : VK_AV);
        i++;
        if (!ps_required_part(p, m, i++, vk_scopes, VK_SCOPE_WHAT, &value))
            return false;
        in->scope = (enum scope)value;
    }
    if (!ps_required_part(p, m, i++, vk_storage_classes, VK_SC_WHAT, &value))
        return false;
    in->storage_class = value;
    return ps_no_more_parts(p, m, i);
}

/* Decodes "ld.atom..." and "st.atom...". */
static bool vk_decode_atomic_access(struct parser *p, const struct mnemonic *m, bool is_load,
                                    struct instr *in, const char **sig)
{
    struct vk_rules rules = { mo_bit(is_load ? MO_ACQUIRE : MO_RELEASE), false, true, false };
    in->kind = is_load ? I_LOAD : I_STORE;
    in->mo = MO_RELAXED;
    in->vk_flags |= VK_ATOMIC | VK_NONPRIV | (is_load ? VK_VIS : VK_AV);
    *sig = is_load ? "RL" : "LV";
    return vk_suffix(p, m, 2, &rules, in);
}

/* Decodes "rmw.atom[.mo].<scope>.sc<k>[...][.op]"; without an op it is an exchange. */
static bool vk_decode_rmw(struct parser *p, const struct mnemonic *m, struct instr *in, const char **sig)
{
    struct vk_rules rules = { mo_bit(MO_ACQUIRE) | mo_bit(MO_RELEASE) | mo_bit(MO_ACQ_REL),
                              false, true, true };
    if (m->n < 2 || !tok_is(&m->parts[1], "atom"))
        return ps_fail(p, m->all.pos, "'" TOK_FMT "' must start with 'rmw.atom'", TOK_ARG(&m->all));
    in->kind = I_RMW;
    in->mo = MO_RELAXED;
    in->op = OP_EXCH;
    in->vk_flags |= VK_ATOMIC | VK_NONPRIV | VK_AV | VK_VIS;
    *sig = "RLV";
    return vk_suffix(p, m, 2, &rules, in);
}

/* Decodes membar (a fence) and cbar (a control barrier). */
static bool vk_decode_barrier(struct parser *p, const struct mnemonic *m, bool is_cbar,
                              struct instr *in, const char **sig)
{
    struct vk_rules rules = { mo_bit(MO_ACQUIRE) | mo_bit(MO_RELEASE) | mo_bit(MO_ACQ_REL),
                              !is_cbar, false, false };
    in->kind = is_cbar ? I_BARRIER : I_FENCE;
    *sig = is_cbar ? "Cvv" : "";
    return vk_suffix(p, m, 1, &rules, in);
}

/* Decodes avdevice and visdevice. */
static bool vk_decode_device_op(struct parser *p, const struct mnemonic *m, bool is_av,
                                struct instr *in, const char **sig)
{
    in->kind = is_av ? I_AVDEVICE : I_VISDEVICE;
    *sig = "";
    return ps_no_more_parts(p, m, 1);
}

/* Decodes a Vulkan mnemonic into in and the operand signature. */
bool vk_decode(struct parser *p, const struct mnemonic *m, struct instr *in, const char **sig)
{
    const struct token *base = &m->parts[0];
    bool is_load = tok_is(base, "ld");
    if (is_load || tok_is(base, "st")) {
        if (m->n > 1 && tok_is(&m->parts[1], "atom"))
            return vk_decode_atomic_access(p, m, is_load, in, sig);
        return vk_decode_plain_access(p, m, is_load, in, sig);
    }
    if (tok_is(base, "rmw"))
        return vk_decode_rmw(p, m, in, sig);
    if (tok_is(base, "membar") || tok_is(base, "cbar"))
        return vk_decode_barrier(p, m, tok_is(base, "cbar"), in, sig);
    if (tok_is(base, "avdevice") || tok_is(base, "visdevice"))
        return vk_decode_device_op(p, m, tok_is(base, "avdevice"), in, sig);
    return ps_decode_common(p, m, arith_ops, in, sig);
}
