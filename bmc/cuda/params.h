/* The stress parameters of the CUDA harness (--emit-cuda): one table that
 * the emitted programs read and params.txt documents. */
#ifndef GPUBMC_CUDA_PARAMS_H
#define GPUBMC_CUDA_PARAMS_H

#include <stdio.h>

/* Writes params.txt: every parameter at its default, each after a comment
 * saying what it does. */
void cuda_params_write_file(FILE *f);

/* Writes the table as C++ for an emitted program: struct gb_param, the
 * enum of GP_<name> indices, GB_NPARAMS and gb_param_table[]. */
void cuda_params_write_table(FILE *f);

#endif
