/* OpenCL modules (OpMemoryModel Physical32/64 OpenCL) as Dat3M reads them
 * (its SPIR-V visitors, VisitorSpirvOpenCL and Tag.Spirv.toOpenCLTag):
 * storage classes and their spaces, scopes, semantics as C11 orders and
 * fence flags, barriers, kernel arguments, pointers kept in Function
 * variables, and the generic pointer casts. */
#include <string.h>

#include "litmus/spirv_trans.h"

#define DEFAULT_ARG_ELEMS 10    /* Dat3M's length of a pointer argument's array without @Input */
#define ADDRESS_SPAN 65536      /* OpConvertPtrToU: bytes between two variables' addresses */

static bool word_is(const struct spv_arg *a, const char *w)
{
    return a->tk == TK_WORD && (int)strlen(w) == a->len && !memcmp(a->s, w, (size_t)a->len);
}

/* Dat3M's OpenCL scope tag of a SPIR-V Scope value. */
bool tr_cl_scope(struct trans *t, int64_t v, struct srcpos pos, enum scope *s)
{
    switch (v) {
    case 0: *s = SCOPE_ALL; return true;
    case 1: *s = SCOPE_DV; return true;
    case 2: *s = SCOPE_WG; return true;
    case 4: *s = SCOPE_WI; return true;
    case 3:
        return spv_fail(t->err, pos, "scope Subgroup is not supported under the OpenCL model (it has no subgroup "
                        "scope)");
    default:
        return spv_fail(t->err, pos, "scope %lld is not supported under the OpenCL model (QueueFamily, "
                        "ShaderCallKHR or no scope)", (long long)v);
    }
}

/* Decodes MemorySemantics into a C11 order and fence flags. */
bool tr_cl_semantics(struct trans *t, int64_t v, struct srcpos pos, enum mo *mo, unsigned *flags)
{
    static const struct { uint32_t bit; const char *name; } refused[] = {
        { 0x40, "UniformMemory" }, { 0x1000, "OutputMemory" }, { 0x2000, "MakeAvailable" },
        { 0x4000, "MakeVisible" }, { 0x8000, "Volatile" },
    };
    uint32_t bits = (uint32_t)v;
    int orders = 0;
    *mo = MO_RELAXED;
    *flags = 0;
    if (bits & 0x2) { *mo = MO_ACQUIRE; orders++; }
    if (bits & 0x4) { *mo = MO_RELEASE; orders++; }
    if (bits & 0x8) { *mo = MO_ACQ_REL; orders++; }
    if (bits & 0x10) { *mo = MO_SC; orders++; }
    if (orders > 1)
        return spv_fail(t->err, pos, "memory semantics 0x%x: more than one memory order", bits);
    for (int i = 0; i < (int)(sizeof refused / sizeof *refused); i++)
        if (bits & refused[i].bit)
            return spv_fail(t->err, pos, "%s memory semantics are not supported under the OpenCL model",
                            refused[i].name);
    if (bits & ~(uint32_t)0xffde)
        return spv_fail(t->err, pos, "memory semantics 0x%x: unexpected bits", bits);
    if (bits & (0x80 | 0x100))          /* SubgroupMemory, WorkgroupMemory */
        *flags |= CL_LOCAL;
    if (bits & (0x200 | 0x400))         /* CrossWorkgroupMemory, AtomicCounterMemory */
        *flags |= CL_GLOBAL;
    return true;
}

/* Memory operands of a plain access: Volatile, Aligned, Nontemporal. */
bool tr_cl_memory_operands(struct trans *t, const struct spv_inst *in, int at)
{
    uint32_t bits = (uint32_t)in->args[at].num;
    if (bits & (0x8 | 0x10 | 0x20))
        return spv_fail(t->err, in->args[at].pos, "%s: MakePointerAvailable, MakePointerVisible and "
                        "NonPrivatePointer are not supported under the OpenCL model", in->op->name);
    if (bits & ~(uint32_t)0x7)
        return spv_fail(t->err, in->args[at].pos, "%s: memory operand 0x%x is not supported", in->op->name, bits);
    return true;
}

/* Dat3M's conditions on compare-exchange semantics under OpenCL. */
bool tr_cl_cas_semantics(struct trans *t, struct srcpos pos, enum mo eq, unsigned eq_flags, enum mo neq,
                         unsigned neq_flags)
{
    bool acquires = eq == MO_ACQUIRE || eq == MO_ACQ_REL;
    if (eq_flags != neq_flags || (neq == MO_RELAXED && acquires) || (neq == MO_ACQUIRE && eq == MO_RELEASE))
        return spv_fail(t->err, pos, "OpAtomicCompareExchange with these unequal semantics is not supported");
    return true;
}

/* Clears the Vulkan attributes of x and sets its OpenCL fence flags. */
void tr_cl_retag(struct instr *x, unsigned flags)
{
    x->vk_flags = 0;
    x->semsc = 0;
    x->storage_class = -1;
    x->cl_flags = flags;
}

/* OpControlBarrier: one barrier event, tagged ACQ_REL as Dat3M's C11
 * compilation tags it (whatever order its semantics name: the compiled
 * barrier keeps only their scope and spaces), with the memory scope and
 * the flags; OpMemoryBarrier: a fence with its order. */
bool tr_cl_barrier(struct trans *t, const struct spv_inst *in, bool cbar, enum scope exec, enum scope scope,
                   enum mo mo, unsigned flags)
{
    if (cbar && exec != SCOPE_WG)
        return spv_fail(t->err, in->args[0].pos, "OpControlBarrier: only the Workgroup execution scope is "
                        "supported under the OpenCL model");
    if (!cbar && mo == MO_RELAXED && !flags)
        return spv_fail(t->err, in->args[1].pos, "OpMemoryBarrier with semantics None");
    struct instr *x = em(t, cbar ? I_BARRIER : I_FENCE, in);
    x->mo = cbar ? MO_ACQ_REL : mo;
    x->scope = scope;
    if (cbar)
        x->bar_instance = (int64_t)(in - t->m->inst);
    tr_cl_retag(x, flags);
    return true;
}

/* Storage classes of an OpenCL module's variables. */
bool tr_cl_class(struct trans *t, const struct spv_arg *sc, enum sc_group *g, int *vk_sc)
{
    *vk_sc = -1;
    if (word_is(sc, "CrossWorkgroup")) {
        *g = SCG_SHARED;
        *vk_sc = 0;
    } else if (word_is(sc, "Workgroup")) {
        *g = SCG_WORKGROUP;
        *vk_sc = 1;
    } else if (word_is(sc, "Function") || word_is(sc, "Private")) {
        *g = SCG_PRIVATE;
    } else if (word_is(sc, "Input") || word_is(sc, "UniformConstant")) {
        *g = SCG_READONLY;
    } else {
        return spv_fail(t->err, sc->pos, "OpVariable: storage class %.*s is not supported under the OpenCL model",
                        sc->len, sc->s);
    }
    return true;
}

/* Dat3M's alignment of a type in an OpenCL module. */
int64_t tr_cl_align(const struct trans *t, int type)
{
    const struct ty *y = &t->ty[type];
    int64_t a = 1;
    switch (y->k) {
    case TY_VECTOR:
        return y->count == 3 ? 4 * tr_size(t, y->elem, 0) : tr_cl_align(t, y->elem);
    case TY_ARRAY: case TY_RUNTIME_ARRAY:
        return tr_cl_align(t, y->elem);
    case TY_STRUCT:
        for (int i = 0; i < y->nmem; i++)
            a = tr_cl_align(t, y->mem[i]) > a ? tr_cl_align(t, y->mem[i]) : a;
        return a;
    default:
        a = tr_size(t, type, 0);
        return a > 0 ? a : 1;
    }
}

/* n rounded up to a multiple of align. */
int64_t tr_cl_round(int64_t n, int64_t align)
{
    return align > 1 && n % align ? n + align - n % align : n;
}

/* The zero value of type: 0, a null pointer, or composites of them. */
bool tr_null_value(struct trans *t, int type, struct val *out, struct srcpos pos)
{
    const struct ty *y = &t->ty[type];
    if (y->k == TY_INT || y->k == TY_BOOL) {
        *out = v_const(0, type);
        return true;
    }
    if (y->k == TY_POINTER) {
        *out = (struct val){ .k = V_PTR, .type = type, .obj = -1, .reg = -1 };    /* null: no object */
        return true;
    }
    if (y->k != TY_STRUCT && y->k != TY_ARRAY && y->k != TY_VECTOR)
        return spv_fail(t->err, pos, "OpConstantNull of type %%%s is not supported", tr_name(t, type));
    int n = y->k == TY_STRUCT ? y->nmem : (int)y->count;
    if (n < 0 || n > 4096)
        return spv_fail(t->err, pos, "OpConstantNull: too many elements");
    *out = (struct val){ .k = V_COMP, .type = type, .n = n, .el = tr_alloc(t, sizeof(struct val) * (size_t)(n + 1)) };
    for (int i = 0; i < n; i++)
        if (!tr_null_value(t, y->k == TY_STRUCT ? y->mem[i] : y->elem, &out->el[i], pos))
            return false;
    return true;
}

/* Workgroup memory is local, everything else shared is global. */
unsigned tr_cl_space(const struct obj *o)
{
    return o->grp == SCG_WORKGROUP ? CL_LOCAL : CL_GLOBAL;
}

/* The value of pointer kernel argument param: the object behind it, an
 * array of its pointee as long as its @Input list (else 10 elements) or
 * as far as a constant index reaches. */
static bool pointer_arg(struct trans *t, const struct spv_inst *param, const struct spv_input *input, struct val *out)
{
    const struct ty *pt = &t->ty[param->rtype];
    enum sc_group g;
    if (pt->sclass == 5 || pt->sclass == 0)        /* CrossWorkgroup, UniformConstant: global memory */
        g = SCG_SHARED;
    else if (pt->sclass == 4)                      /* Workgroup: local memory, a copy per work-group */
        g = SCG_WORKGROUP;
    else if (pt->sclass == 7)                      /* Function: a struct passed by value, the invocation's */
        g = SCG_PRIVATE;
    else
        return spv_fail(t->err, param->pos, "kernel argument %%%s: pointers of storage class %d are not supported",
                        tr_name(t, param->result), pt->sclass);
    if (input && !input->value.is_list)
        return spv_fail(t->err, input->pos, "@Input: %%%s is a pointer argument: it needs a list",
                        tr_name(t, param->result));
    int type = t->m->nids + param->result;
    struct ty *at = &t->ty[type];
    memset(at, 0, sizeof *at);
    at->k = TY_ARRAY;
    at->elem = pt->elem;
    at->count = input ? input->value.n : DEFAULT_ARG_ELEMS;
    at->stride = pt->stride;
    /* the host's buffer: as long as the constant indices reach, as
       clspv's __local arguments are (tr_grow); a private copy is not */
    at->host_sized = g != SCG_PRIVATE;
    if (t->host_len[type] > at->count)
        at->count = t->host_len[type];
    int o = tr_param_object(t, param, type, g);
    if (o < 0)
        return false;
    if (at->host_sized)      /* past the @Input list: the length an earlier translation found */
        tr_grow(t, o, (at->count - 1) * (at->stride ? at->stride : tr_size(t, at->elem, 0)));
    *out = (struct val){ .k = V_PTR, .type = param->rtype, .obj = o, .reg = -1 };
    return true;
}

/* The entry point's parameters: kernel arguments from @Input, a scalar
 * without one arbitrary. */
bool tr_cl_entry_args(struct trans *t, int fn, struct val **args, int *nargs)
{
    const struct spv_module *m = t->m;
    int n = 0;
    while (t->opencl && fn + 1 + n < m->ninst && spv_is(&m->inst[fn + 1 + n], "OpFunctionParameter"))
        n++;
    *args = tr_alloc(t, sizeof(struct val) * (size_t)(n + 1));
    *nargs = n;
    for (int i = 0; i < n; i++) {
        const struct spv_inst *param = &m->inst[fn + 1 + i];
        const struct ty *y = &t->ty[param->rtype];
        const struct spv_input *input = NULL;
        for (int k = 0; k < m->ninputs; k++)
            if (m->inputs[k].id == param->result)
                input = &m->inputs[k];
        if (y->k == TY_POINTER) {
            if (!pointer_arg(t, param, input, &(*args)[i]))
                return false;
            continue;
        }
        if (y->k != TY_INT && y->k != TY_BOOL)
            return spv_fail(t->err, param->pos, "kernel argument %%%s: only integer, boolean and pointer arguments "
                            "are supported", tr_name(t, param->result));
        if (!input) {      /* Dat3M: any value, one per invocation */
            if (!tr_unset_arg(t, param, &(*args)[i]))
                return false;
            continue;
        }
        if (input->value.is_list)
            return spv_fail(t->err, input->pos, "@Input: %%%s is a scalar argument: it needs a number",
                            tr_name(t, param->result));
        (*args)[i] = v_const(y->k == TY_BOOL ? input->value.value != 0 : input->value.value, param->rtype);
    }
    return true;
}

/* The object a pointer kernel argument id points to. */
int tr_cl_param_object(const struct trans *t, int id)
{
    int d = t->m->id_def[id];
    if (!t->opencl || d < 0 || !spv_is(&t->m->inst[d], "OpFunctionParameter"))
        return -1;
    if (t->shared_obj[id] >= 0)
        return t->shared_obj[id];
    return t->grid[2] == 1 ? t->wg_obj[id] : -1;
}

/* The private object of var, its pointer elements forgotten. */
int tr_private_object(struct trans *t, const struct spv_inst *var)
{
    int o = t->private_obj[var->result];
    if (o < 0)
        return t->private_obj[var->result] = tr_object(t, var);
    for (int i = 0; i < t->obj[o].nleaf; i++)
        t->obj[o].leaf[i].ptr = NULL;
    return o;
}

static bool same_pointer(const struct val *a, const struct val *b)
{
    return a->obj == b->obj && a->off == b->off && a->reg == b->reg && (a->reg < 0 || a->scale == b->scale);
}

/* A pointer element that holds null or one pointer: the element's
 * register says which (1: the pointer, 0: null, its initial value); a
 * load gives the pointer, maybe_null with that register. */
static bool null_or_one_slot(struct trans *t, struct leaf *l, bool load, struct val *v, const char *var,
                             const struct spv_inst *in)
{
    if (load) {
        if (!l->ptr) {
            *v = (struct val){ .k = V_PTR, .obj = -1, .reg = -1 };   /* null so far */
            return true;
        }
        *v = *l->ptr;
        v->maybe_null = true;
        v->nz = l->reg;
        return true;
    }
    em_move(t, l->reg, v_const(v->obj >= 0, -1), in);
    if (v->obj < 0)
        return true;
    if (l->ptr && !same_pointer(l->ptr, v))
        return spv_fail(t->err, in->pos, "%s stores a second, different pointer in %%%s: a variable that holds "
                        "null or one pointer is supported, not more", in->op->name, var);
    l->ptr = tr_alloc(t, sizeof *l->ptr);
    *l->ptr = *v;
    return true;
}

/* A pointer kept in a private object: known at translation time, as long
 * as every store on the way stores the same one, or null and one pointer
 * (at a constant offset), which the module's next translation keeps in
 * the element's register (null_or_one_slot). */
bool tr_pointer_slot(struct trans *t, int o, int64_t off, bool load, struct val *v, const struct spv_inst *in)
{
    struct leaf *l = (struct leaf *)tr_leaf_at(t, o, off, t->ptr_bytes);
    const char *var = tr_name(t, t->obj[o].var);
    if (!l)
        return spv_fail(t->err, in->pos, "%s: no pointer at byte %lld of %%%s", in->op->name, (long long)off, var);
    if (!load && v->k != V_PTR)
        return spv_fail(t->err, in->pos, "%s: only pointers can be stored in a pointer element of %%%s",
                        in->op->name, var);
    if (!load && v->maybe_null)
        return spv_fail(t->err, in->pos, "%s stores a pointer that may be null in %%%s: not supported",
                        in->op->name, var);
    struct cut_set *learnt = &t->cuts[t->obj[o].var];
    if (learnt->null_or_one)
        return null_or_one_slot(t, l, load, v, var, in);
    if (load) {
        if (!l->ptr)
            return spv_fail(t->err, in->pos, "%s reads a pointer from %%%s before one is stored there",
                            in->op->name, var);
        *v = *l->ptr;       /* its type is set by the caller */
        return true;
    }
    if (l->ptr && !same_pointer(l->ptr, v)) {
        const struct val *kept = l->ptr->obj >= 0 ? l->ptr : v;
        if ((l->ptr->obj < 0) != (v->obj < 0) && kept->reg < 0) {
            learnt->null_or_one = t->new_null_or_one = true;   /* translated again */
            return true;
        }
        return spv_fail(t->err, in->pos, "%s stores a second, different pointer in %%%s: pointers that change "
                        "are not supported (but null and one pointer)", in->op->name, var);
    }
    l->ptr = tr_alloc(t, sizeof *l->ptr);
    *l->ptr = *v;
    return true;
}

/* OpPtrCastToGeneric, OpGenericCastToPtr[Explicit] and OpConvertPtrToU. */
bool tr_cl_inst(struct trans *t, struct frame *fr, const struct spv_inst *in, struct val *out)
{
    bool cast = spv_is(in, "OpPtrCastToGeneric") || spv_is(in, "OpGenericCastToPtr")
                || spv_is(in, "OpGenericCastToPtrExplicit");
    if (!t->opencl || (!cast && !spv_is(in, "OpConvertPtrToU")))
        return spv_fail(t->err, in->pos, "%s is not supported", in->op->name);
    struct val p;
    if (!tr_get(t, fr, &in->args[0], &p))
        return false;
    if (p.k != V_PTR)
        return spv_fail(t->err, in->args[0].pos, "%%%s is not a pointer", tr_name(t, in->args[0].id));
    if (cast) {             /* the same object: its space stays the variable's */
        *out = p;
        out->type = in->rtype;
        return true;
    }
    /* an address: each variable's (or argument's) own span, aligned */
    if (p.obj >= 0 && t->obj[p.obj].var >= INT32_MAX / ADDRESS_SPAN - 1)
        return spv_fail(t->err, in->pos, "OpConvertPtrToU: too many ids to give every variable an address");
    struct val a = v_const(p.obj < 0 ? 0 : ((int64_t)t->obj[p.obj].var + 1) * ADDRESS_SPAN + p.off, in->rtype);
    if (p.maybe_null) {     /* at a constant offset (tr_pointer_slot): the address, or 0 */
        int r = em_reg(t);
        em_local(t, r, OP_MUL, v_reg(p.nz, -1), a, in);
        a = v_reg(r, in->rtype);
    } else if (p.reg >= 0) {
        int r = em_reg(t);
        em_local(t, r, OP_MUL, v_reg(p.reg, -1), v_const(p.scale, -1), in);
        em_local(t, r, OP_ADD, v_reg(r, -1), a, in);
        a = v_reg(r, in->rtype);
    }
    *out = a;
    return true;
}

/* Saturates r = a op b (OP_ADD or OP_SUB, signed 32 bits), which wrapped
 * when it lies on the wrong side of a for the sign of b. */
static void saturate(struct trans *t, enum binop op, struct val a, struct val b, int r, const struct spv_inst *in)
{
    int negative = em_label(t), end = em_label(t);
    /* b >= 0: a sum wraps below a, a difference above it; b < 0 the other way */
    enum cmpop ok_pos = op == OP_ADD ? CMP_GE : CMP_LE, ok_neg = op == OP_ADD ? CMP_LE : CMP_GE;
    int64_t sat_pos = op == OP_ADD ? INT32_MAX : INT32_MIN, sat_neg = op == OP_ADD ? INT32_MIN : INT32_MAX;
    struct instr *x = em(t, I_BRANCH, in);
    x->cmp = CMP_LT;
    x->a = em_operand(b);
    x->b = em_operand(v_const(0, -1));
    x->label = negative;
    for (int side = 0; side < 2; side++) {
        if (side)
            em_place(t, negative, in);
        x = em(t, I_BRANCH, in);
        x->cmp = side ? ok_neg : ok_pos;
        x->a = em_operand(v_reg(r, -1));
        x->b = em_operand(a);
        x->label = end;
        em_move(t, r, v_const(side ? sat_neg : sat_pos, -1), in);
        em_goto(t, end, in);
    }
    em_place(t, end, in);
}

/* OpenCL.std's saturating addition and subtraction of signed integers. */
bool tr_cl_ext_inst(struct trans *t, struct frame *fr, const struct spv_inst *in, const struct spv_arg *set,
                    struct val *out)
{
    const struct spv_arg *w = &in->args[1];
    if (!t->opencl || set->len != 10 || strncmp(set->s, "OpenCL.std", 10))
        return spv_fail(t->err, w->pos, "OpExtInst: the instruction set \"%.*s\" is not supported", set->len,
                        set->s);
    bool add = w->len == 9 && !memcmp(w->s, "s_add_sat", 9), sub = w->len == 9 && !memcmp(w->s, "s_sub_sat", 9);
    if (!add && !sub)
        return spv_fail(t->err, w->pos, "OpExtInst: OpenCL.std %.*s is not supported", w->len, w->s);
    if (in->nargs != 4 || !tr_is_scalar(t, in->rtype) || t->ty[in->rtype].k != TY_INT)
        return spv_fail(t->err, in->pos, "OpExtInst: %.*s is supported on two 32-bit integers", w->len, w->s);
    struct val a, b;
    if (!tr_get(t, fr, &in->args[2], &a) || !tr_get(t, fr, &in->args[3], &b))
        return false;
    a = em_scalar(t, a, in);
    b = em_scalar(t, b, in);
    enum binop op = add ? OP_ADD : OP_SUB;
    if (a.k == V_CONST && b.k == V_CONST) {
        int64_t x = (int64_t)(int32_t)a.c, y = (int64_t)(int32_t)b.c, v = add ? x + y : x - y;
        *out = v_const(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v, in->rtype);
        return true;
    }
    int r = em_reg(t);
    em_local(t, r, op, a, b, in);
    saturate(t, op, a, b, r, in);
    *out = v_reg(r, in->rtype);
    return true;
}
