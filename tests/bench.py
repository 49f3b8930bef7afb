#!/usr/bin/env python3
"""Corpus benchmark: the whole labelled shared corpus, every suite and
property, in one batch run of gpubmc (--expect for every CSV, -j workers).
Prints the machine, wall time, per-test median/p95/max by suite, the
slowest tests, peak memory of any gpubmc process, and the verdict tally.
The termination rows of one file under several progress models are one
check, whose time each of its rows reports.
Usage: bench.py [--bin build/gpubmc] [--corpus ../shared/corpus] [-j 2] [--bound 4]"""
import argparse, json, os, pathlib, platform, resource, statistics, subprocess, time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def machine():
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
               platform.processor())
    return f"{cpu}, {os.cpu_count()} cores"


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--bound", type=int, default=4,
                    help="loop bound for every suite (the Vulkan liveness suites need 4)")
    a = ap.parse_args()
    binary = str(pathlib.Path(a.bin).resolve())   # the run starts in the corpus
    corpus = pathlib.Path(a.corpus)
    csvs = sorted((corpus / "expected").glob("*.csv"))
    if not csvs:
        print(f"SKIP: no corpus at {corpus}")
        return 0
    suite_of = {}   # (file, progress model of a termination suite) -> suites
    for csv in csvs:
        lines = csv.read_text().splitlines()
        header = lines[0] if lines and lines[0].startswith("#") else ""
        progress = header.split("progress=")[1].split()[0] if "property=termination" in header else None
        for line in lines:
            if line and not line.startswith("#"):
                suite_of.setdefault((line.split(",")[0], progress), []).append(csv.stem)
    cmd = [binary, "--json", "-j", str(a.j), "--bound", str(a.bound)]
    for csv in csvs:
        cmd += ["--expect", str(csv.relative_to(corpus))]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=corpus, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    rows = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    print(f"machine: {machine()}")
    print(f"corpus batch: {len(rows)} verdicts from {len(csvs)} suites, -j {a.j}, --bound {a.bound}")
    print(f"wall {wall:.2f} s, peak RSS of one process {peak_kb / 1024:.1f} MB, "
          f"{p.stderr.strip().splitlines()[-1] if p.stderr.strip() else '(no summary)'}")
    by_suite = {}
    seen = {}
    for r in rows:   # a file listed by several suites appears once per suite, in CSV order
        key = (r["file"], r.get("progress") if r["property"] == "termination" else None)
        k = seen.get(key, 0)
        seen[key] = k + 1
        suites = suite_of.get(key, ["?"])
        by_suite.setdefault(suites[min(k, len(suites) - 1)], []).append(r)
    print(f"{'suite':26} {'tests':>6} {'median ms':>10} {'p95 ms':>9} {'max ms':>9} {'sum s':>7}")
    for suite in sorted(by_suite):
        ts = [r["time_ms"] for r in by_suite[suite]]
        print(f"{suite:26} {len(ts):6} {statistics.median(ts):10.2f} {quantile(ts, 0.95):9.1f} "
              f"{max(ts):9.1f} {sum(ts) / 1000:7.2f}")
    ts = [r["time_ms"] for r in rows]
    if ts:
        print(f"{'all':26} {len(ts):6} {statistics.median(ts):10.2f} {quantile(ts, 0.95):9.1f} "
              f"{max(ts):9.1f} {sum(ts) / 1000:7.2f}")
    print("slowest:")
    for r in sorted(rows, key=lambda r: -r["time_ms"])[:5]:
        print(f"  {r['time_ms']:9.1f} ms  {r['file']} [{r['property']}] {r['result']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
