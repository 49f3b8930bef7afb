#!/usr/bin/env python3
"""The ten strong-fairness liveness suites of the corpus
(extra/expected/{VULKAN,PTXv7_5}-Liveness-Strong-{Fair,HSA,HSA_OBE,LOBE,OBE}.csv)
in one gpubmc batch run: its wall and CPU time, then per test (a file,
whose rows under the five strong models are one check) the time (median,
p95, max), the states the explicit-state engine explored (median, max,
from its reason) and the engine tally, and the slowest tests.  Fails only
on a row answered against its CSV.

Usage: strong_batch.py [--bin build/gpubmc] [--corpus ../shared/corpus] [-j 2] [--bound 4]"""
import argparse, os, pathlib, re, sys

from opencl_batch import expect_batch

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SUITES = [f"{d}-Liveness-Strong-{m}" for d in ("VULKAN", "PTXv7_5") for m in ("Fair", "HSA", "HSA_OBE", "LOBE", "OBE")]


def quantile(xs, q):
    """The q-quantile (nearest rank) of a non-empty list."""
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def per_test(results):
    """{(model, file): (time_ms, states or None, engine)} of the batch's rows;
    the rows of one check share its time."""
    tests = {}
    for r in results:
        m = re.search(r"(\d+) states", r.get("reason", ""))
        states = int(m.group(1)) if m else None
        key = (r["model"], r["file"])
        t, s, e = tests.get(key, (0.0, None, r["engine"]))
        tests[key] = (max(t, r["time_ms"]), max((x for x in (s, states) if x is not None), default=None),
                      e if e == r["engine"] else "both")
    return tests


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--bound", type=int, default=4)
    a = ap.parse_args()
    extra = pathlib.Path(a.corpus) / "extra"
    csvs = [extra / "expected" / f"{s}.csv" for s in SUITES]
    if not all(c.exists() for c in csvs):
        print(f"SKIP: no strong-fairness suites under {extra}")
        return 0
    p, results, wall, cpu = expect_batch(a.bin, extra, csvs, ["-j", str(a.j), "--bound", str(a.bound)])
    if not results:
        print(f"ERROR: no results from gpubmc (exit {p.returncode}): {p.stderr.strip()[-500:]}")
        return 1
    wrong = [r for r in results if r.get("match") is False]
    tests = per_test(results)
    times = [t for t, _, _ in tests.values()]
    states = [s for _, s, _ in tests.values() if s is not None]
    engines = {}
    for _, _, e in tests.values():
        engines[e] = engines.get(e, 0) + 1
    print(f"strong-fairness suites: {len(results)} rows, {len(tests)} tests in one batch, -j {a.j}, "
          f"--bound {a.bound}: wall {wall:.2f} s, CPU {cpu:.2f} s")
    print(f"  time per test: median {quantile(times, 0.5):.2f} ms, p95 {quantile(times, 0.95):.2f} ms, "
          f"max {max(times):.2f} ms")
    if states:
        print(f"  states explored per test ({len(states)} tests the states engine decided): median "
              f"{quantile(states, 0.5)}, max {max(states)}")
    print("  engines per test: " + ", ".join(f"{e} {n}" for e, n in sorted(engines.items())))
    for (model, f), (t, s, e) in sorted(tests.items(), key=lambda kv: -kv[1][0])[:5]:
        print(f"  slow: {f} ({model}): {t:.2f} ms, {e}" + (f", {s} states" if s is not None else ""))
    for r in wrong:
        print(f"  MISMATCH {r['file']} [{r['progress']}]: {r['result']}, expected {r.get('expected')}")
    print(f"  {len(results) - len(wrong)} rows match, {len(wrong)} do not")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
