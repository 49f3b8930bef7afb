"""The labelled corpus (../shared/corpus, or GPUBMC_CORPUS): the scoreboard's
suites, and the liveness suites on both termination engines.  Each group
says that it skips when the corpus is not there."""
import json, pathlib, re, subprocess, sys, tempfile

from testlib import record, run
from testpaths import BIN, CORPUS, ROOT, SCOREBOARD, corpus_missing_note, corpus_present

# the corpus suites whose models and properties are implemented
SUITES = ["PTXv6_0", "PTXv7_5", "VULKAN", "VULKAN-NOCHAINS", "VULKAN-DR",
          "VULKAN-DR-NOCHAINS", "PTXv6_0-Liveness", "PTXv7_5-Liveness"]


def missing_corpus_files():
    """Rows of the suites' expected CSVs whose litmus file the corpus lacks."""
    corpus_dir = CORPUS
    missing = set()
    for suite in SUITES:
        for line in (corpus_dir / "expected" / f"{suite}.csv").read_text().splitlines():
            path = line.split(",", 1)[0]
            if line.strip() and not line.startswith("#") and not (corpus_dir / path).exists():
                missing.add(path)
    return missing


def corpus():
    """The scoreboard (../shared/tools/score.py) over SUITES: every row must match."""
    score = SCOREBOARD
    if not corpus_present() or not score.exists():
        print(corpus_missing_note("corpus scoreboard") if not corpus_present() else f"SKIP corpus scoreboard: {score} not found")
        return
    missing = missing_corpus_files()
    p = subprocess.run([sys.executable, str(score), "--bin", str(BIN), "--corpus", str(CORPUS), "--suite"] + SUITES,
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
    corpus_dir = CORPUS
    if not corpus_present():
        print(corpus_missing_note("Vulkan liveness suites"))
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
    corpus_dir = CORPUS
    if not corpus_present():
        print(corpus_missing_note("PTX liveness suites on both engines"))
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


def conformance_view():
    """make conformance on a Dat3M-shaped view of the corpus (its litmus/ tree
    and its CSVs written back in Dat3M's `path,1|0` form, the dartagnan-skips
    rows commented out with `;` as Dat3M does) scores every row, as the
    scoreboard does."""
    if not corpus_present():
        print(corpus_missing_note("make conformance on a Dat3M-shaped view of the corpus"))
        return
    import conformance
    with tempfile.TemporaryDirectory() as tmp:
        view = pathlib.Path(tmp)
        (view / "litmus").symlink_to(CORPUS / "litmus")
        resources = view / "dartagnan" / "src" / "test" / "resources"
        resources.mkdir(parents=True)
        rows = 0
        for suite in conformance.SUITES:
            lines = []
            for line in (CORPUS / "expected" / f"{suite}.csv").read_text().splitlines():
                if line.strip() and not line.startswith("#"):
                    path, exp, src = line.split(",")[:3]
                    lines.append(f"{'; ' if src == 'dartagnan-skips' else ''}{path},{1 if exp == 'PASS' else 0}")
                    rows += (CORPUS / path).is_file()
            (resources / f"{suite}-expected.csv").write_text("// a view of the corpus\n" + "\n".join(lines) + "\n")
        p = subprocess.run([sys.executable, str(ROOT / "tests" / "conformance.py"), "--bin", str(BIN),
                            "--dat3m", str(view)], capture_output=True, text=True, timeout=1800)
    last = p.stdout.strip().splitlines()[-1:] or [p.stderr.strip()]
    record(p.returncode == 0 and last == [f"{rows} passed, 0 failed"],
           f"conformance on a Dat3M-shaped view of the corpus: expected {rows} passed, 0 failed; got\n{p.stdout}{p.stderr}")
    print(f"conformance view: {last[0]}")
