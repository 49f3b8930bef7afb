/* The run as an execution: whether it is well formed under a skeleton
 * (interp_run: rf, co, the fence.sc order, named barriers, final memory)
 * and its base relations as constants (interp_base). */
#include "bmc/concrete/interp.h"

#include <stdlib.h>
#include <string.h>

#include "bmc/concrete/exec_base.h"
#include "encoders/exec.h"
#include "util/xalloc.h"

/* Checks that ord, over the events that can be ordered (is_member), is a
 * strict partial order relating only executed pairs allowed by pair();
 * transitivity through successor bitsets. */
static bool check_order(const struct program *p, const bool *exec, const bool *ord, const int *member, int m,
                        bool (*pair)(const struct program *, int, int), uint64_t *succ)
{
    int n = p->nevents, words = (m + 63) / 64;
    memset(succ, 0, (size_t)m * words * sizeof *succ);
    bool ok = true;
    for (int a = 0; a < m && ok; a++) {
        const bool *row = &ord[(size_t)member[a] * n];
        if (!memchr(row, true, (size_t)n))   /* a row without a pair is passed over at once */
            continue;
        for (int b = 0; b < m && ok; b++) {
            int i = member[a], j = member[b];
            if (!row[j])
                continue;
            ok = i != j && exec[i] && exec[j] && pair(p, i, j) && !ord[(size_t)j * n + i];
            succ[(size_t)a * words + b / 64] |= 1ull << (b % 64);
        }
    }
    for (int a = 0; a < m && ok; a++)       /* i -> j -> k needs i -> k where the pair can be */
        for (int v = 0; v < words && ok; v++)
            for (uint64_t y = succ[(size_t)a * words + v]; y && ok; y &= y - 1) {
                int b = v * 64 + __builtin_ctzll(y);
                for (int w = 0; w < words && ok; w++)
                    for (uint64_t x = succ[(size_t)b * words + w] & ~succ[(size_t)a * words + w]; x && ok; x &= x - 1)
                        ok = !pair(p, member[a], member[w * 64 + __builtin_ctzll(x)]);
            }
    return ok;
}

/* Scratch of the order checks, made once per run: the members of an
 * order, their root locations, and the successor bitsets (succ: n rows of
 * enough words for n members). */
struct order_scratch { int *member, *root; uint64_t *succ; };

/* Lays sc out in b for p (its base NULL: only counts). */
static void order_scratch_layout(const struct program *p, struct order_scratch *sc, struct xblock *b)
{
    size_t n = (size_t)p->nevents, words = (n + 63) / 64;
    sc->member = xblock_take(b, n + 1, sizeof *sc->member);
    sc->root = xblock_take(b, n + 1, sizeof *sc->root);
    sc->succ = xblock_take(b, n * words + 1, sizeof *sc->succ);
}

/* The events that can be ordered (is_member) into member; their number. */
static int order_members(const struct program *p, bool (*is_member)(const struct event *), int *member)
{
    int m = 0;
    for (int e = 0; e < p->nevents; e++)
        if (is_member(&p->events[e]))
            member[m++] = e;
    return m;
}

static bool co_pair(const struct program *p, int i, int j)
{
    const struct event *a = &p->events[i], *b = &p->events[j];
    return event_is_write(a) && event_is_write(b) && base_same_location(p, a, b) &&
           b->kind != EV_INIT;
}

static bool is_fence_sc(const struct event *e)
{
    return e->kind == EV_FENCE && e->mo == MO_SC && e->in->kind == I_FENCE;
}

static bool is_write(const struct event *e)
{
    return event_is_write(e);
}

static bool sf_pair(const struct program *p, int i, int j)
{
    return is_fence_sc(&p->events[i]) && is_fence_sc(&p->events[j]) &&
           base_scopes_overlap(p, &p->events[i], &p->events[j]);
}

/* rf: no read reads from a po-later write of its thread where the model
 * rules that out. */
static bool check_rf(const struct program *p, const struct choice *ch, const struct skeleton *k,
                     struct concrete *out)
{
    for (int r = 0; r < p->nevents; r++)
        if (out->exec[r] && ch->rf[r] >= 0 && !base_rf_possible(k, p, ch->rf[r], r))
            return concrete_fail(out, "a read reads from a later write of its thread");
    return true;
}

/* co: init first, strict partial order over executed same-location writes,
 * total if the model says so, and against or along program order within a
 * thread only as far as the model's facts allow. */
static bool check_co(const struct program *p, const struct choice *ch, const struct skeleton *k,
                     struct concrete *out, const struct order_scratch *sc)
{
    size_t n = (size_t)p->nevents;
    int *w = sc->member, m = order_members(p, is_write, w), *root = sc->root;
    for (int a = 0; a < m; a++)   /* co_pair(i, j) of two writes: one root location, j not initial;
                                     -1: unexecuted, or no location, so in no such pair */
        root[a] = p->events[w[a]].loc < 0 || !out->exec[w[a]] ? -1
                  : program_root_location(p->lit, p->events[w[a]].loc);
    const char *why = check_order(p, out->exec, ch->co, w, m, co_pair, sc->succ) ? NULL
                      : "coherence is not a strict order over executed same-location writes";
    for (int a = 0; a < m && !why; a++)
        for (int b = 0; root[a] >= 0 && b < m && !why; b++) {
            int i = w[a], j = w[b];
            if (root[a] != root[b] || p->events[j].kind == EV_INIT)
                continue;
            if (ch->co[j * n + i] && base_co_backward_impossible(k, p, i, j))
                why = "coherence goes against program order";
            else if (ch->co[i * n + j])
                continue;
            else if (p->events[i].kind == EV_INIT)
                why = "an initial write is not coherence-before a write";
            else if (base_co_forced(k, p, i, j))
                why = "two writes of a thread to a location are not in program order";
            else if (k->co_total && i != j && !ch->co[j * n + i])
                why = "two writes to a location are coherence-unordered";
        }
    return why ? concrete_fail(out, why) : true;
}

static bool check_sf(const struct program *p, const struct choice *ch, struct concrete *out,
                     const struct order_scratch *sc)
{
    size_t n = (size_t)p->nevents;
    int *f = sc->member, m = order_members(p, is_fence_sc, f);
    const char *why = check_order(p, out->exec, ch->sf, f, m, sf_pair, sc->succ) ? NULL
                      : "the fence.sc order is not a strict order";
    for (int a = 0; a < m && !why; a++)
        for (int b = a + 1; b < m && !why; b++) {
            int i = f[a], j = f[b];
            if (sf_pair(p, i, j) && out->exec[i] && out->exec[j] && !ch->sf[i * n + j] && !ch->sf[j * n + i])
                why = "two fence.sc in scope are unordered";
        }
    return why ? concrete_fail(out, why) : true;
}

/* Named barriers: sync only on executed ones, and a passing quorum barrier
 * synchronises with at least its quorum (which passes is the evaluator's:
 * interp.c, barrier_passes). */
static bool check_sync(const struct program *p, const struct choice *ch, struct concrete *out)
{
    for (int b = 0; b < p->nevents; b++) {
        const struct event *eb = &p->events[b];
        if (eb->kind != EV_BARRIER || !eb->in->has_bar_id)
            continue;
        if (!eb->in->has_bar_quorum) {
            /* only a reached one: the encoder fixes the sync literal of one
             * that no path reaches to false (exec.c, encode_barriers) */
            if (!ch->sync[b] && out->cf[b])
                return concrete_fail(out, "a named barrier without quorum does not synchronise");
            continue;
        }
        if (ch->sync[b] && !out->exec[b])
            return concrete_fail(out, "an unexecuted barrier synchronises");
        if (!out->cf[b])
            continue;
        int sync = 0;
        for (int m = 0; m < p->nevents; m++)
            if (exec_barriers_meet(p, eb, &p->events[m]) && out->cf[m] &&
                out->bar_id[m] == out->bar_id[b] && out->bar_occ[m] == out->bar_occ[b])
                sync += ch->sync[m];
        /* a blocked member's quorum exceeds the completing set, which holds
         * every synchronising member: the two sides agree */
        if (out->exec[b] != (sync >= out->bar_quorum[b]))
            return concrete_fail(out, "barrier synchronisation does not match its quorum");
    }
    return true;
}

/* Final memory: each location's value comes from a co-maximal executed
 * write that its thread does not overwrite later. */
static bool check_final(const struct program *p, const struct choice *ch, struct concrete *out)
{
    int n = p->nevents;
    for (int l = 0; l < p->lit->nlocs; l++) {
        int root = program_root_location(p->lit, l);
        int w = ch->final_pick[root];
        if (w < 0 || !out->exec[w] || !event_is_write(&p->events[w]) ||
            program_root_location(p->lit, p->events[w].loc) != root)
            return concrete_fail(out, "a location's final value comes from no executed write");
        /* the first event co-after w, and the writes of w's thread after
         * it (no other event overwrites it) before that one: the first
         * reason met going through the events in order */
        const bool *row = &ch->co[(size_t)w * n], *after = memchr(row, true, (size_t)n);
        int co_at = after ? (int)(after - row) : n, t = p->events[w].thread;
        int end = t < 0 ? 0 : p->threads[t].first_event + p->threads[t].nevents;
        for (int o = w + 1; o < end && o < co_at; o++)
            if (out->exec[o] && event_overwrites(p, w, o))
                return concrete_fail(out, "a location's final value comes from a write its thread overwrites later");
        if (after)
            return concrete_fail(out, "a location's final value comes from a write that is not co-last");
        out->final_mem[l] = out->val[w];
    }
    return true;
}

/* The writes (initial ones too), fence events and barrier events of p,
 * each list ascending, in one pass: lists[0..nw), lists[n..n + nf),
 * lists[2n..2n + nb) (lists holds 3n entries). */
static void events_by_kind(const struct program *p, int *lists, int *nw, int *nf, int *nb)
{
    int n = p->nevents, *w = lists, *f = lists + n, *b = lists + 2 * n;
    *nw = *nf = *nb = 0;
    for (int e = 0; e < n; e++)
        switch (p->events[e].kind) {
        case EV_INIT: case EV_WRITE: w[(*nw)++] = e; break;
        case EV_FENCE: f[(*nf)++] = e; break;
        case EV_BARRIER: b[(*nb)++] = e; break;
        default: break;
        }
}

/* Where the pairs of the relation being made go: rows of bits where the
 * arena makes its relations as bits (rels_dense), else a builder; either
 * is emptied by each relation made of it. */
struct pair_sink {
    struct rels *A;
    unsigned long long *rows;   /* n rows of w words, or NULL: bld */
    int n, w;
    bool any;                   /* rows has a pair */
    struct rel_builder bld;
};

/* An empty sink over n events of A; rows: room for the rows of bits
 * (REL_DENSE_MAX rows of enough words), used where A is dense. */
static void sink_init(struct pair_sink *o, struct rels *A, int n, unsigned long long *rows)
{
    *o = (struct pair_sink){ .A = A, .n = n, .w = (n + 63) / 64 };
    if (rels_dense(A)) {
        o->rows = rows;
        memset(rows, 0, (size_t)n * o->w * sizeof *rows);
    }
    rel_builder_init(&o->bld);
}

/* (i, j) holds in the relation being made. */
static void put_pair(struct pair_sink *o, int i, int j)
{
    if (!o->rows) {
        rel_add(&o->bld, i, j, LIT_TRUE);
        return;
    }
    o->rows[(size_t)i * o->w + (unsigned)j / 64] |= 1ull << ((unsigned)j % 64);   /* j is an event: not negative */
    o->any = true;
}

/* The relation of o's pairs (transitive: marked so), A's empty relation
 * (base_init's value of every relation) when it has none; o is emptied. */
static const struct rel *made(struct pair_sink *o, bool transitive)
{
    const struct rel *r = rel_empty(o->A);
    if (o->rows && o->any) {
        r = rel_from_bits(o->A, o->rows, transitive);
        memset(o->rows, 0, (size_t)o->n * o->w * sizeof *o->rows);
        o->any = false;
    } else if (!o->rows && o->bld.count > 0) {
        r = rel_build_dense(o->A, &o->bld);   /* not dense: rel_build's relation */
        if (transitive)
            rel_mark_transitive(r);
    }
    return r;
}

/* The pairs of the n * n matrix m among the events in list[0..k) into o. */
static void pairs_among(struct pair_sink *o, const bool *m, int n, const int *list, int k)
{
    for (int a = 0; a < k; a++) {
        const bool *row = &m[(size_t)list[a] * n];
        if (memchr(row, true, (size_t)n))   /* a row without a pair is passed over at once */
            for (int b = 0; b < k; b++)
                if (row[list[b]])
                    put_pair(o, list[a], list[b]);
    }
}

/* The syncbar pairs among the barrier events list[0..k): executed
 * barriers that meet in the same dynamic instance (named ones only where
 * i synchronises). */
static void syncbar_pairs(const struct program *p, const struct choice *ch, const struct concrete *x,
                          struct pair_sink *o, const int *list, int k)
{
    for (int a = 0; a < k; a++)
        for (int d = 0; d < k; d++) {
            int i = list[a], j = list[d];
            const struct event *bi = &p->events[i], *bj = &p->events[j];
            if (exec_barriers_meet(p, bi, bj) && !bj->in->arrive && x->exec[i] && x->exec[j]) {
                bool named_ok = !bi->in->has_bar_id || (ch->sync[i] && x->bar_id[i] == x->bar_id[j]);
                if (named_ok && x->bar_occ[i] == x->bar_occ[j])
                    put_pair(o, i, j);
            }
        }
}

/* The pairs (i, j) of executed events of one thread (dependencies stay
 * inside a thread) that the n * n matrix dep holds, into o; a thread
 * whose rows have no pair (one memchr over the span from its first row's
 * first column to its last row's last), or a row without one, is passed
 * over at once. */
static void dependency_pairs(const struct program *p, const struct concrete *x, const bool *dep,
                             struct pair_sink *o)
{
    size_t n = (size_t)p->nevents;
    for (int t = 0; t < p->nthreads; t++) {
        const struct pthread *pt = &p->threads[t];
        int first = pt->first_event, end = first + pt->nevents;
        if (end == first || !memchr(&dep[first * n + first], true, (size_t)(end - 1 - first) * n + (size_t)pt->nevents))
            continue;
        for (int i = first; i < end; i++) {
            const bool *row = &dep[(size_t)i * n];
            if (!x->exec[i] || !memchr(row + first, true, (size_t)pt->nevents))
                continue;
            for (int j = first; j < end; j++)
                if (row[j] && x->exec[j])
                    put_pair(o, i, j);
        }
    }
}

void interp_base(struct cnf *c, const struct program *p, const struct choice *ch,
                 const struct concrete *x, struct base *b)
{
    int n = p->nevents, nw, nf, nb;
    int *list = xrealloc(NULL, (3 * (size_t)n + 1) * sizeof *list);   /* every entry read written first */
    events_by_kind(p, list, &nw, &nf, &nb);
    exec_base_init(b, c, p, x->exec);
    unsigned long long rows[REL_DENSE_MAX * ((REL_DENSE_MAX + 63) / 64)];
    struct pair_sink o;   /* one sink, emptied by each relation it makes */
    sink_init(&o, b->arena, n, rows);
    for (int j = 0; j < n; j++)
        if (x->exec[j] && p->events[j].kind == EV_READ && ch->rf[j] >= 0)
            put_pair(&o, ch->rf[j], j);
    b->rels[R_RF] = made(&o, false);
    pairs_among(&o, ch->co, n, list, nw);
    b->rels[R_CO] = made(&o, true);            /* interp_run checked both orders */
    pairs_among(&o, ch->sf, n, list + n, nf);
    b->rels[R_SYNC_FENCE] = made(&o, true);
    const bool *deps[2] = { x->data, x->ctrl };
    enum base_rel dep_rel[2] = { R_DATA, R_CTRL };
    for (int d = 0; d < 2; d++) {
        dependency_pairs(p, x, deps[d], &o);
        b->rels[dep_rel[d]] = made(&o, false);
    }
    syncbar_pairs(p, ch, x, &o, list + 2 * n, nb);
    b->rels[R_SYNCBAR] = made(&o, false);
    rel_builder_free(&o.bld);
    free(list);
}

void interp_run(const struct program *p, const struct choice *ch, const struct skeleton *k,
                struct concrete *out)
{
    interp_execute(p, ch, out);
    if (!out->valid || !check_rf(p, ch, k, out))
        return;
    struct order_scratch sc;
    struct xblock b = { NULL, 0 };
    order_scratch_layout(p, &sc, &b);
    b = (struct xblock){ xcalloc(b.size + 1, 1), 0 };   /* one allocation, sc.member first */
    order_scratch_layout(p, &sc, &b);
    if (check_co(p, ch, k, out, &sc) && check_sf(p, ch, out, &sc) && check_sync(p, ch, out))
        check_final(p, ch, out);
    free(sc.member);
}
