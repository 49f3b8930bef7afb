/* Structural equality of litmus ASTs, field by field. */
#include "litmus/equal.h"

#include <stdio.h>
#include <string.h>

static bool same_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

static bool same_operand(const struct operand *a, const struct operand *b)
{
    return a->is_reg == b->is_reg && (a->is_reg ? a->reg == b->reg : a->value == b->value);
}

/* Every field an instruction's meaning depends on (not pos, not text). */
static bool same_instr(const struct instr *a, const struct instr *b)
{
    return a->kind == b->kind && a->mo == b->mo && a->scope == b->scope && a->proxy == b->proxy
        && a->op == b->op && a->cas_if_equal == b->cas_if_equal && a->cmp == b->cmp && a->dst == b->dst && a->loc == b->loc
        && same_operand(&a->a, &b->a) && same_operand(&a->b, &b->b) && a->label == b->label
        && a->vk_flags == b->vk_flags && a->storage_class == b->storage_class && a->semsc == b->semsc
        && a->cl_flags == b->cl_flags
        && a->arrive == b->arrive && a->bar_instance == b->bar_instance
        && a->has_bar_id == b->has_bar_id && a->has_bar_quorum == b->has_bar_quorum
        && same_operand(&a->bar_id, &b->bar_id) && same_operand(&a->bar_quorum, &b->bar_quorum);
}

/* Compares two threads; fills why on the first difference. */
static bool same_thread(const struct thread *a, const struct thread *b, char *why, size_t len)
{
    if (a->id != b->id || memcmp(a->scope_id, b->scope_id, sizeof a->scope_id) != 0) {
        snprintf(why, len, "thread P%d: id or placement differs", a->id);
        return false;
    }
    if (a->nregs != b->nregs || a->nlabels != b->nlabels || a->ninstrs != b->ninstrs) {
        snprintf(why, len, "thread P%d: %d/%d registers, %d/%d labels, %d/%d instructions", a->id,
                 a->nregs, b->nregs, a->nlabels, b->nlabels, a->ninstrs, b->ninstrs);
        return false;
    }
    for (int r = 0; r < a->nregs; r++)
        if (!same_str(a->reg_names[r], b->reg_names[r]) || a->reg_has_init[r] != b->reg_has_init[r]
            || (a->reg_has_init[r] && a->reg_init[r] != b->reg_init[r])) {
            snprintf(why, len, "thread P%d: register %d (%s) differs", a->id, r, a->reg_names[r]);
            return false;
        }
    for (int i = 0; i < a->nlabels; i++)
        if (!same_str(a->label_names[i], b->label_names[i])) {
            snprintf(why, len, "thread P%d: label %d (%s) differs", a->id, i, a->label_names[i]);
            return false;
        }
    for (int i = 0; i < a->ninstrs; i++)
        if (!same_instr(&a->instrs[i], &b->instrs[i])) {
            snprintf(why, len, "thread P%d: instruction %d (`%s` / `%s`) differs", a->id, i,
                     a->instrs[i].text ? a->instrs[i].text : "", b->instrs[i].text ? b->instrs[i].text : "");
            return false;
        }
    return true;
}

static bool same_avalue(const struct avalue *a, const struct avalue *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case AV_CONST: return a->value == b->value;
    case AV_REG: return a->thread == b->thread && a->reg == b->reg;
    default: return a->loc == b->loc;
    }
}

/* Goes down lhs (a chain's spine, a negation's operand) in a loop and
 * recurses on rhs only, whose depth the parser's limit on nesting bounds. */
static bool same_assertion(const struct assertion *a, const struct assertion *b)
{
    for (; a && b; a = a->lhs, b = b->lhs)
        if (a->kind != b->kind || (a->kind == A_CMP && (a->cmp != b->cmp || !same_avalue(&a->a, &b->a)
                                                        || !same_avalue(&a->b, &b->b)))
            || !same_assertion(a->rhs, b->rhs))
            return false;
    return a == b;
}

bool litmus_equal(const struct litmus *a, const struct litmus *b, char *why, size_t len)
{
    if (a->dialect != b->dialect || !same_str(a->name, b->name)) {
        snprintf(why, len, "dialect or name differs");
        return false;
    }
    if (a->nthreads != b->nthreads || a->nlocs != b->nlocs || a->nssw != b->nssw) {
        snprintf(why, len, "%d/%d threads, %d/%d locations, %d/%d ssw pairs", a->nthreads, b->nthreads,
                 a->nlocs, b->nlocs, a->nssw, b->nssw);
        return false;
    }
    for (int i = 0; i < a->nlocs; i++) {
        const struct location *x = &a->locs[i], *y = &b->locs[i];
        if (!same_str(x->name, y->name) || x->init != y->init || x->alias_of != y->alias_of
            || x->alias_proxy != y->alias_proxy || x->cl_tags != y->cl_tags) {
            snprintf(why, len, "location %d (%s) differs", i, x->name);
            return false;
        }
    }
    for (int i = 0; i < a->nssw; i++)
        if (a->ssw[i].from != b->ssw[i].from || a->ssw[i].to != b->ssw[i].to) {
            snprintf(why, len, "ssw pair %d differs", i);
            return false;
        }
    for (int i = 0; i < a->nthreads; i++)
        if (!same_thread(&a->threads[i], &b->threads[i], why, len))
            return false;
    if (a->quant != b->quant || !same_assertion(a->assertion, b->assertion)) {
        snprintf(why, len, "final condition differs");
        return false;
    }
    if (!same_assertion(a->filter, b->filter)) {
        snprintf(why, len, "filter differs");
        return false;
    }
    bool same_obs = a->has_locations == b->has_locations && a->nobserved == b->nobserved;
    for (int i = 0; same_obs && i < a->nobserved; i++)
        same_obs = same_avalue(&a->observed[i], &b->observed[i]);
    if (!same_obs) {
        snprintf(why, len, "locations list differs");
        return false;
    }
    return true;
}
