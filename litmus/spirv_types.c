/* SPIR-V types, decorations and memory layout, and the memory objects of
 * variables: shared ones become litmus locations, private ones registers
 * of their thread, read-only ones (push constants, builtins) constants. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/spirv_trans.h"
#include "util/xalloc.h"

/* Allocates zeroed memory freed when the translation ends. */
void *tr_alloc(struct trans *t, size_t size)
{
    void *p = xcalloc(size ? size : 1, 1);
    XGROW(t->arena, t->cap_arena, t->narena + 1);
    t->arena[t->narena++] = p;
    return p;
}

/* The name of id (without its %). */
const char *tr_name(const struct trans *t, int id)
{
    if (id >= t->m->nids)         /* the array type behind a kernel argument (spirv_opencl.c) */
        id -= t->m->nids;
    return id >= 0 ? t->m->id_names[id] : "?";
}

static bool word_is(const struct spv_arg *a, const char *w)
{
    return a->tk == TK_WORD && (int)strlen(w) == a->len && !memcmp(a->s, w, (size_t)a->len);
}

/* The @Input number given to id, or NULL. */
static const struct spv_init *input_number(const struct trans *t, int id)
{
    for (int i = 0; i < t->m->ninputs; i++)
        if (t->m->inputs[i].id == id && !t->m->inputs[i].value.is_list)
            return &t->m->inputs[i].value;
    return NULL;
}

/* The literal integer value of the OpConstant or OpSpecConstant defining
 * id (a spec constant's @Input value first), or -1. */
static int64_t const_literal(const struct trans *t, int id)
{
    int d = t->m->id_def[id];
    if (d < 0)
        return -1;
    const struct spv_inst *in = &t->m->inst[d];
    const struct spv_init *given = spv_is(in, "OpSpecConstant") ? input_number(t, id) : NULL;
    if (given)
        return given->value;
    if ((spv_is(in, "OpConstant") || spv_is(in, "OpSpecConstant")) && in->nargs == 1)
        return in->args[0].num;
    return -1;
}

/* True when id is a specialization constant without an @Input value whose
 * SpecId clspv's reflection names as the length of a workgroup-memory
 * kernel argument (ArgumentWorkgroup: kernel, ordinal, spec id, element
 * size): the host chooses that length. */
static bool host_chosen_length(const struct trans *t, int id)
{
    const struct spv_module *m = t->m;
    int d = m->id_def[id];
    if (d < 0 || !spv_is(&m->inst[d], "OpSpecConstant") || input_number(t, id))
        return false;
    int64_t spec_id = -1;
    for (int i = 0; i < m->ninst; i++) {
        const struct spv_inst *in = &m->inst[i];
        if (spv_is(in, "OpDecorate") && in->args[0].id == id && word_is(&in->args[1], "SpecId"))
            spec_id = in->args[2].num;
    }
    for (int i = 0; spec_id >= 0 && i < m->ninst; i++) {
        const struct spv_inst *in = &m->inst[i];
        if (spv_is(in, "OpExtInst") && in->nargs >= 6 && word_is(&in->args[1], "ArgumentWorkgroup")
            && const_literal(t, in->args[4].id) == spec_id)
            return true;
    }
    return false;
}

static bool defined_type(struct trans *t, const struct spv_inst *in, int id)
{
    if (t->ty[id].k == TY_NONE)
        return spv_fail(t->err, in->pos, "%s: %%%s is not a type declared before it", in->op->name,
                        tr_name(t, id));
    return true;
}

/* Reads one OpType* instruction. */
static bool read_type(struct trans *t, const struct spv_inst *in)
{
    struct ty *y = &t->ty[in->result];
    const struct spv_arg *a = in->args;
    if (spv_is(in, "OpTypeVoid")) {
        y->k = TY_VOID;
    } else if (spv_is(in, "OpTypeBool")) {
        y->k = TY_BOOL;
        y->width = 8;
    } else if (spv_is(in, "OpTypeInt")) {
        y->k = TY_INT;
        y->width = (int)a[0].num;
        y->is_signed = a[1].num != 0;
        if (y->width < 8 || y->width > 64 || y->width % 8)
            return spv_fail(t->err, a[0].pos, "OpTypeInt: width %d is not a whole number of bytes up to 64 bits",
                            y->width);
    } else if (spv_is(in, "OpTypeFloat")) {
        y->k = TY_FLOAT;
        y->width = (int)a[0].num;
    } else if (spv_is(in, "OpTypeVector") || spv_is(in, "OpTypeArray") || spv_is(in, "OpTypeRuntimeArray")) {
        if (!defined_type(t, in, a[0].id))
            return false;
        y->elem = a[0].id;
        y->k = spv_is(in, "OpTypeVector") ? TY_VECTOR : spv_is(in, "OpTypeArray") ? TY_ARRAY : TY_RUNTIME_ARRAY;
        if (y->k == TY_VECTOR)
            y->count = a[1].num;
        else if (y->k == TY_ARRAY && (y->count = const_literal(t, a[1].id)) < 1)
            return spv_fail(t->err, a[1].pos, "OpTypeArray: the length must be a positive integer constant");
        y->host_sized = y->k == TY_ARRAY && host_chosen_length(t, a[1].id);
        if (y->host_sized) {    /* at least one element per invocation of a workgroup */
            int64_t *len = &t->host_len[in->result], wg = (int64_t)t->grid[0] * t->grid[1];
            *len = *len > wg ? *len : wg;
            y->count = *len > y->count ? *len : y->count;
        }
        y->stride = t->stride_dec[in->result];
    } else if (spv_is(in, "OpTypeStruct")) {
        y->k = TY_STRUCT;
        y->nmem = in->nargs;
        y->mem = tr_alloc(t, sizeof(int) * (size_t)(in->nargs + 1));
        y->moff = tr_alloc(t, sizeof(int64_t) * (size_t)(in->nargs + 1));
        for (int i = 0; i < in->nargs; i++) {
            if (!defined_type(t, in, a[i].id))
                return false;
            y->mem[i] = a[i].id;
            y->moff[i] = -1;
        }
    } else if (spv_is(in, "OpTypePointer")) {
        y->k = TY_POINTER;
        y->sclass = (int)a[0].num;
        y->elem = a[1].id;
        y->stride = t->stride_dec[in->result];
        if (t->ty[a[1].id].k == TY_NONE && t->m->id_def[a[1].id] > t->m->id_def[in->result])
            y->elem = a[1].id;     /* forward pointer: resolved when used */
    } else if (spv_is(in, "OpTypeFunction")) {
        y->k = TY_FUNCTION;
        y->elem = a[0].id;
    } else {
        y->k = TY_OTHER;
    }
    return true;
}

/* The distance in bytes between the elements of array type y. */
static int64_t array_step(const struct trans *t, const struct ty *y)
{
    return y->stride ? y->stride : tr_size(t, y->elem, 0);
}

/* Size in bytes of type id. */
int64_t tr_size(const struct trans *t, int type, int64_t runtime_n)
{
    const struct ty *y = &t->ty[type];
    switch (y->k) {
    case TY_BOOL: return 1;
    case TY_INT: case TY_FLOAT: return y->width / 8;
    case TY_VECTOR: return (t->opencl && y->count == 3 ? 4 : y->count) * tr_size(t, y->elem, 0);   /* OpenCL: 3 as 4 */
    case TY_ARRAY: return y->count * (y->stride ? y->stride : tr_size(t, y->elem, 0));
    case TY_RUNTIME_ARRAY: return runtime_n * (y->stride ? y->stride : tr_size(t, y->elem, 0));
    case TY_STRUCT: {
        int64_t end = 0;
        for (int i = 0; i < y->nmem; i++) {
            bool last = i == y->nmem - 1;
            int64_t e = y->moff[i] + tr_size(t, y->mem[i], last ? runtime_n : 0);
            end = e > end ? e : end;
        }
        return t->opencl ? tr_cl_round(end, tr_cl_align(t, type)) : end;
    }
    case TY_POINTER: return t->ptr_bytes;
    default: return 0;
    }
}

/* True when types a and b have the same shape. */
bool tr_same_type(const struct trans *t, int a, int b)
{
    if (a == b)
        return true;
    const struct ty *x = &t->ty[a], *y = &t->ty[b];
    if (x->k != y->k || x->width != y->width || x->is_signed != y->is_signed || x->count != y->count
        || x->nmem != y->nmem || x->sclass != y->sclass)
        return false;
    if (x->k == TY_VECTOR || x->k == TY_ARRAY || x->k == TY_RUNTIME_ARRAY || x->k == TY_POINTER)
        return tr_same_type(t, x->elem, y->elem);
    for (int i = 0; i < x->nmem; i++)
        if (!tr_same_type(t, x->mem[i], y->mem[i]))
            return false;
    return true;
}

/* True when type id is an integer wider than 32 bits (kept in 32 bits). */
bool tr_is_wide_int(const struct trans *t, int type)
{
    return t->ty[type].k == TY_INT && t->ty[type].width > 32;
}

/* True when type id is a 32-bit integer or a bool. */
bool tr_is_scalar(const struct trans *t, int type)
{
    const struct ty *y = &t->ty[type];
    return y->k == TY_BOOL || (y->k == TY_INT && y->width == 32);
}

/* Calls f for every scalar leaf of type at off. */
bool tr_leaves(struct trans *t, int type, int64_t off, int64_t runtime_n,
               bool (*f)(struct trans *, void *, int64_t, int), void *ctx, struct srcpos pos)
{
    const struct ty *y = &t->ty[type];
    switch (y->k) {
    case TY_BOOL: case TY_INT: case TY_FLOAT: case TY_POINTER:
        return f(t, ctx, off, type);
    case TY_VECTOR: case TY_ARRAY: case TY_RUNTIME_ARRAY: {
        int64_t n = y->k == TY_RUNTIME_ARRAY ? runtime_n : y->count;
        int64_t step = y->k != TY_VECTOR && y->stride ? y->stride : tr_size(t, y->elem, 0);
        for (int64_t i = 0; i < n; i++)
            if (!tr_leaves(t, y->elem, off + i * step, 0, f, ctx, pos))
                return false;
        return true;
    }
    case TY_STRUCT:
        for (int i = 0; i < y->nmem; i++)
            if (!tr_leaves(t, y->mem[i], off + y->moff[i], i == y->nmem - 1 ? runtime_n : 0, f, ctx, pos))
                return false;
        return true;
    default:
        return spv_fail(t->err, pos, "a variable of type %%%s cannot be laid out in memory", tr_name(t, type));
    }
}

/* Reads decorations, types and member offsets. */
bool tr_types(struct trans *t)
{
    const struct spv_module *m = t->m;
    for (int i = 0; i < m->ninst; i++) {
        const struct spv_inst *in = &m->inst[i];
        if (spv_is(in, "OpDecorate") && word_is(&in->args[1], "ArrayStride"))
            t->stride_dec[in->args[0].id] = in->args[2].num;
        else if (spv_is(in, "OpDecorate") && word_is(&in->args[1], "BuiltIn"))
            t->builtin[in->args[0].id] = i;
    }
    for (int i = 0; i < m->ninst; i++) {
        const struct spv_inst *in = &m->inst[i];
        if (!strncmp(in->op->name, "OpType", 6) && in->result >= 0 && !read_type(t, in))
            return false;
    }
    for (int i = 0; i < m->ninst; i++) {
        const struct spv_inst *in = &m->inst[i];
        if (spv_is(in, "OpMemberDecorate") && word_is(&in->args[2], "Offset")) {
            struct ty *y = &t->ty[in->args[0].id];
            int64_t k = in->args[1].num;
            if (y->k != TY_STRUCT || k < 0 || k >= y->nmem)
                return spv_fail(t->err, in->args[1].pos, "OpMemberDecorate: %%%s has no member %lld",
                                tr_name(t, in->args[0].id), (long long)k);
            y->moff[k] = in->args[3].num;
        } else if (spv_is(in, "OpMemberDecorate") && word_is(&in->args[2], "BuiltIn")) {
            return spv_fail(t->err, in->pos, "OpMemberDecorate: builtins in struct members are not supported");
        }
    }
    for (int id = 0; id < m->nids; id++) {      /* packed (OpenCL: aligned) offsets where none is given */
        struct ty *y = &t->ty[id];
        if (y->k != TY_STRUCT)
            continue;
        int64_t at = 0;
        for (int k = 0; k < y->nmem; k++) {
            if (y->moff[k] < 0)
                y->moff[k] = t->opencl ? tr_cl_round(at, tr_cl_align(t, y->mem[k])) : at;
            at = y->moff[k] + tr_size(t, y->mem[k], 0);
        }
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Memory objects                                                            */

struct fill {
    int o;
    const struct val *init;   /* flat list of scalar initial values, or NULL */
    int ninit, next;
    const struct spv_inst *var;
};

/* Flattens a value tree into its scalar leaves, in layout order. */
static void flatten(const struct val *v, struct val *out, int *n, int cap)
{
    if (v->k == V_COMP) {
        for (int i = 0; i < v->n; i++)
            flatten(&v->el[i], out, n, cap);
    } else if (*n < cap) {
        out[(*n)++] = *v;
    }
}

static int count_scalars(const struct val *v)
{
    if (v->k != V_COMP)
        return 1;
    int n = 0;
    for (int i = 0; i < v->n; i++)
        n += count_scalars(&v->el[i]);
    return n;
}

static bool add_leaf(struct trans *t, void *ctx, int64_t off, int type)
{
    struct fill *f = ctx;
    struct obj *o = &t->obj[f->o];
    const struct ty *y = &t->ty[type];
    bool slot = y->k == TY_POINTER && o->grp == SCG_PRIVATE;     /* a pointer the invocation keeps */
    if (y->k == TY_FLOAT || (y->k == TY_POINTER && !slot))
        return spv_fail(t->err, f->var->pos, "OpVariable %%%s: %s values in memory are not supported",
                        tr_name(t, f->var->result), y->k == TY_FLOAT ? "floating-point" : "pointer");
    if (slot) {
        o->leaf = xrealloc(o->leaf, sizeof *o->leaf * (size_t)(o->nleaf + 1));
        struct leaf *l = &o->leaf[o->nleaf++];
        memset(l, 0, sizeof *l);
        l->off = off;
        l->size = (int)tr_size(t, type, 0);
        l->loc = l->reg = -1;
        return true;
    }
    int64_t v = 0;
    if (f->init && f->next < f->ninit) {
        const struct val *iv = &f->init[f->next++];
        if (iv->k != V_CONST)
            return spv_fail(t->err, f->var->pos, "OpVariable %%%s: the initial value is not a constant",
                            tr_name(t, f->var->result));
        v = iv->c;
    }
    int size = (int)tr_size(t, type, 0);
    if (y->k == TY_INT && y->width < 32)     /* 8, 16 and 24 bits: kept zero-extended */
        v &= ((int64_t)1 << y->width) - 1;
    /* 64-bit integers are kept as 32-bit values: exact while every value
       fits in 32 bits signed (no 64-bit arithmetic is translated) */
    if (size > 4 && (v < INT32_MIN || v > INT32_MAX))
        return spv_fail(t->err, f->var->pos, "OpVariable %%%s: the %d-bit initial value %lld is out of the 32-bit "
                        "range gpubmc computes in", tr_name(t, f->var->result), size * 8, (long long)v);
    v = (int64_t)(int32_t)(uint32_t)v;
    int before = o->nleaf;
    if (!tr_cut_leaf(t, f->o, off, size, v, f->var->pos))
        return false;
    for (int i = before; i < t->obj[f->o].nleaf; i++)
        t->obj[f->o].leaf[i].undef = !f->init;
    return true;
}

/* Appends a leaf of size bytes at off to object o holding value v. */
int tr_new_slot(struct trans *t, int oi, int64_t off, int size, int64_t v)
{
    struct obj *o = &t->obj[oi];
    o->leaf = xrealloc(o->leaf, sizeof *o->leaf * (size_t)(o->nleaf + 1));
    struct leaf *l = &o->leaf[o->nleaf];
    memset(l, 0, sizeof *l);
    l->off = off;
    l->size = size;
    l->loc = l->reg = -1;
    if (o->grp == SCG_READONLY) {
        l->value = v;
    } else if (o->grp == SCG_PRIVATE) {
        struct thread *th = t->th;
        l->reg = em_reg(t);
        th->reg_has_init[l->reg] = true;
        th->reg_init[l->reg] = v;
    } else {
        struct litmus *lit = t->lit;
        XGROW(lit->locs, t->cap_locs, lit->nlocs + 1);
        struct location *loc = &lit->locs[lit->nlocs];
        memset(loc, 0, sizeof *loc);
        /* a litmus identifier, so that printed tests parse again: the
           variable's name (v before a digit), _offset for an element of an
           aggregate, _wgK for a workgroup's copy */
        char name[160];
        enum ty_kind k = t->ty[o->type].k;
        bool scalar = off == 0 && (k == TY_INT || k == TY_BOOL);
        const char *vn = tr_name(t, o->var);
        int n = snprintf(name, sizeof name, "%s", isdigit((unsigned char)vn[0]) ? "v" : "");
        for (const char *c = vn; *c && n < 100; c++)
            name[n++] = isalnum((unsigned char)*c) ? *c : '_';
        name[n] = '\0';
        if (!scalar)
            n += snprintf(name + n, sizeof name - (size_t)n, "_%lld", (long long)off);
        if (o->grp == SCG_WORKGROUP && t->grid[2] > 1)
            n += snprintf(name + n, sizeof name - (size_t)n, "_wg%d", o->wg);
        for (int i = 0; i < lit->nlocs; i++)       /* another variable's element with the same name */
            if (!strcmp(lit->locs[i].name, name) && n < 150) {
                n += snprintf(name + n, sizeof name - (size_t)n, "_");
                i = -1;
            }
        loc->name = xstrdup(name);
        loc->init = v;
        loc->alias_of = -1;
        loc->cl_tags = t->opencl ? tr_cl_space(o) : 0;
        XGROW(t->loc_wide, t->cap_wide, lit->nlocs + 1);
        t->loc_wide[lit->nlocs] = size > 4;
        l->loc = lit->nlocs++;
    }
    return o->nleaf++;
}

/* The value of builtin name for the current thread, as a scalar or a 3-vector. */
static bool builtin_value(struct trans *t, const struct spv_inst *dec, int type, struct val *out)
{
    const struct spv_arg *a = &dec->args[2];
    int T = t->grid[0], wg = t->grid[0] * t->grid[1], dv = wg * t->grid[2], tid = t->tid;
    static const char *names[] = { "SubgroupLocalInvocationId", "LocalInvocationId", "LocalInvocationIndex",
                                   "GlobalInvocationId", "DeviceIndex", "SubgroupId", "WorkgroupId",
                                   "SubgroupSize", "WorkgroupSize", "GlobalSize", "NumWorkgroups",
                                   "NumSubgroups" };
    int64_t x[12][3] = { { tid % T, -1, -1 }, { tid % wg, 0, 0 }, { tid % wg, -1, -1 }, { tid % dv, 0, 0 },
                         { 0, -1, -1 }, { (tid % wg) / T, -1, -1 }, { tid / wg, 0, 0 }, { T, -1, -1 },
                         { wg, 1, 1 }, { dv, 1, 1 }, { t->grid[2], 1, 1 }, { t->grid[1], -1, -1 } };
    for (int i = 0; i < 12; i++) {
        if ((int)strlen(names[i]) != a->len || memcmp(names[i], a->s, (size_t)a->len))
            continue;
        const struct ty *y = &t->ty[type];
        bool vec = x[i][1] >= 0;
        if (vec && !((y->k == TY_VECTOR || y->k == TY_ARRAY) && y->count == 3 && tr_is_scalar(t, y->elem)))
            return spv_fail(t->err, dec->pos, "BuiltIn %s needs a 3-element vector of 32-bit integers", names[i]);
        if (!vec && !tr_is_scalar(t, type))
            return spv_fail(t->err, dec->pos, "BuiltIn %s needs a 32-bit integer", names[i]);
        if (!vec) {
            *out = v_const(x[i][0], type);
            return true;
        }
        *out = (struct val){ .k = V_COMP, .type = type, .n = 3, .el = tr_alloc(t, 3 * sizeof(struct val)) };
        for (int k = 0; k < 3; k++)
            out->el[k] = v_const(x[i][k], y->elem);
        return true;
    }
    return spv_fail(t->err, a->pos, "BuiltIn %.*s is not supported", a->len, a->s);
}

/* The builtin value of id for the current thread, when id has a BuiltIn decoration. */
bool tr_builtin(struct trans *t, int id, int type, struct val *out, bool *has)
{
    *has = t->builtin[id] >= 0;
    return !*has || builtin_value(t, &t->m->inst[t->builtin[id]], type, out);
}

/* The @Input value as a value tree of the variable's type. */
static bool input_value(struct trans *t, const struct spv_init *v, int type, struct val *out)
{
    const struct ty *y = &t->ty[type];
    if (!v->is_list) {
        if (y->k != TY_INT && y->k != TY_BOOL)
            return spv_fail(t->err, v->pos, "@Input: a number where %%%s needs a list", tr_name(t, type));
        *out = v_const(v->value, type);
        return true;
    }
    int n = v->n;
    if (y->k == TY_STRUCT && n != y->nmem)
        return spv_fail(t->err, v->pos, "@Input: %d values for a struct of %d members", n, y->nmem);
    if ((y->k == TY_ARRAY || y->k == TY_VECTOR) && n != y->count && !y->host_sized)
        return spv_fail(t->err, v->pos, "@Input: %d values for %lld elements", n, (long long)y->count);
    if (y->k != TY_STRUCT && y->k != TY_ARRAY && y->k != TY_VECTOR && y->k != TY_RUNTIME_ARRAY)
        return spv_fail(t->err, v->pos, "@Input: a list where %%%s needs a number", tr_name(t, type));
    *out = (struct val){ .k = V_COMP, .type = type, .n = n, .el = tr_alloc(t, sizeof(struct val) * (size_t)n) };
    for (int i = 0; i < n; i++)
        if (!input_value(t, &v->el[i], y->k == TY_STRUCT ? y->mem[i] : y->elem, &out->el[i]))
            return false;
    return true;
}

/* The number of runtime-array elements of a value of type, -1 when it has none. */
static int64_t runtime_count(const struct trans *t, int type, const struct val *v)
{
    const struct ty *y = &t->ty[type];
    if (y->k == TY_RUNTIME_ARRAY)
        return v && v->k == V_COMP ? v->n : -2;
    if (y->k == TY_STRUCT && y->nmem > 0)
        return runtime_count(t, y->mem[y->nmem - 1], v && v->k == V_COMP ? &v->el[y->nmem - 1] : NULL);
    return -1;
}

/* The values clspv's reflection instructions give push constants, as in
 * Dat3M: global size, enqueued local size, number of workgroups, offsets 0. */
static bool clspv_push_constants(struct trans *t, int o)
{
    const struct spv_module *m = t->m;
    int wg = t->grid[0] * t->grid[1];
    static const char *names[] = { "PushConstantGlobalSize", "PushConstantEnqueuedLocalSize",
                                   "PushConstantNumWorkgroups", "PushConstantGlobalOffset",
                                   "PushConstantRegionOffset", "PushConstantRegionGroupOffset" };
    int64_t x[6] = { (int64_t)wg * t->grid[2], wg, t->grid[2], 0, 0, 0 };
    for (int i = 0; i < m->ninst; i++) {
        const struct spv_inst *in = &m->inst[i];
        if (!spv_is(in, "OpExtInst") || in->nargs < 4)
            continue;
        for (int k = 0; k < 6; k++) {
            if (!word_is(&in->args[1], names[k]))
                continue;
            int64_t off = const_literal(t, in->args[2].id), size = const_literal(t, in->args[3].id);
            for (int e = 0; e < 3; e++) {
                struct leaf *l = (struct leaf *)tr_leaf_at(t, o, off + e * (size / 3), (int)(size / 3));
                if (!l)
                    return spv_fail(t->err, in->pos, "%s does not match the push constant's layout", names[k]);
                l->value = e == 0 ? x[k] : k < 3 ? 1 : 0;
                l->undef = false;
            }
        }
    }
    return true;
}

/* The translation's group and Vulkan tag of storage class sc (OpenCL
 * modules: tr_cl_class); false with err on one that is not supported. */
static bool class_of(struct trans *t, const struct spv_arg *sc, enum sc_group *g, int *vk_sc)
{
    static const struct { const char *name; enum sc_group g; int sc; } classes[] = {
        { "StorageBuffer", SCG_SHARED, 0 }, { "Uniform", SCG_SHARED, 0 }, { "Output", SCG_SHARED, 3 },
        { "Workgroup", SCG_WORKGROUP, 1 }, { "Private", SCG_PRIVATE, -1 }, { "Function", SCG_PRIVATE, -1 },
        { "PushConstant", SCG_READONLY, -1 }, { "Input", SCG_READONLY, -1 }, { "UniformConstant", SCG_READONLY, -1 },
    };
    if (t->opencl)
        return tr_cl_class(t, sc, g, vk_sc);
    for (int i = 0; i < (int)(sizeof classes / sizeof *classes); i++)
        if (word_is(sc, classes[i].name)) {
            *g = classes[i].g;
            *vk_sc = classes[i].sc;
            return true;
        }
    return spv_fail(t->err, sc->pos, "OpVariable: storage class %.*s is not supported under the Vulkan models",
                    sc->len, sc->s);
}

/* The object already made for id in group g (workgroup wg), or -1. */
static int existing_object(const struct trans *t, int id, enum sc_group g, int wg)
{
    if (g == SCG_SHARED)
        return t->shared_obj[id];
    if (g == SCG_WORKGROUP)
        return t->wg_obj[id * t->grid[2] + wg];
    return -1;
}

/* The @Input header that sets id, or NULL. */
static const struct spv_input *input_of(const struct trans *t, int id)
{
    const struct spv_input *input = NULL;
    for (int i = 0; i < t->m->ninputs; i++)
        if (t->m->inputs[i].id == id)
            input = &t->m->inputs[i];
    return input;
}

/* Lays out a new object of type for def (a variable or kernel argument)
 * in group g, with initial value init (V_NONE: none); its index or -1. */
static int build_object(struct trans *t, const struct spv_inst *def, enum sc_group g, int vk_sc, int wg, int type,
                        struct val init)
{
    int64_t rn = runtime_count(t, type, init.k == V_NONE ? NULL : &init);
    if (rn == -2)
        return spv_fail(t->err, def->pos, "OpVariable %%%s: a runtime array needs its size from an @Input header",
                        tr_name(t, def->result)), -1;
    XGROW(t->obj, t->cap_obj, t->nobj + 1);
    struct obj *o = &t->obj[t->nobj];
    memset(o, 0, sizeof *o);
    o->var = def->result;
    o->grp = g;
    o->sc = vk_sc;
    o->thread = o->grp == SCG_PRIVATE || o->grp == SCG_READONLY ? t->tid : -1;
    o->wg = wg;
    o->type = type;
    int idx = t->nobj++;
    struct val flat[4096];
    int nflat = 0;
    if (init.k != V_NONE) {
        if (count_scalars(&init) > 4096)
            return spv_fail(t->err, def->pos, "OpVariable %%%s: too many elements", tr_name(t, def->result)), -1;
        flatten(&init, flat, &nflat, 4096);
    }
    struct fill f = { idx, init.k != V_NONE ? flat : NULL, nflat, 0, def };
    const struct ty *at = &t->ty[type];
    if (at->host_sized) {       /* as many elements as @Input lists, else as the spec constant says */
        int64_t n = init.k == V_COMP ? init.n : at->count;
        for (int64_t e = 0; e < n; e++)
            if (!tr_leaves(t, at->elem, e * array_step(t, at), 0, add_leaf, &f, def->pos))
                return -1;
        t->obj[idx].nelem = n;
        t->obj[idx].extent = n * array_step(t, at);
    } else if (!tr_leaves(t, type, 0, rn < 0 ? 0 : rn, add_leaf, &f, def->pos)) {
        return -1;
    } else {
        t->obj[idx].extent = tr_size(t, type, rn < 0 ? 0 : rn);
    }
    tr_finish_layout(t, idx);
    if (g == SCG_SHARED)
        t->shared_obj[def->result] = idx;
    if (g == SCG_WORKGROUP)
        t->wg_obj[def->result * t->grid[2] + wg] = idx;
    return idx;
}

/* Creates the memory object of variable var for the current thread. */
int tr_object(struct trans *t, const struct spv_inst *var)
{
    const struct spv_arg *sc = &var->args[0];
    const struct ty *pt = &t->ty[var->rtype];
    if (pt->k != TY_POINTER)
        return spv_fail(t->err, var->pos, "OpVariable: the result type is not a pointer type"), -1;
    enum sc_group g;
    int vk_sc;
    if (!class_of(t, sc, &g, &vk_sc))
        return -1;
    if ((int)sc->num != pt->sclass)
        return spv_fail(t->err, sc->pos, "OpVariable: the storage class differs from the pointer type's"), -1;
    int wg = g == SCG_WORKGROUP ? t->tid / (t->grid[0] * t->grid[1]) : -1;
    if (existing_object(t, var->result, g, wg) >= 0)
        return existing_object(t, var->result, g, wg);
    /* the initial value: @Input, a builtin, an initializer, or none */
    struct val init = { .k = V_NONE };
    const struct spv_input *input = input_of(t, var->result);
    bool has_builtin = false;
    if (!tr_builtin(t, var->result, pt->elem, &init, &has_builtin))
        return -1;
    if (input && (has_builtin || var->nargs > 1))
        return spv_fail(t->err, input->pos, "@Input: %%%s already has an initial value in the module",
                        tr_name(t, var->result)), -1;
    if (input && !input_value(t, &input->value, pt->elem, &init))
        return -1;
    if (!input && !has_builtin && var->nargs > 1) {
        int id = var->args[1].id;
        if (t->globals[id].k == V_NONE)
            return spv_fail(t->err, var->args[1].pos, "OpVariable: the initializer %%%s is not a constant defined before",
                            tr_name(t, id)), -1;
        init = t->globals[id];
    }
    int idx = build_object(t, var, g, vk_sc, wg, pt->elem, init);
    if (idx >= 0 && word_is(sc, "PushConstant") && !clspv_push_constants(t, idx))
        return -1;
    return idx;
}

/* The object behind pointer kernel argument param (OpenCL), of array type
 * type: its @Input list, else DEFAULT_ARG_ELEMS elements of 0. */
int tr_param_object(struct trans *t, const struct spv_inst *param, int type, enum sc_group g)
{
    int wg = g == SCG_WORKGROUP ? t->tid / (t->grid[0] * t->grid[1]) : -1;
    if (existing_object(t, param->result, g, wg) >= 0)
        return existing_object(t, param->result, g, wg);
    struct val init = { .k = V_NONE };
    const struct spv_input *input = input_of(t, param->result);
    if (input && !input_value(t, &input->value, type, &init))
        return -1;
    return build_object(t, param, g, g == SCG_WORKGROUP ? 1 : 0, wg, type, init);
}

/* Grows a host-sized array object to the element holding off. */
bool tr_grow(struct trans *t, int o, int64_t off)
{
    const struct ty *at = &t->ty[t->obj[o].type];
    if (!at->host_sized || off < 0)
        return false;
    int64_t step = array_step(t, at), want = off / step + 1;
    if (want > 4096)
        return false;
    const struct spv_inst *var = &t->m->inst[t->m->id_def[t->obj[o].var]];
    struct fill f = { o, NULL, 0, 0, var };
    for (int64_t e = t->obj[o].nelem; e < want; e++)
        if (!tr_leaves(t, at->elem, e * step, 0, add_leaf, &f, var->pos))
            return false;
    if (want > t->obj[o].nelem) {
        t->obj[o].nelem = want;
        t->obj[o].extent = want * step;
    }
    tr_finish_layout(t, o);
    if (want > t->host_len[t->obj[o].type])
        t->host_len[t->obj[o].type] = want;
    return true;
}

/* The leaf of object o at off with size bytes, or NULL. */
const struct leaf *tr_leaf_at(const struct trans *t, int o, int64_t off, int size)
{
    const struct obj *ob = &t->obj[o];
    for (int i = 0; i < ob->nleaf; i++)
        if (ob->leaf[i].off == off && ob->leaf[i].size == size)
            return &ob->leaf[i];
    return NULL;
}
