"""Batch-mode tests: directories, --expect, -j, --shard, progress line.
Called by run_tests.py with its record() and run() helpers."""
import json, pathlib, tempfile

import expect_rows_tests
from testpaths import ROOT
PTX = ROOT / "tests" / "litmus" / "ptx"


def _results(stdout):
    """JSON lines without their timings, in output order."""
    rows = []
    for line in stdout.splitlines():
        o = json.loads(line)
        o.pop("time_ms", None)
        rows.append(o)
    return rows


def directories(record, run):
    """A directory expands to its .litmus files, recursively and sorted."""
    p = run(["--json", "--model", "ptx-v6.0", "tests/litmus"])
    files = sorted((ROOT / "tests" / "litmus").rglob("*.litmus"))
    want = sorted(str(f.relative_to(ROOT)) for f in files)
    results = _results(p.stdout)
    got = [o["file"] for o in results if o["property"] == "program_spec"]
    record(sorted(got) == want and len(got) == len(want),
           f"batch: a directory gives every .litmus file under it ({len(got)} of {len(want)})")
    opencl = sorted(str(f.relative_to(ROOT)) for f in files if f.read_text().lstrip().startswith(("OPENCL", "OpenCL")))
    divergence = [o["file"] for o in results if o["property"] == "barrier_divergence"]
    record(sorted(divergence) == opencl and len(opencl) > 0,
           f"batch: without --property the OpenCL files, and only they, also get barrier_divergence "
           f"({len(divergence)} of {len(opencl)})")


def expectations(record, run):
    """--expect alone checks every row; a wrong row is a mismatch."""
    rows = [l.split(",")[0:2] for l in (PTX / "expected.csv").read_text().splitlines() if l.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        good = pathlib.Path(tmp) / "good.csv"
        good.write_text("# model=ptx-v6.0 property=program_spec progress=fair\n"
                        + "".join(f"{name},{verdict},own\n" for name, verdict in rows))
        p = run(["--expect", str(good)], cwd=PTX)
        record(p.returncode == 0 and p.stdout.strip() == f"{len(rows)} passed, 0 failed",
               f"batch: --expect with right verdicts passes ({p.returncode}: {p.stdout[-200:]!r})")
        name, verdict = rows[0]
        flipped = "FAIL" if verdict == "PASS" else "PASS"
        bad = pathlib.Path(tmp) / "bad.csv"
        bad.write_text(f"# model=ptx-v6.0\n{name},{flipped},own\n")
        p = run(["--expect", str(bad)], cwd=PTX)
        record(p.returncode == 10 and f"{name}: program_spec: expected {flipped}, got {verdict}" in p.stdout
               and p.stdout.rstrip().endswith("0 passed, 1 failed"),
               f"batch: --expect reports a mismatch ({p.returncode}: {p.stdout[-300:]!r})")
        p = run(["--json", "--expect", str(bad)], cwd=PTX)
        o = _results(p.stdout)
        record(len(o) == 1 and o[0]["expected"] == flipped and o[0]["match"] is False
               and "0 passed, 1 failed" in p.stderr, "batch: --json --expect adds expected and match")
        broken = pathlib.Path(tmp) / "broken.csv"
        broken.write_text("# model=ptx-v6.0 colour=blue\n")
        p = run(["--expect", str(broken)], cwd=PTX)
        record(p.returncode == 1 and f"{broken}:1:" in p.stderr and "colour=blue" in p.stderr,
               f"batch: an unknown CSV header setting is a file:line:col error ({p.stderr!r})")
        broken.write_text("# model=ptx-v6.0\nfoo.litmus,MAYBE\n")
        p = run(["--expect", str(broken)], cwd=PTX)
        record(p.returncode == 1 and f"{broken}:2:12: error" in p.stderr,
               f"batch: a bad CSV row is a file:line:col error ({p.stderr!r})")


def workers_and_shards(record, run):
    """-j N keeps the input order; shards partition the job list."""
    base = ["--json", "--model", "ptx-v6.0", "--property", "program_spec,cat_spec", "tests/litmus/ptx"]
    one = _results(run(base).stdout)
    two = _results(run(["-j", "2"] + base).stdout)
    record(one == two and len(one) > 0, "batch: -j 2 gives the same results in the same order as -j 1")
    shards = [_results(run(["--shard", f"{k}/3"] + base).stdout) for k in (1, 2, 3)]
    merged, places = [None] * len(one), True
    for k, rows in enumerate(shards):
        for i, row in enumerate(rows):
            places = places and row.pop("job", None) == 3 * i + k    # each line names its place
            if 3 * i + k < len(merged):
                merged[3 * i + k] = row
    record(sum(len(s) for s in shards) == len(one) and merged == one and places,
           "batch: shards 1/3, 2/3 and 3/3 interleave to the whole list, each line with its \"job\"")
    for bad in (["-j", "0"], ["-j", "many"], ["--shard", "4/3"], ["--shard", "1-3"]):
        p = run(bad + ["tests/litmus/ptx"])
        record(p.returncode == 1 and "error" in p.stderr, f"batch: {' '.join(bad)} is a usage error")


def quiet_pipe_and_witnesses(record, run):
    """No progress line in a pipe; witnesses survive the workers."""
    with tempfile.TemporaryDirectory() as tmp:
        w = pathlib.Path(tmp) / "w.json"
        files = ["tests/litmus/ptx/MP-weak.litmus", "tests/litmus/ptx/SB-weak.litmus"]
        files = [f for f in files if (ROOT / f).exists()]
        p = run(["-j", "2", "--model", "ptx-v6.0", "--witness", str(w)] + files)
        record(p.stderr == "", f"batch: no progress line on stderr in a pipe ({p.stderr[:100]!r})")
        data = json.loads(w.read_text()) if w.exists() else []
        data = data if isinstance(data, list) else [data]
        record(len(data) == len(files) and all(d["witness"] and d["witness"]["events"] for d in data),
               "batch: -j 2 carries each witness back from its worker")


def rows_through_links(record, run):
    """A CSV row names a file given on the command line through a linked
    directory, a linked file or a plain path alike (each row's realpath)."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        (d / "real").mkdir()
        (d / "real" / "t.litmus").write_text((PTX / "MP-weak.litmus").read_text())
        (d / "dirlink").symlink_to(d / "real")
        (d / "filelink.litmus").symlink_to(d / "real" / "t.litmus")
        for row in ("real/t.litmus", "dirlink/t.litmus", "filelink.litmus", "./real/../real/t.litmus"):
            (d / "rows.csv").write_text(f"# model=ptx-v6.0\n{row},PASS\n")
            o = _results(run(["--json", "--expect", "rows.csv", "real/t.litmus"], cwd=d).stdout)
            record(len(o) == 1 and "expected" in o[0],
                   f"batch: the CSV row {row} names the file real/t.litmus given on the command line ({o})")


def dimacs(record, run):
    """--dimacs writes the first SAT session's clauses, header counts
    true; an unwritable path is a usage error."""
    with tempfile.TemporaryDirectory() as tmp:
        cnf = pathlib.Path(tmp) / "f.cnf"
        p = run(["--json", "--model", "ptx-v6.0", "--dimacs", str(cnf), str(PTX / "MP-weak.litmus")])
        lines = cnf.read_text().splitlines() if cnf.exists() else ["p cnf 0 0"]
        head, clauses = lines[0].split(), [[int(x) for x in l.split()] for l in lines[1:]]
        record(p.returncode in (0, 10) and head[:2] == ["p", "cnf"] and int(head[3]) == len(clauses) > 1
               and all(c and c[-1] == 0 and 0 not in c[:-1] and max(abs(x) for x in c) <= int(head[2])
                       for c in clauses),
               f"batch: --dimacs writes 'p cnf V C' and C clauses over V variables ({lines[:2]})")
        p = run(["--dimacs", str(pathlib.Path(tmp) / "none" / "f.cnf"), str(PTX / "MP-weak.litmus")])
        record(p.returncode == 1 and "--dimacs" in p.stderr, f"batch: an unwritable --dimacs is a usage error "
                                                            f"({p.returncode}: {p.stderr[-200:]!r})")


def batch_mode(record, run):
    """Every batch-mode test."""
    directories(record, run)
    expectations(record, run)
    workers_and_shards(record, run)
    quiet_pipe_and_witnesses(record, run)
    rows_through_links(record, run)
    dimacs(record, run)
    expect_rows_tests.expect_rows(record, run)
