/* The cat evaluator: a parsed model's statements over struct cat, with
 * the operators the built-in models use (models/cat.h), so that both back
 * ends run it.  The same walk without relations (cat_check) finds every
 * unknown name, type error and unsupported construct before any test is
 * checked; the walk with them (cat_eval) then cannot fail. */
#include "models/cat_lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "models/cat.h"

#define CAT_MAX_CALL_DEPTH 64

/* A value: a set of events (static, or dynamic as its identity relation),
 * a relation, or a function with the environment it was defined in; a
 * plain let's value keeps its definition too (for the thin-air rule). */
enum vkind { VK_SET, VK_DSET, VK_REL, VK_FUN };

struct env;

struct val {
    enum vkind k;
    set s;                   /* VK_SET */
    rel r;                   /* VK_REL; VK_DSET: [the set] */
    const struct cat_stmt *fn;   /* VK_FUN */
    const struct env *env;   /* VK_FUN, or def: where it was defined */
    const struct cat_expr *def;  /* a plain let's body, NULL otherwise */
};

struct env {
    const char *name;
    struct val v;
    const struct env *up;
};

struct eval {
    struct cat *m;           /* NULL: checking only, no relations */
    struct cat_error *err;
    bool failed;
    int depth;
    int dialect;             /* -1 until a dialect's own name is met */
    struct cat_pos dialect_pos;
    const char *dialect_name;
    bool dialect_shared;     /* the dialect was noted from a name Vulkan and OpenCL share */
    int nenv, capenv;
    struct env **envs;       /* owned */
};

/* Records the first error, at pos. */
static void ev_fail(struct eval *ev, struct cat_pos pos, const char *fmt, const char *a, const char *b)
{
    if (ev->failed)
        return;
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    cat_error_at(ev->err, pos, msg);
    ev->failed = true;
    if (ev->m) {   /* cat_check passed, so this is a programming error */
        fprintf(stderr, "gpubmc: internal error: %s:%d:%d: %s\n", pos.file, pos.line, pos.col, msg);
        abort();
    }
}

/* env with name bound to v in front. */
static const struct env *bind(struct eval *ev, const struct env *up, const char *name, struct val v)
{
    if (ev->nenv == ev->capenv) {
        ev->capenv = ev->capenv ? 2 * ev->capenv : 64;
        ev->envs = xrealloc(ev->envs, (size_t)ev->capenv * sizeof *ev->envs);
    }
    struct env *e = xcalloc(1, sizeof *e);
    *e = (struct env){ name, v, up };
    ev->envs[ev->nenv++] = e;
    return e;
}

static const struct val *lookup(const struct env *env, const char *name)
{
    for (; env; env = env->up)
        if (strcmp(env->name, name) == 0)
            return &env->v;
    return NULL;
}

static struct val vset(set s) { return (struct val){ .k = VK_SET, .s = s }; }
static struct val vrel(rel r) { return (struct val){ .k = VK_REL, .r = r }; }
static struct val vdset(rel r) { return (struct val){ .k = VK_DSET, .r = r }; }

/* Names whose sets or relations gpubmc fills in one dialect only. */
static const char *const ptx_names[] = { "GEN", "SUR", "TEX", "CON", "ALIAS", "sr", "scta", "sync_fence", NULL };
static const char *const vulkan_names[] = {
    "ATOM", "NONPRIV", "AV", "VIS", "SEMAV", "SEMVIS", "CBAR", "AVDEVICE", "VISDEVICE", "RMW",
    "SC0", "SC1", "SC2", "SC3", "SEMSC0", "SEMSC1", "SEMSC2", "SEMSC3", "SG", "WG", "QF", "DV",
    "ssg", "swg", "sqf", "ssw", NULL,
};
static const char *const opencl_names[] = { "WI", "ALL", "GLOBAL", "LOCAL", "NAL", "sdv", NULL };
/* Vulkan names that OpenCL fills too. */
static const char *const shared_names[] = { "WG", "DV", "swg", "RMW", NULL };

static bool listed(const char *const *names, const char *name)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

/* Notes the dialect a base name belongs to; fails on a second dialect. */
static void note_dialect(struct eval *ev, const char *name, struct cat_pos pos)
{
    int d = listed(ptx_names, name) ? DIALECT_PTX : listed(vulkan_names, name) ? DIALECT_VULKAN
          : listed(opencl_names, name) ? DIALECT_OPENCL : -1;
    bool shared = listed(shared_names, name);
    if (d < 0 || ev->dialect == d || (shared && ev->dialect == DIALECT_OPENCL))
        return;
    if (ev->dialect < 0 || (d == DIALECT_OPENCL && ev->dialect_shared)) {
        ev->dialect_shared = shared;
        ev->dialect = d;
        ev->dialect_pos = pos;
        ev->dialect_name = name;
        return;
    }
    char msg[512];
    snprintf(msg, sizeof msg, "%.64s is a %s name, and the model already uses the %s name %.64s (%.120s:%d:%d): "
             "a model describes one dialect", name, dialect_name((enum dialect)d),
             dialect_name((enum dialect)ev->dialect), ev->dialect_name, ev->dialect_pos.file, ev->dialect_pos.line,
             ev->dialect_pos.col);
    ev_fail(ev, pos, "%s%s", msg, "");
}

/* The base set or relation called name (cat's names for gpubmc's events),
 * false when there is none. */
static bool base_value(struct eval *ev, const char *name, struct cat_pos pos, struct val *out)
{
    struct cat *m = ev->m;
    for (int s = 0; s < S_COUNT; s++)
        if (strcmp(base_set_names[s], name) == 0) {
            note_dialect(ev, name, pos);
            *out = vset(m ? SET(s) : NULL);
            return true;
        }
    for (int r = 0; r < R_COUNT; r++)
        if (strcmp(base_rel_names[r], name) == 0) {
            note_dialect(ev, name, pos);
            *out = vrel(m ? REL(r) : NULL);
            return true;
        }
    if (strcmp(name, "id") == 0)
        *out = vrel(m ? cat_id(m, SET(S_ALL)) : NULL);
    else if (strcmp(name, "amo") == 0)   /* atomic read-modify-writes: gpubmc's rmw */
        *out = vrel(m ? REL(R_RMW) : NULL);
    else if (strcmp(name, "lxsx") == 0)  /* load/store exclusive pairs: none on a GPU */
        *out = vrel(m ? cat_empty(m) : NULL);
    else
        return false;
    return true;
}

static struct val eval(struct eval *ev, const struct env *env, const struct cat_expr *e);

static bool is_set(struct val v) { return v.k == VK_SET || v.k == VK_DSET; }

/* [s] of a set value. */
static rel diag(struct eval *ev, struct val v)
{
    if (!ev->m)
        return NULL;
    return v.k == VK_SET ? cat_id(ev->m, v.s) : v.r;
}

/* Evaluates e, which must be a relation. */
static rel eval_rel(struct eval *ev, const struct env *env, const struct cat_expr *e, const char *what)
{
    struct val v = eval(ev, env, e);
    if (!ev->failed && v.k != VK_REL)
        ev_fail(ev, e->pos, "%s needs a relation, this is %s", what, v.k == VK_FUN ? "a function" : "a set");
    return v.r;
}

/* a | b, a & b, a \ b of two sets or two relations. */
static struct val boolean(struct eval *ev, const struct cat_expr *e, struct val a, struct val b)
{
    static const char *const spell[] = { [CE_UNION] = "|", [CE_INTER] = "&", [CE_DIFF] = "\\" };
    struct cat *m = ev->m;
    if (is_set(a) && is_set(b)) {
        if (a.k == VK_SET && b.k == VK_SET) {
            if (!m)
                return vset(NULL);
            return vset(e->op == CE_UNION ? cat_sor(m, a.s, b.s) : e->op == CE_INTER ? cat_sand(m, a.s, b.s)
                                                                    : cat_sminus(m, a.s, b.s));
        }
        rel x = diag(ev, a), y = diag(ev, b);
        if (!m)
            return vdset(NULL);
        return vdset(e->op == CE_UNION ? cat_or(m, x, y) : e->op == CE_INTER ? cat_and(m, x, y) : cat_minus(m, x, y));
    }
    if (a.k == VK_REL && b.k == VK_REL) {
        if (!m)
            return vrel(NULL);
        return vrel(e->op == CE_UNION ? cat_or(m, a.r, b.r) : e->op == CE_INTER ? cat_and(m, a.r, b.r)
                                                            : cat_minus(m, a.r, b.r));
    }
    ev_fail(ev, e->pos, "'%s' needs two sets or two relations%s", spell[e->op],
            a.k == VK_FUN || b.k == VK_FUN ? ", not a function" : ", not a set and a relation");
    return vrel(NULL);
}

/* domain(r) or range(r): a dynamic set, [domain r] = (r; r^-1) & id. */
static struct val domain_range(struct eval *ev, const struct env *env, const struct cat_expr *e)
{
    if (e->nargs != 1) {
        ev_fail(ev, e->pos, "%s takes one relation%s", e->name, "");
        return vdset(NULL);
    }
    rel r = eval_rel(ev, env, e->args[0], e->name);
    struct cat *m = ev->m;
    if (!m || ev->failed)
        return vdset(NULL);
    rel round = strcmp(e->name, "domain") == 0 ? cat_seq(m, r, cat_inv(m, r)) : cat_seq(m, cat_inv(m, r), r);
    return vdset(cat_and(m, round, cat_id(m, SET(S_ALL))));
}

/* f(args): a function of the model, or domain / range. */
static struct val apply(struct eval *ev, const struct env *env, const struct cat_expr *e)
{
    const struct val *f = lookup(env, e->name);
    if (!f && (strcmp(e->name, "domain") == 0 || strcmp(e->name, "range") == 0))
        return domain_range(ev, env, e);
    if (!f || f->k != VK_FUN) {
        ev_fail(ev, e->pos, f ? "%s is not a function" : "unknown function %s", e->name, "");
        return vrel(NULL);
    }
    const struct cat_stmt *fn = f->fn;
    if (fn->nparams != e->nargs) {
        char want[16];
        snprintf(want, sizeof want, "%d", fn->nparams);
        ev_fail(ev, e->pos, "%s takes %s arguments", e->name, want);
        return vrel(NULL);
    }
    if (ev->depth >= CAT_MAX_CALL_DEPTH) {
        ev_fail(ev, e->pos, "calls nested too deep at %s%s", e->name, "");
        return vrel(NULL);
    }
    const struct env *inner = f->env;
    for (int i = 0; i < e->nargs && !ev->failed; i++)
        inner = bind(ev, inner, fn->params[i], eval(ev, env, e->args[i]));
    if (ev->failed)
        return vrel(NULL);
    ev->depth++;
    struct val v = eval(ev, inner, fn->e);
    ev->depth--;
    return v;
}

static struct val eval(struct eval *ev, const struct env *env, const struct cat_expr *e)
{
    struct cat *m = ev->m;
    if (ev->failed)
        return vrel(NULL);
    switch (e->op) {
    case CE_NAME: {
        const struct val *v = lookup(env, e->name);
        struct val b;
        if (v && v->k == VK_FUN)
            ev_fail(ev, e->pos, "%s is a function: it needs arguments%s", e->name, "");
        if (v)
            return *v;
        if (base_value(ev, e->name, e->pos, &b))
            return b;
        ev_fail(ev, e->pos, "unknown name %s%s", e->name, "");
        return vrel(NULL);
    }
    case CE_APP: return apply(ev, env, e);
    case CE_ZERO: return vrel(m ? cat_empty(m) : NULL);
    case CE_UNION: case CE_INTER: case CE_DIFF: {
        struct val a = eval(ev, env, e->a), b = eval(ev, env, e->b);
        return ev->failed ? a : boolean(ev, e, a, b);
    }
    case CE_SEQ: {
        rel a = eval_rel(ev, env, e->a, "';'"), b = eval_rel(ev, env, e->b, "';'");
        return vrel(m && !ev->failed ? cat_seq(m, a, b) : NULL);
    }
    case CE_PROD: {
        struct val a = eval(ev, env, e->a), b = eval(ev, env, e->b);
        if (!ev->failed && (!is_set(a) || !is_set(b)))
            ev_fail(ev, e->pos, "the product '*' needs two sets%s%s", "", "");
        if (!m || ev->failed)
            return vrel(NULL);
        if (a.k == VK_SET && b.k == VK_SET)
            return vrel(cat_prod(m, a.s, b.s));
        rel all = cat_prod(m, SET(S_ALL), SET(S_ALL));
        return vrel(cat_seq(m, cat_seq(m, diag(ev, a), all), diag(ev, b)));
    }
    case CE_COMPL: {
        struct val a = eval(ev, env, e->a);
        if (!ev->failed && a.k == VK_FUN)
            ev_fail(ev, e->pos, "'~' needs a set or a relation%s%s", "", "");
        if (!m || ev->failed)
            return a.k == VK_REL ? vrel(NULL) : a;
        if (a.k == VK_SET)
            return vset(cat_sminus(m, SET(S_ALL), a.s));
        if (a.k == VK_DSET)
            return vdset(cat_minus(m, cat_id(m, SET(S_ALL)), a.r));
        return vrel(cat_minus(m, cat_prod(m, SET(S_ALL), SET(S_ALL)), a.r));
    }
    case CE_PLUS: case CE_STAR: case CE_OPT: case CE_INV: {
        static const char *const spell[] = { [CE_PLUS] = "'+'", [CE_STAR] = "'*'", [CE_OPT] = "'?'",
                                             [CE_INV] = "'^-1'" };
        rel a = eval_rel(ev, env, e->a, spell[e->op]);
        if (!m || ev->failed)
            return vrel(NULL);
        return vrel(e->op == CE_PLUS ? cat_plus(m, a) : e->op == CE_STAR ? cat_star(m, a)
                    : e->op == CE_OPT ? cat_opt(m, a) : cat_inv(m, a));
    }
    case CE_BRACKET: {
        struct val a = eval(ev, env, e->a);
        if (!ev->failed && !is_set(a))
            ev_fail(ev, e->pos, "[...] needs a set, this is %s%s", a.k == VK_FUN ? "a function" : "a relation", "");
        return vrel(ev->failed ? NULL : diag(ev, a));
    }
    }
    return vrel(NULL);
}

/* True when e mentions name x (as a name or a function). */
static bool mentions(const struct cat_expr *e, const char *x)
{
    if (!e)
        return false;
    if ((e->op == CE_NAME || e->op == CE_APP) && strcmp(e->name, x) == 0)
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (mentions(e->args[i], x))
            return true;
    return mentions(e->a, x) || mentions(e->b, x);
}

/* The operands of e's chain of op (a | b | c: a, b, c), at most max. */
static int flatten(const struct cat_expr *e, enum cat_expr_op op, const struct cat_expr **out, int n, int max)
{
    if (e->op != op) {
        if (n < max)
            out[n] = e;
        return n + 1;
    }
    return flatten(e->b, op, out, flatten(e->a, op, out, n, max), max);
}

#define CAT_MAX_TERMS 64

/* f[from] ; ... ; f[to - 1] (from < to). */
static rel seq_of(struct eval *ev, const struct env *env, const struct cat_expr **f, int from, int to)
{
    rel r = eval_rel(ev, env, f[from], "';'");
    for (int i = from + 1; i < to; i++) {
        rel s = eval_rel(ev, env, f[i], "';'");
        r = ev->m && !ev->failed ? cat_seq(ev->m, r, s) : NULL;
    }
    return r;
}

/* into | r (into NULL: none yet); in checking, a marker. */
static rel join(struct eval *ev, rel into, rel r, bool *any)
{
    *any = true;
    return ev->m && into ? cat_or(ev->m, into, r) : r;
}

/* let rec x = body, body a union of terms linear in x: A (no x), L; x,
 * x; R, x; M; x (x; x: M = id).  Its least solution is Y; (M; Y)* with
 * Y = L*; A; R*: Y is in it (induction on the stars), and Y; (M; Y)* is
 * closed under every term. */
static struct val let_rec(struct eval *ev, const struct env *env, const struct cat_stmt *s)
{
    const struct cat_expr *terms[CAT_MAX_TERMS], *f[CAT_MAX_TERMS];
    int nt = flatten(s->e, CE_UNION, terms, 0, CAT_MAX_TERMS);
    rel a = NULL, l = NULL, r = NULL, mid = NULL;
    bool any_a = false, any_l = false, any_r = false, any_m = false;
    if (nt > CAT_MAX_TERMS) {
        ev_fail(ev, s->e->pos, "let rec %s: too many terms%s", s->name, "");
        return vrel(NULL);
    }
    for (int t = 0; t < nt && !ev->failed; t++) {
        int nf = flatten(terms[t], CE_SEQ, f, 0, CAT_MAX_TERMS);
        if (nf > CAT_MAX_TERMS) {
            ev_fail(ev, terms[t]->pos, "let rec %s: too many factors%s", s->name, "");
            break;
        }
        if (!mentions(terms[t], s->name)) {
            a = join(ev, a, eval_rel(ev, env, terms[t], "let rec"), &any_a);
            continue;
        }
        bool first = f[0]->op == CE_NAME && strcmp(f[0]->name, s->name) == 0;
        bool last = nf > 1 && f[nf - 1]->op == CE_NAME && strcmp(f[nf - 1]->name, s->name) == 0;
        bool inner = false;
        for (int i = first; i < nf - last; i++)
            inner |= mentions(f[i], s->name);
        if (inner || (nf == 1 && !first)) {
            const char *x = s->name;
            char msg[400];
            snprintf(msg, sizeof msg, "let rec %.40s: each term of its union must be A, A; %.40s, %.40s; A "
                     "or %.40s; A; %.40s, with no %.40s in A", x, x, x, x, x, x);
            ev_fail(ev, terms[t]->pos, "unsupported construct: %s%s", msg, "");
            break;
        }
        if (nf == 1)
            continue;   /* x itself adds nothing */
        if (first && last && nf == 2)   /* x; x = x; id; x */
            mid = join(ev, mid, ev->m ? cat_id(ev->m, ev->m->b->sets[S_ALL]) : NULL, &any_m);
        else if (first && last)
            mid = join(ev, mid, seq_of(ev, env, f, 1, nf - 1), &any_m);
        else if (first)
            r = join(ev, r, seq_of(ev, env, f, 1, nf), &any_r);
        else
            l = join(ev, l, seq_of(ev, env, f, 0, nf - 1), &any_l);
    }
    struct cat *m = ev->m;
    if (ev->failed || !m)
        return vrel(NULL);
    rel y = any_a ? a : cat_empty(m);
    if (any_l)
        y = cat_seq(m, cat_star(m, l), y);
    if (any_r)
        y = cat_seq(m, y, cat_star(m, r));
    return vrel(any_m ? cat_seq(m, y, cat_star(m, cat_seq(m, mid, y))) : y);
}

/* True when e, through let names, is a union one of whose terms is the
 * base relation `base` (a name no let has rebound). */
static bool union_has_term(const struct env *env, const struct cat_expr *e, const char *base)
{
    if (e->op == CE_UNION)
        return union_has_term(env, e->a, base) || union_has_term(env, e->b, base);
    if (e->op != CE_NAME)
        return false;
    const struct val *v = lookup(env, e->name);
    if (v)
        return v->def && union_has_term(v->env, v->def, base);
    return strcmp(e->name, base) == 0;
}

/* The thin-air rule: an acyclic axiom over a union with rf, addr, data
 * and ctrl among its terms forbids every cycle of reads-from and
 * dependencies, so no execution whose values depend only on themselves
 * (a value cycle: rf edges closed by data, address or control
 * dependencies, an RMW's write depending on its read included) passes it. */
static bool forbids_value_cycles(const struct env *env, const struct cat_expr *e)
{
    static const char *const terms[] = { "rf", "addr", "data", "ctrl" };
    for (size_t k = 0; k < sizeof terms / sizeof terms[0]; k++)
        if (!union_has_term(env, e, terms[k]))
            return false;
    return true;
}

/* Runs every statement; shape (checking) gets the axioms, m (building)
 * gets them built and the exports. */
static void run(struct eval *ev, const struct cat_program *p, struct cat_shape *shape)
{
    const struct env *env = NULL;
    for (int i = 0; i < p->n && !ev->failed; i++) {
        const struct cat_stmt *s = p->stmts[i];
        if (s->kind == CS_LET) {
            if (s->is_fun && s->rec)
                ev_fail(ev, s->pos, "unsupported construct: recursive function %s%s", s->name, "");
            else if (s->is_fun)
                env = bind(ev, env, s->name, (struct val){ .k = VK_FUN, .fn = s, .env = env });
            else if (s->rec)
                env = bind(ev, env, s->name, let_rec(ev, env, s));
            else {
                struct val v = eval(ev, env, s->e);
                v.def = s->e;
                v.env = env;
                env = bind(ev, env, s->name, v);
            }
            continue;
        }
        struct val v = eval(ev, env, s->e);
        if (ev->failed)
            break;
        if (v.k == VK_FUN || (!is_set(v) ? false : s->ax == AX_ACYCLIC || s->ax == AX_IRREFLEXIVE)) {
            ev_fail(ev, s->e->pos, "this axiom needs a relation%s%s", "", "");
            break;
        }
        rel r = is_set(v) ? diag(ev, v) : v.r;
        if (ev->m) {
            cat_axiom(ev->m, s->as, r);
            continue;
        }
        for (int k = 0; k < shape->naxioms; k++)
            if (strcmp(shape->axioms[k].name, s->as) == 0)
                ev_fail(ev, s->pos, "a second axiom called %s%s", s->as, "");
        if (shape->naxioms == MODEL_MAX_AXIOMS)
            ev_fail(ev, s->pos, "more axioms than gpubmc's limit%s%s", "", "");
        if (!ev->failed && shape->thin_air < 0 && s->ax == AX_ACYCLIC && forbids_value_cycles(env, s->e))
            shape->thin_air = shape->naxioms;
        if (!ev->failed)
            shape->axioms[shape->naxioms++] = (struct axiom_decl){ s->as, s->ax };
    }
    /* the relations a witness shows, where the model defines them */
    static const char *const shown[] = { "fr", "sync", "cause", "observation", "sw", "hb", "locord", "asmo",
                                         "ghb", "lhb", "gsw", "lsw", "mo", "rb" };
    for (size_t k = 0; ev->m && !ev->failed && k < sizeof shown / sizeof shown[0]; k++) {
        const struct val *v = lookup(env, shown[k]);
        if (v && v->k == VK_REL)
            cat_export(ev->m, shown[k], v->r);
    }
}

/* Frees the evaluator's environments. */
static void eval_free(struct eval *ev)
{
    for (int i = 0; i < ev->nenv; i++)
        free(ev->envs[i]);
    free(ev->envs);
}

bool cat_check(const struct cat_program *p, struct cat_shape *shape, struct cat_error *err)
{
    struct eval ev = { .m = NULL, .err = err, .dialect = -1 };
    memset(shape, 0, sizeof *shape);
    shape->thin_air = -1;
    run(&ev, p, shape);
    shape->dialect = ev.dialect;
    shape->axioms[shape->naxioms] = (struct axiom_decl){ NULL, AX_EMPTY };
    eval_free(&ev);
    return !ev.failed;
}

void cat_eval(const struct cat_program *p, struct cat *m)
{
    struct cat_error err;
    struct eval ev = { .m = m, .err = &err, .dialect = -1 };
    run(&ev, p, NULL);
    eval_free(&ev);
}
