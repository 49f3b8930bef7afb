#!/usr/bin/env python3
"""gpubmc's test runner: unit tests, own litmus tests (SAT path and oracle),
error reporting, witness output, and the shared corpus when it is present.
Prints one line per failure and ends with 'N passed, N failed'."""
import json, os, pathlib, re, shutil, subprocess, sys, tempfile

import batch_tests
import cuda_tests
import explain_tests
import gallery_tests
import layout_tests
import shard_tests
import trust_tests
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


def verdicts(args, files, cwd, with_reason=False):
    p = run(["--json"] + args + files, cwd)
    got = {}
    for line in p.stdout.splitlines():
        o = json.loads(line)
        got[o["file"]] = (o["result"], o.get("reason", "")) if with_reason else o["result"]
    return got


def oracle_undecided(got):
    """The oracle's honest UNKNOWN: a value cycle (values that depend only on
    themselves, allowed without NoThinAir) whose values it cannot enumerate."""
    return got is not None and got[0] == "UNKNOWN" and "value cycles" in got[1]


def own_litmus():
    """Each own test against its reasoned verdict, on both engines, and on
    the SAT engine without symmetry breaking and with the last-write key."""
    for suite, model, prop in OWN_SUITES:
        d = ROOT / "tests" / "litmus" / suite
        rows = [l.split(",", 2) for l in (d / "expected.csv").read_text().splitlines() if l.strip()]
        files = [r[0] for r in rows]
        for engine, extra in (("sat", []), ("oracle", []), ("sat", ["--no-symmetry"]),
                              ("sat", ["--symmetry-key", "last"])):
            got = verdicts(["--model", model, "--property", prop, "--engine", engine] + extra, files, d, True)
            label = " ".join([engine] + extra)
            for name, exp, _why in rows:
                res = got.get(name)
                ok = res is not None and (res[0] == exp or (engine == "oracle" and oracle_undecided(res)))
                record(ok, f"{suite}/{name} [{label}]: expected {exp}, got {res}")


def own_termination():
    """Termination tests: rows NAME,PROGRESS,BOUND,SAT,STATES,reason, each
    checked by the default engine (the explicit-state engine in the
    interleaving fragment, SAT elsewhere; STATES is '-' outside it) and
    forced to SAT (--engine sat); where both engines decide, they must agree."""
    d = ROOT / "tests" / "litmus" / "termination"
    agree = 0
    for line in (d / "expected.csv").read_text().splitlines():
        if not line.strip():
            continue
        name, progress, bound, sat, states, _why = line.split(",", 5)
        base = ["--property", "termination", "--progress", progress, "--bound", bound]
        got = verdicts(base, [name], d).get(name)
        exp = sat if states == "-" else states
        record(got == exp, f"termination/{name} [{progress}, bound {bound}]: expected {exp}, got {got}")
        by_sat = verdicts(base + ["--engine", "sat"], [name], d).get(name)
        record(by_sat == sat, f"termination/{name} [{progress}, bound {bound}, sat]: expected {sat}, got {by_sat}")
        if states != "-" and by_sat in ("PASS", "FAIL"):
            record(by_sat == got, f"termination/{name} [{progress}, bound {bound}]: engines disagree: "
                   f"states {got}, sat {by_sat}")
            agree += by_sat == got
    print(f"own termination tests: the two engines agree on {agree} rows that both decide")


def fragment_membership():
    """tests/litmus/fragment: programs in the interleaving fragment get their
    verdict from the explicit-state engine; programs outside it get UNKNOWN
    from --engine states with the reason; switching an axiom off takes a
    program out."""
    d = ROOT / "tests" / "litmus" / "fragment"
    rows = [l.split(",", 2) for l in (d / "expected.csv").read_text().splitlines() if l.strip()]
    got = verdicts(["--property", "termination", "--engine", "states"], [r[0] for r in rows], d, True)
    for name, exp, _why in rows:
        res = got.get(name)
        if exp in ("PASS", "FAIL"):
            ok = res is not None and res[0] == exp and "states engine" in res[1]
        else:
            ok = res is not None and res[0] == "UNKNOWN" and "not in the interleaving fragment: " in res[1] \
                and exp in res[1]
        record(ok, f"fragment/{name}: expected {exp}, got {res}")
    res = verdicts(["--property", "termination", "--engine", "states", "--no-axiom", "atomic"],
                   ["VK-in-scope-dv.litmus"], d, True).get("VK-in-scope-dv.litmus")
    record(res is not None and res[0] == "UNKNOWN" and "the axiom atomic is switched off" in res[1],
           f"fragment: --no-axiom takes a program out: {res}")


def states_options():
    """--max-states (the default engine falls back on SAT, --engine states
    answers UNKNOWN), --engine states only for termination, --progress lists
    (the table, one JSON line per model, one witness per model), CSV rows of
    one file merged into one check, and the lasso witness and its graph."""
    d = ROOT / "tests" / "litmus" / "termination"
    term = ["--property", "termination"]
    res = verdicts(term + ["--max-states", "5"], ["Exch-both-exit.litmus"], d, True)["Exch-both-exit.litmus"]
    record(res[0] == "UNKNOWN" and "the states engine stopped at 5 states" in res[1], f"--max-states 5: {res}")
    res = verdicts(term + ["--max-states", "5", "--engine", "states"], ["Exch-both-exit.litmus"], d, True)
    record(res["Exch-both-exit.litmus"] == ("UNKNOWN", "more than 5 states"), f"--engine states --max-states 5: {res}")
    p = run(["--engine", "states", "VK-wait-lower.litmus"], d)
    record(p.returncode == 1 and "--engine states decides termination" in p.stderr, f"--engine states, program_spec: {p.stderr}")
    p = run(term + ["--progress", "fair,often", "VK-wait-lower.litmus"], d)
    record(p.returncode == 1 and "unknown progress model 'often'" in p.stderr, f"--progress fair,often: {p.stderr}")
    p = run(term + ["--progress", "all", "VK-wait-lower.litmus"], d)
    want = ("VK-wait-lower.litmus: fair PASS, hsa PASS, obe FAIL (P1 spins, P0 halted), hsa_obe PASS, "
            "lobe PASS, unfair FAIL (P1 spins, P0 halted)\n")
    record(p.stdout == want and p.returncode == 10, f"--progress all table: {p.stdout!r}")
    p = run(term + ["--json", "--progress", "obe,fair", "VK-wait-lower.litmus"], d)
    lines = [json.loads(l) for l in p.stdout.splitlines()]
    record([(o["progress"], o["result"], o["engine"]) for o in lines] == [("fair", "PASS", "states"), ("obe", "FAIL", "states")],
           f"--progress obe,fair --json: {lines}")
    with tempfile.TemporaryDirectory() as tmp:
        for model, verdict in (("fair", "PASS"), ("hsa", "PASS")):
            pathlib.Path(tmp, f"{model}.csv").write_text(f"# property=termination progress={model}\n"
                                                        f"VK-wait-higher.litmus,{verdict},own\n")
        p = run(["--expect", f"{tmp}/fair.csv", "--expect", f"{tmp}/hsa.csv"], d)
        record(p.stdout.endswith("1 passed, 1 failed\n") and "VK-wait-higher.litmus: termination (hsa): expected PASS, got FAIL"
               in p.stdout, f"--expect rows of one file merged: {p.stdout!r}")
        w = pathlib.Path(tmp, "w.json")
        run(term + ["--progress", "fair,unfair", "--witness", str(w), "VK-wait-higher.litmus"], d)
        entries = json.loads(w.read_text())
        record([(e["progress"], e["witness"] is None) for e in entries] == [("fair", True), ("unfair", False)],
               f"--witness with two progress models: {entries}")
        run(term + ["--witness", str(w), "--graph", f"{tmp}/g.dot", "Livelock-pingpong.litmus"], d)
        lasso = json.loads(w.read_text())["witness"]
        stuck = sorted((x["thread"], x["how"]) for x in lasso["stuck"])
        record(lasso["lasso"]["stem"] and lasso["lasso"]["cycle"] and stuck == [(0, "repeats"), (1, "repeats")]
               and "blue: the cycle" in pathlib.Path(tmp, "g.dot").read_text(), f"lasso witness: {lasso.get('lasso')}, {stuck}")


def random_fragment():
    """1,000 seeded random programs of the interleaving fragment, each decided
    by the explicit-state engine under the six progress models and compared
    with SAT wherever SAT decides (tests/random_fragment.py)."""
    p = subprocess.run([sys.executable, str(ROOT / "tests" / "random_fragment.py"), "--count", "1000",
                        "--seed", "1", "--bin", str(BIN)], capture_output=True, text=True, timeout=1800)
    summary = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr
    print(summary)
    record(p.returncode == 0, f"random fragment programs: {summary}\n{p.stdout[-4000:]}")


def own_regressions():
    """Reproducers of fixed bugs, each row NAME,MODEL,PROPERTY,BOUND,VERDICT,reason,
    on the SAT engine with and without symmetry breaking, and for
    program_spec and cat_spec with the last-write key and on the oracle."""
    d = ROOT / "tests" / "litmus" / "regress"
    for line in (d / "expected.csv").read_text().splitlines():
        if not line.strip():
            continue
        name, model, prop, bound, exp, _why = line.split(",", 5)
        runs = [["--engine", "sat"], ["--no-symmetry"]]
        if prop != "termination":   # no symmetry breaking there, and no oracle
            runs += [["--symmetry-key", "last"], ["--engine", "oracle"]]
        for extra in runs:
            res = verdicts(["--model", model, "--property", prop, "--bound", bound] + extra, [name], d,
                           True).get(name)
            ok = res is not None and (res[0] == exp or ("oracle" in extra and oracle_undecided(res)))
            record(ok, f"regress/{name} [{model} {prop} bound {bound} {' '.join(extra)}]: expected {exp}, got {res}")


def symmetry_race():
    """The two symmetry keys raced (bmc/check/race.h): a CAS lock's exact
    counter needs over 100,000 conflicts under the first-write key, so the
    last-write key's session answers; a relaxed lock's lost update is found
    under the first key.  Both on the bench's lock family (tests/bench)."""
    sys.path.insert(0, str(ROOT / "tests" / "bench"))
    import families  # noqa: E402
    with tempfile.TemporaryDirectory() as tmp:
        for family, n, key in (("lock-acqrel", 8, "last"), ("lock-rlx", 8, "first")):
            case = families.generate(family, n, pathlib.Path(tmp))
            o = json.loads(run(["--json"] + case.args + [case.file]).stdout)
            record(o["result"] == case.expected and o.get("symmetry_key") == key,
                   f"symmetry race on {family}-{n}: expected {case.expected} by the {key}-write key, got {o}")
        o = json.loads(run(["--json", "--no-symmetry"] + case.args + [case.file]).stdout)
        record(o["result"] == case.expected and "symmetry_key" not in o,
               f"{family}-{n} --no-symmetry: expected {case.expected} and no symmetry_key, got {o}")


def vacuous_reasons():
    """A PASS that holds only because no execution ends (or passes the
    filter) says so, in the reason and in JSON; an ordinary PASS does not."""
    d = ROOT / "tests" / "litmus" / "regress"
    for name, why in (("forall-vacuous-deadlock.litmus", "vacuously: no execution terminates"),
                      ("not-exists-vacuous-filter.litmus",
                       "vacuously: no execution that terminates satisfies the filter")):
        o = json.loads(run(["--json", name], d).stdout)
        record(o["result"] == "PASS" and o["reason"] == why and o.get("vacuous") is True,
               f"vacuous reason for {name}: {o}")
    o = json.loads(run(["--json", "tests/litmus/ptx/MP+rel.gpu+acq.gpu.litmus"]).stdout)
    record("vacuous" not in o and "vacuously" not in o["reason"], f"no vacuous note on MP+rel.gpu+acq.gpu: {o}")


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


def printer_round_trip():
    """The printer (build/litmus_roundtrip): every own test and, when
    present, every corpus file parses, prints, parses back to an equal AST
    and prints again to the same text."""
    tool = ROOT / "build" / "litmus_roundtrip"
    sets = [("own", sorted(str(f) for f in (ROOT / "tests").rglob("*.litmus")))]
    if (SHARED / "corpus").is_dir():
        sets.append(("corpus", sorted(str(f) for f in (SHARED / "corpus" / "litmus").rglob("*.litmus"))))
    for what, files in sets:
        p = subprocess.run([str(tool)] + files, capture_output=True, text=True, timeout=600)
        m = re.search(r"^(\d+) round trips, (\d+) failed", p.stdout, re.M)
        if not m:
            record(False, f"printer round trip ({what}): no summary: {p.stdout[-500:]} {p.stderr[-500:]}")
            continue
        for line in p.stdout.splitlines()[:-1]:
            record(False, f"printer round trip: {line}")
        for _ in range(int(m.group(1)) - int(m.group(2))):
            record(True, "printer round trip")
        record(int(m.group(1)) >= (len(files) if what == "corpus" else 1), f"printer round trip ({what}): {p.stdout.splitlines()[-1]}")


TRANSFORM = ROOT / "tests" / "transform"


def refine_tool(args):
    """gpubmc --json in tests/transform: one object per result."""
    p = run(["--json"] + args, cwd=TRANSFORM)
    return [json.loads(line) for line in p.stdout.splitlines()]


def state_text(values):
    return " ".join(f"{k}={v};" for k, v in values.items())


def reads_rechecked(details):
    """A new outcome comes with the reads of its execution (the evaluator re-ran it)."""
    return bool(details and details.get("new_outcome") and details.get("reads"))


def transformations():
    """Built-in transformations and --necessary-sync (tests/transform/
    expected.csv): per file and check the overall verdict and every site,
    each matched by line, thread and a piece of its change, with its
    verdict and, when it adds one, a new outcome among the reasoned ones."""
    import csv
    groups = {}
    for row in csv.reader((TRANSFORM / "expected.csv").read_text().splitlines()):
        groups.setdefault((row[0], row[1]), []).append(row)
    for (name, check), rows in groups.items():
        args = ["--necessary-sync"] if check == "necessary-sync" else ["--transform", check]
        got = refine_tool(args + [name])
        what = f"transform/{name} [{check}]"
        if len(got) != 1:
            record(False, f"{what}: no result")
            continue
        o = got[0]
        sites = list((o.get("details") or {}).get("sites", []))
        overall = [r for r in rows if r[2] == "0"]
        record(len(overall) == 1 and o["result"] == overall[0][5], f"{what}: expected {overall[0][5]}, got {o['result']} ({o['reason']})")
        expected = [r for r in rows if r[2] != "0"]
        record(len(expected) == len(sites), f"{what}: {len(expected)} sites expected, {len(sites)} found")
        for _f, _c, line, thread, change, result, new, _why in expected:
            piece = change if change in ("dropped", "runs once", "moved") else f"`{change}`"
            match = [s for s in sites if str(s["line"]) == line and f"P{s['thread']}" == thread and piece in s["change"]]
            ok = len(match) == 1 and match[0]["result"] == result
            if ok and new != "-":
                d = match[0]["details"]
                ok = reads_rechecked(d) and state_text(d["new_outcome"]) in new.split("|")
            record(ok, f"{what}: line {line} {thread} {change}: expected {result} {new}, got {match}")


def refinements():
    """--source refinement (tests/transform/refine.csv): verdicts, new
    outcomes among the reasoned ones, errors naming the thread or register."""
    import csv
    for src, tgt, prop, progress, bound, exp, new, _why in csv.reader((TRANSFORM / "refine.csv").read_text().splitlines()):
        got = refine_tool(["--property", prop, "--progress", progress, "--bound", bound, "--source", src, tgt])
        o = got[0] if got else {"result": None, "reason": ""}
        ok = o["result"] == exp
        if ok and exp == "ERROR":
            ok = new in o["reason"]
        elif ok and new != "-":
            d = o["details"]
            ok = state_text(d["new_outcome"]) in new.split("|") and (exp != "FAIL" or reads_rechecked(d))
        record(ok, f"refine {src} -> {tgt} [{prop} bound {bound}]: expected {exp} {new}, got {o['result']} ({o['reason']})")


def compare_models():
    """--compare-model: the own Vulkan tests under vulkan and vulkan-nochains
    differ exactly on the three chain tests (vulkan-nochains/README: their
    siblings have the opposite verdict), and PTX v6.0 and v7.5 agree on the
    proxy-free transformation examples."""
    got = refine_tool(["--model", "vulkan", "--compare-model", "vulkan-nochains", "../litmus/vulkan"])
    differ = sorted(pathlib.Path(o["file"]).name for o in got if o["result"] == "FAIL")
    record(differ == ["Chain-av-sg-then-wg.litmus", "Chain-av-wg-then-dv.litmus", "Chain-vis-dv-then-wg.litmus"]
           and all(o["result"] in ("PASS", "FAIL") for o in got), f"vulkan vs vulkan-nochains: {differ}")
    got = refine_tool(["--compare-model", "ptx-v6.0", "MP-rel-acq.litmus", "deque-THE.litmus", "IRIW-fence.sc.litmus",
                       "lock-cas.litmus"])
    record([o["result"] for o in got] == ["PASS"] * 4, f"ptx-v7.5 vs ptx-v6.0: {[o['result'] for o in got]}")


def minimize():
    """--minimize-sync (tests/transform/minimize.csv): the weakest program
    equals the one derived by hand, after the number of weakenings derived
    by hand, and passed its re-check from scratch."""
    import csv
    for name, minimal, count, _why in csv.reader((TRANSFORM / "minimize.csv").read_text().splitlines()):
        o = refine_tool(["--minimize-sync", name])[0]
        d = o.get("details") or {}
        ok = o["result"] == "PASS" and len(d.get("sites", [])) == int(count) and "recheck" in d
        if ok:
            with tempfile.TemporaryDirectory() as tmp:
                out = pathlib.Path(tmp) / name
                out.write_text(d["program"])
                p = subprocess.run([str(ROOT / "build" / "litmus_roundtrip"), "--same", str(out), minimal],
                                   cwd=TRANSFORM, capture_output=True, text=True, timeout=60)
                ok = p.returncode == 0
        record(ok, f"minimize {name}: expected {minimal} after {count} weakenings, got {o['result']} ({o['reason']}) {d.get('program')}")


def emit_transformed():
    """--emit-transformed writes each rewritten program, parsing back to the
    program that was checked, and never over its input."""
    with tempfile.TemporaryDirectory() as tmp:
        o = refine_tool(["--transform", "weaken-order", "--emit-transformed", tmp, "MP-rel-acq.litmus"])[0]
        files = sorted(pathlib.Path(tmp).glob("*.litmus"))
        record(o["result"] == "FAIL" and [f.name for f in files] == ["MP-rel-acq.weaken-order.L8.P1.litmus",
                                                                  "MP-rel-acq.weaken-order.L9.P0.litmus"],
               f"emit-transformed names: {[f.name for f in files]}")
        for site in o["details"]["sites"]:
            again = refine_tool(["--source", "MP-rel-acq.litmus", site["file"]])[0]
            record(again["result"] == site["verdict"], f"emitted {site['file']} checks as {again['result']}")
        victim = pathlib.Path(tmp) / "MP-rel-acq.weaken-order.L9.P0.litmus"
        before = victim.read_text()
        p = run(["--transform", "weaken-order", "--emit-transformed", tmp, str(victim)], cwd=TRANSFORM)
        again = list(pathlib.Path(tmp).glob("MP-rel-acq.weaken-order.L9.P0.weaken-order.*.litmus"))
        record(p.returncode in (0, 10) and victim.read_text() == before and len(again) == 2,
               f"emitting beside the input leaves the input alone: {p.returncode} {p.stderr}")
        p = run(["--transform", "weaken-order", "--emit-transformed", tmp, tmp], cwd=TRANSFORM)
        record(p.returncode == 1 and "gpubmc: error:" in p.stderr and victim.read_text() == before,
               f"--emit-transformed into an input directory is refused: {p.stderr}")
    o = refine_tool(["--transform", "weaken-order@3", "MP-rel-acq.litmus"])[0]
    record(o["result"] == "ERROR" and "applies nowhere on line 3" in o["reason"], f"a line without a site: {o['reason']}")
    # a batch of targets in two workers keeps the order, the verdicts and the details of each
    rows = [r for r in __import__("csv").reader((TRANSFORM / "refine.csv").read_text().splitlines())
            if r[0] == "MP-spin-acq.litmus" and r[2] == "program_spec"]
    got = refine_tool(["-j", "2", "--source", "MP-spin-acq.litmus"] + [r[1] for r in rows])
    record([(o["file"], o["result"]) for o in got] == [(r[1], r[5]) for r in rows],
           f"--source batch with -j 2: {[(o['file'], o['result']) for o in got]}")
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = pathlib.Path(tmp) / "e.csv"
        csv_path.write_text("".join(f"{r[1]},{r[5]}\n" for r in rows if r[5] != "ERROR"))
        p = run(["--source", "MP-spin-acq.litmus", "--expect", str(csv_path)], cwd=TRANSFORM)
        record(p.returncode == 0 and p.stdout.strip().endswith("passed, 0 failed"), f"--source with --expect: {p.stdout}")
    for args, what in ((["--source", "MP-rel-acq.litmus", "--transform", "reorder"], "two modes"),
                       (["--emit-transformed", "/tmp"], "--emit-transformed without --transform"),
                       (["--necessary-sync", "--outcomes"], "--outcomes with a comparison"),
                       (["--compare-model", "nosuch"], "unknown model to compare with")):
        p = run(args + ["MP-rel-acq.litmus"], cwd=TRANSFORM)
        record(p.returncode == 1 and "gpubmc: error:" in p.stderr, f"usage error for {what}: {p.stderr}")


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


VULKAN_LIVENESS = ["VULKAN-Liveness-Fair", "VULKAN-Liveness-HSA", "VULKAN-Liveness-HSA_OBE",
                   "VULKAN-Liveness-LOBE", "VULKAN-Liveness-OBE"]


def liveness_batch(corpus_dir, extra):
    """The five Vulkan liveness suites in one batch run (bound 4, as the
    scoreboard uses; one check per file covers its progress models):
    {(file, progress): JSON result line}."""
    args = ["--json", "--bound", "4", "-j", "2"] + extra
    for suite in VULKAN_LIVENESS:
        args += ["--expect", str(corpus_dir / "expected" / f"{suite}.csv")]
    p = run(args, corpus_dir)
    return {(o["file"], o["progress"]): o for o in map(json.loads, p.stdout.splitlines())}


def vulkan_liveness():
    """The five Vulkan liveness suites: every row must match, `dartagnan-skips`
    rows (loops that write and terminate) included, which the explicit-state
    engine decides.  Then the same batch on the SAT engine alone: it must match
    every `dartagnan` row and may answer UNKNOWN only on `dartagnan-skips` rows;
    on every row the explicit-state engine decided (a program in the
    interleaving fragment) and SAT decides too, the two engines agree."""
    corpus_dir = SHARED / "corpus"
    if not corpus_dir.is_dir():
        print(f"SKIP Vulkan liveness suites: {corpus_dir} not found")
        return
    source, rows = {}, {}
    for suite in VULKAN_LIVENESS:
        lines = (corpus_dir / "expected" / f"{suite}.csv").read_text().splitlines()
        progress = re.search(r"progress=(\w+)", lines[0]).group(1)
        rows[suite] = []
        for line in lines[1:]:
            if line.strip() and not line.startswith("#"):
                path, _exp, src = line.split(",")
                source[(path, progress)] = src
                rows[suite].append((path, progress))
    default = liveness_batch(corpus_dir, [])
    by_sat = liveness_batch(corpus_dir, ["--engine", "sat"])
    agree = decided = states_rows = 0
    for suite in VULKAN_LIVENESS:
        exact = 0
        for key in rows[suite]:
            o, s = default.get(key), by_sat.get(key)
            ok = o is not None and o.get("match")
            exact += bool(ok)
            record(ok, f"{suite}: {key[0]}: expected {o and o.get('expected')}, got {o and o['result']} ({o and o['reason']})")
            sat_ok = s is not None and (s.get("match") or (source[key] == "dartagnan-skips" and s["result"] == "UNKNOWN"))
            record(sat_ok, f"{suite} [sat]: {key[0]}: expected {s and s.get('expected')}, got {s and s['result']}")
            if o is not None and o.get("engine") == "states":
                states_rows += 1
                if s is not None and s["result"] in ("PASS", "FAIL"):
                    decided += 1
                    record(s["result"] == o["result"], f"{suite}: {key[0]}: engines disagree: "
                           f"states {o['result']}, sat {s['result']}")
                    agree += s["result"] == o["result"]
        skips = sum(1 for k in rows[suite] if source[k] == "dartagnan-skips")
        print(f"{suite:26} {exact}/{len(rows[suite])} match ({skips} dartagnan-skips rows)")
    print(f"Vulkan liveness: the states engine decides {states_rows} rows, SAT {decided} of those, "
          f"and the engines agree on {agree}")


def ptx_liveness_engines():
    """The two PTX liveness suites (matched by the scoreboard with the default
    engines): on every row the explicit-state engine decides, SAT alone
    (--engine sat) must give the same verdict where it decides."""
    corpus_dir = SHARED / "corpus"
    if not corpus_dir.is_dir():
        return
    agree = decided = states_rows = 0
    for suite in ("PTXv6_0-Liveness", "PTXv7_5-Liveness"):
        args = ["--json", "--bound", "4", "-j", "2", "--expect", str(corpus_dir / "expected" / f"{suite}.csv")]
        default = {o["file"]: o for o in map(json.loads, run(args, corpus_dir).stdout.splitlines())}
        by_sat = {o["file"]: o for o in map(json.loads, run(args + ["--engine", "sat"], corpus_dir).stdout.splitlines())}
        for f, o in default.items():
            if o.get("engine") != "states":
                continue
            states_rows += 1
            s = by_sat.get(f)
            if s is not None and s["result"] in ("PASS", "FAIL"):
                decided += 1
                agree += s["result"] == o["result"]
                record(s["result"] == o["result"], f"{suite}: {f}: engines disagree: states {o['result']}, sat {s['result']}")
    print(f"PTX liveness: the states engine decides {states_rows} rows, SAT {decided} of those, "
          f"and the engines agree on {agree}")



# Random cross-check: CROSSCHECK_SEED and CROSSCHECK_N override these.
CROSSCHECK_SEED = 1
CROSSCHECK_N = 3000


def random_crosscheck():
    """Random programs (tests/random/gen.py): the SAT engine, the oracle,
    --no-symmetry and --symmetry-key last agree, and nothing (termination included) errs or crashes.
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
    layout_tests.layout(record)
    own_litmus()
    own_termination()
    fragment_membership()
    states_options()
    random_fragment()
    own_regressions()
    symmetry_race()
    vacuous_reasons()
    error_reporting()
    witness_output()
    ast_dump()
    printer_round_trip()
    transformations()
    refinements()
    minimize()
    compare_models()
    emit_transformed()
    outcome_sets()
    batch_tests.batch_mode(record, run)
    shard_tests.shards(record, BIN)
    trust_tests.trust(record, run)
    explain_tests.explanations_and_graphs(record, run)
    gallery_tests.gallery(record, run)
    random_crosscheck()
    cuda_tests.cuda(record, run)
    corpus()
    vulkan_liveness()
    ptx_liveness_engines()
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
