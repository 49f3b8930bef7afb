#!/usr/bin/env python3
"""gpubmc side by side with Dartagnan (Dat3M), suite by suite, in CPU time.

For each suite (the Dat3M suites of CORPUS/expected, target 300x; the
SPIR-V and OpenCL suites of CORPUS/extra/expected, target 100x), every row
is one check: its file under the suite's model and property and the row's
loop bound, progress model and Dartagnan option (the row's columns, else
the header's, else bound 4 for Vulkan termination and 1 elsewhere, as
../shared/tools/score.py and Dat3M's JUnit tests have them).  Rows gpubmc
refuses (ERROR: input it does not read yet) are left out on both sides.
The checks of one setting run in one gpubmc batch (-j 1) and in one
Dartagnan JVM (its batch mode: `dartagnan.sh CAT FILE...`, --method=eager,
Z3 with phantom references as the JUnit tests run it, integers and
initialised registers for litmus files), and the CPU time of each (the
process and every child it waited for: wait4's rusage, with no
/usr/bin/time around it, whose own start would add about 10 ms) is summed per
suite (gpubmc's batch, a fraction of a second, runs --repeat times and its
median counts).  Prints per suite the checks, both CPU times, the ratio against
the target, how many verdicts agree, Dartagnan's timeouts and gpubmc's
three slowest checks, then a table and every check the two tools answer
differently.  --sample N draws N checks (seeded; reported) from a
suite with more; --random N adds the suite `random`: N programs of
tests/random (the programs and checks of `tests/random/dartagnan.py run`,
target 100x).  A missed
target is reported, not an error.  Without --dartagnan it prints SKIP.

    dartagnan_suites.py --dartagnan PATH [--bin build/gpubmc] [--corpus ../shared/corpus]
        [--suite NAME,...] [--sample N] [--seed S] [--random N] [--dart-timeout 60]
"""
import argparse
import collections
import json
import pathlib
import random
import statistics
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "random"))
from cat_cost import header  # noqa: E402
import dartagnan as D  # noqa: E402  (tests/random/dartagnan.py)
from run_families import run_one  # noqa: E402

EXTRA = ("SPIRV-VULKAN", "SPIRV-VULKAN-DR", "SPIRV-VULKAN-Liveness", "SPIRV-OPENCL", "SPIRV-OPENCL-DR",
         "OPENCL", "OPENCL-DR")
TARGET = {"dat3m": 300, "extra": 100, "random": 100}
# Dat3M's JUnit options per input kind (AbstractLitmusTest; the SPIR-V tests set neither)
LITMUS_FLAGS = ["--encoding.initializeRegisters=true", "--encoding.integers=true"]
COMMON_FLAGS = ["--method=eager", "--solver.z3.usePhantomReferences=true"]
# a row's Dartagnan option and gpubmc's flag for it
OPTION_FLAGS = {"-": [], "encoding.ignoreFilterSpecification=false": [],
                "encoding.ignoreFilterSpecification=true": ["--ignore-filter"]}

Setting = collections.namedtuple("Setting", "model prop bound progress option")


def suite_checks(csv):
    """{Setting: [(absolute path, expected)]} of a corpus CSV's rows."""
    meta = header(csv)
    lines = csv.read_text().splitlines()
    columns = lines[1][2:].split()[0].split(",") if lines[1].startswith("# path,") else ["path", "expected"]
    root = csv.parent.parent
    out = collections.defaultdict(list)
    for line in lines[1:]:
        if not line or line.startswith("#"):
            continue
        row = dict(zip(columns, line.split(",")))
        bound = row.get("bound") or meta.get("bound") or (
            4 if meta["property"] == "termination" and meta["model"].startswith("vulkan") else 1)
        s = Setting(meta["model"], meta["property"], int(bound),
                    row.get("progress") or meta.get("progress", "fair"), row.get("options", "-"))
        out[s].append((str((root / row["path"]).resolve()), row["expected"]))
    return out


def gpubmc(binary, s, files, tmp, jobs=1, repeat=1):
    """(CPU s, {file: (result, ms)}) of one gpubmc batch, the median CPU of
    repeat runs (ms: the check's own time_ms)."""
    cmd = [binary, "--json", "-j", str(jobs), "--model", s.model, "--property", s.prop,
           "--bound", str(s.bound), "--progress", s.progress] + OPTION_FLAGS[s.option] + files
    cpus = []
    for _ in range(repeat):
        _wall, cpu, _rss, _rc, out, _err, _killed = run_one(cmd, 3600, tmp, peak_rss=False)
        cpus.append(cpu)
    results = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return statistics.median(cpus), {r["file"]: (r["result"], r.get("time_ms", 0.0)) for r in results}


def progress_option(progress):
    """Dartagnan's --modeling.progress value for gpubmc's `fair;QF=obe` form."""
    default, *scopes = progress.split(";")
    return f"[DEFAULT={default},{','.join(scopes)}]".upper() if scopes else default.upper()


def dartagnan(dart, cat, s, files, tmp, timeout):
    """(CPU s, {file: result}, killed) of one Dartagnan JVM over the files."""
    target = "ptx" if s.model.startswith("ptx") else "opencl" if s.model == "opencl" else "vulkan"
    cmd = [dart, str(cat), f"--target={target}", f"--property={s.prop}", f"--bound={s.bound}",
           f"--modeling.progress={progress_option(s.progress)}", f"--timeout={timeout}"] + COMMON_FLAGS
    if all(f.endswith(".litmus") for f in files):
        cmd += LITMUS_FLAGS
    if s.option != "-":
        cmd.append(f"--{s.option}")
    _wall, cpu, _rss, _rc, out, _err, killed = run_one(cmd + files, 120 + len(files) * 4 * timeout, tmp, peak_rss=False)
    return cpu, {f: r[0] for f, r in D.parse_dartagnan(out).items()}, killed


def compare(a, name, groups, cats, tmp):
    """Both tools on one suite's checks ({Setting: [(file, expected)]});
    prints its line and returns (row of the table or None, disagreements)."""
    total = sum(len(v) for v in groups.values())
    accepted = []
    for s, checks in groups.items():
        _cpu, first = gpubmc(a.bin, s, sorted({f for f, _ in checks}), tmp, jobs=a.j)
        accepted += [(s, f, e) for f, e in checks if first.get(f, ("ERROR",))[0] != "ERROR"]
    refused = total - len(accepted)
    if not accepted:
        print(f"{name}: SKIP, gpubmc refuses all {total} rows", flush=True)
        return None, []
    sampled = len(accepted) > a.sample > 0
    if sampled:
        accepted = random.Random(f"{a.seed}:{name}").sample(accepted, a.sample)
    by = collections.defaultdict(list)
    for s, f, e in accepted:
        by[s].append((f, e))
    gcpu = dcpu = 0.0
    differ, killed, times = [], False, []
    for s, checks in sorted(by.items()):
        files = sorted({f for f, _ in checks})
        c, mine = gpubmc(a.bin, s, files, tmp, repeat=a.repeat)
        gcpu += c
        times += [(ms, f, s.bound) for f, (_r, ms) in mine.items()]
        mine = {f: r for f, (r, _ms) in mine.items()}
        c, theirs, k = dartagnan(a.dart, cats / f"{s.model}.cat", s, files, tmp, a.dart_timeout)
        dcpu += c
        killed |= k
        differ += [(f, s, mine.get(f), theirs.get(f, "NO-RESULT"), e) for f, e in checks
                   if mine.get(f) != theirs.get(f)]
    ratio = dcpu / gcpu if gcpu > 0 else float("inf")
    target = TARGET[a.kind[name]]
    row = (name, len(accepted), total, refused, sampled, gcpu, dcpu, ratio, target, len(differ))
    print(f"{name}: {len(accepted)} checks" + (f" (sampled from {total - refused}, seed {a.seed})" if sampled else "")
          + (f", {refused} refused by gpubmc and left out" if refused else "")
          + f"; gpubmc CPU {gcpu:.2f} s, Dartagnan CPU {dcpu:.1f} s, ratio {ratio:.0f}x, target {target}x: "
          + ("met" if ratio >= target else "MISSED") + f"; verdicts agree on {len(accepted) - len(differ)}"
          + (", Dartagnan's JVM ran past its limit" if killed else ""), flush=True)
    timeouts = sum(1 for d in differ if d[3] == "INTERRUPTED")
    if timeouts:
        print(f"  Dartagnan ran out of its --timeout ({a.dart_timeout} s of wall time) on {timeouts} checks")
    for ms, f, bound in sorted(times, reverse=True)[:3]:
        print(f"  gpubmc's slowest: {ms:.0f} ms {pathlib.Path(f).name} (bound {bound})")
    return row, differ


def random_checks(n, seed, out):
    """{Setting: [(file, None)]} of N random programs of tests/random/dartagnan.py."""
    groups = collections.defaultdict(list)
    for i in range(n):
        _src, text, bound, other = D.program(seed, i, 0.5)
        t = D.L.parse(text)
        f = out / f"s{seed}-{i:05d}.litmus"
        f.write_text(text)
        for model, prop, prog in D.checks_of(t, other):
            groups[Setting(model, prop, bound, prog or "fair", "-")].append((str(f), None))
    return groups


def print_table(rows):
    """The summary table, one line per suite, and the totals."""
    print(f"\n{'suite':<26}{'checks':>8}{'gpubmc CPU s':>14}{'Dartagnan CPU s':>17}{'ratio':>8}"
          f"{'target':>8}  met  sampled  differ")
    for name, n, total, _ref, sampled, g, d, r, t, dif in rows:
        print(f"{name:<26}{n:>8}{g:>14.2f}{d:>17.1f}{r:>7.0f}x{t:>7}x  {'yes' if r >= t else 'NO ':<5}"
              f"{'yes' if sampled else 'no':<9}{dif}")
    g, d = sum(r[5] for r in rows), sum(r[6] for r in rows)
    print(f"{'total':<26}{sum(r[1] for r in rows):>8}{g:>14.2f}{d:>17.1f}{d / max(g, 1e-9):>7.0f}x")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--dartagnan", help="dartagnan.sh, or a directory holding it")
    ap.add_argument("--suite", action="append", default=[], help="suites to run (comma-separated; default all)")
    ap.add_argument("--sample", type=int, default=0, help="at most N checks per suite, drawn at random")
    ap.add_argument("--seed", type=int, default=1, help="seed of --sample and --random")
    ap.add_argument("--random", type=int, default=0, 
                    help="N programs of tests/random as one more suite, random (50 if only --suite names it)")
    ap.add_argument("--dart-timeout", type=int, default=60, help="Dartagnan's solver timeout per check (s)")
    ap.add_argument("--repeat", type=int, default=3, help="gpubmc's batches per setting (the median CPU counts)")
    ap.add_argument("-j", type=int, default=2, help="workers of the untimed pass that finds refused rows")
    a = ap.parse_args()
    if not a.dartagnan:
        print("SKIP: no Dartagnan (make bench DARTAGNAN=PATH, its dartagnan.sh)")
        return 0
    dart = pathlib.Path(a.dartagnan)
    a.dart = str((dart / "dartagnan.sh" if dart.is_dir() else dart).resolve())
    a.bin = str(pathlib.Path(a.bin).resolve())
    corpus = pathlib.Path(a.corpus)
    csvs = {c.stem: ("dat3m", c) for c in sorted((corpus / "expected").glob("*.csv"))}
    csvs.update({n: ("extra", corpus / "extra" / "expected" / f"{n}.csv") for n in EXTRA})
    wanted = [n for s in a.suite for n in s.split(",") if n] or list(csvs) + (["random"] if a.random else [])
    unknown = [n for n in wanted if n not in csvs and n != "random"]
    if unknown:
        ap.error(f"unknown suite {', '.join(unknown)} (suites: {', '.join(csvs)}, random)")
    a.kind = {n: k for n, (k, _c) in csvs.items()}
    a.kind["random"] = "random"
    rows, differ = [], []
    with tempfile.TemporaryDirectory(prefix="dartagnan-suites-") as tmp:
        for name in wanted:
            if name == "random":
                progs = pathlib.Path(tmp) / "random"
                progs.mkdir()
                checks = random_checks(a.random or 50, a.seed, progs)
            elif csvs[name][1].exists():
                checks = suite_checks(csvs[name][1])
            else:
                print(f"{name}: SKIP, no {csvs[name][1]}")
                continue
            row, d = compare(a, name, checks, corpus / "models", tmp)
            rows += [row] if row else []
            differ += [(name,) + x for x in d]
    print_table(rows)
    for name, f, s, mine, theirs, expected in differ:
        print(f"  {name}: {f} ({s.model} {s.prop} bound {s.bound} {s.progress}): gpubmc {mine}, "
              f"Dartagnan {theirs}" + (f", expected {expected}" if expected else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
