/* The OpenCL printer: an OpenCL test as text that the OpenCL parser reads
 * back to the same instructions, registers and labels.  Each instruction
 * is one statement that the parser lowers to exactly it with no
 * temporary: "r = *x;", "r = atomic_load_explicit(x, mo, scope);",
 * "r = a + b;", "if (a == b) goto L2;", "L2: ;", and, for what C cannot
 * say in one statement, the parser's own forms __nonatomic_load,
 * __nonatomic_store and __atomic_cmpxchg.  Each thread declares its
 * registers (the parser's temporaries "%tN" too) and labels (GNU C's
 * __label__) first, in their order, and every location with an address
 * space as a parameter, so that the tags come back the same. */
#include "litmus/printer_impl.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/opencl_impl.h"

/* The array cell that location loc is: its base location and index (loc
 * itself and 0 when it is no cell "name+k" of a location "name"). */
static int cell_base(const struct litmus *l, int loc, int *k)
{
    const char *name = l->locs[loc].name, *plus = strrchr(name, '+');
    *k = 0;
    if (!plus || !plus[1] || strspn(plus + 1, "0123456789") != strlen(plus + 1))
        return loc;
    for (int b = 0; b < l->nlocs; b++)
        if (strlen(l->locs[b].name) == (size_t)(plus - name) && strncmp(l->locs[b].name, name, (size_t)(plus - name)) == 0) {
            *k = atoi(plus + 1);
            return b;
        }
    return loc;
}

void pr_opencl_location(struct text *t, const struct litmus *l, int loc)
{
    int k, base = cell_base(l, loc, &k);
    if (k == 0)
        pr_put(t, "%s", l->locs[loc].name);
    else
        pr_put(t, "%s[%d]", l->locs[base].name, k);
}

/* The address of location loc as an atomic function takes it: "x" or "y + 1". */
static void put_address(struct text *t, const struct litmus *l, int loc)
{
    int k, base = cell_base(l, loc, &k);
    if (k == 0)
        pr_put(t, "%s", l->locs[loc].name);
    else
        pr_put(t, "%s + %d", l->locs[base].name, k);
}

/* Appends word, or marks the text failed when there is none. */
static void put_word(struct text *t, const char *word)
{
    if (word)
        pr_put(t, "%s", word);
    else
        t->failed = true;
}

/* ", memory_order_..., memory_scope_...)" */
static void put_order_scope(struct text *t, const struct instr *in)
{
    pr_put(t, ", ");
    put_word(t, cl_order_word(in->mo));
    pr_put(t, ", ");
    put_word(t, cl_scope_word(in->scope));
    pr_put(t, ")");
}

/* "CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE" of fence flags. */
static void put_flags(struct text *t, unsigned flags)
{
    if (!(flags & (CL_GLOBAL | CL_LOCAL)))
        t->failed = true;
    pr_put(t, "%s%s%s", flags & CL_GLOBAL ? "CLK_GLOBAL_MEM_FENCE" : "",
           (flags & CL_GLOBAL) && (flags & CL_LOCAL) ? " | " : "", flags & CL_LOCAL ? "CLK_LOCAL_MEM_FENCE" : "");
}

/* True when the parser's "*x" form gives a non-atomic access of in's
 * location and scope ("*x" reads without scope, "*x = v" writes at
 * work-item scope, both of a parameter's own location). */
static bool plain_form(const struct litmus *l, const struct instr *in)
{
    int k;
    cell_base(l, in->loc, &k);
    return k == 0 && in->scope == (in->kind == I_LOAD ? SCOPE_NONE : SCOPE_WI);
}

/* A non-atomic load or store. */
static void put_nonatomic(struct text *t, const struct litmus *l, const struct thread *th, const struct instr *in)
{
    bool load = in->kind == I_LOAD;
    if (plain_form(l, in)) {
        if (load)
            pr_put(t, "%s = *%s;", th->reg_names[in->dst], l->locs[in->loc].name);
        else {
            pr_put(t, "*%s = ", l->locs[in->loc].name);
            pr_operand(t, th, &in->a);
            pr_put(t, ";");
        }
        return;
    }
    if (load)
        pr_put(t, "%s = ", th->reg_names[in->dst]);
    pr_put(t, "__nonatomic_%s(", load ? "load" : "store");
    put_address(t, l, in->loc);
    if (!load) {
        pr_put(t, ", ");
        pr_operand(t, th, &in->a);
    }
    if (in->scope != SCOPE_NONE) {
        pr_put(t, ", ");
        put_word(t, cl_scope_word(in->scope));
    }
    pr_put(t, ");");
}

/* A load, store or RMW. */
static void put_access(struct text *t, const struct litmus *l, const struct thread *th, const struct instr *in)
{
    if (in->mo == MO_WEAK) {
        put_nonatomic(t, l, th, in);
        return;
    }
    if (in->kind != I_STORE)
        pr_put(t, "%s = ", th->reg_names[in->dst]);
    if (in->kind == I_LOAD)
        pr_put(t, "atomic_load_explicit(");
    else if (in->kind == I_STORE)
        pr_put(t, "atomic_store_explicit(");
    else if (in->op == OP_CAS)
        pr_put(t, "__atomic_cmpxchg(");
    else if (in->op == OP_EXCH)
        pr_put(t, "atomic_exchange_explicit(");
    else {
        pr_put(t, "atomic_fetch_");
        put_word(t, cl_fetch_word(in->op));
        pr_put(t, "_explicit(");
    }
    t->failed |= in->kind == I_RMW && in->op == OP_CAS && !in->cas_if_equal;
    put_address(t, l, in->loc);
    if (in->kind != I_LOAD) {
        pr_put(t, ", ");
        pr_operand(t, th, &in->a);
    }
    if (in->kind == I_RMW && in->op == OP_CAS) {
        pr_put(t, ", ");
        pr_operand(t, th, &in->b);
    }
    put_order_scope(t, in);
    pr_put(t, ";");
}

/* dst = a op b, or dst = a (a move). */
static void put_local(struct text *t, const struct thread *th, const struct instr *in)
{
    static const char *const ops[] = { [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/",
                                       [OP_AND] = "&", [OP_OR] = "|", [OP_XOR] = "^" };
    pr_put(t, "%s = ", th->reg_names[in->dst]);
    pr_operand(t, th, &in->a);
    if (in->op != OP_EXCH) {
        const char *op = (size_t)in->op < sizeof ops / sizeof *ops ? ops[in->op] : NULL;
        t->failed |= op == NULL;
        pr_put(t, " %s ", op ? op : "?");
        pr_operand(t, th, &in->b);
    }
    pr_put(t, ";");
}

/* A fence: atomic_work_item_fence with flags and scope, or atomic_thread_fence. */
static void put_fence(struct text *t, const struct instr *in)
{
    if (!in->cl_flags && in->scope == SCOPE_NONE) {
        pr_put(t, "atomic_thread_fence(");
        put_word(t, cl_order_word(in->mo));
        pr_put(t, ");");
        return;
    }
    pr_put(t, "atomic_work_item_fence(");
    put_flags(t, in->cl_flags);
    put_order_scope(t, in);
    pr_put(t, ";");
}

void pr_opencl_instr(struct text *t, const struct litmus *l, const struct thread *th, const struct instr *in)
{
    static const char *const cmps[] = { "==", "!=", ">=", "<=", ">", "<" };
    switch (in->kind) {
    case I_LOAD: case I_STORE: case I_RMW:
        put_access(t, l, th, in);
        break;
    case I_LOCAL:
        put_local(t, th, in);
        break;
    case I_FENCE:
        put_fence(t, in);
        break;
    case I_BARRIER:      /* the parser's barrier: acq_rel, work-group, an id */
        t->failed |= in->mo != MO_ACQ_REL || in->scope != SCOPE_WG || in->bar_instance < 0 || in->has_bar_id;
        pr_put(t, "B%" PRId64 ": barrier(", in->bar_instance);
        put_flags(t, in->cl_flags);
        pr_put(t, ");");
        break;
    case I_BRANCH:
        pr_put(t, "if (");
        pr_operand(t, th, &in->a);
        pr_put(t, " %s ", cmps[in->cmp]);
        pr_operand(t, th, &in->b);
        pr_put(t, ") goto %s;", th->label_names[in->label]);
        break;
    case I_GOTO:
        pr_put(t, "goto %s;", th->label_names[in->label]);
        break;
    case I_LABEL:
        pr_put(t, "%s: ;", th->label_names[in->label]);
        break;
    default:             /* no OpenCL spelling */
        t->failed = true;
        break;
    }
}

/* True when register r of th is a pointer parameter's address that the
 * condition names (the parser makes it, after the thread's others, when
 * it reads the condition). */
static bool address_register(const struct litmus *l, const struct thread *th, int r)
{
    for (int i = 0; i < l->nlocs && th->reg_has_init[r]; i++)
        if (strcmp(l->locs[i].name, th->reg_names[r]) == 0 && th->reg_init[r] == cl_address(i))
            return true;
    return false;
}

/* The initial state: each location (an array's cells together) and each
 * register's initial value. */
static void put_initial_state(struct text *t, const struct litmus *l)
{
    pr_put(t, "{\n");
    for (int i = 0; i < l->nlocs; i++) {
        int n = 1, k;
        while (i + n < l->nlocs && cell_base(l, i + n, &k) == i && k == n)
            n++;
        if (n == 1) {
            pr_put(t, "%s = %" PRId64 ";\n", l->locs[i].name, l->locs[i].init);
            continue;
        }
        pr_put(t, "int %s[%d] = {", l->locs[i].name, n);
        for (k = 0; k < n; k++)
            pr_put(t, "%s%" PRId64, k ? ", " : "", l->locs[i + k].init);
        pr_put(t, "};\n");
        i += n - 1;
    }
    for (int i = 0; i < l->nthreads; i++) {
        const struct thread *th = &l->threads[i];
        for (int r = 0; r < th->nregs; r++)
            if (th->reg_has_init[r] && !address_register(l, th, r))
                pr_put(t, "%d:%s = %" PRId64 ";\n", th->id, th->reg_names[r], th->reg_init[r]);
    }
    pr_put(t, "}\n");
}

/* Thread number c's parameters: every location with tags that is no
 * array cell, typed by them (int* for NAL, its spaces; a location tagged
 * GENERIC as well takes its spaces from thread 0 only). */
static void put_parameters(struct text *t, const struct litmus *l, int c)
{
    const char *sep = "";
    for (int i = 0; i < l->nlocs; i++) {
        unsigned tags = l->locs[i].cl_tags;
        int k;
        if (!tags || (cell_base(l, i, &k), k != 0))
            continue;
        unsigned spaces = tags & (CL_GLOBAL | CL_LOCAL);
        bool generic = tags & CL_GENERIC;
        t->failed |= spaces && generic && l->nthreads < 2;
        if (generic && c > 0)
            spaces = 0;
        pr_put(t, "%s%s%s%s* %s", sep, spaces & CL_GLOBAL ? "global " : "", spaces & CL_LOCAL ? "local " : "",
               tags & CL_NAL ? "int" : "atomic_int", l->locs[i].name);
        sep = ", ";
    }
}

/* One thread: header, declarations, one statement per instruction. */
static void put_thread(struct text *t, const struct litmus *l, int c)
{
    const struct thread *th = &l->threads[c];
    pr_put(t, "\nP%d@wg %d, dev %d (", th->id, th->scope_id[1], th->scope_id[2]);
    put_parameters(t, l, c);
    pr_put(t, ") {\n");
    int nregs = th->nregs;       /* the condition makes the address registers again */
    while (nregs > 0 && address_register(l, th, nregs - 1))
        nregs--;
    for (int r = 0; r < nregs; r++)
        pr_put(t, "%s%s%s", r ? ", " : "  int ", th->reg_names[r], r + 1 == nregs ? ";\n" : "");
    for (int i = 0; i < th->nlabels; i++)
        pr_put(t, "%s%s%s", i ? ", " : "  __label__ ", th->label_names[i], i + 1 == th->nlabels ? ";\n" : "");
    for (int i = 0; i < th->ninstrs && !t->failed; i++) {
        pr_put(t, "  ");
        pr_opencl_instr(t, l, th, &th->instrs[i]);
        pr_put(t, "\n");
    }
    pr_put(t, "}\n");
}

void pr_opencl_program(struct text *t, const struct litmus *l)
{
    put_initial_state(t, l);
    for (int c = 0; c < l->nthreads; c++)
        put_thread(t, l, c);
    pr_put(t, "\n");
}
