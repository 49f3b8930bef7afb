/* --necessary-sync and --minimize-sync: which synchronisation the outcomes
 * of a program need. */
#include "bmc/transform/checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/transform/origin.h"
#include "util/xalloc.h"
#include "litmus/printer.h"

/* What a weakening's refinement verdict says about its site. */
static const char *need_word(enum verdict v)
{
    return v == V_FAIL ? "needed" : v == V_PASS ? "can be weakened" : "undecided";
}

void check_necessary_sync(const char *path, const struct check_opts *o, struct check_result *r)
{
    struct origin g;
    struct variants vs = { 0 };
    char err[240];
    if (!origin_begin(&g, path, o, r)) {
        /* r names the problem */
    } else if (!transform_apply(g.lit, TRANSFORM_SYNC_KINDS, 0, &vs, err, sizeof err)) {
        snprintf(r->reason, sizeof r->reason, "%s: %s", path, err);
    } else {
        r->details = cJSON_CreateObject();
        cJSON_AddStringToObject(r->details, "kind", "necessary-sync");
        cJSON *sites = cJSON_AddArrayToObject(r->details, "sites");
        int safe = 0, undecided = 0, i = 0;
        for (; i < vs.n; i++) {
            struct check_result vr;
            origin_check(&g, vs.v[i].target, &vr);
            cJSON_Delete(vr.witness);
            if (vr.verdict == V_ERROR) {
                snprintf(r->reason, sizeof r->reason, "%s: error: line %d: %.200s", path, vs.v[i].line, vr.reason);
                cJSON_Delete(vr.details);
                break;
            }
            safe += vr.verdict == V_PASS;
            undecided += vr.verdict == V_UNKNOWN;
            cJSON_AddItemToArray(sites, origin_site_json(&g, &vs.v[i], need_word(vr.verdict), &vr));
        }
        if (i < vs.n) {
            /* the error is in r */
        } else if (vs.n == 0) {
            r->verdict = V_PASS;
            r->vacuous = true;
            snprintf(r->reason, sizeof r->reason, "vacuously: the test has no synchronisation to weaken");
        } else if (safe > 0) {
            r->verdict = V_FAIL;
            snprintf(r->reason, sizeof r->reason, "%d of %d single-step weakenings add no outcome: "
                     "some synchronisation is stronger than needed", safe, vs.n);
        } else {
            r->verdict = undecided ? V_UNKNOWN : V_PASS;
            snprintf(r->reason, sizeof r->reason, undecided ? "%d weakenings, %d undecided within the loop bound"
                     : "every synchronisation is needed: each of the %d weakenings adds an outcome", vs.n, undecided);
        }
    }
    variants_free(&vs);
    origin_end(&g, r);
}

/* Weakenings already found unsafe, as "thread:index:change" keys. */
struct unsafe {
    int n, cap;
    char **keys;
};

static char *key_of(const struct variant *v)
{
    size_t len = strlen(v->change) + 32;
    char *k = xcalloc(len, 1);
    snprintf(k, len, "%d:%d:%s", v->thread, v->instr, v->change);
    return k;
}

static bool known_unsafe(const struct unsafe *u, const char *key)
{
    for (int i = 0; i < u->n; i++)
        if (strcmp(u->keys[i], key) == 0)
            return true;
    return false;
}

static void forget_unsafe(struct unsafe *u)
{
    for (int i = 0; i < u->n; i++)
        free(u->keys[i]);
    u->n = 0;
}

/* The line in the original file of each instruction of the program being
 * weakened: line[t][i] of thread t's instruction i; a dropped fence takes
 * its entry out, as it takes the instruction out. */
struct line_map {
    int nthreads;
    int *n;
    int **line;
};

static void line_map_init(struct line_map *m, const struct litmus *l)
{
    m->nthreads = l->nthreads;
    m->n = xcalloc((size_t)l->nthreads + 1, sizeof *m->n);
    m->line = xcalloc((size_t)l->nthreads + 1, sizeof *m->line);
    for (int t = 0; t < l->nthreads; t++) {
        m->n[t] = l->threads[t].ninstrs;
        m->line[t] = xcalloc((size_t)m->n[t] + 1, sizeof **m->line);
        for (int i = 0; i < m->n[t]; i++)
            m->line[t][i] = l->threads[t].instrs[i].pos.line;
    }
}

static void line_map_free(struct line_map *m)
{
    for (int t = 0; t < m->nthreads; t++)
        free(m->line[t]);
    free(m->line);
    free(m->n);
}

/* The original line of variant v's instruction in l, the program it
 * rewrote (0 when the map and l disagree, which they should not), and the
 * map brought up to date with v applied. */
static int line_map_apply(struct line_map *m, const struct litmus *l, const struct variant *v)
{
    int t = v->thread;
    if (t >= m->nthreads || m->n[t] != l->threads[t].ninstrs || v->instr >= m->n[t])
        return 0;
    int line = m->line[t][v->instr];
    if (v->kind == T_DROP_FENCE) {
        memmove(&m->line[t][v->instr], &m->line[t][v->instr + 1], (size_t)(m->n[t] - v->instr - 1) * sizeof **m->line);
        m->n[t]--;
    }
    return line;
}

/* One greedy pass over the weakenings of *current: applies the first
 * safe one (taking its program into *current and recording it in
 * applied, with its instruction's line in the original); false when none
 * is safe (or on an error, which r then holds). */
static bool weaken_once(struct origin *g, struct litmus **current, struct unsafe *u, struct line_map *lines,
                        cJSON *applied, struct check_result *r)
{
    struct variants vs = { 0 };
    char err[240];
    bool done = false;
    if (!transform_apply(*current, TRANSFORM_SYNC_KINDS, 0, &vs, err, sizeof err)) {
        r->verdict = V_ERROR;
        snprintf(r->reason, sizeof r->reason, "%s: %s", g->path, err);
        return false;
    }
    for (int i = 0; !done && i < vs.n && r->verdict != V_ERROR; i++) {
        char *key = key_of(&vs.v[i]);
        struct check_result vr;
        if (known_unsafe(u, key)) {
            free(key);
            continue;
        }
        origin_check(g, vs.v[i].target, &vr);
        cJSON_Delete(vr.witness);
        if (vr.verdict == V_PASS) {
            cJSON *site = origin_site_json(g, &vs.v[i], NULL, &vr);
            int line = line_map_apply(lines, *current, &vs.v[i]);
            if (line > 0)                                 /* not the intermediate program's line */
                cJSON_ReplaceItemInObject(site, "line", cJSON_CreateNumber(line));
            else
                cJSON_DeleteItemFromObject(site, "line");
            cJSON_AddItemToArray(applied, site);
            if (vs.v[i].kind == T_DROP_FENCE)
                forget_unsafe(u);                         /* the instructions after it moved up */
            litmus_free(*current);
            *current = vs.v[i].target;
            vs.v[i].target = NULL;
            done = true;
            free(key);
        } else if (vr.verdict == V_ERROR) {
            r->verdict = V_ERROR;
            snprintf(r->reason, sizeof r->reason, "%s: error: %.200s", g->path, vr.reason);
            free(key);
        } else {
            XGROW(u->keys, u->cap, u->n + 1);
            u->keys[u->n++] = key;
        }
        cJSON_Delete(vr.details);
    }
    variants_free(&vs);
    return done;
}

/* Checks the final program from scratch: a refinement of the original in
 * a fresh session, and its own verdict equal to the original's. */
static void recheck_minimum(struct origin *g, const struct litmus *final, struct check_result *r)
{
    struct origin fresh;
    struct check_result ref, own_old, own_new;
    memset(&own_old, 0, sizeof own_old);
    memset(&own_new, 0, sizeof own_new);
    if (!origin_begin(&fresh, g->path, g->o, &ref)) {
        snprintf(r->reason, sizeof r->reason, "%.300s", ref.reason);
        origin_end(&fresh, &ref);
        return;
    }
    origin_check(&fresh, final, &ref);
    char msg[256] = "";
    struct program *p = program_build(final, g->o->bound, msg, sizeof msg);
    struct check_opts plain = *g->o;
    plain.want_witness = false;
    if (p && g->lit->quant != Q_NONE && plain.property == P_PROGRAM_SPEC) {
        check_program(g->prog.p, g->prog.md, &plain, &own_old);
        check_program(p, g->prog.md, &plain, &own_new);
    }
    if (ref.verdict == V_PASS && own_old.verdict == own_new.verdict) {
        r->verdict = V_PASS;
        cJSON_AddStringToObject(r->details, "recheck", ref.reason);
    } else if (ref.verdict == V_UNKNOWN) {
        r->verdict = V_UNKNOWN;
        snprintf(r->reason, sizeof r->reason, "the re-check of the weakest program decides nothing: %.300s", ref.reason);
    } else if (ref.verdict == V_PASS && g->lit->dialect == DIALECT_OPENCL) {
        r->verdict = V_UNKNOWN;      /* in OpenCL a weakening may also take outcomes away */
        snprintf(r->reason, sizeof r->reason, "the weakest program adds no outcome but loses one (its verdict is %s, "
                 "originally %s): in opencl a non-atomic read sees only the writes that happen before it "
                 "(O-NaRfG), so weaker synchronisation can hide a value", verdict_name(own_new.verdict),
                 verdict_name(own_old.verdict));
    } else {
        snprintf(r->reason, sizeof r->reason, "internal error: the re-check of the weakest program disagrees "
                 "(refinement %s: %.150s; verdict %s, originally %s)", verdict_name(ref.verdict), ref.reason,
                 verdict_name(own_new.verdict), verdict_name(own_old.verdict));
    }
    cJSON_Delete(ref.details);
    cJSON_Delete(ref.witness);
    program_free(p);
    origin_end(&fresh, &ref);
}

void check_minimize_sync(const char *path, const struct check_opts *o, struct check_result *r)
{
    struct origin g;
    struct unsafe u = { 0 };
    struct line_map lines = { 0 };
    if (origin_begin(&g, path, o, r)) {
        struct litmus *current = litmus_parse_file(path, NULL);
        line_map_init(&lines, g.lit);
        r->details = cJSON_CreateObject();
        cJSON_AddStringToObject(r->details, "kind", "minimize-sync");
        cJSON *applied = cJSON_AddArrayToObject(r->details, "sites");
        r->verdict = V_UNKNOWN;
        while (current && weaken_once(&g, &current, &u, &lines, applied, r))
            ;
        if (current && r->verdict != V_ERROR) {
            char *text = litmus_print(current);
            cJSON_AddStringToObject(r->details, "program", text ? text : "");
            free(text);
            r->verdict = V_ERROR;
            recheck_minimum(&g, current, r);
            int n = cJSON_GetArraySize(applied);
            if (r->verdict == V_PASS)
                snprintf(r->reason, sizeof r->reason, "%d weakening%s keep every outcome; the weakest program "
                         "below is re-checked from scratch", n, n == 1 ? "" : "s");
        }
        litmus_free(current);
    }
    forget_unsafe(&u);
    free(u.keys);
    line_map_free(&lines);
    origin_end(&g, r);
}
