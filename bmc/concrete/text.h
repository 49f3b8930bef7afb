/* Text put together piece by piece, without printf: the descriptions of
 * lassos and starving schedulers are made for every progress model of
 * every termination check, where snprintf cost more than the rest. */
#ifndef GPUBMC_TEXT_H
#define GPUBMC_TEXT_H

#include <stddef.h>

/* Appends the strings parts[0..n) to buf (len bytes, *used of them
 * written), as far as they fit, and ends it. */
void text_append(char *buf, size_t len, size_t *used, const char *const *parts, int n);
/* Copies s into buf (len bytes) as far as it fits, and ends it when len
 * is not 0: snprintf's "%s" for a fraction of its instructions. */
void text_copy(char *buf, size_t len, const char *s);
/* v in decimal, into digits (12 bytes); returns digits. */
const char *text_int(int v, char *digits);

#endif
