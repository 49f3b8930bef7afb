/* The litmus header, the initial state (values, aliases, ssw pairs) and the
 * thread header with its placements. */
#include "litmus/parse_impl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* ------------------------------------------------------------------------ */
/* Header and initial state                                                  */

/* True for the blanks trimmed from the ends of the doc text. */
static bool is_doc_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool ps_dialect_word(const struct token *t, enum dialect *d)
{
    if (tok_is(t, "PTX") || tok_is(t, "ptx"))
        *d = DIALECT_PTX;
    else if (tok_is(t, "OPENCL") || tok_is(t, "OpenCL"))
        *d = DIALECT_OPENCL;
    else if (tok_is(t, "VULKAN") || tok_is(t, "Vulkan") || tok_is(t, "vulkan"))
        *d = DIALECT_VULKAN;
    else
        return false;
    return true;
}

/* Parses the dialect keyword, the test name and the free text up to '{'
 * (kept, trimmed, as the test's doc text). */
bool parse_header(struct parser *p)
{
    struct token word;
    if (!lexer_next(&p->lx, &p->tok, p->err))
        return false;
    if (!ps_dialect_word(&p->tok, &p->lit->dialect))
        return ps_fail_expected(p, "'PTX', 'VULKAN' or 'OPENCL' at the start of the test");
    lexer_read_word(&p->lx, &word);
    p->lit->name = ps_pool_text(p, word.text, word.len);
    if (!p->lit->name)
        return ps_out_of_memory(p);
    size_t from = p->lx.off;
    if (!lexer_skip_to_lbrace(&p->lx, p->err))
        return false;
    size_t to = p->lx.off;
    while (from < to && is_doc_blank(p->lx.src[from]))
        from++;
    while (to > from && is_doc_blank(p->lx.src[to - 1]))
        to--;
    if (to > from && !(p->lit->doc = ps_pool_text(p, p->lx.src + from, to - from)))
        return ps_out_of_memory(p);
    return ps_advance(p);
}

/* Parses the rest of "P0:r1 = 5" once the thread token and ':' are seen. */
static bool parse_register_init(struct parser *p, const struct token *thread)
{
    struct pending_reg_init init;
    if (!ps_thread_id_of(p, thread, &init.thread_id) || !ps_advance(p))
        return false;
    if (!ps_is_register_name(&p->tok))
        return ps_fail_expected(p, "a register name like r0 after ':'");
    init.thread_pos = thread->pos;
    init.name = p->tok.text;
    init.len = p->tok.len;
    if (!ps_advance(p) || !ps_expect(p, TOK_ASSIGN, "'=' after register"))
        return false;
    if (p->tok.kind == TOK_AMP || p->tok.kind == TOK_IDENT)
        return ps_fail(p, p->tok.pos, "initialising register '%.*s' with %s is not supported",
                    (int)(init.len > MSG_NAME_MAX ? MSG_NAME_MAX : init.len), init.name,
                    p->tok.kind == TOK_AMP ? "an address" : "a location");
    if (!parse_constant(p, &init.value))
        return false;
    if (!ps_reserve_scratch(p, &p->reg_inits, p->nreg_inits, &p->reg_inits_cap, sizeof *p->reg_inits))
        return false;
    p->reg_inits[p->nreg_inits++] = init;
    return true;
}

/* True when the initial state declares location loc (a value or an alias). */
static bool declared(const struct parser *p, int loc)
{
    return loc < p->loc_decls_cap && p->loc_decls[loc].pos.line > 0;
}

/* Records that the initial state declares the named location, by a value
 * or as an alias; its index, or -1 on error (a second declaration). */
static int declare_location(struct parser *p, const struct token *name, bool is_alias)
{
    int loc = ps_location_index(p, name->text, name->len);
    if (loc < 0 || !ps_reserve_scratch(p, &p->loc_decls, loc, &p->loc_decls_cap, sizeof *p->loc_decls))
        return -1;
    struct loc_decl *d = &p->loc_decls[loc];
    if (d->pos.line > 0 && is_alias == d->is_alias)
        return ps_fail(p, name->pos, "duplicate %s for location '" TOK_FMT "' (first at %d:%d)",
                    is_alias ? "alias" : "initial value", TOK_ARG(name), d->pos.line, d->pos.col), -1;
    if (d->pos.line > 0)
        return ps_fail(p, name->pos, "location '" TOK_FMT "' is both an alias and given an initial "
                    "value (first at %d:%d); an alias has its target's value",
                    TOK_ARG(name), d->pos.line, d->pos.col), -1;
    d->pos = name->pos;
    d->is_alias = is_alias;
    return loc;
}

/* Parses the rest of "x = 1" once the location name is consumed. */
static bool parse_location_init(struct parser *p, const struct token *name)
{
    int64_t value;
    int loc;
    if (!ps_advance(p))
        return false;
    if (p->tok.kind == TOK_AMP || p->tok.kind == TOK_IDENT)
        return ps_fail(p, p->tok.pos, "initialising location '" TOK_FMT "' with %s is not supported",
                    TOK_ARG(name), p->tok.kind == TOK_AMP ? "an address" : "a location");
    if (!parse_constant(p, &value))
        return false;
    loc = declare_location(p, name, false);
    if (loc < 0)
        return false;
    p->lit->locs[loc].init = value;
    return true;
}

/* Parses "@ proxy" in "y @ surface aliases x"; PTX only. */
static bool parse_alias_proxy(struct parser *p, enum proxy *proxy)
{
    if (p->lit->dialect != DIALECT_PTX)
        return ps_fail(p, p->tok.pos, "proxy aliases ('@ <proxy> aliases') exist only in PTX");
    if (!ps_advance(p))
        return false;
    if (tok_is(&p->tok, "generic")) *proxy = PROXY_GENERIC;
    else if (tok_is(&p->tok, "texture")) *proxy = PROXY_TEXTURE;
    else if (tok_is(&p->tok, "surface")) *proxy = PROXY_SURFACE;
    else if (tok_is(&p->tok, "constant")) *proxy = PROXY_CONSTANT;
    else return ps_fail_expected(p, "a proxy (generic, texture, surface or constant) after '@'");
    return ps_advance(p);
}

/* Parses the rest of "y [@ proxy] aliases x" once y is consumed. */
static bool parse_alias(struct parser *p, const struct token *name)
{
    enum proxy proxy = PROXY_GENERIC;
    struct token target;
    int from, to;
    if (p->tok.kind == TOK_AT && !parse_alias_proxy(p, &proxy))
        return false;
    if (!ps_expect_word(p, "aliases", "'aliases'"))
        return false;
    if (p->tok.kind != TOK_IDENT)
        return ps_fail_expected(p, "a location after 'aliases'");
    target = p->tok;
    if (target.len == name->len && memcmp(target.text, name->text, name->len) == 0)
        return ps_fail(p, target.pos, "location '" TOK_FMT "' cannot alias itself", TOK_ARG(name));
    from = declare_location(p, name, true);
    to = from < 0 ? -1 : ps_location_index(p, target.text, target.len);
    if (to < 0)
        return false;
    p->loc_decls[from].target_pos = target.pos;
    p->lit->locs[from].alias_of = to;
    p->lit->locs[from].alias_proxy = proxy;
    return ps_advance(p);
}

/* Fails at the alias in the cycle that loc's alias chain ends in which comes
 * last in the text (the one that closed the cycle). */
static bool alias_cycle(struct parser *p, int loc)
{
    const struct location *locs = p->lit->locs;
    int last = loc;
    for (int k = locs[loc].alias_of; k != loc; k = locs[k].alias_of)
        if (ps_pos_before(p->loc_decls[last].pos, p->loc_decls[k].pos))
            last = k;
    return ps_fail(p, p->loc_decls[last].target_pos, "alias cycle: '%.*s' aliases '%.*s', which leads back to '%.*s'",
                MSG_NAME_MAX, locs[last].name, MSG_NAME_MAX, locs[locs[last].alias_of].name,
                MSG_NAME_MAX, locs[last].name);
}

/* Checks the aliases once the initial state is read: each names a location
 * the initial state declares, and no chain of aliases comes back to itself. */
bool ps_check_aliases(struct parser *p)
{
    const struct litmus *l = p->lit;
    int undeclared = -1;
    for (int i = 0; i < l->nlocs; i++)
        if (l->locs[i].alias_of >= 0 && !declared(p, l->locs[i].alias_of)
            && (undeclared < 0 || ps_pos_before(p->loc_decls[i].target_pos, p->loc_decls[undeclared].target_pos)))
            undeclared = i;
    if (undeclared >= 0)
        return ps_fail(p, p->loc_decls[undeclared].target_pos,
                    "'%.*s' aliases '%.*s', which the initial state does not declare",
                    MSG_NAME_MAX, l->locs[undeclared].name,
                    MSG_NAME_MAX, l->locs[l->locs[undeclared].alias_of].name);
    /* every alias chain is a path in a graph of out-degree at most one:
     * walk each once, 1 marking the walk in progress and 2 a finished one */
    unsigned char few[64] = { 0 };
    unsigned char *state = l->nlocs < (int)sizeof few ? few : calloc((size_t)l->nlocs + 1, 1);
    int cycle = -1;
    if (!state)
        return ps_out_of_memory(p);
    for (int i = 0; cycle < 0 && i < l->nlocs; i++) {
        int k = i;
        while (k >= 0 && state[k] == 0) {
            state[k] = 1;
            k = l->locs[k].alias_of;
        }
        if (k >= 0 && state[k] == 1)
            cycle = k;
        for (k = i; k >= 0 && state[k] == 1; k = l->locs[k].alias_of)
            state[k] = 2;
    }
    if (state != few)
        free(state);
    return cycle < 0 || alias_cycle(p, cycle);
}

/* Parses one entry of the initial state. */
bool parse_init_item(struct parser *p)
{
    struct token first = p->tok;
    if (first.kind != TOK_IDENT && first.kind != TOK_NUMBER)
        return ps_fail_expected(p, "a location or register initialisation");
    if (!ps_advance(p))
        return false;
    if (p->tok.kind == TOK_COLON)
        return parse_register_init(p, &first);
    if (first.kind != TOK_IDENT)
        return ps_fail_expected(p, "':' after thread id");
    if (ps_is_register_name(&first))
        return ps_fail(p, first.pos, "register '" TOK_FMT "' needs a thread, e.g. P0:" TOK_FMT,
                    TOK_ARG(&first), TOK_ARG(&first));
    if (p->tok.kind == TOK_ASSIGN)
        return parse_location_init(p, &first);
    if (p->tok.kind == TOK_AT || tok_is(&p->tok, "aliases"))
        return parse_alias(p, &first);
    return ps_fail_expected(p, "'=', '@' or 'aliases' after location");
}

/* Parses "{ item; item; ... }" with item_fn, then an optional ';'. */
bool parse_braced_list(struct parser *p, bool (*item_fn)(struct parser *), const char *what)
{
    if (!ps_expect(p, TOK_LBRACE, "'{'"))
        return false;
    for (;;) {
        while (p->tok.kind == TOK_SEMI)
            if (!ps_advance(p))
                return false;
        if (p->tok.kind == TOK_RBRACE)
            break;
        if (!item_fn(p))
            return false;
        if (p->tok.kind == TOK_RBRACE)
            break;
        if (p->tok.kind != TOK_SEMI)
            return ps_fail_expected(p, what);
    }
    if (!ps_advance(p))
        return false;
    return p->tok.kind != TOK_SEMI || ps_advance(p);
}

/* Parses "ssw P0 P1". */
bool parse_ssw_item(struct parser *p)
{
    struct pending_ssw pair;
    if (!ps_expect_word(p, "ssw", "'ssw'"))
        return false;
    pair.from_pos = p->tok.pos;
    if (!parse_thread_id(p, &pair.from_id))
        return false;
    pair.to_pos = p->tok.pos;
    if (!parse_thread_id(p, &pair.to_id))
        return false;
    if (pair.to_id == pair.from_id)
        return ps_fail(p, pair.to_pos, "ssw P%d P%d pairs a thread with itself", pair.from_id, pair.to_id);
    if (!ps_reserve_scratch(p, &p->ssws, p->nssws, &p->ssws_cap, sizeof *p->ssws))
        return false;
    p->ssws[p->nssws++] = pair;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Thread header                                                             */

/* Parses "sg 0" and the like: the scope word (quoted, "'sg'", for a
 * message) and its id (what the id is called, "sg id"); inline, where the
 * word's length and comparison fold to constants. */
__attribute__((always_inline))
static inline bool parse_scope_id(struct parser *p, const char *quoted, const char *id_what, int *id)
{
    size_t n = strlen(quoted) - 2;
    bool is_word = p->tok.kind == TOK_IDENT && p->tok.len == n && memcmp(p->tok.text, quoted + 1, n) == 0;
    if (!is_word)
        return ps_fail_expected(p, quoted);
    return ps_advance(p) && parse_small_number(p, id_what, id);
}

/* Parses the placement after '@': "cta 0, gpu 0" or "sg 0, wg 0, qf 0". */
static bool parse_placement(struct parser *p, int scope_id[3])
{
    if (p->lit->dialect == DIALECT_PTX) {
        scope_id[2] = -1;
        return parse_scope_id(p, "'cta'", "cta id", &scope_id[0])
            && ps_expect(p, TOK_COMMA, "',' after cta id")
            && parse_scope_id(p, "'gpu'", "gpu id", &scope_id[1]);
    }
    return parse_scope_id(p, "'sg'", "sg id", &scope_id[0])
        && ps_expect(p, TOK_COMMA, "',' after sg id")
        && parse_scope_id(p, "'wg'", "wg id", &scope_id[1])
        && ps_expect(p, TOK_COMMA, "',' after wg id")
        && parse_scope_id(p, "'qf'", "qf id", &scope_id[2]);
}

/* Appends a thread numbered id, declared at pos; NULL on error. */
struct thread *ps_new_thread(struct parser *p, int id, struct srcpos pos)
{
    struct litmus *l = p->lit;
    if (l->nthreads >= MAX_THREADS)
        return ps_fail(p, pos, "too many threads (limit %d)", MAX_THREADS), NULL;
    if (!ps_reserve_pooled(p, &l->threads, l->nthreads, &p->threads_cap, sizeof *l->threads))
        return NULL;
    if (!ps_reserve_scratch(p, &p->caps, l->nthreads, &p->caps_cap, sizeof *p->caps)
        || !ps_reserve_scratch(p, &p->thread_keys, l->nthreads, &p->thread_keys_cap, sizeof *p->thread_keys))
        return NULL;
    struct thread *t = &l->threads[l->nthreads];
    memset(t, 0, sizeof *t);
    t->id = id;
    p->thread_keys[l->nthreads] = (struct thread_key){ id, l->nthreads, pos };
    l->nthreads++;
    return t;
}

/* Parses one "P0@cta 0,gpu 0" and appends the thread. */
static bool parse_thread_decl(struct parser *p)
{
    struct srcpos pos = p->tok.pos;
    int id;
    if (!parse_thread_id(p, &id) || !ps_expect(p, TOK_AT, "'@' after thread name"))
        return false;
    struct thread *t = ps_new_thread(p, id, pos);
    return t && parse_placement(p, t->scope_id);
}

static int compare_thread_keys(const void *a, const void *b)
{
    const struct thread_key *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Sorts the P numbers for lookup and rejects duplicates. */
bool ps_index_threads(struct parser *p)
{
    int n = p->lit->nthreads;
    int sorted = 1;
    while (sorted < n && compare_thread_keys(&p->thread_keys[sorted - 1], &p->thread_keys[sorted]) < 0)
        sorted++;
    if (sorted < n)   /* most tests number their threads in order */
        qsort(p->thread_keys, (size_t)n, sizeof *p->thread_keys, compare_thread_keys);
    for (int i = 1; i < n; i++)
        if (p->thread_keys[i].id == p->thread_keys[i - 1].id)
            return ps_fail(p, p->thread_keys[i].pos, "duplicate thread P%d", p->thread_keys[i].id);
    return true;
}

/* Parses "P0@... | P1@... ;". */
bool parse_thread_header(struct parser *p)
{
    for (;;) {
        if (!parse_thread_decl(p))
            return false;
        if (p->tok.kind == TOK_SEMI)
            return ps_advance(p) && ps_index_threads(p);
        if (p->tok.kind != TOK_BAR)
            return ps_fail_expected(p, "'|' or ';' after thread declaration");
        if (!ps_advance(p))
            return false;
    }
}

/* The first of the register initialisations before number i that sets the
 * same register as number i, or NULL. */
static const struct pending_reg_init *earlier_reg_init(const struct parser *p, int i)
{
    const struct pending_reg_init *init = &p->reg_inits[i];
    for (int k = 0; k < i; k++) {
        const struct pending_reg_init *e = &p->reg_inits[k];
        if (e->thread_id == init->thread_id && e->len == init->len
            && memcmp(e->name, init->name, init->len) == 0)
            return e;
    }
    return NULL;
}

/* Fails at the ssw pair number k, which closes a cycle of ssw pairs. */
static bool ssw_cycle(struct parser *p, int k)
{
    const struct pending_ssw *s = &p->ssws[k];
    return ps_fail(p, s->to_pos, "ssw P%d P%d closes a cycle: the ssw pairs before it lead from P%d to P%d",
                s->from_id, s->to_id, s->to_id, s->from_id);
}

/* The search of check_ssw_cycles, per thread (n + 1) or per pair (by_from:
 * m + 1), in one allocation (first). */
struct ssw_search {
    int *first;              /* pairs from t: first[t] .. first[t+1]-1 */
    int *by_from;
    int *parent;             /* the pair that reached t */
    int *next;               /* t's next pair to follow */
    int *stack;
    unsigned char *state;    /* 1 on the stack, 2 done */
};

/* Places w's arrays for n threads and m pairs in block (NULL: measures);
 * returns its size. */
static size_t ssw_search_layout(struct ssw_search *w, int n, int m, char *block)
{
    struct xblock b = { block, 0 };
    size_t nt = (size_t)n + 1;
    w->first = xblock_take(&b, nt, sizeof *w->first);
    w->by_from = xblock_take(&b, (size_t)m + 1, sizeof *w->by_from);
    w->parent = xblock_take(&b, nt, sizeof *w->parent);
    w->next = xblock_take(&b, nt, sizeof *w->next);
    w->stack = xblock_take(&b, nt, sizeof *w->stack);
    w->state = xblock_take(&b, nt, sizeof *w->state);
    return b.size;
}

/* Fails at the ssw pair that closes a cycle, if the pairs have one: a depth-
 * first search over the threads; of the pairs on the first cycle it finds,
 * the one that comes last in the text is the one that closed it. */
static bool check_ssw_cycles(struct parser *p)
{
    const struct litmus *l = p->lit;
    int n = l->nthreads, m = l->nssw, cycle = -1;
    if (m == 0)
        return true;
    struct ssw_search w = { 0 };
    char *block = calloc(1, ssw_search_layout(&w, n, m, NULL));
    bool ok = block != NULL;
    if (ok)
        ssw_search_layout(&w, n, m, block);
    int *first = w.first, *by_from = w.by_from, *parent = w.parent, *next = w.next, *stack = w.stack;
    unsigned char *state = w.state;
    if (ok) {
        for (int k = 0; k < m; k++)
            first[l->ssw[k].from + 1]++;
        for (int t = 0; t < n; t++)
            first[t + 1] += first[t];
        for (int t = 0; t < n; t++)
            next[t] = first[t];
        for (int k = 0; k < m; k++)
            by_from[next[l->ssw[k].from]++] = k;
        for (int t = 0; t < n; t++)
            next[t] = first[t];
    }
    for (int root = 0; ok && cycle < 0 && root < n; root++) {
        int depth = 0;
        if (state[root])
            continue;
        state[root] = 1;
        stack[depth++] = root;
        while (depth > 0 && cycle < 0) {
            int t = stack[depth - 1];
            if (next[t] == first[t + 1]) {
                state[t] = 2;
                depth--;
                continue;
            }
            int k = by_from[next[t]++], u = l->ssw[k].to;
            if (state[u] == 0) {
                state[u] = 1;
                parent[u] = k;
                stack[depth++] = u;
            } else if (state[u] == 1) {
                cycle = k;
                for (int w = t; w != u; w = l->ssw[parent[w]].from)
                    if (parent[w] > cycle)
                        cycle = parent[w];
            }
        }
    }
    free(block);
    if (!ok)
        return ps_out_of_memory(p);
    return cycle < 0 || ssw_cycle(p, cycle);
}

/* Applies register initialisations and ssw pairs now that threads are known. */
bool ps_resolve_pending(struct parser *p)
{
    struct litmus *l = p->lit;
    for (int i = 0; i < p->nreg_inits; i++) {
        const struct pending_reg_init *init = &p->reg_inits[i];
        int t = ps_thread_index_at(p, init->thread_id, init->thread_pos);
        int r = t < 0 ? -1 : ps_register_index(p, t, init->name, init->len);
        if (r < 0)
            return false;
        if (l->threads[t].reg_has_init[r]) {
            const struct pending_reg_init *e = earlier_reg_init(p, i);
            return ps_fail(p, init->thread_pos, "duplicate initial value for register P%d:%.*s (first at %d:%d)",
                        init->thread_id, (int)(init->len > MSG_NAME_MAX ? MSG_NAME_MAX : init->len),
                        init->name, e->thread_pos.line, e->thread_pos.col);
        }
        l->threads[t].reg_has_init[r] = true;
        l->threads[t].reg_init[r] = init->value;
    }
    for (int i = 0; i < p->nssws; i++) {
        const struct pending_ssw *s = &p->ssws[i];
        int from = ps_thread_index_at(p, s->from_id, s->from_pos);
        int to = from < 0 ? -1 : ps_thread_index_at(p, s->to_id, s->to_pos);
        if (to < 0 || !ps_reserve_pooled(p, &l->ssw, l->nssw, &p->ssw_cap, sizeof *l->ssw))
            return false;
        l->ssw[l->nssw++] = (struct ssw_pair){ from, to };
    }
    return check_ssw_cycles(p);
}
