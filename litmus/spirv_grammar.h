/* The SPIR-V grammar (opcode names, operand kinds, enumerants) read from the
 * spirv.core.grammar.json that Debian's spirv-headers installs. */
#ifndef GPUBMC_LITMUS_SPIRV_GRAMMAR_H
#define GPUBMC_LITMUS_SPIRV_GRAMMAR_H

#include <stddef.h>
#include <stdint.h>

/* Where the grammar is read from unless GPUBMC_SPIRV_GRAMMAR names a file. */
#define SPV_GRAMMAR_PATH "/usr/include/spirv/unified1/spirv.core.grammar.json"

/* One operand of an instruction: its kind and quantifier (0, '?' or '*'). */
struct spv_operand {
    const char *kind;
    char quant;
};

/* One instruction of the grammar. */
struct spv_opdesc {
    const char *name;
    int opcode;
    int nops;
    struct spv_operand *ops;
};

enum spv_category { SPV_CAT_ID, SPV_CAT_LITERAL, SPV_CAT_VALUE_ENUM, SPV_CAT_BIT_ENUM, SPV_CAT_COMPOSITE };

/* One enumerant of an enumerated operand kind, with the kinds of its parameters. */
struct spv_enumerant {
    const char *name;
    uint32_t value;
    int nparams;
    const char **params;
};

/* One operand kind of the grammar. */
struct spv_kinddesc {
    const char *kind;
    enum spv_category cat;
    int n;                         /* enumerants, or bases of a composite */
    struct spv_enumerant *enums;
    const char **bases;
};

struct spv_grammar;

/* Loads the grammar from path (NULL: GPUBMC_SPIRV_GRAMMAR, else SPV_GRAMMAR_PATH);
 * NULL with a message in msg on failure. */
struct spv_grammar *spv_grammar_load(const char *path, char *msg, size_t msglen);

/* Frees a grammar spv_grammar_load returned. */
void spv_grammar_free(struct spv_grammar *g);

/* The grammar's instructions in the file's order, *n of them. */
const struct spv_opdesc *spv_grammar_ops(const struct spv_grammar *g, int *n);

/* The grammar's operand kinds in the file's order, *n of them. */
const struct spv_kinddesc *spv_grammar_kinds(const struct spv_grammar *g, int *n);

/* The instruction named name (len bytes), or NULL when the grammar has none. */
const struct spv_opdesc *spv_grammar_op(const struct spv_grammar *g, const char *name, size_t len);

/* The operand kind named kind, or NULL when the grammar has none. */
const struct spv_kinddesc *spv_grammar_kind(const struct spv_grammar *g, const char *kind);

/* The enumerant of k named name (len bytes), or NULL. */
const struct spv_enumerant *spv_grammar_enumerant(const struct spv_kinddesc *k, const char *name, size_t len);

#endif
