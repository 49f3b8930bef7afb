/* Decoded mnemonics remembered by their text (internal to litmus/): the
 * decoding of "ld.atom.dv.sc0" and its kin depends on the dialect and the
 * text alone, and a batch meets the same few dozen again and again. */
#ifndef GPUBMC_MNEMONIC_MEMO_H
#define GPUBMC_MNEMONIC_MEMO_H

#include <stdbool.h>
#include <stddef.h>

#include "litmus/ast.h"

/* The instruction fields and operand signature that the mnemonic of len
 * bytes at text decodes to in dialect d, copied into *in (its pos kept)
 * and *sig when an earlier decoding was remembered; false otherwise. */
bool mnemonic_memo_find(enum dialect d, const char *text, size_t len, struct instr *in, const char **sig);

/* Remembers that the mnemonic of len bytes at text decodes to the fields
 * of in (all but pos and text) and the operand signature sig (a string
 * literal) in dialect d; a text too long, or a full memo, is left out. */
void mnemonic_memo_add(enum dialect d, const char *text, size_t len, const struct instr *in, const char *sig);

#endif
