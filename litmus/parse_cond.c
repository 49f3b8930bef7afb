/* Assertions, and what follows the program: the locations list, the
 * filter and the quantified condition. */
#include "litmus/parse_impl.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Assertions                                                                */

/* Frees a partly built assertion tree. */
static void discard_assertion(struct assertion *a)
{
    assertion_free(a);
}

static struct assertion *new_assertion(struct parser *p, enum assert_kind kind, struct srcpos pos)
{
    struct assertion *a = calloc(1, sizeof *a);
    if (!a) {
        ps_out_of_memory(p);
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
    if (!ps_thread_id_of(p, thread, &id) || !ps_advance(p))
        return false;
    v->kind = AV_REG;
    v->thread = ps_thread_index_at(p, id, thread->pos);
    if (v->thread < 0)
        return false;
    if (p->lit->dialect == DIALECT_OPENCL) {
        if (p->tok.kind != TOK_IDENT)
            return ps_fail_expected(p, "a variable name after ':'");
        v->reg = opencl_condition_register(p, v->thread, &p->tok);
        return v->reg >= 0 && ps_advance(p);
    }
    if (!ps_is_register_name(&p->tok))
        return ps_fail_expected(p, "a register name like r0 after ':'");
    v->reg = ps_names_find(&p->names, register_ns(v->thread), p->tok.text, p->tok.len);
    if (v->reg < 0)
        return ps_fail(p, p->tok.pos, "unknown register P%d:" TOK_FMT " (the thread's code and "
                    "initial state never name it)", id, TOK_ARG(&p->tok));
    return ps_advance(p);
}

/* The index of the location named by t, which the initial state or the
 * program must name; fails at t otherwise. */
static int known_location(struct parser *p, const struct token *t, const char *where)
{
    int loc = ps_names_find(&p->names, NS_LOCATION, t->text, t->len);
    if (loc < 0)
        ps_fail(p, t->pos, "unknown location '" TOK_FMT "'%s (the initial state and the "
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
    if (bracketed && !ps_advance(p))
        return false;
    if (p->tok.kind != TOK_IDENT && (bracketed || p->tok.kind != TOK_NUMBER))
        return ps_fail_expected(p, "a location, register or constant");
    first = p->tok;
    if (!ps_advance(p))
        return false;
    if (!bracketed && p->tok.kind == TOK_COLON)
        return parse_assert_register(p, &first, v);
    if (first.kind == TOK_NUMBER) {
        v->kind = AV_CONST;
        return ps_value_of(p, NULL, &first, &v->value);
    }
    if (ps_is_register_name(&first))
        return ps_fail(p, first.pos, "register '" TOK_FMT "' needs a thread, e.g. P0:" TOK_FMT,
                    TOK_ARG(&first), TOK_ARG(&first));
    v->kind = AV_LOC;
    v->loc = known_location(p, &first, "");
    if (v->loc >= 0 && !bracketed && p->lit->dialect == DIALECT_OPENCL && p->tok.kind == TOK_LBRACKET)
        v->loc = opencl_condition_cell(p, v->loc, &first);
    return v->loc >= 0 && (!bracketed || ps_expect(p, TOK_RBRACKET, "']'"));
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
    default: return ps_fail_expected(p, "a comparison (==, !=, <, <=, > or >=)");
    }
    return ps_advance(p);
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

static struct assertion *parse_disjunction(struct parser *p);

/* Parses "~ x", "not x", "( ... )" or a comparison.  Only these nest
 * (MAX_NESTING); a chain of /\ or \/ is flat at any length. */
static struct assertion *parse_unary(struct parser *p)
{
    struct srcpos pos = p->tok.pos;
    bool negation = p->tok.kind == TOK_TILDE || tok_is(&p->tok, "not");
    struct assertion *inner, *node;
    if (!negation && p->tok.kind != TOK_LPAREN)
        return parse_comparison(p);
    if (++p->nesting > MAX_NESTING) {
        ps_fail(p, pos, "assertion nested too deeply (limit %d)", MAX_NESTING);
        return NULL;
    }
    if (!ps_advance(p))
        return NULL;
    inner = negation ? parse_unary(p) : parse_disjunction(p);
    p->nesting--;
    if (!inner)
        return NULL;
    if (!negation) {
        if (ps_expect(p, TOK_RPAREN, "')'"))
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
    return node;
}

/* Joins lhs and rhs under a new node; frees both on failure. */
static struct assertion *join(struct parser *p, enum assert_kind kind, struct srcpos pos,
                              struct assertion *lhs, struct assertion *rhs)
{
    struct assertion *node = new_assertion(p, kind, pos);
    if (!node) {
        discard_assertion(lhs);
        discard_assertion(rhs);
        return NULL;
    }
    node->lhs = lhs;
    node->rhs = rhs;
    return node;
}

/* Parses the operands of a left-associative binary operator, in a loop: a
 * chain of any length is one level of nesting. */
static struct assertion *parse_binary(struct parser *p, enum tok_kind op, enum assert_kind kind,
                                      struct assertion *(*operand)(struct parser *))
{
    struct assertion *lhs = operand(p);
    while (lhs && p->tok.kind == op) {
        struct srcpos pos = p->tok.pos;
        struct assertion *rhs = ps_advance(p) ? operand(p) : NULL;
        if (!rhs) {
            discard_assertion(lhs);
            return NULL;
        }
        lhs = join(p, kind, pos, lhs, rhs);
    }
    return lhs;
}

static struct assertion *parse_conjunction(struct parser *p)
{
    return parse_binary(p, TOK_AND, A_AND, parse_unary);
}

static struct assertion *parse_disjunction(struct parser *p)
{
    return parse_binary(p, TOK_OR, A_OR, parse_conjunction);
}

/* Parses an assertion and an optional ';' after it. */
static struct assertion *parse_assertion(struct parser *p)
{
    struct assertion *a = parse_disjunction(p);
    if (a && p->tok.kind == TOK_SEMI && !ps_advance(p)) {
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
        return ps_fail_expected(p, "a location, register or ']' in the locations list");
    if (!ps_reserve(p, &l->observed, l->nobserved, &p->observed_cap, sizeof *l->observed) || !ps_advance(p))
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
        return ps_fail(p, first.pos, "expected a location or a register like P0:r1 in the locations list, got '"
                    TOK_FMT "'", TOK_ARG(&first));
    if (ps_is_register_name(&first))
        return ps_fail(p, first.pos, "register '" TOK_FMT "' needs a thread, e.g. P0:" TOK_FMT,
                    TOK_ARG(&first), TOK_ARG(&first));
    v->kind = AV_LOC;
    v->loc = known_location(p, &first, " in the locations list");
    if (v->loc >= 0 && p->lit->dialect == DIALECT_OPENCL && p->tok.kind == TOK_LBRACKET)
        v->loc = opencl_condition_cell(p, v->loc, &first);
    if (v->loc < 0)
        return false;
    l->nobserved++;
    return true;
}

/* Parses "locations [x; P0:r1; ...]" into litmus.observed. */
static bool parse_locations_list(struct parser *p)
{
    if (!ps_advance(p) || !ps_expect(p, TOK_LBRACKET, "'[' after 'locations'"))
        return false;
    p->lit->has_locations = true;
    while (p->tok.kind != TOK_RBRACKET) {
        if (p->tok.kind == TOK_SEMI) {
            if (!ps_advance(p))
                return false;
            continue;
        }
        if (!parse_observed_entry(p))
            return false;
        if (p->tok.kind != TOK_SEMI && p->tok.kind != TOK_RBRACKET)
            return ps_fail_expected(p, "';' or ']' in the locations list");
    }
    return ps_advance(p) && (p->tok.kind != TOK_SEMI || ps_advance(p));
}

/* Parses "exists", "~exists", "not exists" or "forall" and its assertion. */
static bool parse_quantified(struct parser *p)
{
    struct litmus *l = p->lit;
    if (l->quant != Q_NONE)
        return ps_fail(p, p->tok.pos, "more than one final condition");
    if (tok_is(&p->tok, "forall")) {
        l->quant = Q_FORALL;
    } else if (tok_is(&p->tok, "exists")) {
        l->quant = Q_EXISTS;
    } else {
        l->quant = Q_NOT_EXISTS;
        if (!ps_advance(p))
            return false;
        if (!tok_is(&p->tok, "exists"))
            return ps_fail_expected(p, "'exists' after negation");
    }
    if (!ps_advance(p))
        return false;
    l->assertion = parse_assertion(p);
    return l->assertion != NULL;
}

/* Parses "filter <assertion>". */
static bool parse_filter(struct parser *p)
{
    if (p->lit->filter)
        return ps_fail(p, p->tok.pos, "more than one filter");
    if (!ps_advance(p))
        return false;
    p->lit->filter = parse_assertion(p);
    return p->lit->filter != NULL;
}

/* Parses everything after the instruction rows up to the end of input. */
bool parse_tail(struct parser *p)
{
    bool seen_locations = false;
    while (p->tok.kind != TOK_EOF) {
        if (tok_is(&p->tok, "locations")) {
            if (seen_locations)
                return ps_fail(p, p->tok.pos, "more than one locations list");
            seen_locations = true;
            if (!parse_locations_list(p))
                return false;
        } else if (tok_is(&p->tok, "filter")) {
            if (!parse_filter(p))
                return false;
        } else if (tok_is(&p->tok, "final")) {
            return ps_fail(p, p->tok.pos, "'final ... with' conditions are not supported");
        } else if (p->tok.kind == TOK_TILDE || tok_is(&p->tok, "not") || tok_is(&p->tok, "exists")
                   || tok_is(&p->tok, "forall")) {
            if (!parse_quantified(p))
                return false;
        } else {
            return ps_fail_expected(p, "'exists', 'forall', 'filter' or end of input");
        }
    }
    return true;
}
