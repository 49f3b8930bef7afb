/* Reading spirv.core.grammar.json (Debian's spirv-headers) into tables of
 * instructions and operand kinds in one pass over its text: a small JSON
 * reader walks every value, checking its syntax, and keeps only what the
 * tables hold; their strings are decoded in place and stay in the text,
 * which the grammar keeps.  It reads a text as cJSON (gpubmc's reader
 * before, tests/unit/test_spirv_grammar.c) did: a key looked up is its first
 * member, an object is walked like an array of its members' values and a
 * scalar like an empty array, numbers are what strtod makes of cJSON's run
 * of number characters, at most 1000 arrays and objects nest, and nothing
 * after the top-level value is read.  Only where cJSON was lax or undefined
 * does it differ: a \u escape whose digits are not hex is refused (cJSON
 * read U+0000) and an enumerant's number value that no uint32_t holds is 0. */
#include "litmus/spirv_grammar.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct spv_grammar {
    char *text;
    int nops, nkinds, nopnds;
    struct spv_opdesc *ops;
    struct spv_kinddesc *kinds;
    struct spv_operand *opnds;   /* every instruction's operands, one after another */
};

/* Bytes kept after the text, two '"' (below) then zeros: sixteen bytes read
 * at or just past the end stay in the buffer. */
#define TEXT_PAD 32

/* The whole file at path and TEXT_PAD bytes more, or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = xcalloc(cap, 1);
    for (;;) {
        if (cap - n <= TEXT_PAD) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n - TEXT_PAD, f);
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
    memset(buf + n, 0, TEXT_PAD);
    buf[n] = buf[n + 1] = '"';
    *len = n;
    return buf;
}

/* The index in memory of the first non-zero byte of x, eight bytes read from
 * memory (x is not 0). */
static inline int first_byte(uint64_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return __builtin_clzll(x) / 8;
#else
    return __builtin_ctzll(x) / 8;
#endif
}

/* Sixteen bytes at a time, as a vector (GCC's and Clang's extension). */
typedef unsigned char bytes16 __attribute__((vector_size(16)));

/* The index of the first lane of m (lanes all ones or zeros) that is set, or 16. */
static inline int first_lane(bytes16 m)
{
    uint64_t lo, hi;
    memcpy(&lo, &m, sizeof lo);
    memcpy(&hi, (char *)&m + sizeof lo, sizeof hi);
    return lo ? first_byte(lo) : hi ? 8 + first_byte(hi) : 16;
}

/* The index of the first of the sixteen bytes at p that is not ' ', or 16. */
static inline int not_space(const char *p)
{
    bytes16 v;
    memcpy(&v, p, sizeof v);
    return first_lane((bytes16)(v != ' '));
}

/* The index of the first of the sixteen bytes at p that is '"' or '\\', or 16. */
static inline int quote_or_backslash(const char *p)
{
    bytes16 v;
    memcpy(&v, p, sizeof v);
    return first_lane((bytes16)((v == '"') | (v == '\\')));
}

/* The JSON reader over the text [p, end).  The '"' at end stops the scans of
 * whitespace and strings there, and every test of the next byte but jstr's
 * fails on it; a syntax error sets bad and moves p to end, so that every
 * read after it fails at once.  depth: the arrays and objects p is in. */
struct jr {
    char *p, *end;
    int depth;
    bool bad;
};

/* cJSON's nesting limit: arrays and objects deeper than this are refused. */
#define JSON_NESTING_LIMIT 1000

/* Marks the text as not JSON; false. */
static bool jbad(struct jr *r)
{
    r->bad = true;
    r->p = r->end;
    return false;
}

/* Skips the whitespace that starts at p (as cJSON: every byte up to ' ');
 * runs of spaces (indentation) sixteen bytes at a time. */
static char *skip_space(char *p)
{
    do {
        int n;
        p++;
        while ((n = not_space(p)) == 16)
            p += 16;
        p += n;
    } while ((unsigned char)*p <= ' ');
    return p;
}

/* The next byte after whitespace ('"' at the end); one space, the most
 * common whitespace, is stepped over here. */
static inline char peek(struct jr *r)
{
    char *p = r->p;
    if ((unsigned char)*p <= ' ') {
        p = *p == ' ' && (unsigned char)p[1] > ' ' ? p + 1 : skip_space(p);
        r->p = p;
    }
    return *p;
}

/* The four hex digits at p as a number, or -1. */
static long hex4(const char *p)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Decodes the \u escape (one UTF-16 unit, or a surrogate pair) at p into
 * UTF-8 at *out; the bytes it took, 0 when it is not one. */
static int unicode_escape(const char *p, const char *end, char **out)
{
    if (end - p < 6)
        return 0;
    long cp = hex4(p + 2), lo;
    int took = 6;
    if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF))
        return 0;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (end - p < 12 || p[6] != '\\' || p[7] != 'u' || (lo = hex4(p + 8)) < 0xDC00 || lo > 0xDFFF)
            return 0;
        cp = 0x10000 + (((cp & 0x3FF) << 10) | (lo & 0x3FF));
        took = 12;
    }
    unsigned char *o = (unsigned char *)*out;
    if (cp < 0x80) {
        *o++ = (unsigned char)cp;
    } else {
        int n = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        static const unsigned char lead[] = { 0, 0, 0xC0, 0xE0, 0xF0 };
        for (int i = n - 1; i > 0; i--, cp >>= 6)
            o[i] = (unsigned char)(0x80 | (cp & 0x3F));
        o[0] = (unsigned char)(lead[n] | cp);
        o += n;
    }
    *out = (char *)o;
    return took;
}

/* The byte an escape \c stands for (\u aside), 0 when there is none. */
static char escaped(char c)
{
    switch (c) {
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case '"': case '\\': case '/': return c;
    default: return 0;
    }
}

/* The rest of the string s from its first '\\' at p, decoded in place; the
 * end of the decoded string, or NULL when it is not one. */
static char *unescape(struct jr *r, char *p)
{
    char *out = p;
    while (*p != '"') {
        if (*p != '\\') {
            *out++ = *p++;
            continue;
        }
        int took = 0;
        if (r->end - p >= 2 && p[1] == 'u')
            took = unicode_escape(p, r->end, &out);
        else if (r->end - p >= 2 && (*out = escaped(p[1])))
            out++, took = 2;
        if (!took)
            return NULL;
        p += took;
    }
    if (p >= r->end)
        return NULL;
    *out = '\0';
    r->p = p + 1;
    return out;
}

/* The string at r->p (its opening '"'), its escapes decoded in place and
 * NUL-terminated there; NULL when it is not one. */
static inline char *jstr(struct jr *r)
{
    char *s = r->p + 1, *p = s;
    int n;
    while ((n = quote_or_backslash(p)) == 16)
        p += 16;
    p += n;
    if (*p == '"' && p < r->end) {
        *p = '\0';
        r->p = p + 1;
        return s;
    }
    if (*p == '"' || !unescape(r, p)) {   /* at the end, or a bad escape */
        jbad(r);
        return NULL;
    }
    return s;
}

/* Whether c may be part of a number as cJSON collects it for strtod. */
static bool number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == 'e' || c == 'E' || c == '.';
}

/* The number at r->p, read as cJSON reads it: the run of number characters
 * (at most 63), as far as strtod takes it. */
static double jnum(struct jr *r)
{
    char *p = r->p, *digits = p + (*p == '-'), *q = digits;
    unsigned long long v = 0;
    while (*q >= '0' && *q <= '9' && q - digits < 16)
        v = v * 10 + (unsigned)(*q++ - '0');
    if (q > digits && q - digits < 16 && !number_char(*q)) {   /* a double holds it exactly, as strtod gives it */
        r->p = q;
        return p == digits ? (double)v : -(double)v;
    }
    char buf[64], *after;
    size_t n = 0;
    while (n < sizeof buf - 1 && p + n < r->end && number_char(p[n]))
        n++;
    memcpy(buf, p, n);
    buf[n] = '\0';
    double d = strtod(buf, &after);
    if (after == buf) {
        jbad(r);
        return 0;
    }
    r->p = p + (after - buf);
    return d;
}

static char jopen(struct jr *r);
static bool jnext(struct jr *r, char close, int i, char **key);

/* Skips the value at r->p, checking its syntax. */
static void jskip(struct jr *r)
{
    char c = peek(r), *key;
    if (c == '"') {
        jstr(r);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        jnum(r);
    } else if (c == '[' || c == '{') {
        char close = jopen(r);
        for (int i = 0; jnext(r, close, i, &key); i++)
            jskip(r);
    } else {
        static const char *const words[] = { "null", "true", "false" };
        for (int w = 0; w < 3; w++) {
            size_t n = strlen(words[w]);
            if ((size_t)(r->end - r->p) >= n && !memcmp(r->p, words[w], n)) {
                r->p += n;
                return;
            }
        }
        jbad(r);
    }
}

/* Enters the value at r->p to walk its elements, as cJSON_ArrayForEach walks
 * an array's elements and an object's members' values: the closing bracket,
 * or 0 for a scalar, which is skipped and has none. */
static inline char jopen(struct jr *r)
{
    char c = peek(r);
    if (c != '[' && c != '{') {
        jskip(r);
        return 0;
    }
    if (r->depth >= JSON_NESTING_LIMIT) {
        jbad(r);
        return 0;
    }
    r->depth++;
    r->p++;
    return c == '[' ? ']' : '}';
}

/* Steps to element i of the container jopen entered (close: its closing
 * bracket): true with r->p at its value and *key its member's name in an
 * object (NULL in an array); false past the closing bracket or on a syntax
 * error. */
static inline bool jnext(struct jr *r, char close, int i, char **key)
{
    if (!close)
        return false;
    char c = peek(r);
    if (c == close) {
        r->p++;
        r->depth--;
        return false;
    }
    if (i > 0) {
        if (c != ',')
            return jbad(r);
        r->p++;
        c = peek(r);
    }
    *key = NULL;
    if (close == ']')
        return true;
    if (c != '"' || !(*key = jstr(r)) || peek(r) != ':')
        return jbad(r);
    r->p++;
    return true;
}

/* Whether key (NULL in an array) is the string literal name: compared with
 * its NUL, as strcmp would (the text's padding keeps the read in the buffer). */
#define KEY_IS(key, name) ((key) && !memcmp((key), (name), sizeof(name)))

/* Skips the value at r->p; a string, the most common, here. */
static inline void skip_member(struct jr *r)
{
    if (peek(r) == '"')
        jstr(r);
    else
        jskip(r);
}

/* The string value at r->p, or NULL (the value skipped) when it is another. */
static char *jstr_value(struct jr *r)
{
    if (peek(r) == '"')
        return jstr(r);
    jskip(r);
    return NULL;
}

/* A number value at r->p into *d; false (the value skipped) when it is another. */
static bool jnum_value(struct jr *r, double *d)
{
    char c = peek(r);
    if (c == '-' || (c >= '0' && c <= '9')) {
        *d = jnum(r);
        return true;
    }
    jskip(r);
    return false;
}

/* An instruction's operand: its kind (NULL when it has none) and quantifier. */
static void read_operand(struct jr *r, struct spv_operand *o)
{
    char close = jopen(r), *key;
    bool seen_kind = false, seen_quant = false;
    o->kind = NULL;
    o->quant = 0;
    for (int i = 0; jnext(r, close, i, &key); i++) {
        if (!seen_kind && KEY_IS(key, "kind")) {
            seen_kind = true;
            o->kind = jstr_value(r);
        } else if (!seen_quant && KEY_IS(key, "quantifier")) {
            seen_quant = true;
            const char *q = jstr_value(r);
            o->quant = q ? q[0] : 0;
        } else {
            skip_member(r);
        }
    }
}

/* The operands array (or object) at r->p, appended to g's operands (of
 * capacity *cap) and counted in d; false when one has no kind. */
static bool read_operands(struct jr *r, struct spv_grammar *g, int *cap, struct spv_opdesc *d)
{
    char close = jopen(r), *key;
    for (int i = 0; jnext(r, close, i, &key); i++) {
        XGROW_FROM(g->opnds, *cap, g->nopnds + 1, 1024);
        struct spv_operand *o = &g->opnds[g->nopnds++];
        read_operand(r, o);
        if (!o->kind)
            return false;
        d->nops = i + 1;
    }
    return !r->bad;
}

/* One instruction (its operands appended to g's, of capacity *cap); false
 * when it is not an object with a string opname, a number opcode and
 * operands of a kind each. */
static bool read_inst(struct jr *r, struct spv_grammar *g, int *cap, struct spv_opdesc *d)
{
    char close = jopen(r), *key;
    bool seen_name = false, seen_code = false, seen_ops = false;
    if (close != '}')
        return false;
    for (int i = 0; jnext(r, close, i, &key); i++) {
        if (!seen_name && KEY_IS(key, "opname")) {
            seen_name = true;
            if (!(d->name = jstr_value(r)))
                return false;
        } else if (!seen_code && KEY_IS(key, "opcode")) {
            seen_code = true;
            double v;
            if (!jnum_value(r, &v))
                return false;
            d->opcode = v >= INT_MAX ? INT_MAX : v <= (double)INT_MIN ? INT_MIN : (int)v;   /* cJSON's valueint */
        } else if (!seen_ops && KEY_IS(key, "operands")) {
            seen_ops = true;
            if (!read_operands(r, g, cap, d))
                return false;
        } else {
            skip_member(r);
        }
    }
    return !r->bad && seen_name && seen_code;
}

/* An enumerant's value: a number, or a hex string in bit enums; 0 for another
 * (or a number no uint32_t holds, which cJSON's reader left undefined). */
static uint32_t read_value(struct jr *r)
{
    double d;
    char c = peek(r);
    if (c == '"') {
        const char *s = jstr(r);
        return s ? (uint32_t)strtoul(s, NULL, 0) : 0;
    }
    return jnum_value(r, &d) && d >= 0 && d < 4294967296.0 ? (uint32_t)d : 0;
}

/* The parameters array (or object) at r->p into e: each one's kind, "?" when it has none. */
static void read_params(struct jr *r, struct spv_enumerant *e)
{
    char close = jopen(r), *key;
    int cap = 0;
    for (int i = 0; jnext(r, close, i, &key); i++) {
        struct spv_operand o;
        read_operand(r, &o);
        XGROW(e->params, cap, i + 1);
        e->params[i] = o.kind ? o.kind : "?";
        e->nparams = i + 1;
    }
}

/* One enumerant; its name is NULL when it has none. */
static void read_enumerant(struct jr *r, struct spv_enumerant *e)
{
    char close = jopen(r), *key;
    bool seen_name = false, seen_value = false, seen_params = false;
    for (int i = 0; jnext(r, close, i, &key); i++) {
        if (!seen_name && KEY_IS(key, "enumerant")) {
            seen_name = true;
            e->name = jstr_value(r);
        } else if (!seen_value && KEY_IS(key, "value")) {
            seen_value = true;
            e->value = read_value(r);
        } else if (!seen_params && KEY_IS(key, "parameters")) {
            seen_params = true;
            read_params(r, e);
        } else {
            skip_member(r);
        }
    }
}

/* The enumerants array (or object) at r->p into k; *unnamed: one has no name. */
static void read_enumerants(struct jr *r, struct spv_kinddesc *k, bool *unnamed)
{
    char close = jopen(r), *key;
    int cap = 0;
    for (int i = 0; jnext(r, close, i, &key); i++) {
        XGROW(k->enums, cap, i + 1);
        memset(&k->enums[i], 0, sizeof k->enums[i]);
        k->n = i + 1;
        read_enumerant(r, &k->enums[i]);
        *unnamed |= !k->enums[i].name;
    }
}

/* The bases array (or object) at r->p: each a string, "?" for another value. */
static const char **read_bases(struct jr *r, int *n)
{
    char close = jopen(r), *key;
    const char **bases = NULL;
    int cap = 0;
    *n = 0;
    for (int i = 0; jnext(r, close, i, &key); i++) {
        XGROW(bases, cap, i + 1);
        const char *b = jstr_value(r);
        bases[i] = b ? b : "?";
        *n = i + 1;
    }
    return bases;
}

/* Frees what an operand kind's read allocated. */
static void kind_free(struct spv_kinddesc *k)
{
    for (int j = 0; j < k->n && k->enums; j++)
        free(k->enums[j].params);
    free(k->enums);
    free(k->bases);
}

/* One operand kind; false when it is not an object with a string kind and
 * category whose enumerants (enumerated kinds) all have names.  Bases and
 * enumerants may come before the category that says which of them counts. */
static bool read_kind(struct jr *r, struct spv_kinddesc *k)
{
    char close = jopen(r), *key;
    bool seen_kind = false, seen_cat = false, seen_bases = false, seen_enums = false, unnamed = false;
    const char *cat = NULL, **bases = NULL;
    int nbases = 0;
    if (close != '}')
        return false;
    for (int i = 0; jnext(r, close, i, &key); i++) {
        if (!seen_kind && KEY_IS(key, "kind")) {
            seen_kind = true;
            k->kind = jstr_value(r);
        } else if (!seen_cat && KEY_IS(key, "category")) {
            seen_cat = true;
            cat = jstr_value(r);
        } else if (!seen_bases && KEY_IS(key, "bases")) {
            seen_bases = true;
            bases = read_bases(r, &nbases);
        } else if (!seen_enums && KEY_IS(key, "enumerants")) {
            seen_enums = true;
            read_enumerants(r, k, &unnamed);
        } else {
            skip_member(r);
        }
    }
    bool ok = !r->bad && k->kind && cat;
    if (ok) {
        k->cat = !strcmp(cat, "Id") ? SPV_CAT_ID : !strcmp(cat, "Literal") ? SPV_CAT_LITERAL
               : !strcmp(cat, "ValueEnum") ? SPV_CAT_VALUE_ENUM : !strcmp(cat, "BitEnum") ? SPV_CAT_BIT_ENUM
               : SPV_CAT_COMPOSITE;
    }
    if (ok && k->cat == SPV_CAT_COMPOSITE) {
        kind_free(k);
        k->enums = NULL;
        k->n = nbases;
        k->bases = bases;
        return true;
    }
    free(bases);
    return ok && !unnamed;
}

/* The instructions array at r->p into g. */
static bool read_insts(struct jr *r, struct spv_grammar *g)
{
    char close = jopen(r), *key;
    int cap = 0, opnd_cap = 0;
    if (close != ']')
        return false;
    for (int i = 0; jnext(r, close, i, &key); i++) {
        XGROW_FROM(g->ops, cap, i + 1, 1024);
        memset(&g->ops[i], 0, sizeof g->ops[i]);
        g->nops = i + 1;
        if (!read_inst(r, g, &opnd_cap, &g->ops[i]))
            return false;
    }
    size_t at = 0;   /* the operands moved while they were read: point to them now */
    for (int i = 0; i < g->nops; i++) {
        g->ops[i].ops = g->ops[i].nops ? g->opnds + at : NULL;
        at += (size_t)g->ops[i].nops;
    }
    return !r->bad;
}

/* The operand_kinds array at r->p into g. */
static bool read_kinds(struct jr *r, struct spv_grammar *g)
{
    char close = jopen(r), *key;
    int cap = 0;
    if (close != ']')
        return false;
    for (int i = 0; jnext(r, close, i, &key); i++) {
        XGROW(g->kinds, cap, i + 1);
        memset(&g->kinds[i], 0, sizeof g->kinds[i]);
        g->nkinds = i + 1;
        if (!read_kind(r, &g->kinds[i]))
            return false;
    }
    return !r->bad;
}

/* The top-level object: its (first) instructions and operand_kinds arrays. */
static bool read_grammar(struct jr *r, struct spv_grammar *g)
{
    char close = jopen(r), *key;
    bool seen_insts = false, seen_kinds = false;
    if (close != '}')
        return false;
    for (int i = 0; jnext(r, close, i, &key); i++) {
        if (!seen_insts && KEY_IS(key, "instructions")) {
            seen_insts = true;
            if (!read_insts(r, g))
                return false;
        } else if (!seen_kinds && KEY_IS(key, "operand_kinds")) {
            seen_kinds = true;
            if (!read_kinds(r, g))
                return false;
        } else {
            skip_member(r);
        }
    }
    return !r->bad && seen_insts && seen_kinds;
}

/* Frees a grammar. */
void spv_grammar_free(struct spv_grammar *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->nkinds && g->kinds; i++)
        kind_free(&g->kinds[i]);
    free(g->ops);
    free(g->opnds);
    free(g->kinds);
    free(g->text);
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
    g->text = text;
    text[len] = '"';
    struct jr r = { text, text + len, 0, false };
    if (len > 4 && !memcmp(text, "\xEF\xBB\xBF", 3))   /* cJSON skips a UTF-8 byte order mark */
        r.p += 3;
    if (!read_grammar(&r, g)) {
        snprintf(msg, msglen, "the SPIR-V grammar %s is not the JSON that spirv-headers ships", path);
        spv_grammar_free(g);
        return NULL;
    }
    return g;
}

/* The instructions in the file's order. */
const struct spv_opdesc *spv_grammar_ops(const struct spv_grammar *g, int *n)
{
    *n = g->nops;
    return g->ops;
}

/* The operand kinds in the file's order. */
const struct spv_kinddesc *spv_grammar_kinds(const struct spv_grammar *g, int *n)
{
    *n = g->nkinds;
    return g->kinds;
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
