/* Compilation mappings of OpenCL tests (the Vulkan ones in map_vulkan.c)
 * and those to PTX: NVIDIA's Atomics ABI (the
 * mapping of scoped C++ atomics to PTX of Lustig et al., ASPLOS'19, as
 * libcu++ emits it), its second seq_cst load, and two deliberately wrong
 * mappings that the refinement check must catch.
 *
 *   OpenCL                         ptx (Atomics ABI)
 *   non-atomic read / write        ld.weak / st.weak
 *   load relaxed / acquire         ld.relaxed.S / ld.acquire.S
 *   load seq_cst                   fence.sc.S; ld.acquire.S
 *                                  (ptx-sc-relaxed: fence.sc.S; ld.relaxed.S; fence.acq_rel.S)
 *   store relaxed / release        st.relaxed.S / st.release.S
 *   store seq_cst                  fence.sc.S; st.relaxed.S
 *                                  (ptx-sc-release: fence.sc.S; st.release.S)
 *   RMW relaxed ... acq_rel        atom.<order>.S.<op> (atom.cas writes also when it fails)
 *   RMW seq_cst                    fence.sc.S; atom.acq_rel.S.<op>
 *   fence acquire/release/acq_rel  fence.acq_rel.S
 *   fence seq_cst                  fence.sc.S (a relaxed fence: nothing)
 *   barrier Bn                     bar.cta.sync n
 *
 * with S: work-item and work-group -> cta, device -> gpu, all devices
 * (and a fence without scope) -> sys; a work-group is a CTA and a device a
 * GPU.  Wrong on purpose: ptx-no-sc-fence drops the fence.sc of a seq_cst
 * store, ptx-relaxed-acquire maps an acquire load to ld.relaxed. */
#include "bmc/compare/map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/compare/map_impl.h"
#include "util/xalloc.h"
#include "litmus/printer.h"

enum map_kind { MAP_PTX, MAP_PTX_SC_RELAXED, MAP_PTX_SC_RELEASE, MAP_PTX_NO_SC_FENCE, MAP_PTX_RELAXED_ACQUIRE,
                MAP_VULKAN, MAP_VULKAN_RELAXED_RELEASE, MAP_VULKAN_PRIVATE, MAP_COUNT };

static const char *const names[MAP_COUNT] = { "ptx", "ptx-sc-relaxed", "ptx-sc-release", "ptx-no-sc-fence",
                                              "ptx-relaxed-acquire", "vulkan", "vulkan-relaxed-release",
                                              "vulkan-private" };

const char map_names[] = "ptx ptx-sc-relaxed ptx-sc-release ptx-no-sc-fence ptx-relaxed-acquire vulkan "
                         "vulkan-relaxed-release vulkan-private";

/* The mapping called name, MAP_COUNT when none. */
static enum map_kind kind_of(const char *name)
{
    int k = 0;
    while (k < MAP_COUNT && strcmp(names[k], name) != 0)
        k++;
    return (enum map_kind)k;
}

bool map_known(const char *name)
{
    return kind_of(name) != MAP_COUNT;
}

/* True when mapping k compiles to Vulkan. */
static bool to_vulkan(enum map_kind k)
{
    return k >= MAP_VULKAN && k < MAP_COUNT;
}

const char *map_target_model(const char *name)
{
    return to_vulkan(kind_of(name)) ? "vulkan" : "ptx-v7.5";
}

/* The PTX scope of an OpenCL scope. */
static enum scope ptx_scope(enum scope s)
{
    switch (s) {
    case SCOPE_WI: case SCOPE_WG: return SCOPE_CTA;
    case SCOPE_DV: return SCOPE_GPU;
    default: return SCOPE_SYS;
    }
}

void map_put(struct map_out *o, const struct instr *in)
{
    XGROW(o->th->instrs, o->cap, o->th->ninstrs + 1);
    o->th->instrs[o->th->ninstrs] = *in;
    o->th->instrs[o->th->ninstrs].text = NULL;
    o->th->ninstrs++;
}

/* Appends a fence of order mo at scope s, at in's place. */
static void fence(struct map_out *o, const struct instr *in, enum mo mo, enum scope s)
{
    struct instr f = *in;
    f.kind = I_FENCE;
    f.mo = mo;
    f.scope = s;
    f.dst = f.loc = -1;
    f.a = f.b = (struct operand){ false, 0, 0 };
    f.cl_flags = 0;
    map_put(o, &f);
}

/* Appends the mapped sequence of source instruction in. */
static void map_instr(struct map_out *o, enum map_kind k, const struct instr *src)
{
    struct instr in = *src;
    enum scope s = ptx_scope(src->scope);
    in.cl_flags = 0;
    in.proxy = PROXY_GENERIC;
    switch (src->kind) {
    case I_LOAD: case I_STORE:
        if (src->mo == MO_WEAK) {
            in.scope = SCOPE_NONE;
            map_put(o, &in);
            return;
        }
        in.scope = s;
        if (src->mo == MO_SC && (src->kind == I_LOAD || k != MAP_PTX_NO_SC_FENCE))
            fence(o, src, MO_SC, s);
        if (src->mo == MO_SC)
            in.mo = src->kind == I_STORE || k == MAP_PTX_SC_RELAXED ? MO_RELAXED : MO_ACQUIRE;
        if (src->kind == I_STORE && src->mo == MO_SC && (k == MAP_PTX_NO_SC_FENCE || k == MAP_PTX_SC_RELEASE))
            in.mo = MO_RELEASE;
        if (src->kind == I_LOAD && src->mo == MO_ACQUIRE && k == MAP_PTX_RELAXED_ACQUIRE)
            in.mo = MO_RELAXED;
        map_put(o, &in);
        if (src->kind == I_LOAD && src->mo == MO_SC && k == MAP_PTX_SC_RELAXED)
            fence(o, src, MO_ACQ_REL, s);
        return;
    case I_RMW:
        in.scope = s;
        in.cas_if_equal = false;   /* atom.cas writes what it read when it fails */
        if (src->mo == MO_SC) {
            fence(o, src, MO_SC, s);
            in.mo = MO_ACQ_REL;
        }
        map_put(o, &in);
        return;
    case I_FENCE:
        if (src->mo == MO_SC)
            fence(o, src, MO_SC, s);
        else if (src->mo != MO_RELAXED)
            fence(o, src, MO_ACQ_REL, s);
        return;
    case I_BARRIER:
        in.scope = SCOPE_CTA;
        in.mo = MO_NONE;
        map_put(o, &in);
        return;
    default:
        map_put(o, &in);
        return;
    }
}

/* A copy of n strings. */
static char **copy_strings(char *const *v, int n)
{
    char **c = xcalloc((size_t)n + 1, sizeof *c);
    for (int i = 0; i < n; i++)
        c[i] = xstrdup(v[i]);
    return c;
}

/* Thread t of src, compiled. */
static void map_thread(const struct litmus *src, int t, enum map_kind k, struct thread *th)
{
    const struct thread *a = &src->threads[t];
    th->id = a->id;
    if (to_vulkan(k)) {
        th->scope_id[0] = t;                /* sg: each work-item its own */
        th->scope_id[1] = a->scope_id[1];   /* wg: the work-group */
        th->scope_id[2] = a->scope_id[2];   /* qf: the device */
    } else {
        th->scope_id[0] = a->scope_id[1];   /* cta: the work-group */
        th->scope_id[1] = a->scope_id[2];   /* gpu: the device */
        th->scope_id[2] = -1;
    }
    th->nregs = a->nregs;
    th->reg_names = copy_strings(a->reg_names, a->nregs);
    th->reg_has_init = xcalloc((size_t)a->nregs + 1, sizeof *th->reg_has_init);
    th->reg_init = xcalloc((size_t)a->nregs + 1, sizeof *th->reg_init);
    memcpy(th->reg_has_init, a->reg_has_init, (size_t)a->nregs * sizeof *a->reg_has_init);
    memcpy(th->reg_init, a->reg_init, (size_t)a->nregs * sizeof *a->reg_init);
    th->nlabels = a->nlabels;
    th->label_names = copy_strings(a->label_names, a->nlabels);
    struct map_out o = { th, 0 };
    for (int i = 0; i < a->ninstrs; i++)
        if (to_vulkan(k))
            map_vulkan_instr(&o, src, k == MAP_VULKAN ? VKMAP_SOUND : k == MAP_VULKAN_PRIVATE ? VKMAP_PRIVATE
                                                                       : VKMAP_RELAXED_RELEASE, &a->instrs[i]);
        else
            map_instr(&o, k, &a->instrs[i]);
}

struct litmus *map_compile(const struct litmus *src, const char *name, char *err, size_t len)
{
    enum map_kind k = kind_of(name);
    if (k == MAP_COUNT) {
        snprintf(err, len, "unknown mapping '%s' (mappings: %s)", name, map_names);
        return NULL;
    }
    if (src->dialect != DIALECT_OPENCL) {
        snprintf(err, len, "--map compiles OpenCL tests, and this is a %s test", dialect_name(src->dialect));
        return NULL;
    }
    if (src->filter) {
        snprintf(err, len, "--map compiles tests without a filter");
        return NULL;
    }
    struct litmus *l = xcalloc(1, sizeof *l);
    l->path = xstrdup(src->path ? src->path : "");
    l->name = xstrdup(src->name ? src->name : "");
    l->dialect = to_vulkan(k) ? DIALECT_VULKAN : DIALECT_PTX;
    l->nlocs = src->nlocs;
    l->locs = xcalloc((size_t)src->nlocs + 1, sizeof *l->locs);
    for (int i = 0; i < src->nlocs; i++)
        l->locs[i] = (struct location){ xstrdup(src->locs[i].name), src->locs[i].init, -1, PROXY_GENERIC, 0 };
    l->quant = src->quant;                     /* registers keep their indices, so the */
    l->assertion = assertion_copy(src->assertion);   /* condition reads the same */
    l->nthreads = src->nthreads;
    l->threads = xcalloc((size_t)src->nthreads + 1, sizeof *l->threads);
    for (int t = 0; t < src->nthreads; t++)
        map_thread(src, t, k, &l->threads[t]);
    for (int t = 0; t < l->nthreads; t++)
        for (int i = 0; i < l->threads[t].ninstrs; i++) {
            char *text = litmus_print_instr(l, &l->threads[t], &l->threads[t].instrs[i]);
            l->threads[t].instrs[i].text = text ? text : xstrdup("?");
        }
    return l;
}
