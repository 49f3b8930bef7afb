/* Mixed-size accesses in SPIR-V: an access that matches no leaf of its
 * object (a uint read over uchar members, a store of one size read back
 * at another, padding read through a pointer of another type) is split
 * into the run of leaves it covers.  Where its bounds fall inside a leaf
 * or in padding, the translation records cuts there and the module is
 * translated again with the object's leaves cut at them (and the padding
 * they touch laid out), so that every access covers a run of whole
 * leaves.  Objects accessed at one size keep their leaves as they are. */
#include <stdlib.h>
#include <string.h>

#include "litmus/spirv_trans.h"
#include "util/xalloc.h"

/* The index of the first leaf of o that ends after off (leaves sorted). */
static int first_ending_after(const struct obj *o, int64_t off)
{
    int lo = 0, hi = o->nleaf;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (o->leaf[mid].off + o->leaf[mid].size <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The run of leaves of o covering [off, off + size): first and count, 0 when none. */
int tr_cover(const struct trans *t, int oi, int64_t off, int size, int *first)
{
    const struct obj *o = &t->obj[oi];
    int i = first_ending_after(o, off), n = 0;
    if (i >= o->nleaf || o->leaf[i].off != off)
        return 0;
    *first = i;
    for (int64_t at = off; at < off + size; i++, n++) {
        if (i >= o->nleaf || o->leaf[i].off != at || (o->grp == SCG_PRIVATE && o->leaf[i].reg < 0))
            return 0;
        at += o->leaf[i].size;
        if (at > off + size)
            return 0;
    }
    return n;
}

/* Adds cut c to s; true when it was not there. */
static bool add_cut(struct cut_set *s, int64_t c)
{
    int i = 0;
    while (i < s->n && s->at[i] < c)
        i++;
    if (i < s->n && s->at[i] == c)
        return false;
    XGROW(s->at, s->cap, s->n + 1);
    memmove(&s->at[i + 1], &s->at[i], sizeof *s->at * (size_t)(s->n - i));
    s->at[i] = c;
    s->n++;
    return true;
}

/* Cuts at off and off + size for the next translation; true when one is new. */
bool tr_note_cut(struct trans *t, int oi, int64_t off, int size, struct srcpos pos)
{
    const struct obj *o = &t->obj[oi];
    if (off < 0 || off + size > o->extent)
        return false;
    struct cut_set *s = &t->cuts[o->var];
    bool added = add_cut(s, off);
    added = add_cut(s, off + size) || added;
    if (added) {
        t->new_cut = true;
        t->cut_pos = pos;
    }
    return added;
}

/* Lays out a leaf of object o, cut into pieces at the cuts inside it. */
bool tr_cut_leaf(struct trans *t, int oi, int64_t off, int size, int64_t v, struct srcpos pos)
{
    const struct cut_set *s = &t->cuts[t->obj[oi].var];
    int64_t at = off;
    for (int i = 0; i <= s->n; i++) {
        int64_t end = i < s->n ? s->at[i] : off + size;
        if (end <= at || end > off + size)
            continue;
        int piece = (int)(end - at);
        int64_t pv = v;
        if (piece != size) {    /* little-endian: the bytes at - off on */
            if (piece > 4)
                return spv_fail(t->err, pos, "%%%s: accesses of other sizes cut its %d-byte element at byte %lld "
                                "into a %d-byte piece, wider than the 32 bits gpubmc computes in",
                                tr_name(t, t->obj[oi].var), size, (long long)off, piece);
            pv = v >> (8 * (at - off));
            pv = piece < 4 ? pv & (((int64_t)1 << (8 * piece)) - 1) : (int64_t)(int32_t)(uint32_t)pv;
        }
        tr_new_slot(t, oi, at, piece, pv);
        at = end;
    }
    return true;
}

static int by_offset(const void *a, const void *b)
{
    const struct leaf *x = a, *y = b;
    return (x->off > y->off) - (x->off < y->off);
}

/* Lays out padding [a, b) of object o, cut at the cuts inside it. */
static void pad(struct trans *t, int oi, int64_t a, int64_t b)
{
    const struct cut_set *s = &t->cuts[t->obj[oi].var];
    for (int i = 0; i <= s->n && a < b; i++) {
        int64_t end = i < s->n ? s->at[i] : b;
        if (end <= a || end > b)
            continue;
        tr_new_slot(t, oi, a, (int)(end - a), 0);
        a = end;
    }
}

/* Sorts o's leaves by offset and lays out the padding that cuts touch. */
void tr_finish_layout(struct trans *t, int oi)
{
    struct obj *o = &t->obj[oi];
    qsort(o->leaf, (size_t)o->nleaf, sizeof *o->leaf, by_offset);
    const struct cut_set *s = &t->cuts[o->var];
    if (!s->n)
        return;
    int n = o->nleaf, k = 0;
    int64_t at = 0;
    for (int i = 0; i <= n; i++) {      /* the gaps before each leaf and after the last */
        int64_t next = i < n ? o->leaf[i].off : o->extent;
        if (next > at) {
            while (k < s->n && s->at[k] < at)
                k++;
            if (k < s->n && s->at[k] <= next)     /* a cut touches the gap [at, next) */
                pad(t, oi, at, next);
            o = &t->obj[oi];
        }
        if (i < n && o->leaf[i].off + o->leaf[i].size > at)
            at = o->leaf[i].off + o->leaf[i].size;
    }
    if (o->nleaf != n)
        qsort(o->leaf, (size_t)o->nleaf, sizeof *o->leaf, by_offset);
}
