/* A directory's entries and what each is, read once: many names of one
 * directory looked up without a system call each (the rows of a CSV). */
#ifndef GPUBMC_DIR_LIST_H
#define GPUBMC_DIR_LIST_H

#include <stdbool.h>
#include <stddef.h>

/* What an entry is, as lstat would say. */
enum entry_kind {
    ENTRY_UNKNOWN,           /* not listed, or the listing does not say: ask lstat */
    ENTRY_ABSENT,            /* no such entry (lstat failed) */
    ENTRY_REGULAR,
    ENTRY_LINK,
    ENTRY_OTHER              /* a directory, a device, a pipe, a socket */
};

/* The entries of one directory, found by name in a hash table. */
struct dir_list {
    struct dir_entry *entries;
    int n, cap;
    char *names;             /* the entries' names, each NUL-terminated */
    size_t names_len, names_cap;
    int *slot;               /* open addressing by name: 1 + an entry's index (0: empty) */
    size_t slot_mask;        /* the table's size less one (0: no table) */
};

/* A directory of more entries is not listed: its names are looked up
 * one by one, each costing less than the listing would. */
#define DIR_LIST_MAX 1024

/* Reads the entries of dir into l (none when it cannot be read or has
 * more than DIR_LIST_MAX). */
void dir_list_read(struct dir_list *l, const char *dir);
/* What entry name of l is (ENTRY_UNKNOWN when not listed). */
enum entry_kind dir_list_kind(const struct dir_list *l, const char *name);
/* Frees l's memory. */
void dir_list_free(struct dir_list *l);

#endif
