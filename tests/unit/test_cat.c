/* The cat reader: tokens, precedence, the product against the postfix
 * star, let rec's least solution, dialects and error positions. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/cat_lang.h"
#include "models/cat_model.h"
#include "tests/unit/model_fixture.h"

/* A folder of this run's own: a cat file reads the stdlib.cat beside it,
 * and /tmp may hold one (the README's walk-through copies the corpus's). */
static char folder[] = "/tmp/gpubmc-test-cat-XXXXXX";

/* Writes text to the file name in this run's folder, its path in path. */
static void write_file(char *path, size_t len, const char *name, const char *text)
{
    if (folder[strlen(folder) - 1] == 'X')
        assert_non_null(mkdtemp(folder));
    snprintf(path, len, "%s/%s", folder, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_tokens(void **state)
{
    (void)state;
    struct cat_lexer lx;
    struct cat_error err;
    cat_lexer_init(&lx, "let po-loc = (po^-1)* ; [R] (* a (* nested *) comment *) // line\n  0 \\ _", "f.cat");
    enum cat_tok want[] = { CT_LET, CT_IDENT, CT_EQ, CT_LPAREN, CT_IDENT, CT_INV, CT_RPAREN, CT_STAR, CT_SEMI,
                            CT_LBRACK, CT_IDENT, CT_RBRACK, CT_ZERO, CT_BSLASH, CT_IDENT, CT_EOF };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        struct cat_token t = cat_lex(&lx, &err);
        assert_int_equal(t.kind, want[i]);
        if (i == 1)
            assert_string_equal(t.text, "po-loc");
        if (i == 12) {   /* 0 on line 2, column 3 */
            assert_int_equal(t.pos.line, 2);
            assert_int_equal(t.pos.col, 3);
        }
    }
    cat_lexer_init(&lx, "(* open", "f.cat");
    assert_int_equal(cat_lex(&lx, &err).kind, CT_ERROR);
    assert_int_equal(err.line, 1);
}

/* The body of the first let of text. */
static const struct cat_expr *first_let(const char *text, struct cat_program **prog)
{
    char path[256];
    struct cat_error err;
    write_file(path, sizeof path, "p.cat", text);
    *prog = cat_parse_file(path, &err);
    unlink(path);
    assert_non_null(*prog);
    return (*prog)->stmts[0]->e;
}

static void test_precedence(void **state)
{
    (void)state;
    struct cat_program *prog;
    /* | < ; < \ < & < the product */
    const struct cat_expr *e = first_let("let x = a | b ; c \\ d & e * f", &prog);
    assert_int_equal(e->op, CE_UNION);
    assert_int_equal(e->b->op, CE_SEQ);
    assert_int_equal(e->b->b->op, CE_DIFF);
    assert_int_equal(e->b->b->b->op, CE_INTER);
    assert_int_equal(e->b->b->b->b->op, CE_PROD);
    cat_program_free(prog);
    /* a star before an operand is the product; otherwise the closure */
    e = first_let("let x = (po)* | R * W\nlet y = 0", &prog);
    assert_int_equal(e->op, CE_UNION);
    assert_int_equal(e->a->op, CE_STAR);
    assert_int_equal(e->b->op, CE_PROD);
    cat_program_free(prog);
}

/* Loads text as a cat file: the model, or NULL with its error in err. */
static struct cat_model *load(const char *text, char *err, size_t len)
{
    char path[256];
    write_file(path, sizeof path, "m.cat", text);
    struct cat_model *cm = cat_model_load(path, err, len);
    unlink(path);
    return cm;
}

static void test_dialects_and_errors(void **state)
{
    (void)state;
    char err[512];
    struct cat_model *cm = load("acyclic po | ssw as a\n", err, sizeof err);
    assert_non_null(cm);
    assert_int_equal(cat_model_desc(cm, DIALECT_PTX)->dialect, DIALECT_VULKAN);
    cat_model_free(cm);
    cm = load("acyclic po | rf as a\n", err, sizeof err);   /* neither dialect's own names */
    assert_non_null(cm);
    assert_int_equal(cat_model_desc(cm, DIALECT_PTX)->dialect, DIALECT_PTX);
    assert_int_equal(cat_model_desc(cm, DIALECT_VULKAN)->dialect, DIALECT_VULKAN);
    assert_true(cat_model_desc(cm, DIALECT_VULKAN)->co_total);
    assert_false(cat_model_desc(cm, DIALECT_PTX)->co_total);
    cat_model_free(cm);
    assert_null(load("let f(a) = a\nacyclic f(po, rf) as a\n", err, sizeof err));
    assert_non_null(strstr(err, ":2:9: error: f takes 1 arguments"));
    assert_null(load("acyclic [R] as a\nacyclic po as a\n", err, sizeof err));
    assert_non_null(strstr(err, ":2:1: error: a second axiom called a"));
    assert_null(load("acyclic R as a\n", err, sizeof err));
    assert_non_null(strstr(err, ":1:9: error: this axiom needs a relation"));
    assert_null(load("let x = po in x\n", err, sizeof err));
    assert_non_null(strstr(err, ":1:12: error: unsupported construct: let ... in"));
}

/* The thin-air axiom of text's model (its index, -1: none). */
static int thin_air_of(const char *text)
{
    char err[512];
    struct cat_model *cm = load(text, err, sizeof err);
    assert_non_null(cm);
    int k = cat_model_desc(cm, DIALECT_PTX)->thin_air;
    cat_model_free(cm);
    return k;
}

/* The thin-air rule: the first acyclic axiom over a union with rf, addr,
 * data and ctrl among its terms, through parentheses and let names,
 * whatever its name; not an irreflexive one, not one missing a term, not
 * one whose rf a let has rebound. */
static void test_thin_air_rule(void **state)
{
    (void)state;
    assert_int_equal(thin_air_of("acyclic po as a\nacyclic rf | addr | data | ctrl as b\n"), 1);
    assert_int_equal(thin_air_of("let dep = addr | (data | ctrl)\nacyclic (rf | dep) as x\n"), 0);
    assert_int_equal(thin_air_of("let d = data | ctrl\nlet dep = addr | d\nacyclic po | dep | rf as x\n"), 0);
    assert_int_equal(thin_air_of("acyclic rf | addr | data as x\n"), -1);
    assert_int_equal(thin_air_of("irreflexive rf | addr | data | ctrl as x\n"), -1);
    assert_int_equal(thin_air_of("acyclic (rf | addr) & (data | ctrl) as x\n"), -1);
    assert_int_equal(thin_air_of("let rf = rf & ext\nacyclic rf | addr | data | ctrl as x\n"), -1);
    assert_int_equal(thin_air_of("acyclic (rf | addr | data | ctrl)+ as x\n"), -1);
}

/* Builds text's model over a concrete run of three stores of one thread,
 * all executed; returns how many axioms fail. */
static int violated_axioms(const char *text)
{
    char err[512];
    struct cat_model *cm = load(text, err, sizeof err);
    assert_non_null(cm);
    const char *litmus = "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n st.relaxed.gpu x, 1 ;\n"
                         " st.relaxed.gpu x, 2 ;\n st.relaxed.gpu x, 3 ;\nexists (x == 3)\n";
    struct model_fixture f;
    fixture_build(&f, litmus, cat_model_desc(cm, DIALECT_PTX), LIT_TRUE);
    int failed = 0;
    for (int i = 0; i < f.out.naxioms; i++)
        failed += f.out.axioms[i].violated == LIT_TRUE;
    fixture_free(&f);
    cat_model_free(cm);
    return failed;
}

static void test_let_rec(void **state)
{
    (void)state;
    /* the least solutions of x = po | x; x and of po | po; x are po+ = po */
    assert_int_equal(violated_axioms("let rec t = po | (t; t)\nempty t \\ po as a\nempty po \\ t as b\n"), 0);
    assert_int_equal(violated_axioms("let rec t = po | (po; t)\nempty t \\ po as a\nempty po \\ t as b\n"), 0);
    /* and of x = [W] | x; po: [W]; po*, which has po's pairs from writes */
    assert_int_equal(violated_axioms("let rec t = [W] | (t; po)\nempty t \\ ([W]; po?) as a\n"
                                     "empty ([W]; po) \\ t as b\n"), 0);
    /* a sanity check that axioms can fail here: po is not empty */
    assert_int_equal(violated_axioms("empty po as a\nirreflexive po as b\n"), 1);
    /* domain and range: every store is in po's domain or range */
    assert_int_equal(violated_axioms("empty (W \\ IW) \\ (domain(po) | range(po)) as a\n"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_dialects_and_errors),
        cmocka_unit_test(test_let_rec),
        cmocka_unit_test(test_thin_air_rule),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (folder[strlen(folder) - 1] != 'X')
        rmdir(folder);
    return failed;
}
