#!/usr/bin/env python3
"""gpubmc's test runner: unit tests, own litmus tests (SAT path and oracle),
error reporting, witness output, and the shared corpus when it is present.
Prints one line per failure and ends with 'N passed, N failed'."""
import json, os, pathlib, re, shutil, subprocess, sys, tempfile

import batch_tests
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "random"))
import crosscheck  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = ROOT / "build" / "gpubmc"
SHARED = ROOT.parent / "shared"
SUITES = ["PTXv6_0", "PTXv7_5", "VULKAN", "VULKAN-NOCHAINS", "VULKAN-DR",
          "VULKAN-DR-NOCHAINS", "PTXv6_0-Liveness", "PTXv7_5-Liveness"]   # the corpus suites whose models and properties are implemented
# own litmus suites: directory under tests/litmus, model, property
OWN_SUITES = (("ptx", "ptx-v6.0", "program_spec"), ("ptx75", "ptx-v7.5", "program_spec"),
              ("vulkan", "vulkan", "program_spec"), ("vulkan-nochains", "vulkan-nochains", "program_spec"),
              ("vulkan-dr", "vulkan", "cat_spec"))
passed = failed = 0


def record(ok, what, show=True):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        if show:
            print(f"FAIL {what}")


def run(args, cwd=ROOT):
    return subprocess.run([str(BIN)] + args, cwd=cwd, capture_output=True, text=True, timeout=120)


def unit_tests():
    for exe in sorted((ROOT / "build" / "tests").glob("test_*")):
        p = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
        out = p.stdout + p.stderr
        ok_n = sum(int(n) for n in re.findall(r"\[  PASSED  \] (\d+) test", out))
        bad_n = sum(int(n) for n in re.findall(r"\[  FAILED  \] (\d+) test", out))
        for _ in range(ok_n):
            record(True, exe.name)
        for line in re.findall(r"\[  FAILED  \] (\S+)\n", out):
            record(False, f"{exe.name}: {line}")
        if p.returncode != 0 and bad_n == 0:
            record(False, f"{exe.name} exited with {p.returncode}")


def verdicts(args, files, cwd):
    p = run(["--json"] + args + files, cwd)
    got = {}
    for line in p.stdout.splitlines():
        o = json.loads(line)
        got[o["file"]] = o["result"]
    return got


def own_litmus():
    """Each own test against its reasoned verdict, on both engines, and on
    the SAT engine without symmetry breaking."""
    for suite, model, prop in OWN_SUITES:
        d = ROOT / "tests" / "litmus" / suite
        rows = [l.split(",", 2) for l in (d / "expected.csv").read_text().splitlines() if l.strip()]
        files = [r[0] for r in rows]
        for engine, extra in (("sat", []), ("oracle", []), ("sat", ["--no-symmetry"])):
            got = verdicts(["--model", model, "--property", prop, "--engine", engine] + extra, files, d)
            label = " ".join([engine] + extra)
            for name, exp, _why in rows:
                record(got.get(name) == exp, f"{suite}/{name} [{label}]: expected {exp}, got {got.get(name)}")


def own_termination():
    """Termination tests: rows NAME,PROGRESS,BOUND,VERDICT,reason (SAT engine only)."""
    d = ROOT / "tests" / "litmus" / "termination"
    for line in (d / "expected.csv").read_text().splitlines():
        if not line.strip():
            continue
        name, progress, bound, exp, _why = line.split(",", 4)
        got = verdicts(["--property", "termination", "--progress", progress, "--bound", bound],
                       [name], d).get(name)
        record(got == exp, f"termination/{name} [{progress}, bound {bound}]: expected {exp}, got {got}")


def error_reporting():
    """Bad input: exit status 1 and the exact file:line:col message."""
    d = ROOT / "tests" / "errors"
    for line in (d / "expected.txt").read_text().splitlines():
        name, msg = line.split("|", 1)
        p = run(["--model", "ptx-v6.0", name], d)
        record(p.returncode == 1 and p.stderr.splitlines()[:1] == [msg],
               f"errors/{name}: rc {p.returncode}, stderr {p.stderr.strip()!r}")
    for args, what in ((["--bound", "0"], "bound 0"), (["--bound", "99999999999"], "huge bound"),
                       (["--model", "nosuch"], "unknown model"), (["--frobnicate"], "unknown option"),
                       (["--model", "ptx-v6.0", "--no-axiom", "Causalty"], "unknown axiom"),
                       (["--model", "vulkan"], "Vulkan model on a PTX test")):
        p = run(args + ["tests/litmus/ptx/MP-weak.litmus"])
        record(p.returncode == 1 and "error" in p.stderr, f"usage error for {what}")


def ast_dump():
    """The AST dump tool parses a test and shows its instructions."""
    p = subprocess.run([str(ROOT / "build" / "litmus_dump"), "tests/litmus/ptx/MP-weak.litmus"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    record(p.returncode == 0 and "st.weak" in p.stdout, "litmus_dump on MP-weak")


def witness_output():
    """--witness writes the deciding execution as a JSON graph."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "w.json"
        p = run(["--model", "ptx-v6.0", "--witness", str(out), "tests/litmus/ptx/SB-weak.litmus"])
        ok = p.returncode == 0 and out.exists()
        if ok:
            w = json.loads(out.read_text())["witness"]
            reads = [e for e in w["events"] if e["kind"] == "read"]
            ok = (len(reads) == 2 and all(e["value"] == 0 for e in reads)
                  and len(w["edges"]["rf"]) == 2 and "cause" in w["edges"]
                  and w["final"]["registers"]["P0:r0"] == 0)
        record(ok, "witness JSON for SB-weak")
        p = run(["--property", "cat_spec", "--witness", str(out), "tests/litmus/vulkan-dr/DR-MP-priv-data.litmus"])
        ok = p.returncode == 10 and "race (racy3c3)" in p.stdout
        if ok:
            w = json.loads(out.read_text())["witness"]
            ids = {e["id"]: e for e in w["events"]}
            races = w["flags"].get("racy3c3", [])
            ok = (len(races) == 1 and {ids[a]["kind"] for a in races[0]} == {"read", "write"}
                  and all(ids[a]["location"] == "x" and "SC0" in ids[a]["tags"] for a in races[0]))
        record(ok, "witness JSON names the racing pair of DR-MP-priv-data")


def outcome_sets():
    """Outcome sets (build/outcomes_dump): each own test's reasoned set, the
    JSON form agreeing with the text, the verdict unchanged; every own
    program_spec test keeps its verdict with outcomes on; bad locations lists."""
    tool = ROOT / "build" / "outcomes_dump"
    if not tool.exists():
        record(False, "outcomes: build/outcomes_dump is not built")
        return
    d = ROOT / "tests" / "litmus" / "outcomes"

    def dump(args, files, cwd):
        p = subprocess.run([str(tool)] + args + files, cwd=cwd, capture_output=True, text=True, timeout=300)
        return p.stdout

    for line in (d / "expected.csv").read_text().splitlines():
        if not line.strip():
            continue
        name, bound, exp = line.split(",")
        what = f"outcomes/{name} [bound {bound}]"
        stem = name[:-len(".litmus")]
        want = (d / (f"{stem}.expected" if bound == "1" else f"{stem}.bound{bound}.expected")).read_text()
        text = dump(["--text", "--bound", bound], [name], d).split("\n", 1)
        record(len(text) == 2 and text[0].startswith(f"{name}: {exp} ") and text[1] == want,
               f"{what}: expected {exp} and\n{want}got\n{chr(10).join(text)}")
        o = json.loads(dump(["--bound", bound], [name], d))
        out = o["outcomes"] or {}
        states = out.get("states", [])
        lines = ["*> " if st["satisfies"] else ":> " for st in states]
        lines = [m + " ".join(f"{k}={v};" for k, v in st["values"].items()) for m, st in zip(lines, states)]
        pos = sum(st["satisfies"] for st in states)
        ok = (o["result"] == exp and o["nvars"] > 0 and o["nclauses"] > 0
              and lines == want.splitlines()[1:1 + len(states)]
              and all(list(st["values"]) == out["observed"] for st in states)
              and out["positive"] == pos and out["negative"] == len(states) - pos
              and out["complete"] == ("Note:" not in want) and ("incomplete" in out) != out["complete"])
        record(ok, f"{what}: JSON form {json.dumps(o)}")
        plain = verdicts(["--bound", bound], [name], d).get(name)
        record(plain == exp, f"{what}: plain program_spec gives {plain}, expected {exp}")
    for suite, model, prop in OWN_SUITES:
        if prop != "program_spec":
            continue
        sd = ROOT / "tests" / "litmus" / suite
        rows = [l.split(",", 2) for l in (sd / "expected.csv").read_text().splitlines() if l.strip()]
        got = {}
        for line in dump(["--model", model], [r[0] for r in rows], sd).splitlines():
            o = json.loads(line)
            got[o["file"]] = (o["result"], o["outcomes"] is not None)
        for name, exp, _why in rows:
            record(got.get(name) == (exp, True), f"{suite}/{name} with outcomes: expected {exp}, got {got.get(name)}")
    ed = d / "errors"
    for line in (ed / "expected.txt").read_text().splitlines():
        name, msg = line.split("|", 1)
        p = run([name], ed)
        record(p.returncode == 1 and p.stderr.splitlines()[:1] == [msg],
               f"outcomes/errors/{name}: rc {p.returncode}, stderr {p.stderr.strip()!r}")


def missing_corpus_files():
    """Rows of the suites' expected CSVs whose litmus file the corpus lacks."""
    corpus_dir = SHARED / "corpus"
    missing = set()
    for suite in SUITES:
        for line in (corpus_dir / "expected" / f"{suite}.csv").read_text().splitlines():
            path = line.split(",", 1)[0]
            if line.strip() and not line.startswith("#") and not (corpus_dir / path).exists():
                missing.add(path)
    return missing


def corpus():
    score = SHARED / "tools" / "score.py"
    if not (SHARED / "corpus").is_dir() or not score.exists():
        print(f"SKIP corpus: {SHARED / 'corpus'} not found")
        return
    missing = missing_corpus_files()
    p = subprocess.run([sys.executable, str(score), "--bin", str(BIN), "--suite"] + SUITES,
                       capture_output=True, text=True, timeout=1800)
    print(p.stdout.strip())
    m = re.search(r"^(\d+) passed, (\d+) failed$", p.stdout, re.M)
    if not m:
        record(False, "corpus scoreboard printed no summary")
        return
    for _ in range(int(m.group(1))):
        record(True, "corpus")
    mismatches = re.findall(r"^\s+(\S+\.litmus): expected", p.stdout, re.M)
    for path in mismatches:
        if path in missing:
            print(f"SKIP corpus row {path}: listed in the expected verdicts but absent from the corpus")
        else:
            record(False, f"corpus row {path} (see the scoreboard above)")
    if len(mismatches) != int(m.group(2)):
        record(False, "corpus scoreboard: failures do not match its mismatch lines")


# Random cross-check: CROSSCHECK_SEED and CROSSCHECK_N override these.
CROSSCHECK_SEED = 1
CROSSCHECK_N = 3000


def random_crosscheck():
    """Random programs (tests/random/gen.py): the SAT engine, the oracle and
    --no-symmetry agree, and nothing (termination included) errs or crashes.
    One record per program; failing programs are kept in build/crosscheck-failures."""
    seed = int(os.environ.get("CROSSCHECK_SEED", CROSSCHECK_SEED))
    n = int(os.environ.get("CROSSCHECK_N", CROSSCHECK_N))
    if n <= 0:
        print("SKIP random cross-check: CROSSCHECK_N is 0")
        return
    keep = ROOT / "build" / "crosscheck-failures"
    shutil.rmtree(keep, ignore_errors=True)
    lines = []
    s = crosscheck.crosscheck(n, seed, BIN, keep, report=lines.append)
    for line in lines:
        print(line)
    for _ in range(n - s["failing_programs"]):
        record(True, "crosscheck")
    for _ in range(s["failing_programs"]):
        record(False, "crosscheck", show=False)
    crosscheck.print_summary(s)
    if s["failing_programs"]:
        print(f"  reproduce: python3 tests/random/crosscheck.py -n {n} --seed {seed}")


def main():
    unit_tests()
    own_litmus()
    own_termination()
    error_reporting()
    witness_output()
    ast_dump()
    outcome_sets()
    batch_tests.batch_mode(record, run)
    random_crosscheck()
    corpus()
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
