"""--cat FILE: the cat reader on the project's own cat files (tests/cat/, with
reasoned verdicts and exact error lines), and, with the labelled corpus,
the built-in models checked against their cat files: the own litmus suites
and every corpus row under --cat of its model's cat file, and the
built-in against --cat on random programs (tests/cat/compare_random.py)."""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

from testpaths import BIN, CORPUS, ROOT, corpus_missing_note, corpus_present

CAT_DIR = ROOT / "tests" / "cat"
# own litmus suites under tests/litmus: directory, model (its cat file), property
OWN_SUITES = (("ptx", "ptx-v6.0", "program_spec"), ("ptx75", "ptx-v7.5", "program_spec"),
              ("vulkan", "vulkan", "program_spec"), ("vulkan-nochains", "vulkan-nochains", "program_spec"),
              ("vulkan-dr", "vulkan", "cat_spec"))
RANDOM_COUNT, RANDOM_SEED = 200, 1


def results(run, args, cwd):
    """{file: JSON object} of one --json run."""
    p = run(["--json"] + args, cwd)
    out = {}
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            o = json.loads(line)
            out[o["file"]] = o
    return out


def csv_rows(path):
    """(path, expected) of a CSV's rows."""
    rows = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, exp = line.split(",")[:2]
            rows.append((name, exp))
    return rows


def own_cat_files(record, run):
    """The own cat files against their reasoned verdicts."""
    for model, csv in (("sc.cat", "expected-sc.csv"), ("sc-rec.cat", "expected-sc.csv"),
                       ("race.cat", "expected-race.csv")):
        got = results(run, ["--cat", model, "--expect", csv], CAT_DIR)
        for name, exp in csv_rows(CAT_DIR / csv):
            res = got.get(name, {}).get("result")
            record(res == exp, f"cat: {name} under {model}: expected {exp}, got {res}")
    got = results(run, ["--cat", "sc.cat", "--compare-model", "coherence.cat", "../litmus/ptx/MP-weak.litmus",
                        "one-thread.litmus"], CAT_DIR)
    for name, exp in (("../litmus/ptx/MP-weak.litmus", "FAIL"), ("one-thread.litmus", "PASS")):
        res = got.get(name, {}).get("result")
        record(res == exp, f"cat: --compare-model coherence.cat on {name}: expected {exp}, got {res}")
    got = results(run, ["--cat", "sc.cat", "--explain", "../litmus/ptx/MP-weak.litmus"], CAT_DIR)
    reason = got.get("../litmus/ptx/MP-weak.litmus", {}).get("reason", "")
    record("forbidden by sc" in reason and "-fr->" in reason, f"cat: --explain names sc.cat's axiom: {reason}")


def thin_air_rule(record, run):
    """The oracle's thin-air rule under --cat: an acyclic axiom over a union
    with rf, addr, data and ctrl among its terms forbids value cycles,
    whatever its name (no-thin-air.cat calls it causal-order and reaches
    the dependencies through a let); an acyclic axiom over rf | data alone
    (data-order.cat) forbids the same load-buffering cycle on the SAT
    engine, but the oracle must leave the value cycle undecided, as it must
    once the rule's axiom is switched off (then it finds the thin-air value
    1 among its guesses: PASS)."""
    lb = "../litmus/ptx/LB+datas.litmus"   # exists r0 == 1 /\ r1 == 1, only out of thin air
    cases = ((["--cat", "no-thin-air.cat"], "FAIL", "FAIL"),
             (["--cat", "data-order.cat"], "FAIL", "UNKNOWN"),
             (["--cat", "no-thin-air.cat", "--no-axiom", "causal-order"], "PASS", "PASS"))
    for args, sat, oracle in cases:
        for engine, exp in (("sat", sat), ("oracle", oracle)):
            got = results(run, args + ["--engine", engine, lb], CAT_DIR).get(lb, {})
            ok = got.get("result") == exp and (exp != "UNKNOWN" or "value cycles" in got.get("reason", ""))
            record(ok, f"cat: thin-air rule, {' '.join(args)} --engine {engine} on {lb}: expected {exp}, "
                   f"got {got.get('result')} ({got.get('reason')})")


def cat_errors(record, run):
    """Each broken cat file: exit status 1 and the exact first line on stderr."""
    for line in (CAT_DIR / "errors" / "expected-errors.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        model, want = line.split("|", 1)
        p = run(["--cat", model, "one-thread.litmus"], CAT_DIR)
        first = (p.stderr.splitlines() or [""])[0]
        record(p.returncode == 1 and first == want and not p.stdout,
               f"cat: error for {model}: expected status 1 and '{want}', got {p.returncode} and '{first}'")


def own_suites(record, run):
    """The own litmus suites under --cat of their models' cat files, on the
    SAT engine and, but for ptx75 (whose lock test alone takes the oracle
    400,000 candidates: the own group runs it under the built-in model), on
    the oracle, which assumes no program-order fact.  The oracle must
    decide every PTX row (the PTX cat files' NoThinAir plays the thin-air
    axiom); in Vulkan, whose model has none, it may leave a value cycle
    undecided."""
    for suite, model, prop in OWN_SUITES:
        d = ROOT / "tests" / "litmus" / suite
        rows = [l.split(",", 2) for l in (d / "expected.csv").read_text().splitlines() if l.strip()]
        for engine in ("sat", "oracle"):
            if engine == "oracle" and suite == "ptx75":
                continue
            got = results(run, ["--cat", CORPUS / "models" / f"{model}.cat", "--property", prop,
                                "--engine", engine, "--expect", "expected.csv"], d)
            for name, exp, _why in rows:
                o = got.get(name) or got.get(f"./{name}") or {}
                res = o.get("result")
                undecided = (engine == "oracle" and model.startswith("vulkan") and res == "UNKNOWN"
                             and "value cycles" in o.get("reason", ""))
                record(res == exp or undecided, f"cat: {suite}/{name} under {model}.cat [{engine}]: "
                       f"expected {exp}, got {res} ({o.get('reason')})")


def cut_races_built_in_only(record, run):
    """A race in an execution cut at the bound is a FAIL under the built-in
    Vulkan and OpenCL models (docs/semantics.md, "Flags in executions cut at
    the bound"), and UNKNOWN under a --cat model, even the same cat file:
    the argument that the cut prefix extends is made for the built-ins."""
    d = ROOT / "tests" / "litmus" / "regress"
    for name, model in (("vk-loop-race-first-iteration.litmus", "vulkan"),
                        ("cl-loop-race-first-iteration.litmus", "opencl")):
        for how, args, exp in (("built-in", ["--model", model], "FAIL"),
                               ("--cat", ["--cat", CORPUS / "models" / f"{model}.cat"], "UNKNOWN")):
            o = next(iter(results(run, args + ["--property", "cat_spec", "--bound", "1", name], d).values()), {})
            ok = o.get("result") == exp and o.get("cut_at_bound", False) == (exp == "FAIL")
            record(ok, f"cat: {name} at bound 1 under {how} {model}: expected {exp}"
                   f"{' cut at the bound' if exp == 'FAIL' else ''}, got {o}")


def compare_without_axiom(record, run):
    """docs/transformations.md's walk-through: vulkan.cat against a copy
    without its `atomic` axiom on the own Vulkan tests.  Removing `atomic`
    (empty rmw & (fre; (asmo & ext))) adds exactly the outcome in which two
    RMWs of one location, mutually ordered atomics (same virtual address,
    atomic, in each other's scope), both read the initial value; the own
    tests with that shape are the three below, and RMW-alias-atomicity
    (two virtual addresses: no asmo) must not change."""
    want = {"RMW-add-dv-atomicity.litmus", "RMW-add-dv-final.litmus", "RMW-same-name-atomicity.litmus"}
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("stdlib.cat", "vulkan.cat"):
            shutil.copy(CORPUS / "models" / name, tmp)
        text = (pathlib.Path(tmp) / "vulkan.cat").read_text()
        kept = [l for l in text.splitlines() if not l.rstrip().endswith("as atomic")]
        record(len(kept) == len(text.splitlines()) - 1, "cat: vulkan.cat has one line `... as atomic`")
        (pathlib.Path(tmp) / "vulkan-noatomic.cat").write_text("\n".join(kept) + "\n")
        got = results(run, ["--cat", pathlib.Path(tmp) / "vulkan.cat", "--compare-model",
                            pathlib.Path(tmp) / "vulkan-noatomic.cat", "."], ROOT / "tests" / "litmus" / "vulkan")
    changed = {pathlib.Path(f).name for f, o in got.items() if o.get("result") == "FAIL"}
    agree = sum(o.get("result") == "PASS" for o in got.values())
    record(changed == want and agree == len(got) - len(want) and agree > 0,
           f"cat: vulkan.cat without atomic changes {sorted(changed)} ({agree} agree), expected {sorted(want)}")


def corpus_suites(record, run, vulkan_liveness):
    """Every labelled corpus row under --cat of its model's cat file (the
    five Vulkan liveness suites only when vulkan_liveness, as SAT alone
    takes minutes on them: make check-all runs them).  A
    termination row the SAT engine leaves UNKNOWN is run again with
    --engine states, which assumes the interleaving fragment's argument for
    the cat file's model; no run may contradict the label."""
    for csv in sorted((CORPUS / "expected").glob("*.csv")):
        if csv.stem.startswith("VULKAN-Liveness") != vulkan_liveness:
            continue
        meta = dict(kv.split("=", 1) for kv in csv.read_text().splitlines()[0].lstrip("# ").split())
        model, prop = meta["model"], meta["property"]
        bound = "4" if prop == "termination" and model.startswith("vulkan") else "1"
        args = ["--cat", CORPUS / "models" / f"{model}.cat", "--bound", bound, "--timeout", "60",
                "--expect", csv.relative_to(CORPUS)]
        sat = results(run, args, CORPUS)
        states = results(run, args + ["--engine", "states"], CORPUS) if prop == "termination" else {}
        rows = csv_rows(csv)
        matched = 0
        for name, exp in rows:
            a = sat.get(name, {}).get("result")
            b = states.get(name, {}).get("result")
            wrong = [x for x in (a, b) if x in ("PASS", "FAIL") and x != exp]
            ok = not wrong and (a == exp or (a == "UNKNOWN" and b == exp))
            matched += ok
            if not ok:
                record(False, f"cat: {csv.stem} {name} under {model}.cat: expected {exp}, got {a} (states {b})")
        record(matched == len(rows), f"cat: {csv.stem}: {matched}/{len(rows)} rows match under {model}.cat")


def random_agreement(record, count, seed, dialect=None):
    """Built-in models against their cat files on count random programs
    (of one dialect, or of PTX and Vulkan both)."""
    p = subprocess.run([sys.executable, str(CAT_DIR / "compare_random.py"), "--bin", str(BIN),
                        "--corpus", str(CORPUS), "--seed", str(seed), "--count", str(count)]
                       + (["--dialect", dialect] if dialect else []),
                       capture_output=True, text=True, timeout=4 * 3600)
    last = (p.stdout.strip().splitlines() or [""])[-1]
    what = f"{count} random {dialect or 'PTX and Vulkan'} programs (seed {seed})"
    print(f"cat: built-in against --cat on {what}: {last}")
    record(p.returncode == 0 and " 0 differ" in last,
           f"cat: built-in and --cat on {what}: {last}\n{p.stdout[-3000:]}{p.stderr[-1000:]}")


def cat(record, run):
    """The --cat group."""
    own_cat_files(record, run)
    thin_air_rule(record, run)
    cat_errors(record, run)
    if not corpus_present() or not (CORPUS / "models").is_dir():
        print(corpus_missing_note("cat: the corpus cat files, suites and random agreement"))
        return
    own_suites(record, run)
    cut_races_built_in_only(record, run)
    compare_without_axiom(record, run)
    corpus_suites(record, run, vulkan_liveness=False)
    random_agreement(record, RANDOM_COUNT, RANDOM_SEED)
    random_agreement(record, RANDOM_COUNT, RANDOM_SEED, "opencl")


def cat_long(record, run):
    """The long --cat sweeps (make check-all): the Vulkan liveness suites
    under --cat and 10,000 random programs of each dialect."""
    if not corpus_present() or not (CORPUS / "models").is_dir():
        print(corpus_missing_note("cat: the Vulkan liveness suites and random agreement"))
        return
    corpus_suites(record, run, vulkan_liveness=True)
    for dialect in ("ptx", "vulkan", "opencl"):
        random_agreement(record, 10000, 3, dialect)


if __name__ == "__main__":
    from testlib import TALLY, run as run_bin
    cat(TALLY.record, run_bin)
    print(f"{TALLY.passed} passed, {TALLY.failed} failed")
    sys.exit(1 if TALLY.failed else 0)
