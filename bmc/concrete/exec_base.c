/* base_init's sets and relations for one concrete execution, as rows of
 * bits: a relation is made in one buffer of rows, a row a few word
 * operations on the executed events' masks (per thread, per scope
 * instance, per location), and handed to the arena once (rel_from_bits). */
#include "bmc/concrete/exec_base.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

typedef unsigned long long word;

enum { MAX_WORDS = (REL_DENSE_MAX + 63) / 64 };

/* One execution's masks, and the relation being made. */
struct dense_base {
    const struct program *p;
    struct rels *A;
    int n, w;                        /* events; words a row */
    word exec[MAX_WORDS];            /* the executed events */
    int *ran, nran;                  /* the executed events, ascending */
    int *tof;                        /* per executed event (as in ran): its thread, -1 for none */
    word *rows;                      /* n rows of w words: the relation being made */
    word *thread;                    /* per thread: its executed events (w words) */
    word *group;                     /* per scope instance (same_scope_groups): its executed events */
    int *tkey, *rep;                 /* per thread: its scope instance; per instance: a thread of it */
    int *key;                        /* per event: a class key (key_class) */
    const struct rel *by_scope[SCOPE_ALL + 1];   /* same_scope's relations made */
};

/* e is an event (not negative): unsigned, its word and bit are a shift and a mask. */
static bool has(const word *m, int e) { return m[(unsigned)e / 64] >> ((unsigned)e % 64) & 1; }

static void put(word *m, int e) { m[(unsigned)e / 64] |= 1ull << ((unsigned)e % 64); }

/* Row i of the relation being made. */
static word *row(struct dense_base *d, int i) { return d->rows + (size_t)i * d->w; }

/* The w words at from into to: one word at once, more by memcpy (a
 * loop of word copies would be made a call to it for one word too). */
static void copy_words(word *to, const word *from, int w)
{
    if (w == 1)
        *to = *from;
    else
        memcpy(to, from, (size_t)w * sizeof *to);
}

/* The w words at to become 0 (as copy_words: no call for one word). */
static void zero_words(word *to, int w)
{
    if (w == 1)
        *to = 0;
    else
        memset(to, 0, (size_t)w * sizeof *to);
}

/* Empties the relation being made. */
static void clear(struct dense_base *d) { memset(d->rows, 0, (size_t)d->n * d->w * sizeof *d->rows); }

/* The relation being made, as a relation of the arena. */
static const struct rel *made(struct dense_base *d, bool transitive)
{
    return rel_from_bits(d->A, d->rows, transitive);
}

/* The w words at a and b are equal (a word or a few: no call). */
static bool same_words(const word *a, const word *b, int w)
{
    for (int k = 0; k < w; k++)
        if (a[k] != b[k])
            return false;
    return true;
}

/* The index among made[0..nmade) (w words each) of the column c, -1 if
 * none: one word compared at a time where a column is one word. */
static int same_column(const word *made, int nmade, const word *c, int w)
{
    if (w == 1) {
        for (int k = 0; k < nmade; k++)
            if (made[k] == *c)
                return k;
        return -1;
    }
    for (int k = 0; k < nmade; k++)
        if (same_words(made + (size_t)k * w, c, w))
            return k;
    return -1;
}

/* The tag sets: each the executed events base_event_tags puts in it;
 * the sets no executed event is in are one empty set, and sets with the
 * same events are one set (set_of_bits would find it). */
static void tag_sets(struct dense_base *d, struct base *b)
{
    int w = d->w;
    word col[S_COUNT * MAX_WORDS];   /* per tag set: its executed events, w words */
    memset(col, 0, (size_t)S_COUNT * w * sizeof *col);
    unsigned long long present = 0;  /* the tag sets with an executed event */
    for (int x = 0; x < d->nran; x++) {
        int e = d->ran[x];
        unsigned long long tags = base_event_tags(d->p, e);
        present |= tags;
        word bit = 1ull << ((unsigned)e % 64);
        for (word *at = col + (unsigned)e / 64; tags; tags &= tags - 1)
            at[(size_t)__builtin_ctzll(tags) * w] |= bit;
    }
    const word nothing[MAX_WORDS] = { 0 };
    const struct set *none = set_of_bits(d->A, nothing);
    for (int s = 0; s < S_COUNT; s++)
        b->sets[s] = none;
    word made[S_COUNT * MAX_WORDS];      /* the columns of the sets made so far, in order */
    const struct set *made_set[S_COUNT];
    int nmade = 0;
    for (unsigned long long left = present; left; left &= left - 1) {
        int s = __builtin_ctzll(left);
        const word *c = col + (size_t)s * w;
        int same = same_column(made, nmade, c, w);
        if (same >= 0) {
            b->sets[s] = made_set[same];
            continue;
        }
        b->sets[s] = s == S_ALL ? set_all(d->A) : set_of_bits(d->A, c);   /* S_ALL: every executed event */
        copy_words(made + (size_t)nmade * w, c, w);
        made_set[nmade++] = b->sets[s];
    }
}

/* po, int and ext: per executed thread event, its thread's executed
 * events (after it, for po); ext every other pair of executed events
 * outside one thread (an initial write's with every other event). */
static void thread_relations(struct dense_base *d, struct base *b)
{
    int w = d->w;
    for (int x = 0; x < d->nran; x++)
        if (d->tof[x] >= 0)
            put(d->thread + (size_t)d->tof[x] * w, d->ran[x]);
    clear(d);
    for (int x = 0; x < d->nran; x++) {
        int i = d->ran[x], t = d->tof[x];
        if (t < 0)
            continue;
        const word *tm = d->thread + (size_t)t * w;
        for (int k = 0; k < w; k++) {
            word after = k < i / 64 ? 0 : k > i / 64 ? ~0ull : ~((1ull << (i % 64) << 1) - 1);
            row(d, i)[k] = tm[k] & after;
        }
    }
    b->rels[R_PO] = made(d, true);
    for (int x = 0; x < d->nran; x++) {
        int t = d->tof[x];
        if (t >= 0)
            copy_words(row(d, d->ran[x]), d->thread + (size_t)t * w, w);
    }
    b->rels[R_INT] = made(d, true);
    for (int x = 0; x < d->nran; x++) {
        int i = d->ran[x];
        word *r = row(d, i);   /* int's row (none for an initial write) */
        for (int k = 0; k < w; k++)
            r[k] = d->exec[k] & ~r[k];
        r[(unsigned)i / 64] &= ~(1ull << ((unsigned)i % 64));
    }
    b->rels[R_EXT] = made(d, false);
}

/* i, j executed with d->key[i] == d->key[j] >= 0: each class's executed
 * events gathered in one pass (the classes are few: a linear search),
 * then each member's row is its class's. */
static const struct rel *key_class(struct dense_base *d)
{
    int w = d->w, nclass = 0;
    int class_key[REL_DENSE_MAX], class_of[REL_DENSE_MAX];   /* per class its key; per executed event its class */
    word members[REL_DENSE_MAX * MAX_WORDS];                  /* per class: its executed events, w words */
    for (int x = 0; x < d->nran; x++) {
        int k = d->key[d->ran[x]], c = 0;
        if (k < 0)
            continue;
        while (c < nclass && class_key[c] != k)
            c++;
        if (c == nclass) {
            class_key[nclass++] = k;
            zero_words(members + (size_t)c * w, w);
        }
        put(members + (size_t)c * w, d->ran[x]);
        class_of[x] = c;
    }
    clear(d);
    for (int x = 0; x < d->nran; x++)
        if (d->key[d->ran[x]] >= 0)
            copy_words(row(d, d->ran[x]), members + (size_t)class_of[x] * w, w);
    return made(d, true);
}

/* loc and vloc: memory accesses of one root location, and of one
 * generic location; one relation when the two partitions agree on the
 * executed events (key_class reads their keys alone). */
static void location_relations(struct dense_base *d, struct base *b)
{
    const struct litmus *l = d->p->lit;
    bool agree = true;
    for (int x = 0; x < d->nran; x++) {
        const struct event *ev = &d->p->events[d->ran[x]];
        bool access = event_is_mem(ev) && ev->loc >= 0;
        int key = access ? program_root_location(l, ev->loc) : -1;
        d->key[d->ran[x]] = key;
        agree &= !access || key == program_generic_location(l, ev->loc);
    }
    b->rels[R_LOC] = key_class(d);
    if (agree) {
        b->rels[R_VLOC] = b->rels[R_LOC];
        return;
    }
    for (int x = 0; x < d->nran; x++) {
        const struct event *ev = &d->p->events[d->ran[x]];
        d->key[d->ran[x]] = event_is_mem(ev) && ev->loc >= 0 ? program_generic_location(l, ev->loc) : -1;
    }
    b->rels[R_VLOC] = key_class(d);
}

/* The instances of scope s: d->tkey[t] for each thread (dense ids, a
 * thread joining the first instance whose first thread shares s with it,
 * as base_init's scope_keys) and d->group[g] their executed events. */
static void same_scope_groups(struct dense_base *d, enum scope s)
{
    int nt = d->p->nthreads, w = d->w, groups = 0;
    for (int t = 0; t < nt; t++) {
        d->tkey[t] = -1;
        for (int g = 0; g < groups && d->tkey[t] < 0; g++)
            if (program_same_scope(d->p, t, d->rep[g], s))
                d->tkey[t] = g;
        if (d->tkey[t] < 0) {
            d->rep[groups] = t;
            zero_words(d->group + (size_t)groups * w, w);
            d->tkey[t] = groups++;
        }
        for (int k = 0; k < w; k++)
            d->group[(size_t)d->tkey[t] * w + k] |= d->thread[(size_t)t * w + k];
    }
}

/* The executed thread events of t's instance of the scope of the last
 * same_scope_groups. */
static const word *group_of(const struct dense_base *d, int t)
{
    return d->group + (size_t)d->tkey[t] * d->w;
}

/* i, j executed thread events in the same instance of scope s, made once
 * per scope. */
static const struct rel *same_scope(struct dense_base *d, enum scope s)
{
    if (d->by_scope[s])
        return d->by_scope[s];
    same_scope_groups(d, s);
    clear(d);
    for (int x = 0; x < d->nran; x++) {
        int t = d->tof[x];
        if (t >= 0)
            copy_words(row(d, d->ran[x]), group_of(d, t), d->w);
    }
    return d->by_scope[s] = made(d, true);
}

/* sr: each event's scope includes the other's thread: the union over
 * scopes S of (events scoped S or wider)^2 & same instance of S (as
 * base_init's scope_relation). */
static const struct rel *scope_relation(struct dense_base *d)
{
    static const enum scope ptx[] = { SCOPE_CTA, SCOPE_GPU, SCOPE_SYS };
    static const enum scope vk[] = { SCOPE_SG, SCOPE_WG, SCOPE_QF, SCOPE_DV };
    bool vulkan = d->p->lit->dialect == DIALECT_VULKAN;
    int count = vulkan ? 4 : 3, w = d->w, widest = -1;
    for (int x = 0; x < d->nran; x++) {
        int e = d->ran[x];
        d->key[e] = d->p->events[e].scope == SCOPE_NONE ? -1 : program_scope_level(d->p->events[e].scope);
        if (d->key[e] > widest)
            widest = d->key[e];
    }
    const struct rel *same[4];   /* per scope up to the widest: its instances (made first: they use the rows) */
    int levels = 0;
    while (levels < count && program_scope_level(vulkan ? vk[levels] : ptx[levels]) <= widest)
        levels++;   /* a scope past the widest has no event scoped this wide, nor wider */
    for (int k = 0; k < levels; k++)
        same[k] = same_scope(d, vulkan ? vk[k] : ptx[k]);
    clear(d);   /* the union so far */
    for (int k = 0; k < levels; k++) {
        int level = program_scope_level(vulkan ? vk[k] : ptx[k]);
        const word *bits = same[k]->bits;   /* NULL: no pair */
        word wide[MAX_WORDS] = { 0 };
        for (int x = 0; x < d->nran; x++)
            if (d->key[d->ran[x]] >= level)
                put(wide, d->ran[x]);
        for (int x = 0; x < d->nran && bits; x++) {
            int i = d->ran[x];
            if (has(wide, i))
                for (int v = 0; v < w; v++)
                    row(d, i)[v] |= bits[(size_t)i * w + v] & wide[v];
        }
    }
    return made(d, false);
}

/* rmw (each executed RMW read to its executed write) and ssw (the
 * executed events of declared thread pairs, Vulkan). */
static void listed_relations(struct dense_base *d, struct base *b)
{
    const struct program *p = d->p;
    clear(d);
    for (int x = 0; x < d->nran; x++) {
        int i = d->ran[x];
        const struct event *e = &p->events[i];
        if (e->rmw && e->kind == EV_READ && e->rmw_partner >= 0 && has(d->exec, e->rmw_partner))
            put(row(d, i), e->rmw_partner);
    }
    b->rels[R_RMW] = made(d, false);
    clear(d);
    for (int t1 = 0; p->lit->dialect == DIALECT_VULKAN && t1 < p->nthreads; t1++)
        for (int t2 = 0; t2 < p->nthreads; t2++) {   /* t1's executed rows get t2's executed events */
            if (t1 == t2 || !base_ssw_declared(p->lit, t1, t2))
                continue;
            const word *from = d->thread + (size_t)t1 * d->w, *to = d->thread + (size_t)t2 * d->w;
            for (int k = 0; k < d->w; k++)
                for (word m = from[k]; m; m &= m - 1)
                    for (int v = 0; v < d->w; v++)
                        row(d, k * 64 + __builtin_ctzll(m))[v] |= to[v];
        }
    b->rels[R_SSW] = made(d, false);
}

/* Places the arrays of d for p in block (NULL: measures); returns its size. */
static size_t dense_layout(const struct program *p, struct dense_base *d, char *block)
{
    struct xblock x = { block, 0 };
    size_t n = (size_t)p->nevents + 1, nt = (size_t)p->nthreads + 1, w = (size_t)d->w;
    d->rows = xblock_take(&x, n * w, sizeof *d->rows);
    d->thread = xblock_take(&x, nt * w, sizeof *d->thread);
    d->group = xblock_take(&x, nt * w, sizeof *d->group);
    d->tkey = xblock_take(&x, nt, sizeof *d->tkey);
    d->rep = xblock_take(&x, nt, sizeof *d->rep);
    d->key = xblock_take(&x, n, sizeof *d->key);
    d->ran = xblock_take(&x, n, sizeof *d->ran);
    d->tof = xblock_take(&x, n, sizeof *d->tof);
    return x.size;
}

/* The execution literals of exec's n events into lits. */
static void exec_lits(const bool *exec, int n, lit *lits)
{
    for (int e = 0; e < n; e++)
        lits[e] = lit_of(exec[e]);
}

void exec_base_init(struct base *b, struct cnf *c, const struct program *p, const bool *exec)
{
    int n = p->nevents;
    if (n > REL_DENSE_MAX || cnf_symbolic(c)) {   /* operations not made as bits */
        lit *lits = xrealloc(NULL, ((size_t)n + 1) * sizeof *lits);   /* every entry written before it is read */
        exec_lits(exec, n, lits);
        base_init(b, c, p, lits);
        free(lits);
        return;
    }
    lit lits[REL_DENSE_MAX];   /* copied by rels_new */
    exec_lits(exec, n, lits);
    struct dense_base d = { .p = p, .n = n, .w = (n + 63) / 64 };
    b->n = n;
    b->arena = d.A = rels_new(c, n, lits);
    void *block = xcalloc(1, dense_layout(p, &d, NULL));   /* zeroed: the thread masks start empty */
    dense_layout(p, &d, block);
    for (int e = 0; e < n; e++)
        if (exec[e]) {
            put(d.exec, e);
            d.tof[d.nran] = p->events[e].thread;
            d.ran[d.nran++] = e;
        }
    tag_sets(&d, b);
    const struct rel *empty = rel_empty(d.A);
    for (int r = 0; r < R_COUNT; r++)
        b->rels[r] = empty;
    thread_relations(&d, b);
    location_relations(&d, b);
    b->rels[R_SR] = scope_relation(&d);
    bool vulkan = p->lit->dialect == DIALECT_VULKAN;
    b->rels[R_SCTA] = same_scope(&d, vulkan ? SCOPE_WG : SCOPE_CTA);
    if (p->lit->dialect == DIALECT_OPENCL) {
        b->rels[R_SWG] = same_scope(&d, SCOPE_WG);
        for (int e = 0; e < n; e++) {   /* sdv: threads on one device (placement {0, wg, dev}) */
            int t = p->events[e].thread;
            d.key[e] = t >= 0 ? p->lit->threads[t].scope_id[2] : -1;
        }
        b->rels[R_SDV] = key_class(&d);
    }
    if (vulkan) {
        b->rels[R_SSG] = same_scope(&d, SCOPE_SG);
        b->rels[R_SWG] = same_scope(&d, SCOPE_WG);
        b->rels[R_SQF] = same_scope(&d, SCOPE_QF);
    }
    listed_relations(&d, b);
    free(block);
}
