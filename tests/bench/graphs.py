#!/usr/bin/env python3
"""Graph and explanation cost (issue 16): the whole labelled corpus in one
batch (every suite, --bound 4, -j cores) without graphs, then writing a
DOT graph per check (--graph-dir), then PNG; and --explain on every
program_spec corpus check, its per-check median time against the plain
check's. Prints wall times and ratios; a benchmark, not a test.
Usage: graphs.py [--bin build/gpubmc] [--corpus ../shared/corpus] [-j N]"""
import argparse, json, os, pathlib, statistics, subprocess, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def batch(binary, corpus, csvs, jobs, extra):
    cmd = [binary, "--json", "-j", str(jobs), "--bound", "4"] + extra
    for csv in csvs:
        cmd += ["--expect", str(csv.relative_to(corpus))]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=corpus, capture_output=True, text=True)
    rows = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    return time.perf_counter() - t0, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    binary = str(pathlib.Path(a.bin).resolve())
    corpus = pathlib.Path(a.corpus)
    csvs = sorted((corpus / "expected").glob("*.csv"))
    if not csvs:
        print(f"SKIP: no corpus at {corpus}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        plain, rows = batch(binary, corpus, csvs, a.j, [])
        dot, _ = batch(binary, corpus, csvs, a.j, ["--graph-dir", tmp])
        ndot = len(list(pathlib.Path(tmp).glob("*.dot")))
        png, _ = batch(binary, corpus, csvs, a.j, ["--graph-dir", tmp, "--graph-format", "png"])
        npng = len(list(pathlib.Path(tmp).glob("*.png")))
    print(f"corpus batch, {len(rows)} checks, -j {a.j}: plain {plain:.2f} s; "
          f"with {ndot} DOT graphs {dot:.2f} s ({dot / plain:.2f}x); with {npng} PNG graphs {png:.2f} s "
          f"({png / plain:.2f}x)")
    spec = [c for c in csvs if "property=program_spec" in c.read_text().splitlines()[0]]
    _, plain_rows = batch(binary, corpus, spec, a.j, [])
    _, expl_rows = batch(binary, corpus, spec, a.j, ["--explain"])
    explained = [r for r in expl_rows if "explanation" in r]
    ids = {r["file"] for r in explained}
    before = [r["time_ms"] for r in plain_rows if r["file"] in ids]
    after = [r["time_ms"] for r in explained]
    if after:
        print(f"--explain on {len(explained)} forbidden outcomes of the program_spec suites: median "
              f"{statistics.median(after):.2f} ms (the same checks without it {statistics.median(before):.2f} ms), "
              f"max {max(after):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
