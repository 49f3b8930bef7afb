/* Concrete evaluations remembered by their execution: a check that
 * re-checks the same execution of one unrolled program more than once (a
 * lasso or a SAT witness per progress model) evaluates it once.  The key
 * is the whole choice and the axioms switched off, so a remembered
 * evaluation is the one a fresh evaluate() would give; nothing in it comes
 * from the SAT encoding. */
#ifndef GPUBMC_EVAL_MEMO_H
#define GPUBMC_EVAL_MEMO_H

#include "bmc/concrete/evaluate.h"

enum {
    EVAL_MEMO_SIZE = 8,              /* evaluations kept; the oldest goes first */
    EVAL_MEMO_MAX_DISABLED = 16      /* more axioms off: evaluated, never remembered */
};

struct eval_memo {
    const struct program *p;
    const struct model_desc *md;
    int n, next;             /* entries in use; the one a new entry replaces when full */
    struct eval_entry {
        struct choice ch;
        const char *disabled[EVAL_MEMO_MAX_DISABLED];
        int ndisabled;       /* -1: matches nothing */
        struct evaluation ev;
    } *entry[EVAL_MEMO_SIZE];   /* made when first filled: most memos make one or
                                   none, and a memo is zeroed where it is declared */
    long evaluated, reused;  /* evaluations made and answers given from memory */
};

/* An empty memo for executions of p under md. */
void eval_memo_init(struct eval_memo *m, const struct program *p, const struct model_desc *md);
/* The evaluation of choice ch with the axioms disabled[0..ndisabled) off
 * and the axioms alone judging (model_skeleton_without_facts), from memory
 * when m has made it; it stays valid until the next call on m. */
const struct evaluation *eval_memo_evaluate(struct eval_memo *m, const char *const *disabled, int ndisabled,
                                            const struct choice *ch);
/* Frees the memo's evaluations. */
void eval_memo_free(struct eval_memo *m);

#endif
