/* One instruction of a PTX litmus test as a CUDA statement of inline PTX
 * (--emit-cuda): the instruction exactly as written, 32-bit, on a generic
 * address. */
#ifndef GPUBMC_CUDA_PTX_ASM_H
#define GPUBMC_CUDA_PTX_ASM_H

#include <stdbool.h>
#include <stddef.h>

#include "litmus/ast.h"

/* Writes to buf the statement for in, an instruction of thread th that is
 * not a branch, goto or label: `asm volatile("PTX" : outputs : inputs :
 * "memory");` where register rN is the C variable rN and location x the
 * pointer L_x.  Loads, stores, atom, red, fences and bar.cta.sync keep
 * their order, scope and operation (atom.sub and red.sub become the add
 * of the negated operand: PTX has no sub); local arithmetic is the PTX
 * instruction of the same operation.  Returns false, with why, when PTX
 * has no such instruction (atom.mul, red.acquire, ...) or the harness
 * cannot provide its operands (texture, surface, constant proxies). */
bool ptx_asm_statement(const struct litmus *l, const struct thread *th, const struct instr *in, char *buf,
                       size_t len, char *why, size_t wlen);

/* What an access through proxy p (not generic) needs: "texture object",
 * "surface object" or "constant bank". */
const char *ptx_asm_proxy_resource(enum proxy p);

/* Writes to buf the C expression of a value operand: the register's
 * variable or the constant, as an int32_t. */
void ptx_asm_operand(const struct thread *th, const struct operand *o, char *buf, size_t len);

#endif
