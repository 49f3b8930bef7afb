/* Structural equality of two litmus ASTs, for round trips through the
 * printer: everything but source positions, instruction texts and paths. */
#ifndef GPUBMC_LITMUS_EQUAL_H
#define GPUBMC_LITMUS_EQUAL_H

#include <stddef.h>

#include "litmus/ast.h"

/* True when a and b describe the same test; otherwise false with the
 * first difference described in why (len bytes). */
bool litmus_equal(const struct litmus *a, const struct litmus *b, char *why, size_t len);

#endif
