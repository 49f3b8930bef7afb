/* Unit tests of the parses and programs kept for a later check of the
 * same file: kept only when asked, handed out again only for the same
 * bytes, grid and bound, never while a check uses them, and each kept
 * thread's instructions and a kept program's events in blocks of their
 * size. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "litmus/equal.h"
#include "program/load_memo.h"

static const char *const store_buffering =
    "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n"
    " ld.relaxed.gpu r0, y | ld.relaxed.gpu r0, x ;\n"
    "exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";

/* Writes text to the file at path. */
static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Takes the parse of path, failing the test when it does not parse. */
static struct litmus *take(const char *path, const int *grid, bool *kept)
{
    struct litmus_error err;
    struct litmus *l = load_memo_litmus(path, grid, &err, kept);
    if (!l)
        fail_msg("%s: %s", path, err.msg);
    return l;
}

/* Ends a use of l, as loaded_free does. */
static void done(struct litmus *l, bool kept)
{
    if (kept)
        load_memo_give_back(l);
    else
        litmus_free(l);
}

static void test_kept_only_when_asked(void **state)
{
    (void)state;
    char path[] = "/tmp/test_load_memo_XXXXXX";
    close(mkstemp(path));
    write_file(path, store_buffering);
    bool kept;
    load_memo_keep(NULL);
    struct litmus *first = take(path, NULL, &kept);
    assert_false(kept);
    done(first, kept);

    load_memo_keep(path);   /* a later check reads it: kept, and handed out again */
    first = take(path, NULL, &kept);
    assert_true(kept);
    done(first, kept);
    load_memo_keep(NULL);   /* the last check: the caller's now, no longer kept */
    struct litmus *again = take(path, NULL, &kept);
    assert_ptr_equal(again, first);
    assert_false(kept);
    done(again, kept);
    struct litmus *fresh = take(path, NULL, &kept);
    assert_false(kept);
    done(fresh, kept);
    unlink(path);
}

static void test_changed_bytes_parse_again(void **state)
{
    (void)state;
    char path[] = "/tmp/test_load_memo_XXXXXX";
    close(mkstemp(path));
    write_file(path, store_buffering);
    bool kept;
    load_memo_keep(path);
    struct litmus *first = take(path, NULL, &kept);
    assert_true(kept);
    assert_string_equal(first->name, "SB");
    done(first, kept);

    char *renamed = strdup(store_buffering);
    memcpy(renamed + 4, "MP", 2);   /* the same length, another name */
    write_file(path, renamed);
    load_memo_keep(NULL);
    struct litmus *second = take(path, NULL, &kept);
    assert_false(kept);
    assert_string_equal(second->name, "MP");
    done(second, kept);
    free(renamed);
    unlink(path);
}

static void test_in_use_or_other_grid_is_not_shared(void **state)
{
    (void)state;
    char path[] = "/tmp/test_load_memo_XXXXXX";
    close(mkstemp(path));
    write_file(path, store_buffering);
    bool kept, kept_too;
    load_memo_keep(path);
    struct litmus *first = take(path, NULL, &kept);
    assert_true(kept);
    struct litmus *second = take(path, NULL, &kept_too);   /* first is in use */
    assert_ptr_not_equal(second, first);
    assert_false(kept_too);
    done(second, kept_too);
    done(first, kept);

    const int grid[3] = { 1, 1, 1 };
    struct litmus *gridded = take(path, grid, &kept_too);   /* another key */
    assert_ptr_not_equal(gridded, first);
    done(gridded, kept_too);
    load_memo_keep(NULL);
    struct litmus *last = take(path, NULL, &kept);
    assert_ptr_equal(last, first);
    done(last, kept);
    unlink(path);
}

static void test_programs_go_with_their_litmus(void **state)
{
    (void)state;
    char path[] = "/tmp/test_load_memo_XXXXXX";
    close(mkstemp(path));
    write_file(path, store_buffering);
    char msg[256];
    bool kept, p_kept;
    load_memo_keep(path);
    struct litmus *l = take(path, NULL, &kept);
    struct program *p = load_memo_program(l, 2, msg, sizeof msg, &p_kept);
    assert_non_null(p);
    assert_true(p_kept);
    struct program *other = load_memo_program(l, 3, msg, sizeof msg, &p_kept);   /* another bound */
    assert_ptr_not_equal(other, p);
    assert_false(p_kept);
    assert_int_equal(other->bound, 3);
    program_free(other);
    done(l, kept);

    l = take(path, NULL, &kept);   /* kept still: the same program */
    assert_ptr_equal(load_memo_program(l, 2, msg, sizeof msg, &p_kept), p);
    assert_true(p_kept);
    done(l, kept);
    load_memo_keep(NULL);   /* the last check: both are the caller's */
    l = take(path, NULL, &kept);
    assert_false(kept);
    assert_ptr_equal(load_memo_program(l, 2, msg, sizeof msg, &p_kept), p);
    assert_false(p_kept);
    program_free(p);
    litmus_free(l);

    struct litmus *fresh = take(path, NULL, &kept);   /* nothing kept: made anew */
    struct program *made = load_memo_program(fresh, 2, msg, sizeof msg, &p_kept);
    assert_false(kept);
    assert_false(p_kept);
    program_free(made);
    litmus_free(fresh);
    unlink(path);
}

/* Seven instructions a thread: the parser's array for them has room for
 * twelve. */
static const char *const seven_each =
    "PTX seven\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n st.relaxed.gpu x, 2 | st.relaxed.gpu y, 2 ;\n"
    " st.relaxed.gpu x, 3 | st.relaxed.gpu y, 3 ;\n st.relaxed.gpu x, 4 | st.relaxed.gpu y, 4 ;\n"
    " st.relaxed.gpu x, 5 | st.relaxed.gpu y, 5 ;\n st.relaxed.gpu x, 6 | st.relaxed.gpu y, 6 ;\n"
    " ld.relaxed.gpu r0, y | ld.relaxed.gpu r0, x ;\n"
    "exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";

static void test_kept_parse_and_program_fit_their_blocks(void **state)
{
    (void)state;
    char path[] = "/tmp/test_load_memo_XXXXXX";
    close(mkstemp(path));
    write_file(path, seven_each);
    bool kept;
    load_memo_keep(NULL);
    struct litmus *alone = take(path, NULL, &kept);
    load_memo_keep(path);
    struct litmus *l = take(path, NULL, &kept);
    assert_true(kept);
    char why[200];
    assert_true(litmus_equal(l, alone, why, sizeof why));
    assert_int_equal(l->nthreads, 2);
    for (int i = 0; i < l->nthreads; i++) {
        const struct thread *t = &l->threads[i];
        size_t bytes = (size_t)t->ninstrs * sizeof *t->instrs;
        assert_int_equal(t->ninstrs, 7);
        assert_true(malloc_usable_size(t->instrs) < bytes + 256);   /* not twelve's room */
        for (int k = 0; k < t->ninstrs; k++)
            assert_string_equal(t->instrs[k].text, alone->threads[i].instrs[k].text);
    }
    char msg[256];
    bool p_kept;
    struct program *p = load_memo_program(l, 2, msg, sizeof msg, &p_kept);
    struct program *made = program_build(alone, 2, msg, sizeof msg);
    assert_non_null(p);
    assert_true(p_kept);
    assert_int_equal(p->nevents, made->nevents);
    size_t event_bytes = (size_t)p->nevents * sizeof *p->events;
    assert_true(malloc_usable_size(p->events) < event_bytes + 64);   /* not two a micro-op's room */
    for (int k = 0; k < p->nevents; k++) {
        assert_int_equal(p->events[k].kind, made->events[k].kind);
        assert_int_equal(p->events[k].thread, made->events[k].thread);
        assert_int_equal(p->events[k].uop, made->events[k].uop);
        assert_int_equal(p->events[k].loc, made->events[k].loc);
    }
    program_free(made);
    done(l, kept);
    load_memo_keep(NULL);   /* its last check: both are the caller's */
    struct litmus *last = take(path, NULL, &kept);
    assert_ptr_equal(last, l);
    assert_ptr_equal(load_memo_program(last, 2, msg, sizeof msg, &p_kept), p);
    program_free(p);
    done(last, kept);
    litmus_free(alone);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_only_when_asked),
        cmocka_unit_test(test_changed_bytes_parse_again),
        cmocka_unit_test(test_in_use_or_other_grid_is_not_shared),
        cmocka_unit_test(test_programs_go_with_their_litmus),
        cmocka_unit_test(test_kept_parse_and_program_fit_their_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
