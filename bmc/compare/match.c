/* Matching threads, registers and locations of two programs by name. */
#include "bmc/compare/match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/check/outcomes.h"
#include "util/xalloc.h"

/* Index of the thread with P number id, or -1. */
static int thread_by_id(const struct litmus *l, int id)
{
    for (int t = 0; t < l->nthreads; t++)
        if (l->threads[t].id == id)
            return t;
    return -1;
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

const char *observed_from_name(enum observed_from f)
{
    static const char *const names[] = { "observe", "locations", "condition", "shared" };
    return names[f];
}

/* Every register of every thread and every location that is not an alias,
 * into a new array of *n. */
static struct avalue *everything(const struct litmus *src, int *n)
{
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

/* Resolves one --observe name, "P0:r1" or "x", in l; false when l has none. */
static bool resolve_observed(const struct litmus *l, const char *name, struct avalue *v)
{
    const char *colon = strchr(name, ':');
    if (!colon) {
        int x = location_by_name(l, name);
        *v = (struct avalue){ .kind = AV_LOC, .loc = x };
        return x >= 0;
    }
    char *end;
    long id = name[0] == 'P' ? strtol(name + 1, &end, 10) : -1;
    if (id < 0 || end != colon || end == name + 1)
        return false;
    int t = thread_by_id(l, (int)id);
    int r = t < 0 ? -1 : register_by_name(&l->threads[t], colon + 1);
    *v = (struct avalue){ .kind = AV_REG, .thread = t, .reg = r };
    return r >= 0;
}

/* The --observe list resolved in src, each name once; NULL with err. */
static struct avalue *observe_list(const struct litmus *src, const char *list, int *n, char *err, size_t len)
{
    struct avalue *obs = xcalloc(strlen(list) + 1, sizeof *obs);
    *n = 0;
    for (const char *at = list; *at;) {
        size_t k = strcspn(at, ","), skip = strspn(at, " ");
        size_t width = k > skip ? k - skip : 0;    /* the name without spaces around it */
        while (width > 0 && at[skip + width - 1] == ' ')
            width--;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)width, at + skip);
        struct avalue v;
        if (!resolve_observed(src, name, &v)) {
            snprintf(err, len, "--observe names '%s', which is no register (Pn:reg) or location of the source", name);
            free(obs);
            return NULL;
        }
        bool seen = false;
        for (int i = 0; i < *n; i++)
            seen |= obs[i].kind == v.kind && (v.kind == AV_LOC ? obs[i].loc == v.loc
                                              : obs[i].thread == v.thread && obs[i].reg == v.reg);
        if (!seen)
            obs[(*n)++] = v;
        at += k + (at[k] == ',');
    }
    return obs;
}

struct avalue *match_source_observables(const struct litmus *src, const char *observe, enum observed_from *from,
                                        int *n, char *err, size_t len)
{
    struct avalue *obs;
    if (observe) {
        *from = OBSERVED_BY_OPTION;
        obs = observe_list(src, observe, n, err, len);
    } else {
        struct outcome_set named;             /* the locations list, else the condition's names */
        outcomes_init(&named, src);
        *from = src->has_locations ? OBSERVED_BY_LOCATIONS : OBSERVED_BY_CONDITION;
        *n = named.nobs;
        obs = xcalloc((size_t)named.nobs + 1, sizeof *obs);
        if (named.nobs > 0)
            memcpy(obs, named.obs, (size_t)named.nobs * sizeof *obs);
        outcomes_free(&named);
        if (*n == 0 && !src->has_locations) {
            free(obs);
            *from = OBSERVED_SHARED;
            obs = everything(src, n);
        }
    }
    if (obs && *n == 0) {
        snprintf(err, len, "nothing to observe: the %s is empty", *from == OBSERVED_BY_LOCATIONS
                 ? "source's locations list" : "source has no register or location");
        free(obs);
        obs = NULL;
    }
    return obs;
}

/* Whether thread a of src and thread b of tgt are placed alike: the same
 * scope ids, or, for an OpenCL source and a PTX target (its compilation),
 * the work-group as the CTA and the device as the GPU, and for a Vulkan
 * target the work-group as the workgroup and the device as the queue
 * family (subgroups as they come). */
static bool same_place(const struct litmus *src, const struct thread *a, const struct litmus *tgt,
                       const struct thread *b)
{
    if (src->dialect == DIALECT_OPENCL && tgt->dialect == DIALECT_PTX)
        return a->scope_id[1] == b->scope_id[0] && a->scope_id[2] == b->scope_id[1];
    if (src->dialect == DIALECT_OPENCL && tgt->dialect == DIALECT_VULKAN)
        return a->scope_id[1] == b->scope_id[1] && a->scope_id[2] == b->scope_id[2];
    return memcmp(a->scope_id, b->scope_id, sizeof b->scope_id) == 0;
}

bool match_threads(const struct litmus *src, const struct litmus *tgt, char *err, size_t len)
{
    bool compiled = src->dialect == DIALECT_OPENCL && tgt->dialect != DIALECT_OPENCL;
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

/* How the observables were asked for, in an error about one a target lacks. */
static const char *asked_by(enum observed_from from)
{
    return from == OBSERVED_BY_OPTION ? "--observe" : from == OBSERVED_BY_LOCATIONS ? "the source's locations list"
                                                                                    : "the source's condition";
}

bool match_observables(const struct litmus *src, const struct avalue *obs, int n, enum observed_from from,
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
            else if (from != OBSERVED_SHARED) {
                snprintf(err, len, "register P%d:%s, observed as %s asks, is not in the target's "
                         "thread P%d", st->id, st->reg_names[v->reg], asked_by(from), st->id);
                return false;
            }
        } else {
            int l = location_by_name(tgt, src->locs[v->loc].name);
            if (l >= 0)
                out[i] = (struct avalue){ .kind = AV_LOC, .loc = l };
            else if (from != OBSERVED_SHARED) {
                snprintf(err, len, "location %s, observed as %s asks, is not in the target",
                         src->locs[v->loc].name, asked_by(from));
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
