/* What the parser's files share (internal to litmus/): the parser state,
 * its limits, and the functions one part of the parser calls in another. */
#ifndef GPUBMC_PARSE_IMPL_H
#define GPUBMC_PARSE_IMPL_H

#include "litmus/ast.h"
#include "litmus/lexer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_THREADS       10000
#define MAX_INSTRS        1000000
#define MAX_NESTING       500        /* parentheses and negations in an assertion */
#define MAX_INPUT_BYTES   (256u * 1024u * 1024u)
#define MAX_ID            1000000000 /* thread ids and scope ids */
#define MAX_PARTS         16         /* dot-separated parts of a mnemonic */
#define MSG_NAME_MAX      64         /* longest name quoted in a message */
#define NO_PLACE          ((struct srcpos){ 0, 0 })  /* an error with no place in the text */

/* printf arguments that quote a token's text, cut to a sane length. */
#define TOK_FMT "%.*s"
#define TOK_ARG(t) (int)((t)->len > MSG_NAME_MAX ? MSG_NAME_MAX : (t)->len), (t)->text

/* ------------------------------------------------------------------------ */
/* Parser state                                                              */

/* One slot of the name table: (namespace, name) -> value. */
struct name_entry {
    const char *name;        /* NULL for an empty slot; owned by the AST */
    uint32_t len;            /* names are shorter than MAX_INPUT_BYTES */
    uint32_t hash;
    int ns;
    int value;
};

/* The slots a name table starts with, inside the table itself: room for
 * the names of most tests without an allocation. */
#define NAME_TABLE_FIRST_CAP 32

/* Open-addressing hash table of names; capacity is a power of two.  Its
 * slots are first those of its own first array; name_table_init points
 * there. */
struct name_table {
    struct name_entry *slots;
    size_t cap, count;
    struct name_entry first[NAME_TABLE_FIRST_CAP];
};

enum { NS_LOCATION = 0 };    /* registers of thread t: 1 + 2t, labels: 2 + 2t */

/* What the parser knows about a label beyond its name. */
struct label_info {
    int thread, local;       /* thread index, label index within it */
    bool defined, used;
    struct srcpos def_pos, use_pos;
};

/* Capacities of a thread's growing arrays. */
struct thread_caps {
    int regs, labels, instrs;   /* regs: of the three register arrays together */
};

/* A register initialisation seen before the thread header. */
struct pending_reg_init {
    int thread_id;
    struct srcpos thread_pos;
    const char *name;        /* points into the source */
    size_t len;
    int64_t value;
};

/* An ssw pair seen before the thread header, by P number. */
struct pending_ssw {
    int from_id, to_id;
    struct srcpos from_pos, to_pos;
};

/* How the initial state declares a location: "x = v" or "x [@ p] aliases y". */
struct loc_decl {
    struct srcpos pos;       /* the name's position; line 0 when not declared */
    bool is_alias;
    struct srcpos target_pos;  /* where an alias names its target */
};

/* Maps a P number to a thread index. */
struct thread_key {
    int id, index;
    struct srcpos pos;
};

/* The room the parser's own arrays take their first capacity from: every
 * array of most tests, without an allocation. */
#define SCRATCH_BYTES 1024

struct parser {
    struct lexer lx;
    struct token tok;        /* current token */
    struct token prev;       /* last consumed token */
    struct litmus *lit;
    struct litmus_error *err;
    struct name_table names;
    int locs_cap, threads_cap, ssw_cap, caps_cap, thread_keys_cap;
    struct loc_decl *loc_decls;          /* by location index; see declared() */
    int loc_decls_cap;
    struct thread_caps *caps;
    struct label_info *labels;
    int nlabels, labels_cap;
    struct pending_reg_init *reg_inits;
    int nreg_inits, reg_inits_cap;
    struct pending_ssw *ssws;
    int nssws, ssws_cap;
    struct thread_key *thread_keys;
    int observed_cap;
    int total_instrs;
    int nesting;
    unsigned char *scratch;  /* SCRATCH_BYTES, not zeroed, for the arrays above
                                that the parser frees (ps_reserve_scratch) */
    size_t scratch_used;
};

/* A dotted instruction name such as ld.acquire.gpu, split at the dots. */
struct mnemonic {
    struct token parts[MAX_PARTS];
    int n;
    struct token all;        /* the whole dotted name */
};

/* A word of a mnemonic table and its value. */
struct word_value {
    const char *word;
    int value;
};

static inline int register_ns(int thread) { return 1 + 2 * thread; }
static inline int label_ns(int thread) { return 2 + 2 * thread; }
static inline unsigned mo_bit(enum mo mo) { return 1u << mo; }

/* parser.c */

/* Records a printf-style message at pos as the parse error; returns false.
 * The three failures are cold: their callers' paths to them are laid out of
 * the way, and a caller's common path saves no registers for them. */
__attribute__((format(printf, 3, 4), cold))
bool ps_fail(struct parser *p, struct srcpos pos, const char *fmt, ...);
/* Fails with "out of memory" at the current token. */
__attribute__((cold))
bool ps_out_of_memory(struct parser *p);
/* Fails with "expected WHAT, got <current token>". */
__attribute__((cold))
bool ps_fail_expected(struct parser *p, const char *what);
/* Moves to the next token. */
bool ps_advance(struct parser *p);
/* Consumes a token of the given kind or fails with "expected WHAT". */
bool ps_expect(struct parser *p, enum tok_kind kind, const char *what);
/* Consumes the identifier word or fails with "expected WHAT". */
bool ps_expect_word(struct parser *p, const char *word, const char *what);
/* Appends in to the thread's instructions with len bytes of text as its
 * source text; false when out of memory. */
bool ps_push_instr(struct parser *p, int thread, struct instr *in, const char *text, size_t len);

/* A fresh instruction at pos with "none" in every optional field. */
void ps_init_instr(struct instr *in, struct srcpos pos);

/* A NUL-terminated copy of len bytes of s in the test's string pool
 * (litmus.strings), for its names and instruction texts; NULL when out of
 * memory. */
char *ps_pool_text(struct parser *p, const char *s, size_t len);
/* Doubles the capacity *cap of the array at arrp (a pointer to a pointer),
 * or gives it its first; new slots are zeroed. */
bool ps_grow(struct parser *p, void *arrp, int *cap, size_t elem);
/* ps_grow for an array the parser frees (release_parser): its first
 * capacity comes from p->scratch while that has room. */
bool ps_grow_scratch(struct parser *p, void *arrp, int *cap, size_t elem);
/* ps_reserve for an array the parser frees: loc_decls, caps, labels,
 * reg_inits, ssws, thread_keys. */
static inline bool ps_reserve_scratch(struct parser *p, void *arrp, int count, int *cap, size_t elem)
{
    return count < *cap || ps_grow_scratch(p, arrp, cap, elem);
}
/* ps_grow for an array of the test that only grows while parsing
 * (threads, locations, registers, labels, ssw pairs): the bigger copy comes
 * from the test's pool, where the old one stays, unused, until the test is
 * freed. */
bool ps_grow_pooled(struct parser *p, void *arrp, int *cap, size_t elem);
/* ps_reserve for an array ps_grow_pooled grows. */
static inline bool ps_reserve_pooled(struct parser *p, void *arrp, int count, int *cap, size_t elem)
{
    return count < *cap || ps_grow_pooled(p, arrp, cap, elem);
}
/* Makes room for element number count in the array at arrp (a pointer to a
 * pointer) whose capacity is *cap; new slots are zeroed. */
static inline bool ps_reserve(struct parser *p, void *arrp, int count, int *cap, size_t elem)
{
    return count < *cap || ps_grow(p, arrp, cap, elem);
}
/* ps_grow with the new slots left unset: for an array whose every element
 * is written whole before it is read (a thread's instructions). */
bool ps_grow_unset(struct parser *p, void *arrp, int *cap, size_t elem);
/* ps_reserve for an array ps_grow_unset grows. */
static inline bool ps_reserve_unset(struct parser *p, void *arrp, int count, int *cap, size_t elem)
{
    return count < *cap || ps_grow_unset(p, arrp, cap, elem);
}
/* True when the token text is the letter prefix followed by one or more digits. */
static inline bool ps_has_digit_suffix(const struct token *t, char prefix)
{
    if (t->kind != TOK_IDENT || t->len < 2 || t->text[0] != prefix)
        return false;
    for (size_t i = 1; i < t->len; i++)
        if (t->text[i] < '0' || t->text[i] > '9')
            return false;
    return true;
}
/* True when the token is a register name: r and digits (inline, as
 * ps_has_digit_suffix: every operand asks). */
static inline bool ps_is_register_name(const struct token *t) { return ps_has_digit_suffix(t, 'r'); }
/* True when a comes before b in the text. */
bool ps_pos_before(struct srcpos a, struct srcpos b);
/* The value stored for (ns, name), or -1. */
int ps_names_find(const struct name_table *t, int ns, const char *s, size_t len);
/* Index of the named location, created with init 0 on first use; -1 on error. */
int ps_location_index(struct parser *p, const char *name, size_t len);
/* Index of the thread's named register, created on first use; -1 on error. */
int ps_register_index(struct parser *p, int thread, const char *name, size_t len);
/* Index into p->labels of the thread's named label, created on first use; -1 on error. */
int ps_label_info_index(struct parser *p, int thread, const struct token *name);
/* Thread index for a P number, failing at pos when there is none. */
int ps_thread_index_at(struct parser *p, int id, struct srcpos pos);
/* Converts the constant token t, negated when minus (its '-' token) is not
 * NULL, to a 32-bit value stored sign-extended: -2^31 to 2^32 - 1 fit, and
 * 2^31 to 2^32 - 1 are the bit patterns of -2^31 to -1. */
bool ps_value_of(struct parser *p, const struct token *minus, const struct token *t, int64_t *out);
/* Parses a value constant: an optional '-' and a decimal or hex number. */
bool parse_constant(struct parser *p, int64_t *out);
/* Parses a small non-negative number such as a scope id. */
bool parse_small_number(struct parser *p, const char *what, int *out);
/* The P number of a thread token ("P3" or "3"), without consuming it. */
bool ps_thread_id_of(struct parser *p, const struct token *t, int *id);
/* Parses a thread name ("P3" or "3"). */
bool parse_thread_id(struct parser *p, int *id);

/* parse_init.c */

/* Parses the dialect keyword, the test name and the free text up to '{'. */
bool parse_header(struct parser *p);
/* The dialect a header keyword names (PTX, VULKAN, OPENCL and their
 * spellings); false for any other token. */
bool ps_dialect_word(const struct token *t, enum dialect *d);
/* Checks the aliases once the initial state is read: each names a location
 * the initial state declares, and no chain of aliases comes back to itself. */
bool ps_check_aliases(struct parser *p);
/* Parses one entry of the initial state. */
bool parse_init_item(struct parser *p);
/* Parses "{ item; item; ... }" with item_fn, then an optional ';'. */
bool parse_braced_list(struct parser *p, bool (*item_fn)(struct parser *), const char *what);
/* Parses "ssw P0 P1". */
bool parse_ssw_item(struct parser *p);
/* Parses "P0@... | P1@... ;". */
bool parse_thread_header(struct parser *p);
/* Appends a thread numbered id, declared at pos; NULL on error. */
struct thread *ps_new_thread(struct parser *p, int id, struct srcpos pos);
/* Sorts the P numbers for lookup and rejects duplicates (once all threads are in). */
bool ps_index_threads(struct parser *p);
/* Applies register initialisations and ssw pairs now that threads are known. */
bool ps_resolve_pending(struct parser *p);

/* parse_code.c */

/* Looks t up in a NULL-terminated table. */
bool ps_lookup(const struct word_value *table, const struct token *t, int *value);
/* The binary operations add, sub, mul, div, and, or, xor by name. */
extern const struct word_value arith_ops[];
/* Fails when the mnemonic has parts from index i on. */
bool ps_no_more_parts(struct parser *p, const struct mnemonic *m, int i);
/* Looks part i up in table; fails with "'mnemonic' needs WHAT" or
 * "unknown WHAT 'x' in 'mnemonic'". */
bool ps_required_part(struct parser *p, const struct mnemonic *m, int i,
                   const struct word_value *table, const char *what, int *value);
/* Decodes local arithmetic, branches and goto, common to both dialects. */
bool ps_decode_common(struct parser *p, const struct mnemonic *m, const struct word_value *local_ops,
                   struct instr *in, const char **sig);
/* Parses the thread header and all instruction rows. */
bool parse_program(struct parser *p);

/* parse_ptx.c */

/* Decodes a PTX mnemonic into in and the operand signature. */
bool ptx_decode(struct parser *p, const struct mnemonic *m, struct instr *in, const char **sig);

/* parse_vulkan.c */

/* Decodes a Vulkan mnemonic into in and the operand signature. */
bool vk_decode(struct parser *p, const struct mnemonic *m, struct instr *in, const char **sig);

/* opencl_parse.c */

/* Parses an OpenCL test after its header: initial state, threads, tail. */
bool opencl_parse_program(struct parser *p);
/* The register P<thread>:name that a condition names: a local of the
 * thread, or a pointer parameter (holding the location's address); -1 and
 * an error when it is neither. */
int opencl_condition_register(struct parser *p, int thread, const struct token *name);
/* The location "name[k]" names once location loc (named by name) is read
 * and '[' is current: cell k of the array whose cell 0 is loc (k = 0 is
 * loc); -1 and an error when the array has no cell k. */
int opencl_condition_cell(struct parser *p, int loc, const struct token *name);

/* parse_cond.c */

/* Parses everything after the instruction rows up to the end of input. */
bool parse_tail(struct parser *p);

#endif
