/* The program: rows of instructions, their operands, and the mnemonic
 * decoding both dialects share (parse_ptx.c, parse_vulkan.c decode the rest). */
#include "litmus/parse_impl.h"
#include "litmus/mnemonic_memo.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Instruction operands                                                      */

/* Parses a register operand of the thread. */
static bool parse_register_operand(struct parser *p, int thread, int *reg)
{
    if (!ps_is_register_name(&p->tok))
        return ps_fail_expected(p, "a register");
    *reg = ps_register_index(p, thread, p->tok.text, p->tok.len);
    return *reg >= 0 && ps_advance(p);
}

/* Parses a location operand. */
static bool parse_location_operand(struct parser *p, int *loc)
{
    if (p->tok.kind != TOK_IDENT || ps_is_register_name(&p->tok))
        return ps_fail_expected(p, "a location");
    *loc = ps_location_index(p, p->tok.text, p->tok.len);
    return *loc >= 0 && ps_advance(p);
}

/* Parses a value operand: a register or a constant. */
static bool parse_value_operand(struct parser *p, int thread, struct operand *v)
{
    if (p->tok.kind == TOK_IDENT) {
        if (!ps_is_register_name(&p->tok))
            return ps_fail_expected(p, "a register or constant");
        v->is_reg = true;
        return parse_register_operand(p, thread, &v->reg);
    }
    if (p->tok.kind != TOK_NUMBER && p->tok.kind != TOK_HEX && p->tok.kind != TOK_MINUS)
        return ps_fail_expected(p, "a register or constant");
    v->is_reg = false;
    return parse_constant(p, &v->value);
}

/* Parses a label operand (branch target) and records its first use. */
static bool parse_label_operand(struct parser *p, int thread, int *label)
{
    int info;
    if (p->tok.kind != TOK_IDENT || ps_is_register_name(&p->tok))
        return ps_fail_expected(p, "a label");
    info = ps_label_info_index(p, thread, &p->tok);
    if (info < 0)
        return false;
    if (!p->labels[info].used) {
        p->labels[info].used = true;
        p->labels[info].use_pos = p->tok.pos;
    }
    *label = p->labels[info].local;
    return ps_advance(p);
}

/* What kind of operand the previous token was, for "expected ',' after ...". */
static const char *operand_noun(const struct token *t)
{
    if (ps_is_register_name(t)) return "register";
    if (t->kind == TOK_NUMBER || t->kind == TOK_HEX) return "constant";
    return "location";
}

/* Parses one operand of signature letter kind into in. */
static bool parse_operand(struct parser *p, int thread, char kind, int *nvalues, struct instr *in)
{
    switch (kind) {
    case 'R': return parse_register_operand(p, thread, &in->dst);
    case 'L': return parse_location_operand(p, &in->loc);
    case 'V': return parse_value_operand(p, thread, (*nvalues)++ == 0 ? &in->a : &in->b);
    case 'C': return parse_constant(p, &in->bar_instance);
    case 'B': return parse_label_operand(p, thread, &in->label);
    default: /* 'v': optional barrier id, then quorum */
        if (in->has_bar_id) {
            in->has_bar_quorum = true;
            return parse_value_operand(p, thread, &in->bar_quorum);
        }
        in->has_bar_id = true;
        return parse_value_operand(p, thread, &in->bar_id);
    }
}

/* Parses the operands described by sig: R register, L location, V value,
 * C constant, B label, v optional value (only at the end). */
static bool parse_operands(struct parser *p, int thread, const char *sig,
                           const struct mnemonic *m, struct instr *in)
{
    int nvalues = 0;
    for (int i = 0; sig[i]; i++) {
        if (i > 0 && p->tok.kind != TOK_COMMA) {
            if (sig[i] == 'v')
                break;
            char what[48];
            snprintf(what, sizeof what, "',' after %s", operand_noun(&p->prev));
            return ps_fail_expected(p, what);
        }
        if (i > 0 && !ps_advance(p))
            return false;
        if (!parse_operand(p, thread, sig[i], &nvalues, in))
            return false;
    }
    if (p->tok.kind == TOK_COMMA)
        return ps_fail(p, p->tok.pos, "too many operands for '" TOK_FMT "'", TOK_ARG(&m->all));
    return true;
}

/* ------------------------------------------------------------------------ */
/* Mnemonic decoding shared by both dialects                                 */

/* True when word is exactly the n characters of text (no NUL among them). */
static bool word_equals(const char *word, const char *text, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (word[i] != text[i])
            return false;   /* a shorter word fails at its NUL */
    return word[n] == '\0';
}

/* Looks t up in a NULL-terminated table. */
bool ps_lookup(const struct word_value *table, const struct token *t, int *value)
{
    if (t->kind != TOK_IDENT)
        return false;
    char first = t->text[0];   /* a word has one character at least */
    for (int i = 0; table[i].word; i++) {
        if (table[i].word[0] == first && word_equals(table[i].word + 1, t->text + 1, t->len - 1)) {
            *value = table[i].value;
            return true;
        }
    }
    return false;
}

const struct word_value arith_ops[] = {
    { "add", OP_ADD }, { "sub", OP_SUB }, { "mul", OP_MUL }, { "div", OP_DIV },
    { "and", OP_AND }, { "or", OP_OR }, { "xor", OP_XOR }, { NULL, 0 }
};
static const struct word_value branch_conds[] = {
    { "beq", CMP_EQ }, { "bne", CMP_NE }, { "blt", CMP_LT }, { "bgt", CMP_GT },
    { "ble", CMP_LE }, { "bge", CMP_GE }, { NULL, 0 }
};

/* The mnemonic's part i, or NULL. */
static const struct token *part(const struct mnemonic *m, int i)
{
    return i < m->n ? &m->parts[i] : NULL;
}

/* Fails when the mnemonic has parts from index i on. */
bool ps_no_more_parts(struct parser *p, const struct mnemonic *m, int i)
{
    if (i >= m->n)
        return true;
    return ps_fail(p, m->parts[i].pos, "unexpected '." TOK_FMT "' in '" TOK_FMT "'",
                TOK_ARG(&m->parts[i]), TOK_ARG(&m->all));
}

/* Looks part i up in table; fails with "'mnemonic' needs WHAT" or
 * "unknown WHAT 'x' in 'mnemonic'". */
bool ps_required_part(struct parser *p, const struct mnemonic *m, int i,
                   const struct word_value *table, const char *what, int *value)
{
    const struct token *t = part(m, i);
    if (!t)
        return ps_fail(p, m->all.pos, "'" TOK_FMT "' needs %s", TOK_ARG(&m->all), what);
    if (!ps_lookup(table, t, value))
        return ps_fail(p, t->pos, "expected %s in '" TOK_FMT "', got '" TOK_FMT "'",
                    what, TOK_ARG(&m->all), TOK_ARG(t));
    return true;
}

static bool unknown_instruction(struct parser *p, const struct mnemonic *m)
{
    return ps_fail(p, m->all.pos, "unknown instruction '" TOK_FMT "'", TOK_ARG(&m->all));
}

/* Decodes local arithmetic, branches and goto, common to both dialects. */
bool ps_decode_common(struct parser *p, const struct mnemonic *m, const struct word_value *local_ops,
                   struct instr *in, const char **sig)
{
    int value;
    if (ps_lookup(local_ops, &m->parts[0], &value)) {
        in->kind = I_LOCAL;
        in->op = (enum binop)value;
        *sig = "RVV";
    } else if (ps_lookup(branch_conds, &m->parts[0], &value)) {
        in->kind = I_BRANCH;
        in->cmp = (enum cmpop)value;
        *sig = "VVB";
    } else if (tok_is(&m->parts[0], "goto")) {
        in->kind = I_GOTO;
        *sig = "B";
    } else {
        return unknown_instruction(p, m);
    }
    return ps_no_more_parts(p, m, 1);
}

/* ------------------------------------------------------------------------ */
/* Instructions and rows                                                     */

/* Parses a dotted mnemonic starting at the current identifier. */
static bool parse_mnemonic(struct parser *p, struct mnemonic *m)
{
    m->n = 0;
    m->all = p->tok;
    for (;;) {
        if (m->n == MAX_PARTS)
            return ps_fail(p, p->tok.pos, "instruction name has too many parts (limit %d)", MAX_PARTS);
        m->parts[m->n++] = p->tok;
        int room = MAX_PARTS - m->n;   /* the parts right after it, read with their dots at once */
        int more = lexer_next_dotted_run(&p->lx, &m->parts[m->n], room);
        if (more > 0) {
            m->n += more;
            p->tok = m->parts[m->n - 1];
        }
        m->all.len = (size_t)(p->tok.text + p->tok.len - m->all.text);
        if (more == room && lexer_next_dotted(&p->lx, &p->tok))
            continue;   /* one part too many */
        if (!ps_advance(p))
            return false;
        if (p->tok.kind != TOK_DOT || p->tok.text != p->prev.text + p->prev.len)
            break;
        if (!ps_advance(p))
            return false;
        if (p->tok.kind != TOK_IDENT || p->tok.text != p->prev.text + 1)
            return ps_fail(p, p->prev.pos, "expected a name right after '.' in '" TOK_FMT ".'",
                        TOK_ARG(&m->all));
    }
    return true;
}

/* A fresh instruction with "none" in every optional field. */
void ps_init_instr(struct instr *in, struct srcpos pos)
{
    static const struct instr none = { .mo = MO_NONE, .scope = SCOPE_NONE, .proxy = PROXY_GENERIC,
                                       .dst = -1, .loc = -1, .label = -1, .storage_class = -1 };
    *in = none;   /* copied whole: no zeroing, then the fields over it */
    in->pos = pos;
}

/* Turns "LABEL:" into an I_LABEL, rejecting duplicates. */
static bool define_label(struct parser *p, int thread, const struct mnemonic *m, struct instr *in)
{
    int info = ps_label_info_index(p, thread, &m->parts[0]);
    if (info < 0)
        return false;
    struct label_info *li = &p->labels[info];
    if (li->defined)
        return ps_fail(p, m->parts[0].pos, "duplicate label '" TOK_FMT "' (first defined at %d:%d)",
                    TOK_ARG(&m->parts[0]), li->def_pos.line, li->def_pos.col);
    li->defined = true;
    li->def_pos = m->parts[0].pos;
    in->kind = I_LABEL;
    in->label = li->local;
    return ps_advance(p);
}

/* Counts the instruction filled in at the end of t's array (its room
 * reserved), with len bytes of text as its source text. */
static bool count_instr(struct parser *p, struct thread *t, const char *text, size_t len)
{
    struct instr *in = &t->instrs[t->ninstrs];
    in->text = ps_pool_text(p, text, len);
    if (!in->text)
        return ps_out_of_memory(p);
    t->ninstrs++;
    p->total_instrs++;
    return true;
}

/* Appends in to the thread's instructions with len bytes of text as its
 * source text. */
bool ps_push_instr(struct parser *p, int thread, struct instr *in, const char *text, size_t len)
{
    struct thread *t = &p->lit->threads[thread];
    if (!ps_reserve_unset(p, &t->instrs, t->ninstrs, &p->caps[thread].instrs, sizeof *t->instrs))
        return false;
    t->instrs[t->ninstrs] = *in;
    return count_instr(p, t, text, len);
}

/* Reads the mnemonic at the current token and decodes it into in and
 * *sig, or, for a single word followed by ':', defines that label (and
 * sets *label); the memo's decoding when it remembers the mnemonic's text
 * (the run of word characters and dots it spans when well formed), else
 * the dialect's (then remembered). */
static bool parse_mnemonic_or_label(struct parser *p, int thread, struct mnemonic *m, struct instr *in,
                                    const char **sig, bool *label)
{
    struct token first = p->tok;
    size_t end = lexer_dotted_end(&p->lx);
    *label = false;
    in->pos = first.pos;
    if (end == p->lx.off) {   /* a single word, as parse_mnemonic reads it */
        m->n = 1;
        m->parts[0] = first;
        m->all = first;
        if (!ps_advance(p))
            return false;
        if (p->tok.kind == TOK_COLON) {
            *label = true;
            ps_init_instr(in, first.pos);
            return define_label(p, thread, m, in);
        }
        if (mnemonic_memo_find(p->lit->dialect, first.text, first.len, in, sig))
            return true;
    } else {
        size_t len = end - (size_t)(first.text - p->lx.src);
        if (mnemonic_memo_find(p->lit->dialect, first.text, len, in, sig)) {
            lexer_skip_in_line(&p->lx, end);
            p->tok.len = len;   /* the mnemonic whole, as the token before the next */
            m->all = p->tok;
            return ps_advance(p);
        }
        if (!parse_mnemonic(p, m))   /* two parts or more, or an error */
            return false;
    }
    ps_init_instr(in, first.pos);
    bool decoded = p->lit->dialect == DIALECT_PTX ? ptx_decode(p, m, in, sig) : vk_decode(p, m, in, sig);
    if (decoded)
        mnemonic_memo_add(p->lit->dialect, m->all.text, m->all.len, in, *sig);
    return decoded;
}

/* Parses one instruction of the given thread (column): in place, at the
 * end of the thread's array, when that has room for it (else into spare,
 * whose ps_push_instr then fails where running out of memory always has:
 * an error found on the way replaces the one of the reservation). */
static bool parse_instruction(struct parser *p, int thread)
{
    struct thread *t = &p->lit->threads[thread];
    struct token first = p->tok;
    struct mnemonic m;
    struct instr spare;
    const char *sig;
    bool label;
    if (p->total_instrs >= MAX_INSTRS)
        return ps_fail(p, first.pos, "too many instructions (limit %d)", MAX_INSTRS);
    if (first.kind != TOK_IDENT)
        return ps_fail_expected(p, "an instruction");
    bool in_place = ps_reserve_unset(p, &t->instrs, t->ninstrs, &p->caps[thread].instrs, sizeof *t->instrs);
    struct instr *in = in_place ? &t->instrs[t->ninstrs] : &spare;
    if (!parse_mnemonic_or_label(p, thread, &m, in, &sig, &label)
        || (!label && !parse_operands(p, thread, sig, &m, in)))
        return false;
    size_t len = (size_t)(p->prev.text + p->prev.len - first.text);
    return in_place ? count_instr(p, t, first.text, len) : ps_push_instr(p, thread, in, first.text, len);
}

/* Counts the '|' from here to the next ';' without consuming anything. */
static int count_bars_ahead(const struct parser *p)
{
    struct lexer lx = p->lx;
    struct token tok = p->tok;
    struct litmus_error scratch;
    int bars = 0;
    while (tok.kind != TOK_SEMI && tok.kind != TOK_EOF) {
        if (tok.kind == TOK_BAR)
            bars++;
        if (!lexer_next(&lx, &tok, &scratch))
            break;
    }
    return bars;
}

static bool wrong_column_count(struct parser *p, struct srcpos row_pos, int columns)
{
    int n = p->lit->nthreads;
    return ps_fail(p, row_pos, "row has %d column%s, expected %d thread%s",
                columns, columns == 1 ? "" : "s", n, n == 1 ? "" : "s");
}

/* Parses "instr | instr | ... ;" with exactly one column per thread. */
static bool parse_row(struct parser *p)
{
    struct srcpos row_pos = p->tok.pos;
    for (int col = 0;; col++) {
        if (col >= p->lit->nthreads)
            return wrong_column_count(p, row_pos, col + 1 + count_bars_ahead(p));
        if (p->tok.kind != TOK_BAR && p->tok.kind != TOK_SEMI && !parse_instruction(p, col))
            return false;
        if (p->tok.kind == TOK_SEMI) {
            if (col + 1 != p->lit->nthreads)
                return wrong_column_count(p, row_pos, col + 1);
            return ps_advance(p);
        }
        if (p->tok.kind != TOK_BAR)
            return ps_fail_expected(p, col + 1 == p->lit->nthreads ? "';' at the end of the row"
                                                                : "'|' or ';' after instruction");
        if (!ps_advance(p))
            return false;
    }
}

/* True when the current token starts the part after the program. */
static bool at_program_end(const struct parser *p)
{
    const struct token *t = &p->tok;
    return t->kind == TOK_EOF || t->kind == TOK_TILDE || tok_is(t, "exists")
        || tok_is(t, "forall") || tok_is(t, "filter") || tok_is(t, "locations")
        || tok_is(t, "final") || tok_is(t, "not");
}

/* Reports the earliest use of a label that no instruction defines. */
static bool check_labels(struct parser *p)
{
    const struct label_info *worst = NULL;
    for (int i = 0; i < p->nlabels; i++) {
        const struct label_info *li = &p->labels[i];
        if (!li->used || li->defined)
            continue;
        if (!worst || ps_pos_before(li->use_pos, worst->use_pos))
            worst = li;
    }
    if (!worst)
        return true;
    return ps_fail(p, worst->use_pos, "undefined label '%.*s'", MSG_NAME_MAX,
                p->lit->threads[worst->thread].label_names[worst->local]);
}

/* Parses the thread header and all instruction rows. */
bool parse_program(struct parser *p)
{
    if (!parse_thread_header(p) || !ps_resolve_pending(p))
        return false;
    while (!at_program_end(p))
        if (!parse_row(p))
            return false;
    return check_labels(p);
}
