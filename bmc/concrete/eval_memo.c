/* Evaluations kept in a small ring, looked up by comparing choices. */
#include "bmc/concrete/eval_memo.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void eval_memo_init(struct eval_memo *m, const struct program *p, const struct model_desc *md)
{
    memset(m, 0, sizeof *m);
    m->p = p;
    m->md = md;
}

/* a and b pin down the same execution of p. */
static bool same_choice(const struct program *p, const struct choice *a, const struct choice *b)
{
    size_t n = (size_t)p->nevents;
    return memcmp(a->rf, b->rf, n * sizeof *a->rf) == 0 && memcmp(a->sync, b->sync, n * sizeof *a->sync) == 0
           && memcmp(a->co, b->co, n * n * sizeof *a->co) == 0 && memcmp(a->sf, b->sf, n * n * sizeof *a->sf) == 0
           && memcmp(a->final_pick, b->final_pick, (size_t)p->lit->nlocs * sizeof *a->final_pick) == 0
           && memcmp(a->stop_at, b->stop_at, (size_t)p->nthreads * sizeof *a->stop_at) == 0
           && a->has_hint == b->has_hint
           && (!a->has_hint || memcmp(a->val_hint, b->val_hint, n * sizeof *a->val_hint) == 0)
           && memcmp(a->any_val, b->any_val, (size_t)p->lit->nanys * sizeof *a->any_val) == 0;
}

/* The same axioms are off (the same names, in any order). */
static bool same_disabled(const struct eval_entry *e, const char *const *disabled, int ndisabled)
{
    if (e->ndisabled != ndisabled)
        return false;
    for (int i = 0; i < ndisabled; i++)
        if (!axiom_disabled(disabled[i], e->disabled, e->ndisabled))
            return false;
    return true;
}

static void entry_free(const struct program *p, struct eval_entry *e)
{
    evaluation_free(p, &e->ev);
    choice_free(&e->ch);
}

const struct evaluation *eval_memo_evaluate(struct eval_memo *m, const char *const *disabled, int ndisabled,
                                            const struct choice *ch)
{
    for (int i = 0; i < m->n; i++)
        if (same_disabled(m->entry[i], disabled, ndisabled) && same_choice(m->p, &m->entry[i]->ch, ch)) {
            m->reused++;
            return &m->entry[i]->ev;
        }
    if (m->n < EVAL_MEMO_SIZE)
        m->entry[m->n++] = xrealloc(NULL, sizeof *m->entry[0]);   /* every field written below */
    else
        entry_free(m->p, m->entry[m->next]);
    struct eval_entry *e = m->entry[m->next];
    m->next = (m->next + 1) % EVAL_MEMO_SIZE;
    choice_copy(ch, m->p, &e->ch);
    e->ndisabled = ndisabled <= EVAL_MEMO_MAX_DISABLED ? ndisabled : -1;
    for (int i = 0; i < e->ndisabled; i++)
        e->disabled[i] = disabled[i];
    struct skeleton k = model_skeleton_without_facts(m->md);   /* the axioms alone judge */
    evaluate(m->p, m->md, &k, disabled, ndisabled, ch, &e->ev);
    m->evaluated++;
    return &e->ev;
}

void eval_memo_free(struct eval_memo *m)
{
    for (int i = 0; i < m->n; i++) {
        entry_free(m->p, m->entry[i]);
        free(m->entry[i]);
    }
    m->n = m->next = 0;
}
