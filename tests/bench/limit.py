#!/usr/bin/env python3
"""The corpus batch beside its limit, measured on this machine (issue 32).

The limit of the batch (every CSV of CORPUS/expected in one run of gpubmc
at -j 1, as tests/bench.py runs it) is one process start plus, per check,
one CaDiCaL session of the corpus median size:
  - process start: the CPU of `gpubmc --version`, the median of N runs;
  - a session: the SAT check of median clause count in the batch, its
    first solver session's clauses written with --dimacs and handed to a
    fresh CaDiCaL and solved, N times, by tests/bench/cadical_session.c
    (built here with cc against -lcadical); the median session's CPU.
The batch's CPU is the user + system time of gpubmc and its workers, the
least of R runs (the machine may be shared).  Prints both, their ratio,
and the ratio to the stricter limit that counts only the checks that run
a solver (the others, explicit-state termination checks, run none).
Usage: limit.py [--bin build/gpubmc] [--corpus ../shared/corpus] [-n 200] [-r 3]"""
import argparse, json, os, pathlib, resource, statistics, subprocess, sys, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def children_cpu():
    """User + system seconds of the waited-for children so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def cpu_of(cmd, **kw):
    """(CPU seconds of cmd and its children, its completed process)."""
    t0 = children_cpu()
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return children_cpu() - t0, p


def check_key(k, r):
    """One check per row, but the termination rows of one file and model
    under several progress models are one check."""
    return (r["file"], r["model"]) if r["property"] == "termination" else k


def corpus_batch(binary, corpus, runs):
    """(CPU of each of runs corpus batches at -j 1, the last one's rows),
    or None when the corpus has no CSV."""
    csvs = sorted((corpus / "expected").glob("*.csv"))
    batch = [binary, "--json", "-j", "1", "--bound", "4"]
    for csv in csvs:
        batch += ["--expect", str(csv.relative_to(corpus))]
    cpus, rows = [], []
    for _ in range(runs if csvs else 0):
        cpu, p = cpu_of(batch, cwd=corpus)
        cpus.append(cpu)
        rows = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    return (cpus, rows) if csvs else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("-n", type=int, default=200, help="process starts and sessions timed")
    ap.add_argument("-r", type=int, default=3, help="corpus batch runs (the least CPU counts)")
    a = ap.parse_args()
    binary, corpus = str(pathlib.Path(a.bin).resolve()), pathlib.Path(a.corpus)
    measured = corpus_batch(binary, corpus, a.r)
    if not measured:
        print(f"SKIP: no corpus at {corpus}")
        return 0
    runs, rows = measured
    checks, sat = {}, {}
    for k, r in enumerate(rows):
        checks[check_key(k, r)] = r
        if r.get("engine") == "sat" and "clauses" in r:
            sat[check_key(k, r)] = r
    if not sat:
        print("SKIP: no SAT check in the batch")
        return 0
    start = statistics.median(cpu_of([binary, "--version"])[0] for _ in range(a.n))
    by_size = sorted(sat.values(), key=lambda r: (r["clauses"], r["file"]))
    median = by_size[len(by_size) // 2]
    with tempfile.TemporaryDirectory() as tmp:
        tool, cnf = pathlib.Path(tmp) / "cadical_session", pathlib.Path(tmp) / "median.cnf"
        subprocess.run(["cc", "-O2", "-o", str(tool), str(ROOT / "tests" / "bench" / "cadical_session.c"),
                        "-lcadical", "-lstdc++", "-lm"], check=True)
        dump = [binary, "--json", "--dimacs", str(cnf), "--model", median["model"], "--property",
                median["property"], "--bound", "4"]
        if median["property"] == "termination":
            dump += ["--progress", median["progress"]]
        subprocess.run(dump + [median["file"]], cwd=corpus, capture_output=True, check=False)
        header = cnf.read_text().split("\n", 1)[0].split()
        out = subprocess.run([str(tool), str(cnf), str(a.n)], capture_output=True, text=True, check=True).stdout
    session = float(out.split()[0]) / 1e6
    best = min(runs)
    limit = start + len(checks) * session
    strict = start + len(sat) * session
    load = os.getloadavg()
    print(f"corpus batch limit (issue 32), load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, "
          f"{os.cpu_count()} cores")
    print(f"  process start (gpubmc --version, median of {a.n}): {start * 1e3:.2f} ms CPU")
    print(f"  CaDiCaL session of the median SAT check ({median['file']}, {median['property']}, "
          f"{median['model']}: {header[2]} vars, {header[3]} clauses): {out.strip()}")
    print(f"  batch: {len(rows)} verdicts, {len(checks)} checks, {len(sat)} with a solver; "
          f"CPU at -j 1 {best:.3f} s (least of {a.r}: {', '.join(f'{c:.3f}' for c in runs)})")
    print(f"  limit: start + {len(checks)} sessions = {limit * 1e3:.1f} ms; "
          f"batch / limit = {best / limit:.1f}x")
    print(f"  stricter: start + {len(sat)} sessions (checks with a solver) = {strict * 1e3:.1f} ms; "
          f"batch / limit = {best / strict:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
