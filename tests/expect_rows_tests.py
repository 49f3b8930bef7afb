"""--expect with the per-row columns of the extra corpus CSVs:
path,expected,source,bound,progress,options (as line 2 names them), each
row checked under its own bound, progress model and options ('-' or
empty: the header's).

Each verdict below is reasoned from the own test's text:
- CL-div-loop.litmus (tests/litmus/divergence): P0's loop runs B1 twice,
  P1's once.  At bound 1 the loop could run past the bound before the
  second occurrence is seen: UNKNOWN; at bound 2 P0's second B1 has no
  partner: FAIL.
- filter.spvasm (tests/spirv): forall (%v == 1) under a filter no
  execution meets: PASS vacuously; with the filter ignored
  (encoding.ignoreFilterSpecification=true) %v stays 0: FAIL.
- cas-spin.spvasm: P1 spins on a compare-exchange until P0 releases the
  flag; both invocations are in subgroup 0.  Fair: P0 runs, P1 gets out,
  PASS.  fair;SG=unfair: the subgroup owes P0 nothing, P1 spins for ever,
  FAIL.  fair;WG=unfair governs the subgroups of the workgroup (one):
  PASS.
Called with run_tests.py's record(ok, what) and run(args, cwd) helpers."""
import json
import os
import pathlib
import shutil
import tempfile

from testpaths import ROOT

ROWS = [("# model=opencl property=barrier_divergence", [
            "litmus/divergence/CL-div-loop.litmus,UNKNOWN,own,1,fair,-",
            "litmus/divergence/CL-div-loop.litmus,FAIL,own,2,fair,-",
            "litmus/divergence/CL-div-loop.litmus,FAIL,own,,,"]),   # empty: the header's bound (2 below)
        ("# model=vulkan property=program_spec", [
            "spirv/filter.spvasm,PASS,own,1,fair,-",
            "spirv/filter.spvasm,FAIL,own,1,fair,encoding.ignoreFilterSpecification=true",
            "spirv/filter.spvasm,PASS,own,1,fair,encoding.ignoreFilterSpecification=false"]),
        ("# model=vulkan property=termination", [
            "spirv/cas-spin.spvasm,PASS,own,1,fair,-",
            "spirv/cas-spin.spvasm,FAIL,own,1,fair;SG=unfair,-",
            "spirv/cas-spin.spvasm,PASS,own,1,fair;WG=unfair,-",
            "spirv/cas-spin.spvasm,FAIL,own,1,unfair,-"])]


def _csv(tmp, name, header, rows, columns="# path,expected,source,bound,progress,options"):
    path = pathlib.Path(tmp, name)
    path.write_text(header + "\n" + columns + "\n" + "\n".join(rows) + "\n")
    return path


def _matches(record, run, tmp):
    """Every row's verdict under its own settings, and a flipped row fails."""
    for k, (header, rows) in enumerate(ROWS):
        if "divergence" in header:
            header += " bound=2"
        csv = _csv(tmp, f"rows{k}.csv", header, rows)
        p = run(["--json", "--expect", csv], ROOT / "tests")
        got = [json.loads(line) for line in p.stdout.splitlines()]
        record(p.returncode == 0 and f"{len(rows)} passed, 0 failed" in p.stderr
               and all(o["match"] for o in got),
               f"expect-rows: {header}: each row under its own bound, progress and options: "
               f"{p.returncode} {[(o['result'], o.get('progress'), o['reason'][:60]) for o in got]} {p.stderr[-200:]!r}")
    flipped = ["litmus/divergence/CL-div-loop.litmus,FAIL,own,1,fair,-"]
    p = run(["--expect", _csv(tmp, "flip.csv", ROWS[0][0], flipped)], ROOT / "tests")
    record(p.returncode == 10 and "expected FAIL, got UNKNOWN" in p.stdout,
           f"expect-rows: the row's bound 1 is used, not another: {p.returncode} {p.stdout!r}")
    p = run(["--expect", _csv(tmp, "given.csv", ROWS[1][0], ROWS[1][1]), "spirv/filter.spvasm"], ROOT / "tests")
    record(p.returncode == 0 and "3 passed, 0 failed" in p.stdout,
           f"expect-rows: with the file given, its rows keep their options: {p.returncode} {p.stdout!r}")
    # the columns are those line 2 names: here the bound is the third (1, not the header's 2), and the
    # reason's commas stay in it;
    # without a column line (path,expected,source) a fourth field is no bound: the header's 2 holds
    named = _csv(tmp, "named.csv", ROWS[0][0] + " bound=2", ["litmus/divergence/CL-div-loop.litmus,UNKNOWN,1,one pass, not two"],
                 columns="# path,expected,bound,reason")
    unnamed = _csv(tmp, "unnamed.csv", ROWS[0][0] + " bound=2", ["litmus/divergence/CL-div-loop.litmus,FAIL,own,1"],
                   columns="# verdicts reasoned in expect_rows_tests.py")
    for csv, what in ((named, "line 2's column names place the bound"), (unnamed, "no column line: no bound column")):
        p = run(["--expect", csv], ROOT / "tests")
        record(p.returncode == 0 and "1 passed, 0 failed" in p.stdout, f"expect-rows: {what}: {p.returncode} "
               f"{p.stdout!r} {p.stderr!r}")


def _errors(record, run, tmp):
    """A bad bound, progress or option is FILE:LINE:COL: error."""
    for row, col, says in (("spirv/filter.spvasm,PASS,own,0,fair,-", 30, "bound '0'"),
                           ("spirv/filter.spvasm,PASS,own,1,fast,-", 32, "progress 'fast'"),
                           ("spirv/filter.spvasm,PASS,own,1,fair,encoding.foo=1", 37, "option 'encoding.foo=1'"),
                           ("spirv/filter.spvasm,PASS,own,x1,fair,-", 30, "bound 'x1'")):
        csv = _csv(tmp, "bad.csv", "# model=vulkan property=program_spec", [row])
        p = run(["--expect", csv], ROOT / "tests")
        record(p.returncode == 1 and f"{csv}:3:{col}: error: {says}" in p.stderr,
               f"expect-rows: {row!r} is an error at 3:{col}: {p.returncode} {p.stderr!r}")


def _row_kinds(record, run, tmp):
    """A row's file is what lstat would say, also when the rows of one
    directory are looked up in its listing: d/a.litmus (MP-weak: its weak
    outcome is reachable under PTX, PASS), a link to it, a path through a
    link to d and ./d/a.litmus are that one file (four rows a file given
    on the command line as d/a.litmus takes); a directory and a FIFO are
    not a regular file, a missing file cannot be opened."""
    d = pathlib.Path(tmp, "kinds")
    (d / "d" / "sub.litmus").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "litmus" / "ptx" / "MP-weak.litmus", d / "d" / "a.litmus")
    (d / "d" / "link.litmus").symlink_to("a.litmus")
    (d / "d" / "up").symlink_to("../d")
    os.mkfifo(d / "d" / "fifo.litmus")
    same = ["d/a.litmus", "d/link.litmus", "d/up/a.litmus", "./d/a.litmus"]
    csv = _csv(d, "kinds.csv", "# model=ptx-v6.0 property=program_spec bound=2",
               [f"{f},PASS" for f in same] + ["d/sub.litmus,ERROR", "d/fifo.litmus,ERROR", "d/gone.litmus,ERROR"],
               columns="# verdicts reasoned in expect_rows_tests.py")
    p = run(["--json", "--expect", csv], d)
    got = {o["file"]: o["reason"] for o in map(json.loads, p.stdout.splitlines())}
    want = {"d/sub.litmus": "d/sub.litmus: error: not a regular file",
            "d/fifo.litmus": "d/fifo.litmus: error: not a regular file",
            "d/gone.litmus": "d/gone.litmus: error: cannot open: No such file or directory"}
    record(p.returncode == 0 and "7 passed, 0 failed" in p.stderr and all(got.get(f) == r for f, r in want.items()),
           f"expect-rows: a row's file is a file, a link, a directory, a FIFO or missing: {p.returncode} {got} "
           f"{p.stderr[-200:]!r}")
    p = run(["--json", "--expect", csv, "d/a.litmus"], d)
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    record(p.returncode == 0 and len(rows) == 4 and all(o["file"] == "d/a.litmus" and o["match"] for o in rows),
           f"expect-rows: d/a.litmus given takes the rows of its link, of a path through a link and of ./d/a.litmus: "
           f"{p.returncode} {len(rows)} rows {p.stderr[-200:]!r}")


def _merged_models(record, run, tmp):
    """Rows of two files under one progress model merge, each file's, with
    different other models: a.spvasm's fair row with its unfair row (the
    verdicts of cas-spin above), b.spvasm's with its obe row (P1 may start
    first and spin while P0 never starts: FAIL); each file is checked
    under its own two models, whatever the other's merge made."""
    d = pathlib.Path(tmp, "merged")
    d.mkdir()
    for name in ("a.spvasm", "b.spvasm"):
        shutil.copy(ROOT / "tests" / "spirv" / "cas-spin.spvasm", d / name)
    csv = _csv(d, "merged.csv", "# model=vulkan property=termination",
               ["a.spvasm,PASS,own,1,fair,-", "a.spvasm,FAIL,own,1,unfair,-",
                "b.spvasm,PASS,own,1,fair,-", "b.spvasm,FAIL,own,1,obe,-"])
    p = run(["--json", "--expect", csv], d)
    got = sorted((o["file"], o.get("progress")) for o in map(json.loads, p.stdout.splitlines()))
    want = [("a.spvasm", "fair"), ("a.spvasm", "unfair"), ("b.spvasm", "fair"), ("b.spvasm", "obe")]
    record(got == want and "4 passed, 0 failed" in p.stderr,
           f"expect-rows: two files' merged rows keep their own progress models: {got} {p.stderr[-200:]!r}")


def expect_rows(record, run):
    """--expect honours each row's bound, progress and options columns."""
    with tempfile.TemporaryDirectory() as tmp:
        _matches(record, run, tmp)
        _errors(record, run, tmp)
        _row_kinds(record, run, tmp)
        _merged_models(record, run, tmp)
