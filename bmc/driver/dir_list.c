/* Directory listings with each entry's type (readdir's d_type). */
#define _DEFAULT_SOURCE   /* for d_type */
#include "bmc/driver/dir_list.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "util/text_hash.h"
#include "util/xalloc.h"

/* An entry: where its name starts in the list's names, its kind and
 * the hash of its name. */
struct dir_entry {
    size_t name;
    enum entry_kind kind;
    unsigned hash;
};

/* The hash of an entry's name. */
static unsigned name_hash(const char *name)
{
    return (unsigned)text_hash(14695981039346656037u, name);
}

/* The slot of l's table where name, of hash h, is or would go. */
static int *slot_of(const struct dir_list *l, const char *name, unsigned h)
{
    size_t at = h & l->slot_mask;
    while (l->slot[at] && (l->entries[l->slot[at] - 1].hash != h
                           || strcmp(l->names + l->entries[l->slot[at] - 1].name, name) != 0))
        at = (at + 1) & l->slot_mask;
    return &l->slot[at];
}

/* Fills l's table with its entries (at most half full). */
static void index_entries(struct dir_list *l)
{
    size_t size = 16;
    while (size < 2 * (size_t)l->n)
        size *= 2;
    free(l->slot);
    l->slot = xcalloc(size, sizeof *l->slot);
    l->slot_mask = size - 1;
    for (int k = 0; k < l->n; k++)
        *slot_of(l, l->names + l->entries[k].name, l->entries[k].hash) = k + 1;
}

/* The kind that d_type says, ENTRY_UNKNOWN where it says nothing. */
static enum entry_kind kind_of(unsigned char type)
{
    switch (type) {
    case DT_REG: return ENTRY_REGULAR;
    case DT_LNK: return ENTRY_LINK;
    case DT_UNKNOWN: return ENTRY_UNKNOWN;
    default: return ENTRY_OTHER;
    }
}

void dir_list_read(struct dir_list *l, const char *dir)
{
    l->n = 0;
    l->names_len = 0;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (l->n == DIR_LIST_MAX) {
            l->n = 0;
            break;
        }
        size_t len = strlen(e->d_name) + 1;
        XGROW(l->entries, l->cap, l->n + 1);
        XGROW_FROM(l->names, l->names_cap, l->names_len + len, 4096);
        memcpy(l->names + l->names_len, e->d_name, len);
        l->entries[l->n++] = (struct dir_entry){ l->names_len, kind_of(e->d_type), name_hash(e->d_name) };
        l->names_len += len;
    }
    closedir(d);
    index_entries(l);
}

enum entry_kind dir_list_kind(const struct dir_list *l, const char *name)
{
    if (l->n == 0)
        return ENTRY_UNKNOWN;
    int k = *slot_of(l, name, name_hash(name));
    return k ? l->entries[k - 1].kind : ENTRY_UNKNOWN;
}

void dir_list_free(struct dir_list *l)
{
    free(l->entries);
    free(l->names);
    free(l->slot);
    *l = (struct dir_list){ 0 };
}
