/* Reads-from, coherence, fence order, barriers and final values as CNF. */
#include "encoders/exec.h"

#include <stdlib.h>

#include "util/xalloc.h"

/* Ties bit i of read r's value to its reads-from choices choice[0..k)
 * from writes w[0..k).  Where every such write's bit is a constant, the
 * read's bit (a variable of its own) becomes the OR of the choices from
 * writes with a 1 there: a gate, whose halves reach the solver only when a
 * clause names the bit (a loaded value the property and the program never
 * look at costs nothing), and which reads 0 when the read does not
 * execute.  Otherwise each choice implies the two bits equal, two clauses
 * (none where both sides are the same literal, mostly the constant 0). */
static void tie_value_bit(struct cnf *c, const struct exec_enc *x, int r, int i, const int *w,
                          const lit *choice, lit *ones, int k)
{
    lit rb = x->sx.val[r].b[i];
    bool constant = rb > LIT_TRUE;   /* the read's own variable: definable */
    for (int q = 0; q < k && constant; q++)
        constant = lit_is_const(x->sx.val[w[q]].b[i]);
    if (constant) {
        int n = 0;
        for (int q = 0; q < k; q++)
            if (x->sx.val[w[q]].b[i] == LIT_TRUE)
                ones[n++] = choice[q];
        cnf_define_or(c, rb, ones, n);
        return;
    }
    for (int q = 0; q < k; q++) {
        lit wb = x->sx.val[w[q]].b[i];
        if (wb == rb)
            continue;
        cnf_clause3(c, -choice[q], -wb, rb);
        cnf_clause3(c, -choice[q], wb, -rb);
    }
}

/* The writes (and initial writes) of each physical location, in event
 * order: writes_at[l] .. writes_at[l + 1] index into writes; both arrays
 * and fill (writes_by_location's) in one allocation, at's. */
struct location_writes { int *at, *writes, *fill; };

/* Places the arrays of lw for p in block (NULL: measures); returns its size. */
static size_t location_writes_layout(const struct program *p, struct location_writes *lw, char *block)
{
    struct xblock b = { block, 0 };
    lw->at = xblock_take(&b, (size_t)p->lit->nlocs + 2, sizeof *lw->at);
    lw->writes = xblock_take(&b, (size_t)p->nevents + 1, sizeof *lw->writes);
    lw->fill = xblock_take(&b, (size_t)p->lit->nlocs + 1, sizeof *lw->fill);
    return b.size;
}

static struct location_writes writes_by_location(const struct program *p)
{
    int nl = p->lit->nlocs, n = p->nevents;
    struct location_writes lw;
    char *block = xcalloc(1, location_writes_layout(p, &lw, NULL));
    location_writes_layout(p, &lw, block);
    int *fill = lw.fill;
    for (int e = 0; e < n; e++)
        if (event_is_write(&p->events[e]) && p->events[e].loc >= 0)
            lw.at[program_root_location(p->lit, p->events[e].loc) + 1]++;
    for (int l = 0; l < nl; l++)
        lw.at[l + 1] += lw.at[l];
    for (int e = 0; e < n; e++)
        if (event_is_write(&p->events[e]) && p->events[e].loc >= 0) {
            int l = program_root_location(p->lit, p->events[e].loc);
            lw.writes[lw.at[l] + fill[l]++] = e;
        }
    return lw;
}

static void encode_rf(struct cnf *c, const struct program *p, const struct skeleton *sk,
                      struct exec_enc *x, const struct location_writes *lw)
{
    int n = p->nevents;
    lit *choices = xcalloc(3 * ((size_t)n + 1), sizeof *choices), *ones = choices + n + 1;
    int *from = ones + n + 1;   /* lit is int: one allocation for the three */
    struct rel_builder rf;
    rel_builder_init(&rf);
    for (int r = 0; r < n; r++) {
        const struct event *er = &p->events[r];
        if (er->kind != EV_READ || x->sx.exec[r] == LIT_FALSE)
            continue;
        int k = 0, root = er->loc >= 0 ? program_root_location(p->lit, er->loc) : -1;
        for (int q = root >= 0 ? lw->at[root] : 0, end = root >= 0 ? lw->at[root + 1] : 0; q < end; q++) {
            /* rf joins only a write and a read of one location: w is a
             * candidate (base_rf_candidate) unless it is r's own RMW half,
             * and possible (base_rf_possible) unless the model rules it out */
            int w = lw->writes[q];
            if (w == er->rmw_partner || base_po_fact(sk, p, r, w, PO_NO_FUTURE_READ))
                continue;
            lit both = cnf_and(c, x->sx.exec[w], x->sx.exec[r]);
            if (both == LIT_FALSE)
                continue;
            lit v = cnf_var(c);   /* v -> both, as two clauses: none for the gate */
            cnf_imply(c, v, x->sx.exec[w]);
            cnf_imply(c, v, x->sx.exec[r]);
            rel_add(&rf, w, r, v);
            from[k] = w;
            choices[k++] = v;
        }
        for (uint32_t m = bv_variable_bits(&x->sx.val[r]); m; m &= m - 1)
            tie_value_bit(c, x, r, __builtin_ctz(m), from, choices, ones, k);
        choices[k] = -x->sx.exec[r];
        cnf_clause(c, choices, k + 1);
        cnf_at_most_one(c, choices, k);
    }
    free(choices);
    x->base.rels[R_RF] = rel_build(x->base.arena, &rf, false);
    rel_mark_guarded(x->base.rels[R_RF]);   /* v -> both */
}

/* Coherence never goes from i to j against program order (as far as the
 * model's axioms say so). */
static bool co_never(const struct skeleton *k, const struct program *p, int i, int j)
{
    return base_co_backward_impossible(k, p, j, i);
}

/* A strict order over the events in `members` (pairs allowed by `pair`),
 * into ord: antisymmetric; total on executed pairs when total.  With the
 * optional rules (read under skeleton sk), a pair with forced(i, j) is
 * ordered i before j and one with never(i, j) is never ordered i before j.
 * Members come in event order; a pair's free literals are a variable for
 * the earlier event first and the negation of one for the other way, so
 * the solver's first guess (every variable true) is the event order, which
 * is transitive.  Transitivity is cnf_order's (encode_orders). */
static void encode_order(struct cnf *c, const struct program *p, struct exec_enc *x, struct rel_builder *ord,
                         const int *members, int k, bool total,
                         bool (*pair)(const struct program *, int, int), const struct skeleton *sk,
                         bool (*forced)(const struct skeleton *, const struct program *, int, int),
                         bool (*never)(const struct skeleton *, const struct program *, int, int))
{
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++) {
            int i = members[a], j = members[b];
            if (!pair(p, i, j))
                continue;
            lit both = cnf_and(c, x->sx.exec[i], x->sx.exec[j]);
            if (both == LIT_FALSE)
                continue;
            if (forced && (forced(sk, p, i, j) || forced(sk, p, j, i))) {
                bool ij = forced(sk, p, i, j);
                rel_add(ord, ij ? i : j, ij ? j : i, both);
                continue;
            }
            bool no_ij = never && never(sk, p, i, j), no_ji = never && never(sk, p, j, i);
            lit f = no_ij ? LIT_FALSE : cnf_var(c), g;
            cnf_imply(c, f, both);
            if (total && !no_ji) {          /* one variable: j before i iff both and not i before j */
                g = cnf_and(c, both, -f);
            } else {
                g = no_ji ? LIT_FALSE : -cnf_var(c);
                cnf_imply(c, g, both);
                cnf_clause2(c, -f, -g);
                if (total)
                    cnf_clause3(c, -both, f, g);
            }
            rel_add(ord, i, j, f);
            rel_add(ord, j, i, g);
        }
}

/* The order built in ord, transitive in every execution. */
static const struct rel *finish_order(struct cnf *c, struct exec_enc *x, struct rel_builder *ord)
{
    const struct rel *r = rel_build(x->base.arena, ord, false);
    const struct rel_rows *rows = r->rows;
    cnf_order(c, r->n, rows->start, rows->col, rows->val);
    rel_mark_transitive(r);
    rel_mark_guarded(r);   /* encode_order: every pair implies both; an initial write executes */
    return r;
}

static bool same_location_pair(const struct program *p, int i, int j)
{
    return base_same_location(p, &p->events[i], &p->events[j]);
}

static bool fences_in_scope(const struct program *p, int i, int j)
{
    return base_scopes_overlap(p, &p->events[i], &p->events[j]);
}

static void encode_co(struct cnf *c, const struct program *p, const struct skeleton *sk,
                      struct exec_enc *x, const struct location_writes *lw)
{
    int n = p->nevents;
    int *members = xcalloc((size_t)n + 1, sizeof *members);
    struct rel_builder co;
    rel_builder_init(&co);
    for (int loc = 0; loc < p->lit->nlocs; loc++) {
        if (program_root_location(p->lit, loc) != loc)
            continue;
        int k = 0;
        for (int q = lw->at[loc]; q < lw->at[loc + 1]; q++)
            if (p->events[lw->writes[q]].kind == EV_WRITE)
                members[k++] = lw->writes[q];
        encode_order(c, p, x, &co, members, k, sk->co_total, same_location_pair, sk,
                     base_co_forced, co_never);
        for (int q = lw->at[loc]; q < lw->at[loc + 1]; q++) {     /* initial writes come first */
            int w = lw->writes[q];
            if (p->events[w].kind != EV_INIT)
                continue;
            for (int a = 0; a < k; a++)
                rel_add(&co, w, members[a], x->sx.exec[members[a]]);
        }
    }
    free(members);
    x->base.rels[R_CO] = finish_order(c, x, &co);
}

/* For a write and a read a before b in one thread with PO_RF_COHERENT:
 * "no rf(w, the read) with co against their order" for every write w of
 * the location for which co_seen holds. */
static void forbid_incoherent_reads(struct cnf *c, const struct program *p, const struct skeleton *sk,
                                    struct exec_enc *x, const struct location_writes *lw, int a, int b)
{
    const struct rel *rf = x->base.rels[R_RF], *co = x->base.rels[R_CO];
    bool write_first = p->events[a].kind == EV_WRITE;
    int wr = write_first ? a : b, rd = write_first ? b : a;
    int root = program_root_location(p->lit, p->events[a].loc);
    for (int q = lw->at[root]; q < lw->at[root + 1]; q++) {
        int w = lw->writes[q];
        if (w == wr)
            continue;
        lit read = rel_get(rf, w, rd), against = write_first ? rel_get(co, w, wr) : rel_get(co, wr, w);
        if (read != LIT_FALSE && against != LIT_FALSE && sk->co_seen(p, wr, rd, w))
            cnf_clause2(c, -read, -against);
    }
}

/* PO_RF_COHERENT for every pair of a write and a read of one thread. */
static void encode_read_coherence(struct cnf *c, const struct program *p, const struct skeleton *sk,
                                  struct exec_enc *x, const struct location_writes *lw)
{
    if (!sk->co_seen || !(sk->on & PO_BIT(PO_RF_COHERENT)))
        return;
    for (int t = 0; t < p->nthreads; t++) {
        int first = p->threads[t].first_event, end = first + p->threads[t].nevents;
        for (int a = first; a < end; a++)
            for (int b = a + 1; b < end; b++) {
                enum ev_kind ka = p->events[a].kind, kb = p->events[b].kind;
                bool one_each = (ka == EV_WRITE && kb == EV_READ) || (ka == EV_READ && kb == EV_WRITE);
                if (one_each && base_po_fact(sk, p, a, b, PO_RF_COHERENT))
                    forbid_incoherent_reads(c, p, sk, x, lw, a, b);
            }
    }
}

static void encode_sync_fence(struct cnf *c, const struct program *p, struct exec_enc *x)
{
    int n = p->nevents, k = 0;
    int *members = xcalloc((size_t)n + 1, sizeof *members);
    struct rel_builder sf;
    rel_builder_init(&sf);
    for (int e = 0; e < n; e++)
        if (p->events[e].kind == EV_FENCE && p->events[e].mo == MO_SC &&
            p->events[e].in->kind == I_FENCE)
            members[k++] = e;
    encode_order(c, p, x, &sf, members, k, true, fences_in_scope, NULL, NULL, NULL);
    free(members);
    x->base.rels[R_SYNC_FENCE] = finish_order(c, x, &sf);
}

bool exec_barriers_meet(const struct program *p, const struct event *b1, const struct event *b2)
{
    if (b1->kind != EV_BARRIER || b2->kind != EV_BARRIER)
        return false;
    if (b1->in->has_bar_id != b2->in->has_bar_id || b1->in->bar_instance != b2->in->bar_instance)
        return false;
    /* PTX bar.cta and Vulkan cbar both execute at CTA / workgroup scope */
    return program_same_scope(p, b1->thread, b2->thread,
                              p->lit->dialect == DIALECT_PTX ? SCOPE_CTA : SCOPE_WG);
}

/* Unsigned sum of single-bit literals: each added by a chain of half
 * adders over the bits a sum of k can use, the bits above them constant 0
 * (a full-width adder makes their carries gates that are never true). */
static struct bv count_bits(struct cnf *c, const lit *bits, int k)
{
    struct bv sum = bv_const(0);
    int width = 1;
    while (width < BV_WIDTH - 1 && (1 << width) <= k)
        width++;
    for (int i = 0; i < k; i++) {
        lit carry = bits[i];
        for (int j = 0; j < width && carry != LIT_FALSE; j++) {
            lit t = sum.b[j];
            sum.b[j] = cnf_xor(c, t, carry);
            carry = cnf_and(c, t, carry);
        }
    }
    return sum;
}

/* Whether barriers b and m, both reached, are the same dynamic barrier: the
 * same id (when named) and the same occurrence in their threads. */
static lit same_instance(struct cnf *c, const struct program *p, struct exec_enc *x, int b, int m)
{
    lit occ = bv_eq(c, x->bar_occ[b], x->bar_occ[m]);
    if (!p->events[b].in->has_bar_id)
        return occ;
    return cnf_and(c, occ, bv_eq(c, x->sx.operand[b], x->sx.operand[m]));
}

/* Whether member m blocks barrier b while m is unreached: an unnamed
 * barrier does, a named one only with a constant id equal to b's. */
static lit blocks_if_unreached(struct cnf *c, const struct program *p, struct exec_enc *x, int b, int m)
{
    const struct instr *mi = p->events[m].in;
    if (!mi->has_bar_id)
        return LIT_TRUE;
    return mi->bar_id.is_reg ? LIT_FALSE : bv_eq(c, x->sx.operand[b], bv_const(mi->bar_id.value));
}

/* The occurrence number of each barrier: how many barriers of its kind and
 * id its thread reached before it (the k-th of a thread meets the k-th of
 * the others). */
static void encode_occurrences(struct cnf *c, const struct program *p, struct exec_enc *x)
{
    const struct bv zero = bv_const(0);
    for (int b = 0; b <= p->nevents; b++)   /* a barrier's counted below */
        x->bar_occ[b] = zero;
    for (int b = 0; b < p->nevents; b++) {
        const struct event *eb = &p->events[b];
        if (eb->kind != EV_BARRIER)
            continue;
        const struct pthread *pt = &p->threads[eb->thread];
        for (int o = pt->first_event; o < b; o++) {
            if (!exec_barriers_meet(p, eb, &p->events[o]))
                continue;
            struct bv one = zero;
            one.b[0] = eb->in->has_bar_id
                ? cnf_and(c, x->sx.cf[o], bv_eq(c, x->sx.operand[o], x->sx.operand[b])) : x->sx.cf[o];
            x->bar_occ[b] = bv_add(c, x->bar_occ[b], one);
        }
    }
}

/* Whether member m of b's group counts for a threshold of t arrivals: its
 * quorum is at most t (a barrier without quorum has quorum 0, so it always
 * counts).  Cached per member and threshold in le[m * (nt + 1) + t]. */
static lit quorum_at_most(struct cnf *c, struct exec_enc *x, lit *le, int nt, int m, int t)
{
    lit *slot = &le[(size_t)m * (size_t)(nt + 1) + (size_t)t];
    if (*slot == 0)
        *slot = -bv_slt(c, bv_const(t), x->sx.quorum[m]);
    return *slot;
}

/* Passing condition of barrier b (and its sync literal) from its group,
 * and the justification edges m -> b (m's arrival lets b pass) in just.
 *
 * A quorum barrier passes when its dynamic barrier (the members of one
 * occurrence that arrived) completes for it: the arrivals form a largest
 * set S* whose every quorum member's quorum is at most |S*| (members
 * without quorum always belong).  Such sets are closed under union, so S*
 * is unique, and b passes exactly when it belongs, that is when some
 * threshold t >= q_b has at least t arrivals with quorum at most t.  A
 * member whose quorum S* cannot meet waits for ever; it never forces the
 * others' passage, nor they its.  The synchronising members (sync) are a
 * subset of the passing ones at least as large as each passing quorum
 * (Dat3M's freedom); where Dat3M's constraints have a solution, its
 * passing set is this S*.  Justification (bar_wait) is per member: see J
 * below. */
static void encode_barrier(struct cnf *c, const struct program *p, struct exec_enc *x, int b,
                           const int *group, int k, lit *le, struct rel_builder *just)
{
    const struct instr *in = p->events[b].in;
    struct symexec *s = &x->sx;
    int tb = p->events[b].thread, nt = p->nthreads;
    /* cf, sy (per member), met, owes, present (per thread): one allocation */
    lit *cf = xcalloc(2 * (size_t)k + 3 * (size_t)nt, sizeof *cf), *sy = cf + k;
    lit *met = sy + k, *owes = met + nt;
    bool *present = (bool *)(owes + nt);
    for (int t = 0; t < nt; t++)
        met[t] = owes[t] = LIT_FALSE;
    for (int i = 0; i < k; i++) {
        int m = group[i], tm = p->events[m].thread;
        lit same = m == b ? LIT_TRUE : tm == tb ? LIT_FALSE : same_instance(c, p, x, b, m);
        cf[i] = cnf_and(c, same, s->cf[m]);
        sy[i] = cnf_and(c, cf[i], x->sync[m]);   /* only reached members count (a named
                                                    barrier without quorum always syncs) */
        met[tm] = cnf_or(c, met[tm], cf[i]);
        owes[tm] = cnf_or(c, owes[tm], blocks_if_unreached(c, p, x, b, m));
        present[tm] = true;
        if (tm != tb && !in->has_bar_quorum && !in->arrive)   /* an arrive waits for nobody */
            rel_add(just, m, b, cnf_and(c, s->exec[b], cf[i]));
    }
    lit pass;
    if (!in->has_bar_quorum) {
        /* every other thread that owes b reaches the same dynamic barrier */
        pass = s->cf[b];
        for (int t = 0; t < nt; t++)
            if (t != tb)
                pass = cnf_and(c, pass, cnf_or(c, met[t], -owes[t]));
        cnf_unit(c, x->sync[b]);
    } else {
        /* one member per thread arrives at an occurrence: thresholds up to
         * the number of threads in the group */
        int threads = 0;
        for (int t = 0; t < nt; t++)
            threads += present[t];
        lit in_star = -bv_slt(c, bv_const(0), s->quorum[b]);   /* q_b <= 0 */
        for (int t = 1; t <= threads; t++) {
            lit *counted = xcalloc((size_t)k, sizeof *counted);
            for (int i = 0; i < k; i++)
                counted[i] = cnf_and(c, cf[i], quorum_at_most(c, x, le, nt, group[i], t));
            lit enough = -bv_slt(c, count_bits(c, counted, k), bv_const(t));
            in_star = cnf_or(c, in_star, cnf_and(c, enough, quorum_at_most(c, x, le, nt, b, t)));
            free(counted);
        }
        pass = cnf_and(c, s->cf[b], in_star);
        /* Well-foundedness: a passing b names the arrivals it completed
         * with, J (b and members that reached the same dynamic barrier,
         * every quorum at most |J|), and passes after each of them arrived
         * (the edges m -> b of just).  In a real run J is the completing
         * set when b passed; a later arrival with a higher quorum does not
         * pretend to have come first. */
        lit *jb = xcalloc((size_t)k, sizeof *jb);
        for (int i = 0; i < k; i++) {
            int m = group[i], tm = p->events[m].thread;
            if (m == b)
                jb[i] = s->exec[b];
            else if (tm == tb || cf[i] == LIT_FALSE)
                jb[i] = LIT_FALSE;
            else {
                jb[i] = cnf_var(c);
                cnf_imply(c, jb[i], cf[i]);
                cnf_imply(c, jb[i], s->exec[b]);
                rel_add(just, m, b, jb[i]);
            }
        }
        struct bv size = count_bits(c, jb, k);
        for (int i = 0; i < k; i++)
            if (jb[i] != LIT_FALSE)
                cnf_imply(c, jb[i], -bv_slt(c, size, s->quorum[group[i]]));
        free(jb);
        /* a passing member synchronises with at least its quorum; only
         * passing members synchronise */
        cnf_imply(c, s->exec[b], -bv_slt(c, count_bits(c, sy, k), s->quorum[b]));
        cnf_imply(c, x->sync[b], s->exec[b]);
    }
    if (in->arrive && !in->has_bar_quorum)
        pass = s->cf[b];   /* bar.arrive signals its arrival and never waits */
    cnf_unit(c, cnf_iff(c, s->exec[b], pass));
    free(cf);   /* and sy, met, owes, present */
}

/* Barrier passage must be well-founded: bar_wait relates p to b when b
 * passes after p did (p before b in a thread, or p before a member that
 * lets b pass).  Passing times order it, so a real execution has no cycle;
 * a cycle is barriers waiting for each other (a deadlock) that the solver
 * claims pass.  The cycles are cut lazily like the model's axioms. */
static void encode_barrier_order(struct cnf *c, const struct program *p, struct exec_enc *x,
                                 const struct rel *just)
{
    struct rels *A = x->base.arena;
    int nbar = 0;
    for (int e = 0; e < p->nevents; e++)
        nbar += p->events[e].kind == EV_BARRIER;
    if (nbar < 2) {   /* one barrier waits for nothing it precedes */
        x->bar_wait = rel_empty(A);
        return;
    }
    struct rel_builder before;
    rel_builder_init(&before);
    for (int t = 0; t < p->nthreads; t++) {
        const struct pthread *pt = &p->threads[t];
        for (int a = pt->first_event; a < pt->first_event + pt->nevents; a++)
            for (int b = a + 1; b < pt->first_event + pt->nevents; b++)
                if (p->events[a].kind == EV_BARRIER && p->events[b].kind == EV_BARRIER)
                    rel_add(&before, a, b, cnf_and(c, x->sx.exec[a], x->sx.cf[b]));
    }
    const struct rel *in_thread = rel_build(A, &before, false);
    x->bar_wait = rel_union(A, in_thread, rel_seq(A, in_thread, just));
}

static void encode_barriers(struct cnf *c, const struct program *p, struct exec_enc *x)
{
    int n = p->nevents, nbar = 0;
    for (int e = 0; e < n; e++)
        nbar += p->events[e].kind == EV_BARRIER;
    if (nbar == 0) {   /* nothing to encode: no occurrence is read, both relations are empty */
        x->bar_occ = xrealloc(NULL, ((size_t)n + 1) * sizeof *x->bar_occ);
        struct rel_builder none;
        rel_builder_init(&none);
        x->base.rels[R_SYNCBAR] = rel_build(x->base.arena, &none, false);
        rel_mark_guarded(x->base.rels[R_SYNCBAR]);
        rel_build(x->base.arena, &none, false);   /* the waits' relation, as encode_barrier_order's */
        x->bar_wait = rel_empty(x->base.arena);
        return;
    }
    int *group = xcalloc((size_t)n + 1, sizeof *group);
    struct rel_builder just, syncbar;
    rel_builder_init(&just);
    rel_builder_init(&syncbar);
    x->bar_occ = xrealloc(NULL, ((size_t)n + 1) * sizeof *x->bar_occ);   /* encode_occurrences fills it */
    lit *le = xcalloc(((size_t)n + 1) * (size_t)(p->nthreads + 1), sizeof *le);   /* 0: not made */
    for (int b = 0; b < n; b++) {
        const struct event *eb = &p->events[b];
        if (eb->kind != EV_BARRIER)
            continue;
        x->sync[b] = eb->in->has_bar_id ? cnf_var(c) : LIT_TRUE;
    }
    encode_occurrences(c, p, x);
    for (int b = 0; b < n; b++) {
        const struct event *eb = &p->events[b];
        if (eb->kind != EV_BARRIER || x->sx.cf[b] == LIT_FALSE) {
            if (eb->kind == EV_BARRIER) {   /* never reached: neither passes nor synchronises */
                cnf_unit(c, -x->sx.exec[b]);
                if (eb->in->has_bar_id)   /* an unnamed barrier's sync is the constant true */
                    cnf_unit(c, -x->sync[b]);
            }
            continue;
        }
        int k = 0;
        for (int o = 0; o < n; o++)
            if (exec_barriers_meet(p, eb, &p->events[o]))
                group[k++] = o;
        encode_barrier(c, p, x, b, group, k, le, &just);
        for (int a = 0; a < k; a++) {
            const struct event *eo = &p->events[group[a]];
            if (eo->in->arrive)
                continue;
            lit l = cnf_and(c, cnf_and(c, x->sx.exec[b], x->sx.exec[group[a]]),
                            group[a] == b ? LIT_TRUE : same_instance(c, p, x, b, group[a]));
            if (eb->in->has_bar_id)
                l = cnf_and(c, l, x->sync[b]);
            rel_add(&syncbar, b, group[a], l);
        }
    }
    x->base.rels[R_SYNCBAR] = rel_build(x->base.arena, &syncbar, false);
    rel_mark_guarded(x->base.rels[R_SYNCBAR]);   /* l has both exec literals */
    encode_barrier_order(c, p, x, rel_build(x->base.arena, &just, false));
    free(group);
    free(le);
}

/* The final value of each location: the value of some co-maximal write
 * that its own thread does not overwrite later (the write picked has no
 * co-successor and no executed event_overwrites successor, one clause
 * per pair).  At most one write is picked: said by clauses where co is
 * partial; where it is total (co_total) two executed writes are ordered,
 * so two picks would each have the other as a co-successor.  With
 * with_last, co_last too. */
static void encode_final_memory(struct cnf *c, const struct program *p, struct exec_enc *x,
                                const struct location_writes *lw, bool co_total, bool with_last)
{
    int n = p->nevents, nl = p->lit->nlocs;
    x->final_mem = xcalloc((size_t)nl, sizeof *x->final_mem);
    lit *picks = xcalloc((size_t)n, sizeof *picks);
    for (int loc = 0; loc < nl; loc++) {
        if (program_root_location(p->lit, loc) != loc)
            continue;
        int k = 0;
        struct bv v = bv_const(0);
        for (int q = lw->at[loc]; q < lw->at[loc + 1]; q++) {
            int w = lw->writes[q];
            if (x->sx.exec[w] == LIT_FALSE)
                continue;
            const int *cols;
            const lit *lits;
            int succs = rel_row(x->base.rels[R_CO], w, &cols, &lits);
            if (with_last)
                x->co_last[w] = cnf_and(c, x->sx.exec[w], -cnf_or_n(c, lits, succs));
            lit pick = cnf_var(c);
            cnf_imply(c, pick, x->sx.exec[w]);
            for (int o = 0; o < succs; o++)
                cnf_clause2(c, -pick, -lits[o]);
            /* a write that overwrites w is a later one of its location */
            for (int later = q + 1; later < lw->at[loc + 1]; later++)
                if (event_overwrites(p, w, lw->writes[later]))
                    cnf_clause2(c, -pick, -x->sx.exec[lw->writes[later]]);
            x->final_pick[w] = pick;
            picks[k++] = pick;
            /* a bit w stores as 0 adds nothing */
            for (uint32_t m = bv_nonzero_bits(&x->sx.val[w]); m; m &= m - 1) {
                int i = __builtin_ctz(m);
                v.b[i] = cnf_or(c, v.b[i], cnf_and(c, pick, x->sx.val[w].b[i]));
            }
        }
        cnf_clause(c, picks, k);
        if (!co_total)
            cnf_at_most_one(c, picks, k);
        x->final_mem[loc] = v;
    }
    for (int loc = 0; loc < nl; loc++)
        x->final_mem[loc] = x->final_mem[program_root_location(p->lit, loc)];
    free(picks);
}

void exec_encode(struct cnf *c, const struct program *p, const struct skeleton *k, int sx_mode,
                 struct exec_enc *x)
{
    int n = p->nevents;
    x->co_total = k->co_total;
    symexec_run(c, p, sx_mode, &x->sx);
    x->sync = xcalloc(3 * ((size_t)n + 1), sizeof *x->sync);   /* and final_pick, co_last */
    x->final_pick = x->sync + n + 1;
    x->co_last = x->final_pick + n + 1;
    for (int e = 0; e < n; e++)
        x->sync[e] = x->final_pick[e] = x->co_last[e] = LIT_FALSE;
    base_init(&x->base, c, p, x->sx.exec);
    encode_barriers(c, p, x);
    struct location_writes lw = writes_by_location(p);
    encode_rf(c, p, k, x, &lw);
    encode_co(c, p, k, x, &lw);
    encode_read_coherence(c, p, k, x, &lw);
    encode_sync_fence(c, p, x);
    x->base.rels[R_DATA] = rel_build(x->base.arena, &x->sx.data, false);
    x->base.rels[R_CTRL] = rel_build(x->base.arena, &x->sx.ctrl, false);
    rel_mark_guarded(x->base.rels[R_DATA]);   /* symexec ANDs both exec literals in */
    rel_mark_guarded(x->base.rels[R_CTRL]);
    encode_final_memory(c, p, x, &lw, k->co_total, sx_mode & SX_MAY_REPEAT);
    free(lw.at);   /* and writes, fill */
}

void exec_free(struct exec_enc *x)
{
    symexec_free(&x->sx);
    base_free(&x->base);
    free(x->sync);   /* and final_pick, co_last */
    free(x->final_mem);
    free(x->bar_occ);
}
