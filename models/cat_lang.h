/* The cat language as --cat reads it: tokens (cat_lexer.c), the syntax
 * tree and its parser with `include` (cat_parser.c), and the evaluator
 * that builds a model over struct cat (cat_eval.c).  The subset is the one
 * the Dat3M GPU cat files use: let, let rec (one relation, linear in
 * itself), functions with parameters, acyclic / irreflexive / empty with
 * `as NAME`, `flag ~empty`, the set and relation operators, ^-1, +, *, ?,
 * [S], domain and range.  Every error names FILE:LINE:COL. */
#ifndef GPUBMC_CAT_LANG_H
#define GPUBMC_CAT_LANG_H

#include <stdbool.h>
#include <stddef.h>

#include "models/model.h"

/* Where a construct is: its file (owned by the program) and position. */
struct cat_pos { const char *file; int line, col; };

/* An error: the first one found, with its position (line 0: the file as
 * a whole); the file name is copied. */
struct cat_error { char file[512]; int line, col; char msg[256]; };

/* Sets err to msg at pos. */
void cat_error_at(struct cat_error *err, struct cat_pos pos, const char *msg);

enum cat_tok {
    CT_EOF, CT_IDENT, CT_STRING, CT_ZERO,
    CT_LET, CT_REC, CT_AND, CT_AS, CT_IN, CT_INCLUDE,
    CT_ACYCLIC, CT_IRREFLEXIVE, CT_EMPTY, CT_FLAG,
    CT_BAR, CT_AMP, CT_BSLASH, CT_SEMI, CT_STAR, CT_PLUS, CT_QUEST, CT_INV,
    CT_LPAREN, CT_RPAREN, CT_LBRACK, CT_RBRACK, CT_EQ, CT_TILDE, CT_COMMA,
    CT_ERROR
};

struct cat_token {
    enum cat_tok kind;
    struct cat_pos pos;
    char text[128];          /* identifier or string contents */
};

/* A lexer over one file's text (not copied: it must outlive the lexer). */
struct cat_lexer {
    const char *text, *file;
    size_t at;
    int line, col;
};

/* Starts a lexer over text, reporting positions in file. */
void cat_lexer_init(struct cat_lexer *lx, const char *text, const char *file);
/* The next token; CT_ERROR with the message in err on bad input. */
struct cat_token cat_lex(struct cat_lexer *lx, struct cat_error *err);
/* The token kind's spelling, for messages. */
const char *cat_tok_name(enum cat_tok k);

enum cat_expr_op {
    CE_NAME, CE_APP, CE_ZERO, CE_UNION, CE_INTER, CE_DIFF, CE_SEQ, CE_PROD,
    CE_COMPL, CE_PLUS, CE_STAR, CE_OPT, CE_INV, CE_BRACKET
};

struct cat_expr {
    enum cat_expr_op op;
    struct cat_pos pos;
    const char *name;        /* CE_NAME, CE_APP (the function) */
    struct cat_expr *a, *b;  /* operands */
    int nargs;               /* CE_APP */
    struct cat_expr **args;
};

enum cat_stmt_kind { CS_LET, CS_AXIOM };

struct cat_stmt {
    enum cat_stmt_kind kind;
    struct cat_pos pos;
    /* CS_LET */
    bool rec;
    const char *name;
    int nparams;             /* 0 and params NULL: not a function */
    const char **params;
    bool is_fun;
    /* CS_AXIOM */
    enum axiom_kind ax;      /* AX_FLAG: flag ~empty */
    const char *as;          /* the axiom's name (a made-up one when unnamed) */
    struct cat_expr *e;      /* the let's body or the axiom's relation */
};

/* A parsed model: its statements in order, stdlib.cat's first. */
struct cat_program {
    int n, cap;
    struct cat_stmt **stmts;
    int nalloc, capalloc;
    void **allocs;           /* everything the program owns */
};

/* Parses path (after the stdlib.cat of its folder, when there is one and
 * path is not it) with its includes; NULL with err set on an error. */
struct cat_program *cat_parse_file(const char *path, struct cat_error *err);
/* Frees a parsed program. */
void cat_program_free(struct cat_program *p);
/* Allocates n zeroed bytes owned by p. */
void *cat_alloc(struct cat_program *p, size_t n);
/* A copy of s owned by p. */
char *cat_strdup(struct cat_program *p, const char *s);

/* What evaluating a program found: the axioms in order, the dialect its
 * base names belong to (-1: either), and the axiom that plays NoThinAir:
 * the first acyclic one whose relation is a union with rf, addr, data and
 * ctrl among its terms (through parentheses and let names; -1: none). */
struct cat_shape {
    int naxioms;
    struct axiom_decl axioms[MODEL_MAX_AXIOMS + 1];
    int dialect;
    int thin_air;
};

/* Evaluates p without relations: checks every name, type, arity and
 * construct, and fills shape; false with err set on the first error. */
bool cat_check(const struct cat_program *p, struct cat_shape *shape, struct cat_error *err);
/* Evaluates p over m (checked by cat_check): every axiom and export. */
void cat_eval(const struct cat_program *p, struct cat *m);

#endif
