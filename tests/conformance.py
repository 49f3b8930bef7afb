#!/usr/bin/env python3
"""Scores gpubmc on a Dat3M checkout of your own (make conformance DAT3M=DIR).

Dat3M's JUnit tables, DIR/dartagnan/src/test/resources/SUITE-expected.csv,
list `path,1` (the property holds: PASS) or `path,0` (FAIL) per litmus file
under DIR; rows commented out with `;` are the Vulkan liveness tests Dat3M
cannot verify (spin loops with side effects), whose verdicts come from the
forward-progress study: they are scored too.  Each suite is checked with the
settings of its JUnit test (model, property, progress model, loop bound),
all suites in one gpubmc batch run from DIR.  Prints one line per suite,
each mismatch, and 'N passed, N failed'; rows whose file the checkout lacks
are counted apart and do not fail.  Exit status 0 when nothing failed."""
import argparse, json, pathlib, subprocess, sys, tempfile

from testpaths import BIN

# suite -> (model, property, progress, bound): the settings of Dat3M's JUnit
# test for the suite, with the loop bound ../shared/tools/score.py uses
SUITES = {
    "PTXv6_0": ("ptx-v6.0", "program_spec", "fair", 1),
    "PTXv7_5": ("ptx-v7.5", "program_spec", "fair", 1),
    "VULKAN": ("vulkan", "program_spec", "fair", 1),
    "VULKAN-NOCHAINS": ("vulkan-nochains", "program_spec", "fair", 1),
    "VULKAN-DR": ("vulkan", "cat_spec", "fair", 1),
    "VULKAN-DR-NOCHAINS": ("vulkan-nochains", "cat_spec", "fair", 1),
    "PTXv6_0-Liveness": ("ptx-v6.0", "termination", "fair", 1),
    "PTXv7_5-Liveness": ("ptx-v7.5", "termination", "fair", 1),
    "VULKAN-Liveness-Fair": ("vulkan", "termination", "fair", 4),
    "VULKAN-Liveness-HSA": ("vulkan", "termination", "hsa", 4),
    "VULKAN-Liveness-HSA_OBE": ("vulkan", "termination", "hsa_obe", 4),
    "VULKAN-Liveness-LOBE": ("vulkan", "termination", "lobe", 4),
    "VULKAN-Liveness-OBE": ("vulkan", "termination", "obe", 4),
}
VERDICT = {"1": "PASS", "0": "FAIL"}


def read_table(path):
    """(litmus path, PASS|FAIL) per row of a Dat3M expected CSV, `;` rows included."""
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip().lstrip(";").strip()
        if not line or line.startswith("//") or line.startswith("#"):
            continue
        name, _, value = line.rpartition(",")
        if not name or value.strip() not in VERDICT:
            raise ValueError(f"{path}:{n}: expected 'path,0' or 'path,1', got {line!r}")
        rows.append((name.strip(), VERDICT[value.strip()]))
    return rows


def score(dat3m, binary, jobs, wanted):
    """Runs every suite found in the checkout; returns (passed, failed)."""
    resources = dat3m / "dartagnan" / "src" / "test" / "resources"
    suites, missing = {}, {}
    for suite, settings in SUITES.items():
        table = resources / f"{suite}-expected.csv"
        if (wanted and suite not in wanted) or not table.exists():
            continue
        rows = read_table(table)
        suites[suite] = (settings, [r for r in rows if (dat3m / r[0]).is_file()])
        missing[suite] = [r[0] for r in rows if not (dat3m / r[0]).is_file()]
    if not suites:
        sys.exit(f"conformance: no Dat3M tables in {resources} (is {dat3m} a Dat3M checkout?)")
    with tempfile.TemporaryDirectory() as tmp:
        args = [str(binary), "--json", "-j", str(jobs)]
        for suite, ((model, prop, progress, bound), rows) in suites.items():
            if rows:
                csv = pathlib.Path(tmp) / f"{suite}.csv"
                csv.write_text(f"# model={model} property={prop} progress={progress} bound={bound}\n"
                               + "".join(f"{path},{verdict}\n" for path, verdict in rows))
                args += ["--expect", str(csv)]
        p = subprocess.run(args, cwd=dat3m, capture_output=True, text=True)
    results = {}
    for line in p.stdout.splitlines():
        o = json.loads(line)
        results[(o["file"], o["model"], o["property"], o.get("progress", "fair"))] = o
    passed = failed = 0
    for suite, ((model, prop, progress, _bound), rows) in suites.items():
        good = 0
        for path, verdict in rows:
            o = results.get((path, model, prop, progress if prop == "termination" else "fair"))
            if o is not None and o["result"] == verdict:
                good += 1
            else:
                got = f"{o['result']} ({o.get('reason', '')})" if o else "no result"
                print(f"  {suite}: {path}: expected {verdict}, got {got}")
        gone = f", {len(missing[suite])} rows name files the checkout lacks" if missing[suite] else ""
        print(f"{suite:24} {good}/{len(rows)} match{gone}")
        passed, failed = passed + good, failed + len(rows) - good
    if p.returncode not in (0, 10, 20):
        print(p.stderr.strip())
    return passed, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dat3m", required=True, help="a Dat3M checkout (holds litmus/ and dartagnan/)")
    ap.add_argument("--bin", default=str(BIN))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--suite", action="append", default=[], help="only this suite (repeatable)")
    a = ap.parse_args()
    passed, failed = score(pathlib.Path(a.dat3m).resolve(), pathlib.Path(a.bin).resolve(), a.jobs, set(a.suite))
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
