"""The project's own litmus tests with reasoned verdicts: both litmus suites on
every engine, termination and the interleaving fragment, regressions,
symmetry keys, vacuous reasons, error reporting, witnesses, the AST dump,
the printer's round trip and outcome sets.  Needs nothing beside the clone."""
import json, pathlib, re, subprocess, sys, tempfile

from testlib import record, run, verdicts
from testpaths import BUILD, CORPUS, ROOT, corpus_missing_note, corpus_present

# own litmus suites: directory under tests/litmus, model, property
OWN_SUITES = (("ptx", "ptx-v6.0", "program_spec"), ("ptx75", "ptx-v7.5", "program_spec"),
              ("vulkan", "vulkan", "program_spec"), ("vulkan-nochains", "vulkan-nochains", "program_spec"),
              ("vulkan-dr", "vulkan", "cat_spec"))


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
            # the oracle assumes no program-order fact: ptx75's CAS lock alone
            # is 414,046 candidates (16,148 with the facts), a minute of CPU
            got = verdicts(["--model", model, "--property", prop, "--engine", engine] + extra, files, d, True,
                           timeout=600 if engine == "oracle" else 120)
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
        ok = p.returncode == 10 and "race (racy)" in p.stdout
        if ok:
            w = json.loads(out.read_text())["witness"]
            ids = {e["id"]: e for e in w["events"]}
            races = w["flags"].get("racy", [])
            ok = (len(races) == 1 and {ids[a]["kind"] for a in races[0]} == {"read", "write"}
                  and all(ids[a]["location"] == "x" and "SC0" in ids[a]["tags"] for a in races[0]))
        record(ok, "witness JSON names the racing pair of DR-MP-priv-data")


def ast_dump():
    """The AST dump tool parses a test and shows its instructions."""
    p = subprocess.run([str(BUILD / "litmus_dump"), "tests/litmus/ptx/MP-weak.litmus"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    record(p.returncode == 0 and "st.weak" in p.stdout, "litmus_dump on MP-weak")


def printer_round_trip():
    """The printer (build/litmus_roundtrip): every own test and, when
    present, every corpus file (the OpenCL suite's too) parses, prints,
    parses back to an equal AST and prints again to the same text."""
    tool = BUILD / "litmus_roundtrip"
    sets = [("own", sorted(str(f) for f in (ROOT / "tests").rglob("*.litmus")))]
    if corpus_present():
        sets.append(("corpus", sorted(str(f) for f in (CORPUS / "litmus").rglob("*.litmus"))))
        sets.append(("corpus", sorted(str(f) for f in (CORPUS / "extra" / "litmus" / "OPENCL").rglob("*.litmus"))))
    else:
        print(corpus_missing_note("printer round trip over the corpus"))
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


def outcome_sets():
    """Outcome sets (build/outcomes_dump): each own test's reasoned set, the
    JSON form agreeing with the text, the verdict unchanged; every own
    program_spec test keeps its verdict with outcomes on; bad locations lists."""
    tool = BUILD / "outcomes_dump"
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
