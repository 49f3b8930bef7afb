/* Herd-style outcome sets: the values a test observes, its reachable final
 * states projected onto them, and their JSON and text forms. */
#ifndef GPUBMC_OUTCOMES_H
#define GPUBMC_OUTCOMES_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "litmus/ast.h"

struct outcome_set {
    int nobs;
    struct avalue *obs;      /* observed values (AV_REG or AV_LOC), each once */
    char **names;            /* their names: "P0:r1", "x" */
    int nstates, cap;
    int32_t *values;         /* nstates rows of nobs values, rows in ascending order */
    bool *satisfies;         /* per state: the condition's body holds */
    bool complete;           /* false: more states may be reachable */
    char why_incomplete[200]; /* reasons, "; "-separated */
};

/* Starts an empty, complete set observing l's locations list when it has
 * one, else the registers and locations its filter and final condition
 * name, in order of first appearance. */
void outcomes_init(struct outcome_set *o, const struct litmus *l);
/* Starts an empty, complete set observing the n values obs of l (AV_REG
 * or AV_LOC), in that order, each once. */
void outcomes_init_observing(struct outcome_set *o, const struct litmus *l, const struct avalue *obs, int n);
/* Frees the set's contents. */
void outcomes_free(struct outcome_set *o);
/* Adds a state (nobs values); false when it is already in the set. */
bool outcomes_add(struct outcome_set *o, const int32_t *values, bool satisfies);
/* Marks the set incomplete, adding a reason such as "some loop can run past the loop bound 1". */
void outcomes_incomplete(struct outcome_set *o, const char *why);
/* Number of states that satisfy the condition's body. */
int outcomes_positive(const struct outcome_set *o);

/* The JSON form: {"observed": [names], "states": [{"values": {name: v},
 * "satisfies": b}], "positive", "negative", "complete"} plus "incomplete"
 * (the reason) when not complete; states in ascending order of values. */
cJSON *outcomes_json(const struct outcome_set *o);
/* Prints an outcomes_json object herd-style: "States N", one line per state
 * ("*>" marks those satisfying the condition, ":>" the others), then
 * "Positive: A Negative: B" and a note when the set may be incomplete. */
void outcomes_print(FILE *f, const cJSON *json);

#endif
