"""The SPIR-V front end's tests: the own .spvasm tests under tests/spirv/
with reasoned verdicts (tests/spirv/expected.csv) and their printer round
trip (build/litmus_roundtrip, which make test builds), malformed and
unsupported modules refused at FILE:LINE:COL (tests/spirv/errors/, the
expected place and message on each file's first line), a missing grammar
refused by name, and, when the corpus is there, Dat3M's SPIRV-VULKAN,
SPIRV-VULKAN-DR, SPIRV-OPENCL and SPIRV-OPENCL-DR suites: a refused row (ERROR) names its construct at
FILE:LINE:COL, no suite falls below the rows it matched when this was
written, and every row answered otherwise than Dartagnan is printed
(docs/spirv.md says which classes of rows differ and why; no file is
special-cased here).

Called by run_tests.py with its record() and run() helpers."""
import csv
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from testpaths import BIN, CORPUS, ROOT, corpus_missing_note, corpus_present

SPIRV = ROOT / "tests" / "spirv"

# The fewest matching rows each suite must keep (the count when this was written).
MIN_MATCH = {"SPIRV-VULKAN": 132, "SPIRV-VULKAN-DR": 96, "SPIRV-OPENCL": 55, "SPIRV-OPENCL-DR": 77}


def _results(p):
    """{file: (result, reason)} of a --json run."""
    got = {}
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            o = json.loads(line)
            got[o["file"]] = (o["result"], o.get("reason", ""))
    return got


def own(record, run):
    """The own tests' verdicts."""
    rows = [r for r in csv.reader((SPIRV / "expected.csv").read_text().splitlines()) if r and not r[0].startswith("#")]
    for name, prop, bound, grid, options, expected in rows:
        args = ["--json", "--property", prop, "--bound", bound]
        if grid != "-":
            args += ["--grid", grid.replace(";", ",")]
        if options != "-":
            args += options.split()
        p = run(args + [str(SPIRV / name)], ROOT)
        got = _results(p).get(str(SPIRV / name), ("NO-RESULT", p.stderr.strip()))
        record(got[0] == expected, f"spirv {name} {prop} bound {bound} grid {grid} {options}: expected {expected}, "
               f"got {got}")


def round_trip(record, run):
    """The translated tests print as Vulkan litmus that parses back to the
    same AST (so transformations and --necessary-sync work on kernels)."""
    tool = BIN.parent / "litmus_roundtrip"
    if not tool.exists():
        record(False, f"spirv round trip: {tool} is not built (make test builds it)")
        return
    files = sorted(str(f) for f in SPIRV.glob("*.spvasm"))
    p = subprocess.run([str(tool)] + files, capture_output=True, text=True, timeout=300)
    record(p.returncode == 0, f"spirv round trip of the own tests: {p.stdout.strip()[-400:]}")


def errors(record, run):
    """Malformed or unsupported modules: exit 1, the error at its place."""
    files = sorted((SPIRV / "errors").glob("*.spvasm"))
    record(len(files) >= 12, f"spirv errors: {len(files)} error cases")
    for f in files:
        first = f.read_text().splitlines()[0]
        place, message = first.removeprefix("; expect: ").split(": ", 1)
        want = f"{f.relative_to(ROOT)}:{place}: error: {message}"
        p = run([str(f.relative_to(ROOT))], ROOT)
        record(p.returncode == 1 and want in p.stderr,
               f"spirv error {f.name}: expected '{want}', got exit {p.returncode}: {p.stderr.strip()!r}")
    env = dict(os.environ, GPUBMC_SPIRV_GRAMMAR="/nonexistent/spirv.core.grammar.json")
    p = subprocess.run([str(BIN), str(SPIRV / "mp-acq-rel.spvasm")], env=env, capture_output=True, text=True,
                       timeout=60)
    record(p.returncode == 1 and "cannot read the SPIR-V grammar /nonexistent" in p.stderr,
           f"spirv: a missing grammar is an error naming it ({p.stderr.strip()!r})")


def corpus_suites(record, run):
    """Dat3M's SPIR-V Vulkan suites: matched, refused with a placed error, or printed as differing."""
    extra = CORPUS / "extra"
    if not corpus_present() or not (extra / "expected" / "SPIRV-VULKAN.csv").exists():
        print(corpus_missing_note("spirv corpus suites"))
        return
    for suite in ("SPIRV-VULKAN", "SPIRV-VULKAN-DR", "SPIRV-OPENCL", "SPIRV-OPENCL-DR"):
        lines = (extra / "expected" / f"{suite}.csv").read_text().splitlines()
        meta = dict(w.split("=", 1) for w in lines[0].lstrip("# ").split())
        groups = {}
        for r in csv.reader(l for l in lines[1:] if l and not l.startswith("#")):
            path, expected, _source, bound, progress, options = r[:6]
            groups.setdefault((bound, progress, options), []).append((path, expected))
        match = refused = differ = 0
        for (bound, progress, options), rows in groups.items():
            args = ["--json", "--model", meta["model"], "--property", meta["property"], "--progress", progress,
                    "--bound", bound, "--timeout", "20", "-j", "2"]
            if options == "encoding.ignoreFilterSpecification=true":
                args.append("--ignore-filter")
            files = sorted({p for p, _ in rows})
            got = _results(run(args + files, extra))
            for path, expected in rows:
                result, reason = got.get(path, ("NO-RESULT", ""))
                if result == expected:
                    match += 1
                elif result == "ERROR":
                    refused += 1
                    record(f"{path}:" in reason and ": error: " in reason,
                           f"{suite} {path}: refused with a placed error ({reason})")
                else:
                    differ += 1
                    print(f"DIFFER {suite} {path} bound {bound}: expected {expected}, got {result} ({reason[:160]})")
        print(f"INFO {suite}: {match} rows match, {refused} refused, {differ} differ")
        record(match >= MIN_MATCH[suite], f"{suite}: {match} rows match (expected {MIN_MATCH[suite]} or more), "
               f"{refused} refused, {differ} differ")


GLSL = ROOT / "examples" / "glsl"
GLSL_TOOLS = ("glslangValidator", "spirv-dis", "spirv-opt")


def glsl_examples(record, run):
    """The GLSL kernels of examples/glsl compiled, optimised by spirv-opt and
    compared with --source (examples/glsl/check_optimiser.py against its
    expected.csv), and a control that the comparison can fail: the message
    passing kernel with its spin loop's acquire load made relaxed by hand
    (an optimiser bug) gains the outcome result == 0."""
    missing = [t for t in GLSL_TOOLS if not shutil.which(t)]
    if missing:
        print(f"SKIP spirv glsl examples: {', '.join(missing)} not found (make deps installs glslang-tools "
              f"and spirv-tools)")
        return
    p = subprocess.run([sys.executable, str(GLSL / "check_optimiser.py"), "--gpubmc", str(BIN),
                        "--expect", str(GLSL / "expected.csv")], capture_output=True, text=True, timeout=1200)
    record(p.returncode == 0, f"spirv glsl examples: spirv-opt adds no behaviour to any kernel (exit {p.returncode}): "
           f"{(p.stdout + p.stderr).strip()[-1500:]}")
    with tempfile.TemporaryDirectory() as tmp:
        spv, base, weak = (pathlib.Path(tmp) / n for n in ("mp.spv", "mp.spvasm", "mp-weak.spvasm"))
        subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-o", str(spv),
                        str(GLSL / "mp-spin.comp")], capture_output=True, check=True)
        head = "".join("; " + l[3:] + "\n" for l in (GLSL / "mp-spin.comp").read_text().splitlines()
                       if l.startswith("// @"))
        text = head + subprocess.run(["spirv-dis", str(spv)], capture_output=True, text=True, check=True).stdout
        base.write_text(text)
        weakened = re.sub(r"(OpAtomicLoad %uint %\w+ %\w+) %uint_66", r"\1 %uint_0", text)
        weak.write_text(weakened)
        p = run(["--bound", "2", "--source", str(base), str(weak)], ROOT)
        record(weakened != text and p.returncode != 0 and "FAIL" in p.stdout and "buf_8=0" in p.stdout,
               f"spirv glsl control: a relaxed spin load adds result == 0 ({p.stdout.strip()[:300]!r})")


def spirv(record, run):
    """The SPIR-V front end: own tests, error cases, corpus suites, GLSL examples."""
    own(record, run)
    round_trip(record, run)
    errors(record, run)
    corpus_suites(record, run)
    glsl_examples(record, run)
