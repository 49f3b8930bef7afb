/* The litmus printer: header, initial state, ssw pairs, one column per
 * thread, locations list, filter and final condition (an OpenCL test's
 * initial state and threads in printer_opencl.c). */
#include "litmus/printer_impl.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void pr_put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    if (t->failed)
        return;
    va_start(ap, fmt);
    int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->failed = true;
        return;
    }
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = xcapacity(t->cap, t->len + (size_t)n + 1, 256);
        char *grown = realloc(t->s, cap);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->s = grown;
        t->cap = cap;
        va_start(ap, fmt);
        vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
    }
    t->len += (size_t)n;
}

/* ------------------------------------------------------------------------ */
/* Instructions                                                              */

static const char *op_word(enum binop op)
{
    static const char *const words[] = { "add", "sub", "mul", "div", "and", "or", "xor", "exch", "cas",
                                                 "smin", "smax", "umin", "umax" };
    return words[op];
}

static const char *branch_word(enum cmpop c)
{
    static const char *const words[] = { "beq", "bne", "bge", "ble", "bgt", "blt" };
    return words[c];
}

void pr_operand(struct text *t, const struct thread *th, const struct operand *o)
{
    if (o->is_reg)
        pr_put(t, "%s", th->reg_names[o->reg]);
    else
        pr_put(t, "%" PRId64, o->value);
}

/* ", id[, quorum]" of a barrier, when it has them. */
static void put_barrier_operands(struct text *t, const struct thread *th, const struct instr *in)
{
    pr_put(t, " %" PRId64, in->bar_instance);
    if (in->has_bar_id) {
        pr_put(t, ", ");
        pr_operand(t, th, &in->bar_id);
    }
    if (in->has_bar_quorum) {
        pr_put(t, ", ");
        pr_operand(t, th, &in->bar_quorum);
    }
}

/* Branches, gotos, labels and local arithmetic: the same in both dialects
 * (PTX spells a move "ld r, v"). */
static void put_common(struct text *t, const struct thread *th, const struct instr *in)
{
    switch (in->kind) {
    case I_BRANCH:
        pr_put(t, "%s ", branch_word(in->cmp));
        pr_operand(t, th, &in->a);
        pr_put(t, ", ");
        pr_operand(t, th, &in->b);
        pr_put(t, ", %s", th->label_names[in->label]);
        break;
    case I_GOTO:
        pr_put(t, "goto %s", th->label_names[in->label]);
        break;
    case I_LABEL:
        pr_put(t, "%s:", th->label_names[in->label]);
        break;
    case I_ANY:   /* no dialect has it: the program does not parse back */
        pr_put(t, "any %s, %" PRId64, th->reg_names[in->dst], in->a.value);
        break;
    case I_UB:    /* no dialect has it either */
        pr_put(t, "unreachable");
        break;
    default: /* I_LOCAL */
        if (in->op == OP_EXCH) {
            pr_put(t, "ld %s, ", th->reg_names[in->dst]);
            pr_operand(t, th, &in->a);
            break;
        }
        pr_put(t, "%s %s, ", op_word(in->op), th->reg_names[in->dst]);
        pr_operand(t, th, &in->a);
        pr_put(t, ", ");
        pr_operand(t, th, &in->b);
        break;
    }
}

/* ".weak" or ".<order>.<scope>" of a PTX access. */
static void put_ptx_order(struct text *t, const struct instr *in)
{
    if (in->mo == MO_WEAK)
        pr_put(t, ".weak");
    else
        pr_put(t, ".%s.%s", mo_name(in->mo), scope_name(in->scope));
}

static void put_ptx_instr(struct text *t, const struct litmus *l, const struct thread *th,
                          const struct instr *in)
{
    static const char *const loads[] = { "ld", "tld", "suld", "cold" };
    static const char *const stores[] = { "st", "st", "sust", "st" };
    const char *loc = in->loc >= 0 ? l->locs[in->loc].name : "";
    switch (in->kind) {
    case I_LOAD:
        pr_put(t, "%s", loads[in->proxy]);
        put_ptx_order(t, in);
        pr_put(t, " %s, %s", th->reg_names[in->dst], loc);
        break;
    case I_STORE:
        pr_put(t, "%s", stores[in->proxy]);
        put_ptx_order(t, in);
        pr_put(t, " %s, ", loc);
        pr_operand(t, th, &in->a);
        break;
    case I_RMW:
        pr_put(t, "%s%s.%s.%s.%s ", in->proxy == PROXY_SURFACE ? "su" : "", in->dst < 0 ? "red" : "atom",
            mo_name(in->mo), scope_name(in->scope), op_word(in->op));
        if (in->dst >= 0)
            pr_put(t, "%s, ", th->reg_names[in->dst]);
        pr_put(t, "%s, ", loc);
        pr_operand(t, th, &in->a);
        if (in->op == OP_CAS) {
            pr_put(t, ", ");
            pr_operand(t, th, &in->b);
        }
        break;
    case I_FENCE:
        pr_put(t, "fence.%s.%s", mo_name(in->mo), scope_name(in->scope));
        break;
    case I_PROXY_FENCE:
        pr_put(t, "fence.proxy.%s", proxy_name(in->proxy));
        break;
    case I_ALIAS_FENCE:
        pr_put(t, "fence.proxy.alias");
        break;
    case I_BARRIER:
        pr_put(t, "bar.cta.%s", in->arrive ? "arrive" : "sync");
        put_barrier_operands(t, th, in);
        break;
    default:
        put_common(t, th, in);
        break;
    }
}

/* ".acq", ".rel" or ".acq_rel"; nothing for a relaxed or unordered one. */
static void put_vk_order(struct text *t, enum mo mo)
{
    if (mo == MO_ACQUIRE)
        pr_put(t, ".acq");
    else if (mo == MO_RELEASE)
        pr_put(t, ".rel");
    else if (mo == MO_ACQ_REL)
        pr_put(t, ".acq_rel");
}

/* ".semsc<k>...[.semav][.semvis]". */
static void put_vk_semantics(struct text *t, const struct instr *in)
{
    for (int k = 0; k < 4; k++)
        if (in->semsc & (1u << k))
            pr_put(t, ".semsc%d", k);
    if (in->vk_flags & VK_SEMAV)
        pr_put(t, ".semav");
    if (in->vk_flags & VK_SEMVIS)
        pr_put(t, ".semvis");
}

/* An atomic load or store, or a plain one with its .nonpriv/.av/.vis. */
static void put_vk_access(struct text *t, const struct instr *in, bool is_load)
{
    pr_put(t, "%s", is_load ? "ld" : "st");
    if (in->vk_flags & VK_ATOMIC) {
        pr_put(t, ".atom");
        put_vk_order(t, in->mo);
        pr_put(t, ".%s.sc%d", scope_name(in->scope), in->storage_class);
        put_vk_semantics(t, in);
        return;
    }
    if (in->vk_flags & (is_load ? VK_VIS : VK_AV))
        pr_put(t, ".%s.%s", is_load ? "vis" : "av", scope_name(in->scope));
    else if (in->vk_flags & VK_NONPRIV)
        pr_put(t, ".nonpriv");
    pr_put(t, ".sc%d", in->storage_class);
}

static void put_vk_instr(struct text *t, const struct litmus *l, const struct thread *th,
                         const struct instr *in)
{
    const char *loc = in->loc >= 0 ? l->locs[in->loc].name : "";
    switch (in->kind) {
    case I_LOAD:
        put_vk_access(t, in, true);
        pr_put(t, " %s, %s", th->reg_names[in->dst], loc);
        break;
    case I_STORE:
        put_vk_access(t, in, false);
        pr_put(t, " %s, ", loc);
        pr_operand(t, th, &in->a);
        break;
    case I_RMW:
        pr_put(t, "rmw.atom");
        put_vk_order(t, in->mo);
        pr_put(t, ".%s.sc%d", scope_name(in->scope), in->storage_class);
        put_vk_semantics(t, in);
        if (in->op != OP_EXCH)
            pr_put(t, ".%s", op_word(in->op));
        pr_put(t, " %s, %s, ", th->reg_names[in->dst], loc);
        pr_operand(t, th, &in->a);
        break;
    case I_FENCE:
    case I_BARRIER:
        pr_put(t, "%s", in->kind == I_FENCE ? "membar" : "cbar");
        put_vk_order(t, in->mo);
        pr_put(t, ".%s", scope_name(in->scope));
        put_vk_semantics(t, in);
        if (in->kind == I_BARRIER)
            put_barrier_operands(t, th, in);
        break;
    case I_AVDEVICE:
        pr_put(t, "avdevice");
        break;
    case I_VISDEVICE:
        pr_put(t, "visdevice");
        break;
    default:
        put_common(t, th, in);
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* Conditions                                                                */

static void put_value(struct text *t, const struct litmus *l, const struct avalue *v)
{
    if (v->kind == AV_CONST)
        pr_put(t, "%" PRId64, v->value);
    else if (v->kind == AV_REG)
        pr_put(t, "P%d:%s", l->threads[v->thread].id, l->threads[v->thread].reg_names[v->reg]);
    else
        pr_location(t, l, v->loc);
}

void pr_location(struct text *t, const struct litmus *l, int loc)
{
    if (l->dialect == DIALECT_OPENCL)
        pr_opencl_location(t, l, loc);
    else
        pr_put(t, "%s", l->locs[loc].name);
}

/* Binding strength: or 1, and 2, a negation or comparison 3. */
static int strength(const struct assertion *a)
{
    return a->kind == A_OR ? 1 : a->kind == A_AND ? 2 : 3;
}

static void put_assertion(struct text *t, const struct litmus *l, const struct assertion *a);

/* Prints a, in parentheses when it binds more loosely than at_least. */
static void put_operand_assertion(struct text *t, const struct litmus *l, const struct assertion *a,
                                  int at_least)
{
    bool parens = strength(a) < at_least;
    pr_put(t, "%s", parens ? "(" : "");
    put_assertion(t, l, a);
    pr_put(t, "%s", parens ? ")" : "");
}

static void put_assertion(struct text *t, const struct litmus *l, const struct assertion *a)
{
    static const char *const cmps[] = { "==", "!=", ">=", "<=", ">", "<" };
    switch (a->kind) {
    case A_TRUE:             /* the parser never makes one; an equivalent */
        pr_put(t, "0 == 0");
        break;
    case A_NOT:
        pr_put(t, "~");
        put_operand_assertion(t, l, a->lhs, 3);
        break;
    case A_AND:
    case A_OR: {             /* left-associative: the right operands bind tighter */
        int n = assertion_chain(a, NULL);
        const struct assertion **ops = malloc((size_t)n * sizeof *ops);
        if (!ops) {
            t->failed = true;
            break;
        }
        assertion_chain(a, ops);     /* in a loop: a chain may be any length */
        for (int i = 0; i < n; i++) {
            pr_put(t, "%s", i == 0 ? "" : a->kind == A_AND ? " /\\ " : " \\/ ");
            put_operand_assertion(t, l, ops[i], strength(a) + (i > 0));
        }
        free(ops);
        break;
    }
    case A_CMP:
        put_value(t, l, &a->a);
        pr_put(t, " %s ", cmps[a->cmp]);
        put_value(t, l, &a->b);
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* The parts of a test                                                       */

static void put_initial_state(struct text *t, const struct litmus *l)
{
    pr_put(t, "{\n");
    for (int i = 0; i < l->nlocs; i++) {
        const struct location *loc = &l->locs[i];
        if (loc->alias_of < 0)
            pr_put(t, "%s=%" PRId64 ";\n", loc->name, loc->init);
        else if (loc->alias_proxy != PROXY_GENERIC)
            pr_put(t, "%s @ %s aliases %s;\n", loc->name, proxy_name(loc->alias_proxy),
                l->locs[loc->alias_of].name);
        else
            pr_put(t, "%s aliases %s;\n", loc->name, l->locs[loc->alias_of].name);
    }
    for (int i = 0; i < l->nthreads; i++) {
        const struct thread *th = &l->threads[i];
        for (int r = 0; r < th->nregs; r++)
            if (th->reg_has_init[r])
                pr_put(t, "P%d:%s=%" PRId64 ";\n", th->id, th->reg_names[r], th->reg_init[r]);
    }
    pr_put(t, "}\n");
    if (l->nssw > 0) {
        pr_put(t, "{\n");
        for (int i = 0; i < l->nssw; i++)
            pr_put(t, "ssw P%d P%d;\n", l->threads[l->ssw[i].from].id, l->threads[l->ssw[i].to].id);
        pr_put(t, "}\n");
    }
}

/* The cells of the program table, row-major: nthreads + 1 strings per row
 * (the thread header is row 0), NULL for an empty cell. */
static char **program_cells(const struct litmus *l, int nrows, bool *failed)
{
    int ncols = l->nthreads;
    char **cells = calloc((size_t)(nrows + 1) * (size_t)(ncols ? ncols : 1), sizeof *cells);
    if (!cells) {
        *failed = true;
        return NULL;
    }
    for (int c = 0; c < ncols && !*failed; c++) {
        const struct thread *th = &l->threads[c];
        struct text cell = { 0 };
        if (l->dialect == DIALECT_PTX)
            pr_put(&cell, "P%d@cta %d,gpu %d", th->id, th->scope_id[0], th->scope_id[1]);
        else
            pr_put(&cell, "P%d@sg %d, wg %d, qf %d", th->id, th->scope_id[0], th->scope_id[1], th->scope_id[2]);
        cells[c] = cell.s;
        *failed |= cell.failed;
        for (int i = 0; i < th->ninstrs && !*failed; i++) {
            char *in = litmus_print_instr(l, th, &th->instrs[i]);
            cells[(size_t)(i + 1) * (size_t)ncols + (size_t)c] = in;
            *failed |= in == NULL;
        }
    }
    return cells;
}

/* The thread header and one row per instruction index, columns aligned. */
static void put_program(struct text *t, const struct litmus *l)
{
    int nrows = 0, ncols = l->nthreads;
    for (int c = 0; c < ncols; c++)
        nrows = l->threads[c].ninstrs > nrows ? l->threads[c].ninstrs : nrows;
    char **cells = program_cells(l, nrows, &t->failed);
    size_t *width = calloc((size_t)(ncols ? ncols : 1), sizeof *width);
    if (!cells || !width)
        t->failed = true;
    for (int r = 0; !t->failed && r <= nrows; r++)
        for (int c = 0; c < ncols; c++) {
            const char *s = cells[(size_t)r * (size_t)ncols + (size_t)c];
            size_t w = s ? strlen(s) : 0;
            width[c] = w > width[c] ? w : width[c];
        }
    for (int r = 0; !t->failed && r <= nrows; r++) {
        for (int c = 0; c < ncols; c++) {
            const char *s = cells[(size_t)r * (size_t)ncols + (size_t)c];
            pr_put(t, "%s %-*s ", c ? "|" : "", (int)width[c], s ? s : "");
        }
        pr_put(t, ";\n");
    }
    if (cells)
        for (size_t i = 0; i < (size_t)(nrows + 1) * (size_t)ncols; i++)
            free(cells[i]);
    free(cells);
    free(width);
}

void pr_tail(struct text *t, const struct litmus *l)
{
    static const char *const quants[] = { "", "exists", "~exists", "forall" };
    if (l->has_locations) {
        pr_put(t, "locations [");
        for (int i = 0; i < l->nobserved; i++) {
            put_value(t, l, &l->observed[i]);
            pr_put(t, ";%s", i + 1 < l->nobserved ? " " : "");
        }
        pr_put(t, "]\n");
    }
    if (l->filter) {
        pr_put(t, "filter (");
        put_assertion(t, l, l->filter);
        pr_put(t, ")\n");
    }
    if (l->quant != Q_NONE) {
        pr_put(t, "%s (", quants[l->quant]);
        put_assertion(t, l, l->assertion);
        pr_put(t, ")\n");
    }
}

char *litmus_print_instr(const struct litmus *l, const struct thread *th, const struct instr *in)
{
    struct text t = { 0 };
    if (l->dialect == DIALECT_PTX)
        put_ptx_instr(&t, l, th, in);
    else if (l->dialect == DIALECT_OPENCL)
        pr_opencl_instr(&t, l, th, in);
    else
        put_vk_instr(&t, l, th, in);
    if (t.failed) {
        free(t.s);
        return NULL;
    }
    return t.s;
}

char *litmus_print(const struct litmus *l)
{
    struct text t = { 0 };
    static const char *const headers[] = { "PTX", "VULKAN", "OPENCL" };
    pr_put(&t, "%s %s\n", headers[l->dialect], l->name ? l->name : "");
    if (l->doc)
        pr_put(&t, "%s\n", l->doc);
    if (l->dialect == DIALECT_OPENCL) {
        pr_opencl_program(&t, l);
    } else {
        put_initial_state(&t, l);
        put_program(&t, l);
    }
    pr_tail(&t, l);
    if (t.failed) {
        free(t.s);
        return NULL;
    }
    return t.s;
}
