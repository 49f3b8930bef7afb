/* The explicit-state explorer: the interleaving semantics of the source
 * instructions, breadth first, with a hash set of states. */
#include "bmc/concrete/states.h"

#include <stdlib.h>
#include <string.h>

#include "bmc/concrete/interp.h"
#include "util/xalloc.h"

/* The registers instruction x reads, as up to two indices (-1: none). */
static void reads(const struct instr *x, int r[2])
{
    r[0] = x->a.is_reg ? x->a.reg : -1;
    r[1] = x->b.is_reg ? x->b.reg : -1;
}

/* The register instruction x writes, -1 if none. */
static int writes(const struct instr *x)
{
    bool has = x->kind == I_LOAD || x->kind == I_RMW || x->kind == I_LOCAL;
    return has ? x->dst : -1;
}

/* Words of a set of k registers, a bit each. */
static int reg_words(int k)
{
    return (k + 63) / 64;
}

/* Register r as a bit of word v of a set (0 when r is in another word, or none). */
static uint64_t reg_bit(int r, int v)
{
    return r >= 0 && r / 64 == v ? (uint64_t)1 << (r % 64) : 0;
}

/* Registers live before each instruction but labels (where no step
 * starts or ends): a backward fixpoint over the control flow with labels
 * skipped (c->after and c->jump), into live ((n + 1) sets of
 * reg_words(nregs) words, zeroed, a bit a register): live before x when
 * x reads it, or when x does not write it and it is live where x goes. */
static void liveness(const struct st_code *c, uint64_t *live)
{
    int n = c->n, nw = reg_words(c->nregs);
    for (bool changed = c->nregs > 0; changed;) {   /* without registers, nothing to do */
        changed = false;
        for (int i = n - 1; i >= 0; i--) {
            const struct instr *x = &c->in[i];
            if (x->kind == I_LABEL)
                continue;
            int rd[2], wr = writes(x);
            reads(x, rd);
            const uint64_t *fall = x->kind != I_GOTO ? &live[(size_t)c->after[i] * nw] : NULL;
            const uint64_t *jump = c->jump[i] >= 0 ? &live[(size_t)c->jump[i] * nw] : NULL;
            for (int v = 0; v < nw; v++) {
                uint64_t now = ((fall ? fall[v] : 0) | (jump ? jump[v] : 0)) & ~reg_bit(wr, v);
                now |= reg_bit(rd[0], v) | reg_bit(rd[1], v);
                if (now != live[(size_t)i * nw + v]) {
                    live[(size_t)i * nw + v] = now;
                    changed = true;
                }
            }
        }
    }
}

/* The first instruction at or after pc that is not a label. */
static int settle(const struct st_code *c, int pc)
{
    while (pc < c->n && c->in[pc].kind == I_LABEL)
        pc++;
    return pc;
}

/* Lists, per pc (and the end), the registers dead there: c->dead_from and
 * c->dead from the liveness matrix live (none at a label, where no step
 * starts or ends). */
static void dead_lists(struct st_code *c, const uint64_t *live)
{
    int k = c->nregs, m = 0, nw = reg_words(k);
    for (int pc = 0; pc <= c->n; pc++) {
        c->dead_from[pc] = m;
        if (pc < c->n && c->in[pc].kind == I_LABEL)
            continue;
        for (int v = 0; v < nw; v++) {
            uint64_t regs = v < k / 64 ? ~(uint64_t)0 : ((uint64_t)1 << (k % 64)) - 1;   /* the set's registers */
            for (uint64_t dead = regs & ~live[(size_t)pc * nw + v]; dead; dead &= dead - 1)
                c->dead[m++] = v * 64 + __builtin_ctzll(dead);
        }
    }
    c->dead_from[c->n + 1] = m;
}

/* Sets up c for th, with label_at (per label) and live (liveness's) as
 * scratch; c->target, c->dead_from and c->dead are placed
 * already. */
static void code_init(struct st_code *c, const struct thread *th, int *label_at, uint64_t *live)
{
    c->n = th->ninstrs;
    c->in = th->instrs;
    c->nregs = th->nregs;
    for (int i = 0; i < c->n; i++)
        if (c->in[i].kind == I_LABEL)
            label_at[c->in[i].label] = i;
    for (int i = 0; i < c->n; i++) {
        enum instr_kind k = c->in[i].kind;
        c->target[i] = k == I_BRANCH || k == I_GOTO ? label_at[c->in[i].label] : -1;
    }
    for (int i = 0; i < c->n; i++) {
        c->after[i] = settle(c, i + 1);
        c->jump[i] = c->target[i] >= 0 ? settle(c, c->target[i]) : -1;
    }
    liveness(c, live);
    dead_lists(c, live);
}

/* Zeroes the registers that are dead at pc. */
static inline void canonical(const struct st_code *c, int pc, int32_t *regs)
{
    for (int i = c->dead_from[pc]; i < c->dead_from[pc + 1]; i++)
        regs[c->dead[i]] = 0;
}

static inline int32_t operand(const struct operand *o, const int32_t *regs)
{
    return o->is_reg ? regs[o->reg] : (int32_t)o->value;
}

/* Whether instruction x writes memory, which holds mem, a being its
 * first operand's value (a CAS that fails writes nothing). */
static inline bool writes_memory(const struct instr *x, int32_t mem, int32_t a)
{
    return x->kind == I_STORE || (x->kind == I_RMW && !(x->cas_if_equal && mem != a));
}

/* Words the explorer's copy of a state may run past its end (g->words
 * has that many more). */
enum { STATE_SLACK = 4 };

/* states_step for the thread of code c whose words start at w, states
 * of width words; inlined into the explorer's loop (slack: out and in may
 * be copied past their end, STATE_SLACK words at a time). */
__attribute__((always_inline))
static inline bool step(const struct st_code *c, int w, const int32_t *in, int32_t *out, int width, bool *wrote,
                        bool slack)
{
    int pc = in[w] >> 1;
    if (pc >= c->n)
        return false;
    if (slack)   /* four words at a time, past the state's end: g->words has room */
        for (int i = 0; i < width; i += STATE_SLACK)
            memcpy(out + i, in + i, STATE_SLACK * sizeof *out);
    else
        memcpy(out, in, (size_t)width * sizeof *out);
    const int32_t *before = in + w + 1;
    int32_t *regs = out + w + 1;
    const struct instr *x = &c->in[pc];
    int32_t a = operand(&x->a, before), b = operand(&x->b, before);
    int next = c->after[pc];
    *wrote = writes_memory(x, in[0], a);
    enum instr_kind k = x->kind;   /* the commonest steps first: a spin loop's branch, RMW and goto */
    if (k == I_BRANCH) {
        if (cmp_holds(x->cmp, a, b))
            next = c->jump[pc];
    } else if (k == I_RMW) {
        out[0] = x->op == OP_CAS ? (in[0] == a ? b : in[0]) : x->op == OP_EXCH ? a : interp_binop(x->op, in[0], a);
        if (x->dst >= 0)
            regs[x->dst] = in[0];
    } else if (k == I_GOTO) {
        next = c->jump[pc];
    } else if (k == I_LOAD) {
        if (x->dst >= 0)
            regs[x->dst] = in[0];
    } else if (k == I_STORE) {
        out[0] = a;
    } else if (k == I_LOCAL) {
        regs[x->dst] = x->op == OP_EXCH ? a : interp_binop(x->op, a, b);
    }   /* anything else: outside the fragment (bmc/concrete/fragment.h keeps it out) */
    canonical(c, next, regs);
    out[w] = next * 2 + 1;
    return true;
}

bool states_step(const struct state_graph *g, const int32_t *in, int t, int32_t *out, bool *wrote)
{
    return step(&g->code[t], g->offset[t], in, out, g->width, wrote, false);
}

bool states_writes(const struct state_graph *g, const int32_t *s, int t)
{
    const struct st_code *c = &g->code[t];
    int w = g->offset[t], pc = s[w] >> 1;
    return pc < c->n && writes_memory(&c->in[pc], s[0], operand(&c->in[pc].a, s + w + 1));
}

/* The hash of state s (width words, an even number): two words at a
 * time, the high half folded into the low one at the end, which the
 * table's mask keeps. */
static inline uint32_t hash(const int32_t *s, int width)
{
    const uint64_t k = 0xff51afd7ed558ccdu;
    uint64_t h = 0x9e3779b97f4a7c15u, pair[2];   /* a load each: their values, whatever the byte order,
                                                    only place states */
    int i = 0;
    for (; i + 3 < width; i += 4) {   /* two pairs a turn: half the loop's tests */
        memcpy(pair, s + i, sizeof pair);
        h = (h ^ pair[0]) * k;
        h = (h ^ pair[1]) * k;
    }
    if (i < width) {
        memcpy(pair, s + i, sizeof pair[0]);
        h = (h ^ pair[0]) * k;
    }
    return (uint32_t)(h ^ h >> 32);
}

/* Whether states a and b (width words, an even number) are one. */
static inline bool same_state(const int32_t *a, const int32_t *b, int width)
{
    for (int i = 0; i < width; i += 2) {
        uint64_t x, y;
        memcpy(&x, a + i, sizeof x);
        memcpy(&y, b + i, sizeof y);
        if (x != y)
            return false;
    }
    return true;
}

/* Doubles the hash table (makes it at first), placing each state again
 * by the hash its slot keeps. */
static void rehash(struct state_graph *g)
{
    struct state_slot *old = g->slot;
    int nold = g->nslots;
    g->nslots = nold ? nold * 2 : 256;
    g->slot = xrealloc(NULL, (size_t)g->nslots * sizeof *g->slot);   /* every slot set just below */
    memset(g->slot, -1, (size_t)g->nslots * sizeof *g->slot);
    size_t mask = (size_t)g->nslots - 1;
    for (int k = 0; k < nold; k++) {
        if (old[k].index < 0)
            continue;
        size_t i = old[k].hash & mask;
        while (g->slot[i].index >= 0)
            i = (i + 1) & mask;
        g->slot[i] = old[k];
    }
    free(old);
}

/* Room for at least n states, past the capacity. */
static void grow_to(struct state_graph *g, int n)
{
    g->cap = xcapacity(g->cap, n, 256);
    g->words = xrealloc(g->words, ((size_t)g->cap * (size_t)g->width + STATE_SLACK) * sizeof *g->words);
    g->succ = xrealloc(g->succ, (size_t)g->cap * (size_t)g->nthreads * sizeof *g->succ + 1);
    XRESIZE(g->parent, g->cap);
    XRESIZE(g->via, g->cap);
}

/* Room for at least n states (the test inlined: the explorer asks per state). */
static inline void reserve(struct state_graph *g, int n)
{
    if (n > g->cap)
        grow_to(g, n);
}

/* The index of the state written at g's first free place (room reserved),
 * added there (reached from parent by a step of via) when new; -1 when it
 * is new and the graph already holds limit states. */
static inline int intern_next(struct state_graph *g, const int32_t *s, int width, int parent, int via, long limit)
{
    uint32_t h = hash(s, width);
    const int32_t *words = g->words;
    struct state_slot *slot = g->slot;
    size_t mask = (size_t)g->nslots - 1, i = h & mask;
    for (; slot[i].index >= 0; i = (i + 1) & mask)
        if (slot[i].hash == h && same_state(&words[(size_t)slot[i].index * width], s, width))
            return slot[i].index;
    if (g->nstates >= limit)
        return -1;
    int k = g->nstates++;
    g->parent[k] = parent;
    g->via[k] = via;
    g->slot[i] = (struct state_slot){ k, h };
    if (2 * g->nstates > g->nslots)
        rehash(g);
    return k;
}

/* Scratch of states_explore besides the graph: the initial state and,
 * per thread, code_init's. */
struct explore_work {
    int32_t *cur;
    int **label_at;
    uint64_t **live;
};

/* Words of a state of l: the location, and each thread's pc word and
 * registers, rounded up to an even number (two hashed and compared at a
 * time; the last, when added, is always 0). */
static size_t state_width(const struct litmus *l)
{
    size_t width = 1;
    for (int t = 0; t < l->nthreads; t++)
        width += 1 + (size_t)l->threads[t].nregs;
    return width + width % 2;
}

/* Places, for l, g's code and offset (code first: the allocation is
 * g->code), every thread's target, after, jump and dead lists, and w's
 * arrays in block (NULL: measures); returns its size. */
static size_t explore_layout(const struct litmus *l, struct state_graph *g, struct explore_work *w,
                             char *block)
{
    struct xblock b = { block, 0 };
    size_t nt = (size_t)l->nthreads + 1, width = state_width(l);
    g->code = xblock_take(&b, nt, sizeof *g->code);
    g->offset = xblock_take(&b, nt, sizeof *g->offset);
    w->label_at = xblock_take(&b, nt, sizeof *w->label_at);
    w->live = xblock_take(&b, nt, sizeof *w->live);
    w->cur = xblock_take(&b, width, sizeof *w->cur);
    for (int t = 0; t < l->nthreads; t++) {
        const struct thread *th = &l->threads[t];
        size_t n = (size_t)th->ninstrs, k = (size_t)th->nregs;
        int *target = xblock_take(&b, n + 1, sizeof *target);
        int *after = xblock_take(&b, n + 1, sizeof *after);
        int *jump = xblock_take(&b, n + 1, sizeof *jump);
        int *dead_from = xblock_take(&b, n + 2, sizeof *dead_from);
        int *dead = xblock_take(&b, (n + 1) * k + 1, sizeof *dead);
        uint64_t *live = xblock_take(&b, (n + 1) * (size_t)reg_words((int)k) + 1, sizeof *live);
        int *label_at = xblock_take(&b, (size_t)th->nlabels + 1, sizeof *label_at);
        if (block) {
            g->code[t].target = target;
            g->code[t].after = after;
            g->code[t].jump = jump;
            g->code[t].dead_from = dead_from;
            g->code[t].dead = dead;
            w->live[t] = live;
            w->label_at[t] = label_at;
        }
    }
    return b.size;
}

/* Sets up g's code, layout and the initial state in w->cur. */
static void layout(const struct litmus *l, struct state_graph *g, struct explore_work *w)
{
    g->nthreads = l->nthreads;
    explore_layout(l, g, w, xcalloc(1, explore_layout(l, g, w, NULL)));
    g->width = 1;
    g->loc = -1;
    for (int t = 0; t < l->nthreads; t++) {
        code_init(&g->code[t], &l->threads[t], w->label_at[t], w->live[t]);
        g->offset[t] = g->width;
        g->width += 1 + l->threads[t].nregs;
        for (int i = 0; i < l->threads[t].ninstrs && g->loc < 0; i++)
            g->loc = l->threads[t].instrs[i].loc;
    }
    g->width = (int)state_width(l);
    int32_t *init = w->cur;
    init[0] = g->loc >= 0 ? (int32_t)l->locs[g->loc].init : 0;
    for (int t = 0; t < l->nthreads; t++) {
        const struct thread *th = &l->threads[t];
        int pc = settle(&g->code[t], 0);
        init[g->offset[t]] = pc * 2;
        for (int r = 0; r < th->nregs; r++)
            init[g->offset[t] + 1 + r] = th->reg_has_init[r] ? (int32_t)th->reg_init[r] : 0;
        canonical(&g->code[t], pc, &init[g->offset[t] + 1]);
    }
}

bool states_explore(const struct litmus *l, long limit, struct state_graph *g)
{
    memset(g, 0, sizeof *g);
    struct explore_work w;
    layout(l, g, &w);
    rehash(g);
    reserve(g, 1);
    int width = g->width, nt = g->nthreads;   /* locals: the words' stores cannot change them */
    const struct st_code *code = g->code;
    const int *offset = g->offset;
    memcpy(g->words, w.cur, (size_t)width * sizeof *g->words);
    bool ok = intern_next(g, g->words, width, -1, -1, limit) >= 0;
    for (int s = 0; ok && s < g->nstates; s++) {
        reserve(g, g->nstates + nt + 1);   /* so that cur and the successors stay where they are */
        const int32_t *cur = &g->words[(size_t)s * width];
        int *succ = &g->succ[(size_t)s * nt];
        for (int t = 0; t < nt; t++) {
            bool wrote;
            int32_t *out = &g->words[(size_t)g->nstates * width];
            succ[t] = -1;
            if (step(&code[t], offset[t], cur, out, width, &wrote, true)
                && (succ[t] = intern_next(g, out, width, s, t, limit)) < 0) {
                ok = false;   /* past the limit */
                break;
            }
        }
    }
    return ok;
}

void states_free(struct state_graph *g)
{
    free(g->code);   /* and offset, every thread's target, after, jump and dead lists */
    free(g->words);
    free(g->succ);
    free(g->parent);
    free(g->via);
    free(g->slot);
    memset(g, 0, sizeof *g);
}
