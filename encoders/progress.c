/* Forward-progress models over the scope hierarchy, after Dat3M's
 * ProgramEncoder: per group, literals "has progress", "schedulable" and
 * "was scheduled once"; the model says which children a group with
 * progress passes it on to. */
#include "encoders/progress.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/xalloc.h"

static const char *const names[] = { "fair", "hsa", "obe", "hsa_obe", "lobe", "unfair", "fair_strong",
                                     "hsa_strong", "obe_strong", "hsa_obe_strong", "lobe_strong" };

const char *progress_name(enum progress_model m)
{
    return names[m];
}

bool progress_is_strong(enum progress_model m)
{
    return m >= PROG_FAIR_STRONG;
}

enum progress_model progress_scheduler(enum progress_model m)
{
    return progress_is_strong(m) ? (enum progress_model)(m - PROG_FAIR_STRONG) : m;
}

bool progress_parse(const char *name, enum progress_model *m)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0) {
            *m = (enum progress_model)i;
            return true;
        }
    return false;
}

static const char *const scope_names[] = { "SYS", "GPU", "CTA", "DV", "QF", "WG", "SG" };

const char *progress_scope_name(enum progress_scope s)
{
    return scope_names[s];
}

int progress_scope_at(enum dialect dialect, int depth)
{
    static const int ptx[] = { PSCOPE_SYS, PSCOPE_GPU, PSCOPE_CTA }, vulkan[] = { PSCOPE_DV, PSCOPE_QF, PSCOPE_WG, PSCOPE_SG };
    if (dialect == DIALECT_PTX)
        return depth >= 0 && depth < 3 ? ptx[depth] : -1;
    return depth >= 0 && depth < 4 ? vulkan[depth] : -1;
}

enum progress_model progress_at(const struct progress_hierarchy *h, enum progress_model m, int s)
{
    if (h && s >= 0 && h->at[s] > 0)
        return (enum progress_model)(h->at[s] - 1);
    return progress_scheduler(m);
}

bool progress_scoped(const struct progress_hierarchy *h)
{
    for (int s = 0; h && s < PROGRESS_SCOPES; s++)
        if (h->at[s])
            return true;
    return false;
}

/* Whether weak scheduler a owes a child progress whenever weak scheduler
 * b does, read off forward() below: fair owes always, unfair never;
 * hsa_obe owes what hsa and obe owe, and lobe (some child from this one
 * on has started) what obe owes (this one has started). */
static bool owes_at_least(enum progress_model a, enum progress_model b)
{
    if (a == b || a == PROG_FAIR || b == PROG_UNFAIR)
        return true;
    if (a == PROG_HSA_OBE)
        return b == PROG_HSA || b == PROG_OBE;
    return a == PROG_LOBE && b == PROG_OBE;
}

bool progress_stronger(const struct progress_hierarchy *h, enum progress_model a, enum progress_model b)
{
    for (int s = -1; s < PROGRESS_SCOPES; s++)
        if (!owes_at_least(progress_at(h, a, s), progress_at(h, b, s)))
            return false;
    return true;
}

/* The weak model called name, in any case. */
static bool weak_model(const char *name, enum progress_model *m)
{
    for (int i = 0; i < PROGRESS_WEAK_MODELS; i++)
        if (strcasecmp(name, names[i]) == 0) {
            *m = (enum progress_model)i;
            return true;
        }
    return false;
}

bool progress_parse_scopes(const char *text, char sep, struct progress_hierarchy *h,
                           enum progress_model *default_model, char *err, size_t errlen)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    char seps[2] = { sep, '\0' }, *save = NULL;
    for (char *tok = strtok_r(buf, seps, &save); tok; tok = strtok_r(NULL, seps, &save)) {
        while (isspace((unsigned char)*tok))
            tok++;
        char *eq = strchr(tok, '=');
        enum progress_model m;
        if (!eq || !weak_model(eq + 1, &m)) {
            snprintf(err, errlen, "'%s' is not SCOPE=MODEL with MODEL one of fair, hsa, obe, hsa_obe, lobe, unfair",
                     tok);
            return false;
        }
        *eq = '\0';
        if (default_model && strcasecmp(tok, "DEFAULT") == 0) {
            *default_model = m;
            continue;
        }
        int s = 0;
        while (s < PROGRESS_SCOPES && strcasecmp(tok, scope_names[s]) != 0)
            s++;
        if (s == PROGRESS_SCOPES) {
            snprintf(err, errlen, "unknown scope '%s' (SYS, GPU, CTA for PTX; DV, QF, WG, SG for Vulkan)", tok);
            return false;
        }
        h->at[s] = (signed char)(m + 1);
    }
    return true;
}

bool progress_parse_spec(const char *text, enum progress_model *m, struct progress_hierarchy *h, char *err,
                         size_t errlen)
{
    memset(h, 0, sizeof *h);
    size_t n = strlen(text);
    if (text[0] == '[') {
        if (n < 2 || text[n - 1] != ']') {
            snprintf(err, errlen, "'%s' has no closing ']'", text);
            return false;
        }
        char inner[256];
        snprintf(inner, sizeof inner, "%.*s", (int)(n - 2), text + 1);
        *m = PROG_FAIR;
        return progress_parse_scopes(inner, ',', h, m, err, errlen);
    }
    char head[64];
    const char *semi = strchr(text, ';');
    snprintf(head, sizeof head, "%.*s", (int)(semi ? (size_t)(semi - text) : n), text);
    if (!progress_parse(head, m)) {
        snprintf(err, errlen, "unknown progress model '%s'", head);
        return false;
    }
    return !semi || progress_parse_scopes(semi + 1, ';', h, NULL, err, errlen);
}

void progress_label(enum progress_model m, const struct progress_hierarchy *h, char *buf, size_t len)
{
    const char *name = progress_name(m);   /* copied, not formatted: a batch labels every row */
    size_t used = strlen(name);
    if (len == 0)
        return;
    if (used >= len)
        used = len - 1;
    memcpy(buf, name, used);
    buf[used] = '\0';
    for (int s = 0; h && s < PROGRESS_SCOPES && used < len; s++)
        if (h->at[s])
            used += (size_t)snprintf(buf + used, len - used, ";%s=%s", scope_names[s], names[h->at[s] - 1]);
}

/* A group of threads sharing a scope instance, or one thread (a leaf). */
struct node {
    int id;                  /* scope instance id, or the thread's P number */
    int thread;              /* thread index of a leaf, -1 for a group */
    int scope;               /* a group's scope (-1: the root above the device) */
    int nchild;
    struct node *child;
    lit progress, sched, once;
};

/* The scope instance of thread t at hierarchy level k (0: the whole device). */
static int level_id(const struct program *p, int t, int k)
{
    const struct thread *th = &p->lit->threads[t];
    int levels = p->lit->dialect == DIALECT_PTX ? 2 : 3;
    return k <= 0 || k > levels ? 0 : th->scope_id[levels - k];
}

/* Sorts nodes[0..k) by increasing id (HSA and LOBE look at lower or
 * higher ids): a few siblings, whose ids differ, by insertion. */
static void sort_by_id(struct node *nodes, int k)
{
    for (int i = 1; i < k; i++) {
        struct node x = nodes[i];
        int j = i;
        for (; j > 0 && nodes[j - 1].id > x.id; j--)
            nodes[j] = nodes[j - 1];
        nodes[j] = x;
    }
}

/* Builds the children of n from threads[0..k) at hierarchy level `level`,
 * by increasing id; scratch holds k threads for each level below. */
static void build(const struct program *p, struct node *n, const int *threads, int k, int level, int *scratch)
{
    int levels = p->lit->dialect == DIALECT_PTX ? 3 : 4;
    n->child = xcalloc((size_t)(k ? k : 1), sizeof *n->child);
    if (level == levels) {
        for (int i = 0; i < k; i++)
            n->child[n->nchild++] = (struct node){ .id = p->lit->threads[threads[i]].id,
                                                   .thread = threads[i] };
        sort_by_id(n->child, n->nchild);
        return;
    }
    for (int i = 0; i < k; i++) {
        int id = level_id(p, threads[i], level), m = 0;
        bool seen = false;   /* its group is built already */
        for (int j = 0; j < i && !seen; j++)
            seen = level_id(p, threads[j], level) == id;
        if (seen)
            continue;
        for (int j = i; j < k; j++)
            if (level_id(p, threads[j], level) == id)
                scratch[m++] = threads[j];
        struct node *g = &n->child[n->nchild++];
        *g = (struct node){ .id = id, .thread = -1, .scope = progress_scope_at(p->lit->dialect, level) };
        build(p, g, scratch, m, level + 1, scratch + m);
    }
    sort_by_id(n->child, n->nchild);
}

static void free_node(struct node *n)
{
    for (int i = 0; i < n->nchild; i++)
        free_node(&n->child[i]);
    free(n->child);
}

/* What a group with progress owes its children under model m. */
static void forward(struct cnf *c, const struct node *g, enum progress_model m)
{
    int k = g->nchild;
    const struct node *ch = g->child;
    for (int i = 0; i < k; i++) {
        lit owed = LIT_FALSE;   /* the child must progress when this holds */
        if (m == PROG_FAIR)
            owed = LIT_TRUE;
        if (m == PROG_HSA || m == PROG_HSA_OBE) {
            lit lower_schedulable = LIT_FALSE;
            for (int j = 0; j < i; j++)
                lower_schedulable = cnf_or(c, lower_schedulable, ch[j].sched);
            owed = cnf_or(c, owed, -lower_schedulable);
        }
        if (m == PROG_OBE || m == PROG_HSA_OBE)
            owed = cnf_or(c, owed, ch[i].once);
        if (m == PROG_LOBE)
            for (int j = i; j < k; j++)
                owed = cnf_or(c, owed, ch[j].once);
        cnf_clause3(c, -g->progress, -owed, ch[i].progress);
    }
}

/* Literals and constraints of n and its subtree.  A group's "was
 * scheduled once" is the OR of its children's (the gate, shared by every
 * model's tree): it is only ever bounded from below and assumed
 * negatively, so its least value is as good as any (Dat3M leaves it free
 * above the children).  The root's schedulable is the OR of its
 * children's the same way (no parent reads it); every other group's is
 * free above its children, since a parent's HSA reads it positively. */
static void encode_node(struct cnf *c, struct node *n, enum progress_model m, const struct progress_hierarchy *h,
                        const struct thread_status *ts, bool root)
{
    if (n->thread >= 0) {
        const struct thread_status *s = &ts[n->thread];
        n->sched = cnf_and(c, -s->terminated, -s->blocked);
        n->once = s->started;
        cnf_clause2(c, -n->progress, -s->halted);
        return;
    }
    if (!root)
        n->sched = cnf_var(c);
    lit some_child = LIT_FALSE, any_sched = LIT_FALSE;
    n->once = LIT_FALSE;
    for (int i = 0; i < n->nchild; i++) {
        struct node *ch = &n->child[i];
        /* no "child progress implies the group's": a child's progress
         * only obliges (its subtree), and only the group's progress asks
         * for it */
        ch->progress = cnf_var(c);
        encode_node(c, ch, m, h, ts, false);
        if (root)
            any_sched = cnf_or(c, any_sched, ch->sched);
        else
            cnf_imply(c, ch->sched, n->sched);
        n->once = cnf_or(c, n->once, ch->once);
        some_child = cnf_or(c, some_child, cnf_and(c, ch->progress, ch->sched));
    }
    if (root)
        n->sched = any_sched;
    /* minimal progress: a schedulable group with progress runs some child */
    cnf_clause3(c, -n->progress, -n->sched, some_child);
    forward(c, n, progress_at(h, m, n->scope));
}

/* Whether a group whose scheduler is outer and whose only child is a
 * group with scheduler inner may give way to that child, which then takes
 * its place among its siblings, the facts admitted the same.  (Its
 * schedulable may exceed the child's only where it has no progress, and
 * so may the child's.)  Its progress is the child's, unless outer may
 * withhold it: then the child, given progress it did not get, must owe
 * nothing for it. */
static bool passes_through(enum progress_model outer, enum progress_model inner)
{
    if (outer == PROG_FAIR || outer == PROG_HSA || outer == PROG_HSA_OBE)
        return true;   /* it owes its only child progress whenever it has it */
    if (inner == PROG_UNFAIR)
        return true;   /* the child owes nothing */
    /* obe and lobe withhold progress only from a child never scheduled,
     * where obe and lobe owe its children nothing */
    return outer != PROG_UNFAIR && (inner == PROG_OBE || inner == PROG_LOBE);
}

/* Replaces every group of n's subtree whose only child is a group by that
 * child where passes_through allows (the scope chain above one subgroup,
 * say), keeping the group's id for its place among its siblings. */
static void collapse(struct node *n, enum progress_model m, const struct progress_hierarchy *h)
{
    while (n->thread < 0 && n->nchild == 1 && n->child[0].thread < 0
           && passes_through(progress_at(h, m, n->scope), progress_at(h, m, n->child[0].scope))) {
        struct node *only = n->child;
        int id = n->id;
        *n = *only;
        n->id = id;
        free(only);
    }
    for (int i = 0; i < n->nchild; i++)
        collapse(&n->child[i], m, h);
}

/* Whether model m is fair at every scope of hierarchy h. */
static bool fair_everywhere(enum progress_model m, const struct progress_hierarchy *h)
{
    bool fair = true;
    for (int s = -1; s < PROGRESS_SCOPES; s++)
        fair &= progress_at(h, m, s) == PROG_FAIR;
    return fair;
}

/* The tree of p's threads that model m's constraints are over: the scope
 * hierarchy, each group's children by increasing id, chains collapsed. */
static struct node tree(const struct program *p, enum progress_model m, const struct progress_hierarchy *h)
{
    int *all = xcalloc((size_t)p->nthreads * 6 + 1, sizeof *all);   /* and scratch for 5 levels */
    for (int t = 0; t < p->nthreads; t++)
        all[t] = t;
    struct node root = { .id = 0, .thread = -1, .scope = -1 };
    build(p, &root, all, p->nthreads, 0, all + p->nthreads);
    free(all);
    collapse(&root, m, h);
    return root;
}

void progress_encode(struct cnf *c, const struct program *p, enum progress_model m,
                     const struct progress_hierarchy *h, const struct thread_status *ts, lit active)
{
    /* Fair at every scope: every group with progress owes every child
     * progress, so every thread has it, and the rest (each group
     * schedulable when a child is, its once when a child's) constrains
     * nothing that a choice of the groups' own literals cannot meet. */
    if (fair_everywhere(m, h)) {
        for (int t = 0; t < p->nthreads; t++)
            cnf_clause2(c, -active, -ts[t].halted);
        return;
    }
    struct node root = tree(p, m, h);
    root.progress = active;   /* every constraint follows from some group's progress */
    encode_node(c, &root, m, h, ts, true);
    free_node(&root);
}

/* The bit of a node's (progress, schedulable) pair in a set of pairs. */
#define PAIR(progress, sched) (1u << (2 * (progress) + (sched)))

/* Whether group g, with progress, can meet its constraints under
 * scheduler m, its children taking pairs from pairs[] (their once in
 * once[]): its schedulable is sched (bounding theirs), or with exact the
 * OR of theirs (the root's).  Over the children in order, the states
 * reached: some lower child schedulable, some child run (progress and
 * schedulable), as the bit 2 * lower + ran. */
static bool group_meets(const struct node *g, const unsigned *pairs, const bool *once, enum progress_model m,
                        bool sched, bool exact)
{
    unsigned states = 1;
    int once_left = 0;   /* children from i on scheduled once (lobe) */
    for (int i = 0; i < g->nchild; i++)
        once_left += once[i];
    for (int i = 0; i < g->nchild; i++) {
        bool later_once = once_left > 0;
        once_left -= once[i];
        unsigned next = 0;
        for (unsigned st = 0; st < 4; st++) {
            if (!(states >> st & 1))
                continue;
            bool lower = st >> 1, ran = st & 1;
            bool owed = m == PROG_FAIR || ((m == PROG_HSA || m == PROG_HSA_OBE) && !lower)
                        || ((m == PROG_OBE || m == PROG_HSA_OBE) && once[i]) || (m == PROG_LOBE && later_once);
            for (unsigned pr = 0; pr < 2; pr++)
                for (unsigned sc = 0; sc < 2; sc++)
                    if ((pairs[i] & PAIR(pr, sc)) && (pr || !owed) && (exact || sched || !sc))
                        next |= 1u << (2 * (lower || sc) + (ran || (pr && sc)));
        }
        states = next;
    }
    for (unsigned st = 0; st < 4; st++)   /* minimal progress */
        if ((states >> st & 1) && (!(exact ? st >> 1 : sched) || (st & 1)))
            return true;
    return false;
}

/* The pairs node n can take under model m given the threads' facts f,
 * with its once in *once; with root, whether the root, with progress,
 * can meet its constraints (0 or 1). */
static unsigned node_pairs(const struct node *n, enum progress_model m, const struct progress_hierarchy *h,
                           const struct thread_facts *f, bool *once, bool root)
{
    if (n->thread >= 0) {
        const struct thread_facts *t = &f[n->thread];
        unsigned sc = !t->terminated && !t->blocked;
        *once = t->started;
        return PAIR(0, sc) | (t->halted ? 0 : PAIR(1, sc));
    }
    unsigned *pairs = xcalloc((size_t)n->nchild, sizeof *pairs);
    bool *onces = xcalloc((size_t)n->nchild, sizeof *onces);
    bool all_idle = true;   /* every child can be unschedulable */
    *once = false;
    for (int i = 0; i < n->nchild; i++) {
        pairs[i] = node_pairs(&n->child[i], m, h, f, &onces[i], false);
        all_idle &= (pairs[i] & (PAIR(0, 0) | PAIR(1, 0))) != 0;
        *once |= onces[i];
    }
    enum progress_model sm = progress_at(h, m, n->scope);
    unsigned res = root ? group_meets(n, pairs, onces, sm, false, true)
                        : PAIR(0, 1) | (all_idle ? PAIR(0, 0) : 0)
                          | (group_meets(n, pairs, onces, sm, false, false) ? PAIR(1, 0) : 0)
                          | (group_meets(n, pairs, onces, sm, true, false) ? PAIR(1, 1) : 0);
    free(pairs);
    free(onces);
    return res;
}

bool progress_admits(const struct program *p, enum progress_model m, const struct progress_hierarchy *h,
                     const struct thread_facts *f)
{
    if (fair_everywhere(m, h)) {
        for (int t = 0; t < p->nthreads; t++)
            if (f[t].halted)
                return false;
        return true;
    }
    struct node root = tree(p, m, h);
    bool once;
    bool ok = node_pairs(&root, m, h, f, &once, true);
    free_node(&root);
    return ok;
}
