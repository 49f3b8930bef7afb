/* The OpenCL litmus dialect as Dat3M writes it: an initial state of
 * locations, then threads "P0@wg 0, dev 0 (global atomic_int* x, ...) {
 * C statements }", then a herd condition.  A location's address spaces and
 * its non-atomicity come from the parameters that name it; statements are
 * lowered to the AST's instructions (opencl_expr.c for expressions). */
#include "litmus/opencl_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Initial state                                                             */

/* Skips type words and '*'s. */
static bool skip_type(struct parser *p)
{
    while (cl_at_type(p) || p->tok.kind == TOK_STAR)
        if (!ps_advance(p))
            return false;
    return true;
}

/* Parses "[n] [= {v, ...}]" of an array declaration once its name is
 * consumed: cell 0 is the location of the array's name, cell k the
 * location "name+k" (what "name + k" addresses), each initialised to its
 * value (0 when none is given). */
static bool array_init(struct parser *p, const struct token *name)
{
    int n = 0;
    struct srcpos at = p->tok.pos;
    if (!ps_advance(p) || !parse_small_number(p, "array size", &n) || !ps_expect(p, TOK_RBRACKET, "']'"))
        return false;
    if (n < 1 || n > MAX_ARRAY)
        return ps_fail(p, at, "array size %d out of range (1 to %d)", n, MAX_ARRAY);
    if (name->len > MAX_NAME)
        return ps_fail(p, name->pos, "array name longer than %d characters", MAX_NAME);
    char cell[MAX_NAME + 16];
    int len = (int)name->len, k = 0;
    for (int i = 0; i < n; i++) {
        int clen = i == 0 ? snprintf(cell, sizeof cell, "%.*s", len, name->text)
                          : snprintf(cell, sizeof cell, "%.*s+%d", len, name->text, i);
        if (ps_location_index(p, cell, (size_t)clen) < 0)
            return false;
    }
    if (p->tok.kind != TOK_ASSIGN)
        return true;
    if (!ps_advance(p) || !ps_expect(p, TOK_LBRACE, "'{' to open the array's values"))
        return false;
    while (p->tok.kind != TOK_RBRACE) {
        int64_t value;
        if (k == n)
            return ps_fail(p, p->tok.pos, "more values than the array's %d cells", n);
        if (k > 0 && !ps_expect(p, TOK_COMMA, "',' or '}' in the array's values"))
            return false;
        if (!parse_constant(p, &value))
            return false;
        int clen = k == 0 ? snprintf(cell, sizeof cell, "%.*s", len, name->text)
                          : snprintf(cell, sizeof cell, "%.*s+%d", len, name->text, k);
        p->lit->locs[ps_names_find(&p->names, NS_LOCATION, cell, (size_t)clen)].init = value;
        k++;
    }
    return ps_advance(p);
}

/* Parses "[x] = 1", "x = 1" or "int x = 1" (a register "0:r = 1" too). */
static bool init_item(struct parser *p)
{
    if (!skip_type(p))
        return false;
    if (p->tok.kind == TOK_NUMBER || (p->tok.kind == TOK_IDENT && tok_is(&p->tok, "P")))
        return parse_init_item(p);
    bool bracketed = p->tok.kind == TOK_LBRACKET;
    if (bracketed && !ps_advance(p))
        return false;
    if (p->tok.kind != TOK_IDENT)
        return ps_fail_expected(p, "a location in the initial state");
    struct token name = p->tok;
    if (!ps_advance(p) || (bracketed && !ps_expect(p, TOK_RBRACKET, "']'")))
        return false;
    if (p->tok.kind == TOK_COLON) {
        if (bracketed)
            return ps_fail_expected(p, "'=' after the location");
        return ps_fail(p, name.pos, "register initialisations in the initial state need a thread number, e.g. 0:r0=1");
    }
    if (p->tok.kind == TOK_LBRACKET) {
        if (bracketed)
            return ps_fail_expected(p, "'=' after the location");
        return array_init(p, &name);
    }
    int loc = ps_location_index(p, name.text, name.len);
    if (loc < 0)
        return false;
    if (p->tok.kind != TOK_ASSIGN)
        return true;              /* declared without a value: 0 */
    if (!ps_advance(p))
        return false;
    int64_t value;
    if (!parse_constant(p, &value))
        return false;
    p->lit->locs[loc].init = value;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Statements                                                                */

static bool statement(struct cl_ctx *cx);

/* Parses "{ statement* }". */
static bool block(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    if (!ps_expect(p, TOK_LBRACE, "'{'"))
        return false;
    while (p->tok.kind != TOK_RBRACE) {
        if (p->tok.kind == TOK_EOF)
            return ps_fail_expected(p, "'}'");
        if (!statement(cx))
            return false;
    }
    return ps_advance(p);
}

/* Parses "(condition)" and emits "if condition == 0 goto label". */
static bool condition_unless(struct cl_ctx *cx, int label)
{
    struct parser *p = cx->p;
    struct token first = p->tok;
    struct operand c;
    if (!ps_expect(p, TOK_LPAREN, "'('") || !cl_expression(cx, -1, &c) || !ps_expect(p, TOK_RPAREN, "')'"))
        return false;
    return cl_emit_branch(cx, CMP_EQ, c, cl_const(0), label, &first);
}

/* ------------------------------------------------------------------------ */
/* Labels and jumps (what the printer writes)                                */

/* The label named by the current token, recorded as used there; its
 * index within the thread, -1 on error. */
static int label_use(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    if (p->tok.kind != TOK_IDENT)
        return ps_fail_expected(p, "a label"), -1;
    int info = ps_label_info_index(p, cx->thread, &p->tok);
    if (info < 0)
        return -1;
    if (!p->labels[info].used) {
        p->labels[info].used = true;
        p->labels[info].use_pos = p->tok.pos;
    }
    return ps_advance(p) ? p->labels[info].local : -1;
}

/* "goto L;" */
static bool goto_statement(struct cl_ctx *cx)
{
    struct token first = cx->p->tok;
    int label;
    return ps_advance(cx->p) && (label = label_use(cx)) >= 0 && cl_emit_goto(cx, label, &first)
        && ps_expect(cx->p, TOK_SEMI, "';' after the goto");
}

/* "L:" (a statement follows it as in C). */
static bool label_statement(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    struct token name = p->tok;
    int info = ps_label_info_index(p, cx->thread, &name);
    if (info < 0)
        return false;
    struct label_info *li = &p->labels[info];
    if (li->defined)
        return ps_fail(p, name.pos, "duplicate label '" TOK_FMT "'", TOK_ARG(&name));
    li->defined = true;
    li->def_pos = name.pos;
    return ps_advance(p) && ps_advance(p) && cl_emit_label(cx, li->local, &name);
}

/* "__label__ L0, L1;" (GNU C's local labels): declares the labels in this
 * order, which fixes their indices. */
static bool label_declaration(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    do {
        if (!ps_advance(p))
            return false;
        if (p->tok.kind != TOK_IDENT)
            return ps_fail_expected(p, "a label name");
        if (ps_label_info_index(p, cx->thread, &p->tok) < 0 || !ps_advance(p))
            return false;
    } while (p->tok.kind == TOK_COMMA);
    return ps_expect(p, TOK_SEMI, "';' after the labels");
}

/* Fails at the first use of a label of the thread that it never defines. */
static bool check_labels(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    for (int i = 0; i < p->nlabels; i++) {
        const struct label_info *li = &p->labels[i];
        if (li->thread == cx->thread && li->used && !li->defined)
            return ps_fail(p, li->use_pos, "undefined label '%s'",
                           p->lit->threads[cx->thread].label_names[li->local]);
    }
    return true;
}

/* True when "(a cmp b) goto" follows: a, b registers or constants. */
static bool at_branch(const struct parser *p)
{
    struct cl_peek k;
    cl_peek_start(p, &k);
    if (k.tok.kind != TOK_LPAREN || !cl_peek_next(&k) || !cl_peek_simple(&k))
        return false;
    enum tok_kind c = k.tok.kind;
    if (c != TOK_EQ && c != TOK_NE && c != TOK_LT && c != TOK_LE && c != TOK_GT && c != TOK_GE)
        return false;
    return cl_peek_next(&k) && cl_peek_simple(&k) && k.tok.kind == TOK_RPAREN && cl_peek_next(&k)
        && tok_is(&k.tok, "goto");
}

/* "if (a cmp b) goto L;" once 'if' is consumed: one branch. */
static bool branch_statement(struct cl_ctx *cx, const struct token *first)
{
    static const struct { enum tok_kind tok; enum cmpop cmp; } cmps[] = {
        { TOK_EQ, CMP_EQ }, { TOK_NE, CMP_NE }, { TOK_LT, CMP_LT }, { TOK_LE, CMP_LE }, { TOK_GT, CMP_GT },
        { TOK_GE, CMP_GE } };
    struct parser *p = cx->p;
    struct operand a, b;
    enum cmpop cmp = CMP_EQ;
    if (!ps_advance(p) || !cl_simple(cx, &a))
        return false;
    for (size_t i = 0; i < sizeof cmps / sizeof *cmps; i++)
        if (p->tok.kind == cmps[i].tok)
            cmp = cmps[i].cmp;
    int label;
    return ps_advance(p) && cl_simple(cx, &b) && ps_expect(p, TOK_RPAREN, "')'") && ps_advance(p)
        && (label = label_use(cx)) >= 0 && cl_emit_branch(cx, cmp, a, b, label, first)
        && ps_expect(p, TOK_SEMI, "';' after the goto");
}

/* ------------------------------------------------------------------------ */
/* Structured statements                                                     */

/* if (c) s [else s]: if c == 0 goto else; s; goto end; else: s; end: */
static bool if_statement(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    struct token first = p->tok;
    if (!ps_advance(p))
        return false;
    if (at_branch(p))
        return branch_statement(cx, &first);
    int other = cl_new_label(cx), end = cl_new_label(cx);
    if (other < 0 || end < 0 || !condition_unless(cx, other) || !statement(cx))
        return false;
    if (!tok_is(&p->tok, "else"))
        return cl_emit_label(cx, other, &first) && cl_emit_label(cx, end, &first);
    return ps_advance(p) && cl_emit_goto(cx, end, &first) && cl_emit_label(cx, other, &first)
        && statement(cx) && cl_emit_label(cx, end, &first);
}

/* while (c) s: head: if c == 0 goto end; s; goto head; end: */
static bool while_statement(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    struct token first = p->tok;
    int head = cl_new_label(cx), end = cl_new_label(cx);
    return head >= 0 && end >= 0 && ps_advance(p) && cl_emit_label(cx, head, &first)
        && condition_unless(cx, end) && statement(cx) && cl_emit_goto(cx, head, &first)
        && cl_emit_label(cx, end, &first);
}

/* "int a [= e], b [= e];": registers, assigned when given a value. */
static bool declaration(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    if (!skip_type(p))
        return false;
    for (;;) {
        if (p->tok.kind != TOK_IDENT)
            return ps_fail_expected(p, "a variable name");
        struct token name = p->tok;
        int r = ps_register_index(p, cx->thread, name.text, name.len);
        struct operand v;
        if (r < 0 || !ps_advance(p))
            return false;
        if (p->tok.kind == TOK_ASSIGN && (!ps_advance(p) || !cl_expression(cx, r, &v)))
            return false;
        if (p->tok.kind != TOK_COMMA)
            return ps_expect(p, TOK_SEMI, "';' after the declaration");
        if (!ps_advance(p))
            return false;
    }
}

/* "*x = e;": a non-atomic write through a pointer parameter (work-item scope, as Dat3M tags it). */
static bool store_statement(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    struct token first = p->tok;
    struct operand v;
    struct instr in;
    if (!ps_advance(p))
        return false;
    if (p->tok.kind != TOK_IDENT)
        return ps_fail_expected(p, "a pointer parameter after '*'");
    int loc = cl_param_location(cx, &p->tok);
    if (loc < 0 || !ps_advance(p) || !ps_expect(p, TOK_ASSIGN, "'=' after the pointer")
        || !cl_expression(cx, -1, &v))
        return false;
    cl_instr(cx, &in, I_STORE);
    in.loc = loc;
    in.a = v;
    in.mo = MO_WEAK;
    in.scope = SCOPE_WI;
    return cl_emit(cx, &in, &first) && ps_expect(p, TOK_SEMI, "';'");
}

/* "B1: barrier(flags);" once the id label is current. */
static bool barrier_statement(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    struct token first = p->tok;
    int64_t id = 0;
    struct token digits = { TOK_NUMBER, first.text + 1, first.len - 1, first.pos };
    if (!ps_value_of(p, NULL, &digits, &id) || !ps_advance(p) || !ps_expect(p, TOK_COLON, "':'"))
        return false;
    if (!tok_is(&p->tok, "barrier"))
        return ps_fail_expected(p, "'barrier' after a barrier id");
    return ps_advance(p) && cl_barrier(cx, &first, id) && ps_expect(p, TOK_SEMI, "';'");
}

/* True when t is a barrier id such as B1. */
static bool is_barrier_id(const struct token *t)
{
    if (t->kind != TOK_IDENT || t->len < 2 || t->text[0] != 'B')
        return false;
    for (size_t i = 1; i < t->len; i++)
        if (t->text[i] < '0' || t->text[i] > '9')
            return false;
    return true;
}

/* The token after the current one, without consuming anything. */
static bool peek_next(struct parser *p, struct token *next)
{
    struct lexer lx = p->lx;
    return lexer_next(&lx, next, p->err);
}

static bool statement(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    struct token next;
    struct operand v;
    cx->stmt = p->tok;
    if (p->tok.kind == TOK_SEMI)
        return ps_advance(p);
    if (p->tok.kind == TOK_LBRACE)
        return block(cx);
    if (tok_is(&p->tok, "if"))
        return if_statement(cx);
    if (tok_is(&p->tok, "while"))
        return while_statement(cx);
    if (tok_is(&p->tok, "goto"))
        return goto_statement(cx);
    if (tok_is(&p->tok, "__label__"))
        return label_declaration(cx);
    if (cl_at_type(p))
        return declaration(cx);
    if (p->tok.kind == TOK_STAR)
        return store_statement(cx);
    if (tok_is(&p->tok, "barrier"))
        return ps_fail(p, p->tok.pos, "a barrier needs an id label, e.g. B1: barrier(CLK_GLOBAL_MEM_FENCE)");
    if (!peek_next(p, &next))
        return false;
    if (is_barrier_id(&p->tok) && next.kind == TOK_COLON)
        return barrier_statement(cx);
    if (p->tok.kind == TOK_IDENT && next.kind == TOK_COLON)
        return label_statement(cx);
    if (p->tok.kind == TOK_IDENT && next.kind == TOK_ASSIGN) {     /* r = e; */
        struct token name = p->tok;
        for (int i = 0; i < cx->nparams; i++)
            if (cx->params[i].len == name.len && memcmp(cx->params[i].name, name.text, name.len) == 0)
                return ps_fail(p, name.pos, "assigning to pointer parameter '" TOK_FMT "' is not supported "
                               "(write through it with '*" TOK_FMT " = ...')", TOK_ARG(&name), TOK_ARG(&name));
        int r = ps_register_index(p, cx->thread, name.text, name.len);
        return r >= 0 && ps_advance(p) && ps_advance(p) && cl_expression(cx, r, &v)
            && ps_expect(p, TOK_SEMI, "';'");
    }
    return cl_expression(cx, -1, &v) && ps_expect(p, TOK_SEMI, "';' after the expression");
}

/* ------------------------------------------------------------------------ */
/* Threads                                                                   */

/* Parses one "[volatile] [global|local] (int|atomic_int)* x" and records
 * what it says of location x. */
static bool parameter(struct cl_ctx *cx)
{
    struct parser *p = cx->p;
    unsigned space = 0;
    bool atomic = false, typed = false;
    while (cl_at_type(p)) {
        if (tok_is(&p->tok, "global"))
            space |= CL_GLOBAL;
        else if (tok_is(&p->tok, "local"))
            space |= CL_LOCAL;
        else if (tok_is(&p->tok, "atomic_int"))
            atomic = typed = true;
        else if (tok_is(&p->tok, "int"))
            typed = true;
        if (!ps_advance(p))
            return false;
    }
    if (!typed)
        return ps_fail_expected(p, "a parameter type (int* or atomic_int*, optionally global or local)");
    if (!ps_expect(p, TOK_STAR, "'*': parameters are pointers"))
        return false;
    if (p->tok.kind != TOK_IDENT)
        return ps_fail_expected(p, "a parameter name");
    struct token name = p->tok;
    int loc = ps_location_index(p, name.text, name.len);
    if (loc < 0)
        return false;
    for (int i = 0; i < cx->nparams; i++)
        if (cx->params[i].loc == loc)
            return ps_fail(p, name.pos, "duplicate parameter '" TOK_FMT "'", TOK_ARG(&name));
    if (!ps_reserve(p, &cx->params, cx->nparams, &cx->params_cap, sizeof *cx->params))
        return false;
    cx->params[cx->nparams++] = (struct cl_param){ name.text, name.len, loc };
    for (int k = 0, cell; (cell = cl_cell_location(p, loc, k)) >= 0; k++)   /* every cell of an array */
        p->lit->locs[cell].cl_tags |= (space ? space : CL_GENERIC) | (atomic ? 0 : CL_NAL);
    return ps_advance(p);
}

/* Parses "@wg N, dev N" into the placement {0, wg, dev}. */
static bool placement(struct parser *p, int scope_id[3])
{
    scope_id[0] = 0;
    return ps_expect_word(p, "wg", "'wg'") && parse_small_number(p, "wg id", &scope_id[1])
        && ps_expect(p, TOK_COMMA, "',' after wg id")
        && ps_expect_word(p, "dev", "'dev'") && parse_small_number(p, "dev id", &scope_id[2]);
}

/* Parses one thread: header, parameters and body. */
static bool thread(struct parser *p)
{
    struct srcpos pos = p->tok.pos;
    int id;
    if (!parse_thread_id(p, &id))
        return false;
    struct thread *t = ps_new_thread(p, id, pos);
    if (!t)
        return false;
    struct cl_ctx cx = { .p = p, .thread = p->lit->nthreads - 1 };
    bool ok = true;
    if (p->tok.kind == TOK_AT)
        ok = ps_advance(p) && placement(p, t->scope_id);
    ok = ok && ps_expect(p, TOK_LPAREN, "'(' before the thread's parameters");
    while (ok && p->tok.kind != TOK_RPAREN) {
        ok = parameter(&cx);
        if (ok && p->tok.kind != TOK_RPAREN)
            ok = ps_expect(p, TOK_COMMA, "',' or ')' after a parameter");
    }
    ok = ok && ps_advance(p) && block(&cx) && check_labels(&cx);
    free(cx.params);
    return ok;
}

/* True when the current token starts a thread ("P0"). */
static bool at_thread(const struct parser *p)
{
    const struct token *t = &p->tok;
    return t->kind == TOK_IDENT && t->len > 1 && t->text[0] == 'P' && t->text[1] >= '0' && t->text[1] <= '9';
}

bool opencl_parse_program(struct parser *p)
{
    p->lx.c_mode = true;
    if (!parse_braced_list(p, init_item, "';' or '}' in the initial state"))
        return false;
    if (!at_thread(p))
        return ps_fail_expected(p, "a thread such as P0@wg 0, dev 0 (...) { ... }");
    while (at_thread(p))
        if (!thread(p))
            return false;
    return ps_index_threads(p) && ps_resolve_pending(p) && parse_tail(p);
}

int opencl_condition_register(struct parser *p, int thread, const struct token *name)
{
    int r = ps_names_find(&p->names, register_ns(thread), name->text, name->len);
    if (r >= 0)
        return r;
    int loc = ps_names_find(&p->names, NS_LOCATION, name->text, name->len);
    if (loc < 0)
        return ps_fail(p, name->pos, "unknown variable P%d:" TOK_FMT " (the thread never names it)",
                       p->lit->threads[thread].id, TOK_ARG(name)), -1;
    /* a pointer parameter holds its location's address */
    r = ps_register_index(p, thread, name->text, name->len);
    if (r >= 0) {
        p->lit->threads[thread].reg_has_init[r] = true;
        p->lit->threads[thread].reg_init[r] = cl_address(loc);
    }
    return r;
}

int opencl_condition_cell(struct parser *p, int loc, const struct token *name)
{
    int k;
    struct srcpos at = p->tok.pos;
    if (!ps_advance(p) || !parse_small_number(p, "array index", &k) || !ps_expect(p, TOK_RBRACKET, "']'"))
        return -1;
    int cell = cl_cell_location(p, loc, k);
    if (cell < 0)
        return ps_fail(p, at, "'" TOK_FMT "[%d]' is outside the array (the initial state declares its cells as "
                       TOK_FMT "[N])", TOK_ARG(name), k, TOK_ARG(name)), -1;
    return cell;
}
