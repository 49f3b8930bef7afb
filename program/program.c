/* Loop unrolling and the static event table. */
#include "program/program.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* True when u is a branch or a goto: of the U_INSTR micro-ops, only those
 * have a target (initial_code gives it; unrolling moves it, never to -1). */
static bool is_jump(const struct uop *u)
{
    return u->kind == U_INSTR && u->target >= 0;
}

static bool writes_memory(const struct instr *in)
{
    return in && (in->kind == I_STORE || in->kind == I_RMW);
}

bool program_barrier_alone(const struct litmus *l, int t, const struct instr *in)
{
    if (in->kind != I_BARRIER || in->has_bar_quorum)
        return false;
    /* PTX bar.cta and Vulkan cbar execute at CTA / workgroup scope:
     * placement levels from 0 (PTX: cta, gpu) or 1 (Vulkan: wg, qf) on */
    int from = l->dialect == DIALECT_PTX ? 0 : 1, levels = l->dialect == DIALECT_PTX ? 2 : 3;
    for (int u = 0; u < l->nthreads; u++) {
        bool same_group = u != t;
        for (int k = from; k < levels && same_group; k++)
            same_group = l->threads[u].scope_id[k] == l->threads[t].scope_id[k];
        for (int i = 0; same_group && i < l->threads[u].ninstrs; i++) {
            const struct instr *b = &l->threads[u].instrs[i];
            if (b->kind == I_BARRIER && b->has_bar_id == in->has_bar_id && b->bar_instance == in->bar_instance)
                return false;
        }
    }
    return true;
}

/* Adds register r (none when negative) to the bit set live. */
static inline void add_register(uint64_t *live, int r)
{
    if (r >= 0)
        live[r / 64] |= (uint64_t)1 << (r % 64);
}

/* Adds the registers instruction in (NULL: none) reads to the bit set live. */
static void add_reads(const struct instr *in, uint64_t *live)
{
    if (!in)
        return;
    if (in->a.is_reg)
        add_register(live, in->a.reg);
    if (in->b.is_reg)
        add_register(live, in->b.reg);
    if (in->kind == I_BARRIER) {
        if (in->has_bar_id && in->bar_id.is_reg)
            add_register(live, in->bar_id.reg);
        if (in->has_bar_quorum && in->bar_quorum.is_reg)
            add_register(live, in->bar_quorum.reg);
    }
}

/* The micro-ops control goes to from micro-op i (-1: none): on when a
 * jump is not taken (a backjump not taken leaves the loop at its exit),
 * and a jump's target. */
static inline void successors(const struct uop *code, int i, int *fall_to, int *target)
{
    const struct uop *u = &code[i];
    bool falls = !(u->kind == U_INSTR && u->in->kind == I_GOTO) && u->kind != U_BACKJUMP;
    *fall_to = u->kind == U_BACKJUMP && u->in->kind != I_GOTO ? u->exit : falls ? i + 1 : -1;
    *target = u->target;   /* -1 but for jumps and backjumps (is_jump) */
}

/* Live registers before each micro-op, a bit set of words words per
 * micro-op (register r of micro-op i: bit r % 64 of live[i * words + r /
 * 64]), by backward fixpoint over the code as it stands (loops still
 * cyclic).  A pass reads the sets of the successors at or before a
 * micro-op (back_target, n of them, all false: marked here) as the pass
 * before left them, and every other set as this pass made it: once a pass
 * changes none of the former, it has reached the fixpoint. */
__attribute__((always_inline))
static inline void liveness_of_words(const struct uop *code, int n, int words, uint64_t *live,
                                     uint64_t *out, bool *back_target)
{
    for (int i = 0; i < n; i++) {
        int fall_to, t;
        successors(code, i, &fall_to, &t);
        if (fall_to >= 0 && fall_to <= i)
            back_target[fall_to] = true;
        if (t >= 0 && t <= i)
            back_target[t] = true;
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (int i = n - 1; i >= 0; i--) {
            const struct uop *u = &code[i];
            int fall_to, t;
            successors(code, i, &fall_to, &t);
            const uint64_t *fall = fall_to >= 0 && fall_to < n ? &live[(size_t)fall_to * words] : NULL;
            const uint64_t *jump = t >= 0 && t < n ? &live[(size_t)t * words] : NULL;
            for (int w = 0; w < words; w++)   /* a word or two: one loop, no memset call */
                out[w] = (fall ? fall[w] : 0) | (jump ? jump[w] : 0);
            if (u->in && u->in->dst >= 0 && u->in->kind != I_BRANCH)
                out[u->in->dst / 64] &= ~((uint64_t)1 << (u->in->dst % 64));
            add_reads(u->in, out);
            uint64_t *here = &live[(size_t)i * words];
            for (int w = 0; w < words; w++)
                if (here[w] != out[w]) {
                    here[w] = out[w];
                    changed |= back_target[i];
                }
        }
    }
}

/* liveness_of_words, with its loops over words unrolled for the usual one
 * word (under 64 registers). */
static void liveness(const struct uop *code, int n, int words, uint64_t *live, uint64_t *out,
                     bool *back_target)
{
    if (words == 1)
        liveness_of_words(code, n, 1, live, out, back_target);
    else
        liveness_of_words(code, n, words, live, out, back_target);
}

/* True when the micro-op at i is a jump back to an earlier (or its own) index. */
static bool is_backward(const struct uop *code, int i)
{
    return is_jump(&code[i]) && code[i].target <= i;
}

/* Scratch of program_build: memory reused by every step of every thread
 * (ints, and describe_loop's arrays). */
struct scratch {
    int *ints;
    int cap;
};

/* The first room of a scratch: 1 KB (malloc keeps chunks that small in
 * per-size caches), enough for most programs' every step. */
#define SCRATCH_FIRST_INTS 250

/* At least n ints of w, their values left over from earlier use. */
static int *scratch_ints(struct scratch *w, int n)
{
    XGROW_FROM(w->ints, w->cap, n, SCRATCH_FIRST_INTS);
    return w->ints;
}

/* In end, per index t: the last jump to t at or after t (where a loop headed
 * by t ends), -1 if none; in back, the backward jumps, in order; returns
 * how many there are.  One pass, so the loops of a long thread cost linear
 * time. */
static int loop_ends(const struct uop *code, int n, int *end, int *back)
{
    int nback = 0;
    for (int t = 0; t < n; t++)
        end[t] = -1;
    for (int i = 0; i < n; i++) {
        if (!is_backward(code, i))
            continue;
        if (code[i].target >= 0)
            end[code[i].target] = i;
        back[nback++] = i;
    }
    return nback;
}

/* Finds the innermost loop region [*t..*j]: the loop (a head and its last
 * backward jump; all backward jumps to one head close one loop) of the
 * smallest span, merged with every loop that overlaps it without nesting,
 * until none does.  Merged loops are irreducible: a jump enters them in the
 * middle.  Returns false when no loop is left; else *left is how many of
 * the backward jumps unroll_one leaves backward, in one copy: those outside
 * the region and those in it back to before it (unrolling keeps them, and
 * makes none: with none left, no loop is). */
static bool innermost_region(const struct uop *code, int n, int *t, int *j, int *left, struct scratch *w)
{
    int span = -1, *end = scratch_ints(w, 2 * n + 1), *back = end + n;
    int nback = loop_ends(code, n, end, back);
    for (int k = 0; k < nback; k++) {
        int h = code[back[k]].target, e = end[h];
        if (span < 0 || e - h < span) {
            *t = h;
            *j = e;
            span = e - h;
        }
    }
    bool grown = span >= 0;
    while (grown) {
        grown = false;
        for (int k = 0; k < nback; k++) {
            int h = code[back[k]].target, e = end[h];
            bool meets = h <= *j && e >= *t;
            bool nests = (h <= *t && e >= *j) || (h >= *t && e <= *j);
            if (meets && !nests) {
                *t = h < *t ? h : *t;
                *j = e > *j ? e : *j;
                grown = true;
            }
        }
    }
    *left = 0;
    for (int k = 0; k < nback; k++)
        *left += back[k] < *t || back[k] > *j || code[back[k]].target < *t;
    return span >= 0;
}

/* True when x, inside the region [t..], jumps back to a label of the region. */
static bool region_backjump(const struct uop *code, int t, int x)
{
    return is_backward(code, x) && code[x].target >= t;
}

/* Adds label index at to the set entries (of *n) unless it is there. */
static void add_entry(int *entries, int *n, int at)
{
    for (int k = 0; k < *n; k++)
        if (entries[k] == at)
            return;
    entries[(*n)++] = at;
}

/* The scratch of describe_loop, in one allocation. */
struct loop_work {
    int n, words, nregs, len;   /* micro-ops, words of a register set, registers, region length */
    uint64_t *live, *out;       /* liveness's */
    bool *back_target;          /* liveness's */
    bool *written;              /* per register: written in the region */
    int *entries;               /* the region's entries */
    int *live_written;          /* the loop_info's, before it is copied out */
};

/* Places w's arrays in block (NULL: measures); returns its size. */
static size_t loop_work_layout(struct loop_work *w, char *block)
{
    struct xblock b = { block, 0 };
    w->live = xblock_take(&b, (size_t)(w->n + 1) * (size_t)w->words, sizeof *w->live);
    w->out = xblock_take(&b, (size_t)w->words, sizeof *w->out);
    w->back_target = xblock_take(&b, (size_t)w->n + 1, sizeof *w->back_target);
    w->written = xblock_take(&b, (size_t)w->nregs + 1, sizeof *w->written);
    w->entries = xblock_take(&b, (size_t)w->len, sizeof *w->entries);
    w->live_written = xblock_take(&b, (size_t)w->nregs + 1, sizeof *w->live_written);
    return b.size;
}

/* Describes the region [t..j]: written registers live at one of its entries
 * (its head, the targets of its backward jumps, the labels jumped to from
 * outside), side effects, and how many entries there are.  Its work arrays
 * are in scratch, zeroed. */
static struct loop_info describe_loop(const struct litmus *l, int thread, const struct uop *code, int n, int t,
                                      int j, int nregs, struct scratch *scratch)
{
    struct loop_info li = { 0, NULL, true, 0 };
    int words = nregs / 64 + 1;
    struct loop_work w = { .n = n, .words = words, .nregs = nregs, .len = j - t + 1 };
    size_t size = loop_work_layout(&w, NULL);
    void *block = scratch_ints(scratch, (int)((size + sizeof(int) - 1) / sizeof(int)));
    memset(block, 0, size);
    loop_work_layout(&w, block);
    uint64_t *live = w.live;
    bool *written = w.written;
    int *entries = w.entries;
    liveness(code, n, words, live, w.out, w.back_target);
    add_entry(entries, &li.nentries, t);
    for (int i = 0; i < n; i++) {
        const struct uop *u = &code[i];
        bool inside = i >= t && i <= j;
        if (inside && (writes_memory(u->in)
                       || (u->in && u->in->kind == I_BARRIER && !program_barrier_alone(l, thread, u->in))))
            li.side_effect_free = false;   /* passing a barrier uses up an occurrence */
        if (inside && u->in && u->in->dst >= 0 && u->in->kind != I_BRANCH)
            written[u->in->dst] = true;
        if (u->target >= t && u->target <= j   /* a jump or a backjump (is_jump) into the region */
            && (!inside || region_backjump(code, t, i)))
            add_entry(entries, &li.nentries, u->target);
    }
    for (int r = 0; r < nregs; r++) {
        bool live_in = false;
        for (int k = 0; k < li.nentries; k++)
            live_in |= live[(size_t)entries[k] * words + r / 64] >> (r % 64) & 1;
        if (written[r] && live_in)
            w.live_written[li.nlive++] = r;
    }
    if (li.nlive) {   /* most loops have none, and no allocation */
        li.side_effect_free = false;
        li.live_written = xrealloc(NULL, (size_t)li.nlive * sizeof *li.live_written);
        memcpy(li.live_written, w.live_written, (size_t)li.nlive * sizeof *li.live_written);
    }
    return li;
}

/* Where old index x goes when [t..j] becomes k copies, each led by a head. */
static int remap(int x, int t, int j, int k, int copy)
{
    int len = j - t + 1;
    if (x < 0)
        return x;
    if (x < t)
        return x;
    if (x > j)
        return x + k * (len + 1) - len;
    return t + copy * (len + 1) + 1 + (x - t);
}

/* Where an iteration of [t..j] copied as copy c resumes for a backward jump
 * to label target: copy c's head for the region's head, else the label. */
static int resume_point(int target, int t, int j, int k, int c)
{
    return target == t ? t + c * (j - t + 2) : remap(target, t, j, k, c);
}

/* Replaces the loop region [t..j] with its unrolling: k copies, each led by
 * a head, in which every backward jump into the region goes on to the next
 * copy at the same label (the last copy's to TARGET_BOUND). */
static int unroll_one(const struct litmus *l, struct pthread *pt, int t, int j, int bound, char *msg, int msglen,
                      struct scratch *w)
{
    int n = pt->ncode;
    int nregs = pt->src->nregs;
    pt->loops = xrealloc(pt->loops, (size_t)(pt->nloops + 1) * sizeof *pt->loops);
    int loop_id = pt->nloops;
    pt->loops[loop_id] = describe_loop(l, (int)(pt->src - l->threads), pt->code, n, t, j, nregs, w);
    pt->nloops++;
    const struct loop_info *li = &pt->loops[loop_id];
    /* an iteration without side effects that resumes where an earlier one
       began spins, so by the last of nentries copies every run has spun */
    int k = li->side_effect_free ? li->nentries : bound;
    int len = j - t + 1;
    long newn = (long)n + (long)k * (len + 1) - len;
    if (newn > PROGRAM_MAX_UOPS) {
        snprintf(msg, msglen, "unrolling thread P%d to bound %d exceeds %d operations",
                 pt->src->id, bound, PROGRAM_MAX_UOPS);
        return -1;
    }
    struct uop *out = xrealloc(NULL, (size_t)newn * sizeof *out);   /* every slot is written below */
    int after = remap(j + 1, t, j, k, 0);   /* where the micro-ops after the region go */
    memcpy(out, pt->code, (size_t)t * sizeof *out);
    if (j + 1 < n)
        memcpy(&out[after], &pt->code[j + 1], (size_t)(n - j - 1) * sizeof *out);
    for (int x = 0; x < n; x++) {   /* then their indices moved */
        if (x >= t && x <= j)
            continue;
        struct uop *u = &out[x < t ? x : after + (x - j - 1)];
        /* jumps from outside enter the first iteration, through its head
           or at a label inside it */
        if (u->kind != U_INSTR) {
            u->target = u->target == t ? t : remap(u->target, t, j, k, 0);
            u->head = remap(u->head, t, j, k, 0);
            u->exit = u->exit == t ? t : remap(u->exit, t, j, k, 0);
            u->reentry = remap(u->reentry, t, j, k, 0);
            u->end = remap(u->end, t, j, k, 0);
        } else if (u->target >= 0) {   /* a U_INSTR's only index: head, exit, reentry, end are -1 */
            u->target = u->target == t ? t : remap(u->target, t, j, k, 0);
        }
    }
    for (int c = 0; c < k; c++) {
        int base = t + c * (len + 1);
        out[base] = (struct uop){ .kind = U_LOOP_HEAD, .loop = loop_id, .target = -1, .head = -1,
                                  .exit = -1, .reentry = -1, .end = base + len, .outer = -1 };
        struct uop *copy = &out[base + 1];   /* remap(x, t, j, k, c) is base + 1 + x - t */
        memcpy(copy, &pt->code[t], (size_t)len * sizeof *copy);   /* then its indices moved: */
        for (int x = t; x <= j; x++) {
            struct uop *u = &copy[x - t];
            if (region_backjump(pt->code, t, x)) {
                u->kind = U_BACKJUMP;
                u->loop = loop_id;
                u->head = base;
                u->reentry = resume_point(u->target, t, j, k, c);
                u->target = c + 1 < k ? resume_point(u->target, t, j, k, c + 1) : TARGET_BOUND;
                /* not taken: on through the body, or out after the last one */
                u->exit = x == j ? t + k * (len + 1) : base + 2 + (x - t);
            } else if (u->kind != U_INSTR) {
                u->target = remap(u->target, t, j, k, c);
                u->head = remap(u->head, t, j, k, c);
                u->exit = remap(u->exit, t, j, k, c);
                u->reentry = remap(u->reentry, t, j, k, c);
                u->end = remap(u->end, t, j, k, c);
            } else if (u->target >= 0) {   /* a U_INSTR's only index: head, exit, reentry, end are -1 */
                u->target = remap(u->target, t, j, k, c);
            }
        }
    }
    free(pt->code);
    pt->code = out;
    pt->ncode = (int)newn;
    return 0;
}

/* Sets every micro-op's outer: the innermost iteration containing it. */
static void link_iterations(struct pthread *pt, struct scratch *w)
{
    int *open = scratch_ints(w, pt->ncode + 1);
    int depth = 0, outer = -1;   /* outer: open[depth - 1], -1 with none open */
    int top_end = INT_MAX;       /* the end of outer's iteration; with none open, no end */
    for (int i = 0; i < pt->ncode; i++) {
        while (top_end < i) {
            depth--;
            outer = depth > 0 ? open[depth - 1] : -1;
            top_end = depth > 0 ? pt->code[outer].end : INT_MAX;
        }
        pt->code[i].outer = outer;
        if (pt->code[i].kind == U_LOOP_HEAD) {
            open[depth++] = outer = i;
            top_end = pt->code[i].end;
        }
    }
}

/* Builds the initial code of a thread: jumps point at their labels.
 * Returns how many of them jump backward (is_backward). */
static int initial_code(struct pthread *pt, struct scratch *w)
{
    const struct thread *th = pt->src;
    pt->ncode = th->ninstrs;
    pt->code = xrealloc(NULL, (size_t)th->ninstrs * sizeof *pt->code);   /* written below */
    int *label_at = scratch_ints(w, th->nlabels + 1);
    memset(label_at, 0, (size_t)(th->nlabels + 1) * sizeof *label_at);
    for (int i = 0; i < th->ninstrs; i++)
        if (th->instrs[i].kind == I_LABEL)
            label_at[th->instrs[i].label] = i;
    static const struct uop fresh = { .kind = U_INSTR, .target = -1, .head = -1, .loop = -1,
                                      .exit = -1, .reentry = -1, .end = -1, .outer = -1 };
    int backward = 0;
    for (int i = 0; i < th->ninstrs; i++) {
        const struct instr *in = &th->instrs[i];
        struct uop *u = &pt->code[i];
        *u = fresh;   /* copied whole, then its instruction */
        u->in = in;
        if (in->kind == I_BRANCH || in->kind == I_GOTO) {
            u->target = label_at[in->label];
            backward += u->target <= i;
        }
    }
    return backward;
}

/* Dat3M's split of an RMW's order onto its read and write halves (OpenCL,
 * as C11's loadMO/storeMO: seq_cst stays on both halves). */
static enum mo rmw_read_mo(enum mo mo, enum dialect d)
{
    if (d == DIALECT_OPENCL && mo == MO_SC)
        return MO_SC;
    return (mo == MO_ACQUIRE || mo == MO_ACQ_REL) ? MO_ACQUIRE : MO_RELAXED;
}
static enum mo rmw_write_mo(enum mo mo, enum dialect d)
{
    if (d == DIALECT_OPENCL && mo == MO_SC)
        return MO_SC;
    return (mo == MO_RELEASE || mo == MO_ACQ_REL) ? MO_RELEASE : MO_RELAXED;
}

/* What a micro-op of an instruction kind makes, after Dat3M's tagging: its
 * events' kind (an RMW's read, then its write), how many (0: none), and
 * their proxy: accesses and fence.proxy.<p> carry the instruction's,
 * fence.sc/acq_rel the generic one, alias fences and barriers none. */
struct kind_events {
    unsigned char first, count;
    bool own_proxy;
    signed char proxy;       /* when not own_proxy: PROXY_GENERIC, or -1 for none */
};

static const struct kind_events events_of_kind[I_UB + 1] = {
    [I_LOAD] = { EV_READ, 1, true, 0 }, [I_STORE] = { EV_WRITE, 1, true, 0 },
    [I_RMW] = { EV_READ, 2, true, 0 }, [I_FENCE] = { EV_FENCE, 1, false, PROXY_GENERIC },
    [I_PROXY_FENCE] = { EV_FENCE, 1, true, 0 }, [I_ALIAS_FENCE] = { EV_FENCE, 1, false, -1 },
    [I_AVDEVICE] = { EV_FENCE, 1, false, -1 }, [I_VISDEVICE] = { EV_FENCE, 1, false, -1 },
    [I_BARRIER] = { EV_BARRIER, 1, false, -1 }, [I_UB] = { EV_UB, 1, false, -1 },
};

/* How many events micro-op u creates (as uop_events does). */
static int uop_event_count(const struct uop *u)
{
    return u->in && u->kind == U_INSTR ? events_of_kind[u->in->kind].count : 0;
}

/* Creates the events of micro-op i of thread t, code[i] (p->events has
 * room: build_events takes it first). */
static void uop_events(struct program *p, int t, struct uop *code, int i)
{
    struct uop *u = &code[i];
    const struct instr *in = u->in;
    int id = p->nevents;
    u->first_event = id;
    u->nevents = 0;
    if (!in || u->kind != U_INSTR || !events_of_kind[in->kind].count)
        return;
    const struct kind_events *k = &events_of_kind[in->kind];
    struct event *e = &p->events[id];
    *e = (struct event){ .id = id, .kind = (enum ev_kind)k->first, .thread = t, .uop = i, .in = in,
                         .loc = in->loc, .mo = in->mo, .scope = in->scope, .rmw_partner = -1,
                         .proxy = k->own_proxy ? (int)in->proxy : k->proxy };
    if (k->count == 2) {   /* an RMW: its read, then its write */
        e[1] = e[0];
        e[1].id = id + 1;
        e[1].kind = EV_WRITE;
        e[0].rmw = e[1].rmw = true;
        e[0].mo = rmw_read_mo(in->mo, p->lit->dialect);
        e[1].mo = rmw_write_mo(in->mo, p->lit->dialect);
        e[0].rmw_partner = id + 1;
        e[1].rmw_partner = id;
    }
    p->nevents = id + k->count;
    u->nevents = k->count;
}

/* The most events whose room build_events takes by the bound (every
 * location's initial write, two events per micro-op) without counting:
 * 96 KB, a few times what most tests need. */
#define EVENT_BOUND_ROOM 2048

/* Room for p's events: the bound when it is small (one pass over the
 * threads, not over every micro-op), else their exact count. */
static size_t event_room(const struct program *p)
{
    size_t bound = (size_t)p->lit->nlocs;
    for (int t = 0; t < p->nthreads; t++)
        bound += 2 * (size_t)p->threads[t].ncode;
    if (bound <= EVENT_BOUND_ROOM)
        return bound;
    size_t count = 0;
    for (int l = 0; l < p->lit->nlocs; l++)
        count += program_root_location(p->lit, l) == l;
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ncode; i++)
            count += (size_t)uop_event_count(&p->threads[t].code[i]);
    return count;
}

/* Builds the event table in one allocation (event_room's). */
static void build_events(struct program *p)
{
    p->events = xrealloc(NULL, event_room(p) * sizeof *p->events);   /* each written below */
    for (int l = 0; l < p->lit->nlocs; l++) {   /* one initial write per physical location */
        if (program_root_location(p->lit, l) != l)
            continue;
        p->events[p->nevents] = (struct event){ .id = p->nevents, .kind = EV_INIT, .thread = -1, .uop = -1,
                                                .loc = l, .mo = MO_NONE, .scope = SCOPE_NONE,
                                                .proxy = -1, .rmw_partner = -1 };
        p->nevents++;
    }
    for (int t = 0; t < p->nthreads; t++) {
        struct pthread *pt = &p->threads[t];
        pt->first_event = p->nevents;
        for (int i = 0; i < pt->ncode; i++)
            uop_events(p, t, pt->code, i);
        pt->nevents = p->nevents - pt->first_event;
    }
}

/* Places a program with nthreads threads, the program first, in block
 * (NULL: measures, *p then NULL); returns its size. */
static size_t program_layout(int nthreads, char *block, struct program **p)
{
    struct xblock b = { block, 0 };
    *p = xblock_take(&b, 1, sizeof **p);
    struct pthread *threads = xblock_take(&b, (size_t)nthreads + 1, sizeof *threads);
    if (block)
        (*p)->threads = threads;
    return b.size;
}

struct program *program_build(const struct litmus *l, int bound, char *msg, int msglen)
{
    struct program *p;   /* and its threads, in one allocation */
    program_layout(l->nthreads, xcalloc(1, program_layout(l->nthreads, NULL, &p)), &p);
    p->lit = l;
    p->bound = bound;
    p->nthreads = l->nthreads;
    struct scratch w = { NULL, 0 };
    for (int t = 0; t < l->nthreads; t++) {
        struct pthread *pt = &p->threads[t];
        pt->src = &l->threads[t];
        int left = initial_code(pt, &w);   /* backward jumps left */
        int t0, j;
        while (left > 0 && innermost_region(pt->code, pt->ncode, &t0, &j, &left, &w))
            if (unroll_one(l, pt, t0, j, bound, msg, msglen, &w) < 0) {
                free(w.ints);
                program_free(p);
                return NULL;
            }
        if (pt->nloops > 0)   /* without loops, every outer is initial_code's -1 */
            link_iterations(pt, &w);
    }
    free(w.ints);
    build_events(p);
    if (p->nevents > PROGRAM_MAX_EVENTS) {
        snprintf(msg, msglen, "the unrolled program has %d events (limit %d)", p->nevents,
                 PROGRAM_MAX_EVENTS);
        program_free(p);
        return NULL;
    }
    return p;
}

void program_free(struct program *p)
{
    if (!p)
        return;
    for (int t = 0; t < p->nthreads; t++) {
        free(p->threads[t].code);
        for (int k = 0; k < p->threads[t].nloops; k++)
            free(p->threads[t].loops[k].live_written);
        free(p->threads[t].loops);
    }
    free(p->events);
    free(p);   /* and its threads */
}

bool program_has_bound_cut(const struct program *p)
{
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ncode; i++)
            if (p->threads[t].code[i].target == TARGET_BOUND)
                return true;
    return false;
}
