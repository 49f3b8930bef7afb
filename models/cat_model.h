/* Models read from cat files (--cat FILE): a parsed and checked cat
 * program behind the model interface of models/model.h, with no
 * program-order facts, for the dialect its base names belong to (either
 * dialect when it names neither's own sets or relations). */
#ifndef GPUBMC_CAT_MODEL_H
#define GPUBMC_CAT_MODEL_H

#include <stddef.h>

#include "models/model.h"

struct cat_model;

/* Reads, parses and checks the cat file at path (with the stdlib.cat of
 * its folder and its includes); NULL with "FILE:LINE:COL: error: message"
 * (or "FILE: error: message") in err on an error. */
struct cat_model *cat_model_load(const char *path, char *err, size_t errlen);
/* The model for tests of dialect d; for a model of the other dialect, that
 * one (whose dialect the caller then finds different). */
const struct model_desc *cat_model_desc(const struct cat_model *cm, enum dialect d);
/* Frees a loaded model (NULL: nothing). */
void cat_model_free(struct cat_model *cm);

#endif
