/* GPU forward-progress models as CNF: which threads the scheduler must keep
 * running.  The threads form Dat3M's scope hierarchy (PTX: system, gpu,
 * cta; Vulkan: device, queue family, workgroup, subgroup) and the model
 * applies at every level, among the children of each group. */
#ifndef GPUBMC_PROGRESS_H
#define GPUBMC_PROGRESS_H

#include <stdbool.h>

#include "program/program.h"
#include "encoders/cnf.h"

enum progress_model { PROG_FAIR, PROG_HSA, PROG_OBE, PROG_HSA_OBE, PROG_LOBE, PROG_UNFAIR };

/* The model called name (fair, hsa, obe, hsa_obe, lobe, unfair); false if none. */
bool progress_parse(const char *name, enum progress_model *m);
/* The name of progress model m, as progress_parse reads it. */
const char *progress_name(enum progress_model m);

/* Per-thread facts of one execution, as literals. */
struct thread_status {
    lit started;     /* ran at all */
    lit halted;      /* stopped by the scheduler */
    lit terminated;  /* reached its end */
    lit blocked;     /* waits at a barrier that never opens */
};

/* Adds the constraints of model m, in force when active holds (the whole
 * device has progress; LIT_TRUE: always): a thread the model guarantees
 * progress never halts (it runs until it terminates, blocks or spins for
 * ever).  Several models with their own active literals share a solver,
 * each checked under its literal as an assumption. */
void progress_encode(struct cnf *c, const struct program *p, enum progress_model m,
                     const struct thread_status *ts, lit active);

#endif
