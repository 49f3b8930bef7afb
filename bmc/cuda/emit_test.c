/* An emitted test's description and conditions. */
#include "bmc/cuda/emit_test.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* s as a C string literal. */
static void put_c_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\%03o", (unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

/* herd's name of an observed value: "1:r0" for P1:r0, the location's name. */
static void herd_name(const struct litmus *l, const struct avalue *v, char *buf, size_t len)
{
    if (v->kind == AV_REG)
        snprintf(buf, len, "%d:%s", l->threads[v->thread].id, l->threads[v->thread].reg_names[v->reg]);
    else
        snprintf(buf, len, "%s", l->locs[v->loc].name);
}

/* Appends the assertion a in herd's condition syntax ("1:r0=1 /\ ~(x=2)",
 * a conjunction or disjunction in parentheses when nested); false when it
 * has a comparison herd cannot write (only name = constant). */
static bool herd_assertion(const struct litmus *l, const struct assertion *a, bool nested, char *buf, size_t len)
{
    size_t used = strlen(buf);
    char name[160];
    switch (a->kind) {
    case A_TRUE:
        snprintf(buf + used, len - used, "true");
        return true;
    case A_NOT:
        snprintf(buf + used, len - used, "~(");
        if (!herd_assertion(l, a->lhs, false, buf, len))
            return false;
        used = strlen(buf);
        snprintf(buf + used, len - used, ")");
        return true;
    case A_AND: case A_OR: {  /* a chain, in a loop: ((c1 op c2) op c3) ... */
        int n = assertion_chain(a, NULL);
        const struct assertion **ops = xcalloc((size_t)n, sizeof *ops);
        bool ok = true;
        assertion_chain(a, ops);
        for (int i = 0; i < n - 2 + nested; i++)
            snprintf(buf + strlen(buf), len - strlen(buf), "(");
        for (int i = 0; ok && i < n; i++) {
            if (i > 0)
                snprintf(buf + strlen(buf), len - strlen(buf), a->kind == A_AND ? " /\\ " : " \\/ ");
            ok = herd_assertion(l, ops[i], true, buf, len);
            if (ok && i > 0 && (i < n - 1 || nested))
                snprintf(buf + strlen(buf), len - strlen(buf), ")");
        }
        free(ops);
        return ok;
    }
    case A_CMP: {
        const struct avalue *named = a->a.kind != AV_CONST ? &a->a : &a->b;
        const struct avalue *value = a->a.kind != AV_CONST ? &a->b : &a->a;
        if ((a->cmp != CMP_EQ && a->cmp != CMP_NE) || named->kind == AV_CONST || value->kind != AV_CONST)
            return false;
        herd_name(l, named, name, sizeof name);
        snprintf(buf + used, len - used, "%s%s=%" PRId64 "%s", a->cmp == CMP_NE ? "~(" : "", name, value->value,
                 a->cmp == CMP_NE ? ")" : "");
        return true;
    }
    }
    return false;
}

/* herd's kind of a test and its condition line ("" when herd cannot
 * write it). */
static void herd_condition(const struct litmus *l, const char **kind, char *cond, size_t len)
{
    static const char *const kinds[] = { "Allowed", "Allowed", "Forbidden", "Required" };
    static const char *const quants[] = { "", "exists", "~exists", "forall" };
    *kind = kinds[l->quant];
    cond[0] = '\0';
    if (l->quant == Q_NONE)
        return;
    snprintf(cond, len, "%s (", quants[l->quant]);
    if (!herd_assertion(l, l->assertion, false, cond, len) || strlen(cond) + 2 >= len) {
        cond[0] = '\0';
        return;
    }
    strcat(cond, ")");
}

void cuda_emit_description(FILE *f, const char *path, const struct litmus *l, const struct cuda_layout *c,
                           const struct outcome_set *o)
{
    const char *kind;
    char cond[2048], name[160];
    herd_condition(l, &kind, cond, sizeof cond);
    fputs("/* ---- the test ---- */\n#define LT_NAME ", f);
    put_c_string(f, l->name && *l->name ? l->name : path);
    fputs("\n#define LT_FILE ", f);
    put_c_string(f, path);
    fprintf(f, "\n#define LT_KIND \"%s\"\n#define LT_QUANT %d   /* 1 exists (or none), 2 ~exists, 3 forall */\n"
            "#define LT_CONDITION ", kind, l->quant == Q_NONE ? 1 : (int)l->quant);
    put_c_string(f, cond);
    fprintf(f, "\n#define LT_THREADS %d\n#define LT_ROLES %d   /* CTAs */\n#define LT_MAX_ROLE_SIZE %d\n"
            "#define LT_LOCS %d\n#define LT_REGS %d\n#define LT_OBS %d\n", l->nthreads, c->nroles,
            c->max_role_size, l->nlocs, c->nregs, o->nobs);
    fputs("static const char *const lt_obs_herd[LT_OBS + 1] = {", f);
    for (int k = 0; k < o->nobs; k++) {
        herd_name(l, &o->obs[k], name, sizeof name);
        fprintf(f, " \"%s\",", name);
    }
    fputs(" 0 };\nstatic const char *const lt_obs_json[LT_OBS + 1] = {", f);
    for (int k = 0; k < o->nobs; k++)
        fprintf(f, " \"%s\",", o->names[k]);
    fputs(" 0 };\nstatic const int lt_obs_reg[LT_OBS + 1] = {", f);
    for (int k = 0; k < o->nobs; k++)
        fprintf(f, " %d,", o->obs[k].kind == AV_REG ? c->reg_offset[o->obs[k].thread] + o->obs[k].reg : -1);
    fputs(" -1 };\nstatic const int lt_obs_loc[LT_OBS + 1] = {", f);
    for (int k = 0; k < o->nobs; k++)
        fprintf(f, " %d,", o->obs[k].kind == AV_LOC ? o->obs[k].loc : -1);
    fputs(" -1 };\nstatic const int32_t lt_loc_init[LT_LOCS + 1] = {", f);
    for (int x = 0; x < l->nlocs; x++)
        fprintf(f, " %" PRId64 ",", l->locs[c->loc_root[x]].init);
    fprintf(f, " 0 };\n#define LT_MAPS %d   /* mappings of the memory: one more per alias of a location */\n"
            "static const int lt_loc_root[LT_LOCS + 1] = {", c->nmaps);
    for (int x = 0; x < l->nlocs; x++)
        fprintf(f, " %d,", c->loc_root[x]);
    fputs(" 0 };\nstatic const int lt_loc_map[LT_LOCS + 1] = {", f);
    for (int x = 0; x < l->nlocs; x++)
        fprintf(f, " %d,", c->loc_map[x]);
    fputs(" 0 };\n\n", f);
}

/* A value of a condition as C over the flat registers and locations. */
static void put_value(FILE *f, const struct cuda_layout *c, const struct avalue *v)
{
    if (v->kind == AV_REG)
        fprintf(f, "regs[%d]", c->reg_offset[v->thread] + v->reg);
    else if (v->kind == AV_LOC)
        fprintf(f, "mem[%d]", v->loc);
    else if (v->value == INT32_MIN)
        fputs("INT32_MIN", f);
    else
        fprintf(f, "%" PRId64, v->value);
}

/* An assertion as a C expression (true when a is NULL and empty is true). */
static void put_assertion(FILE *f, const struct cuda_layout *c, const struct assertion *a, bool empty)
{
    static const char *const cmps[] = { "==", "!=", ">=", "<=", ">", "<" };
    if (!a) {
        fputs(empty ? "true" : "false", f);
        return;
    }
    switch (a->kind) {
    case A_TRUE: fputs("true", f); return;
    case A_NOT:
        fputs("!", f);
        put_assertion(f, c, a->lhs, empty);
        return;
    case A_AND: case A_OR: {  /* a chain, in a loop: ((c1 op c2) op c3) */
        int n = assertion_chain(a, NULL);
        const struct assertion **ops = xcalloc((size_t)n, sizeof *ops);
        assertion_chain(a, ops);
        for (int i = 0; i < n - 1; i++)
            fputs("(", f);
        for (int i = 0; i < n; i++) {
            if (i > 0)
                fputs(a->kind == A_AND ? " && " : " || ", f);
            put_assertion(f, c, ops[i], empty);
            if (i > 0)
                fputs(")", f);
        }
        free(ops);
        return;
    }
    case A_CMP:
        fputs("(", f);
        put_value(f, c, &a->a);
        fprintf(f, " %s ", cmps[a->cmp]);
        put_value(f, c, &a->b);
        fputs(")", f);
        return;
    }
}

void cuda_emit_conditions(FILE *f, const struct litmus *l, const struct cuda_layout *c)
{
    fputs("/* ---- the test's filter and condition ---- */\n\n"
          "static bool lt_filter(const int32_t *regs, const int32_t *mem)\n{\n    (void)regs;\n    (void)mem;\n"
          "    return ", f);
    put_assertion(f, c, l->filter, true);
    fputs(";\n}\n\nstatic bool lt_body(const int32_t *regs, const int32_t *mem)\n{\n    (void)regs;\n"
          "    (void)mem;\n    return ", f);
    put_assertion(f, c, l->quant == Q_NONE ? NULL : l->assertion, false);
    fputs(";\n}\n", f);
}
