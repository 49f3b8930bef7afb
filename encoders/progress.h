/* GPU forward-progress models as CNF: which threads the scheduler must keep
 * running.  The threads form Dat3M's scope hierarchy (PTX: system, gpu,
 * cta; Vulkan: device, queue family, workgroup, subgroup) and the model
 * applies at every level, among the children of each group. */
#ifndef GPUBMC_PROGRESS_H
#define GPUBMC_PROGRESS_H

#include <stdbool.h>

#include "program/program.h"
#include "encoders/cnf.h"

/* The six schedulers under weak fairness (a fairly scheduled thread keeps
 * taking steps), then the first five under strong fairness (an escape to
 * termination that stays possible is eventually taken): the forward-
 * progress study's STRONG_FAIR, HSA_STRONG, ... */
enum progress_model {
    PROG_FAIR, PROG_HSA, PROG_OBE, PROG_HSA_OBE, PROG_LOBE, PROG_UNFAIR,
    PROG_FAIR_STRONG, PROG_HSA_STRONG, PROG_OBE_STRONG, PROG_HSA_OBE_STRONG, PROG_LOBE_STRONG
};

/* How many progress models there are, and how many are weak (the uniform
 * six that --progress all names). */
#define PROGRESS_MODELS (PROG_LOBE_STRONG + 1)
#define PROGRESS_WEAK_MODELS (PROG_UNFAIR + 1)

/* The model called name (fair, ..., unfair, fair_strong, ..., lobe_strong); false if none. */
bool progress_parse(const char *name, enum progress_model *m);
/* The name of progress model m, as progress_parse reads it. */
const char *progress_name(enum progress_model m);
/* Whether m is a strong-fairness model. */
bool progress_is_strong(enum progress_model m);
/* The scheduler of m: m itself for a weak model, its weak twin for a strong one. */
enum progress_model progress_scheduler(enum progress_model m);

/* The scopes whose instances schedule their children: PTX system, gpu,
 * cta; Vulkan device, queue family, workgroup, subgroup (Dat3M's names). */
enum progress_scope { PSCOPE_SYS, PSCOPE_GPU, PSCOPE_CTA, PSCOPE_DV, PSCOPE_QF, PSCOPE_WG, PSCOPE_SG, PROGRESS_SCOPES };

/* A per-scope hierarchy (Dat3M's ProgressModel.Hierarchy): the scheduler
 * an instance of scope s uses among its children is at[s] - 1 when at[s]
 * is set, else the check's model's; all zero: the model everywhere. */
struct progress_hierarchy {
    signed char at[PROGRESS_SCOPES];
};

/* The name of scope s ("SYS", ..., "SG"). */
const char *progress_scope_name(enum progress_scope s);
/* The scope of a group at depth d of dialect's hierarchy (0: the whole
 * device, SYS or DV; then GPU, CTA or QF, WG, SG); -1 past the last. */
int progress_scope_at(enum dialect dialect, int depth);
/* The scheduler (a weak model) that an instance of scope s (-1: the
 * root above the device) uses under model m and hierarchy h (NULL: none). */
enum progress_model progress_at(const struct progress_hierarchy *h, enum progress_model m, int s);
/* Reads "SCOPE=MODEL" overrides separated by sep (';' or ',') into h, the
 * scope names and weak models in any case; "DEFAULT=MODEL", when
 * default_model is not NULL, sets *default_model.  False, with err
 * filled, on anything else. */
bool progress_parse_scopes(const char *text, char sep, struct progress_hierarchy *h,
                           enum progress_model *default_model, char *err, size_t errlen);
/* Reads one model with its hierarchy: "MODEL[;SCOPE=MODEL...]" or Dat3M's
 * "[SCOPE=MODEL,...]" (with DEFAULT=MODEL; fair otherwise). */
bool progress_parse_spec(const char *text, enum progress_model *m, struct progress_hierarchy *h, char *err,
                         size_t errlen);
/* Model m under hierarchy h as progress_parse_spec reads it: "fair",
 * "fair;QF=obe;SG=unfair". */
void progress_label(enum progress_model m, const struct progress_hierarchy *h, char *buf, size_t len);
/* Whether h has any override. */
bool progress_scoped(const struct progress_hierarchy *h);
/* Whether model a guarantees at least what model b does under hierarchy h
 * (NULL: none): at every scope, a's scheduler owes each child progress
 * whenever b's does, so every execution progress_encode deems fair under
 * a it deems fair under b too (a strong model is its scheduler here). */
bool progress_stronger(const struct progress_hierarchy *h, enum progress_model a, enum progress_model b);

/* Per-thread facts of one execution, as literals. */
struct thread_status {
    lit started;     /* ran at all */
    lit halted;      /* stopped by the scheduler */
    lit terminated;  /* reached its end */
    lit blocked;     /* waits at a barrier that never opens */
};

/* Adds the constraints of model m (its scheduler's, for a strong model)
 * under hierarchy h (NULL: none), in force when active holds (the whole
 * device has progress; LIT_TRUE: always): a thread the model guarantees
 * progress never halts (it runs until it terminates, blocks or spins for
 * ever).  Several models with their own active literals share a solver,
 * each checked under its literal as an assumption. */
void progress_encode(struct cnf *c, const struct program *p, enum progress_model m,
                     const struct progress_hierarchy *h, const struct thread_status *ts, lit active);

/* One thread's facts in one execution. */
struct thread_facts {
    bool started, halted, terminated, blocked;
};

/* Whether model m under hierarchy h admits the threads' facts f (one per
 * thread): whether progress_encode's constraints, its literal true and the
 * threads' literals valued as f says, hold for some values of its own
 * literals.  Computed without a solver, over the same tree of groups. */
bool progress_admits(const struct program *p, enum progress_model m, const struct progress_hierarchy *h,
                     const struct thread_facts *f);

#endif
