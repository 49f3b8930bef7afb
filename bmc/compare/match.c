/* Matching threads, registers and locations of two programs by name. */
#include "bmc/compare/match.h"

#include <stdio.h>
#include <string.h>

#include "util/xalloc.h"

struct avalue *match_source_observables(const struct litmus *src, int *n)
{
    if (src->has_locations) {
        struct avalue *obs = xcalloc((size_t)src->nobserved + 1, sizeof *obs);
        memcpy(obs, src->observed, (size_t)src->nobserved * sizeof *obs);
        *n = src->nobserved;
        return obs;
    }
    int total = src->nlocs;
    for (int t = 0; t < src->nthreads; t++)
        total += src->threads[t].nregs;
    struct avalue *obs = xcalloc((size_t)total + 1, sizeof *obs);
    *n = 0;
    for (int t = 0; t < src->nthreads; t++)
        for (int r = 0; r < src->threads[t].nregs; r++)
            obs[(*n)++] = (struct avalue){ .kind = AV_REG, .thread = t, .reg = r };
    for (int l = 0; l < src->nlocs; l++)
        if (src->locs[l].alias_of < 0)
            obs[(*n)++] = (struct avalue){ .kind = AV_LOC, .loc = l };
    return obs;
}

/* Index of the thread with P number id, or -1. */
static int thread_by_id(const struct litmus *l, int id)
{
    for (int t = 0; t < l->nthreads; t++)
        if (l->threads[t].id == id)
            return t;
    return -1;
}

/* Whether thread a of src and thread b of tgt are placed alike: the same
 * scope ids, or, for an OpenCL source and a PTX target (its compilation),
 * the work-group as the CTA and the device as the GPU. */
static bool same_place(const struct litmus *src, const struct thread *a, const struct litmus *tgt,
                       const struct thread *b)
{
    if (src->dialect == DIALECT_OPENCL && tgt->dialect == DIALECT_PTX)
        return a->scope_id[1] == b->scope_id[0] && a->scope_id[2] == b->scope_id[1];
    return memcmp(a->scope_id, b->scope_id, sizeof b->scope_id) == 0;
}

bool match_threads(const struct litmus *src, const struct litmus *tgt, char *err, size_t len)
{
    bool compiled = src->dialect == DIALECT_OPENCL && tgt->dialect == DIALECT_PTX;
    if (src->dialect != tgt->dialect && !compiled) {
        snprintf(err, len, "the source is a %s test and the target a %s test", dialect_name(src->dialect),
                 dialect_name(tgt->dialect));
        return false;
    }
    for (int t = 0; t < src->nthreads; t++)
        if (thread_by_id(tgt, src->threads[t].id) < 0) {
            snprintf(err, len, "thread P%d of the source is not in the target", src->threads[t].id);
            return false;
        }
    for (int t = 0; t < tgt->nthreads; t++) {
        const struct thread *b = &tgt->threads[t];
        int s = thread_by_id(src, b->id);
        if (s < 0) {
            snprintf(err, len, "thread P%d of the target is not in the source", b->id);
            return false;
        }
        if (!same_place(src, &src->threads[s], tgt, b)) {
            snprintf(err, len, "thread P%d is placed differently in the source and the target", b->id);
            return false;
        }
    }
    return true;
}

/* Index of the register named name in thread th, or -1. */
static int register_by_name(const struct thread *th, const char *name)
{
    for (int r = 0; r < th->nregs; r++)
        if (strcmp(th->reg_names[r], name) == 0)
            return r;
    return -1;
}

/* Index of the location named name, or -1. */
static int location_by_name(const struct litmus *l, const char *name)
{
    for (int i = 0; i < l->nlocs; i++)
        if (strcmp(l->locs[i].name, name) == 0)
            return i;
    return -1;
}

bool match_observables(const struct litmus *src, const struct avalue *obs, int n,
                       const struct litmus *tgt, struct avalue *out, char *err, size_t len)
{
    int shared = 0;
    for (int i = 0; i < n; i++) {
        const struct avalue *v = &obs[i];
        out[i] = (struct avalue){ .kind = AV_CONST };
        if (v->kind == AV_REG) {
            const struct thread *st = &src->threads[v->thread];
            int t = thread_by_id(tgt, st->id);
            int r = t < 0 ? -1 : register_by_name(&tgt->threads[t], st->reg_names[v->reg]);
            if (r >= 0)
                out[i] = (struct avalue){ .kind = AV_REG, .thread = t, .reg = r };
            else if (src->has_locations) {
                snprintf(err, len, "register P%d:%s of the source's locations list is not in the target's "
                         "thread P%d", st->id, st->reg_names[v->reg], st->id);
                return false;
            }
        } else {
            int l = location_by_name(tgt, src->locs[v->loc].name);
            if (l >= 0)
                out[i] = (struct avalue){ .kind = AV_LOC, .loc = l };
            else if (src->has_locations) {
                snprintf(err, len, "location %s of the source's locations list is not in the target",
                         src->locs[v->loc].name);
                return false;
            }
        }
        shared += out[i].kind != AV_CONST;
    }
    if (shared == 0 && n > 0) {
        snprintf(err, len, "the source and the target share no register or location to observe");
        return false;
    }
    return true;
}
