/* Enumeration of rf, barrier participation, coherence, fence order and
 * final-value choices, each complete choice evaluated concretely. */
#include "bmc/check/oracle.h"

#include <stdlib.h>
#include <string.h>

#include "bmc/check/cut_flags.h"
#include "bmc/concrete/evaluate.h"
#include "encoders/exec.h"
#include "util/xalloc.h"

#define ORACLE_MAX_GUESSES 32

struct search {
    const struct program *p;
    const struct model_desc *md;
    const struct check_opts *o;
    struct skeleton k;       /* the model's skeleton without program-order facts */
    struct choice ch;
    struct concrete x;       /* the current rf choice's run */
    long limit, count, consistent;
    long ended, counted;     /* consistent ones that terminate; that the property counts */
    bool too_big;
    bool found_goal, found_bound;
    bool cut_flags;          /* cat_spec: a flag raised in a cut execution counts */
    bool found_cut_goal;     /* and one was found */
    long value_cycles;
    int nguesses;
    int32_t guesses[ORACLE_MAX_GUESSES];   /* values tried for a value cycle */
    int nlocs;
};

/* True when a concrete evaluation raises some flagged axiom that
 * --no-axiom (o) leaves on. */
static bool flag_raised(const struct model_out *m, const struct check_opts *o)
{
    for (int i = 0; i < m->naxioms; i++)
        if (m->axioms[i].kind == AX_FLAG && m->axioms[i].violated == LIT_TRUE
            && !axiom_disabled(m->axioms[i].name, o->disabled, o->ndisabled))
            return true;
    return false;
}

static void evaluate_leaf(struct search *s)
{
    if (++s->count > s->limit) {
        s->too_big = true;
        return;
    }
    struct evaluation ev;
    evaluate(s->p, s->md, &s->k, s->o->disabled, s->o->ndisabled, &s->ch, &ev);
    if (ev.x.valid && ev.consistent) {
        s->consistent++;
        const struct litmus *l = s->p->lit;
        bool goal = s->o->property == P_CAT_SPEC ? flag_raised(&ev.m, s->o)
                    : l->quant == Q_FORALL ? !ev.assertion : ev.assertion;
        /* cat_spec without a filter also counts executions that hang */
        bool ends = s->o->property == P_CAT_SPEC && !l->filter ? !ev.bound_hit : ev.terminated;
        s->ended += ev.terminated;
        s->counted += ends && ev.filter;
        if (ends && ev.filter && goal)
            s->found_goal = true;
        if (goal && ev.bound_hit && s->cut_flags)   /* the unbounded program's flag */
            s->found_cut_goal = true;
        if (ev.bound_hit)   /* a cut execution has no final state for the filter */
            s->found_bound = true;
    }
    evaluation_free(s->p, &ev);
}

/* Final values: one co-maximal executed write per location. */
static void enum_final(struct search *s, int loc)
{
    const struct program *p = s->p;
    int n = p->nevents;
    if (s->too_big)
        return;
    if (loc == s->nlocs) {
        evaluate_leaf(s);
        return;
    }
    if (program_root_location(p->lit, loc) != loc) {
        enum_final(s, loc + 1);
        return;
    }
    for (int w = 0; w < n; w++) {
        const struct event *e = &p->events[w];
        if (!event_is_write(e) || !s->x.exec[w] || program_root_location(p->lit, e->loc) != loc)
            continue;
        bool maximal = true;
        for (int o = 0; o < n && maximal; o++)
            maximal = !s->ch.co[w * n + o] && !(s->x.exec[o] && event_overwrites(p, w, o));
        if (!maximal)
            continue;
        s->ch.final_pick[loc] = w;
        enum_final(s, loc + 1);
    }
}

static bool is_fence_sc(const struct event *e)
{
    return e->kind == EV_FENCE && e->mo == MO_SC && e->in->kind == I_FENCE;
}

/* True when the relation on members is transitive (pairs all decided). */
static bool transitive(const bool *rel, int n, const int *m, int k)
{
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++)
            for (int c = 0; c < k; c++)
                if (rel[m[a] * n + m[b]] && rel[m[b] * n + m[c]] && a != c && !rel[m[a] * n + m[c]])
                    return false;
    return true;
}

/* Orders among members: each pair gets none, forward or backward, as far
 * as `allowed` (directional) lets it (none only if not total, or if one
 * direction is barred: the leaf's checks then reject what is missing); only
 * transitive results go on. */
static void enum_pairs(struct search *s, bool *rel, const int *m, int k, int a, int b, bool total,
                       bool (*allowed)(const struct search *, int, int), void (*next)(struct search *))
{
    int n = s->p->nevents;
    if (s->too_big)
        return;
    if (b == k) {
        a++;
        b = a + 1;
    }
    if (a >= k - 1) {
        if (transitive(rel, n, m, k))
            next(s);
        return;
    }
    int i = m[a], j = m[b];
    bool forward = allowed(s, i, j), backward = allowed(s, j, i);
    if (!forward && !backward) {
        enum_pairs(s, rel, m, k, a, b + 1, total, allowed, next);
        return;
    }
    if (!total || !forward || !backward)
        enum_pairs(s, rel, m, k, a, b + 1, total, allowed, next);
    for (int dir = 0; dir < 2; dir++) {
        if (!(dir == 0 ? forward : backward))
            continue;
        bool *pair = dir == 0 ? &rel[i * n + j] : &rel[j * n + i];
        *pair = true;
        enum_pairs(s, rel, m, k, a, b + 1, total, allowed, next);
        *pair = false;
    }
}

static bool sf_allowed(const struct search *s, int i, int j)
{
    return base_scopes_overlap(s->p, &s->p->events[i], &s->p->events[j]);
}

static void after_sf(struct search *s) { enum_final(s, 0); }

static void enum_sf(struct search *s)
{
    int n = s->p->nevents, k = 0;
    int *m = xcalloc((size_t)n, sizeof *m);
    for (int e = 0; e < n; e++)
        if (is_fence_sc(&s->p->events[e]) && s->x.exec[e])
            m[k++] = e;
    enum_pairs(s, s->ch.sf, m, k, 0, 1, true, sf_allowed, after_sf);
    free(m);
}

/* Whether i may be chosen co-before j: same location, not against program
 * order, not already fixed along it (as far as the model says). */
static bool co_allowed(const struct search *s, int i, int j)
{
    const struct program *p = s->p;
    return base_same_location(p, &p->events[i], &p->events[j]) &&
           !base_co_backward_impossible(&s->k, p, j, i) && !base_co_forced(&s->k, p, i, j) &&
           !base_co_forced(&s->k, p, j, i);
}

/* Coherence: initial writes first, a thread's writes in program order where
 * the model forces it, then every (total if the model says so) transitive
 * order among executed writes of each location. */
static void enum_co(struct search *s)
{
    const struct program *p = s->p;
    int n = p->nevents, k = 0;
    int *m = xcalloc((size_t)n, sizeof *m);
    memset(s->ch.co, 0, (size_t)n * n * sizeof *s->ch.co);
    memset(s->ch.sf, 0, (size_t)n * n * sizeof *s->ch.sf);
    for (int w = 0; w < n; w++)
        if (p->events[w].kind == EV_WRITE && s->x.exec[w]) {
            m[k++] = w;
            for (int i = 0; i < n; i++)
                if ((p->events[i].kind == EV_INIT && co_allowed(s, i, w)) ||
                    (base_co_forced(&s->k, p, i, w) && s->x.exec[i]))
                    s->ch.co[i * n + w] = true;
        }
    enum_pairs(s, s->ch.co, m, k, 0, 1, s->k.co_total, co_allowed, enum_sf);
    free(m);
}

/* Adds v to the values to guess, once. */
static void add_guess(struct search *s, int64_t v)
{
    for (int i = 0; i < s->nguesses; i++)
        if (s->guesses[i] == (int32_t)v)
            return;
    if (s->nguesses < ORACLE_MAX_GUESSES)
        s->guesses[s->nguesses++] = (int32_t)v;
}

static void add_assertion_guesses(struct search *s, const struct assertion *a)
{
    if (!a)
        return;
    if (a->kind == A_AND || a->kind == A_OR) {      /* a chain, in a loop, in source order */
        int n = assertion_chain(a, NULL);
        const struct assertion **ops = xcalloc((size_t)n, sizeof *ops);
        assertion_chain(a, ops);
        for (int i = 0; i < n; i++)
            add_assertion_guesses(s, ops[i]);
        free(ops);
        return;
    }
    add_assertion_guesses(s, a->lhs);
    if (a->kind == A_CMP && a->a.kind == AV_CONST)
        add_guess(s, a->a.value);
    if (a->kind == A_CMP && a->b.kind == AV_CONST)
        add_guess(s, a->b.value);
}

/* The values a value cycle is tried with: 0, 1, and every constant of the
 * program, its initial state and its conditions. */
static void collect_guesses(struct search *s)
{
    const struct litmus *l = s->p->lit;
    add_guess(s, 0);
    add_guess(s, 1);
    for (int i = 0; i < l->nlocs; i++)
        add_guess(s, l->locs[i].init);
    for (int t = 0; t < l->nthreads; t++) {
        const struct thread *th = &l->threads[t];
        for (int r = 0; r < th->nregs; r++)
            if (th->reg_has_init[r])
                add_guess(s, th->reg_init[r]);
        for (int i = 0; i < th->ninstrs; i++) {
            if (!th->instrs[i].a.is_reg)
                add_guess(s, th->instrs[i].a.value);
            if (!th->instrs[i].b.is_reg)
                add_guess(s, th->instrs[i].b.value);
        }
    }
    add_assertion_guesses(s, l->assertion);
    add_assertion_guesses(s, l->filter);
}

/* An rf choice whose values depend on themselves: each guess that closes
 * the cycle consistently is a real execution and is explored; since a
 * value outside the guesses may close it too, the choice also counts as
 * undecided. */
static void guess_values(struct search *s)
{
    const struct program *p = s->p;
    s->value_cycles++;
    s->ch.has_hint = true;
    for (int g = 0; g < s->nguesses && !s->too_big; g++) {
        for (int e = 0; e < p->nevents; e++)
            s->ch.val_hint[e] = s->guesses[g];
        concrete_free(p, &s->x);
        interp_execute(p, &s->ch, &s->x);
        if (s->x.valid)
            enum_co(s);
    }
    s->ch.has_hint = false;
}

/* Participation of quorum barriers: every subset of the executed ones. */
static void enum_sync(struct search *s, int b)
{
    const struct program *p = s->p;
    if (s->too_big)
        return;
    while (b < p->nevents && !(p->events[b].kind == EV_BARRIER && p->events[b].in->has_bar_id))
        b++;
    if (b == p->nevents) {
        concrete_free(p, &s->x);
        interp_execute(p, &s->ch, &s->x);
        if (s->x.valid)
            enum_co(s);
        else if (s->x.value_cycle)
            guess_values(s);
        return;
    }
    const struct instr *in = p->events[b].in;
    s->ch.sync[b] = true;
    enum_sync(s, b + 1);
    if (in->has_bar_quorum) {
        s->ch.sync[b] = false;
        enum_sync(s, b + 1);
    }
}

/* Reads-from: each read reads some same-location write or is unexecuted. */
static void enum_rf(struct search *s, int r)
{
    const struct program *p = s->p;
    if (s->too_big)
        return;
    while (r < p->nevents && p->events[r].kind != EV_READ)
        r++;
    if (r == p->nevents) {
        enum_sync(s, 0);
        return;
    }
    s->ch.rf[r] = -1;
    enum_rf(s, r + 1);
    for (int w = 0; w < p->nevents; w++)
        if (base_rf_possible(&s->k, p, w, r)) {
            s->ch.rf[r] = w;
            enum_rf(s, r + 1);
        }
    s->ch.rf[r] = -1;
}

bool oracle_check(const struct program *p, const struct model_desc *md,
                         const struct check_opts *o, long limit, struct oracle_result *r)
{
    struct search s = { .p = p, .md = md, .o = o, .limit = limit, .nlocs = p->lit->nlocs,
                        .k = model_skeleton_without_facts(md) };
    char why[96];
    s.cut_flags = o->property == P_CAT_SPEC && cut_flags_count(p, md, o, why, sizeof why);
    choice_init(&s.ch, p);
    collect_guesses(&s);
    interp_execute(p, &s.ch, &s.x);   /* a valid allocation to free and redo */
    enum_rf(&s, 0);
    concrete_free(p, &s.x);
    choice_free(&s.ch);
    r->candidates = s.count;
    r->consistent = s.consistent;
    r->ended = s.ended;
    r->counted = s.counted;
    /* a value cycle is an rf | dep cycle, which the model's thin-air axiom forbids */
    r->value_cycles = model_forbids_value_cycles(md, o->disabled, o->ndisabled) ? 0 : s.value_cycles;
    if (s.too_big)
        return false;
    bool exists = p->lit->quant == Q_EXISTS && o->property != P_CAT_SPEC;
    r->cut_at_bound = !s.found_goal && s.found_cut_goal;
    if ((s.found_goal || s.found_cut_goal) && o->property == P_CAT_SPEC)
        r->verdict = V_FAIL;
    else if (s.found_goal)
        r->verdict = exists ? V_PASS : V_FAIL;
    else if (s.found_bound || r->value_cycles > 0)
        r->verdict = V_UNKNOWN;
    else
        r->verdict = exists ? V_FAIL : V_PASS;
    return true;
}
