/* The values a read can return, known before any rf literal exists: per
 * physical location, the bits that are 0 (or 1) in every value written to
 * it.  A read takes its value from a write to its location (rf only joins
 * such pairs, base_rf_candidate), so a bit that every such write stores as
 * a constant 0 (1) is 0 (1) in the read too and needs no variable, no rf
 * equality clause and no gate downstream.  A register stored has the bits
 * all its values agree on (its initial value, moved constants); a loaded
 * one is any value (it could come out of thin air). */
#ifndef GPUBMC_READ_DOMAIN_H
#define GPUBMC_READ_DOMAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "encoders/bv.h"
#include "program/program.h"

struct read_domain {
    int nlocs;
    bool *known;       /* per root location: every write to it stores known bits
                          (the allocation of the three arrays) */
    uint32_t *any;     /* the OR of those constants */
    uint32_t *all;     /* their AND */
};

/* The domains of p's locations: every initial value, store, exchange and
 * compare-and-swap that writes only when equal counted, a register by the
 * constants its thread moves into it; RMWs adding known constants of at
 * least 1 to a location of such values widen it to every bit up to the
 * highest of its largest value plus their sum (subtracting ones, up to
 * its largest value, when its smallest is at least their sum); a loaded
 * or computed value (arithmetic, another RMW, an arbitrary value) makes
 * its location unknown. */
void read_domain_build(const struct program *p, struct read_domain *d);
/* A value for a read of location loc: constant bits where every write to
 * loc agrees, a fresh variable for each other bit. */
struct bv read_domain_value(struct cnf *c, const struct read_domain *d, const struct program *p, int loc);
/* Frees what read_domain_build allocated. */
void read_domain_free(struct read_domain *d);

#endif
