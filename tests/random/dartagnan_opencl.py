#!/usr/bin/env python3
"""Cross-check of gpubmc against Dartagnan on random OpenCL programs.
A by-hand tool like dartagnan.py (it needs a Dartagnan build, default
/tmp/dartagnan/dartagnan.sh) and never part of `make test`.

Programs come from gen_opencl.py (Dat3M's OpenCL dialect, read by both
tools as written). Checks per program: program_spec and cat_spec (the
`data_race` and `unsequenced_race` flags) under opencl.cat, at the
program's loop bound; verdicts compare as in dartagnan.py (agree,
disagree, inconclusive, error, dartagnan-error).

    dartagnan_opencl.py run -n 500 --seed 1 --out build/dartagnan-opencl

writes OUT/results.jsonl (one line per check), OUT/summary.json and every
disagreeing or erroring program under OUT/cases/ with both verdicts in
OUT/cases/NAME.txt.
"""
import argparse, collections, concurrent.futures, json, pathlib, re, sys, time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import dartagnan as D      # noqa: E402
import gen_opencl          # noqa: E402

PROPERTIES = ("program_spec", "cat_spec")


def quantifier(text):
    """exists, ~exists or forall: the condition's quantifier."""
    m = re.search(r"^\s*(exists|~\s*exists|not exists|forall)\b", text, re.M)
    return re.sub(r"~\s*|not ", "~", m.group(1)) if m else "exists"


def write_programs(seed, indices, folder):
    """{file: (index, bound, quantifier)} of the programs, written to folder."""
    meta = {}
    for i in indices:
        text, _dialect, bound, _estimate = gen_opencl.generate(seed, i)
        f = str((folder / f"s{seed}-{i:05d}-b{bound}.litmus").resolve())
        pathlib.Path(f).write_text(text)
        meta[f] = (i, bound, quantifier(text))
    return meta


def run(a):
    t0 = time.monotonic()
    out = D.run_folder(a.out)
    meta = write_programs(a.seed, range(a.index, a.index + a.n), out / "files")
    groups = collections.defaultdict(list)          # (property, bound) -> files
    for f, (_i, bound, _q) in meta.items():
        for prop in PROPERTIES:
            groups[(prop, bound)].append(f)

    def one_group(key):
        prop, bound = key
        files = groups[key]
        g = D.run_gpubmc(a.bin, files, "opencl", prop, bound, jobs=1)
        d = D.run_dartagnan(files, "opencl", prop, bound, chunk=a.chunk, timeout_s=a.dart_timeout)
        return key, g, d

    results, counts = [], collections.Counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
        for (prop, bound), g, d in ex.map(one_group, sorted(groups)):
            for f in groups[(prop, bound)]:
                gr, greason, _gms = g.get(f, ("ERROR", "missing", None))
                dr, dreason = d.get(f, ("DART-STALL", "missing"))[:2]
                kind = D.compare(prop, meta[f][2], gr, dr)
                counts[(prop, kind)] += 1
                results.append({"file": f, "index": meta[f][0], "property": prop, "bound": bound,
                                "gpubmc": gr, "gpubmc_reason": greason, "dartagnan": dr,
                                "dartagnan_reason": dreason, "kind": kind})
                if kind in ("disagree", "error"):
                    name = pathlib.Path(f).name
                    (out / "cases" / name).write_text(pathlib.Path(f).read_text())
                    with open(out / "cases" / (name + ".txt"), "a") as fh:
                        fh.write(f"{prop} bound {bound}: gpubmc {gr} ({greason}); "
                                 f"Dartagnan {dr} ({dreason})\n")
            print(f"  {prop} bound {bound}: {len(groups[(prop, bound)])} files "
                  f"({time.monotonic() - t0:.0f} s)", flush=True)
    with open(out / "results.jsonl", "w") as fh:
        for r in results:
            fh.write(json.dumps(r) + "\n")
    table = {p: {k: v for (q, k), v in counts.items() if q == p} for p in PROPERTIES}
    summary = {"seed": a.seed, "first": a.index, "programs": a.n,
               "seconds": round(time.monotonic() - t0, 1), "table": table}
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    for p in PROPERTIES:
        print(f"opencl {p}: " + ", ".join(f"{k} {v}" for k, v in sorted(table[p].items())))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="check random OpenCL programs with both tools")
    r.add_argument("-n", type=int, default=200)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--index", type=int, default=0, help="first program index")
    r.add_argument("--out", required=True)
    r.add_argument("--bin", default=str(D.ROOT / "build" / "gpubmc"))
    r.add_argument("-j", type=int, default=1, help="groups run side by side")
    r.add_argument("--chunk", type=int, default=100, help="files per Dartagnan JVM")
    r.add_argument("--dart-timeout", type=int, default=20)
    a = ap.parse_args()
    return run(a)


if __name__ == "__main__":
    sys.exit(main())
