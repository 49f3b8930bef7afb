/* Output files that never replace what is there: written whole to a
 * temporary file beside their name, then linked to it only where nothing
 * is (a file already there with the very same bytes is kept: the same run,
 * or an earlier one, wrote it).  So an input, a file the run did not
 * create, or a symbolic link (followed nowhere) is never written over. */
#ifndef GPUBMC_NEWFILE_H
#define GPUBMC_NEWFILE_H

#include <stdbool.h>
#include <stddef.h>

/* A temporary name beside path: DIR/.BASE.gpubmc-PID-N.EXT (the extension
 * kept, for writers that go by it). */
void newfile_temp_path(const char *path, char *buf, size_t len);

/* Gives the finished temporary file tmp the name path, unless something
 * is there: then tmp is removed, and it is true only when path is a
 * regular file with tmp's bytes.  False with err filled ("PATH exists
 * ...: not replaced", or why the write failed). */
bool newfile_publish(const char *tmp, const char *path, char *err, size_t errlen);

/* Writes the len bytes of text to path with newfile_publish. */
bool newfile_write(const char *path, const char *text, size_t len, char *err, size_t errlen);

#endif
