/* Tokenizer for litmus files: turns source text into tokens with line:col positions. */
#ifndef GPUBMC_LITMUS_LEXER_H
#define GPUBMC_LITMUS_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "litmus/ast.h"

enum tok_kind {
    TOK_EOF,
    TOK_IDENT,      /* [A-Za-z_][A-Za-z0-9_]* (C mode: also with a leading %) */
    TOK_NUMBER,     /* decimal digits */
    TOK_HEX,        /* 0x followed by hex digits */
    TOK_LBRACE, TOK_RBRACE, TOK_LPAREN, TOK_RPAREN, TOK_LBRACKET, TOK_RBRACKET,
    TOK_SEMI, TOK_COMMA, TOK_COLON, TOK_DOT, TOK_BAR, TOK_AT, TOK_AMP,
    TOK_MINUS, TOK_TILDE,
    TOK_AND,        /* the conjunction operator, slash then backslash */
    TOK_OR,         /* the disjunction operator, backslash then slash */
    TOK_ASSIGN,     /* = */
    TOK_EQ, TOK_NE, TOK_LT, TOK_LE, TOK_GT, TOK_GE,
    /* C mode only (the OpenCL dialect) */
    TOK_STAR, TOK_PLUS, TOK_SLASH, TOK_CARET, TOK_BANG, TOK_ANDAND, TOK_OROR
};

struct token {
    enum tok_kind kind;
    const char *text;      /* points into the source text (a token's byte
                              offset there is text minus the text's start) */
    size_t len;
    struct srcpos pos;
};

/* Lexer state; plain data, so copying it saves a position to come back to. */
struct lexer {
    const char *src;
    size_t len;
    size_t off;
    size_t line_start;     /* the offset where the current line begins: the
                              column is counted from it when asked for */
    int line;
    bool c_mode;           /* OpenCL's C: line and block comments of C, C
                              operators, and no herd comments */
};

/* Starts lexing text of len bytes at line 1, column 1; text[len] must be
 * a NUL byte (the lexer's loops stop at it without testing len). */
void lexer_init(struct lexer *lx, const char *text, size_t len);

/* The line:col of byte offset off (at most len) of text, counting lines as
 * the lexer does. */
struct srcpos lexer_pos_at(const char *text, size_t len, size_t off);

/* Reads the next token, skipping blanks, (* comments *) and << configs >>;
 * returns false and fills err on a lexical error. */
bool lexer_next(struct lexer *lx, struct token *tok, struct litmus_error *err);

/* Reads ".word" when it starts right at the current character (a '.' then
 * a word, nothing between): the word's token, as lexer_next would give it
 * after the '.' token; false, reading nothing, otherwise (and in C mode). */
bool lexer_next_dotted(struct lexer *lx, struct token *word);

/* Reads the ".word" parts that follow one right after the other (as many
 * calls of lexer_next_dotted would), at most max of them, into words;
 * returns how many. */
int lexer_next_dotted_run(struct lexer *lx, struct token *words, int max);

/* The byte offset where the run of word characters and dots ([A-Za-z0-9_.])
 * that starts at the current character ends. */
size_t lexer_dotted_end(const struct lexer *lx);

/* Moves to byte offset end (no line break before it). */
void lexer_skip_in_line(struct lexer *lx, size_t end);

/* Reads the raw word (up to blank or '{') that follows the dialect keyword. */
void lexer_read_word(struct lexer *lx, struct token *word);

/* Skips free text (quoted strings, comments, anything) up to the next '{';
 * returns false and fills err when there is none. */
bool lexer_skip_to_lbrace(struct lexer *lx, struct litmus_error *err);

/* A short human name for a token kind, e.g. "','" or "end of input". */
const char *tok_kind_name(enum tok_kind kind);

/* True when tok is the identifier word (inline: with a literal word, the
 * length is a constant and the comparison a few instructions). */
static inline bool tok_is(const struct token *tok, const char *word)
{
    size_t n = strlen(word);
    return tok->kind == TOK_IDENT && tok->len == n && memcmp(tok->text, word, n) == 0;
}

#endif
