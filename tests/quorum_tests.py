"""Barrier quorums and empty execution sets (issue 26).

Quorums: a quorum barrier passes when it belongs to the largest set of its
occurrence's arrivals whose every quorum that set meets (docs/semantics.md,
Quorums); an unmet quorum blocks its thread instead of leaving no execution.
The verdicts are rows of tests/litmus/regress/expected.csv and
tests/litmus/termination/expected.csv; here, what those rows cannot say:
which threads a termination witness names under every progress model, and
that these answers are not vacuous.

No execution: when the program has no consistent execution at all, every
property says so (JSON "no_execution": true, the reason says "no consistent
execution at all"), a PASS from the empty set is "vacuous" with a reason
starting "vacuously:", on the SAT engine and on the oracle, in the human
line and in the table of several progress models; cat_spec with a filter
no execution ends with is vacuous too, and so is a termination PASS under
a progress model no execution is fair under (per model).  A test with executions carries
neither field.

Called with run_tests.py's record(ok, what) and run(args, cwd) helpers."""
import json

from testpaths import ROOT

REGRESS = ROOT / "tests" / "litmus" / "regress"
NONE = "no consistent execution at all"
PROGRESS = ["fair", "hsa", "obe", "hsa_obe", "lobe", "unfair"]


def _json(run, args, name, cwd=REGRESS):
    """The JSON result lines of one run."""
    p = run(["--json"] + args + [name], cwd)
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def _quorum_witnesses(record, run):
    """ptx-quorum-unmet: both threads wait for ever under every progress
    model, and the answer is not vacuous."""
    rows = []
    for model in ("ptx-v6.0", "ptx-v7.5"):
        rows += _json(run, ["--model", model, "--property", "termination", "--progress", ",".join(PROGRESS),
                            "--bound", "4"], "ptx-quorum-unmet.litmus")
    record(len(rows) == 2 * len(PROGRESS), f"quorum: one termination result per PTX model and progress model: {rows}")
    for o in rows:
        why = o.get("reason", "")
        record(o["result"] == "FAIL" and "P0 waits for ever" in why and "P1 waits for ever" in why
               and "vacuous" not in o and "no_execution" not in o,
               f"quorum: ptx-quorum-unmet {o.get('model')} termination {o.get('progress')}: both threads wait for ever: {o}")
    for prop in ("cat_spec", "program_spec"):
        o = _json(run, ["--property", prop, "--bound", "4"], "ptx-quorum-unmet.litmus")[0]
        record("vacuous" not in o and "no_execution" not in o,
               f"quorum: ptx-quorum-unmet {prop} has executions (they hang): {o}")
    o = _json(run, ["--outcomes", "--bound", "4"], "ptx-quorum-unmet.litmus")[0]
    record(o["result"] == "FAIL" and o["outcomes"]["states"] == [] and "no_execution" not in o,
           f"quorum: ptx-quorum-unmet --outcomes: no final state, but executions that hang: {o}")
    o = _json(run, ["--property", "termination"], "vk-quorum-subset.litmus")[0]
    why = o.get("reason", "")
    record(o["result"] == "FAIL" and "P2 waits for ever" in why and "P0" not in why and "P1" not in why,
           f"quorum: vk-quorum-subset: P2 alone waits (P0 and P1 complete the barrier): {o}")


def _no_execution(record, run):
    """vk-no-execution: every property, engine and output form says so."""
    name = "vk-no-execution.litmus"
    for prop, verdict in (("program_spec", "FAIL"), ("cat_spec", "PASS"), ("termination", "PASS")):
        extras = [[], ["--no-symmetry"]] + ([["--engine", "oracle"]] if prop != "termination" else [])
        for extra in extras:
            o = _json(run, ["--property", prop] + extra, name)[0]
            vacuous_ok = (o.get("vacuous") is True and o["reason"].startswith("vacuously: " + NONE)) \
                if verdict == "PASS" else ("vacuous" not in o and o["reason"].endswith("; " + NONE))
            record(o["result"] == verdict and o.get("no_execution") is True and vacuous_ok,
                   f"no execution: {name} {prop} {' '.join(extra)}: {verdict}, no_execution, "
                   f"vacuous only for a PASS: {o}")
    rows = _json(run, ["--property", "termination", "--progress", "all"], name)
    record(len(rows) == len(PROGRESS) and all(o["result"] == "PASS" and o.get("no_execution") is True
                                              and o.get("vacuous") is True
                                              and o["reason"] == "vacuously: " + NONE for o in rows),
           f"no execution: {name} termination under every progress model: {rows}")
    p = run(["--property", "termination", "--progress", "all", name], REGRESS)
    record(p.stdout.rstrip().endswith("(vacuously: " + NONE + ")"),
           f"no execution: the table of progress models says so: {p.stdout!r}")
    p = run(["--property", "cat_spec", name], REGRESS)
    record(p.stdout.strip() == f"{name}: PASS (vacuously: {NONE})", f"no execution: human line: {p.stdout!r}")
    o = _json(run, ["--outcomes"], name)[0]
    record(o.get("no_execution") is True and o["outcomes"]["states"] == [],
           f"no execution: --outcomes with no state says no_execution: {o}")
    for extra in ([], ["--engine", "oracle"]):
        o = _json(run, extra, "vk-no-execution-forall.litmus")[0]
        record(o["result"] == "PASS" and o.get("vacuous") is True and o.get("no_execution") is True
               and o["reason"].startswith("vacuously: " + NONE),
               f"no execution: forall {' '.join(extra)}: a vacuous PASS that says why: {o}")
    term = ROOT / "tests" / "litmus" / "termination"
    for g in ("fair", "hsa"):
        o = _json(run, ["--property", "termination", "--progress", g], "VK-ssw-spin-unfair.litmus", term)[0]
        record(o["result"] == "PASS" and o.get("vacuous") is True and "no_execution" not in o
               and o["reason"] == f"vacuously: no execution is fair under progress model {g}",
               f"no execution: termination PASS from no fair execution ({g}) says so: {o}")
    rows = _json(run, ["--property", "termination", "--progress", "fair,unfair"], "VK-ssw-spin-unfair.litmus", term)
    record([(o["result"], o.get("vacuous", False)) for o in rows] == [("PASS", True), ("FAIL", False)],
           f"no execution: vacuity per progress model in one session: {rows}")
    o = _json(run, ["--property", "cat_spec"], "cat-filter-vacuous.litmus")[0]
    record(o["result"] == "PASS" and o.get("vacuous") is True and "no_execution" not in o
           and o["reason"] == "vacuously: no execution that terminates satisfies the filter",
           f"no execution: cat_spec with a filter no execution ends with: {o}")
    for prop in ("program_spec", "cat_spec", "termination"):
        o = _json(run, ["--property", prop], "tests/litmus/vulkan-dr/" + _some_vulkan_dr(), ROOT)[0]
        record("vacuous" not in o and "no_execution" not in o, f"no execution: an ordinary test has neither: {o}")


def _some_vulkan_dr():
    """The first Vulkan data-race test's file name."""
    d = ROOT / "tests" / "litmus" / "vulkan-dr"
    return sorted(p.name for p in d.glob("*.litmus"))[0]


def quorum(record, run):
    _quorum_witnesses(record, run)
    _no_execution(record, run)


if __name__ == "__main__":
    import subprocess
    import sys
    from testpaths import BIN
    counts = [0, 0]

    def rec(ok, what):
        counts[0 if ok else 1] += 1
        if not ok:
            print("FAIL", what)

    def run(args, cwd=ROOT):
        return subprocess.run([str(BIN)] + args, cwd=cwd, capture_output=True, text=True, timeout=120)

    quorum(rec, run)
    print(f"{counts[0]} passed, {counts[1]} failed")
    sys.exit(1 if counts[1] else 0)
