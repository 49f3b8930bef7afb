/* Concrete interpretation by three-valued fixpoint: every round re-runs
 * each thread with what is known so far (values of the writes read,
 * barrier arrivals), but for a thread whose last walk learned nothing and
 * saw all that is known (it would walk the same again); unknowns stay
 * unknown until a later round resolves them.  A choice that never
 * resolves is a value cycle (thin air). */
#include "bmc/concrete/interp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/exec.h"
#include "util/xalloc.h"

enum tri { UNK = 0, NO, YES };

struct ictx {
    const struct program *p;
    const struct choice *ch;
    struct concrete *out;
    enum tri *cf, *ex;
    bool *vknown, *idknown, *occknown;
    bool *deadlocked;        /* per barrier: waits in a cycle of barriers, never passes */
    int32_t *quorums;        /* per thread and one more: barrier_passes's scratch */
    bool changed;
    unsigned long learned;   /* facts learned so far (each sets changed) */
    /* per thread, of its last walk: it learned nothing, began and ended
     * after learned facts, and ended complete (walk_thread's *complete) */
    bool *quiet, *complete;
    bool *settled;           /* per thread: its last walk read only values known
                                then and met no barrier, so any later walk would
                                be the same walk (facts known stay as they are) */
    unsigned long *walked_at;
};

struct ireg { bool known; int32_t v; };

/* One walk of a thread: where it is and what it knows, in scratch that
 * scratch_alloc makes once per run for the largest thread. */
struct walk {
    struct ictx *x;
    const struct pthread *pt;
    int t, nev, first, nregs;
    int pc, stop;            /* the micro-op to run; the one ch->stop_at says it stops before */
    struct ireg *regs;
    bool *dep;               /* dep[r * nev + k] */
    bool *ctrl;              /* per thread event */
    bool has_ctrl;           /* some ctrl[k] is set */
    struct ireg *snap;       /* per loop head: live registers as its iteration
                                was entered */
    int *entry;              /* per loop head: where its iteration was entered */
    bool *row;               /* per thread event: run_local's new dependencies */
    size_t cleared;          /* the bytes from dep to the end of entry (laid out in that
                                order), zeroed at once at the start of each walk */
    bool unsettled;          /* the walk read a value not known yet, or ran a barrier
                                (which reads what other threads did) */
};

/* How one step of a walk ends: on to the next micro-op, the thread ran off
 * its end or stopped for good, the step needs what is not known yet, or
 * the choice is no execution. */
enum step { STEP_NEXT, STEP_EXIT, STEP_STUCK, STEP_UNKNOWN, STEP_BROKEN };

/* Lays ch's arrays for p out in storage (NULL: only counts); the bytes
 * they take. */
static size_t choice_layout(struct choice *ch, const struct program *p, char *storage)
{
    struct xblock b = { storage, 0 };
    size_t n = (size_t)p->nevents;
    ch->rf = xblock_take(&b, n, sizeof *ch->rf);
    ch->sync = xblock_take(&b, n, sizeof *ch->sync);
    ch->co = xblock_take(&b, n * n, sizeof *ch->co);
    ch->sf = xblock_take(&b, n * n, sizeof *ch->sf);
    ch->final_pick = xblock_take(&b, (size_t)p->lit->nlocs, sizeof *ch->final_pick);
    ch->stop_at = xblock_take(&b, (size_t)p->nthreads, sizeof *ch->stop_at);
    ch->val_hint = xblock_take(&b, n, sizeof *ch->val_hint);
    ch->any_val = xblock_take(&b, (size_t)p->lit->nanys, sizeof *ch->any_val);
    return b.size;
}

void choice_init(struct choice *ch, const struct program *p)
{
    ch->storage = xcalloc(choice_layout(ch, p, NULL) + 1, 1);
    choice_layout(ch, p, ch->storage);
    for (int e = 0; e < p->nevents; e++)
        ch->rf[e] = -1;
    for (int l = 0; l < p->lit->nlocs; l++)
        ch->final_pick[l] = -1;
    for (int t = 0; t < p->nthreads; t++)
        ch->stop_at[t] = -1;
    ch->has_hint = false;
}

void choice_copy(const struct choice *ch, const struct program *p, struct choice *out)
{
    size_t size = choice_layout(out, p, NULL);
    out->storage = memcpy(xrealloc(NULL, size + 1), ch->storage, size);   /* every array in one block */
    choice_layout(out, p, out->storage);
    out->has_hint = ch->has_hint;
}

void choice_free(struct choice *ch)
{
    free(ch->storage);
    ch->storage = NULL;
}

static int32_t apply_binop(enum binop op, int32_t a, int32_t b)
{
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    switch (op) {
    case OP_ADD: return (int32_t)(ua + ub);
    case OP_SUB: return (int32_t)(ua - ub);
    case OP_MUL: return (int32_t)(ua * ub);
    case OP_DIV:
        if (b == 0)
            return a >= 0 ? -1 : 1;
        if (a == INT32_MIN && b == -1)
            return INT32_MIN;
        return a / b;
    case OP_AND: return (int32_t)(ua & ub);
    case OP_OR: return (int32_t)(ua | ub);
    case OP_XOR: return (int32_t)(ua ^ ub);
    case OP_EXCH: case OP_CAS: return b;
    case OP_SMIN: return a < b ? a : b;
    case OP_SMAX: return a > b ? a : b;
    case OP_UMIN: return ua < ub ? a : b;
    case OP_UMAX: return ua > ub ? a : b;
    }
    return b;
}

static struct ireg operand(const struct walk *w, const struct operand *o)
{
    if (o->is_reg)
        return w->regs[o->reg];
    return (struct ireg){ true, (int32_t)o->value };
}

/* The events of the thread that register operand o depends on (its row of
 * dep); NULL when o is absent or no register. */
static const bool *dep_row(const struct walk *w, const struct operand *o)
{
    return o && o->is_reg ? &w->dep[o->reg * w->nev] : NULL;
}

/* Something new is known. */
static void learned(struct ictx *x)
{
    x->changed = true;
    x->learned++;
}

static void learn(struct ictx *x, enum tri *slot, enum tri v)
{
    if (*slot == UNK && v != UNK) {
        *slot = v;
        learned(x);
    }
}

static void learn_value(struct ictx *x, int e, struct ireg v)
{
    if (v.known && !x->vknown[e]) {
        x->vknown[e] = true;
        x->out->val[e] = v.v;
        learned(x);
    }
}

/* Marks event e reached and executed, with its control dependencies. */
static void reach(struct walk *w, int e, bool executed)
{
    struct ictx *x = w->x;
    learn(x, &x->cf[e], YES);
    learn(x, &x->ex[e], executed ? YES : NO);
    int n = x->p->nevents;
    for (int k = 0; executed && w->has_ctrl && k < w->nev; k++)
        if (w->ctrl[k])
            x->out->ctrl[(w->first + k) * n + e] = true;
}

static void set_reg(struct walk *w, int r, struct ireg v, int dep_event)
{
    if (r < 0)
        return;
    w->regs[r] = v;
    bool *row = &w->dep[r * w->nev];
    memset(row, 0, (size_t)w->nev * sizeof *row);
    if (dep_event >= w->first && dep_event < w->first + w->nev)
        row[dep_event - w->first] = true;
}

/* The value a read gets from its chosen write; false if the choice is broken. */
static bool read_value(struct walk *w, int e, struct ireg *v)
{
    struct ictx *x = w->x;
    int src = x->ch->rf[e];
    v->known = false;
    if (src < 0 || !base_rf_candidate(x->p, src, e)) {
        snprintf(x->out->why, sizeof x->out->why, "read %d has no valid write to read from", e);
        return false;
    }
    if (x->ex[src] == NO) {
        snprintf(x->out->why, sizeof x->out->why, "read %d reads from unexecuted write %d", e, src);
        return false;
    }
    if (x->ex[src] == YES && x->vknown[src]) {
        v->known = true;
        v->v = x->out->val[src];
    }
    w->unsettled |= !v->known;
    return true;
}

static void write_data_deps(struct walk *w, int e, const struct operand *a, const struct operand *b,
                            int self_read)
{
    int n = w->x->p->nevents;
    bool *to_e = &w->x->out->data[(size_t)w->first * n + e];   /* (first + k, e) at to_e[k * n] */
    const bool *rows[2] = { dep_row(w, a), dep_row(w, b) };   /* each operand's row a pass of its own */
    for (int o = 0; o < 2; o++)
        for (int k = 0; rows[o] && k < w->nev; k++)
            if (rows[o][k])
                to_e[(size_t)k * n] = true;
    if (self_read >= w->first && self_read < w->first + w->nev)
        to_e[(size_t)(self_read - w->first) * n] = true;
}

/* Runs a memory instruction; false if the choice is broken. */
static bool run_memory(struct walk *w, const struct uop *u)
{
    const struct instr *in = u->in;
    int e = u->first_event;
    bool if_equal = in->kind == I_RMW && in->op == OP_CAS && in->cas_if_equal;
    for (int k = 0; k < (if_equal ? 1 : u->nevents); k++)
        reach(w, e + k, true);
    if (in->kind == I_STORE) {
        learn_value(w->x, e, operand(w, &in->a));
        write_data_deps(w, e, &in->a, NULL, -1);
        return true;
    }
    struct ireg old = { false, 0 };
    if (!read_value(w, e, &old))
        return false;
    learn_value(w->x, e, old);
    if (!old.known && w->x->vknown[e])   /* a value a cycle's hint decided */
        old = (struct ireg){ true, w->x->out->val[e] };
    if (in->kind == I_RMW) {
        struct ireg a = operand(w, &in->a), b = operand(w, &in->b), nv = { false, 0 };
        if (if_equal) {   /* writes b when equal, else nothing; undecided: unknown */
            if (old.known && a.known) {
                reach(w, e + 1, old.v == a.v);
                if (old.v == a.v)
                    nv = b;
            }
        } else if (in->op == OP_CAS) {
            if (old.known && a.known && (old.v != a.v || b.known))
                nv = (struct ireg){ true, old.v == a.v ? b.v : old.v };
        } else if (in->op == OP_EXCH) {
            nv = a;
        } else if (old.known && a.known) {
            nv = (struct ireg){ true, apply_binop(in->op, old.v, a.v) };
        }
        learn_value(w->x, e + 1, nv);
        write_data_deps(w, e + 1, &in->a, in->op == OP_CAS ? &in->b : NULL,
                        in->op == OP_EXCH ? -1 : e);
    }
    set_reg(w, in->dst, old, e);
    return true;
}

static void run_local(struct walk *w, const struct instr *in)
{
    struct ireg a = operand(w, &in->a), b = operand(w, &in->b);
    if (in->kind == I_ANY)
        a = (struct ireg){ true, w->x->ch->any_val[in->a.value] };
    struct ireg v = { false, 0 };
    if (in->op == OP_EXCH)
        v = a;
    else if (a.known && b.known)
        v = (struct ireg){ true, apply_binop(in->op, a.v, b.v) };
    const bool *da = dep_row(w, &in->a), *db = in->op != OP_EXCH ? dep_row(w, &in->b) : NULL;
    for (int k = 0; k < w->nev; k++)
        w->row[k] = (da && da[k]) || (db && db[k]);
    set_reg(w, in->dst, v, -1);
    for (int k = 0; k < w->nev; k++)
        w->dep[in->dst * w->nev + k] = w->row[k];
}

/* Whether member m blocks barrier b while m is unreached: only a constant id
 * equal to b's (or an unnamed barrier) does. */
static bool unreached_blocks(struct ictx *x, int b, int m)
{
    const struct instr *mi = x->p->events[m].in;
    if (!mi->has_bar_id)
        return true;
    return !mi->bar_id.is_reg && x->out->bar_id[b] == (int32_t)mi->bar_id.value;
}

/* Whether reached member m, whose id and occurrence are known, is the same
 * dynamic barrier as b: the same id (when named) and the same occurrence. */
static bool same_instance(const struct ictx *x, int b, int m)
{
    const struct concrete *o = x->out;
    return (!x->p->events[b].in->has_bar_id || o->bar_id[m] == o->bar_id[b]) &&
           o->bar_occ[m] == o->bar_occ[b];
}

/* How thread t stands towards barrier b of another thread: whether it reached
 * the same dynamic barrier (*met, with that member in *member), whether it
 * may still (*unknown), and whether b must wait for it (*owes: it has a
 * member that blocks b when unreached). */
static void thread_at_barrier(struct ictx *x, int b, int t, bool *met, bool *unknown, bool *owes,
                              int *member)
{
    const struct program *p = x->p;
    const struct pthread *pt = &p->threads[t];
    *met = *unknown = *owes = false;
    *member = -1;
    for (int m = pt->first_event; m < pt->first_event + pt->nevents; m++) {
        if (!exec_barriers_meet(p, &p->events[b], &p->events[m]))
            continue;
        *owes |= unreached_blocks(x, b, m);
        if (x->cf[m] == UNK || (x->cf[m] == YES && !x->occknown[m]))
            *unknown = true;
        else if (x->cf[m] == YES && same_instance(x, b, m)) {
            *met = true;
            *member = m;
        }
    }
}

/* Whether a quorum barrier with quorum qb belongs to the largest set of the
 * arrivals q[0..count) (b's own included) whose every quorum is at most
 * its size (a member without quorum has quorum 0): some threshold t >= qb
 * has at least t arrivals of quorum at most t.  Such sets are closed under
 * union, and more arrivals only make the set larger (exec.c,
 * encode_barrier). */
static bool in_completing_set(const int32_t *q, int count, int32_t qb)
{
    if (qb <= 0)
        return true;
    for (int t = 1; t <= count; t++) {
        int within = 0;
        for (int i = 0; i < count; i++)
            within += q[i] <= t;
        if (within >= t && qb <= t)
            return true;
    }
    return false;
}

/* Decides whether reached barrier b passes: YES, NO (blocked) or UNK.  A
 * barrier meets one occurrence per thread: the k-th barrier of its kind and
 * id that each thread reaches. */
static enum tri barrier_passes(struct ictx *x, int b)
{
    const struct program *p = x->p;
    const struct event *eb = &p->events[b];
    const struct instr *in = eb->in;
    if (x->deadlocked[b])
        return NO;
    if (in->arrive && !in->has_bar_quorum)
        return YES;   /* bar.arrive signals its arrival and never waits */
    int count = 1;    /* b itself */
    int32_t *q = x->quorums;   /* q[0 .. count) written before read */
    q[0] = x->out->bar_quorum[b];
    bool unknown = false, blocked = false;
    for (int t = 0; t < p->nthreads; t++) {
        if (t == eb->thread)
            continue;
        bool met, unk, owes;
        int m;
        thread_at_barrier(x, b, t, &met, &unk, &owes, &m);
        if (met)
            q[count++] = x->out->bar_quorum[m];
        if (!met && unk && (owes || in->has_bar_quorum))
            unknown = true;   /* without a quorum only a thread that owes b matters
                               * (exec.c, encode_barrier: met or not owes) */
        else if (!met && owes)
            blocked = true;
    }
    bool completes = in->has_bar_quorum && in_completing_set(q, count, x->out->bar_quorum[b]);
    if (!in->has_bar_quorum)
        return unknown ? UNK : blocked ? NO : YES;
    if (completes)
        return YES;   /* more arrivals would only add to the set */
    return unknown ? UNK : NO;
}

/* The occurrence number of reached barrier e: the barriers of its kind and
 * id its thread reached before it; false while some id is unknown. */
static bool barrier_occurrence(struct ictx *x, int e)
{
    const struct program *p = x->p;
    const struct pthread *pt = &p->threads[p->events[e].thread];
    int32_t occ = 0;
    for (int o = pt->first_event; o < e; o++) {
        if (x->cf[o] != YES || !exec_barriers_meet(p, &p->events[e], &p->events[o]))
            continue;
        if (!x->idknown[o])
            return false;
        occ += !p->events[e].in->has_bar_id || x->out->bar_id[o] == x->out->bar_id[e];
    }
    x->out->bar_occ[e] = occ;
    if (!x->occknown[e]) {
        x->occknown[e] = true;
        learned(x);
    }
    return true;
}

/* Runs barrier micro-op u; returns YES (passed), NO (stuck) or UNK. */
static enum tri run_barrier(struct walk *w, const struct uop *u)
{
    struct ictx *x = w->x;
    int e = u->first_event;
    const struct instr *in = u->in;
    w->unsettled = true;
    learn(x, &x->cf[e], YES);
    struct ireg id = in->has_bar_id ? operand(w, &in->bar_id) : (struct ireg){ true, 0 };
    struct ireg q = in->has_bar_quorum ? operand(w, &in->bar_quorum) : (struct ireg){ true, 0 };
    if (!id.known || !q.known)
        return UNK;
    if (!x->idknown[e]) {
        x->idknown[e] = true;
        x->out->bar_id[e] = id.v;
        x->out->bar_quorum[e] = q.v;
        learned(x);
    }
    if (!barrier_occurrence(x, e))
        return UNK;
    enum tri pass = barrier_passes(x, e);
    if (pass == UNK)
        return UNK;
    reach(w, e, pass == YES);
    return pass;
}

/* Control passes from micro-op `from` (-1: the start) to `to`: records the
 * entry into each loop iteration that `to` is in and `from` is not. */
static void enter(struct walk *w, int from, int to)
{
    const struct pthread *pt = w->pt;
    if (to < 0 || to >= pt->ncode)
        return;
    int h = program_iteration_of(pt, to);
    for (; h >= 0 && h > from; h = pt->code[h].outer) {
        const struct loop_info *li = &pt->loops[pt->code[h].loop];
        for (int k = 0; k < li->nlive; k++)
            w->snap[h * (w->nregs + 1) + k] = w->regs[li->live_written[k]];
        w->entry[h] = to;
    }
}

/* Whether the iteration that started at head had a side effect; UNK if unknown. */
static enum tri iteration_effect(struct walk *w, int head, int here)
{
    const struct pthread *pt = w->pt;
    const struct loop_info *li = &pt->loops[pt->code[here].loop];
    for (int i = head; i < here; i++)
        for (int k = 0; k < pt->code[i].nevents; k++) {
            int e = pt->code[i].first_event + k;
            const struct event *ev = &w->x->p->events[e];
            if ((ev->kind == EV_WRITE
                 || (ev->kind == EV_BARRIER && !program_barrier_alone(w->x->p->lit, ev->thread, ev->in)))
                && w->x->ex[e] == YES)
                return YES;   /* a write, or a barrier passed (an occurrence used up;
                                 one that meets no one uses up nothing) */
        }
    bool unknown = false;
    for (int k = 0; k < li->nlive; k++) {
        struct ireg before = w->snap[head * (w->nregs + 1) + k], now = w->regs[li->live_written[k]];
        if (!before.known || !now.known)
            unknown = true;
        else if (before.v != now.v)
            return YES;
    }
    return unknown ? UNK : NO;
}

/* Whether the taken backjump at here spins: since the thread began an
 * iteration of the loop (this one, or in an irreducible loop an earlier
 * copy) at the label it jumps back to, nothing had an effect. */
static enum tri spins_at(struct walk *w, int here)
{
    const struct pthread *pt = w->pt;
    const struct uop *u = &pt->code[here];
    bool irreducible = pt->loops[u->loop].nentries > 1, unknown = false;
    int h = u->head;
    while (h >= 0) {
        if (w->entry[h] == u->reentry - (u->head - h)) {
            enum tri eff = iteration_effect(w, h, here);
            if (eff == NO)
                return YES;
            unknown |= eff == UNK;
        }
        h = irreducible ? program_previous_copy(pt, h) : -1;
    }
    return unknown ? UNK : NO;
}

static void branch_ctrl(struct walk *w, const struct instr *in)
{
    const bool *da = dep_row(w, &in->a), *db = dep_row(w, &in->b);
    for (int k = 0; k < w->nev; k++) {
        w->ctrl[k] |= (da && da[k]) || (db && db[k]);
        w->has_ctrl |= w->ctrl[k];
    }
}

/* Marks the execution invalid for reason why; returns false. */
bool concrete_fail(struct concrete *out, const char *why)
{
    if (!out->why[0])
        snprintf(out->why, sizeof out->why, "%s", why);
    out->valid = false;
    return false;
}

/* Lays w's scratch for the largest thread of x's program out in b (its
 * base NULL: only counts). */
static void walk_layout(struct walk *w, struct ictx *x, struct xblock *b)
{
    size_t regs = 0, dep = 0, nev = 0, snap = 0, code = 0;
    for (int t = 0; t < x->p->nthreads; t++) {
        const struct pthread *pt = &x->p->threads[t];
        size_t nr = (size_t)pt->src->nregs, ne = (size_t)pt->nevents, nc = (size_t)pt->ncode;
        regs = nr > regs ? nr : regs;
        dep = nr * ne > dep ? nr * ne : dep;
        nev = ne > nev ? ne : nev;
        snap = nc * (nr + 1) > snap ? nc * (nr + 1) : snap;
        code = nc > code ? nc : code;
    }
    *w = (struct walk){ .x = x };
    w->regs = xblock_take(b, regs, sizeof *w->regs);
    w->dep = xblock_take(b, dep, sizeof *w->dep);
    w->ctrl = xblock_take(b, nev, sizeof *w->ctrl);
    w->snap = xblock_take(b, snap, sizeof *w->snap);
    w->entry = xblock_take(b, code, sizeof *w->entry);
    w->cleared = b->base ? (size_t)((char *)(w->entry + code) - (char *)w->dep) : 0;
    w->row = xblock_take(b, nev, sizeof *w->row);
}

/* Puts w at the start of thread t: its initial registers, nothing known. */
static void walk_start(struct walk *w, int t)
{
    const struct pthread *pt = &w->x->p->threads[t];
    const struct thread *th = pt->src;
    w->pt = pt;
    w->t = t;
    w->nev = pt->nevents;
    w->first = pt->first_event;
    w->nregs = th->nregs;
    w->pc = 0;
    w->stop = w->x->ch->stop_at[t];
    memset(w->dep, 0, w->cleared);   /* dep, ctrl, snap and entry, for the largest thread: one call */
    w->has_ctrl = false;
    w->unsettled = false;
    for (int r = 0; r < th->nregs; r++)
        w->regs[r] = (struct ireg){ true, th->reg_has_init[r] ? (int32_t)th->reg_init[r] : 0 };
    enter(w, -1, 0);
}

/* Control passes to micro-op next. */
static enum step go(struct walk *w, int next)
{
    enter(w, w->pc, next);
    w->pc = next;
    return STEP_NEXT;
}

/* The thread stops for good at pc, as how (per thread) records. */
static enum step stuck(struct walk *w, bool *how)
{
    how[w->t] = true;
    return STEP_STUCK;
}

/* Whether branch in is taken (its control dependencies recorded); UNK
 * while an operand is unknown. */
static enum tri branch_taken(struct walk *w, const struct instr *in)
{
    struct ireg a = operand(w, &in->a), b = operand(w, &in->b);
    branch_ctrl(w, in);
    if (!a.known || !b.known)
        return UNK;
    return cmp_holds(in->cmp, a.v, b.v) ? YES : NO;
}

/* A backjump (a loop's conditional or unconditional jump back): leaves the
 * loop, or goes round again unless the iteration spins, the choice says it
 * repeats, or the bound cuts it. */
static enum step step_backjump(struct walk *w, const struct uop *u)
{
    enum tri taken = u->in->kind == I_BRANCH ? branch_taken(w, u->in) : YES;
    if (taken == UNK)
        return STEP_UNKNOWN;
    if (taken == NO && w->pc == w->stop) {
        concrete_fail(w->x->out, "a thread claims to repeat an iteration that leaves its loop");
        return STEP_BROKEN;
    }
    if (taken == NO)
        return go(w, u->exit);
    enum tri spin = spins_at(w, w->pc);
    if (spin == UNK)
        return STEP_UNKNOWN;
    if (spin == YES)
        return stuck(w, w->x->out->spins);
    if (w->pc == w->stop)
        return stuck(w, w->x->out->repeats);
    if (u->target == TARGET_BOUND)
        return stuck(w, w->x->out->bound_hit);
    return go(w, u->target);
}

/* A barrier: passes, waits for ever, or waits on what is not known yet. */
static enum step step_barrier(struct walk *w, const struct uop *u)
{
    enum tri pass = run_barrier(w, u);
    if (pass == YES)
        return go(w, w->pc + 1);
    w->x->out->blocked[w->t] = pass == NO;
    return pass == NO ? STEP_STUCK : STEP_UNKNOWN;
}

/* A branch that is no backjump: to its target or on. */
static enum step step_branch(struct walk *w, const struct uop *u)
{
    enum tri taken = branch_taken(w, u->in);
    if (taken == UNK)
        return STEP_UNKNOWN;
    return go(w, taken == YES ? u->target : w->pc + 1);
}

/* Micro-op u of an instruction that is no backjump. */
static enum step step_instr(struct walk *w, const struct uop *u)
{
    switch (u->in->kind) {
    case I_LOAD: case I_STORE: case I_RMW:
        if (!run_memory(w, u))
            return STEP_BROKEN;
        if (u->nevents > 1 && w->x->ex[u->first_event + 1] == UNK)
            return STEP_UNKNOWN;   /* a CAS whose comparison is not known yet */
        return go(w, w->pc + 1);
    case I_LOCAL: case I_ANY:
        run_local(w, u->in);
        return go(w, w->pc + 1);
    case I_BRANCH:
        return step_branch(w, u);
    case I_GOTO:
        return go(w, u->target);
    case I_BARRIER:
        return step_barrier(w, u);
    case I_LABEL:
        return go(w, w->pc + 1);
    default:
        for (int k = 0; k < u->nevents; k++)
            reach(w, u->first_event + k, true);
        return go(w, w->pc + 1);
    }
}

/* Runs the micro-op at w->pc, or ends the walk past the last one or where
 * the choice says the thread halts. */
static enum step step(struct walk *w)
{
    if (w->pc >= w->pt->ncode)
        return w->pc == w->stop ? stuck(w, w->x->out->halted) : STEP_EXIT;
    const struct uop *u = &w->pt->code[w->pc];
    if (w->pc == w->stop && u->kind != U_BACKJUMP)
        return stuck(w, w->x->out->halted);
    if (u->kind == U_LOOP_HEAD)   /* entries are recorded as control passes (enter) */
        return go(w, w->pc + 1);
    if (u->kind == U_BACKJUMP)
        return step_backjump(w, u);
    return step_instr(w, u);
}

/* Records a walk that ended as res, unless unknown or broken: where the
 * thread stopped, whether it terminated and with which registers, and
 * that what it did not reach never runs. */
static void walk_end(struct walk *w, enum step res)
{
    struct ictx *x = w->x;
    if (res == STEP_UNKNOWN || res == STEP_BROKEN)
        return;
    x->out->stuck_at[w->t] = res == STEP_STUCK ? w->pc : -1;
    if (res == STEP_EXIT)
        x->out->terminated[w->t] = true;
    for (int k = 0; k < w->nev; k++) {   /* everything not reached never runs */
        learn(x, &x->cf[w->first + k], NO);
        learn(x, &x->ex[w->first + k], NO);
    }
    if (res == STEP_EXIT)
        for (int r = 0; r < w->nregs; r++)
            x->out->final_regs[w->t][r] = w->regs[r].v;
}

/* Walks thread t once, step by step; false if the choice is broken,
 * *complete unless a step needed what is not known yet. */
static bool walk_thread(struct walk *w, int t, bool *complete)
{
    enum step res = STEP_NEXT;
    walk_start(w, t);
    while (res == STEP_NEXT)
        res = step(w);
    walk_end(w, res);
    *complete = res != STEP_UNKNOWN;
    return res != STEP_BROKEN;
}

/* Lays out's arrays out in storage (NULL: only counts); the bytes they take. */
static size_t concrete_layout(const struct program *p, struct concrete *out, char *storage)
{
    struct xblock b = { storage, 0 };
    size_t n = (size_t)p->nevents, nt = (size_t)p->nthreads;
    out->exec = xblock_take(&b, n, sizeof *out->exec);
    out->cf = xblock_take(&b, n, sizeof *out->cf);
    out->val = xblock_take(&b, n, sizeof *out->val);
    out->bar_id = xblock_take(&b, n, sizeof *out->bar_id);
    out->bar_quorum = xblock_take(&b, n, sizeof *out->bar_quorum);
    out->bar_occ = xblock_take(&b, n, sizeof *out->bar_occ);
    out->data = xblock_take(&b, n * n, sizeof *out->data);
    out->ctrl = xblock_take(&b, n * n, sizeof *out->ctrl);
    out->terminated = xblock_take(&b, nt, sizeof *out->terminated);
    out->bound_hit = xblock_take(&b, nt, sizeof *out->bound_hit);
    out->spins = xblock_take(&b, nt, sizeof *out->spins);
    out->repeats = xblock_take(&b, nt, sizeof *out->repeats);
    out->blocked = xblock_take(&b, nt, sizeof *out->blocked);
    out->halted = xblock_take(&b, nt, sizeof *out->halted);
    out->stuck_at = xblock_take(&b, nt, sizeof *out->stuck_at);
    out->final_regs = xblock_take(&b, nt, sizeof *out->final_regs);
    for (size_t t = 0; t < nt; t++) {
        int32_t *regs = xblock_take(&b, (size_t)p->threads[t].src->nregs, sizeof **out->final_regs);
        if (storage)
            out->final_regs[t] = regs;
    }
    out->final_mem = xblock_take(&b, (size_t)p->lit->nlocs, sizeof *out->final_mem);
    return b.size;
}

static void concrete_alloc(const struct program *p, struct concrete *out)
{
    memset(out, 0, sizeof *out);
    out->n = p->nevents;
    out->storage = xcalloc(concrete_layout(p, out, NULL) + 1, 1);
    concrete_layout(p, out, out->storage);
}

void concrete_free(const struct program *p, struct concrete *x)
{
    (void)p;   /* one block holds every array, whatever p's size */
    free(x->storage);
    x->storage = NULL;
}

/* Forgets how thread t ended in an earlier walk (its next walk records
 * it anew). */
static void forget_thread_ends(struct concrete *out, int t)
{
    out->terminated[t] = out->spins[t] = out->repeats[t] = false;
    out->blocked[t] = out->halted[t] = out->bound_hit[t] = false;
}

/* Walks thread t in a round, unless its last walk learned nothing and
 * nothing was learned since: a walk is a function of what is known, so
 * it would do the same again (and its ends, recorded then, stand); false
 * if the choice is broken, *complete as walk_thread's. */
static bool round_walk(struct walk *w, struct ictx *x, int t, bool *complete)
{
    if (x->settled[t] || (x->quiet[t] && x->walked_at[t] == x->learned)) {
        *complete = x->complete[t];
        return true;
    }
    unsigned long before = x->learned;
    forget_thread_ends(x->out, t);
    bool ok = walk_thread(w, t, complete);
    x->quiet[t] = x->learned == before;
    x->walked_at[t] = x->learned;
    x->complete[t] = *complete;
    x->settled[t] = ok && *complete && !w->unsettled;
    return ok;
}

/* Whether some executed access has no known value yet. */
static bool values_missing(const struct ictx *x)
{
    for (int e = 0; e < x->p->nevents; e++)
        if (x->ex[e] == YES && event_is_mem(&x->p->events[e]) && !x->vknown[e])
            return true;
    return false;
}

/* When the fixpoint stalls short of a complete run: first the lowest read
 * whose value only a value cycle decides takes the choice's hint (the rest
 * of its cycle follows from it, and every read is checked against its
 * write at the end); failing that,
 * the barriers still undecided wait for each other in a cycle, so none of
 * them ever passes (the least fixpoint).  Returns false when neither
 * applies. */
static bool resolve_stall(struct ictx *x)
{
    const struct program *p = x->p;
    bool progress = false;
    for (int e = 0; e < p->nevents; e++)
        if (p->events[e].kind == EV_READ && x->ex[e] == YES && !x->vknown[e]) {
            if (!x->ch->has_hint)
                return false;
            x->vknown[e] = true;
            x->out->val[e] = x->ch->val_hint[e];
            x->learned++;
            return true;
        }
    for (int e = 0; e < p->nevents; e++)
        if (p->events[e].kind == EV_BARRIER && x->cf[e] == YES && x->ex[e] == UNK) {
            x->deadlocked[e] = true;
            progress = true;
        }
    x->learned += progress;
    return progress;
}

/* Lays x's per-event arrays and barrier_passes's scratch out in b (its
 * base NULL: only counts). */
static void ictx_layout(struct ictx *x, struct xblock *b)
{
    size_t n = (size_t)x->p->nevents;
    x->cf = xblock_take(b, n, sizeof *x->cf);
    x->ex = xblock_take(b, n, sizeof *x->ex);
    x->vknown = xblock_take(b, n, sizeof *x->vknown);
    x->idknown = xblock_take(b, n, sizeof *x->idknown);
    x->occknown = xblock_take(b, n, sizeof *x->occknown);
    x->deadlocked = xblock_take(b, n, sizeof *x->deadlocked);
    x->quorums = xblock_take(b, (size_t)x->p->nthreads + 1, sizeof *x->quorums);
    x->quiet = xblock_take(b, (size_t)x->p->nthreads, sizeof *x->quiet);
    x->complete = xblock_take(b, (size_t)x->p->nthreads, sizeof *x->complete);
    x->settled = xblock_take(b, (size_t)x->p->nthreads, sizeof *x->settled);
    x->walked_at = xblock_take(b, (size_t)x->p->nthreads, sizeof *x->walked_at);
}

/* Allocates x's arrays and w's scratch, zeroed, all at once; returns the
 * allocation (one free). */
static char *scratch_alloc(struct ictx *x, struct walk *w)
{
    struct xblock b = { NULL, 0 };
    ictx_layout(x, &b);
    walk_layout(w, x, &b);
    b = (struct xblock){ xcalloc(b.size + 1, 1), 0 };
    ictx_layout(x, &b);
    walk_layout(w, x, &b);
    return b.base;
}

void interp_execute(const struct program *p, const struct choice *ch, struct concrete *out)
{
    int n = p->nevents;
    concrete_alloc(p, out);
    struct ictx x = { .p = p, .ch = ch, .out = out };
    struct walk w;
    char *scratch = scratch_alloc(&x, &w);
    for (int e = 0; e < n; e++)
        if (p->events[e].kind == EV_INIT) {
            x.cf[e] = x.ex[e] = YES;
            x.vknown[e] = true;
            out->val[e] = (int32_t)p->lit->locs[p->events[e].loc].init;
        }
    out->valid = true;
    bool all_complete = false;
    do {   /* the rounds end with one that learns nothing: its walks record how each thread ends */
        x.changed = true;
        while (out->valid && x.changed) {
            x.changed = false;
            all_complete = true;
            for (int t = 0; t < p->nthreads && out->valid; t++) {
                bool complete;
                if (!round_walk(&w, &x, t, &complete))
                    out->valid = false;
                all_complete &= complete;
            }
        }
    } while (out->valid && (!all_complete || values_missing(&x)) && resolve_stall(&x));
    if (out->valid) {
        for (int e = 0; e < n; e++) {
            out->cf[e] = x.cf[e] == YES;
            out->exec[e] = x.ex[e] == YES;
            if (out->exec[e] && event_is_mem(&p->events[e]) && !x.vknown[e])
                all_complete = false;
        }
        if (!all_complete) {
            out->value_cycle = true;
            concrete_fail(out, "values depend on themselves (a value cycle), with no value given for it");
        }
    }
    for (int e = 0; out->valid && e < n; e++)
        if (p->events[e].kind == EV_READ && out->exec[e] && out->val[e] != out->val[ch->rf[e]])
            concrete_fail(out, "a read's value differs from the value of the write it reads");
    if (out->valid) {
        for (int e = 0; e < n; e++)
            if (p->events[e].kind == EV_READ && !out->exec[e] && ch->rf[e] >= 0)
                concrete_fail(out, "an unexecuted read reads from a write");
    }
    free(scratch);
}

int32_t interp_binop(enum binop op, int32_t a, int32_t b)
{
    return apply_binop(op, a, b);
}

bool interp_cmp(enum cmpop op, int32_t a, int32_t b)
{
    return cmp_holds(op, a, b);
}
