/* Memory in SPIR-V: pointers as (object, byte offset[, register x scale]),
 * access chains, loads and stores with their memory operands, atomics with
 * scopes and semantics mapped onto the Vulkan tags, and barriers.  An
 * access through a pointer whose offset depends on a register is a chain
 * of branches, one per element it can reach. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/spirv_trans.h"
#include "util/xalloc.h"

/* Memory access bits of the grammar's MemoryAccess kind. */
enum { MA_VOLATILE = 0x1, MA_ALIGNED = 0x2, MA_NONTEMPORAL = 0x4, MA_AVAILABLE = 0x8, MA_VISIBLE = 0x10,
       MA_NONPRIVATE = 0x20 };

/* How one scalar access is tagged. */
struct acc {
    enum instr_kind kind;     /* I_LOAD, I_STORE, I_RMW */
    enum mo mo;
    enum scope scope;
    unsigned flags, semsc;
    enum binop op;
    struct val a, b;          /* store value; rmw operand(s) */
    bool atomic;
};

static bool const_of(struct trans *t, struct frame *fr, const struct spv_arg *a, const char *what, int64_t *v)
{
    struct val x;
    if (!tr_get(t, fr, a, &x))
        return false;
    if (x.k != V_CONST)
        return spv_fail(t->err, a->pos, "%s %%%s must be a constant", what, tr_name(t, a->id));
    *v = x.c;
    return true;
}

/* The Vulkan scope of a SPIR-V Scope value. */
static bool scope_of(struct trans *t, struct frame *fr, const struct spv_arg *a, bool allow_invocation,
                     enum scope *s)
{
    int64_t v = 0;
    if (!const_of(t, fr, a, "the scope", &v))
        return false;
    if (t->opencl)
        return tr_cl_scope(t, v, a->pos, s);
    switch (v) {
    case 1: *s = SCOPE_DV; return true;
    case 2: *s = SCOPE_WG; return true;
    case 3: *s = SCOPE_SG; return true;
    case 5: *s = SCOPE_QF; return true;
    case 4:     /* Invocation: no scope tag, as in Dat3M (it overlaps no other scope) */
        if (allow_invocation) {
            *s = SCOPE_NONE;
            return true;
        }
        return spv_fail(t->err, a->pos, "scope Invocation is not supported here");
    default:
        return spv_fail(t->err, a->pos, "scope %lld is not supported under the Vulkan models (CrossDevice, "
                        "ShaderCallKHR or no scope)", (long long)v);
    }
}

/* Decodes MemorySemantics into order, storage class semantics and av/vis flags. */
static bool semantics_of(struct trans *t, struct frame *fr, const struct spv_arg *a, enum mo *mo,
                         unsigned *semsc, unsigned *flags)
{
    int64_t v = 0;
    if (!const_of(t, fr, a, "the memory semantics", &v))
        return false;
    if (t->opencl)      /* semsc: the OpenCL fence flags */
        return tr_cl_semantics(t, v, a->pos, mo, semsc);
    uint32_t bits = (uint32_t)v;
    int orders = 0;
    *mo = MO_RELAXED;
    *semsc = 0;
    if (bits & 0x2) { *mo = MO_ACQUIRE; orders++; }
    if (bits & 0x4) { *mo = MO_RELEASE; orders++; }
    if (bits & 0x8) { *mo = MO_ACQ_REL; orders++; }
    if (bits & 0x10)
        return spv_fail(t->err, a->pos, "SequentiallyConsistent semantics are not supported under the Vulkan models");
    if (orders > 1)
        return spv_fail(t->err, a->pos, "memory semantics 0x%x: more than one memory order", bits);
    if (bits & 0x40) *semsc |= 1u << 0;
    if (bits & 0x100) *semsc |= 1u << 1;
    if (bits & 0x800) *semsc |= 1u << 2;
    if (bits & 0x1000) *semsc |= 1u << 3;
    if (bits & 0x2000) *flags |= VK_SEMAV;
    if (bits & 0x4000) *flags |= VK_SEMVIS;
    if (bits & 0x8000)
        return spv_fail(t->err, a->pos, "Volatile memory semantics are not supported");
    if (bits & ~(uint32_t)0x7ffe)
        return spv_fail(t->err, a->pos, "memory semantics 0x%x: unexpected bits", bits);
    if (*mo != MO_RELAXED && !*semsc)
        return spv_fail(t->err, a->pos, "non-relaxed semantics 0x%x must name storage class semantics", bits);
    if (*mo == MO_RELAXED && *semsc)
        return spv_fail(t->err, a->pos, "storage class semantics 0x%x need a memory order", bits);
    if ((*flags & VK_SEMAV) && *mo != MO_RELEASE && *mo != MO_ACQ_REL)
        return spv_fail(t->err, a->pos, "MakeAvailable semantics need Release or AcquireRelease");
    if ((*flags & VK_SEMVIS) && *mo != MO_ACQUIRE && *mo != MO_ACQ_REL)
        return spv_fail(t->err, a->pos, "MakeVisible semantics need Acquire or AcquireRelease");
    return true;
}

static bool get_ptr(struct trans *t, struct frame *fr, const struct spv_arg *a, struct val *p)
{
    if (!tr_get(t, fr, a, p))
        return false;
    if (p->k != V_PTR)
        return spv_fail(t->err, a->pos, "%%%s is not a pointer", tr_name(t, a->id));
    if (p->obj < 0)
        return spv_fail(t->err, a->pos, "%%%s is a null pointer", tr_name(t, a->id));
    if (p->maybe_null)
        return spv_fail(t->err, a->pos, "%%%s may be a null pointer (a variable holds it or null): only "
                        "OpConvertPtrToU and casts take it", tr_name(t, a->id));
    return true;
}

/* OpAccessChain and variants; OpBitcast/OpCopyObject of pointers. */
bool tr_access_chain(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out)
{
    struct val p;
    if (!get_ptr(t, fr, &in->args[0], &p))
        return false;
    const struct ty *rt = &t->ty[in->rtype];
    if (rt->k != TY_POINTER)
        return spv_fail(t->err, in->pos, "%s: the result type is not a pointer type", in->op->name);
    if (spv_is(in, "OpBitcast") || spv_is(in, "OpCopyObject")) {
        *out = p;
        out->type = in->rtype;
        return true;
    }
    int ptype = p.type, cur = t->ty[ptype].elem;
    int first = 1;
    bool ptr_chain = spv_is(in, "OpPtrAccessChain") || spv_is(in, "OpInBoundsPtrAccessChain");
    for (int i = first; i < in->nargs; i++) {
        struct val x;
        if (!tr_get(t, fr, &in->args[i], &x))
            return false;
        x = em_scalar(t, x, in);
        const struct ty *y = &t->ty[cur];
        int64_t step;
        int next;
        if (ptr_chain && i == first) {
            step = t->ty[ptype].stride ? t->ty[ptype].stride : tr_size(t, cur, 0);
            next = cur;
        } else if (y->k == TY_STRUCT) {
            if (x.k != V_CONST || x.c < 0 || x.c >= y->nmem)
                return spv_fail(t->err, in->args[i].pos, "%s: a struct member index must be a constant member",
                                in->op->name);
            p.off += y->moff[x.c];
            cur = y->mem[x.c];
            continue;
        } else if (y->k == TY_ARRAY || y->k == TY_RUNTIME_ARRAY || y->k == TY_VECTOR) {
            step = y->k != TY_VECTOR && y->stride ? y->stride : tr_size(t, y->elem, 0);
            next = y->elem;
        } else {
            return spv_fail(t->err, in->args[i].pos, "%s: too many indices for type %%%s", in->op->name,
                            tr_name(t, cur));
        }
        if (x.k == V_CONST) {
            p.off += x.c * step;
        } else if (p.reg < 0) {
            p.reg = x.reg;
            p.scale = step;
        } else {
            /* fold reg*scale + x*step into one register times their
               greatest common divisor, which keeps the offsets it can
               reach on the elements' grid */
            int64_t g = p.scale, h = step;
            while (h) {
                int64_t m = g % h;
                g = h;
                h = m;
            }
            g = g < 0 ? -g : g;
            g = g ? g : 1;
            int r = em_reg(t), r2 = em_reg(t);
            em_local(t, r, OP_MUL, v_reg(p.reg, -1), v_const(p.scale / g, -1), in);
            em_local(t, r2, OP_MUL, x, v_const(step / g, -1), in);
            em_local(t, r, OP_ADD, v_reg(r, -1), v_reg(r2, -1), in);
            p.reg = r;
            p.scale = g;
        }
        cur = next;
    }
    p.type = in->rtype;
    *out = p;
    return true;
}

/* Emits one scalar access of a to the leaf l of object o; out gets a load's value. */
static void emit_leaf(struct trans *t, const struct obj *o, const struct leaf *l, const struct acc *a,
                      int dst, const struct spv_inst *in)
{
    if (o->grp == SCG_READONLY) {     /* a register offset into read-only memory */
        em_move(t, dst, v_const(l->value, -1), in);
        return;
    }
    if (o->grp == SCG_PRIVATE) {     /* the invocation's own memory: register operations */
        if (a->kind == I_LOAD) {
            em_move(t, dst, v_reg(l->reg, -1), in);
        } else if (a->kind == I_STORE) {
            em_move(t, l->reg, a->a, in);
        } else if (a->op == OP_CAS) {
            int skip = em_label(t);
            em_move(t, dst, v_reg(l->reg, -1), in);
            struct instr *x = em(t, I_BRANCH, in);
            x->cmp = CMP_NE;
            x->a = em_operand(v_reg(dst, -1));
            x->b = em_operand(a->a);
            x->label = skip;
            em_move(t, l->reg, a->b, in);
            em_place(t, skip, in);
        } else {
            em_move(t, dst, v_reg(l->reg, -1), in);
            if (a->op == OP_EXCH)
                em_move(t, l->reg, a->a, in);
            else if (a->op >= OP_SMIN)
                em_extremum(t, l->reg, a->op, v_reg(dst, -1), a->a, in);
            else
                em_local(t, l->reg, a->op, v_reg(dst, -1), a->a, in);
        }
        return;
    }
    struct instr *x = em(t, a->kind, in);
    x->loc = l->loc;
    x->dst = a->kind == I_STORE ? -1 : dst;
    x->mo = a->mo;
    x->scope = a->scope;
    x->vk_flags = a->flags;
    x->semsc = a->semsc;
    x->storage_class = o->sc;
    x->op = a->op;
    x->cas_if_equal = a->op == OP_CAS;   /* SPIR-V: no store when the comparison fails */
    x->a = em_operand(a->a);
    x->b = em_operand(a->b);
    if (t->opencl)
        tr_cl_retag(x, 0);
}

/* Emits an access of size bytes at off covering the n leaves of object o
 * from first: one leaf as it is; several (mixed sizes) as one access per
 * leaf, little-endian, the value put together (a load) or taken apart (a
 * store) by shifts.  Atomics and 64-bit values are refused there. */
static bool emit_run(struct trans *t, const struct obj *o, int first, int n, int64_t off, int size,
                     const struct acc *a, int dst, const struct spv_inst *in)
{
    if (n == 1) {
        emit_leaf(t, o, &o->leaf[first], a, dst, in);
        return true;
    }
    if (a->atomic)
        return spv_fail(t->err, in->pos, "%s: a %d-byte atomic access over %d elements of other sizes at byte %lld "
                        "of %%%s (mixed-size atomics are not supported)", in->op->name, size, n, (long long)off,
                        tr_name(t, o->var));
    if (size > 4)
        return spv_fail(t->err, in->pos, "%s: a %d-byte access over %d elements of other sizes at byte %lld of "
                        "%%%s (mixed sizes wider than 32 bits are not supported)", in->op->name, size, n,
                        (long long)off, tr_name(t, o->var));
    if (t->scratch < 0)     /* one register of the thread holds every piece in turn */
        t->scratch = em_reg(t);
    int r = t->scratch;
    for (int i = first; i < first + n; i++) {
        const struct leaf *l = &o->leaf[i];
        int64_t sh = (int64_t)1 << (8 * (l->off - off)), mask = ((int64_t)1 << (8 * l->size)) - 1;
        struct acc piece = *a;
        if (a->kind == I_LOAD && i == first) {      /* dst = the first leaf, |= the others << 8 * (their byte) */
            emit_leaf(t, o, l, a, dst, in);
        } else if (a->kind == I_LOAD) {
            emit_leaf(t, o, l, a, r, in);
            em_local(t, r, OP_MUL, v_reg(r, -1), v_const(sh, -1), in);
            em_local(t, dst, OP_OR, v_reg(dst, -1), v_reg(r, -1), in);
        }
        if (a->kind == I_LOAD)
            continue;
        if (a->a.k == V_CONST) {            /* leaf = value >> 8 * (its byte), its bytes */
            piece.a = v_const((int64_t)(uint32_t)a->a.c / sh & mask, -1);
        } else {
            em_udiv_const(t, r, a->a, sh, in);
            em_local(t, r, OP_AND, v_reg(r, -1), v_const(mask, -1), in);
            piece.a = v_reg(r, -1);
        }
        emit_leaf(t, o, l, &piece, -1, in);
    }
    return true;
}

/* An index out of bounds of o: the thread stops here for ever; past the
 * length gpubmc chose for a host-sized array, the host's array may go on,
 * so the thread counts up for ever instead: a loop that runs past every
 * bound, which makes a verdict that reaches it UNKNOWN.  That loop never
 * ends, so no jump back follows it: one would wrap it in a second loop,
 * and unrolling would copy the inner loop once per copy of the outer
 * (bound squared operations at every access, none reachable). */
static void stop_invocation(struct trans *t, const struct obj *o, const struct spv_inst *in)
{
    int here = em_label(t);
    em_place(t, here, in);
    if (t->ty[o->type].host_sized)
        em_diverge(t, in);
    else
        em_goto(t, here, in);
}

/* One scalar access through pointer p at extra offset rel; dst the register of a load. */
static bool access_scalar(struct trans *t, struct val p, int64_t rel, int size, const struct acc *a, int dst,
                          const struct spv_inst *in)
{
    const struct obj *o = &t->obj[p.obj];
    if ((a->kind != I_LOAD || a->atomic) && o->grp == SCG_READONLY)
        return spv_fail(t->err, in->pos, "%s: %%%s is read-only", in->op->name, tr_name(t, o->var));
    for (int i = 0; o->grp == SCG_READONLY && i < o->nleaf; i++)
        if (o->leaf[i].undef)
            return spv_fail(t->err, in->pos, "%s: %%%s has elements without a value (no @Input): undefined "
                            "inputs are not supported", in->op->name, tr_name(t, o->var));
    int first = 0, n;
    if (p.reg < 0) {
        int64_t off = p.off + rel;
        n = tr_cover(t, p.obj, off, size, &first);
        if (!n && tr_grow(t, p.obj, off + size - 1)) {
            o = &t->obj[p.obj];
            n = tr_cover(t, p.obj, off, size, &first);
        }
        if (!n && tr_note_cut(t, p.obj, off, size, in->pos)) {
            if (a->kind != I_STORE)     /* the module is translated again with the object cut here */
                em_move(t, dst, v_const(0, -1), in);
            return true;
        }
        if (!n) {       /* a constant index out of bounds: the invocation stops here, as below */
            stop_invocation(t, o, in);
            return true;
        }
        return emit_run(t, &t->obj[p.obj], first, n, off, size, a, dst, in);
    }
    /* a register offset: one branch per element it can reach */
    if (p.scale == 0)
        return spv_fail(t->err, in->pos, "%s: the index reaches no %d-byte element of %%%s", in->op->name, size,
                        tr_name(t, o->var));
    int end = em_label(t), hits = 0;
    int64_t base = p.off + rel, step = p.scale < 0 ? -p.scale : p.scale;
    bool cut = false;
    for (int64_t c = ((base % step) + step) % step; c + size <= o->extent; c += step) {
        n = tr_cover(t, p.obj, c, size, &first);
        if (!n) {       /* padding, or leaves of other sizes: cut there for the next translation */
            cut = tr_note_cut(t, p.obj, c, size, in->pos) || cut;
            continue;
        }
        int here = em_label(t), next = em_label(t);
        struct instr *x = em(t, I_BRANCH, in);
        x->cmp = CMP_EQ;
        x->a = em_operand(v_reg(p.reg, -1));
        x->b = em_operand(v_const((c - base) / p.scale, -1));
        x->label = here;
        em_goto(t, next, in);
        em_place(t, here, in);
        if (!emit_run(t, o, first, n, c, size, a, dst, in))
            return false;
        em_goto(t, end, in);
        em_place(t, next, in);
        hits++;
    }
    if (!hits && !cut)
        return spv_fail(t->err, in->pos, "%s: the index reaches no %d-byte element of %%%s", in->op->name, size,
                        tr_name(t, o->var));
    stop_invocation(t, o, in);      /* no element matched: out of bounds */
    em_place(t, end, in);
    return true;
}

struct split {
    struct val p;
    const struct acc *a;
    struct val *vals;       /* loads: filled; stores: the flat values */
    int n, cap;
    const struct spv_inst *in;
    bool load;
};

static bool split_leaf(struct trans *t, void *ctx, int64_t off, int type)
{
    struct split *s = ctx;
    const struct ty *y = &t->ty[type];
    if (s->n >= s->cap)
        return spv_fail(t->err, s->in->pos, "%s: too many elements", s->in->op->name);
    struct acc a = *s->a;
    int dst = -1;
    const struct obj *o = &t->obj[s->p.obj];
    if (y->k == TY_POINTER && o->grp == SCG_PRIVATE && s->p.reg < 0)     /* a pointer the invocation keeps */
        return tr_pointer_slot(t, s->p.obj, s->p.off + off, s->load, &s->vals[s->n++], s->in);
    if (y->k == TY_FLOAT || y->k == TY_POINTER)
        return spv_fail(t->err, s->in->pos, "%s: %s values are not supported", s->in->op->name,
                        y->k == TY_FLOAT ? "floating-point" : "pointer");
    const struct leaf *l = NULL;
    if (s->load && o->grp == SCG_READONLY && s->p.reg < 0
        && (l = tr_leaf_at(t, s->p.obj, s->p.off + off, (int)tr_size(t, type, 0)))) {    /* a constant: fold it */
        if (l->undef)
            return tr_unset_input(t, o, s->p.off + off, type, s->in, &s->vals[s->n++]);
        s->vals[s->n++] = v_const(l->value, type);
        return true;
    }
    if (s->load) {
        dst = em_reg(t);
        s->vals[s->n] = v_reg(dst, type);
    } else {
        a.a = s->vals[s->n];
    }
    s->n++;
    return access_scalar(t, s->p, off, (int)tr_size(t, type, 0), &a, dst, s->in);
}

/* Rebuilds a value of type from flat scalars at *i. */
static struct val unflatten(struct trans *t, int type, const struct val *flat, int *i)
{
    const struct ty *y = &t->ty[type];
    if (y->k == TY_STRUCT || y->k == TY_ARRAY || y->k == TY_VECTOR) {
        int n = y->k == TY_STRUCT ? y->nmem : (int)y->count;
        struct val v = { .k = V_COMP, .type = type, .n = n, .el = tr_alloc(t, sizeof(struct val) * (size_t)n) };
        for (int k = 0; k < n; k++)
            v.el[k] = unflatten(t, y->k == TY_STRUCT ? y->mem[k] : y->elem, flat, i);
        return v;
    }
    struct val v = flat[(*i)++];
    v.type = type;
    return v;
}

static void flatten_val(struct trans *t, struct val v, struct val *out, int *n, int cap, const struct spv_inst *in)
{
    if (v.k == V_COMP) {
        for (int k = 0; k < v.n; k++)
            flatten_val(t, v.el[k], out, n, cap, in);
    } else if (*n < cap) {
        out[(*n)++] = v.k == V_PTR ? v : em_scalar(t, v, in);
    }
}

/* Memory operands of a plain OpLoad/OpStore into a. */
static bool memory_operands(struct trans *t, struct frame *fr, const struct spv_inst *in, int at, bool load,
                            struct acc *a)
{
    a->mo = MO_WEAK;
    if (at >= in->nargs)
        return true;
    if (t->opencl)
        return tr_cl_memory_operands(t, in, at);
    uint32_t bits = (uint32_t)in->args[at].num;
    if (bits & (load ? MA_AVAILABLE : MA_VISIBLE))
        return spv_fail(t->err, in->args[at].pos, "%s cannot have %s", in->op->name,
                        load ? "MakePointerAvailable" : "MakePointerVisible");
    if ((bits & (MA_AVAILABLE | MA_VISIBLE)) && !(bits & MA_NONPRIVATE))
        return spv_fail(t->err, in->args[at].pos, "%s: MakePointer%s needs NonPrivatePointer", in->op->name,
                        load ? "Visible" : "Available");
    if (bits & ~(uint32_t)0x3f)
        return spv_fail(t->err, in->args[at].pos, "%s: memory operand 0x%x is not supported", in->op->name, bits);
    if (bits & MA_NONPRIVATE)
        a->flags |= VK_NONPRIV;
    if (bits & (MA_AVAILABLE | MA_VISIBLE)) {
        a->flags |= load ? VK_VIS : VK_AV;
        for (int i = at + 1; i < in->nargs; i++)
            if (!strcmp(in->args[i].kind, "IdScope") && !scope_of(t, fr, &in->args[i], true, &a->scope))
                return false;
    }
    return true;
}

/* OpLoad and OpStore. */
bool tr_load_store(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out)
{
    bool load = spv_is(in, "OpLoad");
    struct val p;
    if (!get_ptr(t, fr, &in->args[0], &p))
        return false;
    struct acc a = { .kind = load ? I_LOAD : I_STORE };
    a.a = a.b = v_const(0, -1);
    if (!memory_operands(t, fr, in, load ? 1 : 2, load, &a))
        return false;
    int type = t->ty[p.type].elem;
    if (load && !tr_same_type(t, in->rtype, type))
        return spv_fail(t->err, in->pos, "OpLoad: result type %%%s is not the pointer's %%%s",
                        tr_name(t, in->rtype), tr_name(t, type));
    struct val flat[1024];
    struct split s = { p, &a, flat, 0, 1024, in, load };
    if (!load) {
        struct val v;
        if (!tr_get(t, fr, &in->args[1], &v))
            return false;
        int d = t->m->id_def[in->args[1].id], vt = d >= 0 ? t->m->inst[d].rtype : -1;
        if (vt >= 0 && !tr_same_type(t, vt, type))
            return spv_fail(t->err, in->args[1].pos, "OpStore: %%%s has type %%%s, not the pointer's %%%s",
                            tr_name(t, in->args[1].id), tr_name(t, vt), tr_name(t, type));
        int n = 0;
        flatten_val(t, v, flat, &n, 1024, in);
    }
    s.n = 0;
    if (!tr_leaves(t, type, 0, 0, split_leaf, &s, in->pos))
        return false;
    if (load) {
        int i = 0;
        *out = unflatten(t, type, flat, &i);
    }
    return true;
}

/* The atomics. */
bool tr_atomic(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out)
{
    struct val p;
    if (!get_ptr(t, fr, &in->args[0], &p))
        return false;
    int type = t->ty[p.type].elem;
    bool wide = tr_is_wide_int(t, type);
    if ((!tr_is_scalar(t, type) && !wide) || t->ty[type].k != TY_INT)
        return spv_fail(t->err, in->pos, "%s: atomics on anything but integers of 32 bits or more are not supported",
                        in->op->name);
    struct acc a = { .atomic = true, .kind = I_RMW, .flags = VK_ATOMIC | VK_NONPRIV };
    a.a = a.b = v_const(0, -1);
    if (!scope_of(t, fr, &in->args[1], true, &a.scope)
        || !semantics_of(t, fr, &in->args[2], &a.mo, &a.semsc, &a.flags))
        return false;
    static const struct { const char *name; enum binop op; int operand; } ops[] = {
        { "OpAtomicExchange", OP_EXCH, 3 }, { "OpAtomicIAdd", OP_ADD, 3 }, { "OpAtomicISub", OP_SUB, 3 },
        { "OpAtomicAnd", OP_AND, 3 }, { "OpAtomicOr", OP_OR, 3 }, { "OpAtomicXor", OP_XOR, 3 },
        { "OpAtomicIIncrement", OP_ADD, -1 }, { "OpAtomicIDecrement", OP_SUB, -1 },
        { "OpAtomicSMin", OP_SMIN, 3 }, { "OpAtomicSMax", OP_SMAX, 3 }, { "OpAtomicUMin", OP_UMIN, 3 },
        { "OpAtomicUMax", OP_UMAX, 3 },
    };
    if (spv_is(in, "OpAtomicLoad")) {
        a.kind = I_LOAD;
        a.flags |= VK_VIS;
        if (t->opencl)      /* C11's load order, as Dat3M's tags read in opencl.cat */
            a.mo = a.mo == MO_ACQ_REL ? MO_ACQUIRE : a.mo == MO_RELEASE ? MO_RELAXED : a.mo;
        else if (a.mo == MO_RELEASE || a.mo == MO_ACQ_REL)
            return spv_fail(t->err, in->args[2].pos, "OpAtomicLoad cannot have release semantics");
    } else if (spv_is(in, "OpAtomicStore")) {
        a.kind = I_STORE;
        a.flags |= VK_AV;
        if (t->opencl)      /* C11's store order */
            a.mo = a.mo == MO_ACQ_REL ? MO_RELEASE : a.mo == MO_ACQUIRE ? MO_RELAXED : a.mo;
        else if (a.mo == MO_ACQUIRE || a.mo == MO_ACQ_REL)
            return spv_fail(t->err, in->args[2].pos, "OpAtomicStore cannot have acquire semantics");
        struct val v;
        if (!tr_get(t, fr, &in->args[3], &v))
            return false;
        a.a = em_scalar(t, v, in);
    } else if (spv_is(in, "OpAtomicCompareExchange")) {
        enum mo mo2;
        unsigned semsc2 = 0, flags2 = 0;
        if (!semantics_of(t, fr, &in->args[3], &mo2, &semsc2, &flags2))
            return false;
        /* A failing compare-exchange is a read with the Unequal semantics, a
         * succeeding one an RMW whose read half has the Equal semantics'
         * acquire side (its storage classes only when it acquires, its
         * MakeVisible; base.c's vk_event_flags): the read event carries
         * both, so those must agree.  The release side of Unequal, which
         * SPIR-V forbids, would order no read. */
        bool acq = a.mo == MO_ACQUIRE || a.mo == MO_ACQ_REL, acq2 = mo2 == MO_ACQUIRE || mo2 == MO_ACQ_REL;
        if (t->opencl && !tr_cl_cas_semantics(t, in->args[3].pos, a.mo, a.semsc, mo2, semsc2))
            return false;
        if (!t->opencl && (acq != acq2 || (acq && semsc2 != a.semsc) || (flags2 & VK_SEMVIS) != (a.flags & VK_SEMVIS)))
            return spv_fail(t->err, in->args[3].pos, "OpAtomicCompareExchange with these unequal semantics "
                            "is not supported");
        a.op = OP_CAS;
        a.flags |= VK_AV | VK_VIS;
        struct val v, cmpv;
        if (!tr_get(t, fr, &in->args[4], &v) || !tr_get(t, fr, &in->args[5], &cmpv))
            return false;
        a.a = em_scalar(t, cmpv, in);
        a.b = em_scalar(t, v, in);
    } else {
        int k = -1;
        for (int i = 0; i < (int)(sizeof ops / sizeof *ops); i++)
            if (spv_is(in, ops[i].name))
                k = i;
        if (k < 0)
            return spv_fail(t->err, in->pos, "%s is not supported", in->op->name);
        a.op = ops[k].op;
        a.flags |= VK_AV | VK_VIS;
        if (ops[k].operand < 0) {
            a.a = v_const(1, -1);
        } else {
            struct val v;
            if (!tr_get(t, fr, &in->args[ops[k].operand], &v))
                return false;
            a.a = em_scalar(t, v, in);
        }
    }
    int dst = a.kind == I_STORE ? -1 : em_reg(t);
    if (!access_scalar(t, p, 0, (int)tr_size(t, type, 0), &a, dst, in))
        return false;
    if (wide && (a.op == OP_ADD || a.op == OP_SUB) && a.kind == I_RMW) {
        /* the value written, old op operand, must stay within 32 bits: an
           execution where it does not is diverted here (its other threads
           may have read it, but such an execution is never a witness) */
        int r = em_reg(t);
        em_local(t, r, a.op, v_reg(dst, -1), a.a, in);
        em_check_wide(t, a.op, v_reg(dst, -1), a.a, r, in);
    }
    if (dst >= 0)
        *out = v_reg(dst, in->rtype);
    return true;
}

/* OpControlBarrier and OpMemoryBarrier. */
bool tr_barrier(struct trans *t, struct frame *fr, const struct spv_inst *in)
{
    bool cbar = spv_is(in, "OpControlBarrier");
    const struct spv_arg *sem = &in->args[cbar ? 2 : 1], *mem = &in->args[cbar ? 1 : 0];
    enum scope exec = SCOPE_WG, scope = SCOPE_WG;
    enum mo mo;
    unsigned semsc = 0, flags = 0;
    if ((cbar && !scope_of(t, fr, &in->args[0], false, &exec)) || !scope_of(t, fr, mem, true, &scope)
        || !semantics_of(t, fr, sem, &mo, &semsc, &flags))
        return false;
    if (t->opencl)
        return tr_cl_barrier(t, in, cbar, exec, scope, mo, semsc);
    if (cbar && exec != SCOPE_WG && exec != SCOPE_SG)
        return spv_fail(t->err, in->args[0].pos, "OpControlBarrier: only Workgroup and Subgroup execution scopes "
                        "are supported");
    if (!cbar && mo == MO_RELAXED)
        return spv_fail(t->err, sem->pos, "OpMemoryBarrier with relaxed semantics");
    struct instr *x = em(t, cbar ? I_BARRIER : I_FENCE, in);
    x->mo = mo == MO_RELAXED ? MO_NONE : mo;
    x->scope = scope;
    x->semsc = semsc;
    x->vk_flags = flags;
    if (cbar)
        x->bar_instance = (int64_t)(in - t->m->inst);
    if (cbar && exec == SCOPE_SG && t->grid[1] > 1) {
        /* a cbar waits for its workgroup; named by the subgroup, it waits
           only for the invocations with the same name: its subgroup's */
        x->has_bar_id = true;
        x->bar_id = em_operand(v_const((t->tid % (t->grid[0] * t->grid[1])) / t->grid[0], -1));
    }
    return true;
}
