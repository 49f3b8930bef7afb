/* Strongly connected components and the progress models' obligations. */
#include "bmc/concrete/fair.h"

#include <stdlib.h>
#include <string.h>

#include "bmc/concrete/text.h"
#include "util/xalloc.h"

/* One frame of the iterative depth-first search: a state, its
 * successors, the next thread whose step it has yet to follow, and its
 * low link so far. */
struct frame { const int *succ; int v, t, low; };

/* The index of a state whose component is closed: higher than any on the
 * stack, so that it lowers no low link and no array says which are on it. */
enum { CLOSED = 0x7fffffff };

/* Tarjan's scratch, per state, and the cyclic components' states: cycle
 * k's (the order they close in, as f->cycles lists them at first) are
 * members[from[k] .. from[k + 1]). */
struct tarjan {
    int *index, *stack;
    struct frame *calls;
    int *members, *from, nmembers;
};

/* Records the cyclic component whose root is v: its states, popped from
 * the stack (top states on it) down to v, their index CLOSED, and
 * tj's members.  Returns the new top. */
static int close_cycle(struct fair_sccs *f, struct tarjan *tj, const int *stack, int top, int v)
{
    int c = f->nscc++, end = top, w, first = v;
    do {
        w = stack[--top];
        tj->index[w] = CLOSED;
        f->scc_of[w] = c;
        if (w < first)
            first = w;
    } while (w != v);
    f->first[c] = first;
    f->cyclic[c] = true;
    tj->from[f->ncycles] = tj->nmembers;
    f->cycles[f->ncycles++] = c;
    memcpy(&tj->members[tj->nmembers], &stack[top], (size_t)(end - top) * sizeof *stack);
    tj->nmembers += end - top;
    return top;
}

/* Tarjan's algorithm from state s, with no state on the stack; *counter
 * is the next index.  A state's low link starts one above its index, so
 * that at its end it tells apart a component of it alone that no step
 * stays in (still above), which it closes in place, and the root of a
 * cyclic one (its index: a step from a state of its own). */
static void search(const struct state_graph *g, struct fair_sccs *f, int s, struct tarjan *tj, int *counter)
{
    int depth = 0, nt = g->nthreads, top = 0, next = *counter;   /* locals: the arrays' stores cannot change them */
    int *index = tj->index, *stack = tj->stack;
    struct frame *calls = tj->calls;
    const int *succs = g->succ;
    calls[depth++] = (struct frame){ &succs[(size_t)s * nt], s, 0, next + 1 };
    index[s] = next++;
    stack[top++] = s;
    while (depth > 0) {
        struct frame *fr = &calls[depth - 1];
        const int *succ = fr->succ;
        int t = fr->t, lv = fr->low;
        for (; t < nt; t++) {
            int w = succ[t];
            if (w < 0)
                continue;
            if (index[w] < 0)
                break;
            if (index[w] < lv)   /* on the stack: a closed state's index is CLOSED */
                lv = index[w];
        }
        if (t < nt) {   /* down to an unseen state; the frame's next thread after it */
            int w = succ[t];
            fr->t = t + 1;
            fr->low = lv;
            calls[depth++] = (struct frame){ &succs[(size_t)w * nt], w, 0, next + 1 };
            index[w] = next++;
            stack[top++] = w;
            continue;
        }
        int v = fr->v;
        if (lv > index[v]) {   /* v alone, no step to itself: on the stack's top */
            top--;
            index[v] = CLOSED;
            f->scc_of[v] = f->nscc;
            f->first[f->nscc++] = v;
        } else if (lv == index[v]) {
            top = close_cycle(f, tj, stack, top, v);
        }
        depth--;
        if (depth > 0 && lv < calls[depth - 1].low)
            calls[depth - 1].low = lv;
    }
    *counter = next;
}

/* What each cyclic component says about each thread: which step inside
 * it (from its states, tj's members), and which have ended and which
 * have taken a step (which alone fair_find reads). */
static void component_facts(const struct state_graph *g, struct fair_sccs *f, struct tarjan *tj)
{
    int nt = g->nthreads, nw = f->nwords;
    tj->from[f->ncycles] = tj->nmembers;
    for (int k = 0; k < f->ncycles; k++) {
        int c = f->cycles[k];
        bool *runs = &f->runs[(size_t)c * nt];
        for (int i = tj->from[k]; i < tj->from[k + 1]; i++) {
            const int *succ = &g->succ[(size_t)tj->members[i] * nt];
            for (int t = 0; t < nt; t++)
                if (succ[t] >= 0 && f->scc_of[succ[t]] == c)
                    runs[t] = true;
        }
    }
    for (int k = 1; k < f->ncycles; k++) {   /* by first state (Tarjan closes them in another order); a few */
        int c = f->cycles[k], j = k;
        for (; j > 0 && f->first[f->cycles[j - 1]] > f->first[c]; j--)
            f->cycles[j] = f->cycles[j - 1];
        f->cycles[j] = c;
    }
    for (int k = 0; k < f->ncycles; k++) {
        int c = f->cycles[k];
        const int32_t *s = states_at(g, f->first[c]);
        uint64_t *ended = &f->ended[(size_t)c * nw], *started = &f->started[(size_t)c * nw];   /* zeroed */
        for (int t = 0; t < nt; t++) {   /* states_pc and states_started, read in place */
            int32_t w = s[g->offset[t]];
            uint64_t bit = (uint64_t)1 << (t % 64);
            if ((w >> 1) >= g->code[t].n)
                ended[t / 64] |= bit;
            if (w & 1)
                started[t / 64] |= bit;
        }
    }
}

/* Places, for n states, f's arrays (scc_of first: the allocation) and w's
 * in block (NULL: measures); returns its size.  A graph has at most as
 * many components as states. */
static size_t sccs_layout(struct fair_sccs *f, struct tarjan *w, int n, char *block)
{
    struct xblock b = { block, 0 };
    size_t len = (size_t)n + 1, words = (size_t)n * (size_t)f->nwords + 1;
    f->scc_of = xblock_take(&b, len, sizeof *f->scc_of);
    f->first = xblock_take(&b, len, sizeof *f->first);
    f->cyclic = xblock_take(&b, len, sizeof *f->cyclic);
    f->cycles = xblock_take(&b, len, sizeof *f->cycles);
    f->runs = xblock_take(&b, (size_t)n * (size_t)f->nthreads + 1, sizeof *f->runs);
    f->ended = xblock_take(&b, words, sizeof *f->ended);
    f->started = xblock_take(&b, words, sizeof *f->started);
    w->index = xblock_take(&b, len, sizeof *w->index);
    w->stack = xblock_take(&b, len, sizeof *w->stack);
    w->calls = xblock_take(&b, len, sizeof *w->calls);
    w->members = xblock_take(&b, len, sizeof *w->members);
    w->from = xblock_take(&b, len + 1, sizeof *w->from);
    return b.size;
}

void fair_sccs(const struct state_graph *g, struct fair_sccs *f)
{
    int n = g->nstates, nt = g->nthreads, counter = 0;
    memset(f, 0, sizeof *f);
    f->nthreads = nt;
    f->nwords = (nt + 63) / 64;
    struct tarjan w;
    sccs_layout(f, &w, n, xrealloc(NULL, sccs_layout(f, &w, n, NULL)));   /* zeroed below where read first */
    memset(w.index, -1, (size_t)n * sizeof *w.index);
    memset(f->cyclic, 0, (size_t)n * sizeof *f->cyclic);   /* a component per state at most */
    w.nmembers = 0;
    for (int s = 0; counter < n; s++)   /* every state is reachable from the first: one search, mostly */
        if (w.index[s] < 0)
            search(g, f, s, &w, &counter);
    size_t nscc = (size_t)f->nscc;
    memset(f->runs, 0, nscc * (size_t)nt * sizeof *f->runs);
    memset(f->ended, 0, nscc * (size_t)f->nwords * sizeof *f->ended);
    memset(f->started, 0, nscc * (size_t)f->nwords * sizeof *f->started);
    component_facts(g, f, &w);
}

void fair_free(struct fair_sccs *f)
{
    free(f->scc_of);   /* and every other array */
    memset(f, 0, sizeof *f);
}

/* A group of threads sharing a scope instance, or one thread (a leaf),
 * its children by increasing id. */
struct fair_tree {
    int id;                  /* scope instance id, or the thread's P number */
    int thread;              /* thread index of a leaf, -1 for a group */
    int scope;               /* a group's scope (enum progress_scope) */
    enum progress_model over;   /* its scheduler when the hierarchy names one */
    bool overridden;
    int nchild;
    struct fair_tree *child;
    int nthreads, nwords;    /* of the program; 64-bit words of a set of threads */
    const uint64_t *below;   /* the threads below, a bit each */
    const struct fair_tree *alone;   /* itself, or down the line of only
                                        children to the first node that is
                                        a leaf or has several */
};

/* Sorts n's children by increasing id: by insertion, for the few a group
 * has (qsort's calls cost more). */
static void children_by_id(struct fair_tree *n)
{
    for (int i = 1; i < n->nchild; i++) {
        struct fair_tree c = n->child[i];
        int j = i;
        for (; j > 0 && n->child[j - 1].id > c.id; j--)
            n->child[j] = n->child[j - 1];
        n->child[j] = c;
    }
}

/* Sets group n's scope and, when h names one there, its scheduler. */
static void place(struct fair_tree *n, const struct progress_hierarchy *h, int scope)
{
    n->scope = scope;
    n->overridden = h && scope >= 0 && h->at[scope] > 0;
    n->over = n->overridden ? (enum progress_model)(h->at[scope] - 1) : PROG_FAIR;
}

/* Where grow takes nodes and scratch from: one allocation per tree. */
struct tree_block {
    struct fair_tree *nodes; /* nodes[0] is the root, the allocation */
    int used;
    int *members;            /* per level, nthreads entries */
    bool *placed;            /* likewise */
    int nthreads;
    uint64_t *below;         /* per node, nwords words */
};

/* Fills n's children from threads[0..k) at level `level` of the
 * hierarchy; slots lists the scope_id index of each group level, outermost
 * first, and nlevels how many there are. */
static void grow(const struct litmus *l, const struct progress_hierarchy *h, struct tree_block *tb, struct fair_tree *n,
                 const int *threads, int k, int level, const int *slots, int nlevels)
{
    n->child = &tb->nodes[tb->used];   /* at most k children */
    tb->used += k;
    if (level == nlevels) {
        for (int i = 0; i < k; i++)
            n->child[n->nchild++] = (struct fair_tree){ .id = l->threads[threads[i]].id, .thread = threads[i] };
    } else {
        int *members = tb->members + (size_t)level * tb->nthreads;
        bool *placed = tb->placed + (size_t)level * tb->nthreads;
        memset(placed, 0, (size_t)k * sizeof *placed);
        for (int i = 0; i < k; i++) {
            if (placed[i])
                continue;
            int id = l->threads[threads[i]].scope_id[slots[level]], m = 0;
            for (int j = i; j < k; j++)
                if (!placed[j] && l->threads[threads[j]].scope_id[slots[level]] == id) {
                    placed[j] = true;
                    members[m++] = threads[j];
                }
            struct fair_tree *c = &n->child[n->nchild++];
            *c = (struct fair_tree){ .id = id, .thread = -1 };
            place(c, h, progress_scope_at(l->dialect, level + 1));
            grow(l, h, tb, c, members, m, level + 1, slots, nlevels);
        }
    }
    children_by_id(n);
}

/* Sets the threads below each node of tb (the words of tb->below at its
 * index) and where its line of only children ends: the nodes from the
 * last, as grow places a node's children after it (the places grow kept
 * and left unused get sets too, which nothing reads). */
static void set_below(struct tree_block *tb, int nthreads, int nwords)
{
    for (int k = tb->used - 1; k >= 0; k--) {
        struct fair_tree *n = &tb->nodes[k];
        uint64_t *below = tb->below + (size_t)k * nwords;
        n->nthreads = nthreads;
        n->nwords = nwords;
        n->below = below;
        if (n->thread >= 0)
            below[n->thread / 64] |= (uint64_t)1 << (n->thread % 64);
        for (int i = 0; i < n->nchild; i++)
            for (int w = 0; w < nwords; w++)
                below[w] |= n->child[i].below[w];
        n->alone = n->thread < 0 && n->nchild == 1 ? n->child[0].alone : n;
    }
}

struct fair_tree *fair_tree_build(const struct litmus *l, const struct progress_hierarchy *h)
{
    static const int ptx[] = { 1, 0 }, vulkan[] = { 2, 1, 0 };   /* gpu, cta; qf, wg, sg */
    bool is_ptx = l->dialect == DIALECT_PTX;
    int nlevels = is_ptx ? 2 : 3, nwords = (l->nthreads + 63) / 64;
    size_t nt = (size_t)l->nthreads + 1, levels = (size_t)nlevels + 1;
    /* the root, at most nthreads nodes per level below it, their sets of
     * threads, and the scratch: all threads, then members and placed per level */
    size_t nodes = 1 + levels * nt, words = nodes * (size_t)nwords;
    char *block = xcalloc(1, nodes * sizeof(struct fair_tree) + words * sizeof(uint64_t)
                             + (levels + 1) * nt * sizeof(int) + levels * nt);
    struct tree_block tb = { (struct fair_tree *)block, 1, NULL, NULL, (int)nt,
                             (uint64_t *)(block + nodes * sizeof(struct fair_tree)) };
    int *all = (int *)(tb.below + words);
    tb.members = all + nt;
    tb.placed = (bool *)(tb.members + levels * nt);
    for (int t = 0; t < l->nthreads; t++)
        all[t] = t;
    struct fair_tree *root = tb.nodes;
    *root = (struct fair_tree){ .id = 0, .thread = -1 };
    place(root, h, progress_scope_at(l->dialect, 0));
    grow(l, h, &tb, root, all, l->nthreads, 0, is_ptx ? ptx : vulkan, nlevels);
    set_below(&tb, l->nthreads, nwords);
    return root;
}

void fair_tree_free(struct fair_tree *tr)
{
    free(tr);   /* every node and the scratch */
}

/* One component's facts: the threads at their end and those that have
 * taken a step (sets of threads, nwords words each) and, per thread,
 * whether it steps inside. */
struct facts { const uint64_t *ended, *started; const bool *runs; };

/* Whether thread t is in set s. */
static bool has_thread(const uint64_t *s, int t)
{
    return s[t / 64] >> (t % 64) & 1;
}

/* Schedulable: some thread below has not ended (nothing blocks in the
 * fragment, and a thread stopped by the scheduler stays schedulable). */
static bool sched(const struct fair_tree *n, const struct facts *x)
{
    for (int w = 0; w < n->nwords; w++)
        if (n->below[w] & ~x->ended[w])
            return true;
    return false;
}

/* Scheduled once: some thread below has taken a step. */
static bool once(const struct fair_tree *n, const struct facts *x)
{
    for (int w = 0; w < n->nwords; w++)
        if (n->below[w] & x->started[w])
            return true;
    return false;
}

/* Some child of g before child i is schedulable. */
static bool lower_sched(const struct fair_tree *g, int i, const struct facts *x)
{
    for (int j = 0; j < i; j++)
        if (sched(&g->child[j], x))
            return true;
    return false;
}

/* Child i of g or one after it has been scheduled once. */
static bool later_once(const struct fair_tree *g, int i, const struct facts *x)
{
    for (int j = i; j < g->nchild; j++)
        if (once(&g->child[j], x))
            return true;
    return false;
}

/* Whether a group with progress passes it on to its child i under
 * scheduler sch (progress_scheduler of the model; each scheduler reads
 * only what it needs). */
static bool owed(const struct fair_tree *g, int i, enum progress_model sch, const struct facts *x)
{
    switch (g->overridden ? g->over : sch) {
    case PROG_FAIR: return true;
    case PROG_HSA: return !lower_sched(g, i, x);
    case PROG_OBE: return once(&g->child[i], x);
    case PROG_HSA_OBE: return !lower_sched(g, i, x) || once(&g->child[i], x);
    case PROG_LOBE: return later_once(g, i, x);
    case PROG_UNFAIR: return false;
    default: return true;   /* strong models have their scheduler's obligations */
    }
}

/* Whether node n can have progress in the component: a thread with
 * progress never stops short, so it has ended or steps inside; a group
 * with progress passes it on to every child it owes it to and, when it is
 * schedulable, to at least one schedulable child (minimal progress).
 * need, when not NULL, gets the threads that must step (for one choice). */
static bool fair_node(const struct fair_tree *n, enum progress_model sch, const struct facts *x, bool *need)
{
    /* A group with one child is fair exactly when the child is, with the
     * same need: owed, the child has progress; not owed, minimal progress
     * reaches it when it is schedulable, and when it is not, every thread
     * below has ended, so the child is fair and needs none of them. */
    n = n->alone;
    if (n->thread >= 0) {
        bool ended = has_thread(x->ended, n->thread);
        if (need && !ended)
            need[n->thread] = true;
        return ended || x->runs[n->thread];
    }
    bool minimal = !sched(n, x);
    for (int i = 0; i < n->nchild; i++)
        if (owed(n, i, sch, x)) {
            if (!fair_node(&n->child[i], sch, x, need))
                return false;
            minimal |= sched(&n->child[i], x);
        }
    for (int i = 0; i < n->nchild && !minimal; i++)
        if (sched(&n->child[i], x) && fair_node(&n->child[i], sch, x, NULL)) {
            fair_node(&n->child[i], sch, x, need);
            minimal = true;
        }
    return minimal;
}

/* A set of threads made from per-thread flags: a few words in place,
 * more from the heap. */
struct thread_set {
    uint64_t small[4];
    uint64_t *words;
};

/* The threads t of tr's program with flags[t], into s (thread_set_free
 * frees it). */
static const uint64_t *thread_set_of(const struct fair_tree *tr, const bool *flags, struct thread_set *s)
{
    size_t nw = (size_t)tr->nwords;
    s->words = nw <= 4 ? memset(s->small, 0, sizeof s->small) : xcalloc(nw, sizeof *s->words);
    for (int t = 0; t < tr->nthreads; t++)
        if (flags[t])
            s->words[t / 64] |= (uint64_t)1 << (t % 64);
    return s->words;
}

static void thread_set_free(struct thread_set *s)
{
    if (s->words != s->small)
        free(s->words);
}

/* The ways progress may be shared, under construction: count sets of
 * nthreads flags each, at most max (more: overflow, and no more made). */
struct shares { bool *sets; int count, max, nthreads; bool overflow; };

/* Sets [from, sh->count) get the threads below n that progress reaches
 * (n has it when has) and that have not ended.  A group with progress
 * passes it on to the children it owes it to and, by minimal progress,
 * to a schedulable child when none it owes is schedulable: the only one,
 * or, when there are several, any one of them, each choice a copy of the
 * sets (the scheduler's to make, so every copy is a way it may share). */
static void share(const struct fair_tree *n, enum progress_model sch, const struct facts *x, bool has,
                  struct shares *sh, int from)
{
    if (n->thread >= 0) {
        if (has && !has_thread(x->ended, n->thread))
            for (int k = from; k < sh->count; k++)
                sh->sets[(size_t)k * sh->nthreads + n->thread] = true;
        return;
    }
    int nsched = 0;
    bool owed_sched = false;
    for (int i = 0; has && i < n->nchild; i++)
        if (sched(&n->child[i], x)) {
            nsched++;
            owed_sched |= owed(n, i, sch, x);
        }
    if (owed_sched || nsched == 0) {   /* minimal progress goes where it is owed, or nowhere */
        for (int j = 0; j < n->nchild; j++)
            share(&n->child[j], sch, x, has && owed(n, j, sch, x), sh, from);
        return;
    }
    size_t width = (size_t)sh->nthreads * sizeof *sh->sets;
    int m = sh->count - from;
    bool *before = nsched > 1 ? xcalloc((size_t)m * width + 1, 1) : NULL;
    if (before)
        memcpy(before, &sh->sets[(size_t)from * sh->nthreads], (size_t)m * width);
    for (int i = 0, start = from, picked = 0; i < n->nchild && !sh->overflow; i++) {
        if (!sched(&n->child[i], x))
            continue;
        if (picked++ > 0) {   /* the next choice: a copy of the sets as they were before the first */
            if (sh->count + m > sh->max) {
                sh->overflow = true;
                break;
            }
            start = sh->count;
            memcpy(&sh->sets[(size_t)start * sh->nthreads], before, (size_t)m * width);
            sh->count += m;
        }
        for (int j = 0; j < n->nchild; j++)
            share(&n->child[j], sch, x, owed(n, j, sch, x) || j == i, sh, start);
    }
    free(before);
}

int fair_shares(const struct fair_tree *tr, enum progress_model m, const bool *ended, const bool *started,
                bool *sets)
{
    struct thread_set e, s;
    struct facts x = { thread_set_of(tr, ended, &e), thread_set_of(tr, started, &s), NULL };
    /* the root above the whole device passes progress to it under m itself */
    enum progress_model top = progress_scheduler(m);
    bool has = top == PROG_FAIR || top == PROG_HSA || top == PROG_HSA_OBE || ((top == PROG_OBE || top == PROG_LOBE)
                                                                                && once(tr, &x));
    struct shares sh = { sets, 1, FAIR_MAX_SHARES, tr->nthreads, false };
    memset(sets, 0, (size_t)tr->nthreads * sizeof *sets);
    share(tr, top, &x, has, &sh, 0);
    thread_set_free(&e);
    thread_set_free(&s);
    return sh.overflow ? -1 : sh.count;
}


/* n's name as parts[0..2) of a text: "WG" and "1" for a group of scope s
 * (with " " between them, at sep), "P" and "2" for a thread (no
 * separator); digits (12 bytes) holds the number.  Returns the parts
 * used: three for a group, two for a thread. */
static int node_name(const struct fair_tree *n, int scope, char *digits, const char **parts)
{
    const char *id = text_int(n->id, digits);
    if (n->thread >= 0) {
        parts[0] = "P";
        parts[1] = id;
        return 2;
    }
    parts[0] = scope >= 0 ? progress_scope_name((enum progress_scope)scope) : "group";
    parts[1] = " ";
    parts[2] = id;
    return 3;
}

void fair_starver(const struct fair_tree *tr, enum progress_model m, const bool *ended, const bool *started, int t,
                  char *buf, size_t len)
{
    struct thread_set e, s;
    struct facts x = { thread_set_of(tr, ended, &e), thread_set_of(tr, started, &s), NULL };
    enum progress_model sch = progress_scheduler(m);
    buf[0] = '\0';
    for (const struct fair_tree *g = tr->alone; g->thread < 0;) {   /* a group with one child starves none */
        int i = 0;
        while (i < g->nchild && !has_thread(g->child[i].below, t))
            i++;
        if (i == g->nchild)
            break;
        int rivals = 0;   /* other schedulable children: minimal progress may go to them */
        for (int j = 0; j < g->nchild; j++)
            rivals += j != i && sched(&g->child[j], &x);
        if (!owed(g, i, sch, &x) && rivals > 0) {
            /* "QF 0 (obe) owes WG 1 nothing" */
            char parent[12], child[12];
            const char *parts[10];
            int k = node_name(g, g->scope, parent, parts);
            parts[k++] = " (";
            parts[k++] = progress_name(g->overridden ? g->over : sch);
            parts[k++] = ") owes ";
            k += node_name(&g->child[i], g->child[i].scope, child, parts + k);
            parts[k++] = " nothing";
            size_t used = 0;
            text_append(buf, len, &used, parts, k);
            break;
        }
        g = g->child[i].alone;
    }
    thread_set_free(&e);
    thread_set_free(&s);
}

int fair_find(const struct fair_sccs *f, const struct fair_tree *tr, enum progress_model m, bool *need)
{
    int nt = f->nthreads, nw = f->nwords;
    enum progress_model sch = progress_scheduler(m);
    for (int k = 0; k < f->ncycles; k++) {   /* the first fair one has the lowest first state */
        int c = f->cycles[k];
        struct facts x = { &f->ended[(size_t)c * nw], &f->started[(size_t)c * nw], &f->runs[c * nt] };
        memset(need, 0, (size_t)nt * sizeof *need);   /* what it holds counts only when c is fair */
        if (fair_node(tr, sch, &x, need))
            return c;
    }
    return -1;
}
