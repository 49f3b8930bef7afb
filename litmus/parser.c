/* Recursive-descent parser for Dat3M-style PTX and Vulkan litmus tests: the
 * frame (errors, names, numbers) and the entry points.  The parts of a test
 * are parsed in parse_init.c (header, initial state, thread header),
 * parse_code.c (instructions and rows, decoded per dialect by parse_ptx.c
 * and parse_vulkan.c) and parse_cond.c (assertions and what follows the
 * program); litmus/parse_impl.h is what they share. */
#include "litmus/parse_impl.h"
#include "litmus/spirv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/read_ahead.h"

/* ------------------------------------------------------------------------ */
/* Errors and small helpers                                                  */

__attribute__((format(printf, 3, 4)))
bool ps_fail(struct parser *p, struct srcpos pos, const char *fmt, ...)
{
    va_list ap;
    p->err->pos = pos;
    va_start(ap, fmt);
    vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
    va_end(ap);
    return false;
}

bool ps_out_of_memory(struct parser *p)
{
    return ps_fail(p, p->tok.pos, "out of memory");
}

/* Describes a token for a message: its text in quotes, or its kind. */
static const char *describe(const struct token *t, char *buf, size_t size)
{
    if (t->kind == TOK_IDENT || t->kind == TOK_NUMBER || t->kind == TOK_HEX)
        snprintf(buf, size, "'" TOK_FMT "'", TOK_ARG(t));
    else
        snprintf(buf, size, "%s", tok_kind_name(t->kind));
    return buf;
}

/* Fails with "expected WHAT, got <current token>". */
bool ps_fail_expected(struct parser *p, const char *what)
{
    char got[MSG_NAME_MAX + 8];
    return ps_fail(p, p->tok.pos, "expected %s, got %s", what,
                describe(&p->tok, got, sizeof got));
}

/* Moves to the next token. */
bool ps_advance(struct parser *p)
{
    p->prev = p->tok;
    return lexer_next(&p->lx, &p->tok, p->err);
}

/* Consumes a token of the given kind or fails with "expected WHAT". */
bool ps_expect(struct parser *p, enum tok_kind kind, const char *what)
{
    if (p->tok.kind != kind)
        return ps_fail_expected(p, what);
    return ps_advance(p);
}

/* Consumes the identifier word or fails with "expected WHAT". */
bool ps_expect_word(struct parser *p, const char *word, const char *what)
{
    if (!tok_is(&p->tok, word))
        return ps_fail_expected(p, what);
    return ps_advance(p);
}

/* A NUL-terminated copy of len bytes of s in the test's string pool, or
 * NULL when out of memory. */
char *ps_pool_text(struct parser *p, const char *s, size_t len)
{
    return strpool_copy(&p->lit->strings, s, len);
}

/* The bytes a growing array's first allocation stays within: malloc hands
 * out and takes back chunks this small from its per-size caches. */
#define FIRST_ARRAY_BYTES 1000

/* The first capacity of a growing array of elements of elem bytes. */
static int first_capacity(size_t elem)
{
    return elem * 8 <= FIRST_ARRAY_BYTES ? 8 : elem <= FIRST_ARRAY_BYTES ? (int)(FIRST_ARRAY_BYTES / elem) : 1;
}

/* True when arr lies in the parser's scratch room. */
static bool in_scratch(const struct parser *p, const void *arr)
{
    uintptr_t at = (uintptr_t)arr, room = (uintptr_t)p->scratch;
    return p->scratch && at >= room && at < room + SCRATCH_BYTES;
}

/* Frees an array the parser owns unless it lies in the scratch room. */
static void free_scratch(const struct parser *p, void *arr)
{
    if (!in_scratch(p, arr))
        free(arr);
}

/* ps_grow for an array the parser frees: its first capacity from the
 * scratch room while that has room, a copy on the heap once it outgrows it. */
bool ps_grow_scratch(struct parser *p, void *arrp, int *cap, size_t elem)
{
    void *arr;
    memcpy(&arr, arrp, sizeof arr);
    size_t align = _Alignof(max_align_t), at = (p->scratch_used + align - 1) / align * align;
    size_t first = (size_t)first_capacity(elem);
    if (*cap == 0 && p->scratch && at <= SCRATCH_BYTES && first * elem <= SCRATCH_BYTES - at) {
        void *room = p->scratch + at;
        memset(room, 0, first * elem);
        p->scratch_used = at + first * elem;
        memcpy(arrp, &room, sizeof room);
        *cap = (int)first;
        return true;
    }
    if (!in_scratch(p, arr))
        return ps_grow(p, arrp, cap, elem);
    void *none = NULL, *room = arr;   /* outgrown: moved to the heap and grown there */
    int used = *cap;
    memcpy(arrp, &none, sizeof none);
    *cap = 0;
    while (*cap < used)
        if (!ps_grow(p, arrp, cap, elem))
            return false;
    memcpy(&arr, arrp, sizeof arr);
    memcpy(arr, room, (size_t)used * elem);
    return *cap > used || ps_grow(p, arrp, cap, elem);
}

/* The capacity after *cap for elements of elem bytes: doubled, or the
 * first; false (out of memory) when it would not fit. */
static inline bool next_capacity(struct parser *p, int cap, size_t elem, int *new_cap)
{
    if (cap > INT_MAX / 2 || (size_t)cap * 2 > SIZE_MAX / elem / 2)
        return ps_out_of_memory(p);
    int first = first_capacity(elem);
    *new_cap = cap < first ? first : cap * 2;
    return true;
}

/* Doubles the capacity *cap of the array at arrp (a pointer to a pointer),
 * or gives it its first; new slots are zeroed when clear. */
static bool grow_heap(struct parser *p, void *arrp, int *cap, size_t elem, bool clear)
{
    void *arr, *grown;
    int new_cap = 0;
    if (!next_capacity(p, *cap, elem, &new_cap))
        return false;
    memcpy(&arr, arrp, sizeof arr);
    grown = realloc(arr, (size_t)new_cap * elem);
    if (!grown)
        return ps_out_of_memory(p);
    if (clear)
        memset((char *)grown + (size_t)*cap * elem, 0, (size_t)(new_cap - *cap) * elem);
    memcpy(arrp, &grown, sizeof grown);
    *cap = new_cap;
    return true;
}

/* Doubles the capacity *cap of the array at arrp (a pointer to a pointer),
 * or gives it its first; new slots are zeroed. */
bool ps_grow(struct parser *p, void *arrp, int *cap, size_t elem)
{
    return grow_heap(p, arrp, cap, elem, true);
}

/* ps_grow with the new slots left as they come (each is written whole
 * before it is read). */
bool ps_grow_unset(struct parser *p, void *arrp, int *cap, size_t elem)
{
    return grow_heap(p, arrp, cap, elem, false);
}

/* ps_grow for an array of the test taken from its pool: the bigger copy
 * comes from the pool, the old one staying there unused. */
bool ps_grow_pooled(struct parser *p, void *arrp, int *cap, size_t elem)
{
    void *arr;
    int new_cap = 0;
    if (!next_capacity(p, *cap, elem, &new_cap))
        return false;
    char *grown = strpool_alloc(&p->lit->strings, (size_t)new_cap * elem);
    if (!grown)
        return ps_out_of_memory(p);
    memcpy(&arr, arrp, sizeof arr);
    if (*cap > 0)
        memcpy(grown, arr, (size_t)*cap * elem);
    memset(grown + (size_t)*cap * elem, 0, (size_t)(new_cap - *cap) * elem);
    memcpy(arrp, &grown, sizeof grown);
    *cap = new_cap;
    return true;
}


/* True when a comes before b in the text. */
bool ps_pos_before(struct srcpos a, struct srcpos b)
{
    return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* ------------------------------------------------------------------------ */
/* Name table                                                                */

static unsigned hash_name(int ns, const char *s, size_t len)
{
    unsigned h = 2166136261u ^ (unsigned)ns;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* True when the len bytes at a and b are the same (a loop: names are a
 * few bytes, shorter than a call to memcmp). */
static bool same_bytes(const char *a, const char *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* The value stored for (ns, name), whose hash_name is h, or -1. */
static int names_find_hashed(const struct name_table *t, int ns, const char *s, size_t len, unsigned h)
{
    for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        const struct name_entry *e = &t->slots[i];
        if (!e->name)
            return -1;
        if (e->hash == h && e->ns == ns && e->len == len && same_bytes(e->name, s, len))
            return e->value;
    }
}

/* The value stored for (ns, name), or -1. */
int ps_names_find(const struct name_table *t, int ns, const char *s, size_t len)
{
    return names_find_hashed(t, ns, s, len, hash_name(ns, s, len));
}

/* Puts an entry in a table known to have a free slot. */
static void names_place(struct name_table *t, struct name_entry entry)
{
    size_t i = entry.hash & (t->cap - 1);
    while (t->slots[i].name)
        i = (i + 1) & (t->cap - 1);
    t->slots[i] = entry;
    t->count++;
}

/* An empty table in its own first slots. */
static void names_init(struct name_table *t)
{
    memset(t->first, 0, sizeof t->first);
    t->slots = t->first;
    t->cap = NAME_TABLE_FIRST_CAP;
    t->count = 0;
}

/* Frees the table's slots unless they are its first ones. */
static void names_release(struct name_table *t)
{
    if (t->slots != t->first)
        free(t->slots);
}

/* Doubles the table's capacity. */
static bool names_grow(struct parser *p, struct name_table *t)
{
    size_t new_cap = t->cap * 2;
    struct name_entry *old = t->slots;
    size_t old_cap = t->cap;
    if (new_cap > SIZE_MAX / sizeof *old)
        return ps_out_of_memory(p);
    t->slots = calloc(new_cap, sizeof *t->slots);
    if (!t->slots) {
        t->slots = old;
        return ps_out_of_memory(p);
    }
    t->cap = new_cap;
    t->count = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].name)
            names_place(t, old[i]);
    if (old != t->first)
        free(old);
    return true;
}

/* names_add into a table that must grow first (out of names_add's path,
 * which then saves no registers). */
__attribute__((noinline))
static bool names_grow_and_add(struct parser *p, struct name_entry entry)
{
    if (!names_grow(p, &p->names))
        return false;
    names_place(&p->names, entry);
    return true;
}

/* Records (ns, name) -> value, h being its hash_name (as its lookup
 * found it); name must outlive the table. */
static bool names_add(struct parser *p, int ns, const char *name, size_t len, unsigned h, int value)
{
    struct name_table *t = &p->names;
    struct name_entry entry = { name, (uint32_t)len, h, ns, value };
    if ((t->count + 1) * 2 > t->cap)
        return names_grow_and_add(p, entry);
    names_place(t, entry);
    return true;
}


/* ------------------------------------------------------------------------ */
/* Locations, registers, labels                                              */

/* The index of a new location of that name (h its hash_name) with init 0;
 * -1 on error.  Out of ps_location_index's path, as new_register and
 * new_label_info are out of theirs: a name is mostly used again. */
__attribute__((noinline))
static int new_location(struct parser *p, const char *name, size_t len, unsigned h)
{
    struct litmus *l = p->lit;
    if (!ps_reserve_pooled(p, &l->locs, l->nlocs, &p->locs_cap, sizeof *l->locs))
        return -1;
    struct location *loc = &l->locs[l->nlocs];
    loc->name = ps_pool_text(p, name, len);
    if (!loc->name)
        return ps_out_of_memory(p), -1;
    loc->init = 0;
    loc->alias_of = -1;
    loc->alias_proxy = PROXY_GENERIC;
    int index = l->nlocs++;
    if (!names_add(p, NS_LOCATION, loc->name, len, h, index))
        return -1;
    return index;
}

/* Index of the named location, created with init 0 on first use; -1 on error. */
int ps_location_index(struct parser *p, const char *name, size_t len)
{
    unsigned h = hash_name(NS_LOCATION, name, len);
    int index = names_find_hashed(&p->names, NS_LOCATION, name, len, h);
    return index >= 0 ? index : new_location(p, name, len, h);
}

/* Doubles the room of thread t's three register arrays (its names, whether
 * each has an initial value, the values), or gives them their first, in one
 * piece of the test's pool; new slots are zeroed. */
static bool grow_registers(struct parser *p, struct thread *t, struct thread_caps *c)
{
    size_t per_reg = sizeof *t->reg_names + sizeof *t->reg_init + sizeof *t->reg_has_init;
    int new_cap = 0;
    if (!next_capacity(p, c->regs, per_reg, &new_cap))
        return false;
    char *room = strpool_alloc(&p->lit->strings, (size_t)new_cap * per_reg);
    if (!room)
        return ps_out_of_memory(p);
    memset(room, 0, (size_t)new_cap * per_reg);
    char **names = (char **)(void *)room;   /* pointers, then values, then flags: each aligned */
    int64_t *init = (int64_t *)(void *)(room + (size_t)new_cap * sizeof *names);
    bool *has_init = (bool *)(room + (size_t)new_cap * (sizeof *names + sizeof *init));
    if (t->nregs > 0) {
        memcpy(names, t->reg_names, (size_t)t->nregs * sizeof *names);
        memcpy(init, t->reg_init, (size_t)t->nregs * sizeof *init);
        memcpy(has_init, t->reg_has_init, (size_t)t->nregs * sizeof *has_init);
    }
    t->reg_names = names;
    t->reg_init = init;
    t->reg_has_init = has_init;
    c->regs = new_cap;
    return true;
}

/* The index of a new register of the thread of that name (h its
 * hash_name); -1 on error. */
__attribute__((noinline))
static int new_register(struct parser *p, int thread, const char *name, size_t len, unsigned h)
{
    struct thread *t = &p->lit->threads[thread];
    struct thread_caps *c = &p->caps[thread];
    if (t->nregs >= c->regs && !grow_registers(p, t, c))
        return -1;
    t->reg_names[t->nregs] = ps_pool_text(p, name, len);
    if (!t->reg_names[t->nregs])
        return ps_out_of_memory(p), -1;
    t->reg_has_init[t->nregs] = false;
    t->reg_init[t->nregs] = 0;
    int index = t->nregs++;
    if (!names_add(p, register_ns(thread), t->reg_names[index], len, h, index))
        return -1;
    return index;
}

/* Index of the thread's named register, created on first use; -1 on error. */
int ps_register_index(struct parser *p, int thread, const char *name, size_t len)
{
    unsigned h = hash_name(register_ns(thread), name, len);
    int index = names_find_hashed(&p->names, register_ns(thread), name, len, h);
    return index >= 0 ? index : new_register(p, thread, name, len, h);
}

/* The index into p->labels of a new label of the thread of that name (h
 * its hash_name); -1 on error. */
__attribute__((noinline))
static int new_label_info(struct parser *p, int thread, const struct token *name, unsigned h)
{
    struct thread *t = &p->lit->threads[thread];
    if (!ps_reserve_pooled(p, &t->label_names, t->nlabels, &p->caps[thread].labels, sizeof *t->label_names)
        || !ps_reserve_scratch(p, &p->labels, p->nlabels, &p->labels_cap, sizeof *p->labels))
        return -1;
    t->label_names[t->nlabels] = ps_pool_text(p, name->text, name->len);
    if (!t->label_names[t->nlabels])
        return ps_out_of_memory(p), -1;
    int info = p->nlabels++;
    p->labels[info].thread = thread;
    p->labels[info].local = t->nlabels++;
    if (!names_add(p, label_ns(thread), t->label_names[p->labels[info].local], name->len, h, info))
        return -1;
    return info;
}

/* Index into p->labels of the thread's named label, created on first use; -1 on error. */
int ps_label_info_index(struct parser *p, int thread, const struct token *name)
{
    unsigned h = hash_name(label_ns(thread), name->text, name->len);
    int info = names_find_hashed(&p->names, label_ns(thread), name->text, name->len, h);
    return info >= 0 ? info : new_label_info(p, thread, name, h);
}

/* Thread index for a P number, or -1. */
static int thread_index(const struct parser *p, int id)
{
    int lo = 0, hi = p->lit->nthreads - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (p->thread_keys[mid].id == id)
            return p->thread_keys[mid].index;
        if (p->thread_keys[mid].id < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* Thread index for a P number, failing at pos when there is none. */
int ps_thread_index_at(struct parser *p, int id, struct srcpos pos)
{
    int index = thread_index(p, id);
    if (index < 0)
        ps_fail(p, pos, "unknown thread P%d", id);
    return index;
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                   */

/* The magnitude of a NUMBER or HEX token; false when it exceeds limit. */
static bool token_magnitude(const struct token *t, uint64_t limit, uint64_t *out)
{
    uint64_t v = 0;   /* no wrap below: v was at most limit, and every limit is under 2^32 */
    if (t->len == 1 && t->kind != TOK_HEX) {   /* one digit, the most common: at most every limit */
        *out = (unsigned)(t->text[0] - '0');
        return true;
    }
    if (t->kind != TOK_HEX) {
        for (size_t i = 0; i < t->len; i++) {
            v = v * 10 + (unsigned)(t->text[i] - '0');
            if (v > limit)
                return false;
        }
    } else {
        for (size_t i = 2; i < t->len; i++) {
            char c = t->text[i];
            unsigned d = c <= '9' ? (unsigned)(c - '0')
                       : c <= 'F' ? (unsigned)(c - 'A' + 10) : (unsigned)(c - 'a' + 10);
            v = v * 16 + d;
            if (v > limit)
                return false;
        }
    }
    *out = v;
    return true;
}

/* Converts the constant token t, negated when minus (its '-' token) is not
 * NULL, to a 32-bit value stored sign-extended: -2^31 to 2^32 - 1 fit, and
 * 2^31 to 2^32 - 1 are the bit patterns of -2^31 to -1. */
bool ps_value_of(struct parser *p, const struct token *minus, const struct token *t, int64_t *out)
{
    uint64_t v;
    if (!token_magnitude(t, minus ? (uint64_t)1 << 31 : UINT32_MAX, &v))
        return ps_fail(p, minus ? minus->pos : t->pos, "constant '%s" TOK_FMT "' is out of range: "
                    "values are 32 bits (-2147483648 to 4294967295)", minus ? "-" : "", TOK_ARG(t));
    if (minus)
        *out = -(int64_t)v;
    else
        *out = v > INT32_MAX ? (int64_t)v - ((int64_t)1 << 32) : (int64_t)v;
    return true;
}

/* Parses a value constant: an optional '-' and a decimal or hex number. */
bool parse_constant(struct parser *p, int64_t *out)
{
    bool negative = p->tok.kind == TOK_MINUS;
    if (negative && !ps_advance(p))
        return false;
    if (p->tok.kind != TOK_NUMBER && p->tok.kind != TOK_HEX)
        return ps_fail_expected(p, "a constant");
    return ps_value_of(p, negative ? &p->prev : NULL, &p->tok, out) && ps_advance(p);   /* prev: the '-' */
}

/* Parses a small non-negative number such as a scope id. */
bool parse_small_number(struct parser *p, const char *what, int *out)
{
    uint64_t v;
    if (p->tok.kind != TOK_NUMBER)
        return ps_fail_expected(p, what);
    if (!token_magnitude(&p->tok, MAX_ID, &v))
        return ps_fail(p, p->tok.pos, "%s " TOK_FMT " is too large", what, TOK_ARG(&p->tok));
    *out = (int)v;
    return ps_advance(p);
}

/* The P number of a thread token ("P3" or "3"), without consuming it. */
bool ps_thread_id_of(struct parser *p, const struct token *t, int *id)
{
    struct token digits = *t;
    uint64_t v;
    if (ps_has_digit_suffix(t, 'P')) {
        digits.text++;
        digits.len--;
        digits.kind = TOK_NUMBER;
    } else if (t->kind != TOK_NUMBER) {
        char got[MSG_NAME_MAX + 8];
        return ps_fail(p, t->pos, "expected a thread name like P0, got %s",
                    describe(t, got, sizeof got));
    }
    if (!token_magnitude(&digits, MAX_ID, &v))
        return ps_fail(p, t->pos, "thread id " TOK_FMT " is too large", TOK_ARG(t));
    *id = (int)v;
    return true;
}

/* Parses a thread name ("P3" or "3"). */
bool parse_thread_id(struct parser *p, int *id)
{
    return ps_thread_id_of(p, &p->tok, id) && ps_advance(p);
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                              */

/* Parses the whole test. */
static bool parse_litmus(struct parser *p)
{
    if (!parse_header(p))
        return false;
    if (p->lit->dialect == DIALECT_OPENCL)
        return opencl_parse_program(p);
    if (!parse_braced_list(p, parse_init_item, "';' or '}' in the initial state")
        || !ps_check_aliases(p))
        return false;
    if (p->lit->dialect == DIALECT_VULKAN && p->tok.kind == TOK_LBRACE
        && !parse_braced_list(p, parse_ssw_item, "';' or '}' in the ssw list"))
        return false;
    return parse_program(p) && parse_tail(p);
}

/* Frees the parser's own tables (not the AST). */
static void release_parser(struct parser *p)
{
    names_release(&p->names);
    free_scratch(p, p->caps);
    free_scratch(p, p->labels);
    free_scratch(p, p->reg_inits);
    free_scratch(p, p->ssws);
    free_scratch(p, p->thread_keys);
    free_scratch(p, p->loc_decls);
}

/* Fills err with msg at pos (line 0: no place in the text); returns NULL. */
static struct litmus *fail_early(struct litmus_error *err, struct srcpos pos, const char *msg)
{
    err->pos = pos;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return NULL;
}

/* Parses the len bytes of text (a NUL at text[len], none before it); NULL
 * and err on failure. */
static struct litmus *parse_text(const char *path, const char *text, size_t len, struct litmus_error *err)
{
    struct parser p;
    if (len > MAX_INPUT_BYTES)
        return fail_early(err, lexer_pos_at(text, len, MAX_INPUT_BYTES),
                          "input too large: the limit is 256 MiB, and this is the first byte past it");
    _Alignas(max_align_t) unsigned char scratch[SCRATCH_BYTES];
    memset(&p, 0, sizeof p);
    p.scratch = scratch;
    names_init(&p.names);
    lexer_init(&p.lx, text, len);
    p.err = err;
    p.lit = calloc(1, sizeof *p.lit);
    if (!p.lit)
        return fail_early(err, NO_PLACE, "out of memory");
    bool ok = !path || (p.lit->path = ps_pool_text(&p, path, strlen(path))) != NULL;
    if (!ok)
        ps_out_of_memory(&p);
    ok = ok && parse_litmus(&p);
    release_parser(&p);
    if (!ok) {
        litmus_free(p.lit);
        return NULL;
    }
    return p.lit;
}

/* Parses the text of a litmus file; NULL and err on failure. */
struct litmus *litmus_parse(const char *path, const char *text, struct litmus_error *err)
{
    struct litmus_error ignored;
    if (!err)
        err = &ignored;
    memset(err, 0, sizeof *err);
    if (!text)
        return fail_early(err, NO_PLACE, "no input text");
    return parse_text(path, text, strlen(text), err);
}

/* The bytes of the caller's buffer read_file fills when a file fits: every
 * litmus file of the corpus, without an allocation. */
#define SMALL_FILE_BYTES LITMUS_SMALL_FILE_BYTES

/* Reads a file into a NUL-terminated buffer, stopping once it holds more
 * than MAX_INPUT_BYTES (litmus_parse reports that): small (SMALL_FILE_BYTES)
 * when the file fits, else one it allocates; NULL and err on failure. */
char *litmus_read_file(const char *path, size_t *len, struct litmus_error *err, char *small)
{
    /* Opened without blocking and checked after opening: a file replaced
     * by a FIFO (or a device) since it was listed is refused, not waited on.
     * A regular file reads the same with or without O_NONBLOCK, so it is
     * read with read(2) as opened, into a buffer of its size and one byte
     * more: a read that fills less, having read the size fstat gave, is at
     * the end (a file that says size 0, as /proc's do, is read to a read
     * of nothing). */
    if (read_ahead_take(path, small, SMALL_FILE_BYTES, len))   /* read with others before */
        return small;
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    *len = 0;
    if (fd < 0) {
        snprintf(err->msg, sizeof err->msg, "cannot open file: %s", strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err->msg, sizeof err->msg, "not a regular file");
        close(fd);
        return NULL;
    }
    size_t cap = st.st_size > 0 && (size_t)st.st_size < MAX_INPUT_BYTES ? (size_t)st.st_size + 2 : 65536;
    char *buf = NULL;
    if (cap <= SMALL_FILE_BYTES) {
        buf = small;
        cap = SMALL_FILE_BYTES;
    }
    for (;;) {
        if (!buf || cap - *len < 2) {
            size_t new_cap = !buf ? cap : cap * 2;
            if (new_cap > MAX_INPUT_BYTES + 2)
                new_cap = MAX_INPUT_BYTES + 2;
            char *grown = realloc(buf == small ? NULL : buf, new_cap);
            if (!grown) {
                snprintf(err->msg, sizeof err->msg, "out of memory");
                break;
            }
            if (buf == small)
                memcpy(grown, small, *len);
            buf = grown;
            cap = new_cap;
        }
        size_t asked = cap - *len - 1;
        ssize_t got = read(fd, buf + *len, asked);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(err->msg, sizeof err->msg, "cannot read file: %s", strerror(errno));
            break;
        }
        *len += (size_t)got;
        if (got == 0 || *len > MAX_INPUT_BYTES || ((size_t)got < asked && *len == (size_t)st.st_size)) {
            close(fd);
            buf[*len] = '\0';
            return buf;
        }
    }
    close(fd);
    if (buf != small)
        free(buf);
    return NULL;
}

/* Reports a NUL byte inside the text at its line:col; false when there is none. */
static bool report_nul_byte(const char *text, size_t len, struct litmus_error *err)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul)
        return false;
    fail_early(err, lexer_pos_at(text, len, (size_t)(nul - text)), "unexpected NUL byte");
    return true;
}

/* Reads and parses a file; I/O failures have no place (0:0). */
struct litmus *litmus_parse_file(const char *path, struct litmus_error *err)
{
    return litmus_parse_file_grid(path, NULL, err);
}

/* The dialect its header's first word names, with the lexer's rules for
 * what may come before it. */
bool litmus_file_dialect(const char *path, enum dialect *d)
{
    struct litmus_error err;
    size_t len;
    char small[SMALL_FILE_BYTES];
    char *text = litmus_read_file(path, &len, &err, small);
    if (!text)
        return false;
    size_t bom = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    struct lexer lx;
    struct token tok;
    lexer_init(&lx, text + bom, len - bom);
    bool found = lexer_next(&lx, &tok, &err) && ps_dialect_word(&tok, d);
    if (text != small)
        free(text);
    return found;
}

/* Reads and parses a litmus or SPIR-V file (grid: see ast.h). */
struct litmus *litmus_parse_file_grid(const char *path, const int *grid, struct litmus_error *err)
{
    struct litmus_error ignored;
    size_t len;
    if (!err)
        err = &ignored;
    memset(err, 0, sizeof *err);
    if (!path)
        return fail_early(err, NO_PLACE, "no file name");
    char small[SMALL_FILE_BYTES];
    char *text = litmus_read_file(path, &len, err, small);
    if (!text)
        return NULL;
    struct litmus *l = litmus_parse_read(path, text, len, grid, err);
    if (text != small)
        free(text);
    return l;
}

/* Parses the len bytes at text that litmus_read_file read from path. */
struct litmus *litmus_parse_read(const char *path, const char *text, size_t len, const int *grid,
                                 struct litmus_error *err)
{
    size_t bom = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;   /* a UTF-8 byte-order mark */
    if (report_nul_byte(text + bom, len - bom, err))
        return NULL;
    return spirv_path(path) ? spirv_parse(path, text + bom, grid, err) : parse_text(path, text + bom, len - bom, err);
}
