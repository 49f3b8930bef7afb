/* The memory-model interface: a model turns base relations into named
 * axioms (each with the literal "this axiom is violated") and exports its
 * main derived relations for witnesses.  The same model code runs on the
 * SAT back end and on the concrete one (a constant-only cnf). */
#ifndef GPUBMC_MODEL_H
#define GPUBMC_MODEL_H

#include "encoders/base.h"

enum axiom_kind { AX_EMPTY, AX_IRREFLEXIVE, AX_ACYCLIC, AX_FLAG };

#define MODEL_MAX_AXIOMS 16
#define MODEL_MAX_EXPORTS 8

struct axiom {
    const char *name;
    enum axiom_kind kind;
    lit violated;            /* true iff the axiom fails (a flag: iff it is raised);
                                LIT_FALSE for AX_ACYCLIC on a solver: the checker
                                enforces those lazily, cycle by cycle, from rel */
    struct rel rel;          /* the relation the axiom constrains */
};

struct named_rel { const char *name; struct rel rel; };

struct model_out {
    int naxioms;
    struct axiom axioms[MODEL_MAX_AXIOMS];
    int nexports;
    struct named_rel exports[MODEL_MAX_EXPORTS];
};

struct model_desc {
    const char *name;        /* as on the command line */
    enum dialect dialect;    /* the litmus dialect it describes */
    bool co_total;           /* coherence is a total order per location */
    const char *axioms;      /* the names its build function uses, space-separated */
    void (*build)(struct cnf *c, const struct base *b, struct model_out *out);
    /* the program-order facts per physical location its axioms imply
     * (encoders/base.h): for which pairs each holds, and per fact the
     * axioms it rests on (space-separated) */
    unsigned (*po_facts)(const struct program *p, int a, int b);
    const char *fact_axioms[PO_NFACTS];
};

/* The model called name, or NULL. */
const struct model_desc *model_find(const char *name);
/* Space-separated list of model names, for usage messages. */
const char *model_names(void);
/* True when md has an axiom called name. */
bool model_has_axiom(const struct model_desc *md, const char *name);
/* The skeleton of md's executions with the axioms named in disabled off:
 * a program-order fact is assumed only while every axiom it rests on is on. */
struct skeleton model_skeleton(const struct model_desc *md, const char *const *disabled, int ndisabled);

/* Adds an axiom over r (takes ownership of r). */
void model_axiom(struct cnf *c, struct model_out *out, const char *name, enum axiom_kind kind,
                 struct rel r);
/* Exports a derived relation (takes ownership of r). */
void model_export(struct model_out *out, const char *name, struct rel r);
/* Frees axioms and exports. */
void model_out_free(struct model_out *out);

/* The models. */
void model_ptx60_build(struct cnf *c, const struct base *b, struct model_out *out);
void model_ptx75_build(struct cnf *c, const struct base *b, struct model_out *out);
void model_vulkan_build(struct cnf *c, const struct base *b, struct model_out *out);
void model_vulkan_nochains_build(struct cnf *c, const struct base *b, struct model_out *out);
/* Their program-order facts (PO_BIT mask) for a before b in one thread,
 * both on one physical location; the argument is next to each. */
unsigned model_ptx60_po_facts(const struct program *p, int a, int b);
unsigned model_ptx75_po_facts(const struct program *p, int a, int b);
unsigned model_vulkan_po_facts(const struct program *p, int a, int b);

#endif
