/* Reading herd-format logs (the lexer of herdtools' mcompare7 is the
 * reference for what a log may hold). */
#include "bmc/observed/log.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

#define MAX_BINDINGS 256

/* The bindings of one state line. */
struct state_line {
    bool has_count;
    long count;
    int n;
    char *names[MAX_BINDINGS];
    int32_t values[MAX_BINDINGS];
};

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Parses a 32-bit value (decimal, or hex with 0x) at *s; false if none. */
static bool parse_value(const char **s, int32_t *v)
{
    const char *p = *s;
    bool minus = *p == '-';
    p += minus;
    if (!isdigit((unsigned char)*p))
        return false;
    char *end;
    errno = 0;
    unsigned long long u = strtoull(p, &end, p[0] == '0' && (p[1] == 'x' || p[1] == 'X') ? 16 : 10);
    if (errno || u > (minus ? 2147483648ull : 4294967295ull))
        return false;
    *v = (int32_t)(uint32_t)(minus ? 0u - (uint32_t)u : (uint32_t)u);
    *s = end;
    return true;
}

/* Parses "NAME = VALUE ;" at *s into st; false when it is not one. */
static bool parse_binding(const char **s, struct state_line *st)
{
    const char *p = skip_blanks(*s), *start = p;
    while (*p && *p != '=' && *p != ';' && *p != ' ' && *p != '\t')
        p++;
    const char *end = p;
    p = skip_blanks(p);
    if (end == start || *p != '=' || st->n == MAX_BINDINGS)
        return false;
    p = skip_blanks(p + 1);
    int32_t v;
    if (!parse_value(&p, &v))
        return false;
    p = skip_blanks(p);
    if (*p != ';')
        return false;
    st->names[st->n] = xcalloc((size_t)(end - start) + 1, 1);
    memcpy(st->names[st->n], start, (size_t)(end - start));
    st->values[st->n++] = v;
    *s = p + 1;
    return true;
}

static void state_line_free(struct state_line *st)
{
    for (int i = 0; i < st->n; i++)
        free(st->names[i]);
    st->n = 0;
}

/* Parses a state line; 1 when it is one, 0 when it is not (the end of the
 * states), -1 when it starts like one but does not parse. */
static int parse_state_line(const char *line, struct state_line *st)
{
    const char *p = skip_blanks(line);
    memset(st, 0, sizeof *st);
    bool prefix = false;
    if (isdigit((unsigned char)*p)) {
        char *end;
        long c = strtol(p, &end, 10);
        const char *q = skip_blanks(end);
        if ((q[0] == '*' || q[0] == ':') && q[1] == '>') {
            st->has_count = prefix = true;
            st->count = c;
            p = q + 2;
        }
    } else if ((p[0] == '*' || p[0] == ':') && p[1] == '>') {
        prefix = true;
        p += 2;
    }
    if (!prefix && !strchr(p, '='))
        return 0;
    for (p = skip_blanks(p); *p && *p != '\n' && *p != '\r' && *p != '#'; p = skip_blanks(p))
        if (!parse_binding(&p, st)) {
            state_line_free(st);
            return -1;
        }
    return 1;
}

/* Adds a parsed state to t, its bindings put in t's order of names (the
 * first state's); false when it names other values. */
static bool add_state(struct observed_test *t, struct state_line *st)
{
    if (t->nstates == 0 && t->nnames == 0) {
        t->nnames = st->n;
        t->names = xcalloc((size_t)st->n + 1, sizeof *t->names);
        for (int i = 0; i < st->n; i++)
            t->names[i] = xstrdup(st->names[i]);
    }
    if (st->n != t->nnames)
        return false;
    t->values = xrealloc(t->values, (size_t)(t->nstates + 1) * ((size_t)t->nnames + 1) * sizeof *t->values);
    t->counts = xrealloc(t->counts, (size_t)(t->nstates + 1) * sizeof *t->counts);
    int32_t *row = t->values + (size_t)t->nstates * t->nnames;
    for (int i = 0; i < t->nnames; i++) {
        int j = 0;
        while (j < st->n && strcmp(st->names[j], t->names[i]) != 0)
            j++;
        if (j == st->n)
            return false;
        row[i] = st->values[j];
    }
    t->counts[t->nstates++] = st->has_count ? st->count : 1;
    t->counted |= st->has_count;
    return true;
}

/* True when line is "Test NAME[ KIND]" for this name. */
static bool test_line(const char *line, const char *name)
{
    if (strncmp(line, "Test", 4) != 0 || (line[4] != ' ' && line[4] != '\t'))
        return false;
    const char *p = skip_blanks(line + 4);
    size_t n = strlen(name);
    return strncmp(p, name, n) == 0 && (p[n] == ' ' || p[n] == '\t' || p[n] == '\n' || p[n] == '\r' || !p[n]);
}

/* True when line starts the states of a block. */
static bool states_line(const char *line)
{
    return (strncmp(line, "States", 6) == 0 && (line[6] == ' ' || line[6] == '\n' || line[6] == '\r' || !line[6]))
        || strncmp(line, "Histogram", 9) == 0;
}

int observed_log_read(const char *path, const char *name, struct observed_test *t, char *err, size_t len)
{
    memset(t, 0, sizeof *t);
    int fd = open(path, O_RDONLY | O_NONBLOCK);   /* a FIFO is refused, not waited on */
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        snprintf(err, len, "%s: not a regular file", path);
        close(fd);
        return -1;
    }
    FILE *f = fd >= 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        snprintf(err, len, "%s: cannot open: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    enum { OUTSIDE, IN_TEST, IN_STATES } at = OUTSIDE;
    int found = 0;
    for (int no = 1; found >= 0 && getline(&line, &cap, f) >= 0; no++) {
        if (strncmp(line, "Test", 4) == 0 && (line[4] == ' ' || line[4] == '\t')) {
            at = test_line(line, name) ? IN_TEST : OUTSIDE;
            if (at == IN_TEST && found++ == 0)
                t->line = no;
            continue;
        }
        if (at == IN_TEST && states_line(line)) {
            at = IN_STATES;
            continue;
        }
        if (at != IN_STATES || *skip_blanks(line) == '\n' || *skip_blanks(line) == '\0')
            continue;
        struct state_line st;
        int k = parse_state_line(line, &st);
        if (k == 0) {
            at = OUTSIDE;
        } else if (k < 0) {
            snprintf(err, len, "%s:%d: a state line of test %s does not parse (expected "
                     "[COUNT] [*>|:>] NAME=VALUE; ...)", path, no, name);
            found = -1;
        } else {
            if (!add_state(t, &st)) {
                snprintf(err, len, "%s:%d: this state of test %s names other registers or locations "
                         "than its first one", path, no, name);
                found = -1;
            }
            state_line_free(&st);
        }
    }
    free(line);
    fclose(f);
    return found > 0 ? 1 : found;
}

void observed_test_free(struct observed_test *t)
{
    for (int i = 0; i < t->nnames; i++)
        free(t->names[i]);
    free(t->names);
    free(t->values);
    free(t->counts);
    memset(t, 0, sizeof *t);
}
