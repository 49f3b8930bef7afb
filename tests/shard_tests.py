"""Sharding tests: a labelled suite checked in four shards at once through
tests/cluster/shards.sh (GNU parallel, or xargs -P without it) and merged
by tests/cluster/merge.py gives the verdicts, order, summary and exit
status of one run.  Called by run_tests.py with its record() helper."""
import json, pathlib, subprocess, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SUITE = ROOT / "tests" / "litmus" / "ptx"
CLUSTER = ROOT / "tests" / "cluster"


def _rows(text):
    """JSON lines without their timings."""
    rows = []
    for line in text.splitlines():
        if line.startswith("{"):
            o = json.loads(line)
            o.pop("time_ms", None)
            rows.append(o)
    return rows


def shards(record, binary):
    args = ["--expect", "expected.csv", "--property", "program_spec,cat_spec"]
    one = subprocess.run([str(binary), "--json"] + args, cwd=SUITE, capture_output=True, text=True, timeout=300)
    with tempfile.TemporaryDirectory() as tmp:
        four = subprocess.run([str(CLUSTER / "shards.sh"), "4", tmp, str(binary)] + args, cwd=SUITE,
                              capture_output=True, text=True, timeout=300)
        files = sorted(str(p) for p in pathlib.Path(tmp).glob("shard-*.jsonl"))
        merged = subprocess.run(["python3", str(CLUSTER / "merge.py"), "--jsonl"] + files,
                                capture_output=True, text=True, timeout=60)
    want, got = _rows(one.stdout), _rows(merged.stdout)
    record(len(files) == 4 and len(want) > 0 and got == want,
           f"shards: 4 shards merged give one run's {len(want)} results in its order ({len(got)} merged)")
    tally = one.stderr.strip().splitlines()[-1:] if one.stderr.strip() else []
    record(four.stdout.strip().splitlines()[-1:] == tally and four.returncode == one.returncode,
           f"shards: the merged summary and exit status are one run's ({four.stdout!r} rc {four.returncode}, "
           f"{tally} rc {one.returncode})")
    with tempfile.TemporaryDirectory() as tmp:   # a shard that cannot check anything is reported
        bad = subprocess.run([str(CLUSTER / "shards.sh"), "2", tmp, str(binary), "--expect", "missing.csv"],
                             cwd=SUITE, capture_output=True, text=True, timeout=60)
    record(bad.returncode == 1 and "missing.csv" in bad.stderr,
           f"shards: shards without results are an error naming the cause (rc {bad.returncode}, {bad.stderr!r})")
