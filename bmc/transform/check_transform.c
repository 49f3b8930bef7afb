/* --transform: a built-in transformation at each of its sites, checked
 * against the original; the rewritten programs optionally written out. */
#include "bmc/transform/checks.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bmc/transform/origin.h"
#include "litmus/printer.h"
#include "util/newfile.h"

/* The file name of variant i of vs: DIR/STEM.NAME.L<line>.P<id>, with .<n>
 * when several variants share kind, line and thread. */
static void emit_name(const char *dir, const char *path, const struct litmus *l, const struct variants *vs,
                      int i, char *buf, size_t len)
{
    const struct variant *v = &vs->v[i];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t stem = strlen(base) > 7 && strcmp(base + strlen(base) - 7, ".litmus") == 0 ? strlen(base) - 7
                                                                                       : strlen(base);
    int nth = 0, same = 0;
    for (int k = 0; k < vs->n; k++)
        if (vs->v[k].kind == v->kind && vs->v[k].line == v->line && vs->v[k].thread == v->thread) {
            same++;
            nth += k < i;
        }
    char suffix[16] = "";
    if (same > 1)
        snprintf(suffix, sizeof suffix, ".%d", nth + 1);
    snprintf(buf, len, "%s/%.*s.%s.L%d.P%d%s.litmus", dir, (int)stem, base, transform_name(v->kind), v->line,
             l->threads[v->thread].id, suffix);
}

/* True when a and b name the same existing file. */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The text --emit-transformed writes for variant v of g: the rewritten
 * program named "NAME+KIND@L<line>.P<id>" after the source test, with a
 * comment saying what changed followed by the source's doc text; NULL when
 * out of memory. */
static char *emitted_text(const struct origin *g, const struct variant *v)
{
    const struct litmus *src = g->lit;
    struct litmus copy = *v->target;   /* shallow: only name and doc differ */
    const char *base = src->name && *src->name ? src->name : "test";
    size_t nlen = strlen(base) + strlen(transform_name(v->kind)) + 48;
    const char *change = v->change && !strstr(v->change, "*)") ? v->change : NULL;
    size_t dlen = strlen(base) + strlen(transform_name(v->kind)) + (change ? strlen(change) : 0)
                  + (src->doc ? strlen(src->doc) : 0) + 160;
    char *name = malloc(nlen), *doc = malloc(dlen), *text = NULL;
    if (name && doc) {
        snprintf(name, nlen, "%s+%s@L%d.P%d", base, transform_name(v->kind), v->line,
                 src->threads[v->thread].id);
        int n = snprintf(doc, dlen, "(* %s with --transform %s at line %d, P%d%s%s *)", base,
                         transform_name(v->kind), v->line, src->threads[v->thread].id, change ? ": " : "",
                         change ? change : "");
        if (src->doc)
            snprintf(doc + n, dlen - (size_t)n, "\n%s", src->doc);
        copy.name = name;
        copy.doc = doc;
        text = litmus_print(&copy);
    }
    free(name);
    free(doc);
    return text;
}

/* Writes variant v of g to file; false with r->reason set. */
static bool emit(const char *file, const struct origin *g, const struct variant *v, struct check_result *r)
{
    if (same_file(file, g->path)) {
        snprintf(r->reason, sizeof r->reason, "%.250s: error: --emit-transformed would write over the input file",
                 file);
        return false;
    }
    char *text = emitted_text(g, v), err[600] = "out of memory";
    bool ok = text && newfile_write(file, text, strlen(text), err, sizeof err);   /* never over a file that differs */
    if (!ok)
        snprintf(r->reason, sizeof r->reason, "%.220s: error: --emit-transformed: %.700s", file, err);
    free(text);
    return ok;
}

/* The verdict over all sites and its reason. */
static void summarise(const char *name, int nsites, int nfail, int nunknown, const char *first_fail,
                      struct check_result *r)
{
    if (nfail > 0) {
        r->verdict = V_FAIL;
        snprintf(r->reason, sizeof r->reason, "%s adds behaviour at %d of %d site%s (first: %.200s)", name,
                 nfail, nsites, nsites == 1 ? "" : "s", first_fail);
    } else if (nunknown > 0) {
        r->verdict = V_UNKNOWN;
        snprintf(r->reason, sizeof r->reason, "%s: %d of %d site%s undecided within the loop bound", name,
                 nunknown, nsites, nsites == 1 ? "" : "s");
    } else {
        r->verdict = V_PASS;
        snprintf(r->reason, sizeof r->reason, "%s adds no behaviour at %s %d site%s", name,
                 nsites == 1 ? "its" : "any of its", nsites, nsites == 1 ? "" : "s");
    }
}

/* Checks every variant; fills r (and r->details' "sites"). */
static void check_variants(struct origin *g, const struct variants *vs, const char *emit_dir, cJSON *sites,
                           struct check_result *r)
{
    int nfail = 0, nunknown = 0;
    char first_fail[240] = "";
    for (int i = 0; i < vs->n; i++) {
        const struct variant *v = &vs->v[i];
        struct check_result vr;
        origin_check(g, v->target, &vr);
        if (vr.verdict == V_ERROR) {
            r->verdict = V_ERROR;
            snprintf(r->reason, sizeof r->reason, "%s: error: line %d: %.200s", g->path, v->line, vr.reason);
            cJSON_Delete(vr.details);
            cJSON_Delete(vr.witness);
            return;
        }
        if (vr.verdict == V_FAIL && nfail++ == 0) {
            snprintf(first_fail, sizeof first_fail, "line %d, P%d", v->line, g->lit->threads[v->thread].id);
            r->witness = vr.witness;
            vr.witness = NULL;
        }
        nunknown += vr.verdict == V_UNKNOWN;
        cJSON *site = origin_site_json(g, v, NULL, &vr);
        cJSON_Delete(vr.witness);
        if (emit_dir) {
            char file[PATH_MAX];
            emit_name(emit_dir, g->path, g->lit, vs, i, file, sizeof file);
            if (!emit(file, g, v, r)) {
                r->verdict = V_ERROR;
                cJSON_Delete(site);
                return;
            }
            cJSON_AddStringToObject(site, "file", file);
        }
        cJSON_AddItemToArray(sites, site);
    }
    summarise(transform_name(vs->v[0].kind), vs->n, nfail, nunknown, first_fail, r);
}

void check_transform(const char *path, enum transform_kind k, int line, const char *emit_dir,
                     const struct check_opts *o, struct check_result *r)
{
    struct origin g;
    struct variants vs = { 0 };
    char err[240];
    if (!origin_begin(&g, path, o, r)) {
        /* r names the problem */
    } else if (!transform_apply(g.lit, 1u << k, line, &vs, err, sizeof err)) {
        snprintf(r->reason, sizeof r->reason, "%s: %s", path, err);
    } else if (vs.n == 0 && line > 0) {
        snprintf(r->reason, sizeof r->reason, "%s:%d: error: %s applies nowhere on line %d", path, line,
                 transform_name(k), line);
    } else if (vs.n == 0) {
        r->verdict = V_PASS;
        r->vacuous = true;
        snprintf(r->reason, sizeof r->reason, "vacuously: %s applies nowhere in this test", transform_name(k));
    } else {
        r->details = cJSON_CreateObject();
        cJSON_AddStringToObject(r->details, "kind", "transformation");
        cJSON_AddStringToObject(r->details, "name", transform_name(k));
        check_variants(&g, &vs, emit_dir, cJSON_AddArrayToObject(r->details, "sites"), r);
    }
    variants_free(&vs);
    origin_end(&g, r);
}
