/* What the printer's two files share (internal to litmus/): the growing
 * text, the pieces every dialect prints alike, and the OpenCL parts. */
#ifndef GPUBMC_PRINTER_IMPL_H
#define GPUBMC_PRINTER_IMPL_H

#include <stddef.h>

#include "litmus/printer.h"

/* A growing string; failed set once an allocation failed (or, for
 * OpenCL, an instruction has no spelling that parses back to it). */
struct text {
    char *s;
    size_t len, cap;
    bool failed;
};

/* Appends printf-formatted text. */
__attribute__((format(printf, 2, 3)))
void pr_put(struct text *t, const char *fmt, ...);
/* Appends a register's name or a constant. */
void pr_operand(struct text *t, const struct thread *th, const struct operand *o);
/* Appends the name of location loc as the dialect's conditions write it. */
void pr_location(struct text *t, const struct litmus *l, int loc);
/* Appends the locations list, the filter and the final condition. */
void pr_tail(struct text *t, const struct litmus *l);

/* printer_opencl.c */

/* Appends an OpenCL test's initial state and threads. */
void pr_opencl_program(struct text *t, const struct litmus *l);
/* Appends the statement that parses back to instruction in. */
void pr_opencl_instr(struct text *t, const struct litmus *l, const struct thread *th, const struct instr *in);
/* Appends location loc as an OpenCL condition names it ("y[1]" for a cell). */
void pr_opencl_location(struct text *t, const struct litmus *l, int loc);

#endif
