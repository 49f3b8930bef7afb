/* Tokenizer for litmus files. */
#include "litmus/lexer.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Character classes, one bit each, looked up in char_class. */
enum {
    CC_ALPHA = 1,            /* [A-Za-z_]: starts a word */
    CC_DIGIT = 2,            /* [0-9] */
    CC_HEX = 4,              /* [0-9A-Fa-f] */
    CC_SPACE = 8,            /* blanks within a line: ' ', '\t', '\f', '\v' */
    CC_LINE = 16,            /* '\n', '\r' */
    CC_TRIVIA = 32,          /* '(', '/', '<': may open a comment or a config */
    CC_DOT = 64              /* '.' */
};

#define CLASS_OF(c)                                                                   \
    ((((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || (c) == '_' ? CC_ALPHA : 0) \
     | ((c) >= '0' && (c) <= '9' ? CC_DIGIT | CC_HEX : 0)                            \
     | (((c) >= 'a' && (c) <= 'f') || ((c) >= 'A' && (c) <= 'F') ? CC_HEX : 0)       \
     | ((c) == ' ' || (c) == '\t' || (c) == '\f' || (c) == '\v' ? CC_SPACE : 0)       \
     | ((c) == '\n' || (c) == '\r' ? CC_LINE : 0)                                     \
     | ((c) == '(' || (c) == '/' || (c) == '<' ? CC_TRIVIA : 0)                       \
     | ((c) == '.' ? CC_DOT : 0))
#define CLASS_4(c) CLASS_OF(c), CLASS_OF((c) + 1), CLASS_OF((c) + 2), CLASS_OF((c) + 3)
#define CLASS_16(c) CLASS_4(c), CLASS_4((c) + 4), CLASS_4((c) + 8), CLASS_4((c) + 12)
#define CLASS_64(c) CLASS_16(c), CLASS_16((c) + 16), CLASS_16((c) + 32), CLASS_16((c) + 48)

/* The classes of each byte (bytes past 127 have none). */
static const unsigned char char_class[256] = { CLASS_64(0), CLASS_64(64) };

static bool has_class(char c, unsigned cls) { return char_class[(unsigned char)c] & cls; }
static bool is_alpha(char c) { return has_class(c, CC_ALPHA); }
static bool is_hex_digit(char c) { return has_class(c, CC_HEX); }
static bool is_blank(char c) { return has_class(c, CC_SPACE | CC_LINE); }

/* The character at distance ahead from the current one, or NUL past the end. */
static char peek_at(const struct lexer *lx, size_t ahead)
{
    return lx->off + ahead < lx->len ? lx->src[lx->off + ahead] : '\0';
}

static bool at_end(const struct lexer *lx) { return lx->off >= lx->len; }

/* Moves to byte offset end (at most len), keeping the line and its start
 * up to date: a line ends at '\n', at "\r\n" (its '\n') and at a lone '\r'.
 * Without a '\r' in the way, from one '\n' to the next by memchr. */
static void advance_to(struct lexer *lx, size_t end)
{
    const char *s = lx->src;
    size_t off = lx->off, start = lx->line_start;
    int line = lx->line;
    if (!memchr(s + off, '\r', end - off)) {
        for (const char *nl; (nl = memchr(s + off, '\n', end - off)) != NULL; off = start) {
            line++;
            start = (size_t)(nl - s) + 1;
        }
        off = end;
    }
    for (; off < end; off++) {
        char c = s[off];
        if (c == '\n' || (c == '\r' && (off + 1 >= lx->len || s[off + 1] != '\n'))) {
            line++;
            start = off + 1;
        }
    }
    lx->off = off;
    lx->line = line;
    lx->line_start = start;
}

/* Moves past n characters of one line (none of them ends a line). */
static void advance_in_line(struct lexer *lx, size_t n)
{
    lx->off += n;
}

/* The line and column of byte off of the current line. */
static struct srcpos pos_of(const struct lexer *lx, size_t off)
{
    struct srcpos pos = { lx->line, (int)(off - lx->line_start) + 1 };
    return pos;
}

static struct srcpos here(const struct lexer *lx)
{
    return pos_of(lx, lx->off);
}

static bool lex_error(struct litmus_error *err, struct srcpos pos, const char *msg)
{
    err->pos = pos;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return false;
}

/* Skips a block that starts with two characters and ends with close (two
 * characters); at the end of the text without close, fails at its start. */
static bool skip_block(struct lexer *lx, const char *close, const char *what,
                       struct litmus_error *err)
{
    struct srcpos start = here(lx);
    const char *s = lx->src;
    for (size_t at = lx->off + 2; at + 1 < lx->len; at++) {
        if (s[at] == close[0] && s[at + 1] == close[1]) {
            advance_to(lx, at + 2);
            return true;
        }
    }
    advance_to(lx, lx->len);
    return lex_error(err, start, what);
}

/* The number of spaces (0 to 8) the eight bytes at s begin with. */
static unsigned leading_spaces(const char *s)
{
    uint64_t word;
    memcpy(&word, s, sizeof word);
    word ^= 0x2020202020202020u;
    if (!word)
        return 8;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (unsigned)__builtin_ctzll(word) / 8;
#else
    return (unsigned)__builtin_clzll(word) / 8;
#endif
}

/* Skips blanks (one tight loop: aligned columns make them most of a file;
 * inline in lexer_next, where it runs before every token): spaces eight
 * bytes at a time while eight bytes are left, line breaks moving the
 * line's start; the NUL after the text stops it, having no class. */
__attribute__((always_inline))
static inline void skip_blanks(struct lexer *lx)
{
    const char *s = lx->src;
    size_t len = lx->len, at = lx->off;
    for (;;) {
        unsigned char c = (unsigned char)s[at];
        if (c == ' ' && at + 8 <= len) {
            at += leading_spaces(s + at);
            continue;
        }
        unsigned cls = char_class[c];
        if (cls & CC_SPACE) {
            at++;
            continue;
        }
        if (!(cls & CC_LINE))
            break;
        at += c == '\r' && s[at + 1] == '\n' ? 2 : 1;   /* "\r\n" is one line break */
        lx->line++;
        lx->line_start = at;
    }
    lx->off = at;
}

/* Skips comments and exec configs, and the blanks after them, from a
 * character that may open one (out of the common path of lexer_next). */
__attribute__((noinline))
static bool skip_trivia(struct lexer *lx, struct litmus_error *err)
{
    for (;; skip_blanks(lx)) {
        char c = peek_at(lx, 0);
        if (!has_class(c, CC_TRIVIA))
            return true;
        char next = peek_at(lx, 1);
        if (c == '(' && next == '*' && !lx->c_mode) {
            if (!skip_block(lx, "*)", "unterminated comment '(*'", err))
                return false;
        } else if (c == '/' && next == '*' && lx->c_mode) {
            if (!skip_block(lx, "*/", "unterminated comment '/*'", err))
                return false;
        } else if (c == '/' && next == '/' && lx->c_mode) {
            size_t at = lx->off;
            while (at < lx->len && lx->src[at] != '\n' && lx->src[at] != '\r')
                at++;
            advance_in_line(lx, at - lx->off);
        } else if (c == '<' && next == '<') {
            if (!skip_block(lx, ">>", "unterminated '<<' block", err))
                return false;
        } else {
            return true;
        }
    }
}

/* Starts lexing at line 1, column 1 (a NUL byte at text[len]). */
void lexer_init(struct lexer *lx, const char *text, size_t len)
{
    lx->src = text;
    lx->len = len;
    lx->off = 0;
    lx->line_start = 0;
    lx->line = 1;
    lx->c_mode = false;
}

/* The line:col of byte off of text, counting lines as the lexer does. */
struct srcpos lexer_pos_at(const char *text, size_t len, size_t off)
{
    struct lexer lx;
    lexer_init(&lx, text, len);
    advance_to(&lx, off < len ? off : len);
    return here(&lx);
}

/* The end of the word (letters, digits, '_') that goes on at byte at. */
static size_t word_end(const struct lexer *lx, size_t at)
{
    while (has_class(lx->src[at], CC_ALPHA | CC_DIGIT))   /* the NUL after the text stops it */
        at++;
    return at;
}

/* The end of the digits (hex digits when hex) that go on at byte at. */
static size_t digits_end(const struct lexer *lx, size_t at, bool hex)
{
    unsigned cls = hex ? CC_HEX : CC_DIGIT;
    while (has_class(lx->src[at], cls))   /* the NUL after the text stops it */
        at++;
    return at;
}

/* The kind and length of the number at the current character: 0x and hex
 * digits, else decimal digits. */
static size_t number_length(const struct lexer *lx, enum tok_kind *kind)
{
    if (peek_at(lx, 0) == '0' && (peek_at(lx, 1) == 'x' || peek_at(lx, 1) == 'X')
        && is_hex_digit(peek_at(lx, 2))) {
        *kind = TOK_HEX;
        return digits_end(lx, lx->off + 2, true) - lx->off;
    }
    *kind = TOK_NUMBER;
    return digits_end(lx, lx->off, false) - lx->off;
}

/* The kind and length of the operator or punctuation that starts with c
 * (then next); length 0 when c starts none. */
static size_t punct_length(char c, char next, bool c_mode, enum tok_kind *kind)
{
    switch (c) {
    case '{': *kind = TOK_LBRACE; return 1;
    case '}': *kind = TOK_RBRACE; return 1;
    case '(': *kind = TOK_LPAREN; return 1;
    case ')': *kind = TOK_RPAREN; return 1;
    case '[': *kind = TOK_LBRACKET; return 1;
    case ']': *kind = TOK_RBRACKET; return 1;
    case ';': *kind = TOK_SEMI; return 1;
    case ',': *kind = TOK_COMMA; return 1;
    case ':': *kind = TOK_COLON; return 1;
    case '.': *kind = TOK_DOT; return 1;
    case '@': *kind = TOK_AT; return 1;
    case '-': *kind = TOK_MINUS; return 1;
    case '~': *kind = TOK_TILDE; return 1;
    case '|':
        if (c_mode && next == '|') { *kind = TOK_OROR; return 2; }
        *kind = TOK_BAR; return 1;
    case '&':
        if (c_mode && next == '&') { *kind = TOK_ANDAND; return 2; }
        *kind = TOK_AMP; return 1;
    case '/':
        if (next == '\\') { *kind = TOK_AND; return 2; }
        *kind = TOK_SLASH; return c_mode;
    case '\\':
        *kind = TOK_OR; return next == '/' ? 2 : 0;
    case '=':
        if (next == '=') { *kind = TOK_EQ; return 2; }
        *kind = TOK_ASSIGN; return 1;
    case '!':
        if (next == '=') { *kind = TOK_NE; return 2; }
        *kind = TOK_BANG; return c_mode;
    case '<':
        if (next == '=') { *kind = TOK_LE; return 2; }
        *kind = TOK_LT; return 1;
    case '>':
        if (next == '=') { *kind = TOK_GE; return 2; }
        *kind = TOK_GT; return 1;
    case '*': *kind = TOK_STAR; return c_mode;
    case '+': *kind = TOK_PLUS; return c_mode;
    case '^': *kind = TOK_CARET; return c_mode;
    default: return 0;
    }
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

/* The kinds of the characters that are a token alone in every mode (0:
 * none; TOK_EOF is 0, but no character stands for it). */
static const unsigned char single_kind[256] = {
    ['{'] = TOK_LBRACE, ['}'] = TOK_RBRACE, ['('] = TOK_LPAREN, [')'] = TOK_RPAREN,
    ['['] = TOK_LBRACKET, [']'] = TOK_RBRACKET, [';'] = TOK_SEMI, [','] = TOK_COMMA,
    [':'] = TOK_COLON, ['.'] = TOK_DOT, ['@'] = TOK_AT, ['-'] = TOK_MINUS, ['~'] = TOK_TILDE,
};

/* Reads the next token, skipping blanks, comments and exec configs: every
 * token, after any blanks (lexer_next's own path for the common ones). */
__attribute__((noinline))
static bool next_token(struct lexer *lx, struct token *tok, struct litmus_error *err)
{
    skip_blanks(lx);
    const char *s = lx->src;
    size_t off = lx->off;
    unsigned char c = (unsigned char)s[off];
    if ((char_class[c] & CC_TRIVIA) && (c != '(' || s[off + 1] == '*')) {
        if (!skip_trivia(lx, err))
            return false;
        off = lx->off;
        c = (unsigned char)s[off];
    }
    tok->pos = pos_of(lx, off);
    tok->text = s + off;
    size_t len;
    if (char_class[c] & CC_ALPHA) {
        tok->kind = TOK_IDENT;
        len = word_end(lx, off + 1) - off;
    } else if (single_kind[c]) {
        tok->kind = (enum tok_kind)single_kind[c];
        len = 1;
    } else if (off >= lx->len) {
        tok->kind = TOK_EOF;
        len = 0;
    } else if (lx->c_mode && c == '%' && is_alpha(s[off + 1])) {
        tok->kind = TOK_IDENT;   /* "%t0": an OpenCL temporary as the printer writes it */
        len = word_end(lx, off + 1) - off;
    } else if (char_class[c] & CC_DIGIT) {
        len = number_length(lx, &tok->kind);
    } else if ((len = punct_length((char)c, s[off + 1], lx->c_mode, &tok->kind)) == 0) {
        return stray_char(lx, err);
    }
    advance_in_line(lx, len);   /* no token holds a line break */
    tok->len = len;
    return true;
}

/* Reads the next token: a word, a decimal number, a one-character token,
 * '|', '=' or '==' after spaces and '\n' here (a path short enough to save
 * few registers); anything else (other blanks, a comment, a hex number,
 * another operator, the end, an error) by next_token. */
bool lexer_next(struct lexer *lx, struct token *tok, struct litmus_error *err)
{
    const char *s = lx->src;
    size_t at = lx->off;
    unsigned char c = (unsigned char)s[at];
    for (;;) {
        if (c == ' ') {
            c = (unsigned char)s[++at];   /* one space is the common case */
            if (c == ' ' && at + 8 <= lx->len) {
                at += leading_spaces(s + at);   /* a run */
                c = (unsigned char)s[at];
            }
        } else if (c == '\n') {
            lx->line++;
            lx->line_start = ++at;
            c = (unsigned char)s[at];
        } else {
            break;
        }
    }
    size_t end;
    if (char_class[c] & CC_ALPHA) {
        tok->kind = TOK_IDENT;
        end = word_end(lx, at + 1);
    } else if ((char_class[c] & CC_DIGIT) && (c != '0' || (s[at + 1] | 0x20) != 'x')) {   /* "0x", "0X": next_token's */
        tok->kind = TOK_NUMBER;
        end = digits_end(lx, at + 1, false);
    } else if (single_kind[c] && (c != '(' || s[at + 1] != '*')) {
        tok->kind = (enum tok_kind)single_kind[c];
        end = at + 1;
    } else if (c == '|' && (!lx->c_mode || s[at + 1] != '|')) {
        tok->kind = TOK_BAR;
        end = at + 1;
    } else if (c == '=') {
        tok->kind = s[at + 1] == '=' ? TOK_EQ : TOK_ASSIGN;
        end = s[at + 1] == '=' ? at + 2 : at + 1;
    } else {
        lx->off = at;
        return next_token(lx, tok, err);
    }
    tok->pos = pos_of(lx, at);
    tok->text = s + at;
    tok->len = end - at;
    lx->off = end;
    return true;
}

/* Reads ".word" that starts right at the current character, as the word's
 * token; false, reading nothing, when none does (or in C mode). */
bool lexer_next_dotted(struct lexer *lx, struct token *word)
{
    size_t at = lx->off;
    if (lx->src[at] != '.' || !is_alpha(lx->src[at + 1]) || lx->c_mode)   /* the NUL after the text is no letter */
        return false;
    size_t end = word_end(lx, at + 2);
    word->kind = TOK_IDENT;
    word->pos = pos_of(lx, at + 1);
    word->text = lx->src + at + 1;
    word->len = end - at - 1;
    advance_in_line(lx, end - at);
    return true;
}

/* Reads the ".word" parts that follow one right after the other from the
 * current character, at most max of them, into words: as many calls of
 * lexer_next_dotted would (inline in this loop).  Returns how many. */
int lexer_next_dotted_run(struct lexer *lx, struct token *words, int max)
{
    int n = 0;
    while (n < max && lexer_next_dotted(lx, &words[n]))
        n++;
    return n;
}

/* The end of the run of word characters and dots from the current
 * character: the dotted parts of a mnemonic, when they are well formed. */
size_t lexer_dotted_end(const struct lexer *lx)
{
    size_t at = lx->off;
    while (has_class(lx->src[at], CC_ALPHA | CC_DIGIT | CC_DOT))   /* the NUL after the text stops it */
        at++;
    return at;
}

/* Moves to byte offset end of the current line. */
void lexer_skip_in_line(struct lexer *lx, size_t end)
{
    advance_in_line(lx, end - lx->off);
}

/* Reads the raw test name that follows the dialect keyword. */
void lexer_read_word(struct lexer *lx, struct token *word)
{
    while (!at_end(lx) && (peek_at(lx, 0) == ' ' || peek_at(lx, 0) == '\t'))
        advance_in_line(lx, 1);
    word->kind = TOK_IDENT;
    word->pos = here(lx);
    word->text = lx->src + lx->off;
    size_t end = lx->off;
    while (end < lx->len && !is_blank(lx->src[end]) && lx->src[end] != '{')
        end++;
    advance_in_line(lx, end - lx->off);
    word->len = (size_t)(lx->src + lx->off - word->text);
}

/* Skips free text up to the next '{': quoted strings and (* comments *)
 * are skipped whole, so a '{' inside them does not count. */
bool lexer_skip_to_lbrace(struct lexer *lx, struct litmus_error *err)
{
    const char *s = lx->src;
    size_t at = lx->off;
    while (at < lx->len) {
        char c = s[at];
        if (c == '{') {
            advance_to(lx, at);
            return true;
        }
        if (c == '"') {
            const char *close = memchr(s + at + 1, '"', lx->len - at - 1);
            if (!close) {
                advance_to(lx, at);
                struct srcpos start = here(lx);
                advance_to(lx, lx->len);
                return lex_error(err, start, "unterminated string");
            }
            at = (size_t)(close - s) + 1;
        } else if (c == '(' && at + 1 < lx->len && s[at + 1] == '*') {
            advance_to(lx, at);
            if (!skip_block(lx, "*)", "unterminated comment '(*'", err))
                return false;
            at = lx->off;
        } else {
            at++;
        }
    }
    advance_to(lx, at);
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
