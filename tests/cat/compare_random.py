#!/usr/bin/env python3
"""Built-in models against their cat files on random programs.

Writes --count programs of tests/random/gen.py (seed --seed; with
--dialect opencl, of tests/random/gen_opencl.py) to a temporary folder and checks each under every built-in model of its dialect
and under --cat of that model's cat file (CORPUS/models/NAME.cat, with
stdlib.cat), for program_spec, termination and, in Vulkan and OpenCL, cat_spec.  The verdicts must
be the same; a row where one side has no verdict (UNKNOWN, ERROR, a
timeout) counts apart and is listed.  Prints the counts, the time of each
side and their ratio, and exits 1 on a disagreement.

    compare_random.py --bin build/gpubmc --corpus ../shared/corpus --seed 1 --count 200 [--dialect ptx|vulkan|opencl]
"""
import argparse, json, pathlib, subprocess, sys, tempfile, time

HERE = pathlib.Path(__file__).resolve().parent
MODELS = {"ptx": ["ptx-v6.0", "ptx-v7.5"], "vulkan": ["vulkan", "vulkan-nochains"], "opencl": ["opencl"]}
PROPS = {"ptx": ["program_spec", "termination"], "vulkan": ["program_spec", "cat_spec", "termination"],
         "opencl": ["program_spec", "cat_spec", "termination"]}
sys.path.insert(0, str(HERE.parent / "random"))


def write_opencl(seed, count, folder):
    """Writes count programs of gen_opencl.py, named like gen.py's."""
    import gen_opencl
    for i in range(count):
        text, _dialect, bound, _est = gen_opencl.generate(seed, i)
        (pathlib.Path(folder) / f"o{seed}-{i:05d}-opencl-b{bound}.litmus").write_text(text)


def run(binary, args, files, timeout):
    """{file: JSON result} of one batch, and its wall time."""
    t0 = time.monotonic()
    p = subprocess.run([str(binary), "--json", "--timeout", str(timeout)] + args + files,
                       capture_output=True, text=True)
    out = {}
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            o = json.loads(line)
            out[o["file"]] = o
    return out, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(HERE.parent.parent / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(HERE.parent.parent.parent / "shared" / "corpus"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--dialect", choices=("ptx", "vulkan", "opencl"), help="only programs of this dialect "
                    "(opencl: gen_opencl.py's programs, which the default mix leaves out)")
    a = ap.parse_args()
    models_dir = pathlib.Path(a.corpus) / "models"
    agree = differ = nocmp = 0
    per_dialect = {}   # dialect: [programs, checks that agree]
    t_builtin = t_cat = 0.0
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        gen = [sys.executable, str(HERE.parent / "random" / "gen.py"), "--seed", str(a.seed),
               "--count", str(a.count), "--out", tmp] + (["--dialect", a.dialect] if a.dialect else [])
        if a.dialect == "opencl":
            write_opencl(a.seed, a.count, tmp)
        else:
            subprocess.run(gen, check=True, capture_output=True)
        files = sorted(str(f) for f in pathlib.Path(tmp).glob("*.litmus"))
        for dialect in [a.dialect] if a.dialect else ["ptx", "vulkan"]:
            mine = [f for f in files if f"-{dialect}-" in pathlib.Path(f).name]
            per_dialect[dialect] = [len(mine), 0]
            by_bound = {}
            for f in mine:
                by_bound.setdefault(pathlib.Path(f).stem.rsplit("-b", 1)[1], []).append(f)
            for model in MODELS[dialect]:
                for prop in PROPS[dialect]:
                    for bound, group in sorted(by_bound.items()):
                        common = ["--property", prop, "--bound", bound]
                        b, tb = run(a.bin, ["--model", model] + common, group, a.timeout)
                        c, tc = run(a.bin, ["--cat", str(models_dir / f"{model}.cat")] + common, group, a.timeout)
                        t_builtin += tb
                        t_cat += tc
                        for f in group:
                            rb = b.get(f, {}).get("result", "NO-RESULT")
                            rc = c.get(f, {}).get("result", "NO-RESULT")
                            name = pathlib.Path(f).name
                            if rb in ("PASS", "FAIL") and rc in ("PASS", "FAIL"):
                                if rb == rc:
                                    agree += 1
                                    per_dialect[dialect][1] += 1
                                else:
                                    differ += 1
                                    lines.append(f"DIFFER {name} {model} {prop}: built-in {rb}, cat {rc}")
                            elif rb == rc:
                                nocmp += 1
                                lines.append(f"neither decides {name} {model} {prop}: {rb}")
                            else:
                                nocmp += 1
                                lines.append(f"one side undecided {name} {model} {prop}: built-in {rb}, cat {rc}")
    for ln in lines:
        print(ln)
    for dialect, (programs, agreed) in per_dialect.items():
        print(f"{dialect}: {programs} programs, {agreed} checks agree")
    ratio = t_cat / t_builtin if t_builtin else 0.0
    print(f"{agree} agree, {differ} differ, {nocmp} without two verdicts; "
          f"time built-in {t_builtin:.1f}s, cat {t_cat:.1f}s (ratio {ratio:.2f})")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
