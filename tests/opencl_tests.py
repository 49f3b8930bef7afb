"""The OpenCL dialect and model: the own tests under tests/litmus/opencl
(program_spec) and tests/litmus/opencl-dr (cat_spec) with reasoned
verdicts, checked by the built-in model, by the brute-force oracle (which
may only say UNKNOWN instead) and, when the corpus's opencl.cat is there,
by the cat reader; malformed tests refused at FILE:LINE:COL
(tests/litmus/opencl-errors/expected.csv: file, place, message); the
downstream features on an OpenCL test (outcomes, witness, graph,
explanations, --no-axiom, batches); --map (the compilation to PTX adds
no outcome, the wrong mappings are caught); and, with the corpus, Dat3M's OPENCL
and OPENCL-DR suites: no suite falls below the rows it matched when this
was written, every row answered otherwise is printed, and the built-in
model and --cat opencl.cat agree on every row.

Called by run_tests.py with its record() and run() helpers."""
import csv
import json
import tempfile

from testpaths import CORPUS, ROOT, corpus_missing_note, corpus_present

LITMUS = ROOT / "tests" / "litmus"
OWN = (("opencl", "program_spec"), ("opencl-dr", "cat_spec"))
CAT_FILE = CORPUS / "models" / "opencl.cat"
# The fewest matching rows each suite must keep (the count when this was written).
MIN_MATCH = {"OPENCL": 131, "OPENCL-DR": 30}


def _results(p):
    """{file: JSON object} of a --json run."""
    got = {}
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            o = json.loads(line)
            got[o["file"]] = o
    return got


def _rows(path):
    """(name, verdict) of an own expected.csv."""
    return [(r[0], r[1]) for r in csv.reader(path.read_text().splitlines()) if r and not r[0].startswith("#")]


def own(record, run):
    """The own tests under the built-in model, the oracle and the cat file."""
    engines = [("built-in", ["--model", "opencl"]), ("oracle", ["--model", "opencl", "--engine", "oracle"])]
    if CAT_FILE.exists():
        engines.append(("cat", ["--cat", str(CAT_FILE)]))
    else:
        print(corpus_missing_note("opencl own tests under opencl.cat"))
    for suite, prop in OWN:
        d = LITMUS / suite
        rows = _rows(d / "expected.csv")
        record(len(rows) == len(list(d.glob("*.litmus"))), f"opencl {suite}: every test has a row")
        for what, args in engines:
            got = _results(run(["--json", "--property", prop] + args + [name for name, _ in rows], d))
            for name, expected in rows:
                res = got.get(name, {}).get("result")
                ok = res == expected or (what == "oracle" and res == "UNKNOWN")
                record(ok, f"opencl {suite}/{name} ({what}): expected {expected}, got {res}")


def errors(record, run):
    """Malformed tests: exit 1 and the error at its place."""
    d = LITMUS / "opencl-errors"
    rows = [l.split(",", 2) for l in (d / "expected.csv").read_text().splitlines() if l.strip()]
    record(len(rows) >= 12, f"opencl errors: {len(rows)} error cases")
    for name, place, message in rows:
        p = run([name], d)
        want = f"{name}:{place}: error: {message}"
        record(p.returncode == 1 and want in p.stderr,
               f"opencl error {name}: expected '{want}', got exit {p.returncode}: {p.stderr.strip()!r}")


def features(record, run):
    """Outcomes, witness, graph, explanation, --no-axiom and a batch on OpenCL tests."""
    d = LITMUS / "opencl"
    # x is a non-atomic location: a read of it sees only writes that ghb
    # makes visible (O-NaRfG), and relaxed accesses give no ghb, so r1 is 0
    p = run(["--outcomes", "MP-relaxed-dev.litmus"], d)
    record(p.returncode == 0 and "*> P1:r0=1; P1:r1=0;" in p.stdout and ":> P1:r0=0; P1:r1=0;" in p.stdout
           and "States 2" in p.stdout, f"opencl --outcomes lists MP's two outcomes, the asked one marked: {p.stdout!r}")
    with tempfile.TemporaryDirectory() as tmp:
        wit, dot = f"{tmp}/w.json", f"{tmp}/g.dot"
        p = run(["--witness", wit, "--graph", dot, "MP-relaxed-dev.litmus"], d)
        w = json.loads(open(wit).read())["witness"]
        places = [t["place"] for t in w["threads"]]
        init_tags = [e.get("tags") for e in w["events"] if e["kind"] == "init" and e["location"] == "x"]
        record(places == ["wg 0, dev 0", "wg 1, dev 0"] and init_tags == [["GLOBAL", "NAL"]],
               f"opencl witness: placements {places}, the initial write of x tagged {init_tags}")
        record("digraph" in open(dot).read(), "opencl --graph writes a DOT graph")
    p = run(["--explain", "MP-relacq-dev.litmus"], d)
    record(p.returncode == 10 and "O-NaRfG" in p.stdout, f"opencl --explain names O-NaRfG: {p.stdout.strip()!r}")
    p = run(["--no-axiom", "O-NaRfG", "MP-relacq-dev.litmus"], d)
    record(p.returncode == 0 and "PASS" in p.stdout, f"opencl --no-axiom O-NaRfG allows stale data: {p.stdout!r}")
    p = run(["--property", "cat_spec", "MP-na-relaxed-racy.litmus"], LITMUS / "opencl-dr")
    record(p.returncode == 10 and "(data_race)" in p.stdout, f"opencl cat_spec names data_race: {p.stdout!r}")
    p = run(["--transform", "hoist-acquire", "Spin-MP.litmus"], d)
    record(p.returncode == 0 and "`atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, "
           "memory_scope_device);` after the loop: PASS" in p.stdout,
           f"opencl --transform hoists the spin's acquire to a global fence: {p.stdout + p.stderr!r}")
    p = run(["-j", "2", "--expect", "expected.csv", "."], d)
    n = len(_rows(d / "expected.csv"))
    record(p.returncode == 0 and f"{n} passed, 0 failed" in p.stdout, f"opencl batch: {p.stdout[-200:]!r}")


# --map over tests/litmus/opencl: the tests whose compilation has a new
# outcome, per mapping.  NAL-read-unordered: x is declared int (NAL), so
# opencl.cat lets its atomic read see only ghb-visible writes, and the
# compiled relaxed load may read the other thread's write.  MP-sc-store:
# ptx-v7.5.cat's release pattern takes [F & ACQ_REL] and a fence.sc is
# tagged SC only, so "fence.sc; st.relaxed" releases nothing and the
# guarded read may see 0; a seq_cst store as "fence.sc; st.release" does.
# The wrong mappings are caught: 2+2W-sc without the stores' fence.sc
# (co may form the cycle), LB-relacq, Spin-MP and FetchMax-release-MP
# with relaxed loads for acquire ones (and RS-same-thread-store: the relaxed load reading x = 2
# synchronises with nothing).
# Vulkan (vulkan.cat): no seq_cst order, so the seq_cst SB and 2+2W cycles
# come back (SB-sc-dev, SB-sc-wg-one-group, 2+2W-sc, and SB-sc-fences-dev
# through its seq_cst fences); rs holds RMWs only
# (C++20's release sequence), so x = 2 of RS-same-thread-store continues
# no release sequence; a non-atomic read may read a racing write (only
# flagged racy), so LB-nonatomic-read's cycle closes.  The wrong Vulkan
# mappings are caught: a relaxed release store loses every release/acquire
# MP (MP-sc-store, CAS-acquire-MP, Spin-MP, LB-relacq), and private
# non-atomic accesses take no part in availability and visibility, so
# the data of an MP (also through a barrier, of global or local memory, or
# a release fetch_max) may be read stale.
VK_SC = {"SB-sc-dev.litmus", "SB-sc-wg-one-group.litmus", "SB-sc-fences-dev.litmus", "2+2W-sc.litmus", "NAL-read-unordered.litmus",
         "RS-same-thread-store.litmus", "LB-nonatomic-read.litmus"}
MAP_FAILS = {
    "ptx": {"MP-sc-store.litmus", "NAL-read-unordered.litmus"},
    "ptx-sc-relaxed": {"MP-sc-store.litmus", "NAL-read-unordered.litmus"},
    "ptx-sc-release": {"NAL-read-unordered.litmus"},
    "ptx-no-sc-fence": {"2+2W-sc.litmus", "NAL-read-unordered.litmus"},
    "ptx-relaxed-acquire": {"FetchMax-release-MP.litmus", "LB-relacq.litmus", "MP-sc-store.litmus", "NAL-read-unordered.litmus", "Spin-MP.litmus",
                            "RS-same-thread-store.litmus"},
    "vulkan": VK_SC,
    "vulkan-relaxed-release": VK_SC | {"MP-sc-store.litmus", "CAS-acquire-MP.litmus", "Spin-MP.litmus",
                                       "LB-relacq.litmus"},
    "vulkan-private": VK_SC | {"MP-sc-store.litmus", "CAS-acquire-MP.litmus", "Spin-MP.litmus",
                               "Barrier-MP-global.litmus", "Barrier-MP-local.litmus", "FetchMax-release-MP.litmus"},
}


def mappings(record, run):
    """--map on the own tests: exactly the expected tests gain an outcome;
    racy sources pass vacuously; and, with the corpus, a mapping that
    releases its seq_cst stores adds no outcome to any OPENCL test."""
    d = LITMUS / "opencl"
    names = [name for name, _ in _rows(d / "expected.csv")]
    for m, want in MAP_FAILS.items():
        got = _results(run(["--json", "-j", "2", "--map", m] + names, d))
        fails = {f for f, o in got.items() if o["result"] == "FAIL"}
        others = {f: o["result"] for f, o in got.items() if o["result"] not in ("PASS", "FAIL")}
        record(fails == want and not others and len(got) == len(names),
               f"opencl --map {m}: FAIL on {sorted(fails)} (expected {sorted(want)}), other results {others}")
    p = run(["--map", "ptx", "MP-relacq-dev.litmus"], d)
    record(p.returncode == 0 and "vacuously: the source has a race" in p.stdout,
           f"opencl --map on a racy source passes vacuously: {p.stdout!r}")
    p = run(["--map", "ptx", str(ROOT / "tests" / "litmus" / "ptx" / "MP-weak.litmus")], ROOT)
    record(p.returncode == 1 and "--map compiles OpenCL tests" in p.stdout + p.stderr,
           f"opencl --map refuses a PTX test: {p.stdout + p.stderr!r}")
    extra = CORPUS / "extra"
    if not (extra / "litmus" / "OPENCL").is_dir():
        print(corpus_missing_note("opencl --map over the corpus"))
        return
    for m in ("ptx", "ptx-sc-release", "vulkan"):
        got = _results(run(["--json", "-j", "2", "--timeout", "30", "--map", m, "litmus/OPENCL"], extra))
        fails = sorted(f for f, o in got.items() if o["result"] == "FAIL")
        errors = sorted(f for f, o in got.items() if o["result"] == "ERROR")
        print(f"INFO opencl --map {m} over OPENCL: {len(got)} tests, {len(fails)} FAIL: {fails}")
        record(not errors and (m != "ptx-sc-release" or not fails),
               f"opencl --map {m} over OPENCL: errors {errors}, FAIL {fails}")


def corpus_suites(record, run):
    """Dat3M's OPENCL suites: matched rows, differing rows printed, --cat agreeing."""
    extra = CORPUS / "extra"
    if not corpus_present() or not (extra / "expected" / "OPENCL.csv").exists():
        print(corpus_missing_note("opencl corpus suites"))
        return
    for suite in ("OPENCL", "OPENCL-DR"):
        lines = (extra / "expected" / f"{suite}.csv").read_text().splitlines()
        meta = dict(w.split("=", 1) for w in lines[0].lstrip("# ").split())
        rows = [r[:2] for r in csv.reader(l for l in lines[1:] if l and not l.startswith("#"))]
        files = sorted({path for path, _ in rows})
        base = ["--json", "--property", meta["property"], "-j", "2", "--timeout", "30"]
        builtin = _results(run(base + ["--model", meta["model"]] + files, extra))
        cat = _results(run(base + ["--cat", str(CAT_FILE)] + files, extra))
        match = 0
        for path, expected in rows:
            res = builtin.get(path, {}).get("result")
            if res == expected:
                match += 1
            else:
                print(f"DIFFER {suite} {path}: expected {expected}, got {res} "
                      f"({builtin.get(path, {}).get('reason', '')[:160]})")
            cres = cat.get(path, {}).get("result")
            record(cres == res or res == "ERROR", f"{suite} {path}: built-in {res}, --cat opencl.cat {cres}")
        print(f"INFO {suite}: {match} of {len(rows)} rows match")
        record(match >= MIN_MATCH[suite], f"{suite}: {match} rows match (expected {MIN_MATCH[suite]} or more)")


def opencl(record, run):
    """The OpenCL front end and model: own tests, errors, features, corpus suites."""
    own(record, run)
    errors(record, run)
    features(record, run)
    mappings(record, run)
    corpus_suites(record, run)
