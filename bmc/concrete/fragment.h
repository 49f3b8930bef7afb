/* The interleaving fragment: programs on which the memory model admits
 * exactly the executions of the interleavings of their instructions, so
 * that termination is a question about a finite state graph (bmc/concrete/states.h).
 * docs/interleaving-fragment.md gives the argument per model. */
#ifndef GPUBMC_FRAGMENT_H
#define GPUBMC_FRAGMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "program/program.h"
#include "models/model.h"

/* True when p is in the fragment under model md with the axioms named in
 * disabled[0..ndisabled) switched off: one location and no alias of it,
 * every access atomic (Vulkan ATOM) or strong (PTX: relaxed, acquire or
 * release, generic proxy), every two accesses of different threads in
 * each other's scope, only loads, stores, RMWs, local operations and
 * jumps, no ssw, no filter, every axiom on.  Otherwise false, and why says what
 * breaks it (a sentence fragment such as "two locations, x and y"). */
bool fragment_check(const struct program *p, const struct model_desc *md, const char *const *disabled,
                    int ndisabled, char *why, size_t len);

#endif
