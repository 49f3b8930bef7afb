/* The cat parser: statements and expressions into struct cat_program, with
 * `include` and the implicit stdlib.cat.  Precedence, loosest first, as
 * in herd: | then ; then \ then & then the product * then ~ then the
 * postfix operators; a * followed by an operand is the product. */
#include "models/cat_lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define CAT_MAX_INCLUDE_DEPTH 8

struct parser {
    struct cat_program *prog;
    struct cat_lexer lx;
    struct cat_token tok, next;   /* the current token and the one after it */
    struct cat_error *err;
    bool failed;
    int depth;
};

void *cat_alloc(struct cat_program *p, size_t n)
{
    if (p->nalloc == p->capalloc) {
        p->capalloc = p->capalloc ? 2 * p->capalloc : 64;
        p->allocs = xrealloc(p->allocs, (size_t)p->capalloc * sizeof *p->allocs);
    }
    return p->allocs[p->nalloc++] = xcalloc(1, n ? n : 1);
}

char *cat_strdup(struct cat_program *p, const char *s)
{
    char *d = cat_alloc(p, strlen(s) + 1);
    memcpy(d, s, strlen(s) + 1);
    return d;
}

void cat_program_free(struct cat_program *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nalloc; i++)
        free(p->allocs[i]);
    free(p->allocs);
    free(p->stmts);
    free(p);
}

/* Records the first error, at pos. */
static void fail(struct parser *ps, struct cat_pos pos, const char *fmt, const char *arg)
{
    if (ps->failed)
        return;
    char msg[256];
    ps->failed = true;
    snprintf(msg, sizeof msg, fmt, arg);
    cat_error_at(ps->err, pos, msg);
}

/* Moves to the next token. */
static void step(struct parser *ps)
{
    ps->tok = ps->next;
    if (ps->tok.kind == CT_ERROR) {
        ps->failed = true;
        return;
    }
    if (ps->tok.kind != CT_EOF)
        ps->next = cat_lex(&ps->lx, ps->err);
}

/* Consumes a token of kind k, or fails. */
static bool expect(struct parser *ps, enum cat_tok k)
{
    if (ps->failed)
        return false;
    if (ps->tok.kind != k) {
        char msg[200];
        snprintf(msg, sizeof msg, "expected %s, found %s", cat_tok_name(k),
                 ps->tok.kind == CT_IDENT ? ps->tok.text : cat_tok_name(ps->tok.kind));
        fail(ps, ps->tok.pos, "%s", msg);
        return false;
    }
    step(ps);
    return true;
}

/* A new expression node at pos. */
static struct cat_expr *node(struct parser *ps, enum cat_expr_op op, struct cat_pos pos,
                             struct cat_expr *a, struct cat_expr *b)
{
    struct cat_expr *e = cat_alloc(ps->prog, sizeof *e);
    *e = (struct cat_expr){ .op = op, .pos = pos, .a = a, .b = b };
    return e;
}

/* True when a token of kind k can begin an operand. */
static bool starts_operand(enum cat_tok k)
{
    return k == CT_IDENT || k == CT_ZERO || k == CT_LPAREN || k == CT_LBRACK || k == CT_TILDE;
}

static struct cat_expr *parse_expr(struct parser *ps);

/* name, name(args), 0, (e), [e] */
static struct cat_expr *parse_primary(struct parser *ps)
{
    struct cat_token t = ps->tok;
    if (ps->failed)
        return NULL;
    switch (t.kind) {
    case CT_IDENT: {
        step(ps);
        if (ps->tok.kind != CT_LPAREN) {
            struct cat_expr *e = node(ps, CE_NAME, t.pos, NULL, NULL);
            e->name = cat_strdup(ps->prog, t.text);
            return e;
        }
        struct cat_expr *e = node(ps, CE_APP, t.pos, NULL, NULL);
        e->name = cat_strdup(ps->prog, t.text);
        step(ps);
        struct cat_expr *args[16];
        do {
            if (e->nargs > 0)
                step(ps);   /* the comma */
            if (e->nargs == 16) {
                fail(ps, ps->tok.pos, "%s", "more than 16 arguments");
                return NULL;
            }
            args[e->nargs++] = parse_expr(ps);
        } while (!ps->failed && ps->tok.kind == CT_COMMA);
        if (!expect(ps, CT_RPAREN))
            return NULL;
        e->args = cat_alloc(ps->prog, (size_t)e->nargs * sizeof *e->args);
        memcpy(e->args, args, (size_t)e->nargs * sizeof *args);
        return e;
    }
    case CT_ZERO:
        step(ps);
        return node(ps, CE_ZERO, t.pos, NULL, NULL);
    case CT_LPAREN: {
        step(ps);
        struct cat_expr *e = parse_expr(ps);
        return expect(ps, CT_RPAREN) ? e : NULL;
    }
    case CT_LBRACK: {
        step(ps);
        struct cat_expr *e = parse_expr(ps);
        return expect(ps, CT_RBRACK) ? node(ps, CE_BRACKET, t.pos, e, NULL) : NULL;
    }
    default:
        fail(ps, t.pos, "expected an expression, found %s", cat_tok_name(t.kind));
        return NULL;
    }
}

/* primary followed by +, *, ?, ^-1 (a * before an operand is the product) */
static struct cat_expr *parse_postfix(struct parser *ps)
{
    struct cat_expr *e = parse_primary(ps);
    for (;;) {
        if (ps->failed)
            return NULL;
        struct cat_pos pos = ps->tok.pos;
        enum cat_tok k = ps->tok.kind;
        if (k == CT_STAR && starts_operand(ps->next.kind))
            return e;
        enum cat_expr_op op = k == CT_PLUS ? CE_PLUS : k == CT_STAR ? CE_STAR : k == CT_QUEST ? CE_OPT
                            : k == CT_INV ? CE_INV : CE_NAME;
        if (op == CE_NAME)
            return e;
        step(ps);
        e = node(ps, op, pos, e, NULL);
    }
}

/* ~e */
static struct cat_expr *parse_unary(struct parser *ps)
{
    if (!ps->failed && ps->tok.kind == CT_TILDE) {
        struct cat_pos pos = ps->tok.pos;
        step(ps);
        return node(ps, CE_COMPL, pos, parse_unary(ps), NULL);
    }
    return parse_postfix(ps);
}

/* One level of left-associative binary operators: `tok` makes `op`. */
static struct cat_expr *parse_level(struct parser *ps, int level);

static const struct { enum cat_tok tok; enum cat_expr_op op; } levels[] = {
    { CT_BAR, CE_UNION }, { CT_SEMI, CE_SEQ }, { CT_BSLASH, CE_DIFF }, { CT_AMP, CE_INTER }, { CT_STAR, CE_PROD },
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

static struct cat_expr *parse_level(struct parser *ps, int level)
{
    if (level == NLEVELS)
        return parse_unary(ps);
    struct cat_expr *e = parse_level(ps, level + 1);
    while (!ps->failed && ps->tok.kind == levels[level].tok) {
        struct cat_pos pos = ps->tok.pos;
        step(ps);
        e = node(ps, levels[level].op, pos, e, parse_level(ps, level + 1));
    }
    return e;
}

static struct cat_expr *parse_expr(struct parser *ps)
{
    return parse_level(ps, 0);
}

/* Appends s to the program. */
static void add_stmt(struct cat_program *p, struct cat_stmt *s)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 32;
        p->stmts = xrealloc(p->stmts, (size_t)p->cap * sizeof *p->stmts);
    }
    p->stmts[p->n++] = s;
}

/* let [rec] name[(params)] = e */
static void parse_let(struct parser *ps)
{
    struct cat_stmt *s = cat_alloc(ps->prog, sizeof *s);
    s->kind = CS_LET;
    s->pos = ps->tok.pos;
    step(ps);
    if (ps->tok.kind == CT_REC) {
        s->rec = true;
        step(ps);
    }
    if (ps->tok.kind != CT_IDENT) {
        expect(ps, CT_IDENT);
        return;
    }
    s->pos = ps->tok.pos;
    s->name = cat_strdup(ps->prog, ps->tok.text);
    step(ps);
    if (ps->tok.kind == CT_LPAREN) {
        s->is_fun = true;
        const char *params[16];
        step(ps);
        while (!ps->failed && ps->tok.kind == CT_IDENT && s->nparams < 16) {
            params[s->nparams++] = cat_strdup(ps->prog, ps->tok.text);
            step(ps);
            if (ps->tok.kind != CT_COMMA)
                break;
            step(ps);
        }
        if (!expect(ps, CT_RPAREN))
            return;
        s->params = cat_alloc(ps->prog, (size_t)s->nparams * sizeof *s->params);
        memcpy(s->params, params, (size_t)s->nparams * sizeof *params);
    }
    if (!expect(ps, CT_EQ))
        return;
    s->e = parse_expr(ps);
    if (ps->failed)
        return;
    if (ps->tok.kind == CT_AND)
        fail(ps, ps->tok.pos, "%s", "unsupported construct: mutually recursive definitions (let rec ... and ...)");
    else if (ps->tok.kind == CT_IN)
        fail(ps, ps->tok.pos, "%s", "unsupported construct: let ... in");
    add_stmt(ps->prog, s);
}

/* [flag] [~] acyclic|irreflexive|empty e [as name] */
static void parse_axiom(struct parser *ps)
{
    struct cat_stmt *s = cat_alloc(ps->prog, sizeof *s);
    s->kind = CS_AXIOM;
    s->pos = ps->tok.pos;
    bool flag = false, negated = false;
    if (ps->tok.kind == CT_FLAG) {
        flag = true;
        step(ps);
    }
    struct cat_pos neg_pos = ps->tok.pos;
    if (ps->tok.kind == CT_TILDE) {
        negated = true;
        step(ps);
    }
    enum cat_tok k = ps->tok.kind;
    if (k != CT_ACYCLIC && k != CT_IRREFLEXIVE && k != CT_EMPTY) {
        fail(ps, ps->tok.pos, "expected acyclic, irreflexive or empty, found %s",
             k == CT_IDENT ? ps->tok.text : cat_tok_name(k));
        return;
    }
    if (flag != negated || (flag && k != CT_EMPTY)) {
        fail(ps, flag ? ps->tok.pos : neg_pos, "%s",
             "unsupported construct: a flag must be `flag ~empty`, and only a flag is negated");
        return;
    }
    step(ps);
    s->ax = flag ? AX_FLAG : k == CT_ACYCLIC ? AX_ACYCLIC : k == CT_IRREFLEXIVE ? AX_IRREFLEXIVE : AX_EMPTY;
    s->e = parse_expr(ps);
    if (ps->failed)
        return;
    if (ps->tok.kind == CT_AS) {
        step(ps);
        if (ps->tok.kind != CT_IDENT) {
            expect(ps, CT_IDENT);
            return;
        }
        s->as = cat_strdup(ps->prog, ps->tok.text);
        step(ps);
    } else {
        char name[160];
        const char *base = strrchr(s->pos.file, '/');
        snprintf(name, sizeof name, "%s:%d", base ? base + 1 : s->pos.file, s->pos.line);
        s->as = cat_strdup(ps->prog, name);
    }
    add_stmt(ps->prog, s);
}

static void parse_into(struct cat_program *prog, const char *path, struct cat_pos from, int depth,
                       struct cat_error *err, bool *failed);

/* include "file": relative to the including file's folder. */
static void parse_include(struct parser *ps)
{
    struct cat_pos pos = ps->tok.pos;
    step(ps);
    if (ps->tok.kind != CT_STRING) {
        expect(ps, CT_STRING);
        return;
    }
    char path[1024];
    const char *slash = strrchr(ps->lx.file, '/');
    int dir = slash ? (int)(slash - ps->lx.file) + 1 : 0;
    snprintf(path, sizeof path, "%.*s%s", dir, ps->lx.file, ps->tok.text);
    step(ps);
    if (ps->depth >= CAT_MAX_INCLUDE_DEPTH) {
        fail(ps, pos, "%s", "includes nested too deep (an include cycle?)");
        return;
    }
    parse_into(ps->prog, path, pos, ps->depth + 1, ps->err, &ps->failed);
}

/* Reads the whole file at path; NULL when it cannot. */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t len = 0, cap = 4096;
    char *buf = xcalloc(cap, 1);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    fclose(f);
    buf[len] = '\0';
    if (strlen(buf) != len) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Parses the file at path into prog; from: where it was included (line 0:
 * the command line). */
static void parse_into(struct cat_program *prog, const char *path, struct cat_pos from, int depth,
                       struct cat_error *err, bool *failed)
{
    char *text = read_all(path);
    if (!text) {
        char msg[256];
        *failed = true;
        snprintf(msg, sizeof msg, "cannot read cat file %.200s", path);
        cat_error_at(err, from, msg);
        return;
    }
    struct parser ps = { .prog = prog, .err = err, .depth = depth };
    const char *file = cat_strdup(prog, path);
    cat_lexer_init(&ps.lx, text, file);
    ps.next = cat_lex(&ps.lx, err);
    step(&ps);
    if (ps.tok.kind == CT_STRING || ps.tok.kind == CT_IDENT)   /* the model's title */
        step(&ps);
    while (!ps.failed && ps.tok.kind != CT_EOF) {
        switch (ps.tok.kind) {
        case CT_LET: parse_let(&ps); break;
        case CT_INCLUDE: parse_include(&ps); break;
        case CT_FLAG: case CT_TILDE: case CT_ACYCLIC: case CT_IRREFLEXIVE: case CT_EMPTY: parse_axiom(&ps); break;
        default:
            fail(&ps, ps.tok.pos, "unsupported construct: a statement cannot begin with %s",
                 ps.tok.kind == CT_IDENT ? ps.tok.text : cat_tok_name(ps.tok.kind));
        }
    }
    *failed |= ps.failed;
    free(text);
}

struct cat_program *cat_parse_file(const char *path, struct cat_error *err)
{
    struct cat_program *prog = xcalloc(1, sizeof *prog);
    bool failed = false;
    memset(err, 0, sizeof *err);
    char stdlib[1024];
    const char *slash = strrchr(path, '/');
    int dir = slash ? (int)(slash - path) + 1 : 0;
    snprintf(stdlib, sizeof stdlib, "%.*sstdlib.cat", dir, path);
    FILE *f = strcmp(slash ? slash + 1 : path, "stdlib.cat") != 0 ? fopen(stdlib, "rb") : NULL;
    if (f) {
        fclose(f);
        parse_into(prog, stdlib, (struct cat_pos){ stdlib, 0, 0 }, 1, err, &failed);
    }
    if (!failed)
        parse_into(prog, path, (struct cat_pos){ path, 0, 0 }, 0, err, &failed);
    if (failed) {
        cat_program_free(prog);
        return NULL;
    }
    return prog;
}
