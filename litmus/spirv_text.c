/* Reading SPIR-V assembly as spirv-dis writes it: one instruction a line,
 * "%id = OpName operands", comments after ';', and Dat3M's header comments
 * ("; @Input:", "; @Output:", "; @Filter:", "; @Config:").  Every operand
 * is checked against the grammar's operand kinds. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/spirv_impl.h"
#include "util/xalloc.h"

#define MAX_COND_DEPTH 200

/* Fills err with a message at pos; returns false. */
bool spv_fail(struct litmus_error *err, struct srcpos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->pos = pos;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return false;
}

/* True when the instruction is the grammar's opname. */
bool spv_is(const struct spv_inst *in, const char *opname)
{
    return !strcmp(in->op->name, opname);
}

/* A cursor over one line. */
struct cur {
    const char *s, *end;
    int line;
    const char *line_start;
    struct litmus_error *err;
};

static struct srcpos cpos(const struct cur *c)
{
    return (struct srcpos){ c->line, (int)(c->s - c->line_start) + 1 };
}

static void skip_ws(struct cur *c)
{
    while (c->s < c->end && (*c->s == ' ' || *c->s == '\t' || *c->s == '\r'))
        c->s++;
}

static bool is_name_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '-';
}

/* The index of id name (len bytes), added when new. */
static int id_index(struct spv_module *m, const char *name, int len, struct srcpos pos)
{
    for (int i = 0; i < m->nids; i++)
        if ((int)strlen(m->id_names[i]) == len && !memcmp(m->id_names[i], name, (size_t)len))
            return i;
    if (m->nids == m->cap_ids) {
        int cap = m->cap_ids;
        XGROW(m->id_names, cap, m->nids + 1);
        cap = m->cap_ids;
        XGROW(m->id_def, cap, m->nids + 1);
        XGROW(m->id_use, m->cap_ids, m->nids + 1);
    }
    m->id_names[m->nids] = xcalloc((size_t)len + 1, 1);
    memcpy(m->id_names[m->nids], name, (size_t)len);
    m->id_def[m->nids] = -1;
    m->id_use[m->nids] = pos;
    return m->nids++;
}

/* Reads a number (decimal, hex, negative, or a float) at c; false if none. */
static bool read_number(struct cur *c, struct spv_arg *a)
{
    const char *p = c->s;
    if (p < c->end && (*p == '-' || *p == '+'))
        p++;
    if (p >= c->end || !isdigit((unsigned char)*p))
        return false;
    const char *q = p;
    while (q < c->end && (isalnum((unsigned char)*q) || *q == '.' || *q == 'x' || *q == 'X'
                          || ((*q == '-' || *q == '+') && (q[-1] == 'e' || q[-1] == 'E' || q[-1] == 'p'))))
        q++;
    char buf[64];
    size_t n = (size_t)(q - c->s);
    if (n >= sizeof buf)
        return spv_fail(c->err, cpos(c), "number too long");
    memcpy(buf, c->s, n);
    buf[n] = '\0';
    char *stop;
    errno = 0;
    if (strpbrk(buf, ".pP") || (!strpbrk(buf, "xX") && strpbrk(buf, "eE"))) {
        strtod(buf, &stop);
        a->is_float = true;
        a->num = 0;
    } else if (buf[0] == '-') {
        a->num = strtoll(buf, &stop, 0);
    } else {
        a->num = (int64_t)strtoull(buf[0] == '+' ? buf + 1 : buf, &stop, 0);
    }
    if (*stop || errno)
        return spv_fail(c->err, cpos(c), "malformed number '%s'", buf);
    a->tk = TK_NUM;
    a->s = c->s;
    a->len = (int)n;
    c->s = q;
    return true;
}

/* Reads one token of an instruction line into a; false with err on a bad one. */
static bool read_token(struct spv_module *m, struct cur *c, struct spv_arg *a)
{
    memset(a, 0, sizeof *a);
    a->pos = cpos(c);
    a->id = -1;
    char ch = *c->s;
    if (ch == '%') {
        const char *p = ++c->s;
        while (c->s < c->end && is_name_char(*c->s))
            c->s++;
        if (c->s == p)
            return spv_fail(c->err, a->pos, "'%%' without an id name");
        a->tk = TK_ID;
        a->s = p;
        a->len = (int)(c->s - p);
        a->id = id_index(m, p, a->len, a->pos);
        return true;
    }
    if (ch == '"') {
        const char *p = ++c->s;
        while (c->s < c->end && *c->s != '"') {
            if (*c->s == '\\' && c->s + 1 < c->end)
                c->s++;
            c->s++;
        }
        if (c->s >= c->end)
            return spv_fail(c->err, a->pos, "string without its closing '\"'");
        a->tk = TK_STR;
        a->s = p;
        a->len = (int)(c->s - p);
        c->s++;
        return true;
    }
    if (isdigit((unsigned char)ch) || ch == '-' || ch == '+')
        return read_number(c, a) || (c->err->msg[0] ? false
                                    : spv_fail(c->err, a->pos, "unexpected character '%c'", ch));
    if (isalpha((unsigned char)ch) || ch == '_') {
        const char *p = c->s;
        while (c->s < c->end && (is_name_char(*c->s) || *c->s == '|'))
            c->s++;
        a->tk = TK_WORD;
        a->s = p;
        a->len = (int)(c->s - p);
        return true;
    }
    return spv_fail(c->err, a->pos, "unexpected character '%c'", ch);
}

/* ------------------------------------------------------------------------ */
/* Operands against the grammar                                              */

struct matcher {
    struct spv_module *m;
    struct spv_inst *in;
    struct spv_arg *t;     /* the tokens after the opcode */
    int n, i;
    struct srcpos end;     /* where a missing operand would be */
    struct litmus_error *err;
};

static bool match_kind(struct matcher *x, const char *kind);

static const char *tk_name(enum spv_tk tk)
{
    return tk == TK_ID ? "an id" : tk == TK_NUM ? "a number" : tk == TK_STR ? "a string" : "a word";
}

/* Matches the next token as token kind want for the operand kind. */
static bool want(struct matcher *x, const char *kind, enum spv_tk want1, int want2)
{
    if (x->i >= x->n)
        return spv_fail(x->err, x->end, "%s is truncated: operand %s is missing", x->in->op->name, kind);
    struct spv_arg *a = &x->t[x->i];
    if (a->tk != want1 && (int)a->tk != want2)
        return spv_fail(x->err, a->pos, "%s: operand %s must be %s, not %s", x->in->op->name, kind,
                        tk_name(want1), tk_name(a->tk));
    a->kind = kind;
    x->i++;
    return true;
}

/* Matches a value or bit enumerant (a word, "A|B" for bits, or a number). */
static bool match_enum(struct matcher *x, const struct spv_kinddesc *k)
{
    if (x->i >= x->n)
        return spv_fail(x->err, x->end, "%s is truncated: operand %s is missing", x->in->op->name, k->kind);
    struct spv_arg *a = &x->t[x->i];
    const struct spv_enumerant *set[32];
    int nset = 0;
    a->kind = k->kind;
    if (a->tk == TK_NUM && !a->is_float) {
        for (int e = 0; e < k->n; e++) {
            uint32_t v = k->enums[e].value;
            bool hit = k->cat == SPV_CAT_VALUE_ENUM ? v == (uint32_t)a->num
                     : v && (v & (uint32_t)a->num) == v;
            if (hit && nset < 32)
                set[nset++] = &k->enums[e];
        }
    } else if (a->tk == TK_WORD) {
        const char *p = a->s, *end = a->s + a->len;
        a->num = 0;
        while (p <= end) {
            const char *bar = memchr(p, '|', (size_t)(end - p));
            const char *stop = bar ? bar : end;
            const struct spv_enumerant *e = spv_grammar_enumerant(k, p, (size_t)(stop - p));
            if (!e && !bar && !strcmp(k->kind, "SourceLanguage")) {
                /* debug information only: a language newer than the installed grammar */
                p = stop + 1;
                continue;
            }
            if (!e || (bar && k->cat != SPV_CAT_BIT_ENUM))
                return spv_fail(x->err, a->pos, "%s: '%.*s' is not a %s", x->in->op->name,
                                (int)(stop - p), p, k->kind);
            a->num |= e->value;
            if (nset < 32)
                set[nset++] = e;
            p = stop + 1;
        }
    } else {
        return spv_fail(x->err, a->pos, "%s: operand %s must be a name, not %s", x->in->op->name, k->kind,
                        tk_name(a->tk));
    }
    x->i++;
    /* parameters follow in the order of the enumerants' values */
    for (int s = 1; s < nset; s++)
        for (int r = s; r > 0 && set[r]->value < set[r - 1]->value; r--) {
            const struct spv_enumerant *tmp = set[r];
            set[r] = set[r - 1];
            set[r - 1] = tmp;
        }
    for (int s = 0; s < nset; s++)
        for (int p = 0; p < set[s]->nparams; p++)
            if (!match_kind(x, set[s]->params[p]))
                return false;
    return true;
}

static bool match_kind(struct matcher *x, const char *kind)
{
    const struct spv_kinddesc *k = spv_grammar_kind(x->m->g, kind);
    if (!k)
        return spv_fail(x->err, x->in->pos, "%s: the grammar has no operand kind %s", x->in->op->name, kind);
    switch (k->cat) {
    case SPV_CAT_ID:
        return want(x, kind, TK_ID, -1);
    case SPV_CAT_LITERAL:
        if (!strcmp(kind, "LiteralString"))
            return want(x, kind, TK_STR, -1);
        if (!strcmp(kind, "LiteralExtInstInteger") || !strcmp(kind, "LiteralSpecConstantOpInteger"))
            return want(x, kind, TK_WORD, TK_NUM);
        return want(x, kind, TK_NUM, -1);
    case SPV_CAT_COMPOSITE:
        for (int b = 0; b < k->n; b++)
            if (!match_kind(x, k->bases[b]))
                return false;
        return true;
    case SPV_CAT_VALUE_ENUM:
    case SPV_CAT_BIT_ENUM:
        return match_enum(x, k);
    }
    return false;
}

/* Checks the operands of in (tokens t[0..n)) against its grammar entry. */
static bool match_operands(struct spv_module *m, struct spv_inst *in, bool has_result, struct srcpos end,
                           struct litmus_error *err)
{
    struct matcher x = { m, in, in->args, in->nargs, 0, end, err };
    bool wants_result = false;
    for (int o = 0; o < in->op->nops; o++) {
        const struct spv_operand *od = &in->op->ops[o];
        if (!strcmp(od->kind, "IdResult")) {
            wants_result = true;
            continue;
        }
        if (od->quant == '*') {
            while (x.i < x.n)
                if (!match_kind(&x, od->kind))
                    return false;
        } else if (od->quant != '?' || x.i < x.n) {
            if (!match_kind(&x, od->kind))
                return false;
        }
    }
    if (x.i < x.n)
        return spv_fail(err, x.t[x.i].pos, "%s: unexpected operand '%.*s'", in->op->name,
                        x.t[x.i].len, x.t[x.i].s);
    if (wants_result && !has_result)
        return spv_fail(err, in->pos, "%s needs a result id ('%%id = %s ...')", in->op->name, in->op->name);
    if (!wants_result && has_result)
        return spv_fail(err, in->pos, "%s has no result id", in->op->name);
    if (in->op->nops > 0 && !strcmp(in->op->ops[0].kind, "IdResultType")) {
        in->rtype = in->args[0].id;
        in->args++;
        in->nargs--;
    }
    return true;
}

/* Reads the instruction on the line at c. */
static bool read_instruction(struct spv_module *m, struct cur *c)
{
    struct spv_arg toks[512];
    int n = 0;
    while (1) {
        skip_ws(c);
        if (c->s >= c->end || *c->s == ';')
            break;
        if (n == (int)(sizeof toks / sizeof *toks))
            return spv_fail(c->err, cpos(c), "too many operands on one line");
        if (*c->s == '=') {
            toks[n++] = (struct spv_arg){ .tk = TK_WORD, .s = c->s, .len = 1, .pos = cpos(c), .id = -1 };
            c->s++;
            continue;
        }
        if (!read_token(m, c, &toks[n++]))
            return false;
    }
    if (n == 0)
        return true;
    int at = 0, result = -1;
    if (n >= 2 && toks[0].tk == TK_ID && toks[1].tk == TK_WORD && toks[1].len == 1 && toks[1].s[0] == '=') {
        result = toks[0].id;
        at = 2;
    }
    if (at >= n || toks[at].tk != TK_WORD || toks[at].len < 3 || strncmp(toks[at].s, "Op", 2))
        return spv_fail(c->err, toks[at < n ? at : n - 1].pos, "expected an instruction ('OpName ...')");
    const struct spv_opdesc *op = spv_grammar_op(m->g, toks[at].s, (size_t)toks[at].len);
    if (!op)
        return spv_fail(c->err, toks[at].pos, "unknown opcode '%.*s'", toks[at].len, toks[at].s);
    for (int i = at + 1; i < n; i++)
        if (toks[i].tk == TK_WORD && toks[i].len == 1 && toks[i].s[0] == '=')
            return spv_fail(c->err, toks[i].pos, "unexpected '='");
    XGROW(m->inst, m->cap_inst, m->ninst + 1);
    struct spv_inst *in = &m->inst[m->ninst];
    memset(in, 0, sizeof *in);
    in->op = op;
    in->pos = toks[0].pos;
    in->result = result;
    in->rtype = -1;
    in->nargs = n - at - 1;
    in->args = xcalloc((size_t)in->nargs + 1, sizeof *in->args);
    memcpy(in->args, toks + at + 1, (size_t)in->nargs * sizeof *toks);
    struct spv_arg *base = in->args;
    bool ok = match_operands(m, in, result >= 0, cpos(c), c->err);
    if (!ok) {
        free(base);
        return false;
    }
    if (in->args != base) {           /* keep the allocation's start for free() */
        memmove(base, in->args, (size_t)in->nargs * sizeof *base);
        in->args = base;
    }
    m->ninst++;
    if (result >= 0) {
        if (m->id_def[result] >= 0)
            return spv_fail(c->err, toks[0].pos, "%%%s is defined twice (first at line %d)",
                            m->id_names[result], m->inst[m->id_def[result]].pos.line);
        m->id_def[result] = m->ninst - 1;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Header comments                                                           */

static bool hdr_eat(struct cur *c, const char *s)
{
    skip_ws(c);
    size_t n = strlen(s);
    if ((size_t)(c->end - c->s) >= n && !memcmp(c->s, s, n)) {
        c->s += n;
        return true;
    }
    return false;
}

static bool hdr_expect(struct cur *c, const char *s)
{
    if (hdr_eat(c, s))
        return true;
    return spv_fail(c->err, cpos(c), "expected '%s'", s);
}

static bool hdr_word(struct cur *c, const char *w)
{
    skip_ws(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->s) >= n && !memcmp(c->s, w, n)
        && (c->s + n == c->end || !is_name_char(c->s[n]))) {
        c->s += n;
        return true;
    }
    return false;
}

static bool hdr_int(struct cur *c, int64_t *v, bool allow_negative)
{
    skip_ws(c);
    struct spv_arg a;
    memset(&a, 0, sizeof a);
    struct srcpos at = cpos(c);
    if (c->s >= c->end || (!isdigit((unsigned char)*c->s) && !(allow_negative && *c->s == '-')))
        return spv_fail(c->err, at, "expected %s", allow_negative ? "an integer" : "a non-negative integer");
    if (!read_number(c, &a))
        return c->err->msg[0] ? false : spv_fail(c->err, at, "expected an integer");
    if (a.is_float)
        return spv_fail(c->err, at, "expected an integer, not a float");
    *v = a.num;
    return true;
}

static bool hdr_id(struct spv_module *m, struct cur *c, int *id, struct srcpos *pos)
{
    skip_ws(c);
    *pos = cpos(c);
    struct spv_arg a;
    if (c->s >= c->end || *c->s != '%')
        return spv_fail(c->err, *pos, "expected a variable ('%%id')");
    if (!read_token(m, c, &a))
        return false;
    *id = a.id;
    return true;
}

static bool hdr_init(struct cur *c, struct spv_init *v, int depth)
{
    skip_ws(c);
    memset(v, 0, sizeof *v);
    v->pos = cpos(c);
    if (depth > 32)
        return spv_fail(c->err, v->pos, "initial value nested too deeply");
    if (!hdr_eat(c, "{"))
        return hdr_int(c, &v->value, true);
    v->is_list = true;
    int cap = 0;
    do {
        XGROW(v->el, cap, v->n + 1);
        if (!hdr_init(c, &v->el[v->n++], depth + 1))
            return false;
    } while (hdr_eat(c, ","));
    return hdr_expect(c, "}");
}

static bool hdr_input(struct spv_module *m, struct cur *c)
{
    do {
        XGROW(m->inputs, m->cap_inputs, m->ninputs + 1);
        struct spv_input *in = &m->inputs[m->ninputs];
        memset(in, 0, sizeof *in);
        m->ninputs++;
        if (!hdr_id(m, c, &in->id, &in->pos) || !hdr_expect(c, "=") || !hdr_init(c, &in->value, 0))
            return false;
        for (int i = 0; i + 1 < m->ninputs; i++)
            if (m->inputs[i].id == in->id)
                return spv_fail(c->err, in->pos, "a second @Input for %%%s", m->id_names[in->id]);
    } while (hdr_eat(c, ","));
    return true;
}

static bool hdr_value(struct spv_module *m, struct cur *c, struct spv_hval *v)
{
    skip_ws(c);
    memset(v, 0, sizeof *v);
    v->pos = cpos(c);
    if (c->s < c->end && *c->s != '%') {
        v->is_const = true;
        return hdr_int(c, &v->value, true);
    }
    struct srcpos pos;
    if (!hdr_id(m, c, &v->id, &pos))
        return false;
    while (hdr_eat(c, "[")) {
        if (v->npath == 8)
            return spv_fail(c->err, cpos(c), "too many indices");
        if (!hdr_int(c, &v->path[v->npath++], false) || !hdr_expect(c, "]"))
            return false;
    }
    return true;
}

static bool hdr_or(struct spv_module *m, struct cur *c, struct spv_hcond **out, int depth);

static struct spv_hcond *new_cond(enum assert_kind k, struct srcpos pos)
{
    struct spv_hcond *h = xcalloc(1, sizeof *h);
    h->kind = k;
    h->pos = pos;
    return h;
}

static bool hdr_atom(struct spv_module *m, struct cur *c, struct spv_hcond **out, int depth)
{
    skip_ws(c);
    struct srcpos pos = cpos(c);
    if (depth > MAX_COND_DEPTH)
        return spv_fail(c->err, pos, "condition nested too deeply");
    if (hdr_eat(c, "(")) {
        if (!hdr_or(m, c, out, depth + 1))
            return false;
        return hdr_expect(c, ")");
    }
    if (hdr_word(c, "not")) {
        *out = new_cond(A_NOT, pos);
        return hdr_atom(m, c, &(*out)->lhs, depth + 1);
    }
    struct spv_hcond *h = *out = new_cond(A_CMP, pos);
    if (!hdr_value(m, c, &h->a))
        return false;
    static const struct { const char *s; enum cmpop op; } ops[] = {
        { "==", CMP_EQ }, { "!=", CMP_NE }, { "<=", CMP_LE }, { ">=", CMP_GE }, { "<", CMP_LT }, { ">", CMP_GT }
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (hdr_eat(c, ops[i].s)) {
            h->cmp = ops[i].op;
            return hdr_value(m, c, &h->b);
        }
    return spv_fail(c->err, cpos(c), "expected a comparison (==, !=, <, <=, >, >=)");
}

static bool hdr_and(struct spv_module *m, struct cur *c, struct spv_hcond **out, int depth)
{
    if (!hdr_atom(m, c, out, depth))
        return false;
    while (1) {
        skip_ws(c);
        struct srcpos pos = cpos(c);
        if (!hdr_word(c, "and"))
            return true;
        struct spv_hcond *h = new_cond(A_AND, pos);
        h->lhs = *out;
        *out = h;
        if (!hdr_atom(m, c, &h->rhs, depth + 1))
            return false;
    }
}

static bool hdr_or(struct spv_module *m, struct cur *c, struct spv_hcond **out, int depth)
{
    if (!hdr_and(m, c, out, depth))
        return false;
    while (1) {
        skip_ws(c);
        struct srcpos pos = cpos(c);
        if (!hdr_word(c, "or"))
            return true;
        struct spv_hcond *h = new_cond(A_OR, pos);
        h->lhs = *out;
        *out = h;
        if (!hdr_and(m, c, &h->rhs, depth + 1))
            return false;
    }
}

/* Reads an @Output; several lines combine as Dat3M does: forall lines by
 * "and", not-exists lines by "or", other repetitions are refused. */
static bool hdr_output(struct spv_module *m, struct cur *c, struct srcpos pos)
{
    enum quantifier q;
    struct srcpos qpos = (skip_ws(c), cpos(c));
    if (hdr_word(c, "exists"))
        q = Q_EXISTS;
    else if (hdr_word(c, "forall"))
        q = Q_FORALL;
    else if (hdr_word(c, "not") && hdr_word(c, "exists"))
        q = Q_NOT_EXISTS;
    else
        return spv_fail(c->err, cpos(c), "expected 'exists', 'not exists' or 'forall'");
    if (m->quant != Q_NONE && m->quant != q)
        return spv_fail(c->err, qpos, "@Output lines with different quantifiers");
    if (m->quant == Q_EXISTS)
        return spv_fail(c->err, pos, "a second @Output with 'exists' (only forall and not exists lines combine)");
    struct spv_hcond *h = NULL;
    bool ok = hdr_or(m, c, &h, 0);
    if (m->quant == Q_NONE) {
        m->output = h;
        m->output_pos = pos;
    } else {
        struct spv_hcond *j = new_cond(q == Q_FORALL ? A_AND : A_OR, pos);
        j->lhs = m->output;
        j->rhs = h;
        m->output = j;
    }
    m->quant = q;
    if (!ok)
        return false;
    hdr_eat(c, ",");
    return true;
}

static bool hdr_config(struct spv_module *m, struct cur *c, struct srcpos pos)
{
    if (m->has_config)
        return spv_fail(c->err, pos, "a second @Config");
    m->has_config = true;
    m->config_pos = pos;
    for (int i = 0; i < 3; i++) {
        int64_t v;
        if (i && !hdr_expect(c, ","))
            return false;
        struct srcpos at = (skip_ws(c), cpos(c));
        if (!hdr_int(c, &v, false))
            return false;
        if (v < 1 || v > 1024)
            return spv_fail(c->err, at, "a grid dimension must be from 1 to 1024");
        m->config[i] = (int)v;
    }
    return true;
}

/* Reads a "; @Kind: ..." header at c (just after the '@'). */
static bool read_header(struct spv_module *m, struct cur *c)
{
    struct srcpos pos = cpos(c);
    bool ok;
    if (hdr_word(c, "Input") && hdr_expect(c, ":"))
        ok = hdr_input(m, c);
    else if (c->err->msg[0])
        return false;
    else if (hdr_word(c, "Output") && hdr_expect(c, ":"))
        ok = hdr_output(m, c, pos);
    else if (c->err->msg[0])
        return false;
    else if (hdr_word(c, "Filter") && hdr_expect(c, ":")) {
        if (m->filter)
            return spv_fail(c->err, pos, "a second @Filter");
        ok = hdr_or(m, c, &m->filter, 0);
    } else if (c->err->msg[0])
        return false;
    else if (hdr_word(c, "Config") && hdr_expect(c, ":"))
        ok = hdr_config(m, c, pos);
    else
        return c->err->msg[0] ? false : true;    /* other @ comments: Dat3M skips them */
    skip_ws(c);
    if (ok && c->s < c->end)
        return spv_fail(c->err, cpos(c), "unexpected text at the end of the header");
    return ok;
}

/* Reads the assembly text and headers into m. */
bool spv_read_module(struct spv_module *m, const char *text, struct litmus_error *err)
{
    const char *s = text;
    int line = 1;
    while (*s) {
        const char *eol = strchr(s, '\n');
        if (!eol)
            eol = s + strlen(s);
        struct cur c = { s, eol, line, s, err };
        skip_ws(&c);
        if (c.s < c.end && *c.s == ';') {
            c.s++;
            skip_ws(&c);
            if (c.s < c.end && *c.s == '@') {
                c.s++;
                if (!read_header(m, &c))
                    return false;
            }
        } else if (!read_instruction(m, &c)) {
            return false;
        }
        m->end = (struct srcpos){ line, (int)(eol - s) + 1 };
        s = *eol ? eol + 1 : eol;
        line++;
    }
    /* every id an instruction uses must be defined somewhere, but for the
       names, decorations and interfaces that only annotate, and the operands
       of non-semantic extended instructions (which Dat3M ignores too) */
    for (int k = 0; k < m->ninst; k++) {
        const struct spv_inst *in = &m->inst[k];
        bool annotation = spv_is(in, "OpName") || spv_is(in, "OpMemberName") || !strncmp(in->op->name, "OpDecorate", 10)
                          || !strncmp(in->op->name, "OpMemberDecorate", 16) || spv_is(in, "OpEntryPoint");
        if (spv_is(in, "OpExtInst") && in->nargs > 0 && in->args[0].id >= 0 && m->id_def[in->args[0].id] >= 0) {
            const struct spv_inst *set = &m->inst[m->id_def[in->args[0].id]];
            annotation = set->nargs > 0 && set->args[0].len >= 12 && !strncmp(set->args[0].s, "NonSemantic.", 12);
        }
        for (int a = 0; a < in->nargs && !annotation; a++)
            if (in->args[a].tk == TK_ID && m->id_def[in->args[a].id] < 0)
                return spv_fail(err, in->args[a].pos, "%%%s is used but never defined", m->id_names[in->args[a].id]);
        if (in->rtype >= 0 && m->id_def[in->rtype] < 0)
            return spv_fail(err, in->pos, "%%%s is used but never defined", m->id_names[in->rtype]);
    }

    if (m->ninst == 0)
        return spv_fail(err, m->end, "no SPIR-V instructions");
    return true;
}

static void free_cond(struct spv_hcond *h)
{
    if (!h)
        return;
    free_cond(h->lhs);
    free_cond(h->rhs);
    free(h);
}

static void free_init(struct spv_init *v)
{
    for (int i = 0; i < v->n; i++)
        free_init(&v->el[i]);
    free(v->el);
}

/* Frees what spv_read_module allocated. */
void spv_free_module(struct spv_module *m)
{
    for (int i = 0; i < m->nids; i++)
        free(m->id_names[i]);
    free(m->id_names);
    free(m->id_def);
    free(m->id_use);
    for (int i = 0; i < m->ninst; i++)
        free(m->inst[i].args);
    free(m->inst);
    for (int i = 0; i < m->ninputs; i++)
        free_init(&m->inputs[i].value);
    free(m->inputs);
    free_cond(m->output);
    free_cond(m->filter);
}
