"""Barrier divergence (issue 31): --property barrier_divergence.

Each row of tests/litmus/divergence/expected.csv is a program with its
verdict and, for a FAIL, one thread the reason must name as reaching the
barrier and one as not reaching it (the reasoning is the row's last field):
PTX bar.cta.sync (skipped, spun through, passed more often by one thread,
in another CTA, met by an arrive), Vulkan cbar (skipped, uniform, in another
workgroup), a SPIR-V OpControlBarrier under an invocation-id branch (tests/spirv/nonuniform-barrier.spvasm)
and OpenCL barrier() (skipped under an if on a read value or on the local
id, in a loop run more often by one work-item, in a uniform branch, in
another work-group), and a barrier with one id in both arms of an if
(PTX, OpenCL, SPIR-V: two barriers).  Also the default properties of
SPIR-V and OpenCL files, which include barrier_divergence.
Also: the witness's "divergence" object, the project's own uniform SPIR-V
barrier test (PASS), and the options the property refuses.

Called with run_tests.py's record(ok, what) and run(args, cwd) helpers."""
import json
import pathlib
import tempfile

from testpaths import ROOT

DIV = ROOT / "tests" / "litmus" / "divergence"


def _rows(record, run):
    """Every row of expected.csv: verdict and the threads named."""
    for line in (DIV / "expected.csv").read_text().splitlines():
        if not line.strip():
            continue
        name, bound, want, who, _why = line.split(",", 4)
        p = run(["--json", "--property", "barrier_divergence", "--bound", bound, name], DIV)
        o = json.loads(p.stdout.splitlines()[0]) if p.stdout.strip() else {}
        ok = o.get("result") == want
        if ok and want == "FAIL":
            at, away = who.split()
            reason = o["reason"]
            ok = f"reached by {at}" in reason and f"not by {away}" in reason.split("but", 1)[1]
        record(ok, f"divergence: {name} (bound {bound}): expected {want} naming {who}, got {o}")


def _witness(record, run):
    """The witness names the barrier, its occurrence and who reaches it."""
    with tempfile.TemporaryDirectory() as tmp:
        w = pathlib.Path(tmp, "w.json")
        run(["--property", "barrier_divergence", "--witness", str(w), "PTX-div-count.litmus"], DIV)
        d = json.loads(w.read_text())["witness"].get("divergence", {})
        record(d == {"barrier": "bar.cta.sync 0", "line": 7, "occurrence": 2, "reached_by": [0],
                     "not_reached_by": [1], "elsewhere": []},
               f"divergence: the witness of PTX-div-count names P0's second barrier 0 and P1 missing it: {d}")
        run(["--property", "barrier_divergence", "--bound", "2", "--witness", str(w), "CL-div-loop.litmus"], DIV)
        d = json.loads(w.read_text())["witness"].get("divergence", {})
        record(d == {"barrier": "B1: barrier(CLK_GLOBAL_MEM_FENCE)", "line": 12, "occurrence": 2,
                     "reached_by": [0], "not_reached_by": [1], "elsewhere": []},
               f"divergence: the witness of CL-div-loop names P0's second B1 and P1 missing it: {d}")
        run(["--property", "barrier_divergence", "--witness", str(w), "CL-div-arms.litmus"], DIV)
        d = json.loads(w.read_text())["witness"].get("divergence", {})
        record(d == {"barrier": "B1: barrier(CLK_LOCAL_MEM_FENCE)", "line": 18, "occurrence": 1,
                     "reached_by": [0], "not_reached_by": [1], "elsewhere": [{"thread": 1, "line": 30}]},
               f"divergence: the witness of CL-div-arms names P1 at the other arm's B1 (line 30): {d}")
        run(["--property", "barrier_divergence", "--witness", str(w), ROOT / "tests" / "spirv" / "barrier-arms.spvasm"])
        d = json.loads(w.read_text())["witness"].get("divergence", {})
        record(d.get("line") == 49 and d.get("elsewhere") == [{"thread": 1, "line": 52}],
               f"divergence: the witness of barrier-arms.spvasm names P1 at the other OpControlBarrier (line 52): {d}")
    p = run(["--property", "barrier_divergence", ROOT / "tests" / "spirv" / "barrier-race.spvasm"])
    record(p.returncode == 0 and ": PASS" in p.stdout,
           f"divergence: the own SPIR-V barrier test meets its barrier uniformly: {p.stdout!r}")


def _refusals(record, run):
    """Options the property does not combine with."""
    for extra, says in ((["--engine", "oracle"], "not termination or barrier_divergence"),
                        (["--compare-model", "ptx-v6.0"], "checks each program alone"),
                        (["--progress", "hsa"], "applies to termination checks")):
        p = run(["--property", "barrier_divergence"] + extra + ["PTX-div-skip.litmus"], DIV)
        record(p.returncode == 1 and says in p.stderr, f"divergence: {extra} refused: {p.stderr!r}")


def _by_default(record, run):
    """Without --property, a SPIR-V or OpenCL file also gets its
    barrier_divergence result (undefined behaviour there), after the
    program_spec one; a PTX or Vulkan litmus file does not, though
    PTX-div-skip and VK-div-cbar diverge."""
    spirv = str(ROOT / "tests" / "spirv" / "nonuniform-barrier.spvasm")
    files = ["PTX-div-skip.litmus", "VK-div-cbar.litmus", "CL-div-read.litmus", "CL-div-uniform.litmus", spirv]
    p = run(["--json"] + files, DIV)
    got = [(o["file"], o["property"], o["result"]) for o in map(json.loads, p.stdout.splitlines())]
    # program_spec of the first three FAILs: the only value read skips a barrier another thread then
    # waits at for ever, so no terminating execution reaches the outcome
    want = [("PTX-div-skip.litmus", "program_spec", "FAIL"), ("VK-div-cbar.litmus", "program_spec", "FAIL"),
            ("CL-div-read.litmus", "program_spec", "FAIL"), ("CL-div-read.litmus", "barrier_divergence", "FAIL"),
            ("CL-div-uniform.litmus", "program_spec", "PASS"),
            ("CL-div-uniform.litmus", "barrier_divergence", "PASS"),
            (spirv, "program_spec", "PASS"), (spirv, "barrier_divergence", "FAIL")]
    record(got == want and p.returncode == 10, f"divergence: default properties per input language: {got}")
    p = run(["CL-div-uniform.litmus"], DIV)
    record(p.returncode == 0 and p.stdout.splitlines()[0].startswith("CL-div-uniform.litmus: PASS (")
           and p.stdout.splitlines()[1].startswith("CL-div-uniform.litmus: barrier_divergence: PASS ("),
           f"divergence: the default line stays, the added one names its property: {p.stdout!r}")
    p = run(["--property", "program_spec", "CL-div-read.litmus"], DIV)
    record(len(p.stdout.splitlines()) == 1, f"divergence: --property program_spec alone is one line: {p.stdout!r}")
    with tempfile.TemporaryDirectory() as tmp:
        csv = pathlib.Path(tmp, "e.csv")
        csv.write_text("# model=opencl property=program_spec\nCL-div-read.litmus,FAIL,own\n")
        p = run(["--expect", csv, "CL-div-read.litmus"], DIV)
        record(p.returncode == 0 and p.stdout == "1 passed, 0 failed\n",
               f"divergence: a file a CSV lists is checked under the CSV's property only: {p.stdout!r}")
        g = pathlib.Path(tmp, "g.dot")
        p = run(["--graph", g, "CL-div-uniform.litmus"], DIV)
        record(p.returncode == 0 and len(p.stdout.splitlines()) == 1 and g.exists(),
               f"divergence: --graph FILE draws the one check asked for: {p.returncode} {p.stderr!r}")


def divergence(record, run):
    """Own barrier divergence tests, the witness, the refusals, the
    default properties of SPIR-V and OpenCL input."""
    _by_default(record, run)
    _rows(record, run)
    _witness(record, run)
    _refusals(record, run)
