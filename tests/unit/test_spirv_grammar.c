/* Unit tests of the SPIR-V grammar loader (litmus/spirv_grammar.c): the
 * grammar spirv-headers ships, and texts built here, loaded by it and by a
 * reference that reads them with cJSON (the loader gpubmc had before) must
 * give the same tables field by field, or both be refused with the same
 * message; malformed texts (truncated, wrong types, bad syntax, too deep)
 * are refused without a crash. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "litmus/spirv_grammar.h"

/* The reference: the tables read from a cJSON tree, as gpubmc's loader did. */
struct ref {
    cJSON *root;
    int nops, nkinds;
    struct spv_opdesc *ops;
    struct spv_kinddesc *kinds;
};

static const char *ref_str(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(x) ? x->valuestring : NULL;
}

static bool ref_ops(struct ref *g, const cJSON *insts)
{
    g->nops = cJSON_GetArraySize(insts);
    g->ops = calloc((size_t)g->nops + 1, sizeof *g->ops);
    int i = 0;
    const cJSON *in, *op;
    cJSON_ArrayForEach(in, insts) {
        struct spv_opdesc *d = &g->ops[i++];
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(in, "opcode");
        d->name = ref_str(in, "opname");
        if (!d->name || !cJSON_IsNumber(code))
            return false;
        d->opcode = code->valueint;
        const cJSON *ops = cJSON_GetObjectItemCaseSensitive(in, "operands");
        d->nops = ops ? cJSON_GetArraySize(ops) : 0;
        d->ops = calloc((size_t)d->nops + 1, sizeof *d->ops);
        int j = 0;
        cJSON_ArrayForEach(op, ops) {
            const char *q = ref_str(op, "quantifier");
            d->ops[j].kind = ref_str(op, "kind");
            d->ops[j].quant = q ? q[0] : 0;
            if (!d->ops[j++].kind)
                return false;
        }
    }
    return true;
}

static bool ref_kind(struct spv_kinddesc *k, const cJSON *o)
{
    const char *cat = ref_str(o, "category");
    k->kind = ref_str(o, "kind");
    if (!k->kind || !cat)
        return false;
    k->cat = !strcmp(cat, "Id") ? SPV_CAT_ID : !strcmp(cat, "Literal") ? SPV_CAT_LITERAL
           : !strcmp(cat, "ValueEnum") ? SPV_CAT_VALUE_ENUM : !strcmp(cat, "BitEnum") ? SPV_CAT_BIT_ENUM
           : SPV_CAT_COMPOSITE;
    if (k->cat == SPV_CAT_COMPOSITE) {
        const cJSON *bases = cJSON_GetObjectItemCaseSensitive(o, "bases"), *b;
        k->n = cJSON_GetArraySize(bases);
        k->bases = calloc((size_t)k->n + 1, sizeof *k->bases);
        int j = 0;
        cJSON_ArrayForEach(b, bases)
            k->bases[j++] = cJSON_IsString(b) ? b->valuestring : "?";
        return true;
    }
    const cJSON *es = cJSON_GetObjectItemCaseSensitive(o, "enumerants"), *e, *p;
    if (!es)
        return true;
    k->n = cJSON_GetArraySize(es);
    k->enums = calloc((size_t)k->n + 1, sizeof *k->enums);
    int j = 0;
    cJSON_ArrayForEach(e, es) {
        struct spv_enumerant *en = &k->enums[j++];
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "value");
        en->name = ref_str(e, "enumerant");
        /* a number no uint32_t holds was undefined there; the loader makes it 0 */
        en->value = cJSON_IsNumber(v) ? (v->valuedouble >= 0 && v->valuedouble < 4294967296.0 ? (uint32_t)v->valuedouble : 0)
                  : cJSON_IsString(v) ? (uint32_t)strtoul(v->valuestring, NULL, 0) : 0;
        const cJSON *ps = cJSON_GetObjectItemCaseSensitive(e, "parameters");
        en->nparams = ps ? cJSON_GetArraySize(ps) : 0;
        en->params = calloc((size_t)en->nparams + 1, sizeof *en->params);
        int m = 0;
        cJSON_ArrayForEach(p, ps)
            en->params[m++] = ref_str(p, "kind") ? ref_str(p, "kind") : "?";
        if (!en->name)
            return false;
    }
    return true;
}

static void ref_free(struct ref *g)
{
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

/* The reference's tables of text (len bytes), or NULL where it refuses it. */
static struct ref *ref_load(const char *text, size_t len)
{
    struct ref *g = calloc(1, sizeof *g);
    g->root = cJSON_ParseWithLength(text, len);
    const cJSON *insts = cJSON_GetObjectItemCaseSensitive(g->root, "instructions");
    const cJSON *kinds = cJSON_GetObjectItemCaseSensitive(g->root, "operand_kinds"), *k;
    bool ok = cJSON_IsArray(insts) && cJSON_IsArray(kinds) && ref_ops(g, insts);
    if (ok) {
        g->nkinds = cJSON_GetArraySize(kinds);
        g->kinds = calloc((size_t)g->nkinds + 1, sizeof *g->kinds);
        int i = 0;
        cJSON_ArrayForEach(k, kinds)
            ok = ok && ref_kind(&g->kinds[i++], k);
    }
    if (!ok) {
        ref_free(g);
        return NULL;
    }
    return g;
}

/* Fails unless a and b are the same string. */
static void same_str(const char *a, const char *b, const char *what, int i)
{
    if (!a || !b || strcmp(a, b))
        fail_msg("%s %d: '%s' against the reference's '%s'", what, i, a ? a : "(null)", b ? b : "(null)");
}

/* Fails unless g holds the reference's tables, field by field. */
static void compare(const struct spv_grammar *g, const struct ref *ref)
{
    int nops, nkinds;
    const struct spv_opdesc *ops = spv_grammar_ops(g, &nops);
    const struct spv_kinddesc *kinds = spv_grammar_kinds(g, &nkinds);
    assert_int_equal(nops, ref->nops);
    assert_int_equal(nkinds, ref->nkinds);
    for (int i = 0; i < nops; i++) {
        const struct spv_opdesc *a = &ops[i], *b = &ref->ops[i];
        same_str(a->name, b->name, "instruction", i);
        assert_int_equal(a->opcode, b->opcode);
        assert_int_equal(a->nops, b->nops);
        for (int j = 0; j < a->nops; j++) {
            same_str(a->ops[j].kind, b->ops[j].kind, a->name, j);
            assert_int_equal(a->ops[j].quant, b->ops[j].quant);
        }
    }
    for (int i = 0; i < nkinds; i++) {
        const struct spv_kinddesc *a = &kinds[i], *b = &ref->kinds[i];
        same_str(a->kind, b->kind, "operand kind", i);
        assert_int_equal(a->cat, b->cat);
        assert_int_equal(a->n, b->n);
        for (int j = 0; j < a->n && a->cat == SPV_CAT_COMPOSITE; j++)
            same_str(a->bases[j], b->bases[j], a->kind, j);
        for (int j = 0; j < a->n && a->cat != SPV_CAT_COMPOSITE; j++) {
            const struct spv_enumerant *x = &a->enums[j], *y = &b->enums[j];
            same_str(x->name, y->name, a->kind, j);
            assert_int_equal(x->value, y->value);
            assert_int_equal(x->nparams, y->nparams);
            for (int m = 0; m < x->nparams; m++)
                same_str(x->params[m], y->params[m], x->name, m);
        }
    }
}

/* Writes text (len bytes) to a new temporary file, whose name is put in path. */
static void write_temp(const char *text, size_t len, char path[64])
{
    snprintf(path, 64, "/tmp/gpubmc-grammar-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* Loads text (len bytes) with the loader and the reference: both refuse it
 * (the loader with the message for a file that is not the grammar) or both
 * read the same tables.  Whether the loader read it. */
static bool load_same(const char *text, size_t len)
{
    char path[64], msg[512], want[512];
    write_temp(text, len, path);
    msg[0] = '\0';
    struct spv_grammar *g = spv_grammar_load(path, msg, sizeof msg);
    struct ref *ref = ref_load(text, len);
    if (!g != !ref)
        fail_msg("the loader %s, the reference %s: %.*s", g ? "reads it" : "refuses it",
                 ref ? "reads it" : "refuses it", (int)(len < 300 ? len : 300), text);
    if (g)
        compare(g, ref);
    else {
        snprintf(want, sizeof want, "the SPIR-V grammar %s is not the JSON that spirv-headers ships", path);
        assert_string_equal(msg, want);
    }
    unlink(path);
    spv_grammar_free(g);
    if (ref)
        ref_free(ref);
    return g != NULL;
}

/* load_same on a NUL-terminated text, which the loader must read or refuse as said. */
static void expect(const char *text, bool reads)
{
    if (load_same(text, strlen(text)) != reads)
        fail_msg("expected the loader to %s: %s", reads ? "read it" : "refuse it", text);
}

/* The grammar file (GPUBMC_SPIRV_GRAMMAR or spirv-headers'), read whole; NULL when it is absent. */
static char *real_grammar(size_t *len)
{
    const char *path = getenv("GPUBMC_SPIRV_GRAMMAR");
    FILE *f = fopen(path && *path ? path : SPV_GRAMMAR_PATH, "rb");
    if (!f) {
        print_message("# SKIP: no SPIR-V grammar at %s (install spirv-headers)\n",
                      path && *path ? path : SPV_GRAMMAR_PATH);
        return NULL;
    }
    size_t cap = 1 << 20, n = 0, got;
    char *text = malloc(cap);
    while ((got = fread(text + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap)
            text = realloc(text, cap *= 2);
    fclose(f);
    *len = n;
    return text;
}

/* The grammar spirv-headers ships: the same tables as the reference's. */
static void test_real_grammar(void **state)
{
    (void)state;
    size_t len;
    char *text = real_grammar(&len);
    if (!text)
        return;
    assert_true(load_same(text, len));
    char msg[256];
    struct spv_grammar *g = spv_grammar_load(NULL, msg, sizeof msg);
    assert_non_null(g);
    int nops;
    spv_grammar_ops(g, &nops);
    assert_true(nops > 300);
    const struct spv_opdesc *load = spv_grammar_op(g, "OpLoad", 6);
    assert_non_null(load);
    assert_int_equal(load->opcode, 61);
    assert_string_equal(load->ops[load->nops - 1].kind, "MemoryAccess");
    assert_int_equal(load->ops[load->nops - 1].quant, '?');
    const struct spv_kinddesc *scope = spv_grammar_kind(g, "Scope");
    assert_non_null(scope);
    assert_int_equal(spv_grammar_enumerant(scope, "Workgroup", 9)->value, 2);
    spv_grammar_free(g);
    free(text);
}

/* The grammar cut short anywhere is refused. */
static void test_real_grammar_truncated(void **state)
{
    (void)state;
    size_t len;
    char *text = real_grammar(&len);
    if (!text)
        return;
    for (int i = 0; i < 40; i++)
        assert_false(load_same(text, len * (size_t)i / 40 + (size_t)i));
    assert_false(load_same(text, len - 3));
    free(text);
}

/* A small grammar with what the real one has and more: members in another
 * order, escapes, repeated keys (the first counts), an object walked as an
 * array, a composite kind with enumerants, numbers of every form. */
static const char small[] =
    "\xEF\xBB\xBF {\"copyright\": [\"a \\\"quoted\\\" \\u00e9 \\ud83d\\ude00 line\", \"\"],\n"
    "  \"operand_kinds\": [\n"
    "    {\"enumerants\": [{\"value\": \"0x0004\", \"enumerant\": \"Bit\\u0032\", \"parameters\": [{\"kind\": \"IdRef\"}, {}, 3]},\n"
    "                    {\"enumerant\": \"Zero\", \"value\": 0, \"capabilities\": [\"Shader\"], \"version\": \"1.0\"}],\n"
    "     \"category\": \"BitEnum\", \"kind\": \"Mask\", \"doc\": null},\n"
    "    {\"category\": \"ValueEnum\", \"kind\": \"Values\", \"enumerants\": {\"x\": {\"enumerant\": \"A\", \"value\": 1e1},\n"
    "      \"y\": {\"enumerant\": \"B\", \"value\": 2.5, \"parameters\": \"none\"}, \"z\": {\"enumerant\": \"C\", \"value\": 1E+2},\n"
    "      \"w\": {\"enumerant\": \"D\", \"value\": -1}, \"v\": {\"enumerant\": \"E\", \"value\": 5e9}}},\n"
    "    {\"category\": \"Id\", \"kind\": \"IdRef\", \"kind\": \"Other\"},\n"
    "    {\"category\": \"Literal\", \"kind\": \"LiteralString\", \"enumerants\": 7},\n"
    "    {\"enumerants\": [{\"value\": 1}], \"kind\": \"Pair\", \"category\": \"Composite\", \"bases\": [\"IdRef\", 4, \"Values\"]},\n"
    "    {\"kind\": \"Pair2\", \"category\": \"Composite\"}\n"
    "  ],\n"
    "  \"instructions\": [\n"
    "    {\"opcode\": 0, \"opname\": \"OpNop\", \"class\": \"Miscellaneous\"},\n"
    "    {\"opname\": \"OpX\", \"opname\": 5, \"opcode\": -7, \"operands\": [{\"kind\": \"IdResultType\"},\n"
    "      {\"name\": \"'a\\tb'\", \"kind\": \"IdRef\", \"quantifier\": \"*\", \"quantifier\": 1}, {\"kind\": \"Mask\", \"quantifier\": \"?\"}]},\n"
    "    {\"opname\": \"OpBig\", \"opcode\": 123456789012345678, \"operands\": {\"a\": {\"kind\": \"IdRef\", \"quantifier\": \"\"}}},\n"
    "    {\"opname\": \"OpFrac\", \"opcode\": 3.75, \"operands\": \"none\", \"capabilities\": [true, false, null, [], {}]},\n"
    "    {\"opname\": \"OpNeg\", \"opcode\": -1e99, \"operands\": [], \"extensions\": [\"SPV_x\"]}\n"
    "  ],\n"
    "  \"instructions\": 5, \"magic_number\": \"0x07230203\", \"major_version\": 1\n"
    "} trailing text cJSON does not read";

/* The small grammar is read as the reference reads it. */
static void test_small_grammar(void **state)
{
    (void)state;
    expect(small, true);
}

/* The small grammar cut at every byte before its end is refused. */
static void test_small_truncated(void **state)
{
    (void)state;
    size_t end = (size_t)(strrchr(small, '}') - small);
    for (size_t n = 0; n <= end; n++)
        assert_false(load_same(small, n));
    assert_true(load_same(small, end + 1));
}

/* Values of the wrong type where the tables need a string, number or array. */
static void test_wrong_types(void **state)
{
    (void)state;
    expect("{\"instructions\": [], \"operand_kinds\": []}", true);
    expect("[]", false);
    expect("\"instructions\"", false);
    expect("{\"instructions\": {}, \"operand_kinds\": []}", false);
    expect("{\"instructions\": [], \"operand_kinds\": null}", false);
    expect("{\"instructions\": []}", false);
    expect("{\"instructions\": [7], \"operand_kinds\": []}", false);
    expect("{\"instructions\": [[\"opname\", \"OpNop\"]], \"operand_kinds\": []}", false);
    expect("{\"instructions\": [{\"opname\": 1, \"opcode\": 0}], \"operand_kinds\": []}", false);
    expect("{\"instructions\": [{\"opname\": \"OpNop\", \"opcode\": \"0\"}], \"operand_kinds\": []}", false);
    expect("{\"instructions\": [{\"opname\": \"OpNop\"}], \"operand_kinds\": []}", false);
    expect("{\"instructions\": [{\"opname\": \"OpX\", \"opcode\": 1, \"operands\": [{\"quantifier\": \"?\"}]}],"
           " \"operand_kinds\": []}", false);
    expect("{\"instructions\": [{\"opname\": \"OpX\", \"opcode\": 1, \"operands\": [\"IdRef\"]}], \"operand_kinds\": []}",
           false);
    expect("{\"instructions\": [], \"operand_kinds\": [{\"kind\": \"K\"}]}", false);
    expect("{\"instructions\": [], \"operand_kinds\": [{\"kind\": [], \"category\": \"Id\"}]}", false);
    expect("{\"instructions\": [], \"operand_kinds\": [\"K\"]}", false);
    expect("{\"instructions\": [], \"operand_kinds\": [{\"kind\": \"K\", \"category\": \"ValueEnum\","
           " \"enumerants\": [{\"value\": 1}]}]}", false);
    expect("{\"instructions\": [], \"operand_kinds\": [{\"kind\": \"K\", \"category\": \"ValueEnum\","
           " \"enumerants\": [5]}]}", false);
}

/* Texts that are not JSON, or nest deeper than cJSON reads. */
static void test_bad_syntax(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",
        " \n\t ",
        "{\"instructions\": [], \"operand_kinds\": [],}",
        "{\"instructions\": [] \"operand_kinds\": []}",
        "{\"instructions\": [], \"operand_kinds\" []}",
        "{\"instructions\": [,], \"operand_kinds\": []}",
        "{\"x\": [1,], \"instructions\": [], \"operand_kinds\": []}",
        "{\"x\": [1 2], \"instructions\": [], \"operand_kinds\": []}",
        "{\"x\": \"\\q\", \"instructions\": [], \"operand_kinds\": []}",
        "{\"x\": \"\\ud800\", \"instructions\": [], \"operand_kinds\": []}",
        "{\"x\": \"\\udc00\", \"instructions\": [], \"operand_kinds\": []}",
        "{\"x\": tru, \"instructions\": [], \"operand_kinds\": []}",
        "{\"x\": -, \"instructions\": [], \"operand_kinds\": []}",
        "{\"x\": .5, \"instructions\": [], \"operand_kinds\": []}",
        "{\"x\": 1-2, \"instructions\": [], \"operand_kinds\": []}",
        "{\"x\": 0x10, \"instructions\": [], \"operand_kinds\": []}",
        "{\"x\": 'a', \"instructions\": [], \"operand_kinds\": []}",
        "{x: 1, \"instructions\": [], \"operand_kinds\": []}",
        "{\"instructions\": [], \"operand_kinds\": []",
        "{\"instructions\": [], \"operand_kinds\": [}}",
        "{\"instructions\": [], \"operand_kinds\": \"\\",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        expect(bad[i], false);
    /* cJSON reads a \u escape whose digits are not hex as U+0000; the loader refuses it */
    char path[64], msg[512], want[512];
    static const char not_hex[] = "{\"x\": \"\\u12g4\", \"instructions\": [], \"operand_kinds\": []}";
    write_temp(not_hex, strlen(not_hex), path);
    assert_null(spv_grammar_load(path, msg, sizeof msg));
    snprintf(want, sizeof want, "the SPIR-V grammar %s is not the JSON that spirv-headers ships", path);
    assert_string_equal(msg, want);
    unlink(path);
}

/* Nesting: cJSON's limit of 1000 arrays and objects, the top-level object included. */
static void test_nesting(void **state)
{
    (void)state;
    for (int depth = 997; depth <= 1002; depth++) {
        size_t cap = 2 * (size_t)depth + 128, n = 0;
        char *text = malloc(cap);
        n += (size_t)sprintf(text, "{\"x\": ");
        for (int i = 1; i < depth; i++)
            text[n++] = '[';
        for (int i = 1; i < depth; i++)
            text[n++] = ']';
        n += (size_t)sprintf(text + n, ", \"instructions\": [], \"operand_kinds\": []}");
        assert_int_equal(load_same(text, n), depth <= 1000);
        free(text);
    }
    size_t n = 1 << 20;   /* far deeper: refused, not a stack overflow */
    char *text = malloc(n);
    memset(text, '[', n);
    memcpy(text, "{\"x\": ", 6);
    assert_false(load_same(text, n));
    free(text);
}

/* A missing file: the message says so and names spirv-headers. */
static void test_missing_file(void **state)
{
    (void)state;
    char msg[256];
    assert_null(spv_grammar_load("/nonexistent/spirv.core.grammar.json", msg, sizeof msg));
    assert_string_equal(msg, "cannot read the SPIR-V grammar /nonexistent/spirv.core.grammar.json"
                             " (No such file or directory; install spirv-headers)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_grammar),
        cmocka_unit_test(test_real_grammar_truncated),
        cmocka_unit_test(test_small_grammar),
        cmocka_unit_test(test_small_truncated),
        cmocka_unit_test(test_wrong_types),
        cmocka_unit_test(test_bad_syntax),
        cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
