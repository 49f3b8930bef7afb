/* What the SPIR-V front end's files share: the module as read from the
 * assembly text (instructions with operands checked against the grammar)
 * and Dat3M's header comments. */
#ifndef GPUBMC_LITMUS_SPIRV_IMPL_H
#define GPUBMC_LITMUS_SPIRV_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "litmus/ast.h"
#include "litmus/spirv_grammar.h"

enum spv_tk { TK_ID, TK_NUM, TK_STR, TK_WORD };

/* One operand token, with the grammar kind it was matched against. */
struct spv_arg {
    enum spv_tk tk;
    const char *kind;      /* operand kind (for enumerant parameters: theirs) */
    const char *s;         /* text (an id without its %, a string without quotes) */
    int len;
    int64_t num;           /* TK_NUM value; enumerant value(s) of enum kinds */
    bool is_float;         /* TK_NUM written with a fraction or exponent */
    int id;                /* TK_ID: index into the module's ids */
    struct srcpos pos;
};

/* One instruction: its grammar entry, result id and type, other operands. */
struct spv_inst {
    const struct spv_opdesc *op;
    struct srcpos pos;
    int result;            /* id index or -1 */
    int rtype;             /* id index of the result type or -1 */
    int nargs;
    struct spv_arg *args;  /* the operands after the result type */
};

/* An initial value from "; @Input:": a number or a brace list. */
struct spv_init {
    bool is_list;
    int64_t value;
    int n;
    struct spv_init *el;
    struct srcpos pos;
};

struct spv_input {
    int id;
    struct spv_init value;
    struct srcpos pos;
};

/* A value in a header condition: a constant, or a variable with indices. */
struct spv_hval {
    bool is_const;
    int64_t value;
    int id;
    int npath;
    int64_t path[8];
    struct srcpos pos;
};

/* A header condition: and/or/not trees over comparisons (enum assert_kind). */
struct spv_hcond {
    enum assert_kind kind;
    struct srcpos pos;
    struct spv_hcond *lhs, *rhs;
    enum cmpop cmp;
    struct spv_hval a, b;
};

struct spv_module {
    const char *path;
    const struct spv_grammar *g;
    int nids, cap_ids;
    char **id_names;
    int *id_def;                   /* defining instruction, -1 while none */
    struct srcpos *id_use;         /* first use, for "never defined" */
    int ninst, cap_inst;
    struct spv_inst *inst;
    int ninputs, cap_inputs;
    struct spv_input *inputs;
    enum quantifier quant;
    struct spv_hcond *output, *filter;
    bool has_config;
    int config[3];
    struct srcpos config_pos, output_pos;
    struct srcpos end;             /* end of the text */
};

/* Reads the assembly text and the header comments into m (whose path and
 * grammar are set); false with err filled on a malformed module. */
bool spv_read_module(struct spv_module *m, const char *text, struct litmus_error *err);

/* Frees what spv_read_module allocated in m. */
void spv_free_module(struct spv_module *m);

/* Fills err with a message at pos; returns false. */
bool spv_fail(struct litmus_error *err, struct srcpos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* True when the instruction is the grammar's opname. */
bool spv_is(const struct spv_inst *in, const char *opname);

/* Translates a read module into a Vulkan litmus test for the grid
 * (threads per subgroup, subgroups per workgroup, workgroups; grid NULL:
 * the @Config header, else 1,1,1); NULL with err filled on a refusal. */
struct litmus *spv_translate(const struct spv_module *m, const int *grid, struct litmus_error *err);

#endif
