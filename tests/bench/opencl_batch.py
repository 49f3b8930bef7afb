#!/usr/bin/env python3
"""The OpenCL suites of the corpus (extra/expected/OPENCL.csv, program_spec,
and OPENCL-DR.csv, cat_spec) in one gpubmc batch run, its wall and CPU
time.  Fails only on a row gpubmc answers against its CSV whose verdict is
Dartagnan's (a `dartagnan-skips` row keeps herd's).  Dartagnan on the same
files: dartagnan_suites.py --suite OPENCL,OPENCL-DR.

Usage: opencl_batch.py [--bin build/gpubmc] [--corpus ../shared/corpus] [-j 2]"""
import argparse, json, os, pathlib, resource, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SUITES = (("OPENCL", "program_spec"), ("OPENCL-DR", "cat_spec"))


def rows(csv):
    """(path, expected, source) of a corpus CSV."""
    return [tuple(l.split(",")[:3]) for l in csv.read_text().splitlines() if l and not l.startswith("#")]


def expect_batch(binary, extra, csvs, options):
    """One gpubmc batch over the CSVs (paths relative to extra) with the
    options: (process, JSON results, wall seconds, CPU seconds of the
    children)."""
    cmd = [str(pathlib.Path(binary).resolve()), "--json"] + options
    for c in csvs:
        cmd += ["--expect", str(c.relative_to(extra))]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=extra, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = use.ru_utime + use.ru_stime - before.ru_utime - before.ru_stime
    return p, [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")], wall, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    extra = pathlib.Path(a.corpus) / "extra"
    csvs = [extra / "expected" / f"{s}.csv" for s, _ in SUITES]
    if not all(c.exists() for c in csvs):
        print(f"SKIP: no OpenCL suites under {extra}")
        return 0
    p, results, wall, cpu = expect_batch(a.bin, extra, csvs, ["-j", str(a.j), "--model", "opencl"])
    herd = {f for c in csvs for f, _, source in rows(c) if source == "dartagnan-skips"}
    wrong = [r for r in results if r.get("match") is False and r["file"] not in herd]
    for r in results:
        if r.get("match") is False and r["file"] in herd:
            print(f"  {r['file']} [{r['property']}]: {r['result']}; its row keeps herd's verdict (dartagnan-skips)")
    print(f"gpubmc: {len(results)} checks of {sum(len(rows(c)) for c in csvs)} rows in one batch, -j {a.j}: "
          f"wall {wall:.2f} s, CPU {cpu:.2f} s; "
          f"{p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ''}")
    for r in wrong:
        print(f"  row answered otherwise: {r['file']} [{r['property']}] {r['result']} (expected {r.get('expected')})")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
