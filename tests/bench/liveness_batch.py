#!/usr/bin/env python3
"""The five Vulkan liveness suites (VULKAN-Liveness-{Fair,HSA,HSA_OBE,LOBE,OBE})
checked two ways: five separate runs, one per suite (one check per file and
progress model), and one batch run with the five CSVs, where the rows of one
file become one check that answers every progress model (one exploration, or
one SAT encoding with each model under its own assumption).  Both with the
default engines (explicit states on the interleaving fragment) and with SAT
alone (--engine sat).  Prints the wall times, the speed-up of the batch, and
whether the verdicts are the same; exit 1 when they differ.
Usage: liveness_batch.py [--bin build/gpubmc] [--corpus ../shared/corpus] [-j 2] [--bound 4]"""
import argparse, json, os, pathlib, resource, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SUITES = ["Fair", "HSA", "HSA_OBE", "LOBE", "OBE"]


def cpu():
    """CPU seconds (user and system) of the finished child processes so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(binary, corpus, csvs, extra, jobs, bound):
    """Wall and CPU seconds and {(file, progress): result} of one run over csvs."""
    cmd = [binary, "--json", "-j", str(jobs), "--bound", str(bound)] + extra
    for c in csvs:
        cmd += ["--expect", c]
    t0, c0 = time.perf_counter(), cpu()
    p = subprocess.run(cmd, cwd=corpus, capture_output=True, text=True)
    wall, used = time.perf_counter() - t0, cpu() - c0
    return wall, used, {(o["file"], o["progress"]): o["result"] for o in map(json.loads, p.stdout.splitlines())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--bound", type=int, default=4)
    a = ap.parse_args()
    binary, corpus = str(pathlib.Path(a.bin).resolve()), pathlib.Path(a.corpus)
    csvs = [f"expected/VULKAN-Liveness-{s}.csv" for s in SUITES]
    if not all((corpus / c).exists() for c in csvs):
        print(f"SKIP: no Vulkan liveness suites under {corpus}")
        return 0
    same = True
    print(f"Vulkan liveness suites, -j {a.j}, --bound {a.bound}: five runs vs one all-models batch")
    for label, extra in (("default engines", []), ("SAT only", ["--engine", "sat"])):
        separate, separate_cpu, merged = 0.0, 0.0, {}
        for c in csvs:
            wall, used, got = run(binary, corpus, [c], extra, a.j, a.bound)
            separate += wall
            separate_cpu += used
            merged.update(got)
        batch, batch_cpu, together = run(binary, corpus, csvs, extra, a.j, a.bound)
        same &= merged == together
        print(f"  {label:16} five runs {separate:6.2f} s ({separate_cpu:6.2f} s CPU), one batch {batch:6.2f} s "
              f"({batch_cpu:6.2f} s CPU): {separate / batch:4.1f}x wall, {separate_cpu / batch_cpu:4.1f}x CPU; "
              f"{len(together)} verdicts, {'the same' if merged == together else 'DIFFERENT'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
