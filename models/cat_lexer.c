/* Tokens of the cat language: identifiers (letters, digits, _, - and .),
 * strings, keywords, operators; (* nested *) and // comments. */
#include "models/cat_lang.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const struct { const char *word; enum cat_tok kind; } keywords[] = {
    { "let", CT_LET }, { "rec", CT_REC }, { "and", CT_AND }, { "as", CT_AS }, { "in", CT_IN },
    { "include", CT_INCLUDE }, { "acyclic", CT_ACYCLIC }, { "irreflexive", CT_IRREFLEXIVE },
    { "empty", CT_EMPTY }, { "flag", CT_FLAG },
};

void cat_lexer_init(struct cat_lexer *lx, const char *text, const char *file)
{
    *lx = (struct cat_lexer){ text, file, 0, 1, 1 };
}

const char *cat_tok_name(enum cat_tok k)
{
    static const char *const names[] = {
        "end of file", "a name", "a string", "0", "let", "rec", "and", "as", "in", "include",
        "acyclic", "irreflexive", "empty", "flag", "|", "&", "\\", ";", "*", "+", "?", "^-1",
        "(", ")", "[", "]", "=", "~", ",", "an error",
    };
    return names[k];
}

/* The character at the lexer's position plus k ('\0' past the end). */
static char peek(const struct cat_lexer *lx, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (lx->text[lx->at + i] == '\0')
            return '\0';
    return lx->text[lx->at + k];
}

/* Moves one character on. */
static void advance(struct cat_lexer *lx)
{
    if (lx->text[lx->at] == '\n') {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
    lx->at++;
}

void cat_error_at(struct cat_error *err, struct cat_pos pos, const char *msg)
{
    snprintf(err->file, sizeof err->file, "%s", pos.file ? pos.file : "");
    err->line = pos.line;
    err->col = pos.col;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
}

/* Sets err at pos; returns a CT_ERROR token. */
static struct cat_token lex_error(struct cat_lexer *lx, struct cat_pos pos, struct cat_error *err, const char *msg)
{
    cat_error_at(err, pos, msg);
    (void)lx;
    return (struct cat_token){ .kind = CT_ERROR, .pos = pos };
}

/* Skips blanks and comments; false (err set) on an unterminated comment. */
static bool skip_space(struct cat_lexer *lx, struct cat_error *err)
{
    for (;;) {
        char c = peek(lx, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            advance(lx);
        } else if (c == '/' && peek(lx, 1) == '/') {
            while (peek(lx, 0) != '\n' && peek(lx, 0) != '\0')
                advance(lx);
        } else if (c == '(' && peek(lx, 1) == '*') {
            struct cat_pos start = { lx->file, lx->line, lx->col };
            int depth = 0;
            do {
                if (peek(lx, 0) == '\0') {
                    lex_error(lx, start, err, "comment not closed by *)");
                    return false;
                }
                if (peek(lx, 0) == '(' && peek(lx, 1) == '*') {
                    depth++;
                    advance(lx);
                } else if (peek(lx, 0) == '*' && peek(lx, 1) == ')') {
                    depth--;
                    advance(lx);
                }
                advance(lx);
            } while (depth > 0);
        } else {
            return true;
        }
    }
}

/* True for a character that continues an identifier. */
static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

struct cat_token cat_lex(struct cat_lexer *lx, struct cat_error *err)
{
    if (!skip_space(lx, err))
        return (struct cat_token){ .kind = CT_ERROR };
    struct cat_token t = { .kind = CT_EOF, .pos = { lx->file, lx->line, lx->col } };
    char c = peek(lx, 0);
    if (c == '\0')
        return t;
    if (isalpha((unsigned char)c) || c == '_') {
        size_t len = 0;
        while (ident_char(peek(lx, 0))) {
            if (len + 1 >= sizeof t.text)
                return lex_error(lx, t.pos, err, "name too long");
            t.text[len++] = peek(lx, 0);
            advance(lx);
        }
        t.text[len] = '\0';
        t.kind = CT_IDENT;
        for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
            if (strcmp(keywords[k].word, t.text) == 0)
                t.kind = keywords[k].kind;
        return t;
    }
    if (c == '"') {
        size_t len = 0;
        advance(lx);
        while (peek(lx, 0) != '"') {
            if (peek(lx, 0) == '\0' || peek(lx, 0) == '\n')
                return lex_error(lx, t.pos, err, "string not closed by \"");
            if (len + 1 >= sizeof t.text)
                return lex_error(lx, t.pos, err, "string too long");
            t.text[len++] = peek(lx, 0);
            advance(lx);
        }
        advance(lx);
        t.text[len] = '\0';
        t.kind = CT_STRING;
        return t;
    }
    if (c == '^') {
        if (peek(lx, 1) == '-' && peek(lx, 2) == '1') {
            advance(lx);
            advance(lx);
            advance(lx);
            t.kind = CT_INV;
            return t;
        }
        return lex_error(lx, t.pos, err, "unsupported operator '^' (only ^-1 is)");
    }
    static const char singles[] = "0|&\\;*+?()[]=~,";
    static const enum cat_tok kinds[] = { CT_ZERO, CT_BAR, CT_AMP, CT_BSLASH, CT_SEMI, CT_STAR, CT_PLUS,
                                          CT_QUEST, CT_LPAREN, CT_RPAREN, CT_LBRACK, CT_RBRACK, CT_EQ,
                                          CT_TILDE, CT_COMMA };
    const char *at = strchr(singles, c);
    if (at && !(c == '0' && ident_char(peek(lx, 1)))) {
        advance(lx);
        t.kind = kinds[at - singles];
        return t;
    }
    char msg[64];
    snprintf(msg, sizeof msg, isprint((unsigned char)c) ? "unexpected character '%c'" : "unexpected byte 0x%02x",
             isprint((unsigned char)c) ? c : (unsigned char)c);
    return lex_error(lx, t.pos, err, msg);
}
