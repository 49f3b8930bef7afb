/* For unit tests: a model built over a small litmus text whose events all
 * have one constant execution literal.  Include after cmocka.h. */
#ifndef GPUBMC_TEST_MODEL_FIXTURE_H
#define GPUBMC_TEST_MODEL_FIXTURE_H

#include <stdlib.h>

#include "encoders/base.h"
#include "encoders/cnf.h"
#include "litmus/ast.h"
#include "models/model.h"
#include "program/program.h"

struct model_fixture {
    struct litmus *l;
    struct program *p;
    struct cnf *c;
    lit *exec;
    struct base b;
    struct model_out out;
};

/* Parses text, unrolls it at bound 1, gives every event the execution
 * literal exec_all and builds md over it into f->out. */
static void fixture_build(struct model_fixture *f, const char *text, const struct model_desc *md, lit exec_all)
{
    struct litmus_error err;
    f->l = litmus_parse("t.litmus", text, &err);
    assert_non_null(f->l);
    char msg[256];
    f->p = program_build(f->l, 1, msg, sizeof msg);
    assert_non_null(f->p);
    f->c = cnf_new(false);
    f->exec = calloc((size_t)f->p->nevents, sizeof *f->exec);
    for (int e = 0; e < f->p->nevents; e++)
        f->exec[e] = exec_all;
    base_init(&f->b, f->c, f->p, f->exec);
    model_build(md, f->c, &f->b, &f->out);
}

/* Frees what fixture_build made. */
static void fixture_free(struct model_fixture *f)
{
    model_out_free(&f->out);
    base_free(&f->b);
    free(f->exec);
    cnf_free(f->c);
    program_free(f->p);
    litmus_free(f->l);
}

#endif
