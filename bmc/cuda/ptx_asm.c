/* Inline PTX for the instructions of a PTX litmus test. */
#include "bmc/cuda/ptx_asm.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

void ptx_asm_operand(const struct thread *th, const struct operand *o, char *buf, size_t len)
{
    if (o->is_reg)
        snprintf(buf, len, "%s", th->reg_names[o->reg]);
    else if (o->value == INT32_MIN)
        snprintf(buf, len, "INT32_MIN");
    else
        snprintf(buf, len, "%" PRId64, o->value);
}

/* The negation of a value operand, modulo 2^32. */
static void negated_operand(const struct thread *th, const struct operand *o, char *buf, size_t len)
{
    if (o->is_reg) {
        snprintf(buf, len, "(int32_t)(0u - (uint32_t)%s)", th->reg_names[o->reg]);
        return;
    }
    struct operand neg = { .value = (int32_t)(0u - (uint32_t)o->value) };
    ptx_asm_operand(th, &neg, buf, len);
}

/* ".weak" or ".<order>.<scope>" of a load or store. */
static void access_order(const struct instr *in, char *buf, size_t len)
{
    if (in->mo == MO_WEAK)
        snprintf(buf, len, ".weak");
    else
        snprintf(buf, len, ".%s.%s", mo_name(in->mo), scope_name(in->scope));
}

/* "add.u32", "and.b32", ... : the PTX operation and type of an atom or red
 * (sub is the add of the negated operand); NULL when PTX has none. */
static const char *rmw_operation(enum binop op)
{
    switch (op) {
    case OP_ADD: case OP_SUB: return "add.u32";
    case OP_AND: return "and.b32";
    case OP_OR: return "or.b32";
    case OP_XOR: return "xor.b32";
    case OP_EXCH: return "exch.b32";
    case OP_CAS: return "cas.b32";
    case OP_SMIN: return "min.s32";
    case OP_SMAX: return "max.s32";
    case OP_UMIN: return "min.u32";
    case OP_UMAX: return "max.u32";
    case OP_MUL: case OP_DIV: break;
    }
    return NULL;
}

/* atom and red. */
static bool rmw_statement(const struct litmus *l, const struct thread *th, const struct instr *in, char *buf,
                          size_t len, char *why, size_t wlen)
{
    const char *op = rmw_operation(in->op);
    bool red = in->dst < 0;
    if (!op) {
        snprintf(why, wlen, "`%s`: PTX has no %s.%s (one read-modify-write cannot be emitted)", in->text,
                 red ? "red" : "atom", in->op == OP_MUL ? "mul" : "div");
        return false;
    }
    if (red && (in->mo == MO_ACQUIRE || in->mo == MO_ACQ_REL)) {
        snprintf(why, wlen, "`%s`: PTX's red is .relaxed or .release (a reduction returns nothing to acquire; "
                 "ptxas refuses red.%s)", in->text, mo_name(in->mo));
        return false;
    }
    char a[64], b[64];
    if (in->op == OP_SUB)
        negated_operand(th, &in->a, a, sizeof a);
    else
        ptx_asm_operand(th, &in->a, a, sizeof a);
    const char *x = l->locs[in->loc].name;
    if (red) {
        snprintf(buf, len, "asm volatile(\"red.%s.%s.%s [%%0], %%1;\" :: \"l\"(L_%s), \"r\"(%s) : \"memory\");",
                 mo_name(in->mo), scope_name(in->scope), op, x, a);
    } else if (in->op == OP_CAS) {
        ptx_asm_operand(th, &in->b, b, sizeof b);
        snprintf(buf, len, "asm volatile(\"atom.%s.%s.%s %%0, [%%1], %%2, %%3;\" : \"=r\"(%s) : \"l\"(L_%s), "
                 "\"r\"(%s), \"r\"(%s) : \"memory\");", mo_name(in->mo), scope_name(in->scope), op,
                 th->reg_names[in->dst], x, a, b);
    } else {
        snprintf(buf, len, "asm volatile(\"atom.%s.%s.%s %%0, [%%1], %%2;\" : \"=r\"(%s) : \"l\"(L_%s), "
                 "\"r\"(%s) : \"memory\");", mo_name(in->mo), scope_name(in->scope), op,
                 th->reg_names[in->dst], x, a);
    }
    return true;
}

/* Local arithmetic and moves ("ld r, v"). */
static bool local_statement(const struct thread *th, const struct instr *in, char *buf, size_t len, char *why,
                            size_t wlen)
{
    static const char *const ops[] = { [OP_ADD] = "add.s32", [OP_SUB] = "sub.s32", [OP_MUL] = "mul.lo.s32",
                                       [OP_DIV] = "div.s32" };
    char a[64], b[64];
    ptx_asm_operand(th, &in->a, a, sizeof a);
    const char *dst = th->reg_names[in->dst];
    if (in->op == OP_EXCH) {
        snprintf(buf, len, "asm volatile(\"mov.b32 %%0, %%1;\" : \"=r\"(%s) : \"r\"(%s) : \"memory\");", dst, a);
        return true;
    }
    if ((unsigned)in->op >= sizeof ops / sizeof ops[0] || !ops[in->op]) {
        snprintf(why, wlen, "`%s`: no PTX arithmetic for it", in->text);
        return false;
    }
    ptx_asm_operand(th, &in->b, b, sizeof b);
    snprintf(buf, len, "asm volatile(\"%s %%0, %%1, %%2;\" : \"=r\"(%s) : \"r\"(%s), \"r\"(%s) : \"memory\");",
             ops[in->op], dst, a, b);
    return true;
}

/* bar.cta.sync N: every thread of the block waits (the harness gives every
 * thread of a block the same barriers, bmc/cuda/support.h). */
static bool barrier_statement(const struct instr *in, char *buf, size_t len, char *why, size_t wlen)
{
    if (in->arrive) {
        snprintf(why, wlen, "`%s`: PTX's bar.cta.arrive needs a thread count, a multiple of the warp "
                 "size, which the litmus barrier does not give", in->text);
        return false;
    }
    if (in->has_bar_id || in->has_bar_quorum) {
        snprintf(why, wlen, "`%s`: a barrier with an id or a quorum has no PTX counterpart (PTX counts "
                 "barrier threads in multiples of the warp size)", in->text);
        return false;
    }
    if (in->bar_instance < 0 || in->bar_instance > 15) {
        snprintf(why, wlen, "`%s`: PTX has barriers 0 to 15", in->text);
        return false;
    }
    snprintf(buf, len, "asm volatile(\"bar.cta.sync %" PRId64 ";\" ::: \"memory\");", in->bar_instance);
    return true;
}

const char *ptx_asm_proxy_resource(enum proxy p)
{
    return p == PROXY_TEXTURE ? "texture object" : p == PROXY_SURFACE ? "surface object" : "constant bank";
}

/* Says why an access through a proxy other than generic cannot run. */
static bool proxy_refused(const struct instr *in, char *why, size_t wlen)
{
    snprintf(why, wlen, "`%s`: a %s-proxy access needs a bound %s, which the harness does not make", in->text,
             proxy_name(in->proxy), ptx_asm_proxy_resource(in->proxy));
    return false;
}

bool ptx_asm_statement(const struct litmus *l, const struct thread *th, const struct instr *in, char *buf,
                       size_t len, char *why, size_t wlen)
{
    char order[48], v[64];
    if ((in->kind == I_LOAD || in->kind == I_STORE || in->kind == I_RMW) && in->proxy != PROXY_GENERIC)
        return proxy_refused(in, why, wlen);
    switch (in->kind) {
    case I_LOAD:
        access_order(in, order, sizeof order);
        snprintf(buf, len, "asm volatile(\"ld%s.u32 %%0, [%%1];\" : \"=r\"(%s) : \"l\"(L_%s) : \"memory\");",
                 order, th->reg_names[in->dst], l->locs[in->loc].name);
        return true;
    case I_STORE:
        access_order(in, order, sizeof order);
        ptx_asm_operand(th, &in->a, v, sizeof v);
        snprintf(buf, len, "asm volatile(\"st%s.u32 [%%0], %%1;\" :: \"l\"(L_%s), \"r\"(%s) : \"memory\");",
                 order, l->locs[in->loc].name, v);
        return true;
    case I_RMW:
        return rmw_statement(l, th, in, buf, len, why, wlen);
    case I_LOCAL:
        return local_statement(th, in, buf, len, why, wlen);
    case I_FENCE:
        snprintf(buf, len, "asm volatile(\"fence.%s.%s;\" ::: \"memory\");", mo_name(in->mo), scope_name(in->scope));
        return true;
    case I_ALIAS_FENCE:
        snprintf(buf, len, "asm volatile(\"fence.proxy.alias;\" ::: \"memory\");");
        return true;
    case I_PROXY_FENCE:
        snprintf(why, wlen, "`%s`: PTX has no fence.proxy.%s (its proxy fences are fence.proxy.alias and "
                 "those of the async proxy)", in->text, proxy_name(in->proxy));
        return false;
    case I_BARRIER:
        return barrier_statement(in, buf, len, why, wlen);
    default:
        snprintf(why, wlen, "`%s`: not a PTX instruction the harness emits", in->text);
        return false;
    }
}
