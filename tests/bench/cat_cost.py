#!/usr/bin/env python3
"""The cost of a cat file: each built-in model against --cat of its own cat
file (CORPUS/models/NAME.cat), side by side in one run, on the labelled
corpus batch and on the scaling families of families.py.

Corpus: per model, its suites (every CSV whose header names it, the five
Vulkan liveness suites only with --liveness: under --cat they take SAT
minutes) in one batch each way, with --engine sat on both sides (the
explicit-state engine's argument is made per built-in model, so --cat
would not use it), --bound 1 (4 for Vulkan termination, as the cat group
runs them).  Families: each family at each size (--sizes), the
family's own options, --model swapped for --cat; a size over
--max-seconds on either side ends its family and is not counted.  For each it prints the
CPU time of gpubmc and its workers on both sides (a loaded machine
inflates wall time, less so CPU time) and the ratio cat / built-in,
checks that both sides give the same verdicts, and ends with the ratio
over the corpus batch and over the families, against the target of 3x.

    cat_cost.py [--bin build/gpubmc] [--corpus ../shared/corpus] [-j 2]
                [--sizes 8,16,32] [--families a,b] [--max-seconds 60] [--liveness]
"""
import argparse
import json
import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import families  # noqa: E402
from run_families import run_one  # noqa: E402

TARGET = 3.0


def verdicts(stdout):
    """{(file, property, progress): result} of a --json run."""
    out = {}
    for line in stdout.splitlines():
        if line.startswith("{"):
            o = json.loads(line)
            out[(o.get("file"), o.get("property"), o.get("progress"))] = o.get("result")
    return out


def header(csv):
    """The key=value pairs of a CSV's first line."""
    first = csv.read_text().splitlines()[0].lstrip("# ")
    return dict(kv.split("=", 1) for kv in first.split() if "=" in kv)


def side_by_side(binary, builtin_args, cat_args, common, cwd, tmp, limit):
    """(CPU built-in, CPU cat, rows, rows that differ, timed out) of one
    comparison run from cwd (the corpus's CSV paths are relative to it),
    each side within limit seconds of wall time."""
    runs = []
    old = os.getcwd()
    os.chdir(cwd)
    try:
        for model_args in (builtin_args, cat_args):
            _wall, cpu, _rss, _rc, out, _err, killed = run_one([binary, "--json"] + model_args + common,
                                                               limit, tmp)
            runs.append((cpu, verdicts(out), killed))
    finally:
        os.chdir(old)
    (cb, vb, kb), (cc, vc, kc) = runs
    differ = [k for k in vb if vb[k] != vc.get(k)] if not (kb or kc) else []
    return cb, cc, len(vb), differ, kb or kc


def ratio(cat, builtin):
    return cat / builtin if builtin > 0 else float("nan")


def corpus_cost(a, binary, models_dir, tmp):
    """The corpus batch per model; returns (CPU built-in, CPU cat, differences)."""
    corpus = pathlib.Path(a.corpus)
    by_model = {}
    for csv in sorted((corpus / "expected").glob("*.csv")):
        if csv.stem.startswith("VULKAN-Liveness") and not a.liveness:
            continue
        meta = header(csv)
        by_model.setdefault(meta["model"], []).append((csv, meta))
    tb = tc = 0.0
    bad = 0
    print(f"{'corpus, model':<28} {'rows':>6} {'built-in CPU s':>15} {'cat CPU s':>10} {'ratio':>6}  verdicts")
    for model, csvs in sorted(by_model.items()):
        for prop in sorted({m["property"] for _c, m in csvs}):
            bound = "4" if prop == "termination" and model.startswith("vulkan") else "1"
            common = ["-j", str(a.j), "--engine", "sat", "--bound", bound]
            for csv, meta in csvs:
                if meta["property"] == prop:
                    common += ["--expect", str(csv.relative_to(corpus))]
            cb, cc, rows, differ, killed = side_by_side(binary, ["--model", model],
                                                        ["--cat", str(models_dir / f"{model}.cat")], common, corpus,
                                                        tmp, 3600)
            tb, tc, bad = tb + cb, tc + cc, bad + len(differ) + killed
            print(f"{model + ' ' + prop:<28} {rows:>6} {cb:>15.2f} {cc:>10.2f} {ratio(cc, cb):>6.2f}  "
                  f"{'TIMEOUT' if killed else 'same' if not differ else 'DIFFER: ' + ', '.join(map(str, differ[:5]))}",
                  flush=True)
    return tb, tc, bad


def families_cost(a, binary, models_dir, tmp):
    """Each family at each size; returns (CPU built-in, CPU cat, differences)."""
    names = [n for n in a.families.split(",") if n] or list(families.FAMILIES)
    sizes = [int(s) for s in a.sizes.split(",") if s]
    tb = tc = 0.0
    bad = 0
    print(f"\n{'family':<26} {'N':>4} {'built-in CPU s':>15} {'cat CPU s':>10} {'ratio':>6}  verdicts")
    for name in names:
        for n in sizes:
            case = families.generate(name, n, tmp)
            args = list(case.args)
            i = args.index("--model")
            model = args[i + 1]
            rest = args[:i] + args[i + 2:] + [case.file]
            cb, cc, _rows, differ, killed = side_by_side(binary, ["--model", model],
                                                         ["--cat", str(models_dir / f"{model}.cat")], rest, tmp, tmp,
                                                         a.max_seconds)
            if killed:   # a size over the limit: the family's larger sizes would be too
                print(f"{name:<26} {n:>4} {'-':>15} {'-':>10} {'-':>6}  TIMEOUT (over {a.max_seconds:g} s: "
                      f"not counted)", flush=True)
                break
            tb, tc, bad = tb + cb, tc + cc, bad + len(differ)
            print(f"{name:<26} {n:>4} {cb:>15.3f} {cc:>10.3f} {ratio(cc, cb):>6.2f}  "
                  f"{'same' if not differ else 'DIFFER'}", flush=True)
    return tb, tc, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=str(HERE.parent.parent / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(HERE.parent.parent.parent / "shared" / "corpus"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sizes", default="8,16,32", help="family sizes (default 8,16,32)")
    ap.add_argument("--max-seconds", type=float, default=60,
                    help="a family's size whose run takes longer on either side ends that family (default 60)")
    ap.add_argument("--families", default="", help="comma-separated families (default: all)")
    ap.add_argument("--liveness", action="store_true", help="the Vulkan liveness suites too")
    a = ap.parse_args()
    binary = str(pathlib.Path(a.bin).resolve())
    models_dir = pathlib.Path(a.corpus) / "models"
    if not models_dir.is_dir():
        print(f"SKIP: no cat files at {models_dir}")
        return 0
    with tempfile.TemporaryDirectory(prefix="gpubmc-catcost-") as tmp:
        cb, cc, bad_c = corpus_cost(a, binary, models_dir, tmp)
        fb, fc, bad_f = families_cost(a, binary, models_dir, tmp)
    for what, b, c in (("corpus batch", cb, cc), ("families", fb, fc)):
        r = ratio(c, b)
        print(f"{what}: built-in {b:.2f} s CPU, --cat {c:.2f} s CPU, ratio {r:.2f} "
              f"({'within' if r <= TARGET else 'OVER'} the {TARGET:g}x target)")
    if bad_c or bad_f:
        print(f"{bad_c + bad_f} verdicts differ between the built-in models and their cat files")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
