/* Interchangeable threads and the clauses that order them. */
#include "bmc/check/symmetry.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static bool same_operand(const struct operand *a, const struct operand *b)
{
    return a->is_reg == b->is_reg && (a->is_reg ? a->reg == b->reg : a->value == b->value);
}

/* Locations a swap of two threads may swap too: per location its owner,
 * the one thread that accesses it when that is so and nothing else names
 * it or shares its memory, else -1; and the pairing being built for one
 * pair of threads (to[l]: what l becomes, -1 if not paired yet). */
struct private_locs {
    const struct litmus *l;
    int *owner;
    int *to;
};

/* Same instruction, up to source position and text (labels and registers
 * are compared by index, so LC00 in one thread matches LC10 in another),
 * and up to a pairing of locations private to threads ta and tb, which
 * must have the same initial value and tags. */
static bool same_instr(const struct instr *a, const struct instr *b, struct private_locs *pl, int ta, int tb)
{
    if (a->loc != b->loc) {
        if (a->loc < 0 || b->loc < 0 || pl->owner[a->loc] != ta || pl->owner[b->loc] != tb)
            return false;
        const struct location *la = &pl->l->locs[a->loc], *lb = &pl->l->locs[b->loc];
        if (la->init != lb->init || la->cl_tags != lb->cl_tags)
            return false;
        if (pl->to[a->loc] < 0 && pl->to[b->loc] < 0) {   /* a new pair, both ways */
            pl->to[a->loc] = b->loc;
            pl->to[b->loc] = a->loc;
        }
        if (pl->to[a->loc] != b->loc)
            return false;
    }
    return a->kind == b->kind && a->mo == b->mo && a->scope == b->scope && a->proxy == b->proxy &&
           a->op == b->op && a->cmp == b->cmp && a->dst == b->dst &&
           same_operand(&a->a, &b->a) && same_operand(&a->b, &b->b) && a->label == b->label &&
           a->vk_flags == b->vk_flags && a->storage_class == b->storage_class && a->semsc == b->semsc &&
           a->arrive == b->arrive && a->bar_instance == b->bar_instance &&
           a->has_bar_id == b->has_bar_id && a->has_bar_quorum == b->has_bar_quorum &&
           same_operand(&a->bar_id, &b->bar_id) && same_operand(&a->bar_quorum, &b->bar_quorum);
}

static bool same_code(const struct thread *a, const struct thread *b, struct private_locs *pl, int ta, int tb)
{
    if (a->ninstrs != b->ninstrs || a->nregs != b->nregs || a->nlabels != b->nlabels)
        return false;
    for (int r = 0; r < a->nregs; r++)
        if (a->reg_has_init[r] != b->reg_has_init[r] ||
            (a->reg_has_init[r] && a->reg_init[r] != b->reg_init[r]))
            return false;
    for (int i = 0; i < a->ninstrs; i++)
        if (!same_instr(&a->instrs[i], &b->instrs[i], pl, ta, tb))
            return false;
    return true;
}

/* True when threads a and b share their scope instance at placement level k. */
static bool same_place(const struct litmus *l, int a, int b, int k)
{
    int levels = l->dialect == DIALECT_PTX ? 2 : 3;
    for (int m = k; m < levels; m++)
        if (l->threads[a].scope_id[m] != l->threads[b].scope_id[m])
            return false;
    return true;
}

/* Swapping a and b maps the scope tree to itself: every other thread
 * shares each level with a exactly when it shares it with b. */
static bool symmetric_places(const struct litmus *l, int a, int b)
{
    for (int t = 0; t < l->nthreads; t++)
        for (int k = 0; k < 3 && t != a && t != b; k++)
            if (same_place(l, a, t, k) != same_place(l, b, t, k))
                return false;
    return true;
}

/* Marks the threads (named) and locations (named_loc) value v names. */
static void mark_value(const struct avalue *v, bool *named, bool *named_loc)
{
    if (v->kind == AV_REG)
        named[v->thread] = true;
    if (v->kind == AV_LOC)
        named_loc[v->loc] = true;
}

/* Down lhs (a chain of any length) in a loop, rhs by recursion. */
static void mark_assertion(const struct assertion *a, bool *named, bool *named_loc)
{
    for (; a; a = a->lhs) {
        if (a->kind == A_CMP) {
            mark_value(&a->a, named, named_loc);
            mark_value(&a->b, named, named_loc);
        }
        mark_assertion(a->rhs, named, named_loc);
    }
}

/* Threads the test names individually: registers in the condition, the
 * filter or `locations`, and ssw pairs; and, in named_loc, the locations
 * they name. */
static bool *named_threads(const struct litmus *l, bool *named_loc)
{
    bool *named = xcalloc((size_t)l->nthreads + 1, sizeof *named);
    mark_assertion(l->assertion, named, named_loc);
    mark_assertion(l->filter, named, named_loc);
    for (int i = 0; i < l->nobserved; i++)
        mark_value(&l->observed[i], named, named_loc);
    for (int i = 0; i < l->nssw; i++)
        named[l->ssw[i].from] = named[l->ssw[i].to] = true;
    return named;
}

/* Per location the one thread that accesses it, -1 when several or none
 * do, when the test names it, or when it is an alias or aliased. */
static int *location_owners(const struct litmus *l, const bool *named_loc)
{
    int *owner = xcalloc((size_t)l->nlocs + 1, sizeof *owner);
    for (int k = 0; k < l->nlocs; k++)
        owner[k] = named_loc[k] || l->locs[k].alias_of >= 0 ? -1 : -2;   /* -2: no access yet */
    for (int k = 0; k < l->nlocs; k++)
        if (l->locs[k].alias_of >= 0)
            owner[l->locs[k].alias_of] = -1;
    for (int t = 0; t < l->nthreads; t++)
        for (int i = 0; i < l->threads[t].ninstrs; i++) {
            int k = l->threads[t].instrs[i].loc;
            if (k >= 0 && owner[k] != -1)
                owner[k] = owner[k] == -2 || owner[k] == t ? t : -1;
        }
    for (int k = 0; k < l->nlocs; k++)
        owner[k] = owner[k] < 0 ? -1 : owner[k];
    return owner;
}

static bool interchangeable(const struct program *p, const bool *named, struct private_locs *pl, int a, int b)
{
    const struct litmus *l = p->lit;
    for (int k = 0; k < l->nlocs; k++)
        pl->to[k] = -1;
    return !named[a] && !named[b] && p->threads[a].nevents == p->threads[b].nevents &&
           same_code(&l->threads[a], &l->threads[b], pl, a, b) && symmetric_places(l, a, b);
}

/* Marks the micro-ops of pt that some run ending at the thread's end can
 * jump over.  Every jump of the unrolled code goes forward, so a micro-op
 * is on every such run exactly when no jump spans it; jumps to the cut past
 * the bound end no run. */
static bool *skippable_uops(const struct pthread *pt)
{
    int *spans = xcalloc((size_t)pt->ncode + 2, sizeof *spans);
    for (int i = 0; i < pt->ncode; i++) {
        const struct uop *u = &pt->code[i];
        int to[2] = { -1, -1 };
        if (u->kind == U_BACKJUMP) {
            to[0] = u->target;
            to[1] = u->exit;
        } else if (u->kind == U_INSTR && (u->in->kind == I_BRANCH || u->in->kind == I_GOTO)) {
            to[0] = u->target;
        }
        for (int k = 0; k < 2; k++)
            if (to[k] > i + 1) {
                spans[i + 1]++;
                spans[to[k]]--;
            }
    }
    bool *skippable = xcalloc((size_t)pt->ncode + 1, sizeof *skippable);
    for (int i = 0, open = 0; i < pt->ncode; i++) {
        open += spans[i];
        skippable[i] = open > 0;
    }
    free(spans);
    return skippable;
}

/* The locations a swap of threads may swap (location_owners), from p. */
static int *private_owners(const struct litmus *l)
{
    bool *named_loc = xcalloc((size_t)l->nlocs + 1, sizeof *named_loc);
    free(named_threads(l, named_loc));
    int *owner = location_owners(l, named_loc);
    free(named_loc);
    return owner;
}

/* symmetry_key_write with the private locations' owners given. */
static int key_write(const struct program *p, int t, enum symmetry_key key, const int *owner)
{
    const struct pthread *pt = &p->threads[t];
    bool *skippable = skippable_uops(pt);
    int first = -1, last_unskippable = -1;
    for (int k = 0; k < pt->nevents; k++) {
        const struct event *e = &p->events[pt->first_event + k];
        if (e->kind != EV_WRITE || (e->loc >= 0 && owner[e->loc] >= 0))   /* a private write has no co to compare */
            continue;
        if (first < 0)
            first = k;
        if (!skippable[e->uop])
            last_unskippable = k;
    }
    free(skippable);
    return key == KEY_LAST_WRITE && last_unskippable >= 0 ? last_unskippable : first;
}

int symmetry_key_write(const struct program *p, int t, enum symmetry_key key)
{
    int *owner = private_owners(p->lit);
    int k = key_write(p, t, key, owner);
    free(owner);
    return k;
}

/* For every thread the previous thread of its set of interchangeable ones
 * (in index order), -1 for the first of a set; the caller frees it. */
static int *previous_interchangeable(const struct program *p)
{
    int nt = p->nthreads, nl = p->lit->nlocs;
    bool *named_loc = xcalloc((size_t)nl + 1, sizeof *named_loc);
    bool *named = named_threads(p->lit, named_loc);
    struct private_locs pl = { p->lit, location_owners(p->lit, named_loc), xcalloc((size_t)nl + 1, sizeof(int)) };
    int *prev = xcalloc((size_t)nt + 1, sizeof *prev);
    for (int t = 0; t < nt; t++)
        prev[t] = -2;   /* not placed yet */
    for (int a = 0; a < nt; a++) {
        if (prev[a] != -2)
            continue;
        prev[a] = -1;
        for (int b = a + 1, last = a; b < nt; b++)
            if (prev[b] == -2 && interchangeable(p, named, &pl, a, b)) {
                prev[b] = last;
                last = b;
            }
    }
    free(named);
    free(named_loc);
    free(pl.owner);
    free(pl.to);
    return prev;
}

int symmetry_keys(const struct program *p)
{
    int *prev = previous_interchangeable(p), *owner = private_owners(p->lit), keys = 0;
    for (int t = 0; t < p->nthreads && keys < 2; t++) {
        int first = prev[t] < 0 ? -1 : key_write(p, t, KEY_FIRST_WRITE, owner);
        if (first >= 0)
            keys = first != key_write(p, t, KEY_LAST_WRITE, owner) ? 2 : 1;
    }
    free(prev);
    free(owner);
    return keys;
}

int symmetry_break(struct cnf *c, const struct program *p, const struct rel *co, enum symmetry_key key)
{
    int *prev = previous_interchangeable(p), *owner = private_owners(p->lit), added = 0;
    for (int t = 0; t < p->nthreads; t++) {
        int offset = prev[t] < 0 ? -1 : key_write(p, t, key, owner);
        if (offset < 0)
            continue;
        lit later_key = rel_get(co, p->threads[t].first_event + offset,
                                p->threads[prev[t]].first_event + offset);
        if (later_key != LIT_FALSE) {
            cnf_unit(c, -later_key);
            added++;
        }
    }
    free(prev);
    free(owner);
    return added;
}
