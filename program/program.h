/* The unrolled program: per thread a loop-free list of micro-ops whose
 * jumps all go forward, and the static table of events those micro-ops
 * can produce.  Which events execute, and with what values, is decided
 * later: symbolically (encoders/symexec) or concretely (bmc/concrete/interp). */
#ifndef GPUBMC_PROGRAM_H
#define GPUBMC_PROGRAM_H

#include <stdbool.h>

#include "litmus/ast.h"

enum uop_kind {
    U_INSTR,      /* one source instruction (jumps have forward targets) */
    U_LOOP_HEAD,  /* start of one unrolled loop iteration */
    U_BACKJUMP    /* end of an iteration: the loop's backward jump */
};

#define TARGET_BOUND (-2)   /* the iteration past --bound: execution is cut */

struct uop {
    enum uop_kind kind;
    const struct instr *in;  /* NULL for U_LOOP_HEAD */
    int target;              /* jump target index; U_BACKJUMP: where the next
                                iteration resumes (its U_LOOP_HEAD, or a label
                                in it), or TARGET_BOUND; -1 for a U_LOOP_HEAD
                                and a U_INSTR that is no jump (program.c's
                                is_jump reads it so) */
    int head;                /* U_BACKJUMP: index of its U_LOOP_HEAD, else -1 */
    int reentry;             /* U_BACKJUMP: the micro-op of its own iteration
                                at which the next iteration resumes (its head,
                                or a label inside an irreducible loop), else -1 */
    int end;                 /* U_LOOP_HEAD: the iteration's last micro-op,
                                else -1 */
    int outer;               /* the U_LOOP_HEAD of the innermost iteration that
                                contains this micro-op (for a head: another
                                than itself), -1 if none */
    int exit;                /* U_BACKJUMP: where control goes when it is not
                                taken (the next micro-op, or past the loop for
                                the iteration's last backjump), else -1 */
    int loop;                /* U_LOOP_HEAD/U_BACKJUMP: index into thread loops */
    int first_event;         /* events produced by this micro-op */
    int nevents;
};

/* A source loop, or an irreducible region of overlapping loops unrolled
 * as one: registers whose change makes an iteration effectful. */
struct loop_info {
    int nlive;
    int *live_written;       /* written in the body and live at an entry
                                (nlive of them; NULL when none) */
    bool side_effect_free;   /* no writes, no live written registers */
    int nentries;            /* labels an iteration can begin at: the head,
                                and more in an irreducible loop (targets of
                                its backward jumps, of jumps from outside) */
};

struct pthread {
    const struct thread *src;
    int ncode;
    struct uop *code;
    int nloops;
    struct loop_info *loops;
    int first_event, nevents;
};

enum ev_kind { EV_INIT, EV_READ, EV_WRITE, EV_FENCE, EV_BARRIER, EV_UB };

struct event {
    int id;
    enum ev_kind kind;
    int thread;              /* -1 for initial writes */
    int uop;                 /* index into the thread's code, -1 for init */
    const struct instr *in;  /* NULL for init */
    int loc;                 /* -1 for fences and barriers */
    enum mo mo;              /* per Dat3M's tagging (RMW halves split) */
    enum scope scope;
    int proxy;               /* enum proxy of an access or fence, -1 if none */
    bool rmw;                /* half of an RMW */
    int rmw_partner;         /* the other half, -1 if none */
};

struct program {
    const struct litmus *lit;
    int bound;
    int nthreads;
    struct pthread *threads;   /* in the program's allocation */
    int nevents;
    struct event *events;
};

/* Limits that turn absurd inputs into errors instead of exhaustion. */
#define PROGRAM_MAX_UOPS 200000
#define PROGRAM_MAX_EVENTS 20000

/* Whether barrier instruction in of thread t of l passes without effect:
 * it has no quorum and no other thread of its CTA or workgroup has a
 * barrier it could meet (the same id flag and instance:
 * exec_barriers_meet), so it never waits and no one's occurrence is used
 * up by it (docs/semantics.md: a thread alone in its CTA or workgroup
 * never waits); a loop that passes it may still spin. */
bool program_barrier_alone(const struct litmus *l, int t, const struct instr *in);

/* Unrolls every thread's loops to bound iterations (side-effect-free loops
 * to one) and builds the event table; NULL with msg filled on failure. */
struct program *program_build(const struct litmus *l, int bound, char *msg, int msglen);
/* Frees a program. */
void program_free(struct program *p);

/* True when some thread has a jump past its last unrolled iteration: an
 * execution may be cut at the bound. */
bool program_has_bound_cut(const struct program *p);

/* The physical location of loc: the end of its alias chain (inline, as
 * the next three: the encoders ask tens of thousands of times a batch). */
static inline int program_root_location(const struct litmus *l, int loc)
{
    for (int guard = 0; loc >= 0 && l->locs[loc].alias_of >= 0 && guard < l->nlocs; guard++)
        loc = l->locs[loc].alias_of;
    return loc;
}

/* The generic (virtual) address of loc: itself, unless loc is a
 * non-generic proxy alias, whose generic address is its alias target. */
static inline int program_generic_location(const struct litmus *l, int loc)
{
    if (loc < 0 || l->locs[loc].alias_of < 0 || l->locs[loc].alias_proxy == PROXY_GENERIC)
        return loc;
    return l->locs[loc].alias_of;
}

/* Placement level of a scope: 0 innermost (cta, sg); 3 means "everything". */
static inline int program_scope_level(enum scope s)
{
    switch (s) {
    case SCOPE_CTA: case SCOPE_SG: return 0;
    case SCOPE_GPU: case SCOPE_WG: return 1;
    case SCOPE_QF: return 2;
    case SCOPE_WI: return 0;
    default: return 3;
    }
}

/* True when both threads' placements agree at the level of scope s
 * (the scope's instance contains both threads). */
static inline bool program_same_scope(const struct program *p, int t1, int t2, enum scope s)
{
    if (t1 < 0 || t2 < 0)
        return false;
    const struct thread *a = &p->lit->threads[t1], *b = &p->lit->threads[t2];
    int levels = p->lit->dialect == DIALECT_PTX ? 2 : 3;
    for (int k = program_scope_level(s); k < levels; k++)
        if (a->scope_id[k] != b->scope_id[k])
            return false;
    return true;
}

/* The innermost loop iteration that micro-op i is in (its head; i itself
 * for a head), -1 if none; go outwards with code[h].outer. */
static inline int program_iteration_of(const struct pthread *pt, int i)
{
    return pt->code[i].kind == U_LOOP_HEAD ? i : pt->code[i].outer;
}

/* The head of the copy of head's loop just before it (copies of a loop's
 * iterations are adjacent, each ending in a backjump), -1 if none. */
static inline int program_previous_copy(const struct pthread *pt, int head)
{
    bool follows = head > 0 && pt->code[head - 1].kind == U_BACKJUMP
                && pt->code[head - 1].loop == pt->code[head].loop;
    return follows ? pt->code[head - 1].head : -1;
}

/* True when e is a memory access (read or write, initial writes included). */
static inline bool event_is_mem(const struct event *e)
{
    return e->kind == EV_INIT || e->kind == EV_READ || e->kind == EV_WRITE;
}
/* True when e writes memory (initial writes included). */
static inline bool event_is_write(const struct event *e)
{
    return e->kind == EV_INIT || e->kind == EV_WRITE;
}

/* True when write o, if executed, keeps write w from giving its
 * location's final value: o is a later write of w's thread to the same
 * name through the same proxy (docs/semantics.md, "final values"). */
static inline bool event_overwrites(const struct program *p, int w, int o)
{
    const struct event *a = &p->events[w], *b = &p->events[o];
    return o > w && a->thread >= 0 && b->thread == a->thread && b->kind == EV_WRITE
           && a->kind == EV_WRITE && b->loc == a->loc && b->proxy == a->proxy;
}

#endif
