/* Reading spirv.core.grammar.json (Debian's spirv-headers) into tables of
 * instructions and operand kinds; the strings stay in the cJSON tree. */
#include "litmus/spirv_grammar.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct spv_grammar {
    cJSON *root;
    int nops, nkinds;
    struct spv_opdesc *ops;
    struct spv_kinddesc *kinds;
};

/* The whole file at path as a NUL-terminated string, or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = xcalloc(cap, 1);
    for (;;) {
        if (cap - n < 2) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static const char *str_item(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(x) ? x->valuestring : NULL;
}

/* An enumerant's value: a number, or a hex string in bit enums. */
static uint32_t enum_value(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return (uint32_t)v->valuedouble;
    if (cJSON_IsString(v))
        return (uint32_t)strtoul(v->valuestring, NULL, 0);
    return 0;
}

static bool load_ops(struct spv_grammar *g, const cJSON *insts)
{
    g->nops = cJSON_GetArraySize(insts);
    g->ops = xcalloc((size_t)g->nops + 1, sizeof *g->ops);
    int i = 0;
    const cJSON *in;
    cJSON_ArrayForEach(in, insts) {
        struct spv_opdesc *d = &g->ops[i++];
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(in, "opcode");
        d->name = str_item(in, "opname");
        if (!d->name || !cJSON_IsNumber(code))
            return false;
        d->opcode = code->valueint;
        const cJSON *ops = cJSON_GetObjectItemCaseSensitive(in, "operands");
        d->nops = ops ? cJSON_GetArraySize(ops) : 0;
        d->ops = xcalloc((size_t)d->nops + 1, sizeof *d->ops);
        int j = 0;
        const cJSON *op;
        cJSON_ArrayForEach(op, ops) {
            const char *q = str_item(op, "quantifier");
            d->ops[j].kind = str_item(op, "kind");
            d->ops[j].quant = q ? q[0] : 0;
            if (!d->ops[j++].kind)
                return false;
        }
    }
    return true;
}

static bool load_kind(struct spv_kinddesc *k, const cJSON *o)
{
    const char *cat = str_item(o, "category");
    k->kind = str_item(o, "kind");
    if (!k->kind || !cat)
        return false;
    k->cat = !strcmp(cat, "Id") ? SPV_CAT_ID : !strcmp(cat, "Literal") ? SPV_CAT_LITERAL
           : !strcmp(cat, "ValueEnum") ? SPV_CAT_VALUE_ENUM : !strcmp(cat, "BitEnum") ? SPV_CAT_BIT_ENUM
           : SPV_CAT_COMPOSITE;
    if (k->cat == SPV_CAT_COMPOSITE) {
        const cJSON *bases = cJSON_GetObjectItemCaseSensitive(o, "bases"), *b;
        k->n = cJSON_GetArraySize(bases);
        k->bases = xcalloc((size_t)k->n + 1, sizeof *k->bases);
        int j = 0;
        cJSON_ArrayForEach(b, bases)
            k->bases[j++] = cJSON_IsString(b) ? b->valuestring : "?";
        return true;
    }
    const cJSON *es = cJSON_GetObjectItemCaseSensitive(o, "enumerants"), *e;
    if (!es)
        return true;
    k->n = cJSON_GetArraySize(es);
    k->enums = xcalloc((size_t)k->n + 1, sizeof *k->enums);
    int j = 0;
    cJSON_ArrayForEach(e, es) {
        struct spv_enumerant *en = &k->enums[j++];
        en->name = str_item(e, "enumerant");
        en->value = enum_value(cJSON_GetObjectItemCaseSensitive(e, "value"));
        const cJSON *ps = cJSON_GetObjectItemCaseSensitive(e, "parameters"), *p;
        en->nparams = ps ? cJSON_GetArraySize(ps) : 0;
        en->params = xcalloc((size_t)en->nparams + 1, sizeof *en->params);
        int m = 0;
        cJSON_ArrayForEach(p, ps)
            en->params[m++] = str_item(p, "kind") ? str_item(p, "kind") : "?";
        if (!en->name)
            return false;
    }
    return true;
}

/* Frees a grammar. */
static void grammar_free(struct spv_grammar *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->nops && g->ops; i++)
        free(g->ops[i].ops);
    for (int i = 0; i < g->nkinds && g->kinds; i++) {
        for (int j = 0; j < g->kinds[i].n && g->kinds[i].enums; j++)
            free(g->kinds[i].enums[j].params);
        free(g->kinds[i].enums);
        free(g->kinds[i].bases);
    }
    free(g->ops);
    free(g->kinds);
    cJSON_Delete(g->root);
    free(g);
}

/* Loads the grammar; NULL and a message on failure. */
struct spv_grammar *spv_grammar_load(const char *path, char *msg, size_t msglen)
{
    if (!path)
        path = getenv("GPUBMC_SPIRV_GRAMMAR");
    if (!path || !*path)
        path = SPV_GRAMMAR_PATH;
    size_t len = 0;
    char *text = slurp(path, &len);
    if (!text) {
        snprintf(msg, msglen, "cannot read the SPIR-V grammar %s (%s; install spirv-headers)", path,
                 strerror(errno));
        return NULL;
    }
    struct spv_grammar *g = xcalloc(1, sizeof *g);
    g->root = cJSON_ParseWithLength(text, len);
    free(text);
    const cJSON *insts = cJSON_GetObjectItemCaseSensitive(g->root, "instructions");
    const cJSON *kinds = cJSON_GetObjectItemCaseSensitive(g->root, "operand_kinds");
    bool ok = cJSON_IsArray(insts) && cJSON_IsArray(kinds) && load_ops(g, insts);
    if (ok) {
        g->nkinds = cJSON_GetArraySize(kinds);
        g->kinds = xcalloc((size_t)g->nkinds + 1, sizeof *g->kinds);
        int i = 0;
        const cJSON *k;
        cJSON_ArrayForEach(k, kinds)
            ok = ok && load_kind(&g->kinds[i++], k);
    }
    if (!ok) {
        snprintf(msg, msglen, "the SPIR-V grammar %s is not the JSON that spirv-headers ships", path);
        grammar_free(g);
        return NULL;
    }
    return g;
}

static bool same(const char *a, const char *b, size_t len)
{
    return a && strlen(a) == len && memcmp(a, b, len) == 0;
}

/* The instruction named name, or NULL. */
const struct spv_opdesc *spv_grammar_op(const struct spv_grammar *g, const char *name, size_t len)
{
    for (int i = 0; i < g->nops; i++)
        if (same(g->ops[i].name, name, len))
            return &g->ops[i];
    return NULL;
}

/* The operand kind named kind, or NULL. */
const struct spv_kinddesc *spv_grammar_kind(const struct spv_grammar *g, const char *kind)
{
    for (int i = 0; i < g->nkinds; i++)
        if (!strcmp(g->kinds[i].kind, kind))
            return &g->kinds[i];
    return NULL;
}

/* The enumerant of k named name, or NULL. */
const struct spv_enumerant *spv_grammar_enumerant(const struct spv_kinddesc *k, const char *name, size_t len)
{
    for (int i = 0; i < k->n && k->enums; i++)
        if (same(k->enums[i].name, name, len))
            return &k->enums[i];
    return NULL;
}
