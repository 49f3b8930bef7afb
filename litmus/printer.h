/* The litmus printer: an AST back to litmus text in its own dialect, such
 * that litmus_parse gives back an equal AST (litmus_equal). */
#ifndef GPUBMC_LITMUS_PRINTER_H
#define GPUBMC_LITMUS_PRINTER_H

#include "litmus/ast.h"

/* The text of l as a NUL-terminated string the caller frees; NULL when out
 * of memory.  The doc text (l->doc) follows the name line as it was
 * written.  Every location is declared in the initial state (in index
 * order), registers keep their order, and the condition is printed with
 * the parentheses its tree needs and no others. */
char *litmus_print(const struct litmus *l);

/* The text of instruction in of thread th of l, as litmus_print writes it;
 * the caller frees it; NULL when out of memory. */
char *litmus_print_instr(const struct litmus *l, const struct thread *th, const struct instr *in);

#endif
