#!/usr/bin/env python3
"""Speed benchmark: runs gpubmc on every test of a corpus suite several
times (process start included) and prints per-suite median and total time.
Usage: bench.py [--bin build/gpubmc] [--suite PTXv6_0] [--repeat 5]"""
import argparse, os, pathlib, platform, statistics, subprocess, time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--suite", default="PTXv6_0")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    a.bin = str(pathlib.Path(a.bin).resolve())   # the runs start in the corpus
    csv = pathlib.Path(a.corpus) / "expected" / f"{a.suite}.csv"
    if not csv.exists():
        print(f"SKIP: {csv} not found")
        return 0
    lines = csv.read_text().splitlines()
    meta = dict(kv.split("=", 1) for kv in lines[0].lstrip("# ").split())
    files = [l.split(",")[0] for l in lines[1:] if l and not l.startswith("#")]
    files = [f for f in files if (pathlib.Path(a.corpus) / f).exists()]   # rows without a file are skipped
    per_file = []
    for f in files:
        runs = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            subprocess.run([a.bin, "--model", meta["model"], "--property", meta["property"], f],
                           cwd=a.corpus, capture_output=True)
            runs.append((time.perf_counter() - t0) * 1000)
        per_file.append(statistics.median(runs))
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
               platform.processor())
    print(f"machine: {cpu}, {os.cpu_count()} cores")
    print(f"{a.suite}: {len(files)} tests, median {statistics.median(per_file):.2f} ms, "
          f"max {max(per_file):.2f} ms, total {sum(per_file):.0f} ms (median of {a.repeat} runs each, "
          f"process start included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
