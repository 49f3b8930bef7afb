/* OpenCL expressions: C operators with their precedence, non-atomic reads
 * through pointer parameters, and the OpenCL atomic functions, fences and
 * barriers, each lowered to the AST's instructions as Dat3M's C11
 * compilation does (a compare-exchange reads its expected value, and
 * writes the value it found back there when it fails). */
#include "litmus/opencl_impl.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Emitters                                                                  */

void cl_instr(const struct cl_ctx *cx, struct instr *in, enum instr_kind kind)
{
    ps_init_instr(in, cx->stmt.pos);
    in->kind = kind;
}

bool cl_emit(struct cl_ctx *cx, struct instr *in, const struct token *first)
{
    struct parser *p = cx->p;
    const char *end = p->prev.text + p->prev.len;
    size_t len = end > first->text ? (size_t)(end - first->text) : first->len;
    if (p->total_instrs >= MAX_INSTRS)
        return ps_fail(p, first->pos, "too many instructions (limit %d)", MAX_INSTRS);
    in->pos = first->pos;
    return ps_push_instr(p, cx->thread, in, first->text, len);
}

int cl_new_label(struct cl_ctx *cx)
{
    char name[32];
    struct token t = { TOK_IDENT, name, 0, cx->stmt.pos };
    do                   /* a name no label of the thread has (the text may name labels) */
        t.len = (size_t)snprintf(name, sizeof name, "L%d", cx->nlabels++);
    while (ps_names_find(&cx->p->names, label_ns(cx->thread), name, t.len) >= 0);
    int info = ps_label_info_index(cx->p, cx->thread, &t);
    if (info < 0)
        return -1;
    cx->p->labels[info].defined = cx->p->labels[info].used = true;
    return cx->p->labels[info].local;
}

bool cl_emit_label(struct cl_ctx *cx, int label, const struct token *first)
{
    struct instr in;
    cl_instr(cx, &in, I_LABEL);
    in.label = label;
    return cl_emit(cx, &in, first);
}

bool cl_emit_branch(struct cl_ctx *cx, enum cmpop cmp, struct operand a, struct operand b, int label,
                    const struct token *first)
{
    struct instr in;
    cl_instr(cx, &in, I_BRANCH);
    in.cmp = cmp;
    in.a = a;
    in.b = b;
    in.label = label;
    return cl_emit(cx, &in, first);
}

bool cl_emit_goto(struct cl_ctx *cx, int label, const struct token *first)
{
    struct instr in;
    cl_instr(cx, &in, I_GOTO);
    in.label = label;
    return cl_emit(cx, &in, first);
}

bool cl_emit_move(struct cl_ctx *cx, int dst, struct operand v, const struct token *first)
{
    struct instr in;
    cl_instr(cx, &in, I_LOCAL);
    in.op = OP_EXCH;
    in.dst = dst;
    in.a = v;
    return cl_emit(cx, &in, first);
}

/* A fresh temporary register (named "%tN", which no C variable can be,
 * and no register of the thread is: the printer's text names them). */
static int new_temp(struct cl_ctx *cx)
{
    char name[32];
    int len;
    do
        len = snprintf(name, sizeof name, "%%t%d", cx->ntemps++);
    while (ps_names_find(&cx->p->names, register_ns(cx->thread), name, (size_t)len) >= 0);
    return ps_register_index(cx->p, cx->thread, name, (size_t)len);
}

int cl_param_location(struct cl_ctx *cx, const struct token *t)
{
    for (int i = 0; i < cx->nparams; i++)
        if (cx->params[i].len == t->len && memcmp(cx->params[i].name, t->text, t->len) == 0)
            return cx->params[i].loc;
    ps_fail(cx->p, t->pos, "'" TOK_FMT "' is not a pointer parameter of this thread", TOK_ARG(t));
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Operators                                                                 */

/* The value of a op b folded, as a 32-bit value stored sign-extended. */
static int64_t fold(enum binop op, int64_t a, int64_t b)
{
    uint32_t x = (uint32_t)a, y = (uint32_t)b, r = 0;
    switch (op) {
    case OP_ADD: r = x + y; break;
    case OP_SUB: r = x - y; break;
    case OP_MUL: r = x * y; break;
    case OP_AND: r = x & y; break;
    case OP_OR: r = x | y; break;
    case OP_XOR: r = x ^ y; break;
    default: r = (uint32_t)((int32_t)x / (int32_t)y); break;
    }
    return (int32_t)r;
}

/* Emits dst = a op b into register want (a fresh temporary when want < 0),
 * folding constants (a division by zero is left to run). */
static bool arith_into(struct cl_ctx *cx, int want, enum binop op, struct operand a, struct operand b,
                       struct operand *out, const struct token *first)
{
    bool div_trap = op == OP_DIV && (b.value == 0 || ((int32_t)b.value == -1 && (int32_t)a.value == INT32_MIN));
    if (!a.is_reg && !b.is_reg && !div_trap) {
        *out = cl_const(fold(op, a.value, b.value));
        return true;
    }
    struct instr in;
    int dst = want >= 0 ? want : new_temp(cx);
    if (dst < 0)
        return false;
    cl_instr(cx, &in, I_LOCAL);
    in.op = op;
    in.dst = dst;
    in.a = a;
    in.b = b;
    *out = cl_reg(dst);
    return cl_emit(cx, &in, first);
}

/* Emits dst = a op b into a fresh temporary, folding constants. */
static bool arith(struct cl_ctx *cx, enum binop op, struct operand a, struct operand b,
                  struct operand *out, const struct token *first)
{
    return arith_into(cx, -1, op, a, b, out, first);
}

/* Emits r = (a cmp b) as 1 or 0. */
static bool compare(struct cl_ctx *cx, enum cmpop cmp, struct operand a, struct operand b,
                    struct operand *out, const struct token *first)
{
    if (!a.is_reg && !b.is_reg) {
        *out = cl_const(cmp_holds(cmp, (int32_t)a.value, (int32_t)b.value));
        return true;
    }
    int r = new_temp(cx), done = cl_new_label(cx);
    if (r < 0 || done < 0)
        return false;
    bool ok = cl_emit_move(cx, r, cl_const(1), first) && cl_emit_branch(cx, cmp, a, b, done, first)
              && cl_emit_move(cx, r, cl_const(0), first) && cl_emit_label(cx, done, first);
    *out = cl_reg(r);
    return ok;
}

/* Binary operator levels, loosest first (C's precedence). */
enum level { LV_OROR, LV_ANDAND, LV_BITOR, LV_BITXOR, LV_BITAND, LV_EQ, LV_REL, LV_ADD, LV_MUL, LV_UNARY };

/* The operator of token kind k at level lv: its binop or cmpop in *op; false when none. */
static bool level_op(enum level lv, enum tok_kind k, int *op)
{
    switch (lv) {
    case LV_BITOR: *op = OP_OR; return k == TOK_BAR;
    case LV_BITXOR: *op = OP_XOR; return k == TOK_CARET;
    case LV_BITAND: *op = OP_AND; return k == TOK_AMP;
    case LV_EQ: *op = k == TOK_EQ ? CMP_EQ : CMP_NE; return k == TOK_EQ || k == TOK_NE;
    case LV_REL:
        *op = k == TOK_LT ? CMP_LT : k == TOK_LE ? CMP_LE : k == TOK_GT ? CMP_GT : CMP_GE;
        return k == TOK_LT || k == TOK_LE || k == TOK_GT || k == TOK_GE;
    case LV_ADD: *op = k == TOK_PLUS ? OP_ADD : OP_SUB; return k == TOK_PLUS || k == TOK_MINUS;
    case LV_MUL: *op = k == TOK_STAR ? OP_MUL : OP_DIV; return k == TOK_STAR || k == TOK_SLASH;
    default: return false;
    }
}

static bool binary(struct cl_ctx *cx, enum level lv, struct operand *out);

/* A && b && ... (or ||), short-circuit: the right side runs only when needed. */
static bool logical(struct cl_ctx *cx, enum level lv, struct operand *out)
{
    struct parser *p = cx->p;
    struct token first = p->tok;
    enum tok_kind k = lv == LV_OROR ? TOK_OROR : TOK_ANDAND;
    struct operand a;
    if (!binary(cx, lv + 1, &a))
        return false;
    if (p->tok.kind != k) {
        *out = a;
        return true;
    }
    /* && : r = 0; if a == 0 goto done; ...; r = 1; done:   (|| : the other way) */
    int64_t stop = lv == LV_OROR ? 1 : 0;
    int r = new_temp(cx), done = cl_new_label(cx);
    if (r < 0 || done < 0 || !cl_emit_move(cx, r, cl_const(stop), &first))
        return false;
    for (;;) {
        enum cmpop cmp = lv == LV_OROR ? CMP_NE : CMP_EQ;
        if (!cl_emit_branch(cx, cmp, a, cl_const(0), done, &first))
            return false;
        if (p->tok.kind != k)
            break;
        if (!ps_advance(p) || !binary(cx, lv + 1, &a))
            return false;
    }
    if (!cl_emit_move(cx, r, cl_const(!stop), &first) || !cl_emit_label(cx, done, &first))
        return false;
    *out = cl_reg(r);
    return true;
}

static bool unary(struct cl_ctx *cx, struct operand *out);
static bool call(struct cl_ctx *cx, int want, struct operand *out);

/* One level of left-associative binary operators. */
static bool binary(struct cl_ctx *cx, enum level lv, struct operand *out)
{
    struct parser *p = cx->p;
    if (lv == LV_OROR || lv == LV_ANDAND)
        return logical(cx, lv, out);
    if (lv == LV_UNARY)
        return unary(cx, out);
    struct token first = p->tok;
    struct operand a, b;
    int op;
    if (!binary(cx, lv + 1, &a))
        return false;
    while (level_op(lv, p->tok.kind, &op)) {
        if (!ps_advance(p) || !binary(cx, lv + 1, &b))
            return false;
        bool ok = lv == LV_EQ || lv == LV_REL ? compare(cx, (enum cmpop)op, a, b, &a, &first)
                                              : arith(cx, (enum binop)op, a, b, &a, &first);
        if (!ok)
            return false;
    }
    *out = a;
    return true;
}

bool cl_at_type(const struct parser *p)
{
    static const char *const words[] = { "int", "atomic_int", "volatile", "unsigned", "const", "global",
                                         "local", "bool", "uint", "long", NULL };
    for (int i = 0; words[i]; i++)
        if (tok_is(&p->tok, words[i]))
            return true;
    return false;
}

/* A non-atomic read "*x" of a pointer parameter into register want (a
 * fresh temporary when want < 0). */
static bool deref(struct cl_ctx *cx, int want, struct operand *out, const struct token *first)
{
    struct parser *p = cx->p;
    if (p->tok.kind == TOK_LPAREN) {     /* *(x) */
        if (!ps_advance(p))
            return false;
        bool ok = deref(cx, want, out, first);
        return ok && ps_expect(p, TOK_RPAREN, "')'");
    }
    if (p->tok.kind != TOK_IDENT)
        return ps_fail_expected(p, "a pointer parameter after '*'");
    int loc = cl_param_location(cx, &p->tok), dst = loc < 0 ? -1 : want >= 0 ? want : new_temp(cx);
    if (dst < 0 || !ps_advance(p))
        return false;
    struct instr in;
    cl_instr(cx, &in, I_LOAD);
    in.dst = dst;
    in.loc = loc;
    in.mo = MO_WEAK;
    *out = cl_reg(dst);
    return cl_emit(cx, &in, first);
}

/* A primary expression or a prefix operator applied to one. */
static bool unary(struct cl_ctx *cx, struct operand *out)
{
    struct parser *p = cx->p;
    struct token first = p->tok;
    struct operand a;
    switch (first.kind) {
    case TOK_NUMBER: case TOK_HEX:
        *out = (struct operand){ false, 0, 0 };
        return ps_value_of(p, NULL, &first, &out->value) && ps_advance(p);
    case TOK_MINUS:
        return ps_advance(p) && unary(cx, &a) && arith(cx, OP_SUB, cl_const(0), a, out, &first);
    case TOK_BANG:
        return ps_advance(p) && unary(cx, &a) && compare(cx, CMP_EQ, a, cl_const(0), out, &first);
    case TOK_STAR:
        return ps_advance(p) && deref(cx, -1, out, &first);
    case TOK_LPAREN: {
        if (!ps_advance(p))
            return false;
        if (cl_at_type(p)) {               /* a cast: the value is kept */
            while (p->tok.kind == TOK_IDENT || p->tok.kind == TOK_STAR)
                if (!ps_advance(p))
                    return false;
            return ps_expect(p, TOK_RPAREN, "')' after the type of a cast") && unary(cx, out);
        }
        return cl_expression(cx, -1, out) && ps_expect(p, TOK_RPAREN, "')'");
    }
    case TOK_IDENT: {
        if (tok_is(&first, "true") || tok_is(&first, "false")) {
            *out = cl_const(tok_is(&first, "true"));
            return ps_advance(p);
        }
        struct lexer save = p->lx;
        struct token cur = p->tok, prev = p->prev;
        if (!ps_advance(p))
            return false;
        bool is_call = p->tok.kind == TOK_LPAREN;
        p->lx = save;
        p->tok = cur;
        p->prev = prev;
        if (is_call)
            return call(cx, -1, out);
        for (int i = 0; i < cx->nparams; i++)
            if (cx->params[i].len == first.len && memcmp(cx->params[i].name, first.text, first.len) == 0)
                return ps_fail(p, first.pos, "pointer parameter '" TOK_FMT "' used as a number "
                               "(read it with '*" TOK_FMT "' or an atomic load)", TOK_ARG(&first), TOK_ARG(&first));
        int r = ps_register_index(p, cx->thread, first.text, first.len);
        if (r < 0 || !ps_advance(p))
            return false;
        *out = cl_reg(r);
        return true;
    }
    default:
        return ps_fail_expected(p, "an expression");
    }
}

/* True when temporary register r is written by the thread's last
 * instruction and by no other. */
static bool written_last_only(const struct thread *t, int r)
{
    if (t->ninstrs == 0 || t->instrs[t->ninstrs - 1].dst != r || t->reg_names[r][0] != '%')
        return false;
    for (int i = 0; i + 1 < t->ninstrs; i++)
        if (t->instrs[i].dst == r)
            return false;
    return true;
}


/* ------------------------------------------------------------------------ */
/* OpenCL functions                                                          */

static const struct word_value memory_orders[] = {
    { "memory_order_relaxed", MO_RELAXED }, { "memory_order_consume", MO_RELAXED },
    { "memory_order_acquire", MO_ACQUIRE }, { "memory_order_release", MO_RELEASE },
    { "memory_order_acq_rel", MO_ACQ_REL }, { "memory_order_seq_cst", MO_SC }, { NULL, 0 }
};
static const struct word_value memory_scopes[] = {
    { "memory_scope_work_item", SCOPE_WI }, { "memory_scope_work_group", SCOPE_WG },
    { "memory_scope_device", SCOPE_DV }, { "memory_scope_all_svm_devices", SCOPE_ALL }, { NULL, 0 }
};
static const struct word_value fence_flags[] = {
    { "CLK_GLOBAL_MEM_FENCE", CL_GLOBAL }, { "CLK_LOCAL_MEM_FENCE", CL_LOCAL }, { NULL, 0 }
};
static const struct word_value fetch_ops[] = {
    { "add", OP_ADD }, { "sub", OP_SUB }, { "or", OP_OR }, { "xor", OP_XOR }, { "and", OP_AND },
    { "min", OP_SMIN }, { "max", OP_SMAX }, { NULL, 0 }   /* atomic_int: signed order */
};

/* The first word of table with value v; NULL when none. */
static const char *word_of(const struct word_value *table, int v)
{
    for (int i = 0; table[i].word; i++)
        if (table[i].value == v)
            return table[i].word;
    return NULL;
}

const char *cl_order_word(enum mo mo)
{
    return word_of(memory_orders, mo);
}

const char *cl_scope_word(enum scope s)
{
    return word_of(memory_scopes, s);
}

const char *cl_fetch_word(enum binop op)
{
    return word_of(fetch_ops, op);
}

/* Parses a word of table (what names it in errors). */
static bool word_arg(struct parser *p, const struct word_value *table, const char *what, int *value)
{
    if (p->tok.kind != TOK_IDENT || !ps_lookup(table, &p->tok, value))
        return ps_fail_expected(p, what);
    return ps_advance(p);
}

/* Parses ", word" of table. */
static bool comma_word(struct parser *p, const struct word_value *table, const char *what, int *value)
{
    return ps_expect(p, TOK_COMMA, "','") && word_arg(p, table, what, value);
}

/* Parses "FLAG [| FLAG]" into enum cl_tag bits. */
static bool flags_arg(struct parser *p, unsigned *flags)
{
    int f = 0;
    *flags = 0;
    do {
        if (*flags && !ps_advance(p))
            return false;
        if (!word_arg(p, fence_flags, "CLK_GLOBAL_MEM_FENCE or CLK_LOCAL_MEM_FENCE", &f))
            return false;
        *flags |= (unsigned)f;
    } while (p->tok.kind == TOK_BAR);
    return true;
}

/* An address argument: a pointer parameter, plus an index when it names
 * a cell of an array ("y + r0"). */
struct address {
    int loc;                 /* the cell when the index is a constant (or absent) */
    int base;                /* the parameter's location: cell 0 */
    bool dynamic;            /* the index is a register: dispatched at run time */
    struct operand index;
    struct token at;
};

int cl_cell_location(struct parser *p, int base, int64_t k)
{
    char cell[MAX_NAME + 24];
    const char *name = p->lit->locs[base].name;
    if (k == 0)
        return base;
    if (k < 0 || k >= MAX_ARRAY || strlen(name) > MAX_NAME)
        return -1;
    int len = snprintf(cell, sizeof cell, "%s+%d", name, (int)k);
    return ps_names_find(&p->names, NS_LOCATION, cell, (size_t)len);
}

/* Parses the address argument: a pointer parameter, optionally "+ index". */
static bool address_arg(struct cl_ctx *cx, struct address *a)
{
    struct parser *p = cx->p;
    a->at = p->tok;
    a->dynamic = false;
    if (p->tok.kind != TOK_IDENT)
        return ps_fail_expected(p, "a pointer parameter");
    a->base = a->loc = cl_param_location(cx, &p->tok);
    if (a->loc < 0 || !ps_advance(p))
        return false;
    if (p->tok.kind != TOK_PLUS)
        return true;
    if (!ps_advance(p) || !binary(cx, LV_MUL, &a->index))
        return false;
    if (a->index.is_reg) {
        a->dynamic = true;
        return true;
    }
    a->loc = cl_cell_location(cx->p, a->base, a->index.value);
    if (a->loc < 0)
        return ps_fail(p, a->at.pos, "'" TOK_FMT " + %lld' is outside the array (the initial state declares its "
                       "cells as " TOK_FMT "[N])", TOK_ARG(&a->at), (long long)a->index.value, TOK_ARG(&a->at));
    return true;
}

/* Emits in at address a: at its cell, or, for an index in a register, a
 * dispatch over the array's cells (an index outside them blocks the
 * work-item: it spins). */
static bool emit_at(struct cl_ctx *cx, const struct address *a, struct instr *in, const struct token *first)
{
    if (!a->dynamic) {
        in->loc = a->loc;
        return cl_emit(cx, in, first);
    }
    int done = cl_new_label(cx);
    if (done < 0)
        return false;
    for (int k = 0, loc; (loc = cl_cell_location(cx->p, a->base, k)) >= 0; k++) {
        int next = cl_new_label(cx);
        in->loc = loc;
        if (next < 0 || !cl_emit_branch(cx, CMP_NE, a->index, cl_const(k), next, first) || !cl_emit(cx, in, first)
            || !cl_emit_goto(cx, done, first) || !cl_emit_label(cx, next, first))
            return false;
    }
    int stuck = cl_new_label(cx);
    return stuck >= 0 && cl_emit_label(cx, stuck, first) && cl_emit_goto(cx, stuck, first)
        && cl_emit_label(cx, done, first);
}

/* The parts of an atomic call, as its name says. */
struct call_shape {
    enum { C_LOAD, C_STORE, C_FETCH, C_XCHG, C_CAS, C_FENCE, C_THREAD_FENCE, C_NA_LOAD, C_NA_STORE,
           C_CMPXCHG } kind;
    bool explicit_;
    enum binop op;
};

/* Decodes the function name t; false when it is no OpenCL function. */
static bool call_shape(const struct token *t, struct call_shape *s)
{
    char name[64];
    if (t->len >= sizeof name)
        return false;
    memcpy(name, t->text, t->len);
    name[t->len] = '\0';
    size_t n = strlen(name);
    s->explicit_ = n > 9 && strcmp(name + n - 9, "_explicit") == 0;
    if (s->explicit_)
        name[n - 9] = '\0';
    s->op = OP_EXCH;
    if (strcmp(name, "atomic_load") == 0) s->kind = C_LOAD;
    else if (strcmp(name, "atomic_store") == 0) s->kind = C_STORE;
    else if (strcmp(name, "atomic_exchange") == 0) s->kind = C_XCHG;
    else if (strcmp(name, "atomic_compare_exchange_strong") == 0 ||
             strcmp(name, "atomic_compare_exchange_weak") == 0) s->kind = C_CAS;
    else if (strcmp(name, "atomic_work_item_fence") == 0 && !s->explicit_) s->kind = C_FENCE;
    else if (strcmp(name, "atomic_thread_fence") == 0 && !s->explicit_) s->kind = C_THREAD_FENCE;
    else if (strcmp(name, "__nonatomic_load") == 0) s->kind = C_NA_LOAD;
    else if (strcmp(name, "__nonatomic_store") == 0) s->kind = C_NA_STORE;
    else if (strcmp(name, "__atomic_cmpxchg") == 0) s->kind = C_CMPXCHG;
    else if (strncmp(name, "atomic_fetch_", 13) == 0) {
        struct token op = { TOK_IDENT, name + 13, strlen(name + 13), t->pos };
        int v;
        if (!ps_lookup(fetch_ops, &op, &v))
            return false;
        s->kind = C_FETCH;
        s->op = (enum binop)v;
    } else
        return false;
    return true;
}

/* Parses the ", mo[, mo][, scope]" tail of an _explicit call (failure_mo
 * for a compare-exchange, whose failure order Dat3M does not use). */
static bool order_and_scope(struct parser *p, const struct call_shape *s, struct instr *in)
{
    int mo = MO_SC, scope = SCOPE_DV, ignored;
    if (s->explicit_) {
        if (!ps_expect(p, TOK_COMMA, "','"))
            return false;
        struct srcpos at = p->tok.pos;
        if (!word_arg(p, memory_orders, "a memory order (memory_order_...)", &mo))
            return false;
        if (s->kind == C_STORE && (mo == MO_ACQUIRE || mo == MO_ACQ_REL))
            return ps_fail(p, at, "a store's memory order is memory_order_relaxed, _release or _seq_cst");
        if (s->kind == C_LOAD && (mo == MO_RELEASE || mo == MO_ACQ_REL))
            return ps_fail(p, at, "a load's memory order is memory_order_relaxed, _acquire or _seq_cst");
        if (s->kind == C_CAS && !comma_word(p, memory_orders, "a failure memory order", &ignored))
            return false;
        if (p->tok.kind == TOK_COMMA && !comma_word(p, memory_scopes, "a memory scope (memory_scope_...)", &scope))
            return false;
    }
    in->mo = (enum mo)mo;
    in->scope = (enum scope)scope;
    return ps_expect(p, TOK_RPAREN, "')' to close the call");
}

/* atomic_work_item_fence(flags, mo, scope) and atomic_thread_fence(mo). */
static bool fence_call(struct cl_ctx *cx, const struct call_shape *s, const struct token *first, struct operand *out)
{
    struct parser *p = cx->p;
    struct instr in;
    int mo, scope = SCOPE_NONE;
    cl_instr(cx, &in, I_FENCE);
    if (s->kind == C_FENCE) {
        if (!flags_arg(p, &in.cl_flags) || !comma_word(p, memory_orders, "a memory order (memory_order_...)", &mo)
            || !comma_word(p, memory_scopes, "a memory scope (memory_scope_...)", &scope))
            return false;
    } else if (!word_arg(p, memory_orders, "a memory order (memory_order_...)", &mo)) {
        return false;
    }
    in.mo = (enum mo)mo;
    in.scope = (enum scope)scope;
    *out = cl_const(0);
    return ps_expect(p, TOK_RPAREN, "')' to close the call") && cl_emit(cx, &in, first);
}

/* The compare-exchange as Dat3M compiles it: e = *expected; the RMW
 * (writes only when it reads e); r = 1 on success, else r = 0 and
 * *expected = the value read. */
static bool cas_call(struct cl_ctx *cx, const struct call_shape *s, int loc, const struct token *first,
                     struct operand *out)
{
    struct parser *p = cx->p;
    struct instr rmw, ld, st;
    struct operand desired;
    if (!ps_expect(p, TOK_COMMA, "','"))
        return false;
    struct address exp;
    if (!address_arg(cx, &exp))
        return false;
    if (exp.dynamic)
        return ps_fail(p, exp.at.pos, "a compare-exchange's expected value needs a fixed address");
    int exp_loc = exp.loc;
    if (!ps_expect(p, TOK_COMMA, "','") || !cl_expression(cx, -1, &desired))
        return false;
    cl_instr(cx, &rmw, I_RMW);
    if (!order_and_scope(p, s, &rmw))
        return false;
    int expected = new_temp(cx), old = new_temp(cx), r = new_temp(cx), done = cl_new_label(cx);
    if (expected < 0 || old < 0 || r < 0 || done < 0)
        return false;
    cl_instr(cx, &ld, I_LOAD);
    ld.dst = expected;
    ld.loc = exp_loc;
    ld.mo = MO_WEAK;
    ld.scope = rmw.scope;
    rmw.op = OP_CAS;
    rmw.cas_if_equal = true;
    rmw.dst = old;
    rmw.loc = loc;
    rmw.a = cl_reg(expected);
    rmw.b = desired;
    cl_instr(cx, &st, I_STORE);
    st.loc = exp_loc;
    st.a = cl_reg(old);
    st.mo = MO_WEAK;
    st.scope = rmw.scope;
    *out = cl_reg(r);
    return cl_emit(cx, &ld, first) && cl_emit(cx, &rmw, first) && cl_emit_move(cx, r, cl_const(1), first)
        && cl_emit_branch(cx, CMP_EQ, cl_reg(old), cl_reg(expected), done, first)
        && cl_emit_move(cx, r, cl_const(0), first) && cl_emit(cx, &st, first) && cl_emit_label(cx, done, first);
}

/* The printer's one-instruction forms: __nonatomic_load(a[, scope]) and
 * __nonatomic_store(a, v[, scope]) (a non-atomic access with a scope, as
 * a compare-exchange's accesses to its expected value have), and
 * __atomic_cmpxchg(a, cmp, val, mo, scope) (a compare-exchange's RMW:
 * returns the old value, writes val only when it equals cmp); the value
 * read into register want (a fresh temporary when want < 0). */
static bool intrinsic_call(struct cl_ctx *cx, const struct call_shape *s, const struct address *a, int want,
                           const struct token *first, struct operand *out)
{
    struct parser *p = cx->p;
    struct instr in;
    int scope = SCOPE_NONE, mo = MO_RELAXED;
    if (a->dynamic)
        return ps_fail(p, a->at.pos, "'" TOK_FMT "' needs a fixed address", TOK_ARG(first));
    cl_instr(cx, &in, s->kind == C_NA_LOAD ? I_LOAD : s->kind == C_NA_STORE ? I_STORE : I_RMW);
    if (s->kind != C_NA_LOAD && (!ps_expect(p, TOK_COMMA, "','") || !cl_expression(cx, -1, &in.a)))
        return false;
    if (s->kind == C_CMPXCHG) {
        if (!ps_expect(p, TOK_COMMA, "','") || !cl_expression(cx, -1, &in.b)
            || !comma_word(p, memory_orders, "a memory order (memory_order_...)", &mo)
            || !comma_word(p, memory_scopes, "a memory scope (memory_scope_...)", &scope))
            return false;
        in.op = OP_CAS;
        in.cas_if_equal = true;
    } else if (p->tok.kind == TOK_COMMA && !comma_word(p, memory_scopes, "a memory scope (memory_scope_...)", &scope)) {
        return false;
    }
    in.loc = a->loc;
    in.mo = s->kind == C_CMPXCHG ? (enum mo)mo : MO_WEAK;
    in.scope = (enum scope)scope;
    *out = cl_const(0);
    if (s->kind != C_NA_STORE) {
        in.dst = want >= 0 ? want : new_temp(cx);
        if (in.dst < 0)
            return false;
        *out = cl_reg(in.dst);
    }
    return ps_expect(p, TOK_RPAREN, "')' to close the call") && cl_emit(cx, &in, first);
}

/* Parses "name(args)" of an OpenCL function at the current token; its
 * result (0 for a store or fence) into *out: a load's or RMW's into
 * register want when want >= 0 and its address is fixed. */
static bool call(struct cl_ctx *cx, int want, struct operand *out)
{
    struct parser *p = cx->p;
    struct token first = p->tok;
    struct call_shape s;
    if (!call_shape(&first, &s))
        return ps_fail(p, first.pos, "unknown function '" TOK_FMT "'", TOK_ARG(&first));
    if (!ps_advance(p) || !ps_expect(p, TOK_LPAREN, "'('"))
        return false;
    if (s.kind == C_FENCE || s.kind == C_THREAD_FENCE)
        return fence_call(cx, &s, &first, out);
    struct address a;
    if (!address_arg(cx, &a))
        return false;
    if (s.kind == C_CAS && a.dynamic)
        return ps_fail(p, a.at.pos, "a compare-exchange needs a fixed address");
    if (s.kind == C_CAS)
        return cas_call(cx, &s, a.loc, &first, out);
    if (s.kind == C_NA_LOAD || s.kind == C_NA_STORE || s.kind == C_CMPXCHG)
        return intrinsic_call(cx, &s, &a, want, &first, out);
    struct instr in;
    struct operand value = cl_const(0);
    if (s.kind != C_LOAD && (!ps_expect(p, TOK_COMMA, "','") || !cl_expression(cx, -1, &value)))
        return false;
    cl_instr(cx, &in, s.kind == C_LOAD ? I_LOAD : s.kind == C_STORE ? I_STORE : I_RMW);
    if (!order_and_scope(p, &s, &in))
        return false;
    if (s.kind == C_STORE) {
        in.a = value;
        *out = cl_const(0);
        return emit_at(cx, &a, &in, &first);
    }
    in.dst = want >= 0 && !a.dynamic ? want : new_temp(cx);
    in.op = s.op;
    in.a = value;
    *out = cl_reg(in.dst);
    return in.dst >= 0 && emit_at(cx, &a, &in, &first);
}

bool cl_barrier(struct cl_ctx *cx, const struct token *first, int64_t id)
{
    struct parser *p = cx->p;
    struct instr in;
    int scope = SCOPE_WG;
    cl_instr(cx, &in, I_BARRIER);
    if (!ps_expect(p, TOK_LPAREN, "'(' after barrier") || !flags_arg(p, &in.cl_flags))
        return false;
    if (p->tok.kind == TOK_COMMA) {
        struct token at = p->prev;
        if (!comma_word(p, memory_scopes, "a memory scope (memory_scope_...)", &scope))
            return false;
        if (scope != SCOPE_WG)
            return ps_fail(p, at.pos, "a barrier synchronises a work-group: only memory_scope_work_group is supported");
    }
    in.scope = SCOPE_WG;
    in.mo = MO_ACQ_REL;        /* Dat3M's C11 compilation tags the barrier ACQ_REL */
    in.bar_instance = id;
    return ps_expect(p, TOK_RPAREN, "')' to close the call") && cl_emit(cx, &in, first);
}

/* ------------------------------------------------------------------------ */
/* Expressions                                                               */

/* The shapes of a value that one instruction computes into its register
 * with no temporary (the printer writes every one so): a load or RMW call,
 * "*x", or "a op b" over registers and constants; each ends the
 * expression (';' or ',' follows). */
enum flat { FLAT_NONE, FLAT_CALL, FLAT_DEREF, FLAT_ARITH };

void cl_peek_start(const struct parser *p, struct cl_peek *k)
{
    *k = (struct cl_peek){ p->lx, p->tok, p->err };
}

bool cl_peek_next(struct cl_peek *k)
{
    return lexer_next(&k->lx, &k->tok, k->err);
}

bool cl_peek_simple(struct cl_peek *k)
{
    if (k->tok.kind == TOK_MINUS && !cl_peek_next(k))
        return false;
    return (k->tok.kind == TOK_NUMBER || k->tok.kind == TOK_HEX || k->tok.kind == TOK_IDENT) && cl_peek_next(k);
}

bool cl_simple(struct cl_ctx *cx, struct operand *out)
{
    return unary(cx, out);
}

/* True when the lookahead is at the end of an expression (';' or ','). */
static bool peek_end(const struct cl_peek *k)
{
    return k->tok.kind == TOK_SEMI || k->tok.kind == TOK_COMMA;
}

/* Skips "(...)" with what it nests; false at the end of input. */
static bool peek_parenthesised(struct cl_peek *k)
{
    int depth = 0;
    do {
        if (k->tok.kind == TOK_EOF)
            return false;
        depth += k->tok.kind == TOK_LPAREN ? 1 : k->tok.kind == TOK_RPAREN ? -1 : 0;
        if (!cl_peek_next(k))
            return false;
    } while (depth > 0);
    return true;
}

/* The flat shape that starts at the current token, FLAT_NONE when none. */
static enum flat flat_shape(const struct parser *p)
{
    static const enum tok_kind arith_ops_tokens[] = { TOK_PLUS, TOK_MINUS, TOK_STAR, TOK_SLASH, TOK_AMP, TOK_BAR,
                                                      TOK_CARET };
    struct cl_peek k;
    cl_peek_start(p, &k);
    struct token name = k.tok;
    struct call_shape s;
    if (k.tok.kind == TOK_STAR)
        return cl_peek_next(&k) && k.tok.kind == TOK_IDENT && cl_peek_next(&k) && peek_end(&k) ? FLAT_DEREF : FLAT_NONE;
    if (!cl_peek_simple(&k))
        return FLAT_NONE;
    if (name.kind == TOK_IDENT && k.tok.kind == TOK_LPAREN)
        return call_shape(&name, &s) && (s.kind == C_LOAD || s.kind == C_FETCH || s.kind == C_XCHG
                                         || s.kind == C_NA_LOAD || s.kind == C_CMPXCHG)
            && peek_parenthesised(&k) && peek_end(&k) ? FLAT_CALL : FLAT_NONE;
    bool op = false;
    for (size_t i = 0; i < sizeof arith_ops_tokens / sizeof *arith_ops_tokens; i++)
        op |= k.tok.kind == arith_ops_tokens[i];
    return op && cl_peek_next(&k) && cl_peek_simple(&k) && peek_end(&k) ? FLAT_ARITH : FLAT_NONE;
}

/* Parses a flat shape f, its value into register want. */
static bool flat_value(struct cl_ctx *cx, enum flat f, int want, struct operand *out)
{
    struct parser *p = cx->p;
    struct token first = p->tok;
    struct operand a, b;
    int op = OP_ADD;
    if (f == FLAT_CALL)
        return call(cx, want, out);
    if (f == FLAT_DEREF)
        return ps_advance(p) && deref(cx, want, out, &first);
    if (!unary(cx, &a))
        return false;
    for (enum level lv = LV_BITOR; lv <= LV_MUL; lv++)
        if (lv != LV_EQ && lv != LV_REL && level_op(lv, p->tok.kind, &op))
            break;
    return ps_advance(p) && unary(cx, &b) && arith_into(cx, want, (enum binop)op, a, b, out, &first);
}

bool cl_expression(struct cl_ctx *cx, int want, struct operand *out)
{
    struct parser *p = cx->p;
    struct token first = p->tok;
    int first_new = p->lit->threads[cx->thread].nregs;   /* the registers made from here on are temporaries */
    if (p->nesting++ >= MAX_NESTING)
        return ps_fail(p, p->tok.pos, "expression nested too deeply (limit %d)", MAX_NESTING);
    enum flat f = want >= 0 ? flat_shape(p) : FLAT_NONE;
    bool ok = f != FLAT_NONE ? flat_value(cx, f, want, out) : binary(cx, LV_OROR, out);
    p->nesting--;
    if (!ok || want < 0 || (out->is_reg && out->reg == want))
        return ok;
    struct thread *t = &p->lit->threads[cx->thread];
    if (out->is_reg && out->reg >= first_new && written_last_only(t, out->reg)) {   /* computed straight into want */
        t->instrs[t->ninstrs - 1].dst = want;
        *out = cl_reg(want);
        return true;
    }
    ok = cl_emit_move(cx, want, *out, &first);
    *out = cl_reg(want);
    return ok;
}
