/* AST copies and edits for the transformations. */
#include "bmc/transform/edit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "litmus/printer.h"

struct litmus *edit_copy(const struct litmus *l)
{
    char *text = litmus_print(l);
    struct litmus_error err;
    struct litmus *copy = text ? litmus_parse(l->path, text, &err) : NULL;
    free(text);
    return copy;
}

void edit_remove(const struct litmus *l, struct thread *th, int i)
{
    litmus_free_string(l, th->instrs[i].text);
    memmove(&th->instrs[i], &th->instrs[i + 1], (size_t)(th->ninstrs - i - 1) * sizeof *th->instrs);
    th->ninstrs--;
}

void edit_insert(struct thread *th, int i, const struct instr *in)
{
    th->instrs = xrealloc(th->instrs, (size_t)(th->ninstrs + 1) * sizeof *th->instrs);
    memmove(&th->instrs[i + 1], &th->instrs[i], (size_t)(th->ninstrs - i) * sizeof *th->instrs);
    th->instrs[i] = *in;
    th->instrs[i].text = xstrdup(in->text ? in->text : "");
    th->ninstrs++;
}

void edit_quote(const struct litmus *l, const struct thread *th, const struct instr *in, char *buf,
                size_t len)
{
    char *text = litmus_print_instr(l, th, in);
    snprintf(buf, len, "`%s`", text ? text : "?");
    free(text);
}

bool edit_finish(struct variants *out, const struct litmus *src, struct litmus *copy, enum transform_kind kind,
                 int thread, int instr, const char *change, char *err, size_t len)
{
    char *text = litmus_print(copy);
    struct litmus_error perr = { .msg = "out of memory" };
    struct litmus *target = text ? litmus_parse(src->path, text, &perr) : NULL;
    free(text);
    litmus_free(copy);
    if (!target) {
        snprintf(err, len, "internal error: %s at line %d gives a program that does not parse (%d:%d: %.120s)",
                 transform_name(kind), src->threads[thread].instrs[instr].pos.line, perr.pos.line,
                 perr.pos.col, perr.msg);
        return false;
    }
    XGROW(out->v, out->cap, out->n + 1);
    out->v[out->n++] = (struct variant){ kind, thread, instr, src->threads[thread].instrs[instr].pos.line,
                                         xstrdup(change), target };
    return true;
}
