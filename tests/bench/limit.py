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
The batch's CPU is the user + system time of gpubmc and its workers.
These machines change speed under other sessions' load (the same batch
takes 90 or 135 ms, the same session 26 or 46 us), so the two are
measured in pairs: each of R rounds times N sessions (their median) and
then one batch, and the round's ratio divides that batch by that limit.
Prints every round, the least batch over the least limit (the state can
change within a round: both leasts are the machine at its fastest), the
median of the rounds' ratios, and the ratio to the stricter limit that counts only the checks that run
a solver (the others, explicit-state termination checks, run none).
Usage: limit.py [--bin build/gpubmc] [--corpus ../shared/corpus] [-n 200] [-r 9]"""
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


def batch_command(binary, corpus):
    """The corpus batch's command line, or None when the corpus has no CSV."""
    csvs = sorted((corpus / "expected").glob("*.csv"))
    batch = [binary, "--json", "-j", "1", "--bound", "4"]
    for csv in csvs:
        batch += ["--expect", str(csv.relative_to(corpus))]
    return batch if csvs else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("-n", type=int, default=200, help="process starts and sessions timed per round")
    ap.add_argument("-r", type=int, default=9, help="rounds: N sessions, then one corpus batch")
    a = ap.parse_args()
    binary, corpus = str(pathlib.Path(a.bin).resolve()), pathlib.Path(a.corpus)
    batch = batch_command(binary, corpus)
    if not batch:
        print(f"SKIP: no corpus at {corpus}")
        return 0
    p = subprocess.run(batch, capture_output=True, text=True, cwd=corpus)
    rows = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
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
    load = os.getloadavg()
    print(f"corpus batch limit (issue 32), load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, "
          f"{os.cpu_count()} cores")
    print(f"  process start (gpubmc --version, median of {a.n}): {start * 1e3:.2f} ms CPU")
    print(f"  batch: {len(rows)} verdicts, {len(checks)} checks, {len(sat)} with a solver; the session: the "
          f"median SAT check's ({median['file']}, {median['property']}, {median['model']})")
    rounds = []
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
        print(f"  ({header[2]} vars, {header[3]} clauses); per round: N sessions, then one batch at -j 1")
        for i in range(a.r):
            out = subprocess.run([str(tool), str(cnf), str(a.n)], capture_output=True, text=True, check=True).stdout
            session = float(out.split()[0]) / 1e6
            cpu, _ = cpu_of(batch, cwd=corpus)
            limit = start + len(checks) * session
            rounds.append((cpu, limit, start + len(sat) * session))
            print(f"  round {i + 1}: session {session * 1e6:.1f} us, limit {limit * 1e3:.1f} ms, "
                  f"batch {cpu * 1e3:.1f} ms: {cpu / limit:.2f}x")
    # the state can change within a round; the least of each is both at the machine's fastest
    least_batch, least_limit = min(c for c, _, _ in rounds), min(l for _, l, _ in rounds)
    print(f"  least batch {least_batch * 1e3:.1f} ms, least limit {least_limit * 1e3:.1f} ms: "
          f"batch / limit = {least_batch / least_limit:.2f}x")
    print(f"  median of the rounds' ratios: {statistics.median(c / l for c, l, _ in rounds):.2f}x; stricter "
          f"(start + {len(sat)} sessions, the checks with a solver), least over least: "
          f"{least_batch / min(s for _, _, s in rounds):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
