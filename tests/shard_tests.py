"""Sharding tests: a labelled suite (the own PTX tests, and the whole
labelled corpus when ../shared/corpus is there) checked in four shards at
once through tests/cluster/shards.sh and GNU parallel (`make deps`
installs it) and merged by tests/cluster/merge.py gives the verdicts,
order, summary and exit status of one run.  Called by run_tests.py with
its record() helper."""
import json, pathlib, subprocess, tempfile

from testpaths import CORPUS, ROOT, corpus_missing_note, corpus_present

SUITE = ROOT / "tests" / "litmus" / "ptx"
CLUSTER = ROOT / "tests" / "cluster"


def _rows(text):
    """JSON lines without their timings."""
    rows = []
    for line in text.splitlines():
        if line.startswith("{"):
            o = json.loads(line)
            o.pop("time_ms", None)
            o.pop("job", None)             # only shards carry it
            rows.append(o)
    return rows


def same_as_one_run(record, binary, what, cwd, args):
    """One run against four shards through shards.sh: same lines, order, summary, exit status."""
    one = subprocess.run([str(binary), "--json"] + args, cwd=cwd, capture_output=True, text=True, timeout=600)
    with tempfile.TemporaryDirectory() as tmp:
        four = subprocess.run([str(CLUSTER / "shards.sh"), "4", tmp, str(binary)] + args, cwd=cwd,
                              capture_output=True, text=True, timeout=600)
        files = sorted(str(p) for p in pathlib.Path(tmp).glob("shard-*.jsonl"))
        merged = subprocess.run(["python3", str(CLUSTER / "merge.py"), "--jsonl"] + files,
                                capture_output=True, text=True, timeout=60)
    record("shards.sh: 4 shards through GNU parallel" in four.stderr,
           f"shards ({what}): run through GNU parallel ({four.stderr.strip()[:200]!r}; `make deps` installs it)")
    want, got = _rows(one.stdout), _rows(merged.stdout)
    record(len(files) == 4 and len(want) > 0 and got == want,
           f"shards ({what}): 4 shards merged give one run's {len(want)} results in its order ({len(got)} merged)")
    tally = one.stderr.strip().splitlines()[-1:] if one.stderr.strip() else []
    record(four.stdout.strip().splitlines()[-1:] == tally and four.returncode == one.returncode,
           f"shards ({what}): the merged summary and exit status are one run's ({four.stdout!r} rc {four.returncode}, "
           f"{tally} rc {one.returncode})")
    return tally


def shards(record, binary):
    same_as_one_run(record, binary, "own PTX tests", SUITE,
                    ["--expect", "expected.csv", "--property", "program_spec,cat_spec"])
    if corpus_present():
        args = []
        for csv in sorted((CORPUS / "expected").glob("*.csv")):
            args += ["--expect", str(csv.relative_to(CORPUS))]
        args += ["--bound", "4"]            # the bound the scoreboard and bench.py use
        tally = same_as_one_run(record, binary, "labelled corpus", CORPUS, args)
        print(f"INFO shards: the labelled corpus in 4 shards through GNU parallel: {' '.join(tally)}")
    else:
        print(corpus_missing_note("shards over the labelled corpus"))
    with tempfile.TemporaryDirectory() as tmp:   # a shard that cannot check anything is reported
        bad = subprocess.run([str(CLUSTER / "shards.sh"), "2", tmp, str(binary), "--expect", "missing.csv"],
                             cwd=SUITE, capture_output=True, text=True, timeout=60)
    record(bad.returncode == 1 and "missing.csv" in bad.stderr,
           f"shards: shards without results are an error naming the cause (rc {bad.returncode}, {bad.stderr!r})")
