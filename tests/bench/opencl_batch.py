#!/usr/bin/env python3
"""The OpenCL suites of the corpus (extra/expected/OPENCL.csv, program_spec,
and OPENCL-DR.csv, cat_spec) in one gpubmc batch run, its wall and CPU
time; with --dartagnan DIR (a built Dat3M checkout, its dartagnan.sh), the
same files in Dartagnan's batch mode (one JVM per property, as
`dartagnan.sh CAT --target=opencl --property=P FILE...` runs them), its
wall time, the ratio, and every file where the two tools answer
differently.  Fails only on a row gpubmc answers against its CSV whose
verdict is Dartagnan's (a `dartagnan-skips` row keeps herd's).

Usage: opencl_batch.py [--bin build/gpubmc] [--corpus ../shared/corpus] [-j 2] [--dartagnan DIR]"""
import argparse, json, os, pathlib, re, resource, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SUITES = (("OPENCL", "program_spec"), ("OPENCL-DR", "cat_spec"))


def rows(csv):
    """(path, expected, source) of a corpus CSV."""
    return [tuple(l.split(",")[:3]) for l in csv.read_text().splitlines() if l and not l.startswith("#")]


def dartagnan(dat3m, cat, prop, files, cwd):
    """{file: result} and wall seconds of one Dartagnan batch."""
    t0 = time.perf_counter()
    p = subprocess.run([str(pathlib.Path(dat3m) / "dartagnan.sh"), str(cat), "--target=opencl",
                        f"--property={prop}", "--bound=1"] + files, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    got = dict(re.findall(r"^Test: (\S+)\nResult: (\S+)", p.stdout, re.M))
    return got, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--dartagnan", help="directory holding dartagnan.sh")
    a = ap.parse_args()
    extra = pathlib.Path(a.corpus) / "extra"
    csvs = [extra / "expected" / f"{s}.csv" for s, _ in SUITES]
    if not all(c.exists() for c in csvs):
        print(f"SKIP: no OpenCL suites under {extra}")
        return 0
    cmd = [str(pathlib.Path(a.bin).resolve()), "--json", "-j", str(a.j), "--model", "opencl"]
    for c in csvs:
        cmd += ["--expect", str(c.relative_to(extra))]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=extra, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    results = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    herd = {f for c in csvs for f, _, source in rows(c) if source == "dartagnan-skips"}
    wrong = [r for r in results if r.get("match") is False and r["file"] not in herd]
    for r in results:
        if r.get("match") is False and r["file"] in herd:
            print(f"  {r['file']} [{r['property']}]: {r['result']}; its row keeps herd's verdict (dartagnan-skips)")
    print(f"gpubmc: {len(results)} checks of {sum(len(rows(c)) for c in csvs)} rows in one batch, -j {a.j}: "
          f"wall {wall:.2f} s, CPU {use.ru_utime + use.ru_stime:.2f} s; "
          f"{p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ''}")
    for r in wrong:
        print(f"  row answered otherwise: {r['file']} [{r['property']}] {r['result']} (expected {r.get('expected')})")
    if a.dartagnan:
        mine = {(r["file"], r["property"]): r["result"] for r in results}
        total = 0.0
        for (suite, prop), csv in zip(SUITES, csvs):
            files = sorted({f for f, _, _ in rows(csv)})
            got, secs = dartagnan(a.dartagnan, extra.parent / "models" / "opencl.cat", prop, files, extra)
            total += secs
            differ = [f for f in files if got.get(f) != mine.get((f, prop))]
            print(f"dartagnan {suite}: {len(files)} files, wall {secs:.1f} s; answered otherwise than gpubmc: "
                  f"{len(differ)}")
            for f in differ:
                print(f"  {f}: dartagnan {got.get(f)}, gpubmc {mine.get((f, prop))}")
        print(f"ratio of wall times (Dartagnan / gpubmc): {total / max(wall, 1e-9):.0f}x")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
