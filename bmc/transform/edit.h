/* Editing a litmus AST: a private copy, instruction insertion and removal,
 * and the variant that results (printed and parsed back). */
#ifndef GPUBMC_TRANSFORM_EDIT_H
#define GPUBMC_TRANSFORM_EDIT_H

#include "bmc/transform/transform.h"

/* A copy of l to edit (l printed and parsed back); NULL when that fails. */
struct litmus *edit_copy(const struct litmus *l);

/* Removes instruction i of thread th of l. */
void edit_remove(const struct litmus *l, struct thread *th, int i);

/* Inserts a copy of in before instruction i of thread th (i == ninstrs:
 * at the end). */
void edit_insert(struct thread *th, int i, const struct instr *in);

/* The text of instruction in of thread th of l, in backquotes, into buf. */
void edit_quote(const struct litmus *l, const struct thread *th, const struct instr *in, char *buf,
                size_t len);

/* Appends the variant (kind, thread, instr, the source line of that
 * instruction, change) whose program is the edited copy, printed and
 * parsed back; frees copy.  False with err when it does not parse back. */
bool edit_finish(struct variants *out, const struct litmus *src, struct litmus *copy, enum transform_kind kind,
                 int thread, int instr, const char *change, char *err, size_t len);

#endif
