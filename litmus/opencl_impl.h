/* What the OpenCL parser's two files share (internal to litmus/): one
 * thread's lowering context, and the emitters that turn C statements and
 * expressions into the AST's instructions. */
#ifndef GPUBMC_OPENCL_IMPL_H
#define GPUBMC_OPENCL_IMPL_H

#include "litmus/parse_impl.h"

#define MAX_ARRAY 64          /* cells of an array in the initial state */
#define MAX_NAME 200          /* characters of an array's name */

/* A pointer parameter of a thread: "global atomic_int* x" names location x. */
struct cl_param {
    const char *name;        /* points into the source */
    size_t len;
    int loc;
};

/* The thread being lowered. */
struct cl_ctx {
    struct parser *p;
    int thread;              /* thread index */
    struct cl_param *params;
    int nparams, params_cap;
    int ntemps, nlabels;     /* fresh temporaries and labels made so far */
    struct token stmt;       /* first token of the statement being lowered */
};

/* opencl_expr.c */

/* A fresh instruction of the statement being lowered, "none" in every optional field. */
void cl_instr(const struct cl_ctx *cx, struct instr *in, enum instr_kind kind);
/* Appends in to the thread, its text the source from first to the last consumed token. */
bool cl_emit(struct cl_ctx *cx, struct instr *in, const struct token *first);
/* A fresh label of the thread (its local index), -1 on error. */
int cl_new_label(struct cl_ctx *cx);
/* Emits "label:". */
bool cl_emit_label(struct cl_ctx *cx, int label, const struct token *first);
/* Emits "if a cmp b goto label" (cmp_always: goto). */
bool cl_emit_branch(struct cl_ctx *cx, enum cmpop cmp, struct operand a, struct operand b, int label,
                    const struct token *first);
/* Emits "goto label". */
bool cl_emit_goto(struct cl_ctx *cx, int label, const struct token *first);
/* Emits dst = v. */
bool cl_emit_move(struct cl_ctx *cx, int dst, struct operand v, const struct token *first);
/* True when the current token is a type word (a declaration, a cast or a parameter). */
bool cl_at_type(const struct parser *p);
/* The location of cell k of the array whose cell 0 is base (base itself
 * for k = 0, else the location "name+k"), -1 when there is none. */
int cl_cell_location(struct parser *p, int base, int64_t k);
/* The location of the pointer parameter named t, or -1 with an error at t. */
int cl_param_location(struct cl_ctx *cx, const struct token *t);
/* Parses an expression, emitting what computes it; its value into *out,
 * and into register want when want >= 0 (the last instruction retargeted
 * when it computed the value into a temporary, else a move). */
bool cl_expression(struct cl_ctx *cx, int want, struct operand *out);
/* Parses "(flags)" of barrier(...) after 'barrier' with its id, emitting it. */
bool cl_barrier(struct cl_ctx *cx, const struct token *first, int64_t id);
/* The address of location loc that a condition reads from a pointer
 * parameter (N:x): never 0, and different per location (0x1000 apart). */
static inline int64_t cl_address(int loc) { return 0x1000 * (int64_t)(loc + 1); }
/* A lookahead: a copy of the lexer and its current token. */
struct cl_peek {
    struct lexer lx;
    struct token tok;
    struct litmus_error *err;
};
/* Starts a lookahead at the parser's current token. */
void cl_peek_start(const struct parser *p, struct cl_peek *k);
/* Moves the lookahead one token on; false on a lexical error. */
bool cl_peek_next(struct cl_peek *k);
/* Moves the lookahead over "[-] number" or a name; false when none is there. */
bool cl_peek_simple(struct cl_peek *k);
/* Parses a register, a constant or another unary expression into *out. */
bool cl_simple(struct cl_ctx *cx, struct operand *out);
/* The OpenCL C word of a memory order, a scope, a fetch operation ("add");
 * NULL when it has none (what the OpenCL printer writes). */
const char *cl_order_word(enum mo mo);
const char *cl_scope_word(enum scope s);
const char *cl_fetch_word(enum binop op);
/* The constant operand v. */
static inline struct operand cl_const(int64_t v) { return (struct operand){ false, 0, v }; }
/* The register operand r. */
static inline struct operand cl_reg(int r) { return (struct operand){ true, r, 0 }; }

#endif
