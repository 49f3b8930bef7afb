/* Tokenizer for litmus files. */
#include "litmus/lexer.h"

#include <stdio.h>
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_hex_digit(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The character at distance ahead from the current one, or NUL past the end. */
static char peek_at(const struct lexer *lx, size_t ahead)
{
    return lx->off + ahead < lx->len ? lx->src[lx->off + ahead] : '\0';
}

static bool at_end(const struct lexer *lx) { return lx->off >= lx->len; }

/* Moves past one character, keeping line and column up to date. */
static void advance_char(struct lexer *lx)
{
    char c = lx->src[lx->off++];
    if (c == '\n' || (c == '\r' && peek_at(lx, 0) != '\n')) {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
}

static struct srcpos here(const struct lexer *lx)
{
    struct srcpos pos = { lx->line, lx->col };
    return pos;
}

static bool lex_error(struct litmus_error *err, struct srcpos pos, const char *msg)
{
    err->pos = pos;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return false;
}

/* Skips a block that starts with open and ends with close (both two characters). */
static bool skip_block(struct lexer *lx, const char *close, const char *what,
                       struct litmus_error *err)
{
    struct srcpos start = here(lx);
    advance_char(lx);
    advance_char(lx);
    while (!at_end(lx)) {
        if (peek_at(lx, 0) == close[0] && peek_at(lx, 1) == close[1]) {
            advance_char(lx);
            advance_char(lx);
            return true;
        }
        advance_char(lx);
    }
    return lex_error(err, start, what);
}

/* Skips blanks, comments and exec configs. */
static bool skip_trivia(struct lexer *lx, struct litmus_error *err)
{
    for (;;) {
        char c = peek_at(lx, 0);
        if (!at_end(lx) && is_blank(c)) {
            advance_char(lx);
        } else if (c == '(' && peek_at(lx, 1) == '*' && !lx->c_mode) {
            if (!skip_block(lx, "*)", "unterminated comment '(*'", err))
                return false;
        } else if (c == '/' && peek_at(lx, 1) == '*' && lx->c_mode) {
            if (!skip_block(lx, "*/", "unterminated comment '/*'", err))
                return false;
        } else if (c == '/' && peek_at(lx, 1) == '/' && lx->c_mode) {
            while (!at_end(lx) && peek_at(lx, 0) != '\n' && peek_at(lx, 0) != '\r')
                advance_char(lx);
        } else if (c == '<' && peek_at(lx, 1) == '<') {
            if (!skip_block(lx, ">>", "unterminated '<<' block", err))
                return false;
        } else {
            return true;
        }
    }
}

/* Starts lexing at line 1, column 1. */
void lexer_init(struct lexer *lx, const char *text, size_t len)
{
    lx->src = text;
    lx->len = len;
    lx->off = 0;
    lx->line = 1;
    lx->col = 1;
    lx->c_mode = false;
}

/* The line:col of byte off of text, counting lines as the lexer does. */
struct srcpos lexer_pos_at(const char *text, size_t len, size_t off)
{
    struct lexer lx;
    lexer_init(&lx, text, len);
    while (lx.off < off && !at_end(&lx))
        advance_char(&lx);
    return here(&lx);
}

static void lex_word(struct lexer *lx, struct token *tok)
{
    tok->kind = TOK_IDENT;
    while (!at_end(lx) && (is_alpha(peek_at(lx, 0)) || is_digit(peek_at(lx, 0))))
        advance_char(lx);
}

static void lex_number(struct lexer *lx, struct token *tok)
{
    if (peek_at(lx, 0) == '0' && (peek_at(lx, 1) == 'x' || peek_at(lx, 1) == 'X')
        && is_hex_digit(peek_at(lx, 2))) {
        tok->kind = TOK_HEX;
        advance_char(lx);
        advance_char(lx);
        while (!at_end(lx) && is_hex_digit(peek_at(lx, 0)))
            advance_char(lx);
        return;
    }
    tok->kind = TOK_NUMBER;
    while (!at_end(lx) && is_digit(peek_at(lx, 0)))
        advance_char(lx);
}

/* Single-character punctuation; TOK_EOF when c is not one. */
static enum tok_kind single_char_kind(char c)
{
    switch (c) {
    case '{': return TOK_LBRACE;
    case '}': return TOK_RBRACE;
    case '(': return TOK_LPAREN;
    case ')': return TOK_RPAREN;
    case '[': return TOK_LBRACKET;
    case ']': return TOK_RBRACKET;
    case ';': return TOK_SEMI;
    case ',': return TOK_COMMA;
    case ':': return TOK_COLON;
    case '.': return TOK_DOT;
    case '|': return TOK_BAR;
    case '@': return TOK_AT;
    case '&': return TOK_AMP;
    case '-': return TOK_MINUS;
    case '~': return TOK_TILDE;
    default: return TOK_EOF;
    }
}

/* Two-character operators; TOK_EOF when the pair is not one. */
static enum tok_kind double_char_kind(char c, char next)
{
    if (c == '/' && next == '\\') return TOK_AND;
    if (c == '\\' && next == '/') return TOK_OR;
    if (c == '=' && next == '=') return TOK_EQ;
    if (c == '!' && next == '=') return TOK_NE;
    if (c == '<' && next == '=') return TOK_LE;
    if (c == '>' && next == '=') return TOK_GE;
    return TOK_EOF;
}

static bool stray_char(struct lexer *lx, struct litmus_error *err)
{
    unsigned char c = (unsigned char)peek_at(lx, 0);
    err->pos = here(lx);
    if (c >= 0x20 && c < 0x7f)
        snprintf(err->msg, sizeof err->msg, "unexpected character '%c'", c);
    else
        snprintf(err->msg, sizeof err->msg, "unexpected character '\\x%02x'", c);
    return false;
}

/* C operators (C mode); TOK_EOF when c (then next) starts none. */
static enum tok_kind c_operator_kind(char c, char next, int *len)
{
    *len = 2;
    if (c == '&' && next == '&') return TOK_ANDAND;
    if (c == '|' && next == '|') return TOK_OROR;
    *len = 1;
    switch (c) {
    case '*': return TOK_STAR;
    case '+': return TOK_PLUS;
    case '/': return TOK_SLASH;
    case '^': return TOK_CARET;
    case '!': return next == '=' ? TOK_EOF : TOK_BANG;
    default: return TOK_EOF;
    }
}

/* Lexes an operator or punctuation token. */
static bool lex_punct(struct lexer *lx, struct token *tok, struct litmus_error *err)
{
    char c = peek_at(lx, 0);
    enum tok_kind kind = double_char_kind(c, peek_at(lx, 1));
    int clen;
    if (kind == TOK_EOF && lx->c_mode && (kind = c_operator_kind(c, peek_at(lx, 1), &clen)) != TOK_EOF) {
        tok->kind = kind;
        for (int i = 0; i < clen; i++)
            advance_char(lx);
        return true;
    }
    if (kind != TOK_EOF) {
        tok->kind = kind;
        advance_char(lx);
        advance_char(lx);
        return true;
    }
    kind = single_char_kind(c);
    if (kind == TOK_EOF) {
        if (c == '=') kind = TOK_ASSIGN;
        else if (c == '<') kind = TOK_LT;
        else if (c == '>') kind = TOK_GT;
        else return stray_char(lx, err);
    }
    tok->kind = kind;
    advance_char(lx);
    return true;
}

/* Reads the next token, skipping blanks, comments and exec configs. */
bool lexer_next(struct lexer *lx, struct token *tok, struct litmus_error *err)
{
    if (!skip_trivia(lx, err))
        return false;
    tok->pos = here(lx);
    tok->offset = lx->off;
    tok->text = lx->src + lx->off;
    if (at_end(lx)) {
        tok->kind = TOK_EOF;
    } else if (is_alpha(peek_at(lx, 0))) {
        lex_word(lx, tok);
    } else if (lx->c_mode && peek_at(lx, 0) == '%' && is_alpha(peek_at(lx, 1))) {
        advance_char(lx);          /* "%t0": an OpenCL temporary as the printer writes it */
        lex_word(lx, tok);
    } else if (is_digit(peek_at(lx, 0))) {
        lex_number(lx, tok);
    } else if (!lex_punct(lx, tok, err)) {
        return false;
    }
    tok->len = lx->off - tok->offset;
    return true;
}

/* Reads the raw test name that follows the dialect keyword. */
void lexer_read_word(struct lexer *lx, struct token *word)
{
    while (!at_end(lx) && (peek_at(lx, 0) == ' ' || peek_at(lx, 0) == '\t'))
        advance_char(lx);
    word->kind = TOK_IDENT;
    word->pos = here(lx);
    word->offset = lx->off;
    word->text = lx->src + lx->off;
    while (!at_end(lx) && !is_blank(peek_at(lx, 0)) && peek_at(lx, 0) != '{')
        advance_char(lx);
    word->len = lx->off - word->offset;
}

/* Skips a double-quoted string starting at the current character. */
static bool skip_string(struct lexer *lx, struct litmus_error *err)
{
    struct srcpos start = here(lx);
    advance_char(lx);
    while (!at_end(lx)) {
        if (peek_at(lx, 0) == '"') {
            advance_char(lx);
            return true;
        }
        advance_char(lx);
    }
    return lex_error(err, start, "unterminated string");
}

/* Skips free text up to the next '{'. */
bool lexer_skip_to_lbrace(struct lexer *lx, struct litmus_error *err)
{
    while (!at_end(lx)) {
        char c = peek_at(lx, 0);
        if (c == '{')
            return true;
        if (c == '"') {
            if (!skip_string(lx, err))
                return false;
        } else if (c == '(' && peek_at(lx, 1) == '*') {
            if (!skip_block(lx, "*)", "unterminated comment '(*'", err))
                return false;
        } else {
            advance_char(lx);
        }
    }
    return lex_error(err, here(lx), "expected '{' to open the initial state");
}

/* Human name of a token kind. */
const char *tok_kind_name(enum tok_kind kind)
{
    static const char *const names[] = {
        [TOK_EOF] = "end of input", [TOK_IDENT] = "name", [TOK_NUMBER] = "number",
        [TOK_HEX] = "hex number", [TOK_LBRACE] = "'{'", [TOK_RBRACE] = "'}'",
        [TOK_LPAREN] = "'('", [TOK_RPAREN] = "')'", [TOK_LBRACKET] = "'['",
        [TOK_RBRACKET] = "']'", [TOK_SEMI] = "';'", [TOK_COMMA] = "','",
        [TOK_COLON] = "':'", [TOK_DOT] = "'.'", [TOK_BAR] = "'|'", [TOK_AT] = "'@'",
        [TOK_AMP] = "'&'", [TOK_MINUS] = "'-'", [TOK_TILDE] = "'~'",
        [TOK_AND] = "'/\\'", [TOK_OR] = "'\\/'", [TOK_ASSIGN] = "'='",
        [TOK_EQ] = "'=='", [TOK_NE] = "'!='", [TOK_LT] = "'<'", [TOK_LE] = "'<='",
        [TOK_GT] = "'>'", [TOK_GE] = "'>='", [TOK_STAR] = "'*'", [TOK_PLUS] = "'+'",
        [TOK_SLASH] = "'/'", [TOK_CARET] = "'^'", [TOK_BANG] = "'!'", [TOK_ANDAND] = "'&&'",
        [TOK_OROR] = "'||'",
    };
    if ((unsigned)kind < sizeof names / sizeof names[0] && names[kind])
        return names[kind];
    return "token";
}

/* True when tok is the identifier word. */
bool tok_is(const struct token *tok, const char *word)
{
    size_t n = strlen(word);
    return tok->kind == TOK_IDENT && tok->len == n && memcmp(tok->text, word, n) == 0;
}
