/* Directory listings with each entry's type (readdir's d_type). */
#define _DEFAULT_SOURCE   /* for d_type */
#include "bmc/driver/dir_list.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* An entry: where its name starts in the list's names, and its kind. */
struct dir_entry {
    size_t name;
    enum entry_kind kind;
};

/* The names of the list being sorted (qsort has no context). */
static const char *sorting_names;

static int compare_entries(const void *a, const void *b)
{
    return strcmp(sorting_names + ((const struct dir_entry *)a)->name,
                  sorting_names + ((const struct dir_entry *)b)->name);
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
        l->entries[l->n++] = (struct dir_entry){ l->names_len, kind_of(e->d_type) };
        l->names_len += len;
    }
    closedir(d);
    sorting_names = l->names;
    qsort(l->entries, (size_t)l->n, sizeof *l->entries, compare_entries);
}

enum entry_kind dir_list_kind(const struct dir_list *l, const char *name)
{
    int lo = 0, hi = l->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2, c = strcmp(l->names + l->entries[mid].name, name);
        if (c == 0)
            return l->entries[mid].kind;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return ENTRY_UNKNOWN;
}

void dir_list_free(struct dir_list *l)
{
    free(l->entries);
    free(l->names);
    *l = (struct dir_list){ 0 };
}
