/* The prefix/infix/suffix decomposition of non-terminating executions.
 *
 * A thread that stops after iteration N of a loop (sx_iteration.repeat)
 * claims that the loop goes on for ever.  Its iterations split into a
 * prefix, an infix and a suffix S..N; the infix iterations are matched,
 * last to last, with equivalent suffix iterations (same executed events,
 * values and local state at the end, and the same rf and co among
 * themselves), so replaying the suffix after N repeats what followed the
 * infix.  A spinning iteration (symexec in_spin) is a suffix of its own,
 * with no infix.  The strong-suffix conditions then make the infinite
 * repetition consistent and fair. */
#include "bmc/check/repetition.h"

#include <stdlib.h>

#include "util/xalloc.h"

/* Consecutive iterations of one unrolled loop. */
struct chain {
    int len;
    int *iters;              /* indices into sx.iters, in order */
    bool may_repeat;         /* some iteration may claim to repeat */
    lit *match;              /* match[a * len + b], a < b: infix a mirrors suffix b */
};

struct decomposition {
    struct cnf *c;
    const struct program *p;
    const struct exec_enc *x;
    int nchains;
    struct chain *chains;
    int *chain_of, *pos_of;  /* per iteration */
    lit *inf, *suf;          /* per iteration */
    int *ev_start, *ev_iters;/* per event: the iterations containing it (CSR) */
    lit *in_suf, *in_pre;    /* per event: its place is in the suffix / in the
                                prefix (whether it executes or not) */
};

/* First event and end (exclusive) of iteration i. */
static int iter_first(const struct decomposition *d, int i)
{
    const struct sx_iteration *it = &d->x->sx.iters[i];
    return d->p->threads[it->thread].code[it->head].first_event;
}
static int iter_end(const struct decomposition *d, int i)
{
    const struct sx_iteration *it = &d->x->sx.iters[i];
    return d->p->threads[it->thread].code[it->backjump].first_event;
}

/* The iteration after i in its loop: the copy of the same loop right after
 * it, as long; -1 if none.  (A jump into the middle of a loop can leave an
 * iteration's head outside the copies of its body: such an iteration has
 * another length and repeats nothing.) */
static int next_iteration(const struct decomposition *d, int i)
{
    const struct symexec *sx = &d->x->sx;
    const struct sx_iteration *it = &sx->iters[i];
    const struct uop *code = d->p->threads[it->thread].code;
    for (int k = i + 1; k < sx->niters; k++) {
        const struct sx_iteration *nx = &sx->iters[k];
        if (nx->thread == it->thread && nx->head == it->backjump + 1)
            return code[nx->head].loop == code[it->head].loop
                   && nx->backjump - nx->head == it->backjump - it->head ? k : -1;
    }
    return -1;
}

/* Links iterations into chains of consecutive ones. */
static void build_chains(struct decomposition *d)
{
    const struct symexec *sx = &d->x->sx;
    int n = sx->niters;
    d->chain_of = xcalloc((size_t)(n ? n : 1), sizeof *d->chain_of);
    d->pos_of = xcalloc((size_t)(n ? n : 1), sizeof *d->pos_of);
    d->chains = xcalloc((size_t)(n ? n : 1), sizeof *d->chains);
    for (int i = 0; i < n; i++)
        d->chain_of[i] = -1;
    for (int i = 0; i < n; i++) {
        if (d->chain_of[i] >= 0)
            continue;
        struct chain *ch = &d->chains[d->nchains];
        ch->iters = xcalloc((size_t)n, sizeof *ch->iters);
        for (int j = i; j >= 0; j = next_iteration(d, j)) {
            d->chain_of[j] = d->nchains;
            d->pos_of[j] = ch->len;
            ch->iters[ch->len++] = j;
            ch->may_repeat |= sx->iters[j].repeat != LIT_FALSE;
        }
        d->nchains++;
    }
}

/* The iterations containing each event, as a compressed table. */
static void index_events(struct decomposition *d)
{
    int n = d->p->nevents, ni = d->x->sx.niters;
    d->ev_start = xcalloc((size_t)n + 1, sizeof *d->ev_start);
    for (int i = 0; i < ni; i++)
        for (int e = iter_first(d, i); e < iter_end(d, i); e++)
            d->ev_start[e + 1]++;
    for (int e = 0; e < n; e++)
        d->ev_start[e + 1] += d->ev_start[e];
    d->ev_iters = xcalloc((size_t)(d->ev_start[n] ? d->ev_start[n] : 1), sizeof *d->ev_iters);
    int *fill = xcalloc((size_t)(n ? n : 1), sizeof *fill);
    for (int i = 0; i < ni; i++)
        for (int e = iter_first(d, i); e < iter_end(d, i); e++)
            d->ev_iters[d->ev_start[e] + fill[e]++] = i;
    free(fill);
}

/* Infix and suffix literals, contiguous and in that order in each chain:
 * the suffix ends the chain exactly when some iteration repeats, a
 * repeating iteration is in the suffix and follows some infix. */
static void encode_shape(struct decomposition *d)
{
    struct cnf *c = d->c;
    const struct symexec *sx = &d->x->sx;
    int ni = sx->niters;
    d->inf = xcalloc((size_t)(ni ? ni : 1), sizeof *d->inf);
    d->suf = xcalloc((size_t)(ni ? ni : 1), sizeof *d->suf);
    for (int k = 0; k < d->nchains; k++) {
        struct chain *ch = &d->chains[k];
        for (int a = 0; a < ch->len; a++) {
            int i = ch->iters[a];
            d->inf[i] = ch->may_repeat && a + 1 < ch->len ? cnf_var(c) : LIT_FALSE;
            d->suf[i] = ch->may_repeat ? cnf_var(c) : LIT_FALSE;
            cnf_clause2(c, -d->inf[i], -d->suf[i]);
        }
        if (!ch->may_repeat)
            continue;
        lit repeats = LIT_FALSE, some_infix_before = LIT_FALSE;
        for (int a = 0; a < ch->len; a++) {
            int i = ch->iters[a];
            if (a + 1 < ch->len) {
                int next = ch->iters[a + 1];
                cnf_imply(c, d->suf[i], d->suf[next]);
                cnf_clause3(c, -d->inf[i], d->inf[next], d->suf[next]);
            }
            lit r = sx->iters[i].repeat;
            cnf_imply(c, r, d->suf[i]);
            cnf_imply(c, r, some_infix_before);
            repeats = cnf_or(c, repeats, r);
            some_infix_before = cnf_or(c, some_infix_before, d->inf[i]);
        }
        lit last_suffix = d->suf[ch->iters[ch->len - 1]];
        cnf_imply(c, last_suffix, repeats);
        cnf_imply(c, repeats, last_suffix);
    }
}

/* Where g1 and g2 hold (g2 LIT_TRUE: g1 alone), x and y are equal: two
 * clauses, where an IFF gate under an implication would take three and a
 * variable. */
static void equal_under(struct cnf *c, lit g1, lit g2, lit x, lit y)
{
    if (g2 == g1)
        g2 = LIT_TRUE;
    if (x == y)
        return;
    if (x == -y) {
        cnf_clause2(c, -g1, -g2);
        return;
    }
    lit l[4] = { -g1, -g2, -x, y };
    cnf_clause(c, l, 4);
    l[2] = x;
    l[3] = -y;
    cnf_clause(c, l, 4);
}

/* Where g1 and g2 hold, bit-vectors x and y are equal, bit by bit (no
 * bv_eq gates). */
static void equal_bits_under(struct cnf *c, lit g1, lit g2, const struct bv *x, const struct bv *y)
{
    for (int i = 0; i < BV_WIDTH; i++)
        equal_under(c, g1, g2, x->b[i], y->b[i]);
}

/* Matched iterations a and b of a chain are equivalent: the same events
 * execute, with the same values, the local state ends the same, and the
 * next iteration resumes at the same label. */
static void encode_equivalence(struct decomposition *d, int a, int b, lit match)
{
    struct cnf *c = d->c;
    const struct symexec *sx = &d->x->sx;
    int fa = iter_first(d, a), fb = iter_first(d, b), n = iter_end(d, a) - fa;
    for (int k = 0; k < n; k++) {
        int ea = fa + k, eb = fb + k;
        equal_under(c, match, LIT_TRUE, sx->exec[ea], sx->exec[eb]);
        if (event_is_mem(&d->p->events[ea]))
            equal_bits_under(c, match, sx->exec[ea], &sx->val[ea], &sx->val[eb]);
    }
    const struct sx_iteration *ia = &sx->iters[a], *ib = &sx->iters[b];
    const struct pthread *pt = &d->p->threads[ia->thread];
    const struct loop_info *li = &pt->loops[pt->code[ia->backjump].loop];
    for (int r = 0; r < li->nlive; r++)
        equal_bits_under(c, match, LIT_TRUE, &ia->end_regs[r], &ib->end_regs[r]);
    if (li->nentries == 1)
        return;
    for (int k = 0; k <= ia->backjump - ia->head; k++)   /* and leave for the same label */
        if (pt->code[ia->head + k].kind == U_BACKJUMP)
            equal_under(c, match, LIT_TRUE, sx->went_back[ia->thread][ia->head + k],
                        sx->went_back[ib->thread][ib->head + k]);
}

/* For a repeat at chain position n whose suffix starts at s, the infix
 * iterations before s match, last to last, the suffix iterations up to n.
 * A match is only forced, never forbidden: it appears negated everywhere
 * else, so one left free can always be false.  In a chain the forced
 * matches share one offset (one repeat, one suffix start). */
static void encode_matching(struct decomposition *d, struct chain *ch)
{
    struct cnf *c = d->c;
    int len = ch->len;
    ch->match = xcalloc((size_t)len * len, sizeof *ch->match);
    for (int a = 0; a < len * len; a++)
        ch->match[a] = LIT_FALSE;
    for (int a = 0; a < len; a++)
        for (int b = a + 1; b < len; b++) {
            ch->match[a * len + b] = cnf_var(c);
            encode_equivalence(d, ch->iters[a], ch->iters[b], ch->match[a * len + b]);
        }
    for (int n = 1; n < len; n++) {
        lit repeat = d->x->sx.iters[ch->iters[n]].repeat;
        if (repeat == LIT_FALSE)
            continue;
        for (int s = 1; s <= n; s++) {
            lit starts = cnf_and(c, repeat, cnf_and(c, d->suf[ch->iters[s]],
                                                    d->inf[ch->iters[s - 1]]));
            for (int i = 1; i <= s; i++) {
                lit inf = d->inf[ch->iters[s - i]];
                int b = n + 1 - i;
                if (b < s) {
                    cnf_clause2(c, -starts, -inf);
                    continue;
                }
                cnf_clause3(c, -starts, -inf, ch->match[(s - i) * len + b]);
            }
        }
    }
}

/* Per event: its place is in the suffix, or in the prefix. */
static void encode_membership(struct decomposition *d)
{
    struct cnf *c = d->c;
    const struct symexec *sx = &d->x->sx;
    int n = d->p->nevents;
    d->in_suf = xcalloc((size_t)(n ? n : 1), sizeof *d->in_suf);
    d->in_pre = xcalloc((size_t)(n ? n : 1), sizeof *d->in_pre);
    for (int e = 0; e < n; e++) {
        lit suf = sx->in_spin[e], not_prefix = sx->in_spin[e];
        for (int k = d->ev_start[e]; k < d->ev_start[e + 1]; k++) {
            int i = d->ev_iters[k];
            suf = cnf_or(c, suf, d->suf[i]);
            not_prefix = cnf_or(c, not_prefix, cnf_or(c, d->suf[i], d->inf[i]));
        }
        d->in_suf[e] = suf;
        d->in_pre[e] = -not_prefix;
    }
}

/* Event e executes in the suffix (in_suf) or the prefix (in_pre), as
 * a literal beside an edge of relation r: where r is guarded (an edge
 * implies that both its events execute, rel_mark_guarded), the place
 * alone says as much in that clause, and its AND gate is not made. */
static lit executed_in(const struct decomposition *d, const struct rel *r, const lit *in, int e)
{
    return rel_guarded(r) ? in[e] : cnf_and(d->c, d->x->sx.exec[e], in[e]);
}

/* The event of iteration b at the place of event e of iteration a. */
static int mirror(const struct decomposition *d, int e, int a, int b)
{
    return e - iter_first(d, a) + iter_first(d, b);
}

/* Whether the edge between e1 and e2 (in relation r) is "both
 * execute", as co's is where program order decides it: the same gate
 * encode_order made, looked up, none made. */
static bool executes_both(const struct decomposition *d, int e1, int e2, lit edge)
{
    return edge != LIT_FALSE && edge == cnf_and(d->c, d->x->sx.exec[e1], d->x->sx.exec[e2]);
}

/* rf and co between infix events recur between their suffix images.
 * With one_way (co where it is total), a pair's edge one way only: where
 * both events execute exactly one of its two edges holds, the other is
 * the negation, and an image pair executes exactly when the pair does.
 * For co, nothing where the edge and its image both say "both execute":
 * the matched iterations' equal exec literals say as much. */
static void encode_mirrored(struct decomposition *d, const struct rel *r, bool one_way)
{
    bool co = r == d->x->base.rels[R_CO];
    struct cnf *c = d->c;
    int n = d->p->nevents;
    for (int e1 = 0; e1 < n; e1++) {
        if (d->ev_start[e1] == d->ev_start[e1 + 1])   /* in no loop iteration */
            continue;
        const int *cols;
        const lit *lits;
        int m = rel_row(r, e1, &cols, &lits);
        for (int j = 0; j < m; j++) {
            int e2 = cols[j];
            lit edge = lits[j];
            if (one_way && e2 < e1)
                continue;
            bool by_exec = co && executes_both(d, e1, e2, edge);
            for (int k1 = d->ev_start[e1]; k1 < d->ev_start[e1 + 1]; k1++)
                for (int k2 = d->ev_start[e2]; k2 < d->ev_start[e2 + 1]; k2++) {
                    int a1 = d->ev_iters[k1], a2 = d->ev_iters[k2];
                    if (d->inf[a1] == LIT_FALSE || d->inf[a2] == LIT_FALSE)
                        continue;
                    const struct chain *ch1 = &d->chains[d->chain_of[a1]];
                    const struct chain *ch2 = &d->chains[d->chain_of[a2]];
                    int p1 = d->pos_of[a1], p2 = d->pos_of[a2];
                    for (int b1 = p1 + 1; b1 < ch1->len; b1++)
                        for (int b2 = p2 + 1; b2 < ch2->len; b2++) {
                            if (ch1 == ch2 && b1 - p1 != b2 - p2)   /* never both matched */
                                continue;
                            int s1 = ch1->iters[b1], s2 = ch2->iters[b2];
                            int i1 = mirror(d, e1, a1, s1), i2 = mirror(d, e2, a2, s2);
                            lit image = rel_get(r, i1, i2);
                            if (by_exec && executes_both(d, i1, i2, image))
                                continue;
                            equal_under(c, ch1->match[p1 * ch1->len + b1], ch2->match[p2 * ch2->len + b2],
                                        edge, image);
                        }
                }
        }
    }
}

/* The strong-suffix conditions that make the repetition fair and consistent. */
static void encode_strong_suffix(struct decomposition *d)
{
    struct cnf *c = d->c;
    const struct base *b = &d->x->base;
    const struct rel *rco = b->rels[R_CO], *rrf = b->rels[R_RF], *rbar = b->rels[R_SYNCBAR];
    const lit *suf = d->in_suf, *pre = d->in_pre;
    int n = d->p->nevents;
    const int *cols;
    const lit *lits;
    for (int e1 = 0; e1 < n; e1++) {
        int m = suf[e1] != LIT_FALSE ? rel_row(rco, e1, &cols, &lits) : 0;
        for (int k = 0; k < m; k++)   /* prefix co-before suffix (e1 in the suffix here) */
            cnf_clause3(c, -executed_in(d, rco, pre, cols[k]), -executed_in(d, rco, suf, e1), -lits[k]);
        m = rel_row(rrf, e1, &cols, &lits);
        for (int k = 0; k < m; k++) {
            int e2 = cols[k];
            lit rf = lits[k];
            if (suf[e1] != LIT_FALSE)   /* only the suffix reads it */
                cnf_clause3(c, -rf, -executed_in(d, rrf, suf, e1), executed_in(d, rrf, suf, e2));
            if (suf[e2] != LIT_FALSE) { /* or the last prefix write */
                lit l[4] = { -rf, -executed_in(d, rrf, suf, e2), -executed_in(d, rrf, pre, e1),
                             d->x->co_last[e1] };
                cnf_clause(c, l, 4);
            }
        }
        m = suf[e1] != LIT_FALSE ? rel_row(rbar, e1, &cols, &lits) : 0;
        for (int k = 0; k < m; k++)   /* barriers meet in the suffix */
            cnf_clause3(c, -lits[k], -executed_in(d, rbar, suf, e1), executed_in(d, rbar, suf, cols[k]));
    }
}

void repetition_encode(struct cnf *c, const struct program *p, const struct exec_enc *x)
{
    struct decomposition d = { .c = c, .p = p, .x = x };
    build_chains(&d);
    index_events(&d);
    encode_shape(&d);
    for (int k = 0; k < d.nchains; k++)
        if (d.chains[k].may_repeat)
            encode_matching(&d, &d.chains[k]);
    encode_membership(&d);
    encode_mirrored(&d, x->base.rels[R_RF], false);
    encode_mirrored(&d, x->base.rels[R_CO], x->co_total);
    encode_strong_suffix(&d);
    for (int k = 0; k < d.nchains; k++) {
        free(d.chains[k].iters);
        free(d.chains[k].match);
    }
    free(d.chains);
    free(d.chain_of);
    free(d.pos_of);
    free(d.inf);
    free(d.suf);
    free(d.ev_start);
    free(d.ev_iters);
    free(d.in_suf);
    free(d.in_pre);
}
