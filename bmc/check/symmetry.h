/* Symmetry breaking for interchangeable threads.
 *
 * Threads with the same code, the same initial registers and symmetric
 * places in the scope tree, that the condition, the filter, `locations`
 * and ssw pairs do not name, can be permuted in any execution without
 * changing its consistency or its final memory.  Their code may differ
 * in the locations it accesses where those are private: each accessed by
 * that thread alone, not named by the test, neither an alias nor aliased,
 * paired one to one at the same instructions with the same initial value
 * (a kernel's per-thread output element, out[gid]); the permutation then
 * permutes them too, and only they change in the final memory.  Of every set of
 * executions that differ only by such a permutation, it is enough to
 * search one: the one whose key writes are coherence-ordered by thread
 * index (a linear extension of co on them always exists, and sorting the
 * threads along it is such a permutation).  The checks whose answer
 * depends on thread identity (termination under a progress model,
 * enumeration of outcomes over registers) must not use it. */
#ifndef GPUBMC_SYMMETRY_H
#define GPUBMC_SYMMETRY_H

#include "program/program.h"
#include "encoders/cnf.h"
#include "encoders/rel.h"

/* The write of each thread whose coherence order sorts interchangeable
 * threads (never one to a private location, which has nothing to compare).  Either key keeps an execution of every orbit; which one lets
 * the solver finish first depends on the program: the last write (a lock's
 * release) makes the proof that a counter protected by a CAS lock is exact
 * 20x faster at 8 threads, the first write makes finding a lost update of a
 * relaxed lock 3-8x faster at 18-32 threads.  So a hard check tries both
 * (check.c). */
enum symmetry_key {
    KEY_FIRST_WRITE,   /* the thread's first write */
    KEY_LAST_WRITE,    /* its last write on every run that ends, else its first */
    SYMMETRY_KEYS
};

/* How many keys are worth trying: 0 when no threads are interchangeable
 * (or they do not write), 1 when both keys pick the same writes, else 2. */
int symmetry_keys(const struct program *p);

/* Adds, for every two consecutive threads of a set of interchangeable
 * ones, "the later thread's key write is not co-before the earlier one's";
 * returns the number of clauses added. */
int symmetry_break(struct cnf *c, const struct program *p, const struct rel *co, enum symmetry_key key);

/* Offset among thread t's events of its write for key, -1 if it has none. */
int symmetry_key_write(const struct program *p, int t, enum symmetry_key key);

#endif
