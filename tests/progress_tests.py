"""Strong fairness and per-scope progress hierarchies (issue 31).

The verdicts of the own tests are rows of tests/litmus/termination/expected.csv
(the termination group runs them on both engines); here, what those rows
cannot say:

- the command line: strong models by name, `all` still the six weak models,
  hierarchies as MODEL;SCOPE=MODEL..., as a list with overrides for every
  model, and as Dat3M's [SCOPE=MODEL,...] (DEFAULT=MODEL); clear usage
  errors for an unknown scope, a strong model as a scope's scheduler, a
  missing bracket;
- one check's progress models that share a lasso share its re-check, each
  keeping the witness it gets alone;
- a SAT check of several models gives each the verdict and vacuity it gets
  alone, though it answers some from others' answers;
- the output: JSON "progress" labels the hierarchy and "progress_scopes"
  names every scope's scheduler; witnesses name the scope whose scheduler
  starves a thread; a strong FAIL names the guaranteed threads of its trap;
- a CSV header progress with a hierarchy or a strong model (--expect);
- the two engines agree on random fragment programs under strong models and
  hierarchies (tests/random_fragment.py --progress), counted.

progress_corpus (long): every strong-fairness CADP row of the corpus, and the
SPIR-V liveness suite's hierarchy rows.

Called with run_tests.py's record(ok, what) and run(args, cwd) helpers."""
import json
import pathlib
import subprocess
import sys
import tempfile

from testpaths import BIN, CORPUS, ROOT, SCOREBOARD, corpus_missing_note, corpus_present

TERM = ROOT / "tests" / "litmus" / "termination"
STRONG = ["fair_strong", "hsa_strong", "obe_strong", "hsa_obe_strong", "lobe_strong"]
RANDOM_N = 120


def _json(run, args, name, cwd=TERM):
    """The JSON result lines of one termination run."""
    p = run(["--json", "--property", "termination"] + args + [name], cwd)
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def _cli(record, run):
    """Names, lists, hierarchies and their errors."""
    rows = _json(run, ["--progress", "all"], "VK-xchg-strong.litmus")
    record([o["progress"] for o in rows] == ["fair", "hsa", "obe", "hsa_obe", "lobe", "unfair"],
           f"progress: --progress all is the six weak models: {[o['progress'] for o in rows]}")
    rows = _json(run, ["--progress", ",".join(STRONG)], "VK-xchg-strong.litmus")
    record([(o["progress"], o["result"]) for o in rows] == [(m, "PASS") for m in STRONG],
           f"progress: every strong model passes the exchange ping-pong: {rows}")
    o = _json(run, ["--progress", "fair;QF=obe"], "VK-hier-wg-wait.litmus")[0]
    record(o["progress"] == "fair;QF=obe" and o["progress_scopes"] == {"DV": "fair", "QF": "obe", "WG": "fair",
                                                                       "SG": "fair"},
           f"progress: JSON names the model per scope: {o}")
    o = _json(run, ["--progress", "[qf=OBE,DEFAULT=hsa]"], "VK-hier-wg-wait.litmus")[0]
    record(o["progress"] == "hsa;QF=obe" and o["progress_scopes"]["SG"] == "hsa",
           f"progress: Dat3M's list form, any case, DEFAULT: {o}")
    o = _json(run, ["--progress", "fair"], "VK-hier-wg-wait.litmus")[0]
    record("progress_scopes" not in o, f"progress: no progress_scopes without a hierarchy: {o}")
    o = _json(run, ["--progress", "fair;CTA=unfair"], "CAS-lock.litmus")[0]
    record(o["progress_scopes"] == {"SYS": "fair", "GPU": "fair", "CTA": "unfair"},
           f"progress: PTX scopes: {o}")
    p = run(["--property", "termination", "--progress", "fair,obe;QF=hsa", "VK-hier-wg-wait.litmus"], TERM)
    record(p.stdout == "VK-hier-wg-wait.litmus: fair;QF=hsa FAIL (P0 spins, P1 halted), obe;QF=hsa FAIL "
           "(P0 spins, P1 halted)\n", f"progress: a list with overrides for every model: {p.stdout!r}")
    for bad, says in (("fair;XX=obe", "unknown scope 'XX'"), ("fair;QF=obe_strong", "QF=obe_strong"),
                      ("[QF=obe", "no closing ']'"), ("strong", "unknown progress model 'strong'"),
                      ("fair;QF", "'QF' is not SCOPE=MODEL")):
        p = run(["--property", "termination", "--progress", bad, "VK-hier-wg-wait.litmus"], TERM)
        record(p.returncode == 1 and says in p.stderr and not p.stdout,
               f"progress: --progress {bad!r} is a usage error naming {says!r}: {p.returncode} {p.stderr!r}")
    p = run(["--progress", "fair;QF=obe", "VK-hier-wg-wait.litmus"], TERM)
    record(p.returncode == 1 and "applies to termination checks" in p.stderr,
           f"progress: a hierarchy without a termination check is refused: {p.stderr!r}")


def _witnesses(record, run):
    """Who starves whom, on both engines; a strong trap's guaranteed threads."""
    for engine in ("states", "sat"):
        o = _json(run, ["--engine", engine, "--progress", "fair;QF=obe"], "VK-hier-wg-wait.litmus")[0]
        record(o["result"] == "FAIL" and "QF 0 (obe) owes WG 1 nothing" in o["reason"],
               f"progress: {engine} names the queue family's OBE scheduler as starving workgroup 1: {o}")
        o = _json(run, ["--engine", engine, "--progress", "fair;SG=unfair"], "VK-hier-sg-wait.litmus")[0]
        record(o["result"] == "FAIL" and "SG 0 (unfair) owes P1 nothing" in o["reason"],
               f"progress: {engine} names the subgroup's unfair scheduler as starving P1: {o}")
    o = _json(run, ["--progress", "hsa_strong", "--bound", "2"], "CAS-lock.litmus")[0]
    record(o["result"] == "FAIL" and "strong fairness" in o["reason"] and "guaranteed threads (P0)" in o["reason"],
           f"progress: a strong trap names its guaranteed threads: {o}")
    with tempfile.TemporaryDirectory() as tmp:
        w = pathlib.Path(tmp, "w.json")
        run(["--property", "termination", "--progress", "obe_strong", "--witness", str(w),
             "VK-wait-lower.litmus"], TERM)
        lasso = json.loads(w.read_text())["witness"]
        stuck = sorted((x["thread"], x["how"]) for x in lasso["stuck"])
        record(lasso["lasso"]["cycle"] and stuck == [(0, "halted"), (1, "spins")],
               f"progress: a strong trap's witness is a checked lasso: {lasso.get('lasso')}, {stuck}")
    o = _json(run, ["--engine", "sat", "--progress", "fair_strong", "--bound", "2"], "VK-xchg-strong.litmus")[0]
    record(o["result"] == "UNKNOWN" and "finds no trap" in o["reason"] and "witness" not in o,
           f"progress: SAT turns a weak livelock into UNKNOWN under strong fairness: {o}")
    o = _json(run, ["--engine", "sat", "--progress", "hsa_strong"], "VK-mp-wait-strong.litmus")[0]
    record(o["result"] == "FAIL" and "guaranteed threads (P0) only spin" in o["reason"],
           f"progress: SAT proves a strong FAIL when the hang's guaranteed threads only spin: {o}")


GATED_SPIN = """PTX gated-spin
{ x = 0; }
 P0@cta 0,gpu 0       | P1@cta 0,gpu 0       ;
 LC00:                | st.relaxed.gpu x, 2  ;
 ld.relaxed.gpu r0, x | LC10:                ;
 bne r0, 0, LC00      | ld.relaxed.gpu r1, x ;
                      | bne r1, 5, LC10      ;
exists (x == 0)
"""


def _shared_lassos(record, run):
    """One check builds and re-checks each lasso once (bmc/check/states_check.c):
    every model's witness in a run of all six is the one a run of that model
    alone gives.  In Spin-flag-never-written, fair, hsa, hsa_obe and lobe
    share a lasso (P0 ends, P1 spins) and obe and unfair share another (P0
    never runs).  In gated-spin (below: P0 spins while x is not 0, P1 writes
    2 and spins for ever) fair and hsa find their cycles in one component,
    once P1 has written: fair's steps both threads, hsa's P0 alone (P1
    halted).  A lasso or a re-check shared wrongly gives one model another's
    witness."""
    def witnesses(name, progress, cwd):
        w = pathlib.Path(cwd, progress + ".json")
        run(["--property", "termination", "--progress", progress, "--witness", str(w), str(name)], cwd)
        d = json.loads(w.read_text())
        w.unlink()
        return {o["progress"]: o["witness"] for o in (d if isinstance(d, list) else [d])}
    with tempfile.TemporaryDirectory() as tmp:
        pathlib.Path(tmp, "gated-spin.litmus").write_text(GATED_SPIN)
        for name, cwd in (("Spin-flag-never-written.litmus", TERM), ("gated-spin.litmus", tmp)):
            with tempfile.TemporaryDirectory() as out:
                together = witnesses(pathlib.Path(cwd, name), "all", out)
                alone = {m: witnesses(pathlib.Path(cwd, name), m, out)[m] for m in together}
            kinds = len({json.dumps(w, sort_keys=True) for w in together.values()})
            record(kinds > 1 and all(together[m] == alone[m] for m in together),
                   f"progress: {name}: lassos shared by progress models are built and re-checked once, each "
                   f"model keeping its own witness: {kinds} witnesses, differing "
                   f"{[m for m in together if together[m] != alone[m]]}")


def _sat_together(record, run):
    """A SAT check of several progress models answers some models from
    others' answers (bmc/check/check.c, struct term_models): each model's
    verdict and vacuity must be the ones it gets alone.  On the own
    termination tests and 40 random programs of each dialect, bound 2,
    the six weak models, the five strong ones, and the six under two
    hierarchies."""
    lists = ["all", ",".join(STRONG), "all;QF=hsa;SG=obe;CTA=lobe", "all;WG=unfair;GPU=hsa"]
    with tempfile.TemporaryDirectory() as tmp:
        for dialect, seed in (("vulkan", "4711"), ("ptx", "4712")):
            subprocess.run([sys.executable, str(ROOT / "tests" / "random" / "gen.py"), "--seed", seed, "--count", "40",
                            "--dialect", dialect, "--out", tmp], check=True, capture_output=True, timeout=120)
        for where in (TERM, pathlib.Path(tmp)):
            for models in lists:
                base = ["--json", "--engine", "sat", "--bound", "2", "--property", "termination", "."]

                def answers(progress):
                    p = run(base + ["--progress", progress], where)
                    rows = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
                    return {(o["file"], o["progress"]): (o["result"], bool(o.get("vacuous"))) for o in rows}
                together = answers(models)
                head, _, scopes = models.partition(";")
                names = ["fair", "hsa", "obe", "hsa_obe", "lobe", "unfair"] if head == "all" else head.split(",")
                alone = {}
                for m in names:
                    alone.update(answers(m + (";" + scopes if scopes else "")))
                differ = [k for k in alone if together.get(k) != alone[k]]
                record(len(together) == len(alone) > 6 * len(names) and not differ,
                       f"progress: SAT, --progress {models} in {where.name}: each model's verdict and vacuity "
                       f"as alone ({len(alone)} answers): differing {differ[:5]}")


def _csv_headers(record, run):
    """--expect with a strong model and a hierarchy in the header."""
    with tempfile.TemporaryDirectory() as tmp:
        a = pathlib.Path(tmp, "a.csv")
        a.write_text("# property=termination progress=fair_strong bound=2\nVK-xchg-strong.litmus,PASS,own\n")
        b = pathlib.Path(tmp, "b.csv")
        b.write_text("# property=termination progress=fair;QF=obe\nVK-hier-wg-wait.litmus,FAIL,own\n"
                     "VK-hier-sg-wait.litmus,PASS,own\n")
        p = run(["--expect", str(a), "--expect", str(b)], TERM)
        record(p.stdout.endswith("3 passed, 0 failed\n"), f"progress: CSV headers with strong and scoped "
               f"progress: {p.stdout!r}")


def _random(record):
    """Both engines on random fragment programs under strong models and hierarchies."""
    for progress in (",".join(STRONG), "all;QF=obe;SG=hsa;GPU=obe;CTA=hsa",
                     "all;WG=unfair;QF=hsa;CTA=unfair;SYS=hsa",
                     "fair_strong,hsa_strong,obe_strong,lobe_strong;QF=hsa;SG=obe;GPU=hsa;CTA=obe"):
        p = subprocess.run([sys.executable, str(ROOT / "tests" / "random_fragment.py"), "--count", str(RANDOM_N),
                            "--seed", "31001", "--bin", str(BIN), "--progress", progress],
                           capture_output=True, text=True, timeout=3600)
        summary = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr
        print(summary)
        record(p.returncode == 0, f"progress: random fragment programs: {summary}\n{p.stdout[-4000:]}")


def progress(record, run):
    """Strong models and hierarchies: command line, output, CSV, random agreement."""
    _cli(record, run)
    _witnesses(record, run)
    _shared_lassos(record, run)
    _sat_together(record, run)
    _csv_headers(record, run)
    _random(record)


def progress_corpus(record, run):
    """Every strong-fairness CADP suite and the SPIR-V liveness suite's
    hierarchies, by the corpus's scoreboard (its SPIR-V rows carry their own
    bound and progress, which --expect does not read)."""
    extra = CORPUS / "extra" / "expected"
    if not corpus_present() or not extra.is_dir() or not SCOREBOARD.is_file():
        print(corpus_missing_note("progress-corpus"))
        return
    suites = sorted(f.stem for f in extra.glob("*-Liveness-Strong-*.csv")) + ["SPIRV-VULKAN-Liveness"]
    p = subprocess.run([sys.executable, str(SCOREBOARD), "--bin", str(BIN), "--corpus", str(CORPUS), "--quiet",
                        "--suite"] + suites, capture_output=True, text=True, timeout=7200)
    lines = p.stdout.strip().splitlines()
    for line in lines:
        if line.split(" ")[0] in suites:
            print(line)
    last = lines[-1] if lines else p.stderr.strip()
    record(len(suites) == 11 and last.endswith(" 0 failed") and " 0 passed" not in last,
           f"progress-corpus: {len(suites)} suites: {last}\n{p.stdout[-3000:]}")
