/* CaDiCaL sessions replayed.  CaDiCaL is deterministic: a session whose
 * calls so far (clauses, assumptions, limits, solves, and the questions
 * asked after each answer: values and failed assumptions) are exactly
 * those of a session recorded earlier in this process gets that session's
 * answers, and makes no solver.  In a batch of small programs about a
 * third of the sessions repeat an earlier one's calls (the same program
 * checked under another model or for another expectation, encoded the
 * same), and for a small session the solver's making and freeing cost
 * more than its clauses.  When its calls depart from every record, a
 * small session's solve is answered with no solver when unit propagation
 * or a short search decides it (solver_forced.c), and its questions are
 * answered so while what they ask is known: after propagation fixed every
 * variable, 10 and that only model, CaDiCaL's answers too; after it met a
 * conflict, 20, and as failed assumptions those the conflict rests on, a
 * core as valid as CaDiCaL's though not always the same one (nothing of
 * gpubmc's verdicts relies on which core is named, but the axioms a
 * reason names can differ); after the search, 10 or 20, and the values
 * propagation fixed before it, which every model shares.  A question that
 * only a solver can answer (a value the search chose, a failed assumption
 * after it) makes the session's solver, which is given every call so far,
 * questions included, so that it is the solver the session would have had
 * from the start.  A session's answers are so a function of its calls
 * alone, and every model it shows is CaDiCaL's.  A session that made its
 * solver or answered for itself so is recorded when it ends, within a
 * budget of memory per process.
 * With CADICAL_ settings in the environment (options, an API trace) a
 * session makes its solver at once and is not recorded. */
#include "encoders/solver_replay.h"
#include "encoders/solver_forced.h"

#include <ccadical.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

extern char **environ;

/* A session that answered for itself: its calls and its answers, one for
 * each OP_SOLVE, OP_VAL and OP_FAILED, in order. */
struct record {
    int *calls, *answers;
    size_t ncalls, nanswers;
    size_t bucket;
    int followers;          /* live sessions that follow it: it is kept while any does */
    struct record *next;    /* the next of its bucket */
    struct record *newer;   /* the next recorded after it */
};

/* The records by the hash of their calls up to their first answer. */
#define BUCKETS 1024
static struct record *buckets[BUCKETS];

/* The records, oldest first, and the ints they hold.  A session repeats
 * one of the last few dozen sessions, if any (the same program for the
 * next expectation in a batch), so the oldest records go first when
 * their ints pass RECORDED_MAX (64 KiB): the memory kept is reused, not
 * fresh pages, each a page fault. */
#define RECORDED_MAX ((size_t)1 << 14)
static struct record *oldest, *newest;
static size_t recorded;

/* Forgets the oldest record (none followed by a live session). */
static void forget_oldest(void)
{
    struct record *q = oldest, **p = &buckets[q->bucket];
    while (*p != q)
        p = &(*p)->next;
    *p = q->next;
    oldest = q->newer;
    if (!oldest)
        newest = NULL;
    recorded -= q->ncalls + q->nanswers;
    free(q->calls);
    free(q->answers);
    free(q);
}

/* The most ints of calls a session may have made for a solve to be tried
 * by unit propagation (solver_forced.c), which costs a pass over them:
 * over the corpus batch's worker, every solve so decided came after at
 * most 1,900; a bound of 512 takes 1.7 M instructions more than 2,048,
 * 4,096 the same, 16,384 1.7 M more (the tries that fail). */
#define FORCED_MAX ((size_t)1 << 11)

/* The most conflicts the search after unit propagation may meet
 * (solver_forced.c) before the session makes its solver. */
#define SEARCH_BUDGET 64

struct replay {
    CCaDiCaL *solver;          /* NULL while it answers from a record or by propagation */
    bool recordable;           /* no CADICAL_ setting when it began */
    int *calls, *answers;
    size_t ncalls, calls_cap, nanswers, answers_cap;
    struct record *rec;        /* the record it follows: calls[0..checked) are its */
    size_t checked;
    size_t bucket;             /* of its calls up to its first answer; BUCKETS before */
    signed char *model;        /* by variable, while forced: the only model, the search's
                                  or the failed assumptions (solver_forced.h) */
    size_t model_cap;
    enum forced forced;        /* how its last solve was decided with no solver, while what
                                  it answers is asked: values after ONLY_MODEL (and those
                                  fixed before the search after SEARCHED_MODEL), failed
                                  assumptions after CONFLICT_CORE; else NOT_DECIDED */
    bool departed;             /* some answer came from no record: its own solver's or forced */
};

/* A CaDiCaL solver made with the environment entries in own (NULL: none).
 * Its constructor looks up CADICAL_<OPTION> for each of its options (and
 * CADICAL_API_TRACE): a scan of the whole environment per name, so it is
 * shown the CADICAL_ entries alone, the only ones it reads, and with none
 * no environment at all, where getenv answers before looking. */
static CCaDiCaL *make_solver(char **own)
{
    char **whole = environ;
    environ = own;
    CCaDiCaL *solver = ccadical_init();
    environ = whole;
    ccadical_set_option(solver, "quiet", 1);   /* no messages on stdout */
    /* No profiling timers: each reads a clock, two per search phase,
     * which add up over a batch of small sessions. */
    ccadical_set_option(solver, "profile", 0);
    /* Its timer of each solve call (kept at any profiling level) reads
     * the wall clock instead of getrusage: a vDSO call, no system call.
     * Time only ever feeds its statistics, never its search. */
    ccadical_set_option(solver, "realtime", 1);
    return solver;
}

/* True when environment entry e is a CADICAL_ setting (a first byte
 * tested inline before the call: most entries fail it). */
static bool cadical_entry(const char *e) { return e[0] == 'C' && strncmp(e, "CADICAL_", 8) == 0; }

struct replay *replay_new(void)
{
    struct replay *r = xcalloc(1, sizeof *r);
    r->bucket = BUCKETS;
    size_t n = 0, k = 0;
    char **whole = environ;
    for (; whole && whole[n]; n++)
        k += cadical_entry(whole[n]);
    r->recordable = k == 0;
    if (k > 0) {
        char **own = xcalloc(k + 1, sizeof *own);
        for (size_t i = 0, j = 0; j < k; i++)
            if (cadical_entry(whole[i]))
                own[j++] = whole[i];
        r->solver = make_solver(own);
        free(own);
    }
    return r;
}

bool replay_has_solver(const struct replay *r) { return r->solver != NULL; }

/* Appends the call (op, arg) to the session's calls. */
static void push_call(struct replay *r, int op, int arg)
{
    XGROW_FROM(r->calls, r->calls_cap, r->ncalls + 2, 256);
    r->calls[r->ncalls] = op;
    r->calls[r->ncalls + 1] = arg;
    r->ncalls += 2;
    bool asks_model = (r->forced == ONLY_MODEL || r->forced == SEARCHED_MODEL) && op == OP_VAL;
    if (!asks_model && !(r->forced == CONFLICT_CORE && op == OP_FAILED))
        r->forced = NOT_DECIDED;
}

/* Makes the call (op, arg), or adds the literal op when it is no
 * operation, on solver s; returns its answer (0 for those with none). */
static int perform(CCaDiCaL *s, int op, int arg)
{
    switch (op) {
    case OP_ASSUME: ccadical_assume(s, arg); return 0;
    case OP_LIMIT: ccadical_limit(s, "conflicts", arg); return 0;
    case OP_SOLVE: return ccadical_solve(s);
    case OP_VAL: return ccadical_val(s, arg);
    case OP_FAILED: return ccadical_failed(s, arg);
    default: ccadical_add(s, op); return 0;
    }
}

/* Makes the session's solver and gives it its calls but the last one. */
static void make_own_solver(struct replay *r)
{
    r->solver = make_solver(NULL);
    size_t end = r->ncalls - 2;
    for (size_t i = 0; i < end; i++) {
        int a = r->calls[i];
        if (a > OP_FAILED)
            ccadical_add(r->solver, a);
        else
            perform(r->solver, a, r->calls[++i]);
    }
}

/* The bucket of calls[0..n): a hash of n and of the first and last
 * HASHED calls (the records of a bucket are told apart by comparing). */
#define HASHED 32
static size_t hash_calls(const int *calls, size_t n)
{
    uint64_t h = (0xcbf29ce484222325ull ^ n) * 0x100000001b3ull;
    for (size_t i = 0; i < n; i = i + 1 == HASHED && n > 2 * HASHED ? n - HASHED : i + 1)
        h = (h ^ (uint32_t)calls[i]) * 0x100000001b3ull;
    return (size_t)(h ^ (h >> 32)) % BUCKETS;
}

/* Makes q (NULL: none) the record session r follows. */
static void follow(struct replay *r, struct record *q)
{
    if (r->rec)
        r->rec->followers--;
    r->rec = q;
    if (q)
        q->followers++;
}

/* A record whose calls begin with all of the session's, or NULL. */
static const struct record *find_record(struct replay *r)
{
    size_t n = r->ncalls;
    struct record *q = r->rec;
    if (q && q->ncalls >= n &&
        memcmp(q->calls + r->checked, r->calls + r->checked, (n - r->checked) * sizeof *r->calls) == 0) {
        r->checked = n;
        return q;
    }
    if (r->bucket == BUCKETS)
        r->bucket = hash_calls(r->calls, n);
    for (q = buckets[r->bucket]; q; q = q->next)
        if (q != r->rec && q->ncalls >= n && memcmp(q->calls, r->calls, n * sizeof *r->calls) == 0) {
            follow(r, q);
            r->checked = n;
            return q;
        }
    return NULL;
}

/* The answer of the call (op, arg): a record's while one has made the
 * same calls, else the solver's. */
static int answer(struct replay *r, int op, int arg)
{
    push_call(r, op, arg);
    int a;
    enum forced how;
    if (r->solver) {
        a = perform(r->solver, op, arg);
    } else if (r->forced == ONLY_MODEL || (r->forced == SEARCHED_MODEL && abs(r->model[abs(arg)]) == 1)) {
        a = r->model[abs(arg)] > 0 ? arg : -arg;   /* a value of every model: CaDiCaL's answer */
    } else if (r->forced == CONFLICT_CORE) {   /* one the conflict rests on (solver_forced.h) */
        a = (r->model[arg > 0 ? arg : -arg] & (arg > 0 ? 1 : 2)) != 0;
    } else {
        const struct record *q = find_record(r);
        if (q) {
            a = q->answers[r->nanswers];
        } else if (op == OP_SOLVE && r->ncalls <= FORCED_MAX &&
                   (how = forced_answer(r->calls, r->ncalls - 2, SEARCH_BUDGET, &r->model, &r->model_cap))
                       != NOT_DECIDED) {
            a = how == ONLY_MODEL || how == SEARCHED_MODEL ? 10 : 20;
            r->forced = how;
            r->departed = true;
        } else {
            make_own_solver(r);
            a = perform(r->solver, op, arg);
        }
    }
    if (r->bucket == BUCKETS)   /* its first answer, from its own solver */
        r->bucket = hash_calls(r->calls, r->ncalls);
    XGROW_FROM(r->answers, r->answers_cap, r->nanswers + 1, 64);
    r->answers[r->nanswers++] = a;
    return a;
}

void replay_clauses(struct replay *r, const int *lits, size_t n)
{
    r->forced = NOT_DECIDED;
    XGROW_FROM(r->calls, r->calls_cap, r->ncalls + n, 256);
    memcpy(r->calls + r->ncalls, lits, n * sizeof *lits);
    r->ncalls += n;
    for (size_t i = 0; r->solver && i < n; i++)
        ccadical_add(r->solver, lits[i]);
}

void replay_assume(struct replay *r, int lit)
{
    push_call(r, OP_ASSUME, lit);
    if (r->solver)
        ccadical_assume(r->solver, lit);
}

void replay_limit_conflicts(struct replay *r, int conflicts)
{
    push_call(r, OP_LIMIT, conflicts);
    if (r->solver)
        ccadical_limit(r->solver, "conflicts", conflicts);
}

int replay_solve(struct replay *r) { return answer(r, OP_SOLVE, 0); }

int replay_val(struct replay *r, int lit) { return answer(r, OP_VAL, lit); }

bool replay_failed(struct replay *r, int lit) { return answer(r, OP_FAILED, lit) != 0; }

void replay_free(struct replay *r)
{
    if (!r)
        return;
    size_t size = r->ncalls + r->nanswers;
    bool keep = (r->solver || r->departed) && r->recordable && r->nanswers > 0 && size <= RECORDED_MAX;
    follow(r, NULL);
    if (r->solver)
        ccadical_release(r->solver);
    if (keep) {
        /* a record a live session follows stays (and those newer with it):
         * there are only as many as sessions live at once */
        while (oldest && oldest->followers == 0 && recorded + size > RECORDED_MAX)
            forget_oldest();
        struct record *q = xcalloc(1, sizeof *q);
        q->calls = xrealloc(r->calls, r->ncalls * sizeof *r->calls);
        q->answers = xrealloc(r->answers, r->nanswers * sizeof *r->answers);
        q->ncalls = r->ncalls;
        q->nanswers = r->nanswers;
        q->bucket = r->bucket;
        q->next = buckets[r->bucket];
        buckets[r->bucket] = q;
        if (newest)
            newest->newer = q;
        else
            oldest = q;
        newest = q;
        recorded += size;
    } else {
        free(r->calls);
        free(r->answers);
    }
    free(r->model);
    free(r);
}
