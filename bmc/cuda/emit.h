/* --emit-cuda DIR: a PTX litmus test as a self-contained CUDA program that
 * runs many instances of it at once under stress and prints the outcomes
 * it saw (herd's log format and JSON). */
#ifndef GPUBMC_CUDA_EMIT_H
#define GPUBMC_CUDA_EMIT_H

#include "bmc/check/check.h"

/* Writes DIR/NAME.cu for the test at path (NAME: the path without a
 * leading ./ or ../ and without .litmus, '/' turned into '_'), and
 * DIR/Makefile and DIR/params.txt (the same for every test; DIR is made
 * when missing).  PASS with the file's name in the reason and
 * r->details {"cuda", "observed"}; ERROR when the file does not parse, the
 * test cannot run on one GPU (the reason says why), or a write fails. */
void check_emit_cuda(const char *path, const char *dir, const struct check_opts *o, struct check_result *r);

#endif
