/* A check result as a worker sends it: its bytes, each long text (a
 * reason, a progress result's brief) cut at its end. */
#ifndef GPUBMC_BMC_DRIVER_RESULT_PACK_H
#define GPUBMC_BMC_DRIVER_RESULT_PACK_H

#include <stdbool.h>
#include <stddef.h>

#include "bmc/check/check.h"

/* The most bytes result_pack writes. */
#define RESULT_PACK_MAX (sizeof(struct check_result) + 2 * (1 + 2 * CHECK_PROGRESS_MODELS))

/* Packs r, with its first nprogress progress results (0 to
 * CHECK_PROGRESS_MODELS), into dst (RESULT_PACK_MAX bytes); returns the
 * bytes written.  Its pointers go as they are. */
size_t result_pack(const struct check_result *r, int nprogress, unsigned char *dst);

/* Unpacks the len bytes at src (result_pack's, of nprogress progress
 * results) into r; false when they are not such bytes.  The bytes past
 * the NUL that ends each text, and the progress results past nprogress,
 * are left as they are. */
bool result_unpack(const unsigned char *src, size_t len, int nprogress, struct check_result *r);

#endif
