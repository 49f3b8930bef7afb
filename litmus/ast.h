/* The litmus AST: what the front end produces and the unroller consumes. */
#ifndef GPUBMC_LITMUS_AST_H
#define GPUBMC_LITMUS_AST_H

#include <stdint.h>
#include <stdbool.h>

#include "litmus/strpool.h"

enum dialect { DIALECT_PTX, DIALECT_VULKAN, DIALECT_OPENCL };

/* Memory order of an instruction (PTX spelling; Vulkan acq/rel/acq_rel map
 * to ACQUIRE/RELEASE/ACQ_REL, Vulkan non-atomic accesses to WEAK, Vulkan
 * atomics without order to RELAXED). */
enum mo { MO_NONE, MO_WEAK, MO_RELAXED, MO_ACQUIRE, MO_RELEASE, MO_ACQ_REL, MO_SC };

/* Scope of an instruction.  PTX: CTA < GPU < SYS.  Vulkan: SG < WG < QF < DV.
 * OpenCL: WI < WG < DV < ALL (memory_scope_work_item ... all_svm_devices). */
enum scope { SCOPE_NONE, SCOPE_CTA, SCOPE_GPU, SCOPE_SYS,
             SCOPE_SG, SCOPE_WG, SCOPE_QF, SCOPE_DV, SCOPE_WI, SCOPE_ALL };

/* OpenCL tags: a location's (from the parameters that declare it: its
 * address spaces, and NAL when some thread declares it non-atomic) and a
 * fence's or barrier's (its CLK_*_MEM_FENCE flags). */
enum cl_tag {
    CL_GLOBAL  = 1 << 0,   /* global, CLK_GLOBAL_MEM_FENCE */
    CL_LOCAL   = 1 << 1,   /* local, CLK_LOCAL_MEM_FENCE */
    CL_GENERIC = 1 << 2,   /* no address space named */
    CL_NAL     = 1 << 3    /* non-atomic location */
};

/* PTX proxy of a memory access or proxy fence. */
enum proxy { PROXY_GENERIC, PROXY_TEXTURE, PROXY_SURFACE, PROXY_CONSTANT };

/* Binary operations: local arithmetic, RMW operations, and CAS/exchange;
 * the minimum and maximum (signed, unsigned) only as RMW operations (SPIR-V
 * OpAtomicSMin..., OpenCL atomic_fetch_min/max), which no litmus dialect writes. */
enum binop { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_AND, OP_OR, OP_XOR, OP_EXCH, OP_CAS,
             OP_SMIN, OP_SMAX, OP_UMIN, OP_UMAX };

/* Comparisons in branches and assertions. */
enum cmpop { CMP_EQ, CMP_NE, CMP_GE, CMP_LE, CMP_GT, CMP_LT };

enum instr_kind {
    I_LOAD,          /* dst <- [loc] */
    I_STORE,         /* [loc] <- a */
    I_RMW,           /* dst <- [loc]; [loc] <- op([loc], a)  (CAS: a = expected, b = new);
                        dst < 0 for PTX red */
    I_LOCAL,         /* dst <- op(a, b); PTX "ld r, v" is OP_EXCH with a = v */
    I_FENCE,         /* PTX fence.sc/fence.acq_rel, Vulkan membar */
    I_PROXY_FENCE,   /* PTX fence.proxy.<proxy> */
    I_ALIAS_FENCE,   /* PTX fence.proxy.alias */
    I_BARRIER,       /* PTX bar.cta.sync/arrive, Vulkan cbar */
    I_BRANCH,        /* if cmp(a, b) goto label */
    I_GOTO,          /* goto label */
    I_LABEL,         /* label: */
    I_AVDEVICE,      /* Vulkan avdevice */
    I_VISDEVICE,     /* Vulkan visdevice */
    I_ANY,           /* dst <- arbitrary value number a (a constant, below
                        litmus.nanys; op OP_EXCH): chosen once per execution,
                        the same at every I_ANY that names it (SPIR-V OpUndef,
                        a push constant without a value); no dialect writes it */
    I_UB             /* undefined behaviour reached (SPIR-V OpUnreachable): an
                        event tagged UB; no dialect writes it */
};

/* Vulkan flags of an instruction (bit set). */
enum vk_flag {
    VK_ATOMIC  = 1 << 0,   /* .atom */
    VK_AV      = 1 << 1,   /* .av, and every atomic store (Dat3M tagging) */
    VK_VIS     = 1 << 2,   /* .vis, and every atomic load (Dat3M tagging) */
    VK_NONPRIV = 1 << 3,   /* .nonpriv */
    VK_SEMAV   = 1 << 4,   /* .semav */
    VK_SEMVIS  = 1 << 5    /* .semvis */
};

/* VALUE: every constant in the AST is a 32-bit value stored sign-extended,
 * -2^31 to 2^31 - 1; the parser accepts literals from -2^31 to 2^32 - 1 and
 * stores 2^31 to 2^32 - 1 as the negative value with the same bits. */

struct srcpos { int line, col; };

/* An instruction operand: a constant or a register of the same thread. */
struct operand {
    bool is_reg;
    int reg;          /* index into the thread's registers when is_reg */
    int64_t value;    /* the constant otherwise (a VALUE) */
};

struct instr {
    enum instr_kind kind;
    struct srcpos pos;
    char *text;              /* source text of the instruction, trimmed */
    enum mo mo;
    enum scope scope;        /* SCOPE_NONE when the instruction has none */
    enum proxy proxy;        /* PTX; PROXY_GENERIC for Vulkan */
    enum binop op;           /* I_RMW, I_LOCAL */
    bool cas_if_equal;       /* I_RMW with OP_CAS: writes only when [loc] equals a
                                (SPIR-V OpAtomicCompareExchange; a failing one is a
                                plain atomic read); false: always writes, the old
                                value when unequal (PTX atom.cas) */
    enum cmpop cmp;          /* I_BRANCH */
    int dst;                 /* destination register, -1 if none */
    int loc;                 /* location index, -1 if none */
    struct operand a, b;     /* value operands (see instr_kind) */
    int label;               /* label index within the thread (I_BRANCH, I_GOTO, I_LABEL) */
    /* Vulkan attributes */
    unsigned vk_flags;       /* enum vk_flag bits */
    int storage_class;       /* sc0..sc3 -> 0..3; -1 if none */
    unsigned semsc;          /* bit i set for .semsc<i> */
    unsigned cl_flags;       /* OpenCL fences and barriers: enum cl_tag bits */
    /* barriers */
    bool arrive;             /* PTX bar.cta.arrive */
    int64_t bar_instance;    /* the constant right after sync/arrive/cbar scope (a VALUE) */
    bool has_bar_id, has_bar_quorum;
    struct operand bar_id, bar_quorum;
};

struct thread {
    int id;                  /* the N of PN */
    int scope_id[3];         /* placement, innermost first:
                                PTX {cta, gpu, -}, Vulkan {sg, wg, qf},
                                OpenCL {0, wg, dev} */
    int nregs;
    char **reg_names;        /* "r0", ... */
    bool *reg_has_init;
    int64_t *reg_init;       /* initial value when reg_has_init (a VALUE) */
    int nlabels;
    char **label_names;      /* "LC00", ... */
    int ninstrs;
    struct instr *instrs;
};

struct location {
    char *name;
    int64_t init;            /* initial value (0 when not given; a VALUE) */
    int alias_of;            /* location index this one aliases, -1 if none */
    enum proxy alias_proxy;  /* PTX "y @ <proxy> aliases x" */
    unsigned cl_tags;        /* OpenCL: enum cl_tag bits; 0 in other dialects */
};

enum assert_kind { A_TRUE, A_AND, A_OR, A_NOT, A_CMP };

/* A value in an assertion. */
struct avalue {
    enum { AV_CONST, AV_REG, AV_LOC } kind;
    int64_t value;           /* AV_CONST (a VALUE) */
    int thread;              /* AV_REG: index into litmus.threads */
    int reg;                 /* AV_REG: index into that thread's registers */
    int loc;                 /* AV_LOC */
};

/* A flat `c1 /\ c2 /\ ... /\ cn` (or \/) is one chain of binary nodes of
 * one kind, left-associative: its spine runs down lhs, and its height is n,
 * which no limit caps.  Code that walks an assertion goes along a chain
 * with assertion_chain (or a loop down lhs), never by recursion, so that
 * only real nesting (parentheses and negations, which the parser limits)
 * costs stack. */
struct assertion {
    enum assert_kind kind;
    struct srcpos pos;
    struct assertion *lhs, *rhs;   /* A_AND, A_OR; A_NOT uses lhs */
    enum cmpop cmp;                /* A_CMP */
    struct avalue a, b;            /* A_CMP */
};

enum quantifier { Q_NONE, Q_EXISTS, Q_NOT_EXISTS, Q_FORALL };

struct ssw_pair { int from, to; };  /* thread indices (not P numbers) */

struct litmus {
    char *path;
    enum dialect dialect;
    char *name;                    /* test name after the dialect keyword */
    char *doc;                     /* the free text between the name and '{' (doc
                                      string, comments), trimmed; NULL when none */
    int nthreads;
    struct thread *threads;        /* in column order */
    int nlocs;
    struct location *locs;
    int nssw;
    struct ssw_pair *ssw;
    enum quantifier quant;         /* Q_NONE when the file has no assertion */
    struct assertion *assertion;   /* NULL when quant == Q_NONE */
    struct assertion *filter;      /* NULL when there is no filter */
    bool has_locations;            /* the test has a "locations [...]" list */
    int nobserved;                 /* its entries, in order (duplicates kept) */
    struct avalue *observed;       /* AV_REG or AV_LOC each; NULL when empty */
    int nanys;                     /* arbitrary values I_ANY reads (SPIR-V) */
    struct strpool strings;        /* the parser's copies of the names above
                                      (path, name, doc, locations, registers,
                                      labels) and of the instructions' texts;
                                      any of them not in it was
                                      allocated alone, and is freed alone */
};

/* A front-end error: position and message, formatted "path:line:col: error: msg";
 * pos.line is 0 only when the error has no place in the text (the file cannot
 * be opened or read, memory ran out before parsing began), to be printed as
 * "path: error: msg". */
struct litmus_error {
    struct srcpos pos;
    char msg[256];
};

/* Parses the text of a litmus file; returns NULL and fills err on failure. */
struct litmus *litmus_parse(const char *path, const char *text, struct litmus_error *err);

/* Reads and parses a file; I/O failures have no place (line 0, column 0). */
struct litmus *litmus_parse_file(const char *path, struct litmus_error *err);

/* The dialect a litmus file's header names (PTX, VULKAN, OPENCL); false
 * when the file cannot be read or starts with no dialect keyword. */
bool litmus_file_dialect(const char *path, enum dialect *d);

/* Reads and parses a file; a ".spvasm" file is SPIR-V assembly translated for
 * grid {T, S, W} (NULL: its @Config header, else 1,1,1). */
struct litmus *litmus_parse_file_grid(const char *path, const int *grid, struct litmus_error *err);

/* The bytes of the buffer a caller of litmus_read_file gives it: a file
 * that fits is read into it, without an allocation. */
#define LITMUS_SMALL_FILE_BYTES 8192

/* Reads a file whole (as litmus_parse_file_grid does) into a NUL-terminated
 * buffer: small (LITMUS_SMALL_FILE_BYTES) when it fits, else one the caller
 * frees; NULL and err (no place) on failure. */
char *litmus_read_file(const char *path, size_t *len, struct litmus_error *err, char *small);

/* Parses the len bytes at text (a NUL after them) that litmus_read_file
 * read from path, as litmus_parse_file_grid does. */
struct litmus *litmus_parse_read(const char *path, const char *text, size_t len, const int *grid,
                                 struct litmus_error *err);

/* A deep copy of an assertion tree (NULL for NULL). */
struct assertion *assertion_copy(const struct assertion *a);

/* Drops the test's filter (--ignore-filter). */
void litmus_drop_filter(struct litmus *l);

/* Frees everything litmus_parse allocated. */
void litmus_free(struct litmus *l);
/* Frees a string of l (a name or an instruction's text) unless its string
 * pool holds it. */
void litmus_free_string(const struct litmus *l, char *s);

/* The number of operands of the chain a heads: of the A_AND or A_OR nodes
 * reached from a down lhs while their kind is a's (1 when a is neither);
 * with ops, also stores them there in source order (ops holds that many). */
int assertion_chain(const struct assertion *a, const struct assertion **ops);
/* Frees an assertion tree (NULL is nothing). */
void assertion_free(struct assertion *a);

/* Names for diagnostics and witnesses. */
const char *dialect_name(enum dialect d);
const char *mo_name(enum mo mo);
const char *scope_name(enum scope s);
const char *proxy_name(enum proxy p);

/* Whether a op b holds (signed 32-bit comparison; inline: the concrete
 * interpreter asks at every branch it runs). */
static inline bool cmp_holds(enum cmpop op, int32_t a, int32_t b)
{
    switch (op) {
    case CMP_EQ: return a == b;
    case CMP_NE: return a != b;
    case CMP_LT: return a < b;
    case CMP_GT: return a > b;
    case CMP_LE: return a <= b;
    case CMP_GE: return a >= b;
    }
    return false;
}

#endif
