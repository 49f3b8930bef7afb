/* One SAT check's solver session, shared by the checks (check.c) and the
 * outcome enumeration (enumerate.c). */
#ifndef GPUBMC_SAT_CHECK_H
#define GPUBMC_SAT_CHECK_H

#include "bmc/check/check.h"
#include "bmc/check/refine.h"
#include "bmc/concrete/eval_memo.h"
#include "program/program.h"
#include "encoders/exec.h"
#include "models/model.h"

/* Everything one SAT check holds. */
struct sat_check {
    const struct program *p;
    const struct model_desc *md;
    const struct check_opts *o;
    int sx_mode;             /* enum sx_mode: how threads may stop short */
    struct cnf *c;
    struct exec_enc x;
    struct model_out m;
    bool weak_first;         /* encode the axioms of md's weakening, and md's
                                own only once a solution needs them */
    bool weak_only;          /* md's own axioms are not encoded (yet) */
    struct model_out wm;     /* the weakening's build, when weak_first */
    int nacts;
    lit acts[2 * MODEL_MAX_AXIOMS + 4];
    const char *act_names[2 * MODEL_MAX_AXIOMS];
    const struct axiom *act_axioms[2 * MODEL_MAX_AXIOMS];
    int cut;                 /* sat_cut_at_bound's answer: 0 not asked yet,
                                1 some execution is cut, 2 none is */
    int key;                 /* its enum symmetry_key, -1 without symmetry breaking */
    struct eval_memo memo;   /* the re-checks' evaluations: a witness found again
                                (under another progress model) is evaluated once */
    struct refine_log refined; /* the cycles forbidden so far (bmc/check/refine.h) */
};

/* What a witness must show: the condition true, the condition false, a
 * raised flag (a data race) in an execution the bound does not cut, a
 * raised flag in one it cuts (bmc/check/cut_flags.h), a thread stuck for
 * ever (not at the bound), or just a terminating execution satisfying the
 * filter (an outcome). */
enum goal { GOAL_TRUE, GOAL_FALSE, GOAL_FLAG, GOAL_FLAG_CUT, GOAL_STUCK, GOAL_ANY };

/* Creates the solver and encodes the execution skeleton and the model, with
 * one activation literal per enabled (non-flag) axiom.  With weak_first and
 * a model that has a weakening, the axioms encoded are the weakening's
 * (same names): every solution is then evaluated under the model, and the
 * first that is not consistent under it has the model's own axioms added
 * (solve_with), so every answer is the model's.  An UNSAT answer needs no
 * more: the weakening's consistent executions include the model's. */
void sat_setup(struct sat_check *s);

/* Frees the check, recording the size of its CNF in r. */
void sat_teardown(struct sat_check *s, struct check_result *r);
/* Frees the check. */
void sat_discard(struct sat_check *s);

/* Solves under the enabled axioms and extra, refining acyclicity lazily. */
int solve_with(struct sat_check *s, lit extra);
/* The same, giving up with 0 after the given number of conflicts in one
 * call of the solver. */
int solve_limited(struct sat_check *s, lit extra, int conflicts);
/* The same with the activation literals i with off[i] not assumed (those
 * axioms switched off for this call; off may be NULL). */
int solve_without(struct sat_check *s, lit extra, const bool *off);

/* The first raised flag of a concrete evaluation that --no-axiom (o's
 * disabled names) leaves on, or NULL. */
const struct axiom *raised_flag(const struct model_out *m, const struct check_opts *o);

/* Evaluates the solver's model concretely: its choice into ch (the caller
 * frees it), its evaluation into *ev (s's, valid until the next call);
 * returns why it is not the execution the solver claims for goal, NULL
 * when it is. */
const char *evaluate_model(struct sat_check *s, enum goal goal, struct choice *ch,
                           const struct evaluation **ev);

/* Every thread ran to its end. */
lit all_terminated(struct sat_check *s);

/* Some thread was cut at the loop bound. */
lit some_bound_hit(struct sat_check *s);

/* Checks the SAT witness concretely; fills the witness JSON if asked and,
 * for a flag, names the racing pair in r->reason.  Returns false (with
 * r->reason set) when the two back ends disagree. */
bool sat_recheck(struct sat_check *s, enum goal goal, struct check_result *r);
/* Whether some consistent execution is cut at the bound (a longer run
 * might decide).  The filter does not narrow this: a cut execution has no
 * final state to test it on.  Asked once per session. */
bool sat_cut_at_bound(struct sat_check *s);

#endif
