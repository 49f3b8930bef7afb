/* Files read ahead of their use, a group at a time: a worker's queued
 * litmus files each cost four system calls to read one by one (stat,
 * open, read, close), which on a virtual machine cost more than a small
 * file's parsing.  Where the kernel offers io_uring, a group of files is
 * stated, opened, read and closed in two submissions; elsewhere (another
 * system, a kernel or sandbox that refuses it) nothing is read ahead and
 * each file is read when it is used, as before. */
#ifndef GPUBMC_READ_AHEAD_H
#define GPUBMC_READ_AHEAD_H

#include <stdbool.h>
#include <stddef.h>

/* The most files one group holds. */
#define READ_AHEAD_FILES 32

/* Forgets the group held and reads the n files at paths[0..n) (at most
 * READ_AHEAD_FILES; the strings must live until the next call): the
 * regular files among them that are shorter than the cap later asked of
 * read_ahead_take are held whole. */
void read_ahead(const char *const *paths, int n);

/* True when path is one of the group last read ahead. */
bool read_ahead_holds(const char *path);

/* Copies the held bytes of path into buf (at most cap - 1 of them, then a
 * NUL) and sets *len; false when path is not held whole (not read ahead,
 * not a regular file, changed while read, cap - 1 bytes or longer, or
 * read ahead more than a moment ago): the caller then reads it itself. */
bool read_ahead_take(const char *path, char *buf, size_t cap, size_t *len);

#endif
