/* litmus_dump FILE...: parses each litmus file and prints a compact dump of
 * its AST, or "FILE:LINE:COL: error: MSG" on stderr; exits 1 if any failed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "litmus/ast.h"

static const char *kind_name(enum instr_kind k)
{
    static const char *const names[] = {
        "load", "store", "rmw", "local", "fence", "proxy_fence", "alias_fence",
        "barrier", "branch", "goto", "label", "avdevice", "visdevice", "any", "ub"
    };
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static const char *op_name(enum binop op)
{
    static const char *const names[] = { "add", "sub", "mul", "div", "and", "or", "xor", "exch", "cas",
                                          "smin", "smax", "umin", "umax" };
    return (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "?";
}

static const char *cmp_name(enum cmpop c)
{
    static const char *const names[] = { "==", "!=", ">=", "<=", ">", "<" };
    return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

/* Prints a register or a constant of thread t. */
static void print_operand(const struct thread *t, const struct operand *o)
{
    if (o->is_reg)
        printf("%s", t->reg_names[o->reg]);
    else
        printf("%" PRId64, o->value);
}

/* Prints the Vulkan attributes of an instruction, if any. */
static void print_vulkan_attrs(const struct instr *in)
{
    static const char *const flags[] = { "atom", "av", "vis", "nonpriv", "semav", "semvis" };
    if (in->storage_class >= 0)
        printf(" sc%d", in->storage_class);
    for (unsigned i = 0; i < 4; i++)
        if (in->semsc & (1u << i))
            printf(" semsc%u", i);
    for (unsigned i = 0; i < 6; i++)
        if (in->vk_flags & (1u << i))
            printf(" %s", flags[i]);
}

/* Prints the barrier fields of an instruction. */
static void print_barrier(const struct thread *t, const struct instr *in)
{
    printf(" %s=%" PRId64, in->arrive ? "arrive" : "bar", in->bar_instance);
    if (in->has_bar_id) {
        printf(" id=");
        print_operand(t, &in->bar_id);
    }
    if (in->has_bar_quorum) {
        printf(" quorum=");
        print_operand(t, &in->bar_quorum);
    }
}

/* Prints the fields that matter for an instruction's kind. */
static void print_instr(const struct litmus *l, const struct thread *t, const struct instr *in)
{
    printf("    %d:%d %s", in->pos.line, in->pos.col, kind_name(in->kind));
    if (in->mo != MO_NONE)
        printf(" mo=%s", mo_name(in->mo));
    if (in->scope != SCOPE_NONE)
        printf(" scope=%s", scope_name(in->scope));
    if (in->proxy != PROXY_GENERIC || in->kind == I_PROXY_FENCE)
        printf(" proxy=%s", proxy_name(in->proxy));
    if (in->kind == I_RMW || in->kind == I_LOCAL)
        printf(" op=%s", op_name(in->op));
    if (in->kind == I_BRANCH)
        printf(" cmp=%s", cmp_name(in->cmp));
    if (in->dst >= 0)
        printf(" dst=%s", t->reg_names[in->dst]);
    if (in->loc >= 0)
        printf(" loc=%s", l->locs[in->loc].name);
    if (in->kind == I_STORE || in->kind == I_RMW || in->kind == I_LOCAL || in->kind == I_BRANCH) {
        printf(" a=");
        print_operand(t, &in->a);
    }
    if ((in->kind == I_RMW && in->op == OP_CAS) || (in->kind == I_LOCAL && in->op != OP_EXCH)
        || in->kind == I_BRANCH) {
        printf(" b=");
        print_operand(t, &in->b);
    }
    if (in->label >= 0)
        printf(" label=%s", t->label_names[in->label]);
    if (in->kind == I_BARRIER)
        print_barrier(t, in);
    print_vulkan_attrs(in);
    printf("  | %s\n", in->text);
}

static void print_thread(const struct litmus *l, const struct thread *t)
{
    printf("  P%d @{%d,%d,%d} regs:", t->id, t->scope_id[0], t->scope_id[1], t->scope_id[2]);
    for (int r = 0; r < t->nregs; r++) {
        printf(" %s", t->reg_names[r]);
        if (t->reg_has_init[r])
            printf("=%" PRId64, t->reg_init[r]);
    }
    printf(" labels:");
    for (int i = 0; i < t->nlabels; i++)
        printf(" %s", t->label_names[i]);
    printf("\n");
    for (int i = 0; i < t->ninstrs; i++)
        print_instr(l, t, &t->instrs[i]);
}

static void print_value(const struct litmus *l, const struct avalue *v)
{
    if (v->kind == AV_CONST)
        printf("%" PRId64, v->value);
    else if (v->kind == AV_REG)
        printf("P%d:%s", l->threads[v->thread].id, l->threads[v->thread].reg_names[v->reg]);
    else
        printf("%s", l->locs[v->loc].name);
}

/* Prints an assertion fully parenthesised. */
static void print_assertion(const struct litmus *l, const struct assertion *a)
{
    switch (a->kind) {
    case A_TRUE:
        printf("true");
        break;
    case A_NOT:
        printf("~");
        print_assertion(l, a->lhs);
        break;
    case A_AND:
    case A_OR: {             /* a chain, in a loop: ((c1 op c2) op c3) */
        int n = assertion_chain(a, NULL);
        const struct assertion **ops = malloc((size_t)n * sizeof *ops);
        if (!ops)
            abort();
        assertion_chain(a, ops);
        for (int i = 0; i < n - 1; i++)
            printf("(");
        for (int i = 0; i < n; i++) {
            if (i > 0)
                printf(a->kind == A_AND ? " /\\ " : " \\/ ");
            print_assertion(l, ops[i]);
            if (i > 0)
                printf(")");
        }
        free(ops);
        break;
    }
    case A_CMP:
        print_value(l, &a->a);
        printf(" %s ", cmp_name(a->cmp));
        print_value(l, &a->b);
        break;
    }
}

static void print_locations(const struct litmus *l)
{
    printf("  locations:");
    for (int i = 0; i < l->nlocs; i++) {
        const struct location *loc = &l->locs[i];
        printf(" %s=%" PRId64, loc->name, loc->init);
        if (loc->alias_of >= 0)
            printf("(aliases %s @%s)", l->locs[loc->alias_of].name, proxy_name(loc->alias_proxy));
    }
    printf("\n");
}

static void print_conditions(const struct litmus *l)
{
    static const char *const quants[] = { "none", "exists", "~exists", "forall" };
    if (l->nssw) {
        printf("  ssw:");
        for (int i = 0; i < l->nssw; i++)
            printf(" %d->%d", l->ssw[i].from, l->ssw[i].to);
        printf("\n");
    }
    if (l->filter) {
        printf("  filter: ");
        print_assertion(l, l->filter);
        printf("\n");
    }
    printf("  %s", quants[l->quant]);
    if (l->assertion) {
        printf(": ");
        print_assertion(l, l->assertion);
    }
    printf("\n");
}

/* Prints the whole test. */
static void dump(const struct litmus *l)
{
    printf("%s %s %s: %d threads\n", l->path, dialect_name(l->dialect), l->name, l->nthreads);
    for (int i = 0; i < l->nthreads; i++)
        print_thread(l, &l->threads[i]);
    print_locations(l);
    print_conditions(l);
}

int main(int argc, char **argv)
{
    int status = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct litmus_error err;
        struct litmus *l = litmus_parse_file(argv[i], &err);
        if (!l) {
            fprintf(stderr, "%s:%d:%d: error: %s\n", argv[i], err.pos.line, err.pos.col, err.msg);
            status = 1;
            continue;
        }
        dump(l);
        litmus_free(l);
    }
    return status;
}
