/* Recursive-descent parser for Dat3M-style PTX and Vulkan litmus tests. */
#include "litmus/ast.h"
#include "litmus/lexer.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS       10000
#define MAX_INSTRS        1000000
#define MAX_NESTING       500        /* parentheses and negations in an assertion */
#define MAX_ASSERT_DEPTH  5000       /* height of an assertion tree */
#define MAX_INPUT_BYTES   (256u * 1024u * 1024u)
#define MAX_ID            1000000000 /* thread ids and scope ids */
#define MAX_PARTS         16         /* dot-separated parts of a mnemonic */
#define MSG_NAME_MAX      64         /* longest name quoted in a message */
#define NO_PLACE          ((struct srcpos){ 0, 0 })  /* an error with no place in the text */

/* printf arguments that quote a token's text, cut to a sane length. */
#define TOK_FMT "%.*s"
#define TOK_ARG(t) (int)((t)->len > MSG_NAME_MAX ? MSG_NAME_MAX : (t)->len), (t)->text

/* ------------------------------------------------------------------------ */
/* Parser state                                                              */

/* One slot of the name table: (namespace, name) -> value. */
struct name_entry {
    const char *name;        /* NULL for an empty slot; owned by the AST */
    size_t len;
    unsigned hash;
    int ns;
    int value;
};

/* Open-addressing hash table of names; capacity is a power of two. */
struct name_table {
    struct name_entry *slots;
    size_t cap, count;
};

enum { NS_LOCATION = 0 };    /* registers of thread t: 1 + 2t, labels: 2 + 2t */

/* What the parser knows about a label beyond its name. */
struct label_info {
    int thread, local;       /* thread index, label index within it */
    bool defined, used;
    struct srcpos def_pos, use_pos;
};

/* Capacities of a thread's growing arrays. */
struct thread_caps {
    int reg_names, reg_has_init, reg_init, labels, instrs;
};

/* A register initialisation seen before the thread header. */
struct pending_reg_init {
    int thread_id;
    struct srcpos thread_pos;
    const char *name;        /* points into the source */
    size_t len;
    int64_t value;
};

/* An ssw pair seen before the thread header, by P number. */
struct pending_ssw {
    int from_id, to_id;
    struct srcpos from_pos, to_pos;
};

/* How the initial state declares a location: "x = v" or "x [@ p] aliases y". */
struct loc_decl {
    struct srcpos pos;       /* the name's position; line 0 when not declared */
    bool is_alias;
    struct srcpos target_pos;  /* where an alias names its target */
};

/* Maps a P number to a thread index. */
struct thread_key {
    int id, index;
    struct srcpos pos;
};

struct parser {
    struct lexer lx;
    struct token tok;        /* current token */
    struct token prev;       /* last consumed token */
    struct litmus *lit;
    struct litmus_error *err;
    struct name_table names;
    int locs_cap, threads_cap, ssw_cap, caps_cap, thread_keys_cap;
    struct loc_decl *loc_decls;          /* by location index; see declared() */
    int loc_decls_cap;
    struct thread_caps *caps;
    struct label_info *labels;
    int nlabels, labels_cap;
    struct pending_reg_init *reg_inits;
    int nreg_inits, reg_inits_cap;
    struct pending_ssw *ssws;
    int nssws, ssws_cap;
    struct thread_key *thread_keys;
    int observed_cap;
    int total_instrs;
    int nesting;
};

/* A dotted instruction name such as ld.acquire.gpu, split at the dots. */
struct mnemonic {
    struct token parts[MAX_PARTS];
    int n;
    struct token all;        /* the whole dotted name */
};

/* ------------------------------------------------------------------------ */
/* Errors and small helpers                                                  */

__attribute__((format(printf, 3, 4)))
static bool fail(struct parser *p, struct srcpos pos, const char *fmt, ...)
{
    va_list ap;
    p->err->pos = pos;
    va_start(ap, fmt);
    vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
    va_end(ap);
    return false;
}

static bool out_of_memory(struct parser *p)
{
    return fail(p, p->tok.pos, "out of memory");
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
static bool fail_expected(struct parser *p, const char *what)
{
    char got[MSG_NAME_MAX + 8];
    return fail(p, p->tok.pos, "expected %s, got %s", what,
                describe(&p->tok, got, sizeof got));
}

/* Moves to the next token. */
static bool advance(struct parser *p)
{
    p->prev = p->tok;
    return lexer_next(&p->lx, &p->tok, p->err);
}

/* Consumes a token of the given kind or fails with "expected WHAT". */
static bool expect(struct parser *p, enum tok_kind kind, const char *what)
{
    if (p->tok.kind != kind)
        return fail_expected(p, what);
    return advance(p);
}

/* Consumes the identifier word or fails with "expected WHAT". */
static bool expect_word(struct parser *p, const char *word, const char *what)
{
    if (!tok_is(&p->tok, word))
        return fail_expected(p, what);
    return advance(p);
}

/* A NUL-terminated copy of len bytes of s, or NULL when out of memory. */
static char *copy_text(const char *s, size_t len)
{
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    return copy;
}

/* Makes room for element number count in the array at arrp (a pointer to a
 * pointer) whose capacity is *cap; new slots are zeroed. */
static bool reserve(struct parser *p, void *arrp, int count, int *cap, size_t elem)
{
    void *arr, *grown;
    int new_cap;
    if (count < *cap)
        return true;
    if (*cap > INT_MAX / 2 || (size_t)*cap * 2 > SIZE_MAX / elem / 2)
        return out_of_memory(p);
    new_cap = *cap < 8 ? 8 : *cap * 2;
    memcpy(&arr, arrp, sizeof arr);
    grown = realloc(arr, (size_t)new_cap * elem);
    if (!grown)
        return out_of_memory(p);
    memset((char *)grown + (size_t)*cap * elem, 0, (size_t)(new_cap - *cap) * elem);
    memcpy(arrp, &grown, sizeof grown);
    *cap = new_cap;
    return true;
}

/* True when the token text is prefix followed by one or more digits. */
static bool has_digit_suffix(const struct token *t, const char *prefix)
{
    size_t n = strlen(prefix);
    if (t->kind != TOK_IDENT || t->len <= n || memcmp(t->text, prefix, n) != 0)
        return false;
    for (size_t i = n; i < t->len; i++)
        if (t->text[i] < '0' || t->text[i] > '9')
            return false;
    return true;
}

static bool is_register_name(const struct token *t) { return has_digit_suffix(t, "r"); }

/* True when a comes before b in the text. */
static bool pos_before(struct srcpos a, struct srcpos b)
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

/* The value stored for (ns, name), or -1. */
static int names_find(const struct name_table *t, int ns, const char *s, size_t len)
{
    unsigned h = hash_name(ns, s, len);
    if (t->cap == 0)
        return -1;
    for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        const struct name_entry *e = &t->slots[i];
        if (!e->name)
            return -1;
        if (e->hash == h && e->ns == ns && e->len == len && memcmp(e->name, s, len) == 0)
            return e->value;
    }
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

/* Doubles the table's capacity. */
static bool names_grow(struct parser *p, struct name_table *t)
{
    size_t new_cap = t->cap ? t->cap * 2 : 64;
    struct name_entry *old = t->slots;
    size_t old_cap = t->cap;
    if (new_cap > SIZE_MAX / sizeof *old)
        return out_of_memory(p);
    t->slots = calloc(new_cap, sizeof *t->slots);
    if (!t->slots) {
        t->slots = old;
        return out_of_memory(p);
    }
    t->cap = new_cap;
    t->count = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].name)
            names_place(t, old[i]);
    free(old);
    return true;
}

/* Records (ns, name) -> value; name must outlive the table. */
static bool names_add(struct parser *p, int ns, const char *name, size_t len, int value)
{
    struct name_table *t = &p->names;
    struct name_entry entry = { name, len, hash_name(ns, name, len), ns, value };
    if ((t->count + 1) * 2 > t->cap && !names_grow(p, t))
        return false;
    names_place(t, entry);
    return true;
}

static int register_ns(int thread) { return 1 + 2 * thread; }
static int label_ns(int thread) { return 2 + 2 * thread; }

/* ------------------------------------------------------------------------ */
/* Locations, registers, labels                                              */

/* Index of the named location, created with init 0 on first use; -1 on error. */
static int location_index(struct parser *p, const char *name, size_t len)
{
    struct litmus *l = p->lit;
    int index = names_find(&p->names, NS_LOCATION, name, len);
    if (index >= 0)
        return index;
    if (!reserve(p, &l->locs, l->nlocs, &p->locs_cap, sizeof *l->locs))
        return -1;
    struct location *loc = &l->locs[l->nlocs];
    loc->name = copy_text(name, len);
    if (!loc->name)
        return out_of_memory(p), -1;
    loc->init = 0;
    loc->alias_of = -1;
    loc->alias_proxy = PROXY_GENERIC;
    index = l->nlocs++;
    if (!names_add(p, NS_LOCATION, loc->name, len, index))
        return -1;
    return index;
}

/* Index of the thread's named register, created on first use; -1 on error. */
static int register_index(struct parser *p, int thread, const char *name, size_t len)
{
    struct thread *t = &p->lit->threads[thread];
    struct thread_caps *c = &p->caps[thread];
    int index = names_find(&p->names, register_ns(thread), name, len);
    if (index >= 0)
        return index;
    if (!reserve(p, &t->reg_names, t->nregs, &c->reg_names, sizeof *t->reg_names)
        || !reserve(p, &t->reg_has_init, t->nregs, &c->reg_has_init, sizeof *t->reg_has_init)
        || !reserve(p, &t->reg_init, t->nregs, &c->reg_init, sizeof *t->reg_init))
        return -1;
    t->reg_names[t->nregs] = copy_text(name, len);
    if (!t->reg_names[t->nregs])
        return out_of_memory(p), -1;
    t->reg_has_init[t->nregs] = false;
    t->reg_init[t->nregs] = 0;
    index = t->nregs++;
    if (!names_add(p, register_ns(thread), t->reg_names[index], len, index))
        return -1;
    return index;
}

/* Index into p->labels of the thread's named label, created on first use; -1 on error. */
static int label_info_index(struct parser *p, int thread, const struct token *name)
{
    struct thread *t = &p->lit->threads[thread];
    int info = names_find(&p->names, label_ns(thread), name->text, name->len);
    if (info >= 0)
        return info;
    if (!reserve(p, &t->label_names, t->nlabels, &p->caps[thread].labels, sizeof *t->label_names)
        || !reserve(p, &p->labels, p->nlabels, &p->labels_cap, sizeof *p->labels))
        return -1;
    t->label_names[t->nlabels] = copy_text(name->text, name->len);
    if (!t->label_names[t->nlabels])
        return out_of_memory(p), -1;
    info = p->nlabels++;
    p->labels[info].thread = thread;
    p->labels[info].local = t->nlabels++;
    if (!names_add(p, label_ns(thread), t->label_names[p->labels[info].local], name->len, info))
        return -1;
    return info;
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
static int thread_index_at(struct parser *p, int id, struct srcpos pos)
{
    int index = thread_index(p, id);
    if (index < 0)
        fail(p, pos, "unknown thread P%d", id);
    return index;
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                   */

/* The magnitude of a NUMBER or HEX token; false when it exceeds limit. */
static bool token_magnitude(const struct token *t, uint64_t limit, uint64_t *out)
{
    bool hex = t->kind == TOK_HEX;
    unsigned base = hex ? 16 : 10;
    uint64_t v = 0;
    for (size_t i = hex ? 2 : 0; i < t->len; i++) {
        char c = t->text[i];
        unsigned d = c <= '9' ? (unsigned)(c - '0')
                   : c <= 'F' ? (unsigned)(c - 'A' + 10) : (unsigned)(c - 'a' + 10);
        if (v > (limit - d) / base)
            return false;
        v = v * base + d;
    }
    *out = v;
    return true;
}

/* Converts the constant token t, negated when minus (its '-' token) is not
 * NULL, to a 32-bit value stored sign-extended: -2^31 to 2^32 - 1 fit, and
 * 2^31 to 2^32 - 1 are the bit patterns of -2^31 to -1. */
static bool value_of(struct parser *p, const struct token *minus, const struct token *t, int64_t *out)
{
    uint64_t v;
    if (!token_magnitude(t, minus ? (uint64_t)1 << 31 : UINT32_MAX, &v))
        return fail(p, minus ? minus->pos : t->pos, "constant '%s" TOK_FMT "' is out of range: "
                    "values are 32 bits (-2147483648 to 4294967295)", minus ? "-" : "", TOK_ARG(t));
    if (minus)
        *out = -(int64_t)v;
    else
        *out = v > INT32_MAX ? (int64_t)v - ((int64_t)1 << 32) : (int64_t)v;
    return true;
}

/* Parses a value constant: an optional '-' and a decimal or hex number. */
static bool parse_constant(struct parser *p, int64_t *out)
{
    struct token minus = p->tok;
    bool negative = minus.kind == TOK_MINUS;
    if (negative && !advance(p))
        return false;
    if (p->tok.kind != TOK_NUMBER && p->tok.kind != TOK_HEX)
        return fail_expected(p, "a constant");
    return value_of(p, negative ? &minus : NULL, &p->tok, out) && advance(p);
}

/* Parses a small non-negative number such as a scope id. */
static bool parse_small_number(struct parser *p, const char *what, int *out)
{
    uint64_t v;
    if (p->tok.kind != TOK_NUMBER)
        return fail_expected(p, what);
    if (!token_magnitude(&p->tok, MAX_ID, &v))
        return fail(p, p->tok.pos, "%s " TOK_FMT " is too large", what, TOK_ARG(&p->tok));
    *out = (int)v;
    return advance(p);
}

/* The P number of a thread token ("P3" or "3"), without consuming it. */
static bool thread_id_of(struct parser *p, const struct token *t, int *id)
{
    struct token digits = *t;
    uint64_t v;
    if (has_digit_suffix(t, "P")) {
        digits.text++;
        digits.len--;
        digits.kind = TOK_NUMBER;
    } else if (t->kind != TOK_NUMBER) {
        char got[MSG_NAME_MAX + 8];
        return fail(p, t->pos, "expected a thread name like P0, got %s",
                    describe(t, got, sizeof got));
    }
    if (!token_magnitude(&digits, MAX_ID, &v))
        return fail(p, t->pos, "thread id " TOK_FMT " is too large", TOK_ARG(t));
    *id = (int)v;
    return true;
}

/* Parses a thread name ("P3" or "3"). */
static bool parse_thread_id(struct parser *p, int *id)
{
    return thread_id_of(p, &p->tok, id) && advance(p);
}

/* ------------------------------------------------------------------------ */
/* Header and initial state                                                  */

/* Parses the dialect keyword, the test name and the free text up to '{'. */
static bool parse_header(struct parser *p)
{
    struct token word;
    if (!lexer_next(&p->lx, &p->tok, p->err))
        return false;
    if (tok_is(&p->tok, "PTX") || tok_is(&p->tok, "ptx"))
        p->lit->dialect = DIALECT_PTX;
    else if (tok_is(&p->tok, "VULKAN") || tok_is(&p->tok, "Vulkan") || tok_is(&p->tok, "vulkan"))
        p->lit->dialect = DIALECT_VULKAN;
    else
        return fail_expected(p, "'PTX' or 'VULKAN' at the start of the test");
    lexer_read_word(&p->lx, &word);
    p->lit->name = copy_text(word.text, word.len);
    if (!p->lit->name)
        return out_of_memory(p);
    return lexer_skip_to_lbrace(&p->lx, p->err) && advance(p);
}

/* Parses the rest of "P0:r1 = 5" once the thread token and ':' are seen. */
static bool parse_register_init(struct parser *p, const struct token *thread)
{
    struct pending_reg_init init;
    if (!thread_id_of(p, thread, &init.thread_id) || !advance(p))
        return false;
    if (!is_register_name(&p->tok))
        return fail_expected(p, "a register name like r0 after ':'");
    init.thread_pos = thread->pos;
    init.name = p->tok.text;
    init.len = p->tok.len;
    if (!advance(p) || !expect(p, TOK_ASSIGN, "'=' after register"))
        return false;
    if (p->tok.kind == TOK_AMP || p->tok.kind == TOK_IDENT)
        return fail(p, p->tok.pos, "initialising register '%.*s' with %s is not supported",
                    (int)(init.len > MSG_NAME_MAX ? MSG_NAME_MAX : init.len), init.name,
                    p->tok.kind == TOK_AMP ? "an address" : "a location");
    if (!parse_constant(p, &init.value))
        return false;
    if (!reserve(p, &p->reg_inits, p->nreg_inits, &p->reg_inits_cap, sizeof *p->reg_inits))
        return false;
    p->reg_inits[p->nreg_inits++] = init;
    return true;
}

/* True when the initial state declares location loc (a value or an alias). */
static bool declared(const struct parser *p, int loc)
{
    return loc < p->loc_decls_cap && p->loc_decls[loc].pos.line > 0;
}

/* Records that the initial state declares the named location, by a value
 * or as an alias; its index, or -1 on error (a second declaration). */
static int declare_location(struct parser *p, const struct token *name, bool is_alias)
{
    int loc = location_index(p, name->text, name->len);
    if (loc < 0 || !reserve(p, &p->loc_decls, loc, &p->loc_decls_cap, sizeof *p->loc_decls))
        return -1;
    struct loc_decl *d = &p->loc_decls[loc];
    if (d->pos.line > 0 && is_alias == d->is_alias)
        return fail(p, name->pos, "duplicate %s for location '" TOK_FMT "' (first at %d:%d)",
                    is_alias ? "alias" : "initial value", TOK_ARG(name), d->pos.line, d->pos.col), -1;
    if (d->pos.line > 0)
        return fail(p, name->pos, "location '" TOK_FMT "' is both an alias and given an initial "
                    "value (first at %d:%d); an alias has its target's value",
                    TOK_ARG(name), d->pos.line, d->pos.col), -1;
    d->pos = name->pos;
    d->is_alias = is_alias;
    return loc;
}

/* Parses the rest of "x = 1" once the location name is consumed. */
static bool parse_location_init(struct parser *p, const struct token *name)
{
    int64_t value;
    int loc;
    if (!advance(p))
        return false;
    if (p->tok.kind == TOK_AMP || p->tok.kind == TOK_IDENT)
        return fail(p, p->tok.pos, "initialising location '" TOK_FMT "' with %s is not supported",
                    TOK_ARG(name), p->tok.kind == TOK_AMP ? "an address" : "a location");
    if (!parse_constant(p, &value))
        return false;
    loc = declare_location(p, name, false);
    if (loc < 0)
        return false;
    p->lit->locs[loc].init = value;
    return true;
}

/* Parses "@ proxy" in "y @ surface aliases x"; PTX only. */
static bool parse_alias_proxy(struct parser *p, enum proxy *proxy)
{
    if (p->lit->dialect != DIALECT_PTX)
        return fail(p, p->tok.pos, "proxy aliases ('@ <proxy> aliases') exist only in PTX");
    if (!advance(p))
        return false;
    if (tok_is(&p->tok, "generic")) *proxy = PROXY_GENERIC;
    else if (tok_is(&p->tok, "texture")) *proxy = PROXY_TEXTURE;
    else if (tok_is(&p->tok, "surface")) *proxy = PROXY_SURFACE;
    else if (tok_is(&p->tok, "constant")) *proxy = PROXY_CONSTANT;
    else return fail_expected(p, "a proxy (generic, texture, surface or constant) after '@'");
    return advance(p);
}

/* Parses the rest of "y [@ proxy] aliases x" once y is consumed. */
static bool parse_alias(struct parser *p, const struct token *name)
{
    enum proxy proxy = PROXY_GENERIC;
    struct token target;
    int from, to;
    if (p->tok.kind == TOK_AT && !parse_alias_proxy(p, &proxy))
        return false;
    if (!expect_word(p, "aliases", "'aliases'"))
        return false;
    if (p->tok.kind != TOK_IDENT)
        return fail_expected(p, "a location after 'aliases'");
    target = p->tok;
    if (target.len == name->len && memcmp(target.text, name->text, name->len) == 0)
        return fail(p, target.pos, "location '" TOK_FMT "' cannot alias itself", TOK_ARG(name));
    from = declare_location(p, name, true);
    to = from < 0 ? -1 : location_index(p, target.text, target.len);
    if (to < 0)
        return false;
    p->loc_decls[from].target_pos = target.pos;
    p->lit->locs[from].alias_of = to;
    p->lit->locs[from].alias_proxy = proxy;
    return advance(p);
}

/* Fails at the alias in the cycle that loc's alias chain ends in which comes
 * last in the text (the one that closed the cycle). */
static bool alias_cycle(struct parser *p, int loc)
{
    const struct location *locs = p->lit->locs;
    int last = loc;
    for (int k = locs[loc].alias_of; k != loc; k = locs[k].alias_of)
        if (pos_before(p->loc_decls[last].pos, p->loc_decls[k].pos))
            last = k;
    return fail(p, p->loc_decls[last].target_pos, "alias cycle: '%.*s' aliases '%.*s', which leads back to '%.*s'",
                MSG_NAME_MAX, locs[last].name, MSG_NAME_MAX, locs[locs[last].alias_of].name,
                MSG_NAME_MAX, locs[last].name);
}

/* Checks the aliases once the initial state is read: each names a location
 * the initial state declares, and no chain of aliases comes back to itself. */
static bool check_aliases(struct parser *p)
{
    const struct litmus *l = p->lit;
    int undeclared = -1;
    for (int i = 0; i < l->nlocs; i++)
        if (l->locs[i].alias_of >= 0 && !declared(p, l->locs[i].alias_of)
            && (undeclared < 0 || pos_before(p->loc_decls[i].target_pos, p->loc_decls[undeclared].target_pos)))
            undeclared = i;
    if (undeclared >= 0)
        return fail(p, p->loc_decls[undeclared].target_pos,
                    "'%.*s' aliases '%.*s', which the initial state does not declare",
                    MSG_NAME_MAX, l->locs[undeclared].name,
                    MSG_NAME_MAX, l->locs[l->locs[undeclared].alias_of].name);
    /* every alias chain is a path in a graph of out-degree at most one:
     * walk each once, 1 marking the walk in progress and 2 a finished one */
    unsigned char *state = calloc((size_t)l->nlocs + 1, 1);
    int cycle = -1;
    if (!state)
        return out_of_memory(p);
    for (int i = 0; cycle < 0 && i < l->nlocs; i++) {
        int k = i;
        while (k >= 0 && state[k] == 0) {
            state[k] = 1;
            k = l->locs[k].alias_of;
        }
        if (k >= 0 && state[k] == 1)
            cycle = k;
        for (k = i; k >= 0 && state[k] == 1; k = l->locs[k].alias_of)
            state[k] = 2;
    }
    free(state);
    return cycle < 0 || alias_cycle(p, cycle);
}

/* Parses one entry of the initial state. */
static bool parse_init_item(struct parser *p)
{
    struct token first = p->tok;
    if (first.kind != TOK_IDENT && first.kind != TOK_NUMBER)
        return fail_expected(p, "a location or register initialisation");
    if (!advance(p))
        return false;
    if (p->tok.kind == TOK_COLON)
        return parse_register_init(p, &first);
    if (first.kind != TOK_IDENT)
        return fail_expected(p, "':' after thread id");
    if (is_register_name(&first))
        return fail(p, first.pos, "register '" TOK_FMT "' needs a thread, e.g. P0:" TOK_FMT,
                    TOK_ARG(&first), TOK_ARG(&first));
    if (p->tok.kind == TOK_ASSIGN)
        return parse_location_init(p, &first);
    if (p->tok.kind == TOK_AT || tok_is(&p->tok, "aliases"))
        return parse_alias(p, &first);
    return fail_expected(p, "'=', '@' or 'aliases' after location");
}

/* Parses "{ item; item; ... }" with item_fn, then an optional ';'. */
static bool parse_braced_list(struct parser *p, bool (*item_fn)(struct parser *), const char *what)
{
    if (!expect(p, TOK_LBRACE, "'{'"))
        return false;
    for (;;) {
        while (p->tok.kind == TOK_SEMI)
            if (!advance(p))
                return false;
        if (p->tok.kind == TOK_RBRACE)
            break;
        if (!item_fn(p))
            return false;
        if (p->tok.kind == TOK_RBRACE)
            break;
        if (p->tok.kind != TOK_SEMI)
            return fail_expected(p, what);
    }
    if (!advance(p))
        return false;
    return p->tok.kind != TOK_SEMI || advance(p);
}

/* Parses "ssw P0 P1". */
static bool parse_ssw_item(struct parser *p)
{
    struct pending_ssw pair;
    if (!expect_word(p, "ssw", "'ssw'"))
        return false;
    pair.from_pos = p->tok.pos;
    if (!parse_thread_id(p, &pair.from_id))
        return false;
    pair.to_pos = p->tok.pos;
    if (!parse_thread_id(p, &pair.to_id))
        return false;
    if (pair.to_id == pair.from_id)
        return fail(p, pair.to_pos, "ssw P%d P%d pairs a thread with itself", pair.from_id, pair.to_id);
    if (!reserve(p, &p->ssws, p->nssws, &p->ssws_cap, sizeof *p->ssws))
        return false;
    p->ssws[p->nssws++] = pair;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Thread header                                                             */

/* Parses "sg 0" and the like: a scope word and its id. */
static bool parse_scope_id(struct parser *p, const char *word, int *id)
{
    char what[32];
    snprintf(what, sizeof what, "'%s'", word);
    if (!expect_word(p, word, what))
        return false;
    snprintf(what, sizeof what, "%s id", word);
    return parse_small_number(p, what, id);
}

/* Parses the placement after '@': "cta 0, gpu 0" or "sg 0, wg 0, qf 0". */
static bool parse_placement(struct parser *p, int scope_id[3])
{
    if (p->lit->dialect == DIALECT_PTX) {
        scope_id[2] = -1;
        return parse_scope_id(p, "cta", &scope_id[0])
            && expect(p, TOK_COMMA, "',' after cta id")
            && parse_scope_id(p, "gpu", &scope_id[1]);
    }
    return parse_scope_id(p, "sg", &scope_id[0])
        && expect(p, TOK_COMMA, "',' after sg id")
        && parse_scope_id(p, "wg", &scope_id[1])
        && expect(p, TOK_COMMA, "',' after wg id")
        && parse_scope_id(p, "qf", &scope_id[2]);
}

/* Parses one "P0@cta 0,gpu 0" and appends the thread. */
static bool parse_thread_decl(struct parser *p)
{
    struct litmus *l = p->lit;
    struct srcpos pos = p->tok.pos;
    int id;
    if (l->nthreads >= MAX_THREADS)
        return fail(p, pos, "too many threads (limit %d)", MAX_THREADS);
    if (!parse_thread_id(p, &id) || !expect(p, TOK_AT, "'@' after thread name"))
        return false;
    if (!reserve(p, &l->threads, l->nthreads, &p->threads_cap, sizeof *l->threads))
        return false;
    if (!reserve(p, &p->caps, l->nthreads, &p->caps_cap, sizeof *p->caps)
        || !reserve(p, &p->thread_keys, l->nthreads, &p->thread_keys_cap, sizeof *p->thread_keys))
        return false;
    struct thread *t = &l->threads[l->nthreads];
    memset(t, 0, sizeof *t);
    t->id = id;
    p->thread_keys[l->nthreads] = (struct thread_key){ id, l->nthreads, pos };
    l->nthreads++;
    return parse_placement(p, t->scope_id);
}

static int compare_thread_keys(const void *a, const void *b)
{
    const struct thread_key *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Sorts the P numbers for lookup and rejects duplicates. */
static bool index_threads(struct parser *p)
{
    int n = p->lit->nthreads;
    qsort(p->thread_keys, (size_t)n, sizeof *p->thread_keys, compare_thread_keys);
    for (int i = 1; i < n; i++)
        if (p->thread_keys[i].id == p->thread_keys[i - 1].id)
            return fail(p, p->thread_keys[i].pos, "duplicate thread P%d", p->thread_keys[i].id);
    return true;
}

/* Parses "P0@... | P1@... ;". */
static bool parse_thread_header(struct parser *p)
{
    for (;;) {
        if (!parse_thread_decl(p))
            return false;
        if (p->tok.kind == TOK_SEMI)
            return advance(p) && index_threads(p);
        if (p->tok.kind != TOK_BAR)
            return fail_expected(p, "'|' or ';' after thread declaration");
        if (!advance(p))
            return false;
    }
}

/* The first of the register initialisations before number i that sets the
 * same register as number i, or NULL. */
static const struct pending_reg_init *earlier_reg_init(const struct parser *p, int i)
{
    const struct pending_reg_init *init = &p->reg_inits[i];
    for (int k = 0; k < i; k++) {
        const struct pending_reg_init *e = &p->reg_inits[k];
        if (e->thread_id == init->thread_id && e->len == init->len
            && memcmp(e->name, init->name, init->len) == 0)
            return e;
    }
    return NULL;
}

/* Fails at the ssw pair number k, which closes a cycle of ssw pairs. */
static bool ssw_cycle(struct parser *p, int k)
{
    const struct pending_ssw *s = &p->ssws[k];
    return fail(p, s->to_pos, "ssw P%d P%d closes a cycle: the ssw pairs before it lead from P%d to P%d",
                s->from_id, s->to_id, s->to_id, s->from_id);
}

/* Fails at the ssw pair that closes a cycle, if the pairs have one: a depth-
 * first search over the threads; of the pairs on the first cycle it finds,
 * the one that comes last in the text is the one that closed it. */
static bool check_ssw_cycles(struct parser *p)
{
    const struct litmus *l = p->lit;
    int n = l->nthreads, m = l->nssw, cycle = -1;
    int *first = calloc((size_t)n + 1, sizeof *first);     /* pairs from t: first[t] .. first[t+1]-1 */
    int *by_from = malloc(((size_t)m + 1) * sizeof *by_from);
    int *parent = malloc(((size_t)n + 1) * sizeof *parent);  /* the pair that reached t */
    int *next = malloc(((size_t)n + 1) * sizeof *next);      /* t's next pair to follow */
    int *stack = malloc(((size_t)n + 1) * sizeof *stack);
    unsigned char *state = calloc((size_t)n + 1, 1);          /* 1 on the stack, 2 done */
    bool ok = first && by_from && parent && next && stack && state;
    if (ok) {
        for (int k = 0; k < m; k++)
            first[l->ssw[k].from + 1]++;
        for (int t = 0; t < n; t++)
            first[t + 1] += first[t];
        for (int t = 0; t < n; t++)
            next[t] = first[t];
        for (int k = 0; k < m; k++)
            by_from[next[l->ssw[k].from]++] = k;
        for (int t = 0; t < n; t++)
            next[t] = first[t];
    }
    for (int root = 0; ok && cycle < 0 && root < n; root++) {
        int depth = 0;
        if (state[root])
            continue;
        state[root] = 1;
        stack[depth++] = root;
        while (depth > 0 && cycle < 0) {
            int t = stack[depth - 1];
            if (next[t] == first[t + 1]) {
                state[t] = 2;
                depth--;
                continue;
            }
            int k = by_from[next[t]++], u = l->ssw[k].to;
            if (state[u] == 0) {
                state[u] = 1;
                parent[u] = k;
                stack[depth++] = u;
            } else if (state[u] == 1) {
                cycle = k;
                for (int w = t; w != u; w = l->ssw[parent[w]].from)
                    if (parent[w] > cycle)
                        cycle = parent[w];
            }
        }
    }
    free(first);
    free(by_from);
    free(parent);
    free(next);
    free(stack);
    free(state);
    if (!ok)
        return out_of_memory(p);
    return cycle < 0 || ssw_cycle(p, cycle);
}

/* Applies register initialisations and ssw pairs now that threads are known. */
static bool resolve_pending(struct parser *p)
{
    struct litmus *l = p->lit;
    for (int i = 0; i < p->nreg_inits; i++) {
        const struct pending_reg_init *init = &p->reg_inits[i];
        int t = thread_index_at(p, init->thread_id, init->thread_pos);
        int r = t < 0 ? -1 : register_index(p, t, init->name, init->len);
        if (r < 0)
            return false;
        if (l->threads[t].reg_has_init[r]) {
            const struct pending_reg_init *e = earlier_reg_init(p, i);
            return fail(p, init->thread_pos, "duplicate initial value for register P%d:%.*s (first at %d:%d)",
                        init->thread_id, (int)(init->len > MSG_NAME_MAX ? MSG_NAME_MAX : init->len),
                        init->name, e->thread_pos.line, e->thread_pos.col);
        }
        l->threads[t].reg_has_init[r] = true;
        l->threads[t].reg_init[r] = init->value;
    }
    for (int i = 0; i < p->nssws; i++) {
        const struct pending_ssw *s = &p->ssws[i];
        int from = thread_index_at(p, s->from_id, s->from_pos);
        int to = from < 0 ? -1 : thread_index_at(p, s->to_id, s->to_pos);
        if (to < 0 || !reserve(p, &l->ssw, l->nssw, &p->ssw_cap, sizeof *l->ssw))
            return false;
        l->ssw[l->nssw++] = (struct ssw_pair){ from, to };
    }
    return check_ssw_cycles(p);
}

/* ------------------------------------------------------------------------ */
/* Instruction operands                                                      */

/* Parses a register operand of the thread. */
static bool parse_register_operand(struct parser *p, int thread, int *reg)
{
    if (!is_register_name(&p->tok))
        return fail_expected(p, "a register");
    *reg = register_index(p, thread, p->tok.text, p->tok.len);
    return *reg >= 0 && advance(p);
}

/* Parses a location operand. */
static bool parse_location_operand(struct parser *p, int *loc)
{
    if (p->tok.kind != TOK_IDENT || is_register_name(&p->tok))
        return fail_expected(p, "a location");
    *loc = location_index(p, p->tok.text, p->tok.len);
    return *loc >= 0 && advance(p);
}

/* Parses a value operand: a register or a constant. */
static bool parse_value_operand(struct parser *p, int thread, struct operand *v)
{
    if (p->tok.kind == TOK_IDENT) {
        if (!is_register_name(&p->tok))
            return fail_expected(p, "a register or constant");
        v->is_reg = true;
        return parse_register_operand(p, thread, &v->reg);
    }
    if (p->tok.kind != TOK_NUMBER && p->tok.kind != TOK_HEX && p->tok.kind != TOK_MINUS)
        return fail_expected(p, "a register or constant");
    v->is_reg = false;
    return parse_constant(p, &v->value);
}

/* Parses a label operand (branch target) and records its first use. */
static bool parse_label_operand(struct parser *p, int thread, int *label)
{
    int info;
    if (p->tok.kind != TOK_IDENT || is_register_name(&p->tok))
        return fail_expected(p, "a label");
    info = label_info_index(p, thread, &p->tok);
    if (info < 0)
        return false;
    if (!p->labels[info].used) {
        p->labels[info].used = true;
        p->labels[info].use_pos = p->tok.pos;
    }
    *label = p->labels[info].local;
    return advance(p);
}

/* What kind of operand the previous token was, for "expected ',' after ...". */
static const char *operand_noun(const struct token *t)
{
    if (is_register_name(t)) return "register";
    if (t->kind == TOK_NUMBER || t->kind == TOK_HEX) return "constant";
    return "location";
}

/* Parses one operand of signature letter kind into in. */
static bool parse_operand(struct parser *p, int thread, char kind, int *nvalues, struct instr *in)
{
    switch (kind) {
    case 'R': return parse_register_operand(p, thread, &in->dst);
    case 'L': return parse_location_operand(p, &in->loc);
    case 'V': return parse_value_operand(p, thread, (*nvalues)++ == 0 ? &in->a : &in->b);
    case 'C': return parse_constant(p, &in->bar_instance);
    case 'B': return parse_label_operand(p, thread, &in->label);
    default: /* 'v': optional barrier id, then quorum */
        if (in->has_bar_id) {
            in->has_bar_quorum = true;
            return parse_value_operand(p, thread, &in->bar_quorum);
        }
        in->has_bar_id = true;
        return parse_value_operand(p, thread, &in->bar_id);
    }
}

/* Parses the operands described by sig: R register, L location, V value,
 * C constant, B label, v optional value (only at the end). */
static bool parse_operands(struct parser *p, int thread, const char *sig,
                           const struct mnemonic *m, struct instr *in)
{
    int nvalues = 0;
    for (int i = 0; sig[i]; i++) {
        if (i > 0 && p->tok.kind != TOK_COMMA) {
            if (sig[i] == 'v')
                break;
            char what[48];
            snprintf(what, sizeof what, "',' after %s", operand_noun(&p->prev));
            return fail_expected(p, what);
        }
        if (i > 0 && !advance(p))
            return false;
        if (!parse_operand(p, thread, sig[i], &nvalues, in))
            return false;
    }
    if (p->tok.kind == TOK_COMMA)
        return fail(p, p->tok.pos, "too many operands for '" TOK_FMT "'", TOK_ARG(&m->all));
    return true;
}

/* ------------------------------------------------------------------------ */
/* Mnemonic decoding shared by both dialects                                 */

struct word_value {
    const char *word;
    int value;
};

/* Looks t up in a NULL-terminated table. */
static bool lookup(const struct word_value *table, const struct token *t, int *value)
{
    for (int i = 0; table[i].word; i++) {
        if (tok_is(t, table[i].word)) {
            *value = table[i].value;
            return true;
        }
    }
    return false;
}

static const struct word_value arith_ops[] = {
    { "add", OP_ADD }, { "sub", OP_SUB }, { "mul", OP_MUL }, { "div", OP_DIV },
    { "and", OP_AND }, { "or", OP_OR }, { "xor", OP_XOR }, { NULL, 0 }
};
static const struct word_value ptx_local_ops[] = {
    { "add", OP_ADD }, { "sub", OP_SUB }, { "mul", OP_MUL }, { "div", OP_DIV }, { NULL, 0 }
};
static const struct word_value branch_conds[] = {
    { "beq", CMP_EQ }, { "bne", CMP_NE }, { "blt", CMP_LT }, { "bgt", CMP_GT },
    { "ble", CMP_LE }, { "bge", CMP_GE }, { NULL, 0 }
};

/* The mnemonic's part i, or NULL. */
static const struct token *part(const struct mnemonic *m, int i)
{
    return i < m->n ? &m->parts[i] : NULL;
}

/* Fails when the mnemonic has parts from index i on. */
static bool no_more_parts(struct parser *p, const struct mnemonic *m, int i)
{
    if (i >= m->n)
        return true;
    return fail(p, m->parts[i].pos, "unexpected '." TOK_FMT "' in '" TOK_FMT "'",
                TOK_ARG(&m->parts[i]), TOK_ARG(&m->all));
}

/* Looks part i up in table; fails with "'mnemonic' needs WHAT" or
 * "unknown WHAT 'x' in 'mnemonic'". */
static bool required_part(struct parser *p, const struct mnemonic *m, int i,
                          const struct word_value *table, const char *what, int *value)
{
    const struct token *t = part(m, i);
    if (!t)
        return fail(p, m->all.pos, "'" TOK_FMT "' needs %s", TOK_ARG(&m->all), what);
    if (!lookup(table, t, value))
        return fail(p, t->pos, "expected %s in '" TOK_FMT "', got '" TOK_FMT "'",
                    what, TOK_ARG(&m->all), TOK_ARG(t));
    return true;
}

static bool unknown_instruction(struct parser *p, const struct mnemonic *m)
{
    return fail(p, m->all.pos, "unknown instruction '" TOK_FMT "'", TOK_ARG(&m->all));
}

/* Decodes local arithmetic, branches and goto, common to both dialects. */
static bool decode_common(struct parser *p, const struct mnemonic *m, const struct word_value *local_ops,
                          struct instr *in, const char **sig)
{
    int value;
    if (lookup(local_ops, &m->parts[0], &value)) {
        in->kind = I_LOCAL;
        in->op = (enum binop)value;
        *sig = "RVV";
    } else if (lookup(branch_conds, &m->parts[0], &value)) {
        in->kind = I_BRANCH;
        in->cmp = (enum cmpop)value;
        *sig = "VVB";
    } else if (tok_is(&m->parts[0], "goto")) {
        in->kind = I_GOTO;
        *sig = "B";
    } else {
        return unknown_instruction(p, m);
    }
    return no_more_parts(p, m, 1);
}

/* ------------------------------------------------------------------------ */
/* PTX mnemonics                                                             */

static const struct word_value ptx_mos[] = {
    { "weak", MO_WEAK }, { "relaxed", MO_RELAXED }, { "acquire", MO_ACQUIRE },
    { "release", MO_RELEASE }, { "acq_rel", MO_ACQ_REL }, { "sc", MO_SC }, { NULL, 0 }
};
static const struct word_value ptx_scopes[] = {
    { "cta", SCOPE_CTA }, { "gpu", SCOPE_GPU }, { "sys", SCOPE_SYS }, { NULL, 0 }
};
static const struct word_value ptx_proxies[] = {
    { "generic", PROXY_GENERIC }, { "texture", PROXY_TEXTURE },
    { "surface", PROXY_SURFACE }, { "constant", PROXY_CONSTANT }, { NULL, 0 }
};
static const struct word_value ptx_load_bases[] = {
    { "ld", PROXY_GENERIC }, { "tld", PROXY_TEXTURE }, { "suld", PROXY_SURFACE },
    { "cold", PROXY_CONSTANT }, { NULL, 0 }
};
static const struct word_value ptx_store_bases[] = {
    { "st", PROXY_GENERIC }, { "sust", PROXY_SURFACE }, { NULL, 0 }
};
static const struct word_value ptx_atom_bases[] = {
    { "atom", PROXY_GENERIC }, { "suatom", PROXY_SURFACE }, { NULL, 0 }
};
static const struct word_value ptx_red_bases[] = {
    { "red", PROXY_GENERIC }, { "sured", PROXY_SURFACE }, { NULL, 0 }
};

static unsigned mo_bit(enum mo mo) { return 1u << mo; }

/* Decodes the memory order at part 1 and checks it is in allowed. */
static bool ptx_memory_order(struct parser *p, const struct mnemonic *m, unsigned allowed,
                             const char *what, struct instr *in)
{
    int mo;
    if (!required_part(p, m, 1, ptx_mos, "a memory order (weak, relaxed, acquire, release, acq_rel or sc)", &mo))
        return false;
    if (!(allowed & mo_bit((enum mo)mo)))
        return fail(p, m->parts[1].pos, "%s does not support memory order '%s'",
                    what, mo_name((enum mo)mo));
    in->mo = (enum mo)mo;
    return true;
}

/* Decodes the scope at part i, which must be present. */
static bool ptx_scope(struct parser *p, const struct mnemonic *m, int i, struct instr *in)
{
    int scope;
    if (!required_part(p, m, i, ptx_scopes, "a scope (cta, gpu or sys)", &scope))
        return false;
    in->scope = (enum scope)scope;
    return true;
}

/* Decodes ".mo[.scope]" of ld/st: weak takes no scope, the others need one. */
static bool ptx_access_order(struct parser *p, const struct mnemonic *m, unsigned allowed,
                             const char *what, struct instr *in)
{
    if (!ptx_memory_order(p, m, allowed, what, in))
        return false;
    if (in->mo == MO_WEAK) {
        if (m->n > 2 && lookup(ptx_scopes, &m->parts[2], &(int){ 0 }))
            return fail(p, m->parts[2].pos, "weak %s takes no scope", what);
        return no_more_parts(p, m, 2);
    }
    return ptx_scope(p, m, 2, in) && no_more_parts(p, m, 3);
}

/* Decodes ld/tld/suld/cold: a load, or "ld r, v" as a local move. */
static bool ptx_decode_load(struct parser *p, const struct mnemonic *m, int proxy,
                            struct instr *in, const char **sig)
{
    if (m->n == 1) {
        in->kind = I_LOCAL;
        in->op = OP_EXCH;
        *sig = "RV";
        return true;
    }
    in->kind = I_LOAD;
    in->proxy = (enum proxy)proxy;
    *sig = "RL";
    return ptx_access_order(p, m, mo_bit(MO_WEAK) | mo_bit(MO_RELAXED) | mo_bit(MO_ACQUIRE),
                            "load", in);
}

/* Decodes st/sust. */
static bool ptx_decode_store(struct parser *p, const struct mnemonic *m, int proxy,
                             struct instr *in, const char **sig)
{
    in->kind = I_STORE;
    in->proxy = (enum proxy)proxy;
    *sig = "LV";
    return ptx_access_order(p, m, mo_bit(MO_WEAK) | mo_bit(MO_RELAXED) | mo_bit(MO_RELEASE),
                            "store", in);
}

/* Decodes atom.<mo>.<scope>.<op> and red.<mo>.<scope>.<op>. */
static bool ptx_decode_rmw(struct parser *p, const struct mnemonic *m, int proxy, bool is_red,
                           struct instr *in, const char **sig)
{
    const char *what = is_red ? "red" : "atom";
    unsigned allowed = mo_bit(MO_RELAXED) | mo_bit(MO_ACQUIRE) | mo_bit(MO_RELEASE) | mo_bit(MO_ACQ_REL);
    static const struct word_value atom_ops[] = {
        { "add", OP_ADD }, { "sub", OP_SUB }, { "mul", OP_MUL }, { "div", OP_DIV },
        { "and", OP_AND }, { "or", OP_OR }, { "xor", OP_XOR }, { "exch", OP_EXCH },
        { "cas", OP_CAS }, { NULL, 0 }
    };
    int op;
    in->kind = I_RMW;
    in->proxy = (enum proxy)proxy;
    if (!ptx_memory_order(p, m, allowed, what, in) || !ptx_scope(p, m, 2, in)
        || !required_part(p, m, 3, is_red ? arith_ops : atom_ops, "an operation", &op)
        || !no_more_parts(p, m, 4))
        return false;
    in->op = (enum binop)op;
    *sig = is_red ? "LV" : op == OP_CAS ? "RLVV" : "RLV";
    return true;
}

/* Decodes fence.sc/acq_rel.<scope>, fence.proxy.<proxy> and fence.proxy.alias. */
static bool ptx_decode_fence(struct parser *p, const struct mnemonic *m, struct instr *in,
                             const char **sig)
{
    int proxy;
    *sig = "";
    if (m->n > 1 && tok_is(&m->parts[1], "proxy")) {
        if (m->n > 2 && tok_is(&m->parts[2], "alias")) {
            in->kind = I_ALIAS_FENCE;
            return no_more_parts(p, m, 3);
        }
        if (!required_part(p, m, 2, ptx_proxies, "a proxy (generic, texture, surface, constant or alias)", &proxy))
            return false;
        in->kind = I_PROXY_FENCE;
        in->proxy = (enum proxy)proxy;
        return no_more_parts(p, m, 3);
    }
    in->kind = I_FENCE;
    return ptx_memory_order(p, m, mo_bit(MO_SC) | mo_bit(MO_ACQ_REL), "fence", in)
        && ptx_scope(p, m, 2, in) && no_more_parts(p, m, 3);
}

/* Decodes bar.cta.sync and bar.cta.arrive. */
static bool ptx_decode_barrier(struct parser *p, const struct mnemonic *m, struct instr *in,
                               const char **sig)
{
    static const struct word_value cta[] = { { "cta", 0 }, { NULL, 0 } };
    static const struct word_value modes[] = { { "sync", 0 }, { "arrive", 1 }, { NULL, 0 } };
    int unused, arrive;
    if (!required_part(p, m, 1, cta, "'cta'", &unused)
        || !required_part(p, m, 2, modes, "'sync' or 'arrive'", &arrive)
        || !no_more_parts(p, m, 3))
        return false;
    in->kind = I_BARRIER;
    in->scope = SCOPE_CTA;
    in->arrive = arrive == 1;
    *sig = "Cvv";
    return true;
}

/* Decodes a PTX mnemonic into in and the operand signature. */
static bool ptx_decode(struct parser *p, const struct mnemonic *m, struct instr *in, const char **sig)
{
    const struct token *base = &m->parts[0];
    int proxy;
    if (lookup(ptx_load_bases, base, &proxy))
        return ptx_decode_load(p, m, proxy, in, sig);
    if (lookup(ptx_store_bases, base, &proxy))
        return ptx_decode_store(p, m, proxy, in, sig);
    if (lookup(ptx_atom_bases, base, &proxy))
        return ptx_decode_rmw(p, m, proxy, false, in, sig);
    if (lookup(ptx_red_bases, base, &proxy))
        return ptx_decode_rmw(p, m, proxy, true, in, sig);
    if (tok_is(base, "fence"))
        return ptx_decode_fence(p, m, in, sig);
    if (tok_is(base, "bar"))
        return ptx_decode_barrier(p, m, in, sig);
    return decode_common(p, m, ptx_local_ops, in, sig);
}

/* ------------------------------------------------------------------------ */
/* Vulkan mnemonics                                                          */

static const struct word_value vk_mos[] = {
    { "acq", MO_ACQUIRE }, { "rel", MO_RELEASE }, { "acq_rel", MO_ACQ_REL }, { NULL, 0 }
};
static const struct word_value vk_scopes[] = {
    { "sg", SCOPE_SG }, { "wg", SCOPE_WG }, { "qf", SCOPE_QF }, { "dv", SCOPE_DV }, { NULL, 0 }
};
static const struct word_value vk_storage_classes[] = {
    { "sc0", 0 }, { "sc1", 1 }, { "sc2", 2 }, { "sc3", 3 }, { NULL, 0 }
};
static const struct word_value vk_semscs[] = {
    { "semsc0", 0 }, { "semsc1", 1 }, { "semsc2", 2 }, { "semsc3", 3 }, { NULL, 0 }
};

#define VK_SCOPE_WHAT "a scope (sg, wg, qf or dv)"
#define VK_SC_WHAT "a storage class (sc0, sc1, sc2 or sc3)"

/* What an atomic/barrier suffix may contain. */
struct vk_rules {
    unsigned allowed_mos;    /* mo_bit set; 0 = none allowed */
    bool mo_required;
    bool has_storage_class;
    bool allow_op;
};

/* Parsed optional parts of a suffix, for validation. */
struct vk_seen {
    const struct token *mo, *semsc, *semav, *semvis;
};

/* Decodes ".<scope>[.sc<k>]" at *i. */
static bool vk_scope_and_class(struct parser *p, const struct mnemonic *m, int *i,
                               bool has_storage_class, struct instr *in)
{
    int value;
    if (!required_part(p, m, (*i)++, vk_scopes, VK_SCOPE_WHAT, &value))
        return false;
    in->scope = (enum scope)value;
    if (!has_storage_class)
        return true;
    if (!required_part(p, m, (*i)++, vk_storage_classes, VK_SC_WHAT, &value))
        return false;
    in->storage_class = value;
    return true;
}

/* Decodes ".semsc<k>...[.semav][.semvis]" at *i. */
static void vk_semantics(const struct mnemonic *m, int *i, struct instr *in, struct vk_seen *seen)
{
    int bit;
    while (*i < m->n && lookup(vk_semscs, &m->parts[*i], &bit)) {
        if (!seen->semsc)
            seen->semsc = &m->parts[*i];
        in->semsc |= 1u << bit;
        (*i)++;
    }
    if (*i < m->n && tok_is(&m->parts[*i], "semav")) {
        seen->semav = &m->parts[(*i)++];
        in->vk_flags |= VK_SEMAV;
    }
    if (*i < m->n && tok_is(&m->parts[*i], "semvis")) {
        seen->semvis = &m->parts[(*i)++];
        in->vk_flags |= VK_SEMVIS;
    }
}

/* Checks the memory-order/semantics combinations the Vulkan grammar allows. */
static bool vk_check_semantics(struct parser *p, const struct mnemonic *m, const struct vk_rules *r,
                               const struct vk_seen *seen, struct instr *in)
{
    if (seen->mo && !(r->allowed_mos & mo_bit(in->mo)))
        return fail(p, seen->mo->pos, "'" TOK_FMT "' does not support memory order '" TOK_FMT "'",
                    TOK_ARG(&m->parts[0]), TOK_ARG(seen->mo));
    if (!seen->mo && r->mo_required)
        return fail(p, m->all.pos, "'" TOK_FMT "' needs a memory order (acq, rel or acq_rel)",
                    TOK_ARG(&m->all));
    if (seen->mo && !in->semsc)
        return fail(p, m->all.pos, "'" TOK_FMT "' needs storage class semantics (.semsc0 to .semsc3)",
                    TOK_ARG(&m->all));
    if (!seen->mo && seen->semsc)
        return fail(p, seen->semsc->pos, "storage class semantics need a memory order (acq, rel or acq_rel)");
    if (seen->semav && in->mo != MO_RELEASE && in->mo != MO_ACQ_REL)
        return fail(p, seen->semav->pos, "'.semav' needs memory order rel or acq_rel");
    if (seen->semvis && in->mo != MO_ACQUIRE && in->mo != MO_ACQ_REL)
        return fail(p, seen->semvis->pos, "'.semvis' needs memory order acq or acq_rel");
    return true;
}

/* Decodes "[.mo].<scope>[.sc<k>][.semsc..][.semav][.semvis][.op]" from part i. */
static bool vk_suffix(struct parser *p, const struct mnemonic *m, int i, const struct vk_rules *r,
                      struct instr *in)
{
    struct vk_seen seen = { NULL, NULL, NULL, NULL };
    int value;
    if (i < m->n && lookup(vk_mos, &m->parts[i], &value)) {
        seen.mo = &m->parts[i++];
        in->mo = (enum mo)value;
    }
    if (!vk_scope_and_class(p, m, &i, r->has_storage_class, in))
        return false;
    vk_semantics(m, &i, in, &seen);
    if (r->allow_op && i < m->n && lookup(arith_ops, &m->parts[i], &value)) {
        in->op = (enum binop)value;
        i++;
    }
    return no_more_parts(p, m, i) && vk_check_semantics(p, m, r, &seen, in);
}

/* Decodes non-atomic "ld[.nonpriv|.vis.<scope>].sc<k>" and "st[.nonpriv|.av.<scope>].sc<k>". */
static bool vk_decode_plain_access(struct parser *p, const struct mnemonic *m, bool is_load,
                                   struct instr *in, const char **sig)
{
    const char *made = is_load ? "vis" : "av";
    int i = 1, value;
    in->kind = is_load ? I_LOAD : I_STORE;
    in->mo = MO_WEAK;
    *sig = is_load ? "RL" : "LV";
    if (i < m->n && tok_is(&m->parts[i], "nonpriv")) {
        in->vk_flags |= VK_NONPRIV;
        i++;
    } else if (i < m->n && tok_is(&m->parts[i], made)) {
        in->vk_flags |= VK_NONPRIV | (is_load ? VK_VIS : VK_AV);
        i++;
        if (!required_part(p, m, i++, vk_scopes, VK_SCOPE_WHAT, &value))
            return false;
        in->scope = (enum scope)value;
    }
    if (!required_part(p, m, i++, vk_storage_classes, VK_SC_WHAT, &value))
        return false;
    in->storage_class = value;
    return no_more_parts(p, m, i);
}

/* Decodes "ld.atom..." and "st.atom...". */
static bool vk_decode_atomic_access(struct parser *p, const struct mnemonic *m, bool is_load,
                                    struct instr *in, const char **sig)
{
    struct vk_rules rules = { mo_bit(is_load ? MO_ACQUIRE : MO_RELEASE), false, true, false };
    in->kind = is_load ? I_LOAD : I_STORE;
    in->mo = MO_RELAXED;
    in->vk_flags |= VK_ATOMIC | VK_NONPRIV | (is_load ? VK_VIS : VK_AV);
    *sig = is_load ? "RL" : "LV";
    return vk_suffix(p, m, 2, &rules, in);
}

/* Decodes "rmw.atom[.mo].<scope>.sc<k>[...][.op]"; without an op it is an exchange. */
static bool vk_decode_rmw(struct parser *p, const struct mnemonic *m, struct instr *in, const char **sig)
{
    struct vk_rules rules = { mo_bit(MO_ACQUIRE) | mo_bit(MO_RELEASE) | mo_bit(MO_ACQ_REL),
                              false, true, true };
    if (m->n < 2 || !tok_is(&m->parts[1], "atom"))
        return fail(p, m->all.pos, "'" TOK_FMT "' must start with 'rmw.atom'", TOK_ARG(&m->all));
    in->kind = I_RMW;
    in->mo = MO_RELAXED;
    in->op = OP_EXCH;
    in->vk_flags |= VK_ATOMIC | VK_NONPRIV | VK_AV | VK_VIS;
    *sig = "RLV";
    return vk_suffix(p, m, 2, &rules, in);
}

/* Decodes membar (a fence) and cbar (a control barrier). */
static bool vk_decode_barrier(struct parser *p, const struct mnemonic *m, bool is_cbar,
                              struct instr *in, const char **sig)
{
    struct vk_rules rules = { mo_bit(MO_ACQUIRE) | mo_bit(MO_RELEASE) | mo_bit(MO_ACQ_REL),
                              !is_cbar, false, false };
    in->kind = is_cbar ? I_BARRIER : I_FENCE;
    *sig = is_cbar ? "Cvv" : "";
    return vk_suffix(p, m, 1, &rules, in);
}

/* Decodes avdevice and visdevice. */
static bool vk_decode_device_op(struct parser *p, const struct mnemonic *m, bool is_av,
                                struct instr *in, const char **sig)
{
    in->kind = is_av ? I_AVDEVICE : I_VISDEVICE;
    *sig = "";
    return no_more_parts(p, m, 1);
}

/* Decodes a Vulkan mnemonic into in and the operand signature. */
static bool vk_decode(struct parser *p, const struct mnemonic *m, struct instr *in, const char **sig)
{
    const struct token *base = &m->parts[0];
    bool is_load = tok_is(base, "ld");
    if (is_load || tok_is(base, "st")) {
        if (m->n > 1 && tok_is(&m->parts[1], "atom"))
            return vk_decode_atomic_access(p, m, is_load, in, sig);
        return vk_decode_plain_access(p, m, is_load, in, sig);
    }
    if (tok_is(base, "rmw"))
        return vk_decode_rmw(p, m, in, sig);
    if (tok_is(base, "membar") || tok_is(base, "cbar"))
        return vk_decode_barrier(p, m, tok_is(base, "cbar"), in, sig);
    if (tok_is(base, "avdevice") || tok_is(base, "visdevice"))
        return vk_decode_device_op(p, m, tok_is(base, "avdevice"), in, sig);
    return decode_common(p, m, arith_ops, in, sig);
}

/* ------------------------------------------------------------------------ */
/* Instructions and rows                                                     */

/* Parses a dotted mnemonic starting at the current identifier. */
static bool parse_mnemonic(struct parser *p, struct mnemonic *m)
{
    m->n = 0;
    m->all = p->tok;
    for (;;) {
        if (m->n == MAX_PARTS)
            return fail(p, p->tok.pos, "instruction name has too many parts (limit %d)", MAX_PARTS);
        m->parts[m->n++] = p->tok;
        m->all.len = p->tok.offset + p->tok.len - m->all.offset;
        if (!advance(p))
            return false;
        if (p->tok.kind != TOK_DOT || p->tok.offset != p->prev.offset + p->prev.len)
            break;
        if (!advance(p))
            return false;
        if (p->tok.kind != TOK_IDENT || p->tok.offset != p->prev.offset + 1)
            return fail(p, p->prev.pos, "expected a name right after '.' in '" TOK_FMT ".'",
                        TOK_ARG(&m->all));
    }
    return true;
}

/* A fresh instruction with "none" in every optional field. */
static void init_instr(struct instr *in, struct srcpos pos)
{
    memset(in, 0, sizeof *in);
    in->pos = pos;
    in->mo = MO_NONE;
    in->scope = SCOPE_NONE;
    in->proxy = PROXY_GENERIC;
    in->dst = -1;
    in->loc = -1;
    in->label = -1;
    in->storage_class = -1;
}

/* Turns "LABEL:" into an I_LABEL, rejecting duplicates. */
static bool define_label(struct parser *p, int thread, const struct mnemonic *m, struct instr *in)
{
    int info = label_info_index(p, thread, &m->parts[0]);
    if (info < 0)
        return false;
    struct label_info *li = &p->labels[info];
    if (li->defined)
        return fail(p, m->parts[0].pos, "duplicate label '" TOK_FMT "' (first defined at %d:%d)",
                    TOK_ARG(&m->parts[0]), li->def_pos.line, li->def_pos.col);
    li->defined = true;
    li->def_pos = m->parts[0].pos;
    in->kind = I_LABEL;
    in->label = li->local;
    return advance(p);
}

/* Appends in (with its source text from first to the last consumed token) to the thread. */
static bool push_instr(struct parser *p, int thread, struct instr *in, const struct token *first)
{
    struct thread *t = &p->lit->threads[thread];
    size_t len = p->prev.offset + p->prev.len - first->offset;
    if (!reserve(p, &t->instrs, t->ninstrs, &p->caps[thread].instrs, sizeof *t->instrs))
        return false;
    in->text = copy_text(first->text, len);
    if (!in->text)
        return out_of_memory(p);
    t->instrs[t->ninstrs++] = *in;
    p->total_instrs++;
    return true;
}

/* Parses one instruction of the given thread (column). */
static bool parse_instruction(struct parser *p, int thread)
{
    struct token first = p->tok;
    struct mnemonic m;
    struct instr in;
    const char *sig;
    if (p->total_instrs >= MAX_INSTRS)
        return fail(p, first.pos, "too many instructions (limit %d)", MAX_INSTRS);
    if (first.kind != TOK_IDENT)
        return fail_expected(p, "an instruction");
    init_instr(&in, first.pos);
    if (!parse_mnemonic(p, &m))
        return false;
    if (m.n == 1 && p->tok.kind == TOK_COLON) {
        if (!define_label(p, thread, &m, &in))
            return false;
    } else {
        bool decoded = p->lit->dialect == DIALECT_PTX ? ptx_decode(p, &m, &in, &sig)
                                                       : vk_decode(p, &m, &in, &sig);
        if (!decoded || !parse_operands(p, thread, sig, &m, &in))
            return false;
    }
    return push_instr(p, thread, &in, &first);
}

/* Counts the '|' from here to the next ';' without consuming anything. */
static int count_bars_ahead(const struct parser *p)
{
    struct lexer lx = p->lx;
    struct token tok = p->tok;
    struct litmus_error scratch;
    int bars = 0;
    while (tok.kind != TOK_SEMI && tok.kind != TOK_EOF) {
        if (tok.kind == TOK_BAR)
            bars++;
        if (!lexer_next(&lx, &tok, &scratch))
            break;
    }
    return bars;
}

static bool wrong_column_count(struct parser *p, struct srcpos row_pos, int columns)
{
    int n = p->lit->nthreads;
    return fail(p, row_pos, "row has %d column%s, expected %d thread%s",
                columns, columns == 1 ? "" : "s", n, n == 1 ? "" : "s");
}

/* Parses "instr | instr | ... ;" with exactly one column per thread. */
static bool parse_row(struct parser *p)
{
    struct srcpos row_pos = p->tok.pos;
    for (int col = 0;; col++) {
        if (col >= p->lit->nthreads)
            return wrong_column_count(p, row_pos, col + 1 + count_bars_ahead(p));
        if (p->tok.kind != TOK_BAR && p->tok.kind != TOK_SEMI && !parse_instruction(p, col))
            return false;
        if (p->tok.kind == TOK_SEMI) {
            if (col + 1 != p->lit->nthreads)
                return wrong_column_count(p, row_pos, col + 1);
            return advance(p);
        }
        if (p->tok.kind != TOK_BAR)
            return fail_expected(p, col + 1 == p->lit->nthreads ? "';' at the end of the row"
                                                                : "'|' or ';' after instruction");
        if (!advance(p))
            return false;
    }
}

/* True when the current token starts the part after the program. */
static bool at_program_end(const struct parser *p)
{
    const struct token *t = &p->tok;
    return t->kind == TOK_EOF || t->kind == TOK_TILDE || tok_is(t, "exists")
        || tok_is(t, "forall") || tok_is(t, "filter") || tok_is(t, "locations")
        || tok_is(t, "final") || tok_is(t, "not");
}

/* Reports the earliest use of a label that no instruction defines. */
static bool check_labels(struct parser *p)
{
    const struct label_info *worst = NULL;
    for (int i = 0; i < p->nlabels; i++) {
        const struct label_info *li = &p->labels[i];
        if (!li->used || li->defined)
            continue;
        if (!worst || pos_before(li->use_pos, worst->use_pos))
            worst = li;
    }
    if (!worst)
        return true;
    return fail(p, worst->use_pos, "undefined label '%.*s'", MSG_NAME_MAX,
                p->lit->threads[worst->thread].label_names[worst->local]);
}

/* Parses the thread header and all instruction rows. */
static bool parse_program(struct parser *p)
{
    if (!parse_thread_header(p) || !resolve_pending(p))
        return false;
    while (!at_program_end(p))
        if (!parse_row(p))
            return false;
    return check_labels(p);
}

/* ------------------------------------------------------------------------ */
/* Assertions                                                                */

/* Frees a partly built assertion tree. */
static void discard_assertion(struct assertion *a)
{
    if (!a)
        return;
    discard_assertion(a->lhs);
    discard_assertion(a->rhs);
    free(a);
}

static struct assertion *new_assertion(struct parser *p, enum assert_kind kind, struct srcpos pos)
{
    struct assertion *a = calloc(1, sizeof *a);
    if (!a) {
        out_of_memory(p);
        return NULL;
    }
    a->kind = kind;
    a->pos = pos;
    return a;
}

/* Parses "P0:r1" or "0:r1" once the thread token is known and ':' is current. */
static bool parse_assert_register(struct parser *p, const struct token *thread, struct avalue *v)
{
    int id;
    if (!thread_id_of(p, thread, &id) || !advance(p))
        return false;
    v->kind = AV_REG;
    v->thread = thread_index_at(p, id, thread->pos);
    if (v->thread < 0)
        return false;
    if (!is_register_name(&p->tok))
        return fail_expected(p, "a register name like r0 after ':'");
    v->reg = names_find(&p->names, register_ns(v->thread), p->tok.text, p->tok.len);
    if (v->reg < 0)
        return fail(p, p->tok.pos, "unknown register P%d:" TOK_FMT " (the thread's code and "
                    "initial state never name it)", id, TOK_ARG(&p->tok));
    return advance(p);
}

/* The index of the location named by t, which the initial state or the
 * program must name; fails at t otherwise. */
static int known_location(struct parser *p, const struct token *t, const char *where)
{
    int loc = names_find(&p->names, NS_LOCATION, t->text, t->len);
    if (loc < 0)
        fail(p, t->pos, "unknown location '" TOK_FMT "'%s (the initial state and the "
             "program never name it)", TOK_ARG(t), where);
    return loc;
}

/* Parses a location, "[location]", a thread register or a constant. */
static bool parse_assert_value(struct parser *p, struct avalue *v)
{
    struct token first = p->tok;
    memset(v, 0, sizeof *v);
    if (first.kind == TOK_MINUS || first.kind == TOK_HEX) {
        v->kind = AV_CONST;
        return parse_constant(p, &v->value);
    }
    bool bracketed = first.kind == TOK_LBRACKET;
    if (bracketed && !advance(p))
        return false;
    if (p->tok.kind != TOK_IDENT && (bracketed || p->tok.kind != TOK_NUMBER))
        return fail_expected(p, "a location, register or constant");
    first = p->tok;
    if (!advance(p))
        return false;
    if (!bracketed && p->tok.kind == TOK_COLON)
        return parse_assert_register(p, &first, v);
    if (first.kind == TOK_NUMBER) {
        v->kind = AV_CONST;
        return value_of(p, NULL, &first, &v->value);
    }
    if (is_register_name(&first))
        return fail(p, first.pos, "register '" TOK_FMT "' needs a thread, e.g. P0:" TOK_FMT,
                    TOK_ARG(&first), TOK_ARG(&first));
    v->kind = AV_LOC;
    v->loc = known_location(p, &first, "");
    return v->loc >= 0 && (!bracketed || expect(p, TOK_RBRACKET, "']'"));
}

/* Parses a comparison operator. */
static bool parse_compare_op(struct parser *p, enum cmpop *op)
{
    switch (p->tok.kind) {
    case TOK_ASSIGN: case TOK_EQ: *op = CMP_EQ; break;
    case TOK_NE: *op = CMP_NE; break;
    case TOK_LT: *op = CMP_LT; break;
    case TOK_LE: *op = CMP_LE; break;
    case TOK_GT: *op = CMP_GT; break;
    case TOK_GE: *op = CMP_GE; break;
    default: return fail_expected(p, "a comparison (==, !=, <, <=, > or >=)");
    }
    return advance(p);
}

/* Parses "value op value". */
static struct assertion *parse_comparison(struct parser *p)
{
    struct assertion *a = new_assertion(p, A_CMP, p->tok.pos);
    if (a && parse_assert_value(p, &a->a) && parse_compare_op(p, &a->cmp)
        && parse_assert_value(p, &a->b))
        return a;
    free(a);
    return NULL;
}

static struct assertion *parse_disjunction(struct parser *p, int *depth);

/* Parses "~ x", "not x", "( ... )" or a comparison. */
static struct assertion *parse_unary(struct parser *p, int *depth)
{
    struct srcpos pos = p->tok.pos;
    bool negation = p->tok.kind == TOK_TILDE || tok_is(&p->tok, "not");
    struct assertion *inner, *node;
    if (!negation && p->tok.kind != TOK_LPAREN) {
        *depth = 1;
        return parse_comparison(p);
    }
    if (++p->nesting > MAX_NESTING) {
        fail(p, pos, "assertion nested too deeply (limit %d)", MAX_NESTING);
        return NULL;
    }
    if (!advance(p))
        return NULL;
    inner = negation ? parse_unary(p, depth) : parse_disjunction(p, depth);
    p->nesting--;
    if (!inner)
        return NULL;
    if (!negation) {
        if (expect(p, TOK_RPAREN, "')'"))
            return inner;
        discard_assertion(inner);
        return NULL;
    }
    node = new_assertion(p, A_NOT, pos);
    if (!node) {
        discard_assertion(inner);
        return NULL;
    }
    node->lhs = inner;
    (*depth)++;
    return node;
}

/* Joins lhs and rhs under a new node; frees both on failure. */
static struct assertion *join(struct parser *p, enum assert_kind kind, struct srcpos pos,
                              struct assertion *lhs, struct assertion *rhs, int *depth, int rhs_depth)
{
    struct assertion *node = NULL;
    *depth = 1 + (*depth > rhs_depth ? *depth : rhs_depth);
    if (*depth > MAX_ASSERT_DEPTH)
        fail(p, pos, "assertion nested too deeply (limit %d)", MAX_ASSERT_DEPTH);
    else
        node = new_assertion(p, kind, pos);
    if (!node) {
        discard_assertion(lhs);
        discard_assertion(rhs);
        return NULL;
    }
    node->lhs = lhs;
    node->rhs = rhs;
    return node;
}

/* Parses operands of a left-associative binary operator. */
static struct assertion *parse_binary(struct parser *p, enum tok_kind op, enum assert_kind kind,
                                      struct assertion *(*operand)(struct parser *, int *), int *depth)
{
    struct assertion *lhs = operand(p, depth);
    while (lhs && p->tok.kind == op) {
        struct srcpos pos = p->tok.pos;
        int rhs_depth;
        struct assertion *rhs = advance(p) ? operand(p, &rhs_depth) : NULL;
        if (!rhs) {
            discard_assertion(lhs);
            return NULL;
        }
        lhs = join(p, kind, pos, lhs, rhs, depth, rhs_depth);
    }
    return lhs;
}

static struct assertion *parse_conjunction(struct parser *p, int *depth)
{
    return parse_binary(p, TOK_AND, A_AND, parse_unary, depth);
}

static struct assertion *parse_disjunction(struct parser *p, int *depth)
{
    return parse_binary(p, TOK_OR, A_OR, parse_conjunction, depth);
}

/* Parses an assertion and an optional ';' after it. */
static struct assertion *parse_assertion(struct parser *p)
{
    int depth;
    struct assertion *a = parse_disjunction(p, &depth);
    if (a && p->tok.kind == TOK_SEMI && !advance(p)) {
        discard_assertion(a);
        return NULL;
    }
    return a;
}

/* ------------------------------------------------------------------------ */
/* After the program: locations, filter, quantified assertion                */

/* Parses one entry of the locations list: "P0:r1", "0:r1" or a location,
 * each one the initial state or the program names. */
static bool parse_observed_entry(struct parser *p)
{
    struct litmus *l = p->lit;
    struct token first = p->tok;
    if (first.kind != TOK_IDENT && first.kind != TOK_NUMBER)
        return fail_expected(p, "a location, register or ']' in the locations list");
    if (!reserve(p, &l->observed, l->nobserved, &p->observed_cap, sizeof *l->observed) || !advance(p))
        return false;
    struct avalue *v = &l->observed[l->nobserved];
    memset(v, 0, sizeof *v);
    if (p->tok.kind == TOK_COLON) {
        if (!parse_assert_register(p, &first, v))
            return false;
        l->nobserved++;
        return true;
    }
    if (first.kind == TOK_NUMBER)
        return fail(p, first.pos, "expected a location or a register like P0:r1 in the locations list, got '"
                    TOK_FMT "'", TOK_ARG(&first));
    if (is_register_name(&first))
        return fail(p, first.pos, "register '" TOK_FMT "' needs a thread, e.g. P0:" TOK_FMT,
                    TOK_ARG(&first), TOK_ARG(&first));
    v->kind = AV_LOC;
    v->loc = known_location(p, &first, " in the locations list");
    if (v->loc < 0)
        return false;
    l->nobserved++;
    return true;
}

/* Parses "locations [x; P0:r1; ...]" into litmus.observed. */
static bool parse_locations_list(struct parser *p)
{
    if (!advance(p) || !expect(p, TOK_LBRACKET, "'[' after 'locations'"))
        return false;
    p->lit->has_locations = true;
    while (p->tok.kind != TOK_RBRACKET) {
        if (p->tok.kind == TOK_SEMI) {
            if (!advance(p))
                return false;
            continue;
        }
        if (!parse_observed_entry(p))
            return false;
        if (p->tok.kind != TOK_SEMI && p->tok.kind != TOK_RBRACKET)
            return fail_expected(p, "';' or ']' in the locations list");
    }
    return advance(p) && (p->tok.kind != TOK_SEMI || advance(p));
}

/* Parses "exists", "~exists", "not exists" or "forall" and its assertion. */
static bool parse_quantified(struct parser *p)
{
    struct litmus *l = p->lit;
    if (l->quant != Q_NONE)
        return fail(p, p->tok.pos, "more than one final condition");
    if (tok_is(&p->tok, "forall")) {
        l->quant = Q_FORALL;
    } else if (tok_is(&p->tok, "exists")) {
        l->quant = Q_EXISTS;
    } else {
        l->quant = Q_NOT_EXISTS;
        if (!advance(p))
            return false;
        if (!tok_is(&p->tok, "exists"))
            return fail_expected(p, "'exists' after negation");
    }
    if (!advance(p))
        return false;
    l->assertion = parse_assertion(p);
    return l->assertion != NULL;
}

/* Parses "filter <assertion>". */
static bool parse_filter(struct parser *p)
{
    if (p->lit->filter)
        return fail(p, p->tok.pos, "more than one filter");
    if (!advance(p))
        return false;
    p->lit->filter = parse_assertion(p);
    return p->lit->filter != NULL;
}

/* Parses everything after the instruction rows up to the end of input. */
static bool parse_tail(struct parser *p)
{
    bool seen_locations = false;
    while (p->tok.kind != TOK_EOF) {
        if (tok_is(&p->tok, "locations")) {
            if (seen_locations)
                return fail(p, p->tok.pos, "more than one locations list");
            seen_locations = true;
            if (!parse_locations_list(p))
                return false;
        } else if (tok_is(&p->tok, "filter")) {
            if (!parse_filter(p))
                return false;
        } else if (tok_is(&p->tok, "final")) {
            return fail(p, p->tok.pos, "'final ... with' conditions are not supported");
        } else if (p->tok.kind == TOK_TILDE || tok_is(&p->tok, "not") || tok_is(&p->tok, "exists")
                   || tok_is(&p->tok, "forall")) {
            if (!parse_quantified(p))
                return false;
        } else {
            return fail_expected(p, "'exists', 'forall', 'filter' or end of input");
        }
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                              */

/* Parses the whole test. */
static bool parse_litmus(struct parser *p)
{
    if (!parse_header(p) || !parse_braced_list(p, parse_init_item, "';' or '}' in the initial state")
        || !check_aliases(p))
        return false;
    if (p->lit->dialect == DIALECT_VULKAN && p->tok.kind == TOK_LBRACE
        && !parse_braced_list(p, parse_ssw_item, "';' or '}' in the ssw list"))
        return false;
    return parse_program(p) && parse_tail(p);
}

/* Frees the parser's own tables (not the AST). */
static void release_parser(struct parser *p)
{
    free(p->names.slots);
    free(p->caps);
    free(p->labels);
    free(p->reg_inits);
    free(p->ssws);
    free(p->thread_keys);
    free(p->loc_decls);
}

/* Fills err with msg at pos (line 0: no place in the text); returns NULL. */
static struct litmus *fail_early(struct litmus_error *err, struct srcpos pos, const char *msg)
{
    err->pos = pos;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return NULL;
}

/* Parses the text of a litmus file; NULL and err on failure. */
struct litmus *litmus_parse(const char *path, const char *text, struct litmus_error *err)
{
    struct litmus_error ignored;
    struct parser p;
    size_t len;
    if (!err)
        err = &ignored;
    memset(err, 0, sizeof *err);
    if (!text)
        return fail_early(err, NO_PLACE, "no input text");
    len = strlen(text);
    if (len > MAX_INPUT_BYTES)
        return fail_early(err, lexer_pos_at(text, len, MAX_INPUT_BYTES),
                          "input too large: the limit is 256 MiB, and this is the first byte past it");
    memset(&p, 0, sizeof p);
    lexer_init(&p.lx, text, len);
    p.err = err;
    p.lit = calloc(1, sizeof *p.lit);
    if (!p.lit)
        return fail_early(err, NO_PLACE, "out of memory");
    bool ok = !path || (p.lit->path = copy_text(path, strlen(path))) != NULL;
    if (!ok)
        out_of_memory(&p);
    ok = ok && parse_litmus(&p);
    release_parser(&p);
    if (!ok) {
        litmus_free(p.lit);
        return NULL;
    }
    return p.lit;
}

/* Reads a file into a NUL-terminated buffer, stopping once it holds more
 * than MAX_INPUT_BYTES (litmus_parse reports that); NULL and err on failure. */
static char *read_file(const char *path, size_t *len, struct litmus_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "cannot open file: %s", strerror(errno));
        return NULL;
    }
    for (;;) {
        if (cap - *len < 2) {
            size_t new_cap = cap ? cap * 2 : 65536;
            if (new_cap > MAX_INPUT_BYTES + 2)
                new_cap = MAX_INPUT_BYTES + 2;
            char *grown = realloc(buf, new_cap);
            if (!grown) {
                snprintf(err->msg, sizeof err->msg, "out of memory");
                break;
            }
            buf = grown;
            cap = new_cap;
        }
        size_t got = fread(buf + *len, 1, cap - *len - 1, f);
        *len += got;
        if (got == 0 || *len > MAX_INPUT_BYTES) {
            if (!ferror(f)) {
                fclose(f);
                buf[*len] = '\0';
                return buf;
            }
            snprintf(err->msg, sizeof err->msg, "cannot read file: %s", strerror(errno));
            break;
        }
    }
    fclose(f);
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
    struct litmus_error ignored;
    struct litmus *l = NULL;
    size_t len;
    char *text;
    if (!err)
        err = &ignored;
    memset(err, 0, sizeof *err);
    if (!path)
        return fail_early(err, NO_PLACE, "no file name");
    text = read_file(path, &len, err);
    if (!text)
        return NULL;
    if (!report_nul_byte(text, len, err))
        l = litmus_parse(path, text, err);
    free(text);
    return l;
}
