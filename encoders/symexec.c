/* Guarded symbolic execution over the loop-free micro-op lists. */
#include "encoders/symexec.h"

#include <stdlib.h>
#include <string.h>

#include "encoders/read_domain.h"
#include "util/xalloc.h"

/* Which events of the thread a register depends on: l[k] for thread event
 * k.  A row is shared between the states that hold it (refs counts them)
 * and never changed once made; a register that depends on nothing has no
 * row (NULL), so that a state is cheap to copy and to make. */
struct dep_row {
    int refs;
    lit l[];
};

/* Register values and, per register, which reads of the thread it depends on,
 * both in one allocation that starts with regs. */
struct state {
    struct bv *regs;
    struct dep_row **dep;    /* dep[r]: the row of reg r, NULL: none */
};

struct edge { lit guard; struct state st; };

/* Allocations a thread's run is done with, kept for the rest of
 * symexec_run: states' (state_size bytes each, enough for any thread's
 * registers) and arrays of edges that a merge has emptied. */
struct spares {
    size_t state_size;
    char **states;
    int nstates, capstates;
    struct edge_array { struct edge *edges; int cap; } *edges;
    int nedges, capedges;
};

/* A way into a loop iteration: control reaches micro-op `to` of it from
 * outside it, with the loop's live written registers regs. */
struct entry { int to; lit guard; struct bv *regs; };

struct tctx {
    struct cnf *c;
    const struct program *p;
    struct symexec *s;
    int t, nregs, nev, first;
    int mode;                /* sx_mode flags */
    struct edge **in;        /* pending incoming edges per micro-op (+ exit) */
    int *nin, *capin;
    lit *ctrl;               /* per thread event: some executed branch depends on it */
    struct entry **entries;  /* per micro-op index of a loop head: the ways
                                into its iteration */
    int *nentries;
    struct bv **snapshot;    /* per micro-op index of a loop head: live regs
                                as the iteration is entered */
    int *iter_at_head;       /* per micro-op index of a loop head: its sx_iteration */
    const struct read_domain *dom;   /* the bits each location's reads can see */
    /* The state of micro-ops no control reaches (no incoming edge): made
     * once per thread and put back after each such micro-op (the registers
     * it wrote are listed in dirty).  Its guard is false, so nothing it
     * does is executed and its dependencies, which are all constants there,
     * decide nothing: it keeps none. */
    struct state dead;
    int *dirty, ndirty;
    bool *is_dirty;
    lit *scratch;            /* nev literals */
    struct spares *spare;    /* allocations to make new states and edge arrays in */
    void *block;             /* the allocation of the per-micro-op arrays above */
};

struct bv symexec_binop(struct cnf *c, enum binop op, struct bv x, struct bv y)
{
    switch (op) {
    case OP_ADD: return bv_add(c, x, y);
    case OP_SUB: return bv_sub(c, x, y);
    case OP_MUL: return bv_mul(c, x, y);
    case OP_DIV: return bv_sdiv(c, x, y);
    case OP_AND: return bv_and(c, x, y);
    case OP_OR: return bv_or(c, x, y);
    case OP_XOR: return bv_xor(c, x, y);
    case OP_EXCH: return y;
    case OP_CAS: return y;   /* callers handle CAS themselves */
    case OP_SMIN: case OP_SMAX: case OP_UMIN: case OP_UMAX:
        return bv_extremum(c, x, y, op == OP_SMAX || op == OP_UMAX, op == OP_UMIN || op == OP_UMAX);
    }
    return y;
}

lit symexec_cmp(struct cnf *c, enum cmpop op, struct bv x, struct bv y)
{
    switch (op) {
    case CMP_EQ: return bv_eq(c, x, y);
    case CMP_NE: return -bv_eq(c, x, y);
    case CMP_LT: return bv_slt(c, x, y);
    case CMP_GT: return bv_slt(c, y, x);
    case CMP_LE: return -bv_slt(c, y, x);
    case CMP_GE: return -bv_slt(c, x, y);
    }
    return LIT_FALSE;
}

/* A new row of dependencies on the thread's events (refs 1), l[q] = d[q];
 * NULL when every one is false. */
static struct dep_row *row_make(const struct tctx *x, const lit *d)
{
    int q = 0;
    while (q < x->nev && d[q] == LIT_FALSE)
        q++;
    if (q == x->nev)
        return NULL;
    struct dep_row *row = xrealloc(NULL, sizeof *row + (size_t)x->nev * sizeof *row->l);
    row->refs = 1;
    memcpy(row->l, d, (size_t)x->nev * sizeof *d);
    return row;
}

static void row_drop(struct dep_row *row)
{
    if (row && --row->refs == 0)
        free(row);
}

static lit row_at(const struct dep_row *row, int q)
{
    return row ? row->l[q] : LIT_FALSE;
}

/* True for the state of micro-ops no control reaches (x->dead). */
static bool is_dead(const struct tctx *x, const struct state *st)
{
    return st->regs == x->dead.regs;
}

/* Places the arrays of a state of nregs registers in block (NULL:
 * measures); returns its size. */
static size_t state_layout(int nregs, char *block, struct state *st)
{
    struct xblock b = { block, 0 };
    st->regs = xblock_take(&b, (size_t)nregs, sizeof *st->regs);
    st->dep = xblock_take(&b, (size_t)nregs, sizeof *st->dep);
    return b.size;
}

/* A state whose arrays are allocated (a freed state's when there is one)
 * and not yet filled. */
static struct state state_alloc(struct tctx *x)
{
    struct spares *sp = x->spare;
    struct state st;
    state_layout(x->nregs, sp->nstates ? sp->states[--sp->nstates] : xrealloc(NULL, sp->state_size), &st);
    return st;
}

/* Keeps the allocation of a state no one holds for the next state_alloc. */
static void state_give_back(struct tctx *x, struct state *st)
{
    struct spares *sp = x->spare;
    XGROW(sp->states, sp->capstates, sp->nstates + 1);
    sp->states[sp->nstates++] = (char *)st->regs;
}

static struct state state_new(struct tctx *x)
{
    struct state st = state_alloc(x);
    struct bv zero = bv_const(0);
    for (int r = 0; r < x->nregs; r++) {
        st.regs[r] = zero;
        st.dep[r] = NULL;
    }
    return st;
}

static struct state state_copy(struct tctx *x, const struct state *from)
{
    struct state st = state_alloc(x);
    memcpy(st.regs, from->regs, (size_t)x->nregs * sizeof *st.regs);
    for (int r = 0; r < x->nregs; r++) {
        st.dep[r] = from->dep[r];
        if (st.dep[r])
            st.dep[r]->refs++;
    }
    return st;
}

static void state_free(struct tctx *x, struct state *st)
{
    if (is_dead(x, st)) {   /* put the dead state back */
        struct bv zero = bv_const(0);
        for (int k = 0; k < x->ndirty; k++) {
            st->regs[x->dirty[k]] = zero;
            x->is_dirty[x->dirty[k]] = false;
        }
        x->ndirty = 0;
        return;
    }
    for (int r = 0; r < x->nregs; r++)
        row_drop(st->dep[r]);
    state_give_back(x, st);
}

/* The live written registers of head's loop in state st. */
static struct bv *loop_regs(const struct tctx *x, int head, const struct state *st)
{
    const struct pthread *pt = &x->p->threads[x->t];
    const struct loop_info *li = &pt->loops[pt->code[head].loop];
    struct bv *regs = xcalloc((size_t)(li->nlive ? li->nlive : 1), sizeof *regs);
    for (int k = 0; k < li->nlive; k++)
        regs[k] = st->regs[li->live_written[k]];
    return regs;
}

/* Passes control from micro-op `from` (-1: the start) to `to` under guard,
 * noting it as an entry into each loop iteration that `to` is in and
 * `from` is not. */
static void add_edge(struct tctx *x, int from, int to, lit guard, const struct state *st)
{
    if (guard == LIT_FALSE)
        return;
    struct spares *sp = x->spare;
    if (x->capin[to] == 0 && sp->nedges > 0) {
        struct edge_array a = sp->edges[--sp->nedges];
        x->in[to] = a.edges;
        x->capin[to] = a.cap;
    }
    XGROW(x->in[to], x->capin[to], x->nin[to] + 1);
    x->in[to][x->nin[to]++] = (struct edge){ guard, state_copy(x, st) };
    const struct pthread *pt = &x->p->threads[x->t];
    if (to >= pt->ncode)
        return;
    int h = program_iteration_of(pt, to);
    for (; h >= 0 && h > from; h = pt->code[h].outer) {
        x->entries[h] = xrealloc(x->entries[h], (size_t)(x->nentries[h] + 1) * sizeof **x->entries);
        x->entries[h][x->nentries[h]++] = (struct entry){ to, guard, loop_regs(x, h, st) };
    }
}

/* The iteration led by head was entered at micro-op `at`: true when
 * every way in is there. */
static lit entered_at(struct tctx *x, int head, int at)
{
    lit any = LIT_FALSE;
    bool all = true;
    for (int k = 0; k < x->nentries[head]; k++) {
        const struct entry *en = &x->entries[head][k];
        if (en->to == at)
            any = cnf_or(x->c, any, en->guard);
        else
            all = false;
    }
    return all ? LIT_TRUE : any;
}

/* Snapshot of the live written registers as the iteration led by head is
 * entered: the state at the head itself when every way in is there. */
static void take_snapshot(struct tctx *x, const struct state *st, int head)
{
    const struct pthread *pt = &x->p->threads[x->t];
    const struct loop_info *li = &pt->loops[pt->code[head].loop];
    const struct entry *en = x->entries[head];
    bool at_head = true;
    for (int k = 0; k < x->nentries[head]; k++)
        at_head &= en[k].to == head;
    if (at_head) {
        x->snapshot[head] = loop_regs(x, head, st);
        return;
    }
    x->snapshot[head] = xcalloc((size_t)(li->nlive ? li->nlive : 1), sizeof **x->snapshot);
    for (int r = 0; r < li->nlive; r++)
        for (int bit = 0; bit < BV_WIDTH; bit++) {
            lit v = LIT_FALSE;
            for (int k = 0; k < x->nentries[head]; k++)
                v = cnf_or(x->c, v, cnf_and(x->c, en[k].guard, en[k].regs[r].b[bit]));
            x->snapshot[head][r].b[bit] = v;
        }
}

/* Keeps micro-op i's array of edges, merged, for another micro-op's. */
static void edges_give_back(struct tctx *x, int i)
{
    struct spares *sp = x->spare;
    if (x->capin[i] > 0) {
        XGROW(sp->edges, sp->capedges, sp->nedges + 1);
        sp->edges[sp->nedges++] = (struct edge_array){ x->in[i], x->capin[i] };
    }
    x->in[i] = NULL;
    x->nin[i] = x->capin[i] = 0;
}

/* Merges the incoming edges of micro-op i into one guard and state. */
static lit merge_incoming(struct tctx *x, int i, struct state *st)
{
    struct edge *in = x->in[i];
    int k = x->nin[i];
    if (k == 0) {
        *st = x->dead;
        return LIT_FALSE;
    }
    if (k == 1) {
        *st = in[0].st;
        lit guard = in[0].guard;
        edges_give_back(x, i);
        return guard;
    }
    *st = state_new(x);
    lit guard = LIT_FALSE;
    for (int e = 0; e < k; e++)
        guard = cnf_or(x->c, guard, in[e].guard);
    for (int r = 0; r < x->nregs; r++) {
        for (int bit = 0; bit < BV_WIDTH; bit++) {
            lit v = in[0].st.regs[r].b[bit];
            bool same = true;
            for (int e = 1; e < k; e++)
                same &= in[e].st.regs[r].b[bit] == v;
            if (!same) {
                v = LIT_FALSE;
                for (int e = 0; e < k; e++)
                    v = cnf_or(x->c, v, cnf_and(x->c, in[e].guard, in[e].st.regs[r].b[bit]));
            }
            st->regs[r].b[bit] = v;
        }
        /* a register that depends on nothing on every way in depends on
         * nothing here (every term below would be false) */
        bool any = false;
        for (int e = 0; e < k; e++)
            any |= in[e].st.dep[r] != NULL;
        if (!any)
            continue;
        lit *d = x->scratch;
        for (int q = 0; q < x->nev; q++) {
            d[q] = LIT_FALSE;
            for (int e = 0; e < k; e++)
                d[q] = cnf_or(x->c, d[q], cnf_and(x->c, in[e].guard, row_at(in[e].st.dep[r], q)));
        }
        st->dep[r] = row_make(x, d);
    }
    for (int e = 0; e < k; e++)
        state_free(x, &in[e].st);
    edges_give_back(x, i);
    return guard;
}

static struct bv operand(const struct state *st, const struct operand *o)
{
    return o->is_reg ? st->regs[o->reg] : bv_const(o->value);
}

/* dep of an operand on thread event q. */
static lit operand_dep(struct tctx *x, const struct state *st, const struct operand *o, int q)
{
    (void)x;
    return o->is_reg ? row_at(st->dep[o->reg], q) : LIT_FALSE;
}

static void set_reg(struct tctx *x, struct state *st, int r, struct bv v, const lit *dep)
{
    if (r < 0)
        return;
    st->regs[r] = v;
    if (is_dead(x, st)) {
        if (!x->is_dirty[r]) {
            x->is_dirty[r] = true;
            x->dirty[x->ndirty++] = r;
        }
        return;
    }
    row_drop(st->dep[r]);
    st->dep[r] = dep ? row_make(x, dep) : NULL;
}

/* Records that event e depends on whatever the operands depend on. */
static void data_deps(struct tctx *x, const struct state *st, int e, const struct operand *a,
                      const struct operand *b, int extra_read)
{
    if (is_dead(x, st))   /* e is not executed: no pair */
        return;
    for (int q = 0; q < x->nev; q++) {
        lit d = cnf_or(x->c, operand_dep(x, st, a, q), b ? operand_dep(x, st, b, q) : LIT_FALSE);
        if (x->first + q == extra_read)
            d = LIT_TRUE;
        d = cnf_and(x->c, d, cnf_and(x->c, x->s->exec[x->first + q], x->s->exec[e]));
        if (d != LIT_FALSE)   /* each pair is set once: an event's operands are read once */
            rel_add(&x->s->data, x->first + q, e, d);
    }
}

static void mark_ctrl(struct tctx *x, int e)
{
    if (x->s->exec[e] == LIT_FALSE)   /* every pair would be false */
        return;
    for (int q = 0; q < x->nev; q++)
        if (x->ctrl[q] != LIT_FALSE)
            rel_add(&x->s->ctrl, x->first + q, e,
                    cnf_and(x->c, x->ctrl[q], cnf_and(x->c, x->s->exec[x->first + q], x->s->exec[e])));
}

static void note_branch(struct tctx *x, const struct state *st, const struct instr *in, lit guard)
{
    if (is_dead(x, st))   /* guard is false: ctrl stays */
        return;
    for (int q = 0; q < x->nev; q++) {
        lit d = cnf_or(x->c, operand_dep(x, st, &in->a, q), operand_dep(x, st, &in->b, q));
        x->ctrl[q] = cnf_or(x->c, x->ctrl[q], cnf_and(x->c, d, guard));
    }
}

/* Memory instructions: create values of their events and update registers. */
static void exec_memory(struct tctx *x, struct state *st, const struct uop *u, lit guard)
{
    const struct instr *in = u->in;
    struct symexec *s = x->s;
    int e = u->first_event;
    /* An RMW's old value (a read: the bits its location's writes agree on
     * are constant); a CAS that writes only when equal executes its write
     * only then (its read alone when the comparison fails). */
    struct bv old = in->kind == I_RMW ? read_domain_value(x->c, x->dom, x->p, x->p->events[e].loc) : bv_const(0);
    lit writes = in->kind == I_RMW && in->op == OP_CAS && in->cas_if_equal
                 ? cnf_and(x->c, guard, bv_eq(x->c, old, operand(st, &in->a))) : guard;
    for (int k = 0; k < u->nevents; k++) {
        s->cf[e + k] = guard;
        s->exec[e + k] = k == 1 ? writes : guard;
        mark_ctrl(x, e + k);
    }
    lit *dep1 = NULL;   /* a loaded value depends on its read alone */
    if (!is_dead(x, st)) {
        dep1 = x->scratch;
        for (int q = 0; q < x->nev; q++)
            dep1[q] = x->first + q == e ? LIT_TRUE : LIT_FALSE;
    }
    if (in->kind == I_LOAD) {
        s->val[e] = read_domain_value(x->c, x->dom, x->p, x->p->events[e].loc);
        set_reg(x, st, in->dst, s->val[e], dep1);
    } else if (in->kind == I_STORE) {
        s->val[e] = operand(st, &in->a);
        data_deps(x, st, e, &in->a, NULL, -1);
    } else if (in->kind == I_RMW) {
        s->val[e] = old;
        struct bv a = operand(st, &in->a);
        if (in->op == OP_CAS && in->cas_if_equal)
            s->val[e + 1] = operand(st, &in->b);   /* only when it executes */
        else if (in->op == OP_CAS)
            s->val[e + 1] = bv_ite(x->c, bv_eq(x->c, old, a), operand(st, &in->b), old);
        else
            s->val[e + 1] = symexec_binop(x->c, in->op, old, a);
        data_deps(x, st, e + 1, &in->a, in->op == OP_CAS ? &in->b : NULL,
                  in->op == OP_EXCH ? -1 : e);
        set_reg(x, st, in->dst, old, dep1);
    }
}

static void exec_local(struct tctx *x, struct state *st, const struct instr *in)
{
    struct bv a = in->kind == I_ANY ? x->s->any[in->a.value] : operand(st, &in->a);
    struct bv v = in->op == OP_EXCH ? a : symexec_binop(x->c, in->op, a, operand(st, &in->b));
    lit *dep = NULL;
    if (!is_dead(x, st)) {
        dep = x->scratch;
        for (int q = 0; q < x->nev; q++)
            dep[q] = in->op == OP_EXCH ? operand_dep(x, st, &in->a, q)
                                       : cnf_or(x->c, operand_dep(x, st, &in->a, q),
                                                operand_dep(x, st, &in->b, q));
    }
    set_reg(x, st, in->dst, v, dep);
}

/* Side effect of the iteration that started at head: a write executed, a
 * barrier passed (it used up an occurrence the others must match; not one
 * that meets no one, program_barrier_alone), or a live register changed. */
static lit iteration_effect(struct tctx *x, const struct state *st, int head, int here)
{
    const struct pthread *pt = &x->p->threads[x->t];
    const struct loop_info *li = &pt->loops[pt->code[here].loop];
    lit effect = LIT_FALSE;
    for (int i = head; i < here; i++) {
        const struct uop *u = &pt->code[i];
        for (int k = 0; k < u->nevents; k++) {
            const struct event *ev = &x->p->events[u->first_event + k];
            if (ev->kind == EV_WRITE || (ev->kind == EV_BARRIER && !program_barrier_alone(x->p->lit, x->t, ev->in)))
                effect = cnf_or(x->c, effect, x->s->exec[u->first_event + k]);
        }
    }
    for (int k = 0; k < li->nlive; k++) {
        int r = li->live_written[k];
        effect = cnf_or(x->c, effect, -bv_eq(x->c, x->snapshot[head][k], st->regs[r]));
    }
    return effect;
}

/* The backjump at here, taken under `taken`, spins: since the thread began
 * some iteration of the loop (this one, or in an irreducible loop also an
 * earlier copy) at the label it jumps back to, nothing had an effect, so
 * it repeats those iterations for ever.  Their events are marked in_spin. */
static lit spin_at(struct tctx *x, const struct state *st, int here, lit taken)
{
    const struct pthread *pt = &x->p->threads[x->t];
    const struct uop *u = &pt->code[here];
    bool irreducible = pt->loops[u->loop].nentries > 1;
    lit spin = LIT_FALSE;
    for (int h = u->head; h >= 0; h = irreducible ? program_previous_copy(pt, h) : -1) {
        lit began = entered_at(x, h, u->reentry - (u->head - h));
        lit w = cnf_and(x->c, taken, cnf_and(x->c, began, -iteration_effect(x, st, h, here)));
        for (int i = h; i < here; i++)
            for (int k = 0; k < pt->code[i].nevents; k++) {
                int e = pt->code[i].first_event + k;
                x->s->in_spin[e] = cnf_or(x->c, x->s->in_spin[e], w);
            }
        spin = cnf_or(x->c, spin, w);
    }
    return spin;
}

/* Records that the iteration led by head can leave through the backjump
 * at here (under leave, with state st) or stop there repeating: one
 * sx_iteration per head, spanning to its last backjump. */
static void record_iteration(struct tctx *x, const struct state *st, int head, int here,
                             lit leave, lit repeat)
{
    const struct pthread *pt = &x->p->threads[x->t];
    const struct loop_info *li = &pt->loops[pt->code[here].loop];
    struct symexec *s = x->s;
    int k = x->iter_at_head[head];
    if (k < 0) {
        k = x->iter_at_head[head] = s->niters;
        s->iters = xrealloc(s->iters, (size_t)(s->niters + 1) * sizeof *s->iters);
        s->iters[s->niters++] = (struct sx_iteration){
            .thread = x->t, .head = head, .backjump = here, .repeat = LIT_FALSE,
            .end_regs = xcalloc((size_t)(li->nlive ? li->nlive : 1), sizeof(struct bv)) };
        for (int r = 0; r < li->nlive; r++)
            s->iters[k].end_regs[r] = bv_const(0);
    }
    struct sx_iteration *it = &s->iters[k];
    it->backjump = here;
    it->repeat = cnf_or(x->c, it->repeat, repeat);
    for (int r = 0; r < li->nlive; r++)
        it->end_regs[r] = bv_ite(x->c, leave, st->regs[li->live_written[r]], it->end_regs[r]);
    s->halt_at[x->t][here] = cnf_or(x->c, s->halt_at[x->t][here], repeat);
}

/* Executes micro-op i under guard and passes control on. */
static void step(struct tctx *x, int i, lit guard, struct state *st)
{
    const struct pthread *pt = &x->p->threads[x->t];
    const struct uop *u = &pt->code[i];
    const struct instr *in = u->in;
    struct symexec *s = x->s;
    lit fall = guard;
    if (u->kind == U_LOOP_HEAD) {
        take_snapshot(x, st, i);
    } else if (u->kind == U_BACKJUMP) {
        lit cond = in->kind == I_GOTO ? LIT_TRUE
                 : symexec_cmp(x->c, in->cmp, operand(st, &in->a), operand(st, &in->b));
        if (in->kind == I_BRANCH)
            note_branch(x, st, in, guard);
        lit taken = cnf_and(x->c, guard, cond);
        lit spin = spin_at(x, st, i, taken);
        lit onward = cnf_and(x->c, taken, -spin);
        lit repeat = LIT_FALSE, leave = onward;
        if ((x->mode & SX_MAY_REPEAT) && program_previous_copy(pt, u->head) >= 0 && onward != LIT_FALSE) {
            repeat = cnf_and(x->c, onward, cnf_var(x->c));
            onward = cnf_and(x->c, onward, -repeat);
            s->repeats[x->t] = cnf_or(x->c, s->repeats[x->t], repeat);
        }
        record_iteration(x, st, u->head, i, leave, repeat);
        s->went_back[x->t][i] = leave;
        if (u->target == TARGET_BOUND)
            s->bound_hit[x->t] = cnf_or(x->c, s->bound_hit[x->t], onward);
        else
            add_edge(x, i, u->target, onward, st);
        s->spins[x->t] = cnf_or(x->c, s->spins[x->t], spin);
        add_edge(x, i, u->exit, cnf_and(x->c, guard, -cond), st);
        fall = LIT_FALSE;
    } else {
        switch (in->kind) {
        case I_LOAD: case I_STORE: case I_RMW:
            exec_memory(x, st, u, guard);
            break;
        case I_LOCAL: case I_ANY:
            exec_local(x, st, in);
            break;
        case I_BRANCH: {
            lit cond = symexec_cmp(x->c, in->cmp, operand(st, &in->a), operand(st, &in->b));
            note_branch(x, st, in, guard);
            add_edge(x, i, u->target, cnf_and(x->c, guard, cond), st);
            fall = cnf_and(x->c, guard, -cond);
            break;
        }
        case I_GOTO:
            add_edge(x, i, u->target, guard, st);
            fall = LIT_FALSE;
            break;
        case I_BARRIER: {
            int e = u->first_event;
            s->cf[e] = guard;
            s->exec[e] = guard == LIT_FALSE ? LIT_FALSE : cnf_var(x->c);
            cnf_imply(x->c, s->exec[e], guard);
            s->operand[e] = in->has_bar_id ? operand(st, &in->bar_id) : bv_const(0);
            s->quorum[e] = in->has_bar_quorum ? operand(st, &in->bar_quorum) : bv_const(0);
            mark_ctrl(x, e);
            fall = s->exec[e];
            break;
        }
        case I_LABEL:
            break;
        default: {   /* fences and device operations */
            int e = u->first_event;
            for (int k = 0; k < u->nevents; k++) {
                s->cf[e + k] = guard;
                s->exec[e + k] = guard;
                mark_ctrl(x, e + k);
            }
            break;
        }
        }
    }
    add_edge(x, i, i + 1, fall, st);
}

/* With SX_MAY_HALT: the scheduler may stop the thread for good before
 * micro-op i (i = ncode: at its end). */
static lit maybe_halt(struct tctx *x, lit guard, int i)
{
    if (!(x->mode & SX_MAY_HALT) || guard == LIT_FALSE)
        return guard;
    lit stop = cnf_and(x->c, guard, cnf_var(x->c));
    lit *at = &x->s->halt_at[x->t][i];
    *at = cnf_or(x->c, *at, stop);
    x->s->halted[x->t] = cnf_or(x->c, x->s->halted[x->t], stop);
    return cnf_and(x->c, guard, -stop);
}

/* Places the per-micro-op and per-register arrays of x for n micro-ops in
 * block (NULL: measures); returns the block's size. */
static size_t tctx_layout(struct tctx *x, int n, char *block)
{
    struct xblock b = { block, 0 };
    size_t ops = (size_t)n + 1;
    x->in = xblock_take(&b, ops, sizeof *x->in);
    x->nin = xblock_take(&b, ops, sizeof *x->nin);
    x->capin = xblock_take(&b, ops, sizeof *x->capin);
    x->snapshot = xblock_take(&b, ops, sizeof *x->snapshot);
    x->entries = xblock_take(&b, ops, sizeof *x->entries);
    x->nentries = xblock_take(&b, ops, sizeof *x->nentries);
    x->iter_at_head = xblock_take(&b, ops, sizeof *x->iter_at_head);
    x->ctrl = xblock_take(&b, (size_t)x->nev, sizeof *x->ctrl);
    x->scratch = xblock_take(&b, (size_t)x->nev + 1, sizeof *x->scratch);
    x->dirty = xblock_take(&b, (size_t)x->nregs + 1, sizeof *x->dirty);
    x->is_dirty = xblock_take(&b, (size_t)x->nregs + 1, sizeof *x->is_dirty);
    return b.size;
}

static void run_thread(struct cnf *c, const struct program *p, struct symexec *s, int t, int mode,
                       const struct read_domain *dom, struct spares *spare)
{
    const struct pthread *pt = &p->threads[t];
    struct tctx x = { .c = c, .p = p, .s = s, .t = t, .mode = mode, .dom = dom, .nregs = pt->src->nregs,
                      .nev = pt->nevents, .first = pt->first_event, .spare = spare };
    int n = pt->ncode;
    for (int i = 0; i <= n; i++)
        s->halt_at[t][i] = s->went_back[t][i] = LIT_FALSE;
    x.block = xcalloc(1, tctx_layout(&x, n, NULL));
    tctx_layout(&x, n, x.block);
    for (int q = 0; q < x.nev; q++)
        x.ctrl[q] = LIT_FALSE;
    for (int i = 0; i <= n; i++)
        x.iter_at_head[i] = -1;
    x.dead = state_new(&x);
    struct state st = state_new(&x);
    for (int r = 0; r < x.nregs; r++)
        st.regs[r] = bv_const(pt->src->reg_has_init[r] ? pt->src->reg_init[r] : 0);
    s->started[t] = maybe_halt(&x, LIT_TRUE, 0);
    add_edge(&x, -1, 0, s->started[t], &st);
    state_free(&x, &st);
    for (int i = 0; i < n; i++) {
        struct state cur;
        lit guard = merge_incoming(&x, i, &cur);
        if (pt->code[i].nevents > 0)
            guard = maybe_halt(&x, guard, i);
        step(&x, i, guard, &cur);
        state_free(&x, &cur);
    }
    struct state end;
    s->terminated[t] = maybe_halt(&x, merge_incoming(&x, n, &end), n);
    memcpy(s->final_regs[t], end.regs, (size_t)x.nregs * sizeof *end.regs);
    state_free(&x, &end);
    state_give_back(&x, &x.dead);
    for (int i = 0; i <= n; i++) {
        free(x.in[i]);
        free(x.snapshot[i]);
        for (int k = 0; k < x.nentries[i]; k++)
            free(x.entries[i][k].regs);
        free(x.entries[i]);
    }
    free(x.block);
}

/* Frees the allocations kept in sp. */
static void spares_free(struct spares *sp)
{
    for (int k = 0; k < sp->nstates; k++)
        free(sp->states[k]);
    free(sp->states);
    for (int k = 0; k < sp->nedges; k++)
        free(sp->edges[k].edges);
    free(sp->edges);
}

/* Places the arrays of s (per event, per thread and per thread's micro-op
 * or register) in block (NULL: measures); returns the block's size. */
static size_t symexec_layout(const struct program *p, struct symexec *s, char *block)
{
    struct xblock b = { block, 0 };
    size_t n = (size_t)p->nevents, nt = (size_t)(p->nthreads ? p->nthreads : 1);
    s->cf = xblock_take(&b, n, sizeof *s->cf);
    s->in_spin = xblock_take(&b, n, sizeof *s->in_spin);
    s->exec = xblock_take(&b, n, sizeof *s->exec);
    s->any = xblock_take(&b, (size_t)p->lit->nanys + 1, sizeof *s->any);
    s->terminated = xblock_take(&b, nt, sizeof *s->terminated);
    s->bound_hit = xblock_take(&b, nt, sizeof *s->bound_hit);
    s->spins = xblock_take(&b, nt, sizeof *s->spins);
    s->halted = xblock_take(&b, nt, sizeof *s->halted);
    s->started = xblock_take(&b, nt, sizeof *s->started);
    s->repeats = xblock_take(&b, nt, sizeof *s->repeats);
    s->halt_at = xblock_take(&b, nt, sizeof *s->halt_at);
    s->went_back = xblock_take(&b, nt, sizeof *s->went_back);
    s->final_regs = xblock_take(&b, nt, sizeof *s->final_regs);
    for (int t = 0; t < p->nthreads; t++) {
        const struct pthread *pt = &p->threads[t];
        lit *halt_at = xblock_take(&b, (size_t)pt->ncode + 1, sizeof *halt_at);
        lit *went_back = xblock_take(&b, (size_t)pt->ncode + 1, sizeof *went_back);
        struct bv *final_regs = xblock_take(&b, (size_t)pt->src->nregs, sizeof *final_regs);
        if (block) {
            s->halt_at[t] = halt_at;
            s->went_back[t] = went_back;
            s->final_regs[t] = final_regs;
        }
    }
    return b.size;
}

void symexec_run(struct cnf *c, const struct program *p, int mode, struct symexec *s)
{
    int n = p->nevents;
    s->block = xcalloc(1, symexec_layout(p, s, NULL));
    symexec_layout(p, s, s->block);
    s->val = xrealloc(NULL, 3 * ((size_t)n + 1) * sizeof *s->val);   /* one block, set below, not zeroed */
    s->operand = s->val + n + 1;
    s->quorum = s->operand + n + 1;
    for (int k = 0; k < p->lit->nanys; k++)
        s->any[k] = bv_fresh(c);
    const struct bv zero = bv_const(0);
    for (int e = 0; e <= n; e++)   /* a barrier's operand and quorum are its own (step) */
        s->val[e] = s->operand[e] = s->quorum[e] = zero;
    for (int e = 0; e < n; e++) {
        bool init = p->events[e].kind == EV_INIT;
        s->cf[e] = s->exec[e] = lit_of(init);
        s->in_spin[e] = LIT_FALSE;
        if (init)
            s->val[e] = bv_const(p->lit->locs[p->events[e].loc].init);
    }
    rel_builder_init(&s->data);
    rel_builder_init(&s->ctrl);
    s->niters = 0;
    s->iters = NULL;
    struct read_domain dom;
    read_domain_build(p, &dom);
    struct spares spare = { 0 };
    struct state measured;
    for (int t = 0; t < p->nthreads; t++) {
        size_t size = state_layout(p->threads[t].src->nregs, NULL, &measured);
        if (size > spare.state_size)
            spare.state_size = size;
    }
    for (int t = 0; t < p->nthreads; t++) {
        s->bound_hit[t] = s->spins[t] = s->halted[t] = s->repeats[t] = LIT_FALSE;
        run_thread(c, p, s, t, mode, &dom, &spare);
    }
    spares_free(&spare);
    read_domain_free(&dom);
}

void symexec_free(struct symexec *s)
{
    free(s->block);
    free(s->val);   /* with operand and quorum */
    rel_builder_free(&s->data);
    rel_builder_free(&s->ctrl);
    for (int i = 0; i < s->niters; i++)
        free(s->iters[i].end_regs);
    free(s->iters);
}
