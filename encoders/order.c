/* Transitivity of strict orders (coherence, the fence.sc order).  A small
 * order gets every clause l(i,k) & l(k,j) -> l(i,j) at once.  A big one
 * (hundreds of writes to one location, a thousand fence.sc) would need a
 * cube of them, so it gets them when a satisfying model shows one missing
 * (order_refine, from cnf_solve): along a cycle of true pairs, the clauses
 * that shortcut it from its first node, the cycles taken from a depth-first
 * path in event order (the solver's first guess), which follows the pairs
 * it was forced to orient, so a ring of forced pairs is cut in one round;
 * in an acyclic model, the clause of each true path i -> k -> j whose pair
 * (i, j) is not true.  A model that needs none is transitive.  An order
 * still cut after a few rounds (the solver fighting its transitivity, as
 * for the lock of a CAS spin lock) gets every triple if there are not
 * too many. */
#include "encoders/cnf_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/reach.h"
#include "util/xalloc.h"

/* Orders with at most this many transitivity triples get them all at once. */
#define EAGER_TRIPLES 1048576L
/* After this many rounds of cuts, an order with at most WHOLE_TRIPLES
 * triples gets them all: the solver is fighting its transitivity. */
#define PATIENCE 2
#define WHOLE_TRIPLES 4194304L
/* Cycles cut per component and model. */
#define CYCLE_BACKEDGES 16

/* An order's pairs as rows (rs, rc, rv: the caller's while cnf_order runs,
 * copies in block when it is kept for order_refine). */
struct order { int n; const int *rs, *rc; const lit *rv; void *block; long triples; int rounds; bool whole; };

struct orders { struct order *list; int count, cap; };

/* The literal of (i, j) in o, LIT_FALSE when it is no pair of the order. */
static lit pair(const struct order *o, int i, int j)
{
    int lo = o->rs[i], hi = o->rs[i + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (o->rc[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < o->rs[i + 1] && o->rc[lo] == j ? o->rv[lo] : LIT_FALSE;
}

/* Adds l(i,k) & l(k,j) -> l(i,j). */
static void triple(struct cnf *c, const struct order *o, lit ik, lit kj, int i, int j)
{
    cnf_clause3(c, -ik, -kj, pair(o, i, j));
}

/* Shortcuts from cycle[0] along the cycle: l(v0,v1) & l(v1,v2) -> l(v0,v2), ... */
static long fan(struct cnf *c, const struct order *o, const int *cycle, int len)
{
    long added = 0;
    for (int a = 2; a < len; a++) {
        triple(c, o, pair(o, cycle[0], cycle[a - 1]), pair(o, cycle[a - 1], cycle[a]), cycle[0], cycle[a]);
        added++;
    }
    return added;
}

/* A depth-first search from the first node of each cyclic component of R
 * over true pairs inside it, successors in event order, so the path it
 * follows is the model's order wherever the solver left it alone: each
 * back edge u -> w (w on the path) closes the cycle w ... u, handed to
 * fan (at most CYCLE_BACKEDGES per component); how many clauses were added. */
static long cycles_on_paths(struct cnf *c, const struct order *o, const bool *on, const struct reach *R)
{
    int n = o->n;
    long added = 0;
    int *size = xcalloc((size_t)R->nscc + 1, sizeof *size), *pos = xcalloc((size_t)n + 1, sizeof *pos);
    int *path = xcalloc((size_t)n + 1, sizeof *path), *next = xcalloc((size_t)n + 1, sizeof *next);
    bool *seen = xcalloc((size_t)R->nscc + 1, sizeof *seen), *visited = xcalloc((size_t)n + 1, sizeof *visited);
    for (int u = 0; u < n; u++) {
        size[R->scc[u]]++;
        pos[u] = -1;
    }
    for (int s = 0; s < n; s++) {
        int comp = R->scc[s], found = 0, top = 0;
        if (size[comp] < 2 || seen[comp])
            continue;
        seen[comp] = true;
        path[top++] = s;
        pos[s] = 0;
        visited[s] = true;
        next[s] = o->rs[s];
        while (top > 0 && found < CYCLE_BACKEDGES) {
            int u = path[top - 1];
            if (next[u] == o->rs[u + 1]) {
                pos[u] = -1;
                top--;
                continue;
            }
            int e = next[u]++, w = o->rc[e];
            if (!on[e] || R->scc[w] != comp)
                continue;
            if (pos[w] >= 0) {              /* back edge: the cycle path[pos[w]] .. u */
                added += fan(c, o, path + pos[w], top - pos[w]);
                found++;
            } else if (!visited[w]) {
                visited[w] = true;
                pos[w] = top;
                path[top++] = w;
                next[w] = o->rs[w];
            }
        }
        for (int k = 0; k < top; k++)
            pos[path[k]] = -1;
    }
    free(size);
    free(pos);
    free(path);
    free(next);
    free(seen);
    free(visited);
    return added;
}

/* In an acyclic model: the clause of each true path i -> k -> j whose
 * pair (i, j) is not true, one per (i, j); how many were added. */
static long missing_pairs(struct cnf *c, const struct order *o, const bool *on)
{
    int n = o->n, words = (n + 63) / 64, slots = 0;
    long added = 0;
    int *slot = xcalloc((size_t)n + 1, sizeof *slot);
    for (int i = 0; i < n; i++) {
        slot[i] = -1;
        for (int e = o->rs[i]; e < o->rs[i + 1] && slot[i] < 0; e++)
            if (on[e])
                slot[i] = slots++;
    }
    uint64_t *succ = xcalloc((size_t)slots * words + 1, sizeof *succ), *need = xcalloc((size_t)words + 1, sizeof *need);
    for (int i = 0; i < n; i++)
        for (int e = o->rs[i]; e < o->rs[i + 1]; e++)
            if (on[e])
                succ[(size_t)slot[i] * words + o->rc[e] / 64] |= 1ull << (o->rc[e] % 64);
    for (int i = 0; i < n; i++) {
        if (slot[i] < 0)
            continue;
        const uint64_t *si = succ + (size_t)slot[i] * words;
        memset(need, 0, (size_t)words * sizeof *need);
        for (int e = o->rs[i]; e < o->rs[i + 1]; e++)
            if (on[e] && slot[o->rc[e]] >= 0)
                for (int w = 0; w < words; w++)
                    need[w] |= succ[(size_t)slot[o->rc[e]] * words + w];
        need[i / 64] &= ~(1ull << (i % 64));
        for (int w = 0; w < words; w++)
            for (uint64_t x = need[w] & ~si[w]; x; x &= x - 1) {
                int j = w * 64 + __builtin_ctzll(x);
                for (int e = o->rs[i]; e < o->rs[i + 1]; e++) {   /* a k with i -> k -> j */
                    int k = o->rc[e];
                    if (on[e] && slot[k] >= 0 && ((succ[(size_t)slot[k] * words + j / 64] >> (j % 64)) & 1u)) {
                        triple(c, o, o->rv[e], pair(o, k, j), i, j);
                        added++;
                        break;
                    }
                }
            }
    }
    free(slot);
    free(succ);
    free(need);
    return added;
}

/* The clauses the true pairs (on) of o lack; how many were added. */
/* Every triple clause of o at once. */
static void all_triples(struct cnf *c, const struct order *o)
{
    for (int i = 0; i < o->n; i++)
        for (int e = o->rs[i]; e < o->rs[i + 1]; e++) {
            int k = o->rc[e];
            for (int f = o->rs[k]; f < o->rs[k + 1]; f++) {
                int j = o->rc[f];
                if (i == k || k == j || i == j || pair(o, i, j) == LIT_TRUE)
                    continue;
                triple(c, o, o->rv[e], o->rv[f], i, j);
            }
        }
}

static long refine_one(struct cnf *c, struct order *o, const bool *on)
{
    struct reach R;
    reach_compute(&R, o->n, o->rs, o->rc, on);
    long added = cycles_on_paths(c, o, on, &R);
    if (added == 0)                         /* acyclic: each true i -> k -> j needs (i, j) */
        added = missing_pairs(c, o, on);
    reach_free(&R);
    if (added > 0 && ++o->rounds > PATIENCE && !o->whole && o->triples <= WHOLE_TRIPLES) {
        all_triples(c, o);
        o->whole = true;
    }
    return added;
}

static long order_refine(struct cnf *c)
{
    struct orders *os = c->ext_state[EXT_ORDER];
    bool **on = xcalloc((size_t)os->count + 1, sizeof *on);
    for (int k = 0; k < os->count; k++) {   /* every value before any clause */
        const struct order *o = &os->list[k];
        on[k] = xcalloc((size_t)o->rs[o->n] + 1, sizeof **on);
        for (int e = 0; e < o->rs[o->n]; e++)
            on[k][e] = cnf_value(c, o->rv[e]);
    }
    long added = 0;
    for (int k = 0; k < os->count; k++) {
        added += refine_one(c, &os->list[k], on[k]);
        free(on[k]);
    }
    free(on);
    return added;
}

static void order_release(struct cnf *c)
{
    struct orders *os = c->ext_state[EXT_ORDER];
    for (int k = 0; k < os->count; k++) {
        free(os->list[k].block);
    }
    free(os->list);
    free(os);
}

static const struct cnf_ext order_ext = { NULL, NULL, order_refine, order_release };


void cnf_order(struct cnf *c, int n, const int *start, const int *col, const lit *val)
{
    struct order o = { .n = n, .rs = start, .rc = col, .rv = val };
    long triples = 0;
    for (int i = 0; i < n && triples <= WHOLE_TRIPLES; i++)
        for (int e = start[i]; e < start[i + 1]; e++)
            triples += start[col[e] + 1] - start[col[e]];
    if (triples <= EAGER_TRIPLES || !cnf_symbolic(c)) {
        if (cnf_symbolic(c))
            all_triples(c, &o);
        return;
    }
    size_t pairs = (size_t)start[n];   /* kept: the rows copied into one block */
    int *rs = xcalloc(((size_t)n + 1) + 2 * (pairs + 1), sizeof *rs), *rc = rs + n + 1;
    lit *rv = rc + pairs + 1;   /* lit is int */
    memcpy(rs, start, ((size_t)n + 1) * sizeof *start);
    memcpy(rc, col, pairs * sizeof *col);
    memcpy(rv, val, pairs * sizeof *val);
    o.rs = rs;
    o.rc = rc;
    o.rv = rv;
    o.block = rs;
    if (!c->ext[EXT_ORDER]) {
        c->ext[EXT_ORDER] = &order_ext;
        c->ext_state[EXT_ORDER] = xcalloc(1, sizeof(struct orders));
    }
    struct orders *os = c->ext_state[EXT_ORDER];
    XGROW_FROM(os->list, os->cap, os->count + 1, 4);
    o.triples = triples;
    os->list[os->count++] = o;
}
