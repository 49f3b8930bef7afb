/* From a lasso to a checked witness: replay, leave out the steps that
 * change nothing, follow each thread through the unrolled program, choose
 * rf and co from the interleaving, evaluate concretely, describe. */
#include "bmc/concrete/lasso_witness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/concrete/evaluate.h"
#include "bmc/concrete/witness.h"
#include "util/xalloc.h"

/* The lasso followed through the graph: step k runs from state k to
 * state k + 1. */
struct run {
    const struct state_graph *g;
    int n;
    const int *thread;
    int *state;              /* n + 1: the graph's index of each state (the
                                explorer made them with states_step) */
    bool *wrote, *keep;
    int *uop;                /* per step: the micro-op it runs in the unrolled program */
    /* scratch: prune's steps of one thread, needed_bound's count per thread,
     * stop_point's two states */
    int *idx, *count;
    int32_t *cur, *next;
    void *block;             /* the allocation of every array above */
};

/* Places r's arrays in block (NULL: measures); returns its size. */
static size_t run_layout(struct run *r, char *block)
{
    struct xblock b = { block, 0 };
    size_t steps = (size_t)r->n + 1, width = (size_t)r->g->width;
    r->state = xblock_take(&b, steps, sizeof *r->state);
    r->wrote = xblock_take(&b, steps, sizeof *r->wrote);
    r->keep = xblock_take(&b, steps, sizeof *r->keep);
    r->uop = xblock_take(&b, steps, sizeof *r->uop);
    r->idx = xblock_take(&b, steps, sizeof *r->idx);
    r->count = xblock_take(&b, (size_t)r->g->nthreads + 1, sizeof *r->count);
    r->cur = xblock_take(&b, width, sizeof *r->cur);
    r->next = xblock_take(&b, width, sizeof *r->next);
    return b.size;
}

static const int32_t *before(const struct run *r, int k)
{
    return states_at(r->g, r->state[k]);
}

static int pc_at(const struct run *r, int k, int t)
{
    return before(r, k)[r->g->offset[t]] >> 1;
}

/* Thread t's program counter and registers agree in states a and b. */
static bool same_local(const struct state_graph *g, const int32_t *a, const int32_t *b, int t)
{
    int w = g->offset[t];
    return (a[w] >> 1) == (b[w] >> 1) && memcmp(a + w + 1, b + w + 1, (size_t)g->code[t].nregs * sizeof *a) == 0;
}

/* Leaves out, among steps [from, to), every stretch of one thread's steps
 * that writes nothing and brings the thread back to where it was (the
 * longest from each step on): the other threads see nothing of it, and the
 * thread goes on from the same place. */
static void prune(struct run *r, int from, int to)
{
    const struct state_graph *g = r->g;
    int *idx = r->idx;
    for (int t = 0; t < g->nthreads; t++) {
        int m = 0;
        for (int k = from; k < to; k++)
            if (r->thread[k] == t)
                idx[m++] = k;
        for (int a = 0; a < m; a++) {
            int best = -1;
            for (int b = a; b < m && !r->wrote[idx[b]]; b++)
                if (same_local(g, before(r, idx[a]), before(r, idx[b] + 1), t))
                    best = b;
            for (int b = a; b <= best; b++)
                r->keep[idx[b]] = false;
            if (best >= 0)
                a = best;
        }
    }
}

/* Whether thread t's step from state s jumps (a goto, or a branch whose
 * condition holds). */
static bool jumps(const struct state_graph *g, const int32_t *s, int t)
{
    const struct instr *x = &g->code[t].in[s[g->offset[t]] >> 1];
    const int32_t *regs = s + g->offset[t] + 1;
    int32_t a = x->a.is_reg ? regs[x->a.reg] : (int32_t)x->a.value;
    int32_t b = x->b.is_reg ? regs[x->b.reg] : (int32_t)x->b.value;
    return x->kind == I_GOTO || (x->kind == I_BRANCH && cmp_holds(x->cmp, a, b));
}

/* Loop iterations the kept steps need: one more than the most backward
 * jumps any thread takes. */
static int needed_bound(const struct run *r)
{
    int most = 0, *count = r->count;
    memset(count, 0, ((size_t)r->g->nthreads + 1) * sizeof *count);
    for (int k = 0; k < r->n; k++) {
        int t = r->thread[k], pc = pc_at(r, k, t);
        if (r->keep[k] && jumps(r->g, before(r, k), t) && r->g->code[t].target[pc] <= pc && ++count[t] > most)
            most = count[t];
    }
    return most + 1;
}

/* Skips loop heads and labels, which run no source instruction. */
static int settle_uop(const struct pthread *pt, int i)
{
    while (i < pt->ncode && (pt->code[i].kind == U_LOOP_HEAD || pt->code[i].in->kind == I_LABEL))
        i++;
    return i;
}

/* Where control goes after micro-op i when it jumps or not. */
static int next_uop(const struct pthread *pt, int i, bool jump)
{
    const struct uop *u = &pt->code[i];
    if (u->kind == U_BACKJUMP)
        return jump ? u->target : u->exit;
    return jump ? u->target : i + 1;
}

/* Where thread t, at micro-op at in state end, stops for good (-1: it has
 * ended): before its next instruction, past any backward jump it does not
 * take (a stop at a backjump claims the loop repeats, so only one it takes
 * may hold it). */
static int stop_point(const struct run *r, const struct pthread *pt, const int32_t *end, int t, int at)
{
    const struct state_graph *g = r->g;
    if ((end[g->offset[t]] >> 1) >= g->code[t].n)
        return -1;
    int32_t *cur = r->cur, *next = r->next;
    memcpy(cur, end, (size_t)g->width * sizeof *cur);
    bool wrote;
    for (at = settle_uop(pt, at); at < pt->ncode && pt->code[at].kind == U_BACKJUMP && !jumps(g, cur, t);) {
        at = settle_uop(pt, pt->code[at].exit);
        states_step(g, cur, t, next, &wrote);
        memcpy(cur, next, (size_t)g->width * sizeof *cur);
    }
    return at;
}

/* Follows every thread's kept steps through p's code (r->uop) and sets
 * where the threads that never end stop; false when a thread cannot be
 * followed. */
static bool follow(const struct program *p, struct run *r, int *stop_at, char *why, size_t len)
{
    const struct state_graph *g = r->g;
    for (int t = 0; t < g->nthreads; t++) {
        const struct pthread *pt = &p->threads[t];
        int at = 0;
        for (int k = 0; k < r->n; k++) {
            if (r->thread[k] != t || !r->keep[k])
                continue;
            at = settle_uop(pt, at);
            if (at >= pt->ncode || pt->code[at].in != &g->code[t].in[pc_at(r, k, t)]) {
                snprintf(why, len, "P%d's step at `%s` is not where the unrolled program is", pt->src->id,
                         g->code[t].in[pc_at(r, k, t)].text);
                return false;
            }
            r->uop[k] = at;
            at = next_uop(pt, at, jumps(g, before(r, k), t));
            if (at == TARGET_BOUND) {
                snprintf(why, len, "P%d runs past the unrolling bound", pt->src->id);
                return false;
            }
        }
        stop_at[t] = stop_point(r, pt, before(r, r->n), t, at);
    }
    return true;
}

/* rf and co of the interleaving, final values, stop points. */
static void choose(const struct program *p, const struct run *r, int loc, struct choice *ch)
{
    int n = p->nevents, last = -1;
    for (int e = 0; e < n; e++)
        if (p->events[e].kind == EV_INIT) {
            ch->final_pick[p->events[e].loc] = e;
            if (p->events[e].loc == loc)
                last = e;
        }
    int *writes = xcalloc((size_t)n + 1, sizeof *writes), nw = 0;
    writes[nw++] = last;
    for (int k = 0; k < r->n; k++) {
        if (!r->keep[k])
            continue;
        const struct uop *u = &p->threads[r->thread[k]].code[r->uop[k]];
        for (int e = u->first_event; e < u->first_event + u->nevents; e++) {
            if (p->events[e].kind == EV_READ)
                ch->rf[e] = last;
            if (p->events[e].kind != EV_WRITE)
                continue;
            for (int i = 0; i < nw; i++)
                ch->co[writes[i] * n + e] = true;
            writes[nw++] = last = e;
        }
    }
    if (loc >= 0)
        ch->final_pick[loc] = last;
    free(writes);
}

/* The concrete run did what the interleaving did: every kept step's events
 * and no others, with the interleaving's values. */
static const char *same_run(const struct program *p, const struct run *r, const struct concrete *x)
{
    int executed = 0, mapped = 0;
    for (int e = 0; e < p->nevents; e++)
        executed += x->exec[e] && p->events[e].kind != EV_INIT;
    for (int k = 0; k < r->n; k++) {
        if (!r->keep[k])
            continue;
        const struct uop *u = &p->threads[r->thread[k]].code[r->uop[k]];
        for (int e = u->first_event; e < u->first_event + u->nevents; e++) {
            mapped++;
            int32_t want = p->events[e].kind == EV_READ ? before(r, k)[0] : before(r, k + 1)[0];
            if (!x->exec[e] || (event_is_mem(&p->events[e]) && x->val[e] != want))
                return "the concrete run differs from the interleaving";
        }
    }
    return executed == mapped ? NULL : "the concrete run executes events the interleaving does not";
}

/* The line of the first instruction at or after pc that is not a label. */
static int line_at(const struct st_code *c, int pc)
{
    while (pc < c->n && c->in[pc].kind == I_LABEL)
        pc++;
    return pc < c->n ? c->in[pc].pos.line : 0;
}

/* What each thread that never ends does for ever, where, and the last
 * backward jump it takes round the cycle. */
static cJSON *stuck_json(const struct litmus *l, const struct run *r, const struct lasso *la)
{
    const struct state_graph *g = r->g;
    cJSON *a = cJSON_CreateArray();
    for (int t = 0; t < g->nthreads; t++) {
        if (la->how[t] == LASSO_ENDS)
            continue;
        const struct st_code *c = &g->code[t];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "thread", l->threads[t].id);
        cJSON_AddStringToObject(o, "how", lasso_how_name(la->how[t]));
        cJSON_AddNumberToObject(o, "line", line_at(c, pc_at(r, la->nstem, t)));
        int back = -1;
        for (int k = la->nstem; k < r->n; k++) {
            int pc = pc_at(r, k, t);
            if (r->thread[k] == t && jumps(g, before(r, k), t) && c->target[pc] <= pc)
                back = pc;
        }
        if (back >= 0) {
            cJSON_AddStringToObject(o, "loop_back", c->in[back].text);
            cJSON_AddNumberToObject(o, "loop_line", line_at(c, c->target[back]));
        }
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* The executed events of steps [from, to), in order. */
static cJSON *events_json(const struct program *p, const struct run *r, int from, int to)
{
    cJSON *a = cJSON_CreateArray();
    for (int k = from; k < to; k++)
        if (r->keep[k]) {
            const struct uop *u = &p->threads[r->thread[k]].code[r->uop[k]];
            for (int e = u->first_event; e < u->first_event + u->nevents; e++)
                cJSON_AddItemToArray(a, cJSON_CreateNumber(e));
        }
    return a;
}

/* The lasso's JSON: the evaluated execution (bmc/concrete/witness.h) with
 * what each stuck thread does and the stem and cycle's events. */
static cJSON *lasso_json(const struct litmus *l, const struct program *p, const struct run *r,
                         const struct lasso *la, const struct evaluation *ev)
{
    cJSON *w = wit_build(p, &ev->x, &ev->b, &ev->m);
    cJSON_ReplaceItemInObject(w, "stuck", stuck_json(l, r, la));
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "stem", events_json(p, r, 0, la->nstem));
    cJSON_AddItemToObject(o, "cycle", events_json(p, r, la->nstem, r->n));
    cJSON_AddNumberToObject(o, "stem_steps", la->nstem);
    cJSON_AddNumberToObject(o, "cycle_steps", la->ncycle);
    cJSON_AddNumberToObject(o, "states", r->g->nstates);
    cJSON_AddItemToObject(w, "lasso", o);
    return w;
}

/* Checks the lasso's execution of u's program concretely and, with
 * witness, builds the JSON; false, with why, when it is no execution. */
static bool checked(struct lasso_recheck *rc, struct unrolled *u, struct run *r, const struct lasso *la,
                    cJSON **witness, char *why, size_t len)
{
    const struct program *p = u->p;
    struct choice ch;
    choice_init(&ch, p);
    bool ok = follow(p, r, ch.stop_at, why, len);
    if (ok) {
        choose(p, r, r->g->loc >= 0 ? program_root_location(rc->l, r->g->loc) : -1, &ch);
        const struct evaluation *ev = eval_memo_evaluate(&u->memo, rc->disabled, rc->ndisabled, &ch);
        const char *bad = !ev->x.valid ? ev->x.why : !ev->consistent ? ev->violated : same_run(p, r, &ev->x);
        ok = bad == NULL;
        if (bad)
            snprintf(why, len, "the concrete evaluator rejects the lasso (%s)", bad);
        else if (witness)
            *witness = lasso_json(rc->l, p, r, la, ev);
    }
    choice_free(&ch);
    return ok;
}

void lasso_recheck_init(struct lasso_recheck *rc, const struct litmus *l, const struct model_desc *md,
                        const char *const *disabled, int ndisabled)
{
    *rc = (struct lasso_recheck){ .l = l, .md = md, .disabled = disabled, .ndisabled = ndisabled };
}

/* One more unrolled program, p at bound; built: p when rc built it. */
static struct unrolled *add_unrolled(struct lasso_recheck *rc, const struct program *p, struct program *built,
                                     int bound)
{
    XGROW(rc->unrolled, rc->cap, rc->nunrolled + 1);
    struct unrolled *u = &rc->unrolled[rc->nunrolled++];
    u->bound = bound;
    u->p = p;
    u->built = built;
    eval_memo_init(&u->memo, p, rc->md);
    return u;
}

void lasso_recheck_lend(struct lasso_recheck *rc, const struct program *p)
{
    rc->lent = p->lit == rc->l ? p : NULL;
}

void lasso_recheck_free(struct lasso_recheck *rc)
{
    for (int i = 0; i < rc->nunrolled; i++) {
        eval_memo_free(&rc->unrolled[i].memo);
        if (rc->unrolled[i].built)
            program_free(rc->unrolled[i].built);
    }
    free(rc->unrolled);
    rc->unrolled = NULL;
    rc->nunrolled = rc->cap = 0;
}

/* The program unrolled to bound, built once per re-check; NULL, with why,
 * when it cannot be built. */
static struct unrolled *unrolled_at(struct lasso_recheck *rc, int bound, char *why, size_t len)
{
    for (int i = 0; i < rc->nunrolled; i++)
        if (rc->unrolled[i].bound == bound)
            return &rc->unrolled[i];
    if (rc->lent && rc->lent->bound == bound)
        return add_unrolled(rc, rc->lent, NULL, bound);
    char msg[256] = "";
    struct program *p = bound <= 10000 ? program_build(rc->l, bound, msg, sizeof msg) : NULL;
    if (!p) {
        snprintf(why, len, "no witness: the unrolled program for %d iterations: %s", bound, msg[0] ? msg : "too many");
        return NULL;
    }
    return add_unrolled(rc, p, p, bound);
}

bool lasso_witness(struct lasso_recheck *rc, const struct state_graph *g, const struct lasso *la, cJSON **witness,
                   char *why, size_t len)
{
    int n = la->nstem + la->ncycle;
    struct run r = { .g = g, .n = n, .thread = la->step };
    r.block = xrealloc(NULL, run_layout(&r, NULL));   /* every array written before it is read */
    run_layout(&r, r.block);
    r.state[0] = 0;   /* the initial state; each step an edge of the graph */
    for (int k = 0; k < n; k++) {
        r.wrote[k] = states_writes(g, before(&r, k), la->step[k]);
        r.state[k + 1] = g->succ[(size_t)r.state[k] * g->nthreads + la->step[k]];
        r.keep[k] = true;
    }
    prune(&r, 0, n);   /* across the stem's end too: a thread may spin over it */
    struct unrolled *u = unrolled_at(rc, needed_bound(&r), why, len);
    bool ok = u && checked(rc, u, &r, la, witness, why, len);
    free(r.block);
    return ok;
}
