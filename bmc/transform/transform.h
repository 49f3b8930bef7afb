/* Built-in program transformations (compiler rewrites and weakenings of
 * synchronisation), applied to a litmus AST one site at a time.  Each
 * result is a new AST parsed back from the printed text of the rewritten
 * program, so it is exactly what --emit-transformed writes. */
#ifndef GPUBMC_TRANSFORM_H
#define GPUBMC_TRANSFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "litmus/ast.h"

enum transform_kind {
    T_HOIST_ACQUIRE,           /* an acquire in a loop -> a fence after the loop */
    T_REMOVE_SPIN,             /* a side-effect-free loop -> one pass */
    T_WEAKEN_ORDER,            /* one step down the memory orders (and Vulkan semantics, av/vis) */
    T_NARROW_SCOPE,            /* one scope narrower */
    T_DROP_FENCE,              /* a fence (Vulkan: also avdevice/visdevice) removed */
    T_DROP_BARRIER_SEMANTICS,  /* a Vulkan control barrier without its memory semantics */
    T_REORDER,                 /* two adjacent independent accesses swapped */
    T_NKINDS
};

/* The kinds that weaken one synchronisation site in place (--necessary-sync). */
#define TRANSFORM_SYNC_KINDS ((1u << T_WEAKEN_ORDER) | (1u << T_NARROW_SCOPE) | (1u << T_DROP_FENCE) \
                              | (1u << T_DROP_BARRIER_SEMANTICS))

/* One application of a transformation at one site. */
struct variant {
    enum transform_kind kind;
    int thread;              /* thread index in the source */
    int instr;               /* index of the site's instruction in that thread */
    int line;                /* its line in the source */
    char *change;            /* e.g. "`ld.acquire.gpu r0, f` -> `ld.relaxed.gpu r0, f`" */
    struct litmus *target;   /* the rewritten program */
};

struct variants {
    int n, cap;
    struct variant *v;
};

/* The name of a kind, e.g. "hoist-acquire". */
const char *transform_name(enum transform_kind k);

/* Parses "NAME" or "NAME@LINE" (LINE >= 1; 0 when absent); false with err
 * saying what is wrong (an unknown name lists the known ones). */
bool transform_parse(const char *spec, enum transform_kind *k, int *line, char *err, size_t len);

/* Appends to out every variant of l under the kinds in mask (bits 1 << k),
 * one per site and alternative, in thread then instruction order; with
 * line > 0 only sites on that line of l.  False with err when a rewritten
 * program does not parse back (an internal error). */
bool transform_apply(const struct litmus *l, unsigned mask, int line, struct variants *out,
                     char *err, size_t len);

/* Frees the variants and their programs. */
void variants_free(struct variants *v);

#endif
