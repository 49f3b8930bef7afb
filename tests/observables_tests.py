"""What comparisons observe, and output that reads once (issue 29, items 1
and 3).

Observables, in order: --observe LIST, else the source's locations list,
else the registers and locations its filter and condition name, else every
name both programs have; the JSON details say which ("observed_from") and
the text says it on an "Observed:" line.  A comparison whose observables
are empty, or name what the target lacks, is an ERROR; two unrelated
programs never PASS silently.  A transformation or --necessary-sync prints
the source's outcomes once per file and each site on one line, with its
line in the file (--minimize-sync too); --verbose adds the reads of each
new outcome's execution under its site.

Called with run_tests.py's record(ok, what) and run(args, cwd) helpers."""
import json

from testpaths import ROOT

TRANSFORM = ROOT / "tests" / "transform"
OBSERVE = TRANSFORM / "observe"


def _json(run, args, cwd=TRANSFORM):
    p = run(["--json"] + args, cwd)
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def _order(record, run):
    """Each source of observables, first to last."""
    # --observe P1:r0 alone: weakening MP-rel-acq's release or acquire only
    # changes what r1 reads after r0=1; r0 is 0 or 1 either way: no site
    # adds an outcome over P1:r0.
    o = _json(run, ["--transform", "weaken-order", "--observe", "P1:r0", "MP-rel-acq.litmus"])[0]
    sites = o["details"]["sites"]
    record(o["result"] == "PASS" and all(s["details"]["observed_from"] == "observe"
                                         and s["details"]["source"]["observed"] == ["P1:r0"] for s in sites),
           f"--observe P1:r0 makes the weakenings of MP-rel-acq safe: {o['result']} {o['reason']}")
    # without --observe the condition's P1:r0 and P1:r1: both sites add r0=1 with r1=0
    o = _json(run, ["--transform", "weaken-order", "MP-rel-acq.litmus"])[0]
    d = o["details"]["sites"][0]["details"]
    record(o["result"] == "FAIL" and d["observed_from"] == "condition"
           and d["source"]["observed"] == ["P1:r0", "P1:r1"] and d["new_outcome"] == {"P1:r0": 1, "P1:r1": 0},
           f"the condition's names by default: {d}")
    o = _json(run, ["--transform", "weaken-order", "--observe", "P1:r1 , P1:r0", "MP-rel-acq.litmus"])[0]
    record(o["details"]["sites"][0]["details"]["source"]["observed"] == ["P1:r1", "P1:r0"],
           f"--observe keeps its order and ignores spaces around names: {o['details']['sites'][0]['details']}")
    # refine/MP-observed has a locations list [P1:r1; x]
    o = _json(run, ["--source", "refine/MP-observed.litmus", "refine/MP-observed.relaxed.litmus"])[0]
    record(o["details"]["observed_from"] == "locations" and o["details"]["source"]["observed"] == ["P1:r1", "x"],
           f"the locations list before the condition: {o['details']}")
    # no condition, no locations list: every name both have, and the relaxed
    # release lets the consumer read y=1 and then x=0
    p = run(["--source", "MP-nocond.litmus", "MP-nocond.relaxed.litmus"], OBSERVE)
    record(p.returncode == 10 and "Observed: P1:r0 P1:r1 x y (every name both programs have" in p.stdout
           and "*>" not in p.stdout, f"no condition: every shared name, said so, nothing marked *>: {p.stdout}")


def _refusals(record, run):
    """Empty observables, names the target lacks, unrelated programs."""
    # SB-weak's P1 has r1 only: MP-rel-acq's condition asks for P1:r0
    o = _json(run, ["--source", "MP-rel-acq.litmus", "../litmus/ptx/SB-weak.litmus"])[0]
    record(o["result"] == "ERROR" and "register P1:r0, observed as the source's condition asks" in o["reason"],
           f"an unrelated target is refused by the condition's names: {o['reason']}")
    p = run(["--source", "MP-nocond.litmus", "other-nocond.litmus"], OBSERVE)
    record(p.returncode == 1 and "share no register or location" in p.stderr,
           f"two programs sharing no name are refused: {p.returncode} {p.stderr}")
    p = run(["--source", "MP-nolocations.litmus", "MP-nocond.litmus"], OBSERVE)
    record(p.returncode == 1 and "nothing to observe: the source's locations list is empty" in p.stderr,
           f"an empty locations list is refused: {p.stderr}")
    o = _json(run, ["--transform", "weaken-order", "--observe", "P1:r9", "MP-rel-acq.litmus"])[0]
    record(o["result"] == "ERROR" and "'P1:r9'" in o["reason"], f"--observe of an unknown name: {o['reason']}")
    for args, what in ((["--transform", "weaken-order", "--observe", ","], "an empty --observe"),
                       (["--observe", "P1:r0"], "--observe without a comparison")):
        p = run(args + ["MP-rel-acq.litmus"], TRANSFORM)
        record(p.returncode == 1 and "gpubmc: error: --observe" in p.stderr, f"usage error for {what}: {p.stderr}")


def _once(record, run):
    """SB4-fence.sc: 4 threads, 28 weakenings; its ~exists names the four
    r0, whose 16 combinations minus the all-zero one are the 15 source
    outcomes.  The text is the verdict, the Observed line, one outcome block
    (header and 15 states) and one line per site, nothing else."""
    o = _json(run, ["--necessary-sync", "SB4-fence.sc.litmus"])[0]
    nsites = len(o["details"]["sites"])
    p = run(["--necessary-sync", "SB4-fence.sc.litmus"], TRANSFORM)
    lines = p.stdout.splitlines()
    site_lines = [l for l in lines if l.startswith("  line ")]
    record(nsites == 28 and len(site_lines) == nsites and p.stdout.count("Source outcomes: States 15") == 1
           and len(lines) == 1 + 1 + 1 + 15 + nsites,
           f"--necessary-sync on SB4: {len(lines)} lines for {nsites} sites: {p.stdout}")
    # --verbose: the reads of the new outcome under its site, only then
    plain = run(["--transform", "remove-spin", "MP-spin-membar-vk.litmus"], TRANSFORM).stdout
    verbose = run(["--transform", "remove-spin", "--verbose", "MP-spin-membar-vk.litmus"], TRANSFORM).stdout
    record("Its execution" not in plain and "    Its execution (re-checked by the concrete evaluator):" in verbose
           and "reads 0 from the initial value" in verbose, f"--verbose adds the reads: {plain} / {verbose}")
    # --minimize-sync: MP-membar-cbar-vk drops P0's membar (line 10), then
    # weakens P0's cbar (line 11 of the file, though the drop moved it up
    # in the rewritten program) and P1's cbar (line 9) twice
    o = _json(run, ["--minimize-sync", "MP-membar-cbar-vk.litmus"])[0]
    got = [(s.get("line"), s["thread"]) for s in o["details"]["sites"]]
    record(got == [(10, 0), (11, 0), (9, 1), (9, 1)], f"--minimize-sync sites carry the file's lines: {got}")


def observables(record, run):
    """Observables, refusals, output once per file."""
    _order(record, run)
    _refusals(record, run)
    _once(record, run)


def observed_marks(record, run):
    """--observed marks each state as herd and litmus7 do: *> when it
    satisfies the test's proposition.  The harness logs carry their own
    marks (tests/cuda/logs/allowed.log: MP-weak's `*> 1:r0=1; 1:r1=0;`, the
    one state satisfying exists (P1:r0 == 1 /\\ P1:r1 == 0)); gpubmc's must
    be the same, in JSON and in the text, and an allowed state never
    observed is marked too (SB-weak's r0=0 r1=0, its exists)."""
    log = ROOT / "tests" / "cuda" / "logs" / "allowed.log"
    marks, test = {}, None
    for line in log.read_text().splitlines():
        if line.startswith("Test "):
            test = line.split()[1]
        elif test == "MP-weak" and ">" in line and line.split()[0].isdigit():
            mark, rest = line.split()[1], " ".join(line.split()[2:])
            marks[rest.replace("1:", "P1:")] = mark == "*>"
    o = _json(run, ["--observed", str(log), "../litmus/ptx/MP-weak.litmus"])[0]
    got = {" ".join(f"{k}={v};" for k, v in s["values"].items()): s.get("satisfies") for s in o["details"]["states"]}
    record(len(marks) == 4 and got == marks, f"--observed marks as the log does: {got} vs {marks}")
    p = run(["--observed", str(log), "tests/litmus/ptx/MP-weak.litmus"])
    record("87 *> P1:r0=1; P1:r1=0;  allowed" in p.stdout and p.stdout.count("*>") == 1,
           f"--observed text marks the satisfying state *>: {p.stdout}")
    o = _json(run, ["--observed", str(log), "../litmus/ptx/SB-weak.litmus"])[0]
    record(o["details"]["unobserved"] == [{"values": {"P0:r0": 0, "P1:r1": 0}, "satisfies": True}],
           f"the allowed state never observed is marked: {o['details']['unobserved']}")
