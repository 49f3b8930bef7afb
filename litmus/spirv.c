/* The SPIR-V front end's entry: the memory model and entry point, the grid,
 * one litmus thread per invocation, and the @Output/@Filter conditions over
 * the shared variables' elements. */
#include "litmus/spirv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/spirv_trans.h"
#include "util/xalloc.h"

#define MAX_THREADS 1024

/* True when path ends in ".spvasm". */
bool spirv_path(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n >= 7 && !strcmp(path + n - 7, ".spvasm");
}

static bool word_is(const struct spv_arg *a, const char *w)
{
    return a->tk == TK_WORD && (int)strlen(w) == a->len && !memcmp(a->s, w, (size_t)a->len);
}

/* Checks OpMemoryModel and finds the one entry point's function id. */
static bool module_shape(const struct spv_module *m, int *entry, char **name, bool *opencl, int *ptr_bytes,
                         struct litmus_error *err)
{
    const struct spv_inst *mm = NULL, *ep = NULL;
    for (int i = 0; i < m->ninst; i++) {
        const struct spv_inst *in = &m->inst[i];
        if (spv_is(in, "OpMemoryModel")) {
            if (mm)
                return spv_fail(err, in->pos, "a second OpMemoryModel");
            mm = in;
        } else if (spv_is(in, "OpEntryPoint")) {
            if (ep)
                return spv_fail(err, in->pos, "a second OpEntryPoint: gpubmc checks one kernel a file");
            ep = in;
        }
    }
    if (!mm)
        return spv_fail(err, m->inst[0].pos, "the module has no OpMemoryModel");
    *ptr_bytes = 8;             /* Logical Vulkan: pointers are never stored */
    *opencl = word_is(&mm->args[1], "OpenCL") && (word_is(&mm->args[0], "Physical32")
                                                    || word_is(&mm->args[0], "Physical64"));
    if (*opencl)
        *ptr_bytes = word_is(&mm->args[0], "Physical32") ? 4 : 8;
    else if (!word_is(&mm->args[0], "Logical") || (!word_is(&mm->args[1], "Vulkan") && !word_is(&mm->args[1], "VulkanKHR")))
        return spv_fail(err, mm->pos, "OpMemoryModel %.*s %.*s is not supported (only Logical Vulkan, "
                        "Physical32 OpenCL and Physical64 OpenCL)",
                        mm->args[0].len, mm->args[0].s, mm->args[1].len, mm->args[1].s);
    if (!ep)
        return spv_fail(err, mm->pos, "the module has no OpEntryPoint");
    if (!word_is(&ep->args[0], "GLCompute") && !word_is(&ep->args[0], "Kernel"))
        return spv_fail(err, ep->args[0].pos, "OpEntryPoint %.*s: only compute kernels are supported",
                        ep->args[0].len, ep->args[0].s);
    *entry = ep->args[1].id;
    *name = xcalloc((size_t)ep->args[2].len + 1, 1);
    memcpy(*name, ep->args[2].s, (size_t)ep->args[2].len);
    return true;
}

/* The leaves that mixed-size accesses split an element into (n > 1). */
struct run {
    int o, first, n;
};

/* The location of variable id's element at path, for conditions; an
 * element split into several leaves sets *run instead (loc -1). */
static bool cond_location(struct trans *t, const struct spv_hval *v, int *loc, struct run *run)
{
    const struct spv_module *m = t->m;
    int d = m->id_def[v->id];
    bool arg = tr_cl_param_object(t, v->id) >= 0;
    if (d < 0 || (!spv_is(&m->inst[d], "OpVariable") && !arg))
        return spv_fail(t->err, v->pos, "%%%s is not a variable%s", tr_name(t, v->id),
                        t->opencl ? " or a pointer kernel argument" : "");
    int o = arg ? tr_cl_param_object(t, v->id) : t->shared_obj[v->id];
    if (o < 0 && t->grid[2] == 1 && t->wg_obj[v->id * t->grid[2]] >= 0)
        o = t->wg_obj[v->id * t->grid[2]];
    if (o < 0)
        return spv_fail(t->err, v->pos, "%%%s: conditions can name only StorageBuffer, Uniform, Output (and, with "
                        "one workgroup, Workgroup) variables", tr_name(t, v->id));
    int cur = t->obj[o].type;
    int64_t off = 0;
    for (int i = 0; i < v->npath; i++) {
        const struct ty *y = &t->ty[cur];
        int64_t k = v->path[i];
        if (y->k == TY_STRUCT) {
            if (k >= y->nmem)
                return spv_fail(t->err, v->pos, "%%%s: index %lld is past the struct's members", tr_name(t, v->id),
                                (long long)k);
            off += y->moff[k];
            cur = y->mem[k];
        } else if (y->k == TY_ARRAY || y->k == TY_VECTOR || y->k == TY_RUNTIME_ARRAY) {
            if (y->k != TY_RUNTIME_ARRAY && !y->host_sized && k >= y->count)
                return spv_fail(t->err, v->pos, "%%%s: index %lld is out of bounds", tr_name(t, v->id), (long long)k);
            off += k * (y->k != TY_VECTOR && y->stride ? y->stride : tr_size(t, y->elem, 0));
            cur = y->elem;
        } else {
            return spv_fail(t->err, v->pos, "%%%s: too many indices", tr_name(t, v->id));
        }
    }
    if (!tr_is_scalar(t, cur) && t->ty[cur].k != TY_INT)
        return spv_fail(t->err, v->pos, "%%%s: the condition must name a scalar element", tr_name(t, v->id));
    int size = (int)tr_size(t, cur, 0), first = 0;
    const struct leaf *l = tr_leaf_at(t, o, off, size);
    if (!l && tr_grow(t, o, off))
        l = tr_leaf_at(t, o, off, size);
    int n = l ? 0 : tr_cover(t, o, off, size, &first);
    if (n > 1 && size <= 4) {
        *run = (struct run){ o, first, n };
        *loc = -1;
        return true;
    }
    if (!l)
        return spv_fail(t->err, v->pos, "%%%s: index out of bounds", tr_name(t, v->id));
    *loc = l->loc;
    return true;
}

static bool cond_value(struct trans *t, const struct spv_hval *v, struct avalue *out, struct run *run)
{
    memset(out, 0, sizeof *out);
    if (v->is_const) {
        if (v->value < -2147483648LL || v->value > 4294967295LL)
            return spv_fail(t->err, v->pos, "the constant is out of the 32-bit range");
        out->kind = AV_CONST;
        out->value = (int64_t)(int32_t)(uint32_t)v->value;
        return true;
    }
    out->kind = AV_LOC;
    return cond_location(t, v, &out->loc, run);
}

/* A comparison of an element that mixed-size accesses split (run) with
 * constant k, as Dat3M reads it (the leaves' final values put together,
 * little-endian): == is every leaf equal to its bytes of k, != some leaf
 * not; other comparisons are refused. */
static struct assertion *split_cmp(struct trans *t, const struct spv_hcond *h, const struct run *run, int64_t k)
{
    if (h->cmp != CMP_EQ && h->cmp != CMP_NE) {
        spv_fail(t->err, h->pos, "a condition on an element that accesses of other sizes split (mixed sizes) can "
                 "only compare it with a constant by == or !=");
        return NULL;
    }
    const struct obj *o = &t->obj[run->o];
    int64_t base = o->leaf[run->first].off;
    struct assertion *chain = NULL;
    for (int i = run->first; i < run->first + run->n; i++) {
        const struct leaf *l = &o->leaf[i];
        struct assertion *c = xcalloc(1, sizeof *c);
        c->kind = A_CMP;
        c->pos = h->pos;
        c->cmp = h->cmp;
        c->a = (struct avalue){ .kind = AV_LOC, .loc = l->loc };
        int64_t x = (int64_t)(uint32_t)k >> (8 * (l->off - base));
        x &= l->size < 4 ? ((int64_t)1 << (8 * l->size)) - 1 : 0xffffffff;
        c->b = (struct avalue){ .kind = AV_CONST, .value = (int64_t)(int32_t)(uint32_t)x };
        if (!chain) {
            chain = c;
            continue;
        }
        struct assertion *j = xcalloc(1, sizeof *j);
        j->kind = h->cmp == CMP_EQ ? A_AND : A_OR;
        j->pos = h->pos;
        j->lhs = chain;
        j->rhs = c;
        chain = j;
    }
    return chain;
}

static struct assertion *convert(struct trans *t, const struct spv_hcond *h)
{
    if (!h)
        return NULL;
    struct assertion *a = xcalloc(1, sizeof *a);
    a->kind = h->kind;
    a->pos = h->pos;
    a->cmp = h->cmp;
    bool ok = true;
    if (h->kind == A_CMP) {
        struct run ra = { 0 }, rb = { 0 };
        ok = cond_value(t, &h->a, &a->a, &ra) && cond_value(t, &h->b, &a->b, &rb);
        if (ok && (ra.n || rb.n)) {
            int64_t k = ra.n ? a->b.value : a->a.value;
            free(a);
            if ((ra.n && !h->b.is_const) || (rb.n && !h->a.is_const)) {
                spv_fail(t->err, h->pos, "a condition on an element that accesses of other sizes split (mixed "
                         "sizes) can only compare it with a constant by == or !=");
                return NULL;
            }
            return split_cmp(t, h, ra.n ? &ra : &rb, k);
        }
        const struct spv_hval *k = h->a.is_const ? &h->a : &h->b;
        const struct avalue *other = h->a.is_const ? &a->b : &a->a;
        if (ok && k->is_const && k->value > INT32_MAX && other->kind == AV_LOC && t->loc_wide[other->loc])
            ok = spv_fail(t->err, k->pos, "%lld is out of the signed 32-bit range gpubmc computes in",
                          (long long)k->value);
    }
    if (ok && h->lhs && !(a->lhs = convert(t, h->lhs)))
        ok = false;
    if (ok && h->rhs && !(a->rhs = convert(t, h->rhs)))
        ok = false;
    if (!ok) {
        assertion_free(a);
        return NULL;
    }
    return a;
}

/* Adds location loc to the test's observed values unless it is there. */
static void observe_loc(struct litmus *lit, int loc)
{
    for (int i = 0; i < lit->nobserved; i++)
        if (lit->observed[i].loc == loc)
            return;
    lit->observed = xrealloc(lit->observed, sizeof *lit->observed * (size_t)(lit->nobserved + 1));
    lit->observed[lit->nobserved++] = (struct avalue){ .kind = AV_LOC, .loc = loc };
}

/* The values a kernel's outcome observes (--outcomes, --source): the
 * memory elements its @Output and @Filter name, in order, else every
 * element of its StorageBuffer, Uniform and Output variables (what the
 * host reads after the dispatch); never registers, which are the
 * translation's own and mean nothing across two modules. */
static void observe_memory(struct trans *t)
{
    struct litmus *lit = t->lit;
    const struct assertion *roots[2] = { lit->assertion, lit->filter };
    int cap = 16, n = 0;
    const struct assertion **stack = xcalloc((size_t)cap, sizeof *stack);
    for (int r = 0; r < 2; r++) {
        if (roots[r])
            stack[n++] = roots[r];
        while (n > 0) {
            const struct assertion *a = stack[--n];
            if (a->kind == A_CMP) {
                if (a->a.kind == AV_LOC)
                    observe_loc(lit, a->a.loc);
                if (a->b.kind == AV_LOC)
                    observe_loc(lit, a->b.loc);
                continue;
            }
            XGROW(stack, cap, n + 2);
            if (a->rhs)         /* pushed first: the left side comes out first */
                stack[n++] = a->rhs;
            if (a->lhs)
                stack[n++] = a->lhs;
        }
    }
    free(stack);
    for (int o = 0; lit->nobserved == 0 && o < t->nobj; o++)
        if (t->obj[o].grp == SCG_SHARED)
            for (int i = 0; i < t->obj[o].nleaf; i++)
                observe_loc(lit, t->obj[o].leaf[i].loc);
    lit->has_locations = lit->nobserved > 0;
}

static bool translate_threads(struct trans *t, int entry)
{
    struct litmus *lit = t->lit;
    const struct spv_module *m = t->m;
    int wg = t->grid[0] * t->grid[1];
    lit->threads = xcalloc((size_t)t->nthreads, sizeof *lit->threads);
    for (int tid = 0; tid < t->nthreads; tid++) {
        struct thread *th = &lit->threads[tid];
        lit->nthreads = tid + 1;
        th->id = tid;
        th->scope_id[0] = t->opencl ? 0 : (tid % wg) / t->grid[0];    /* OpenCL: {0, wg, dev} */
        th->scope_id[1] = tid / wg;
        th->scope_id[2] = 0;
        t->tid = tid;
        t->th = th;
        t->scratch = -1;
        t->cap_instrs = t->cap_regs = t->cap_labels = 0;
        t->globals = tr_alloc(t, sizeof(struct val) * (size_t)m->nids);
        t->private_obj = tr_alloc(t, sizeof(int) * (size_t)m->nids);
        for (int i = 0; i < m->nids; i++)
            t->private_obj[i] = -1;
        if (!tr_globals(t) || !tr_thread_code(t, entry))
            return false;
        em_renumber(t);
    }
    return true;
}

/* One translation with the host-sized arrays' lengths in host_len (per
 * type id; grown where constant indices reach further). */
static struct litmus *translate_once(const struct spv_module *m, const int *grid, int64_t *host_len,
                                     struct cut_set *cuts, bool *again, struct litmus_error *err)
{
    struct trans t = { 0 };
    t.cuts = cuts;
    *again = false;
    int entry = -1;
    char *name = NULL;
    if (!module_shape(m, &entry, &name, &t.opencl, &t.ptr_bytes, err))
        return NULL;
    t.m = m;
    t.err = err;
    t.host_len = host_len;
    for (int i = 0; i < 3; i++)
        t.grid[i] = grid ? grid[i] : m->has_config ? m->config[i] : 1;
    t.nthreads = t.grid[0] * t.grid[1] * t.grid[2];
    struct litmus *lit = xcalloc(1, sizeof *lit);
    lit->dialect = t.opencl ? DIALECT_OPENCL : DIALECT_VULKAN;
    lit->name = name;
    lit->path = m->path ? xstrdup(m->path) : NULL;
    t.lit = lit;
    bool ok = true;
    if (t.nthreads > MAX_THREADS)
        ok = spv_fail(err, m->has_config ? m->config_pos : m->inst[0].pos, "the grid has %d threads; the limit is %d",
                      t.nthreads, MAX_THREADS);
    if (ok) {
        t.ty = tr_alloc(&t, sizeof *t.ty * (size_t)m->nids * 2);    /* ids, then kernel arguments' arrays */
        t.builtin = tr_alloc(&t, sizeof(int) * (size_t)m->nids);
        t.stride_dec = tr_alloc(&t, sizeof(int64_t) * (size_t)m->nids);
        t.shared_obj = tr_alloc(&t, sizeof(int) * (size_t)m->nids);
        t.wg_obj = tr_alloc(&t, sizeof(int) * (size_t)m->nids * (size_t)t.grid[2]);
        for (int i = 0; i < m->nids; i++) {
            t.builtin[i] = t.shared_obj[i] = -1;
            for (int w = 0; w < t.grid[2]; w++)
                t.wg_obj[i * t.grid[2] + w] = -1;
        }
        ok = tr_types(&t) && translate_threads(&t, entry);
    }
    for (int i = 0; ok && i < m->ninputs; i++) {
        int d = m->id_def[m->inputs[i].id];
        if (d < 0 && t.opencl)      /* an argument the kernel does not have: Dat3M ignores it */
            continue;
        if (d < 0 || (!spv_is(&m->inst[d], "OpVariable") && strncmp(m->inst[d].op->name, "OpSpecConstant", 14)
                      && !(t.opencl && spv_is(&m->inst[d], "OpFunctionParameter"))))
            ok = spv_fail(err, m->inputs[i].pos, "@Input: %%%s is not a variable%s or specialization constant",
                          m->id_names[m->inputs[i].id], t.opencl ? ", kernel argument" : "");
    }
    if (ok && m->quant != Q_NONE) {
        lit->quant = m->quant;
        lit->assertion = convert(&t, m->output);
        ok = lit->assertion != NULL;
    } else if (ok) {          /* no @Output: Dat3M checks "forall true", here 0 == 0 */
        lit->quant = Q_FORALL;
        lit->assertion = xcalloc(1, sizeof *lit->assertion);
        lit->assertion->kind = A_CMP;
        lit->assertion->cmp = CMP_EQ;
        lit->assertion->a.kind = lit->assertion->b.kind = AV_CONST;
    }
    if (ok && m->filter) {
        lit->filter = convert(&t, m->filter);
        ok = lit->filter != NULL;
    }
    if (ok)
        observe_memory(&t);
    *again = t.new_cut || t.new_null_or_one;
    if (t.new_cut) {    /* an error may come from the loads made up meanwhile */
        memset(err, 0, sizeof *err);
        err->pos = t.cut_pos;
        snprintf(err->msg, sizeof err->msg, "the mixed-size accesses here split elements again and again");
        ok = false;
    }
    for (int i = 0; i < t.nobj; i++)
        free(t.obj[i].leaf);
    free(t.obj);
    free(t.loc_wide);
    free(t.any_keys);
    for (int i = 0; i < t.narena; i++)
        free(t.arena[i]);
    free(t.arena);
    if (!ok) {
        litmus_free(lit);
        return NULL;
    }
    return lit;
}

/* Translates a read module into a Vulkan litmus test: again when a
 * translation found that host-sized arrays need more elements, so that
 * every access, at a constant or a run-time index, sees their final
 * length, or that mixed-size accesses cut objects (spirv_mixed.c). */
struct litmus *spv_translate(const struct spv_module *m, const int *grid, struct litmus_error *err)
{
    size_t ntypes = (size_t)m->nids * 2;      /* ids, then kernel arguments' arrays */
    int64_t *host_len = xcalloc(ntypes + 1, sizeof *host_len);
    int64_t *before = xcalloc(ntypes + 1, sizeof *before);
    struct cut_set *cuts = xcalloc((size_t)m->nids + 1, sizeof *cuts);
    bool again = false;
    struct litmus *lit = translate_once(m, grid, host_len, cuts, &again, err);
    for (int round = 0; (lit || again) && round < 8
         && (again || memcmp(before, host_len, sizeof *host_len * ntypes)); round++) {
        memcpy(before, host_len, sizeof *host_len * ntypes);
        litmus_free(lit);
        lit = translate_once(m, grid, host_len, cuts, &again, err);
    }
    for (int i = 0; i <= m->nids; i++)
        free(cuts[i].at);
    free(cuts);
    free(host_len);
    free(before);
    return lit;
}

/* The grammar, loaded on the first file and kept for the process: every
 * SPIR-V file of a batch reads the same one (loading it is about 2.7 M
 * instructions).  A failed load is tried again for the next file, which
 * gets the same error. */
static const struct spv_grammar *process_grammar(char *msg, size_t msglen)
{
    static struct spv_grammar *grammar;
    if (!grammar)
        grammar = spv_grammar_load(NULL, msg, msglen);
    return grammar;
}

/* Parses SPIR-V assembly text into a Vulkan litmus test. */
struct litmus *spirv_parse(const char *path, const char *text, const int *grid, struct litmus_error *err)
{
    char msg[256];
    struct spv_module m = { 0 };
    m.path = path;
    m.quant = Q_NONE;
    memset(err, 0, sizeof *err);
    const struct spv_grammar *g = process_grammar(msg, sizeof msg);
    if (!g) {
        snprintf(err->msg, sizeof err->msg, "%s", msg);
        return NULL;
    }
    m.g = g;
    struct litmus *l = NULL;
    if (spv_read_module(&m, text, err))
        l = spv_translate(&m, grid, err);
    spv_free_module(&m);
    return l;
}
