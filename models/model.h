/* The memory-model interface: a model turns base relations into named
 * axioms (each with the literal "this axiom is violated") and exports its
 * main derived relations for witnesses.  The same model code runs on the
 * SAT back end and on the concrete one (a constant-only cnf).
 *
 * Adding a model: one file models/NAME.c with its axiom table and its
 * build function (models/cat.h), and one row in the table of model.c. */
#ifndef GPUBMC_MODEL_H
#define GPUBMC_MODEL_H

#include "encoders/base.h"

enum axiom_kind { AX_EMPTY, AX_IRREFLEXIVE, AX_ACYCLIC, AX_FLAG };

#define MODEL_MAX_AXIOMS 16
/* A set of axioms of one model: bit k for the k-th of its table. */
#define AXIOM_BIT(k) (1u << (k))
#define MODEL_MAX_EXPORTS 8

/* An axiom as a model's table declares it: the name --no-axiom, reasons
 * and witnesses use, and its kind. */
struct axiom_decl { const char *name; enum axiom_kind kind; };

struct axiom {
    const char *name;
    enum axiom_kind kind;
    lit violated;            /* concrete: true iff the axiom fails (a flag: iff
                                it is raised); on a solver LIT_FALSE until
                                model_violated computes it */
    const struct rel *rel;   /* the relation the axiom constrains */
};

struct named_rel { const char *name; const struct rel *rel; };

struct model_out {
    struct rels *arena;      /* owns every relation of the build */
    int naxioms;             /* in the order of the model's table */
    struct axiom axioms[MODEL_MAX_AXIOMS];
    int nexports;
    struct named_rel exports[MODEL_MAX_EXPORTS];
};

struct cat;

struct model_desc {
    const char *name;        /* as on the command line */
    enum dialect dialect;    /* the litmus dialect it describes */
    bool co_total;           /* coherence is a total order per location */
    const struct axiom_decl *axioms;   /* the axioms its build makes, in order; a NULL name ends it */
    void (*build)(struct cat *m);
    /* the program-order facts per physical location its axioms imply
     * (encoders/base.h): for which pairs each holds, and per fact the
     * axioms of the table it rests on (AXIOM_BIT of their indices) */
    unsigned (*po_facts)(const struct program *p, int a, int b);
    unsigned fact_axioms[PO_NFACTS];
    /* the index of an acyclic axiom whose relation contains rf | addr |
     * data | ctrl, so that no execution with a value cycle (values that
     * depend only on themselves) is consistent while it is on; -1: none */
    int thin_air;
    const void *data;        /* what build reads besides (a --cat model's program) */
    /* a flag raised in a consistent execution cut at the loop bound is
     * raised in a consistent execution of the unbounded program, under the
     * conditions of bmc/check/cut_flags.h (docs/semantics.md, "Flags in
     * executions cut at the bound" argues it for this model) */
    bool flags_survive_cut;
    /* a cheaper model whose consistent executions include this one's (same
     * axiom table and program-order facts): no execution consistent under
     * it satisfies a query (this model's flags included) => none consistent
     * under this one does (bmc/check/sat_check.h, weak_first); NULL: none */
    const struct model_desc *weakening;
    /* the writes w whose co against a PO_RF_COHERENT pair wr, rd the axioms
     * read (encoders/base.h, struct skeleton); NULL: none */
    bool (*co_seen)(const struct program *p, int wr, int rd, int w);
};

/* The model called name, or NULL. */
const struct model_desc *model_find(const char *name);
/* The i-th model of the table, NULL past its end. */
const struct model_desc *model_at(int i);
/* Writes the space-separated model names into buf (len bytes). */
void model_names(char *buf, size_t len);
/* Writes md's space-separated axiom names into buf (len bytes). */
void model_axiom_names(const struct model_desc *md, char *buf, size_t len);
/* True when md has an axiom called name. */
bool model_has_axiom(const struct model_desc *md, const char *name);
/* The skeleton of md's executions with the axioms named in disabled off:
 * a program-order fact is assumed only while every axiom it rests on is on. */
struct skeleton model_skeleton(const struct model_desc *md, const char *const *disabled, int ndisabled);
/* The skeleton of md's executions assuming no program-order fact: what
 * the oracle enumerates, so that it does not rest on the facts. */
struct skeleton model_skeleton_without_facts(const struct model_desc *md);
/* True when md's thin-air axiom is there and not named in disabled. */
bool model_forbids_value_cycles(const struct model_desc *md, const char *const *disabled, int ndisabled);

/* Builds md over base b in c: out gets every axiom of md's table and the
 * exports, all owned by out's arena. */
void model_build(const struct model_desc *md, struct cnf *c, const struct base *b, struct model_out *out);
/* The same for a session that reads no flag (its axioms' literals and
 * relations): a model may leave a flag's relation empty, not building
 * the terms only it reads. */
void model_build_unflagged(const struct model_desc *md, struct cnf *c, const struct base *b, struct model_out *out);
/* Frees axioms and exports. */
void model_out_free(struct model_out *out);
/* On a solver: adds act -> axiom ax holds, pair by pair (every pair of an
 * empty axiom false, every (i, i) of an irreflexive one false); acyclic
 * axioms are the checker's, cut lazily, and flags are never enforced. */
void model_guard(struct cnf *c, struct model_out *out, int k, lit act);
/* The literal "axiom k is violated" (a flag: raised), computed on first use. */
lit model_violated(struct model_out *out, int k);

/* The built-in models' axioms by their index in the tables: the PTX
 * models share the first five (ptx_common.c), the Vulkan models share
 * one table, and OpenCL's first five (models/opencl.c). */
enum ptx_axiom {
    PTX_COHERENCE, PTX_COHERENCE2, PTX_FENCE_SC, PTX_ATOMICITY, PTX_NO_THIN_AIR,
    PTX60_SC_PER_LOCATION = PTX_NO_THIN_AIR + 1, PTX60_CAUSALITY,
    PTX75_CAUSALITY = PTX_NO_THIN_AIR + 1,
};
enum vulkan_axiom { VULKAN_CONSISTENCY_CYCLE, VULKAN_CONSISTENCY_RF, VULKAN_ATOMIC, VULKAN_RACY, VULKAN_UB };
enum opencl_axiom { OPENCL_HB_G, OPENCL_HB_L, OPENCL_COH_G, OPENCL_COH_L, OPENCL_RF };

/* The models' build functions and axiom tables. */
void model_ptx60_build(struct cat *m);
void model_ptx75_build(struct cat *m);
void model_vulkan_build(struct cat *m);
void model_vulkan_nochains_build(struct cat *m);
void model_vulkan_weak_build(struct cat *m);
void model_opencl_build(struct cat *m);
extern const struct axiom_decl model_ptx60_axioms[], model_ptx75_axioms[], model_vulkan_axioms[],
    model_opencl_axioms[];
/* Their program-order facts (PO_BIT mask) for a before b in one thread,
 * both on one physical location; the argument is next to each. */
unsigned model_ptx60_po_facts(const struct program *p, int a, int b);
unsigned model_ptx75_po_facts(const struct program *p, int a, int b);
unsigned model_vulkan_po_facts(const struct program *p, int a, int b);
unsigned model_opencl_po_facts(const struct program *p, int a, int b);
/* Their co_seen (encoders/base.h, struct skeleton), argued with po_facts. */
bool model_vulkan_co_seen(const struct program *p, int wr, int rd, int w);
bool model_opencl_co_seen(const struct program *p, int wr, int rd, int w);

#endif
