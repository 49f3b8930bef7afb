/* One CaDiCaL session, N times: the solver made, the clauses of a DIMACS
 * file added (read into memory first, not timed), one solve, the solver
 * released.  Prints the CPU microseconds of the median session and the
 * answer.  Built and run by tests/bench/limit.py.
 * Usage: cadical_session FILE.cnf N */
#include <ccadical.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* CPU seconds this process has used. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The literals of FILE's clauses (each ended by 0) in *lits; their count,
 * or -1 when the file cannot be read. */
static long read_dimacs(const char *path, int **lits)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long n = 0, cap = 1024;
    int *l = malloc((size_t)cap * sizeof *l), c;
    while ((c = getc(f)) != EOF) {
        if (c == 'p' || c == 'c') {           /* the header and comments: skipped */
            while (c != '\n' && c != EOF)
                c = getc(f);
            continue;
        }
        ungetc(c, f);
        int x;
        if (fscanf(f, "%d", &x) != 1) {
            getc(f);
            continue;
        }
        if (n == cap)
            l = realloc(l, (size_t)(cap *= 2) * sizeof *l);
        l[n++] = x;
    }
    fclose(f);
    *lits = l;
    return n;
}

int main(int argc, char **argv)
{
    int *lits, times = argc == 3 ? atoi(argv[2]) : 0;
    long n = argc == 3 ? read_dimacs(argv[1], &lits) : -1;
    if (n < 0 || times < 1) {
        fprintf(stderr, "usage: cadical_session FILE.cnf N (N >= 1, FILE readable)\n");
        return 1;
    }
    double *us = malloc((size_t)times * sizeof *us);
    int answer = 0;
    for (int t = 0; t < times; t++) {
        double t0 = cpu_now();
        CCaDiCaL *s = ccadical_init();
        ccadical_set_option(s, "quiet", 1);
        for (long k = 0; k < n; k++)
            ccadical_add(s, lits[k]);
        answer = ccadical_solve(s);
        ccadical_release(s);
        us[t] = (cpu_now() - t0) * 1e6;
    }
    qsort(us, (size_t)times, sizeof *us, by_value);
    printf("%.1f us per session (median of %d), %s\n", us[times / 2], times,
           answer == 10 ? "SAT" : answer == 20 ? "UNSAT" : "UNKNOWN");
    free(us);
    free(lits);
    return 0;
}
