/* The explicit-state termination check. */
#include "bmc/check/states_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc/concrete/fair.h"
#include "bmc/concrete/lasso.h"
#include "bmc/concrete/lasso_witness.h"
#include "util/xalloc.h"

/* One model's verdict from the components; a FAIL's lasso is re-checked
 * by the concrete evaluator, as every SAT witness is. */
static void decide(const struct program *p, const struct model_desc *md, const struct check_opts *o,
                   const struct state_graph *g, const struct fair_sccs *f, const struct fair_tree *tr,
                   struct progress_result *out, cJSON **witness)
{
    bool *need = xcalloc((size_t)g->nthreads + 1, sizeof *need);
    int scc = fair_find(f, tr, out->model, need);
    snprintf(out->engine, sizeof out->engine, "states");
    if (scc < 0) {
        out->verdict = V_PASS;
        snprintf(out->reason, sizeof out->reason,
                 "every fair run terminates (states engine: %d states, no fair cycle)", g->nstates);
    } else {
        struct lasso la;
        lasso_find(g, f, scc, need, &la);
        char full[256];
        lasso_describe(p->lit, &la, true, full, sizeof full);
        lasso_describe(p->lit, &la, false, out->brief, sizeof out->brief);
        out->verdict = V_FAIL;
        snprintf(out->reason, sizeof out->reason, "%s (states engine: a fair cycle of %d steps after %d, "
                 "%d states)", full, la.ncycle, la.nstem, g->nstates);
        char why[256];   /* the concrete evaluator checks every lasso, as every SAT witness */
        cJSON *w = lasso_witness(p->lit, md, o->disabled, o->ndisabled, g, &la, why, sizeof why);
        if (!w) {
            out->verdict = V_ERROR;
            snprintf(out->reason, sizeof out->reason, "internal error: %s", why);
        } else if (o->want_witness) {
            *witness = w;
        } else {
            cJSON_Delete(w);
        }
        lasso_free(&la);
    }
    free(need);
}

bool states_termination(const struct program *p, const struct model_desc *md, const struct check_opts *o,
                        const enum progress_model *ms, int n, struct progress_result *out,
                        cJSON **witnesses, long *nstates)
{
    struct state_graph g;
    bool ok = states_explore(p->lit, o->max_states > 0 ? o->max_states : CHECK_DEFAULT_MAX_STATES, &g);
    *nstates = g.nstates;
    if (ok) {
        struct fair_sccs f;
        fair_sccs(&g, &f);
        struct fair_tree *tr = fair_tree_build(p->lit);
        for (int i = 0; i < n; i++) {
            out[i] = (struct progress_result){ .model = ms[i] };
            witnesses[i] = NULL;
            decide(p, md, o, &g, &f, tr, &out[i], &witnesses[i]);
        }
        fair_tree_free(tr);
        fair_free(&f);
    }
    states_free(&g);
    return ok;
}
