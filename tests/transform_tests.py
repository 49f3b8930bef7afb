"""Comparisons of programs and models (tests/transform): the built-in
transformations and --necessary-sync, --source refinement, --compare-model,
--minimize-sync and --emit-transformed, each against reasoned rows."""
import json, pathlib, subprocess, tempfile

from testlib import record, run
from testpaths import BUILD, ROOT

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
            ok = len(match) == 1 and match[0].get("need", match[0]["result"]) == result
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
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_text(d["program"])
                p = subprocess.run([str(BUILD / "litmus_roundtrip"), "--same", str(out), minimal],
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
        # an emitted file says what it is: a name saying what changed where,
        # a comment naming the change, then the source test's doc string
        doc = '"Message passing with release and acquire at gpu scope, in two CTAs."'
        lines = (pathlib.Path(tmp) / "MP-rel-acq.weaken-order.L9.P0.litmus").read_text().splitlines()
        record(lines[:1] == ["PTX MP-rel-acq+weaken-order@L9.P0"] and lines[2:3] == [doc]
               and lines[1].startswith("(* MP-rel-acq with --transform weaken-order at line 9, P0: `")
               and "->" in lines[1] and lines[1].endswith("*)"),
               f"emitted file keeps the doc string and names the change: {lines[:3]}")
        for site in o["details"]["sites"]:
            again = refine_tool(["--source", "MP-rel-acq.litmus", site["file"]])[0]
            record(again["result"] == site["result"], f"emitted {site['file']} checks as {again['result']}")
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


def telling_outcomes():
    """A new outcome is first sought among the states that tell the test's
    condition what it asks about: removing the spin of a Vulkan consumer
    (~exists P1:r1 == 0) shows the stale read, marked as satisfying; dropping
    a PTX consumer's spin (forall P1:r1 == 1) shows the state that violates
    the forall."""
    o = refine_tool(["--transform", "remove-spin", "MP-spin-membar-vk.litmus"])[0]
    d = o["details"]["sites"][0]["details"]
    record(d["new_outcome"]["P1:r1"] == 0 and d.get("new_outcome_satisfies") is True,
           f"remove-spin shows the stale read as a satisfying state: {d}")
    p = run(["--transform", "remove-spin", "MP-spin-membar-vk.litmus"], cwd=TRANSFORM)
    record(": new outcome *> P1:r1=0;" in p.stdout, f"the satisfying new outcome is marked *>: {p.stdout}")
    o = refine_tool(["--source", "MP-spin-acq.litmus", "refine/MP-spin-acq.nospin.litmus"])[0]
    d = o["details"]
    record(d["new_outcome"]["P1:r1"] == 0 and d.get("new_outcome_satisfies") is False,
           f"--source shows the state that violates the forall: {d}")
