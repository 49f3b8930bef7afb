/* Transformation names and dispatch. */
#include "bmc/transform/transform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/transform/rewrites.h"

static const char *const names[T_NKINDS] = {
    "hoist-acquire", "remove-spin", "weaken-order", "narrow-scope", "drop-fence",
    "drop-barrier-semantics", "reorder"
};

const char *transform_name(enum transform_kind k)
{
    return names[k];
}

bool transform_parse(const char *spec, enum transform_kind *k, int *line, char *err, size_t len)
{
    const char *at = strchr(spec, '@');
    size_t n = at ? (size_t)(at - spec) : strlen(spec);
    *line = 0;
    if (at) {
        char *end;
        long v = strtol(at + 1, &end, 10);
        if (at[1] < '0' || at[1] > '9' || *end != '\0' || v < 1 || v > 100000000) {
            snprintf(err, len, "--transform %s: the line after '@' must be a number from 1", spec);
            return false;
        }
        *line = (int)v;
    }
    for (int i = 0; i < T_NKINDS; i++)
        if (strlen(names[i]) == n && strncmp(spec, names[i], n) == 0) {
            *k = (enum transform_kind)i;
            return true;
        }
    snprintf(err, len, "unknown transformation '%.*s' (hoist-acquire, remove-spin, weaken-order, narrow-scope, "
             "drop-fence, drop-barrier-semantics or reorder)", (int)(n > 64 ? 64 : n), spec);
    return false;
}

bool transform_apply(const struct litmus *l, unsigned mask, int line, struct variants *out,
                     char *err, size_t len)
{
    if ((mask & (1u << T_HOIST_ACQUIRE)) && !rewrite_hoist_acquire(l, line, out, err, len))
        return false;
    if ((mask & (1u << T_REMOVE_SPIN)) && !rewrite_remove_spin(l, line, out, err, len))
        return false;
    if ((mask & (1u << T_REORDER)) && !rewrite_reorder(l, line, out, err, len))
        return false;
    return !(mask & TRANSFORM_SYNC_KINDS) || rewrite_weaken(l, mask & TRANSFORM_SYNC_KINDS, line, out, err, len);
}

void variants_free(struct variants *v)
{
    for (int i = 0; i < v->n; i++) {
        free(v->v[i].change);
        litmus_free(v->v[i].target);
    }
    free(v->v);
    v->n = v->cap = 0;
    v->v = NULL;
}
