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

/* Per-thread facts of one execution, as literals. */
struct thread_status {
    lit started;     /* ran at all */
    lit halted;      /* stopped by the scheduler */
    lit terminated;  /* reached its end */
    lit blocked;     /* waits at a barrier that never opens */
};

/* Adds the constraints of model m (its scheduler's, for a strong model), in force when active holds (the whole
 * device has progress; LIT_TRUE: always): a thread the model guarantees
 * progress never halts (it runs until it terminates, blocks or spins for
 * ever).  Several models with their own active literals share a solver,
 * each checked under its literal as an assumption. */
void progress_encode(struct cnf *c, const struct program *p, enum progress_model m,
                     const struct thread_status *ts, lit active);

#endif
