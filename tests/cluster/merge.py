#!/usr/bin/env python3
"""Merges the JSON Lines results of the N shards of one gpubmc batch
(gpubmc --json --shard K/N ..., K = 1..N) into the summary one run would
give.

Usage: merge.py [--jsonl] SHARD.jsonl...

A file named shard-K.jsonl holds shard K (otherwise the files are shards
1..N in the order given).  Each line carries "job", its place in the
whole job list (job % N == K-1), so --jsonl prints every line in the
order one run prints them.  The summary, on stderr with --jsonl and on stdout otherwise, is the
count of each result and, when the run had --expect (lines with "match"),
"N passed, N failed".  What the shards wrote on stderr (shard-K.err
beside each file) is passed on, but for their own "N passed, N failed".  The exit status is one run's: with
--expect 0 when every verdict matches and 10 otherwise; without, 1 when
some check ended in ERROR, else 10 with some FAIL, 20 with some UNKNOWN,
0 when all PASS; 1 when the shards have no results at all.
Standard library only.
"""
import json
import re
import signal
import sys


def shard_number(path, position):
    m = re.search(r"shard-(\d+)\.jsonl$", path)
    return int(m.group(1)) if m else position + 1


def read(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def merge(paths):
    """The rows of all shards, in the order of one run: by "job", the
    place in the whole job list that gpubmc --shard writes on each row
    (a termination job under several progress models has several rows,
    kept in their order)."""
    shards = {shard_number(p, k): read(p) for k, p in enumerate(paths)}
    n = len(shards)
    if sorted(shards) != list(range(1, n + 1)):
        raise SystemExit(f"merge.py: shards {sorted(shards)} are not 1..{n}")
    keyed = []
    for k, rows in shards.items():
        for i, row in enumerate(rows):
            job = row.get("job")
            if not isinstance(job, int) or job % n != k - 1:
                raise SystemExit(f"merge.py: a line of shard {k} has job {job!r}, which is not one of "
                                 f"shard {k} of {n} (were they written by gpubmc --json --shard {k}/{n}?)")
            keyed.append((job, i, row))
    keyed.sort(key=lambda t: (t[0], t[1]))
    jobs = sorted({job for job, _, _ in keyed})
    if jobs and jobs != list(range(jobs[-1] + 1)):
        missing = sorted(set(range(jobs[-1] + 1)) - set(jobs))
        raise SystemExit(f"merge.py: jobs {missing[:10]} are missing (a shard is missing lines)")
    return [row for _, _, row in keyed]


def summary(rows):
    """The summary lines and the exit status of one run with these rows."""
    counts = {}
    for r in rows:
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    lines = [f"{len(rows)} results: " + ", ".join(f"{k} {counts[k]}" for k in sorted(counts))]
    if any("match" in r for r in rows):
        bad = sum(1 for r in rows if not r.get("match"))
        lines.append(f"{len(rows) - bad} passed, {bad} failed")
        return lines, 0 if bad == 0 else 10
    if counts.get("ERROR"):
        return lines, 1
    return lines, 10 if counts.get("FAIL") else 20 if counts.get("UNKNOWN") else 0


def errors(paths):
    """What the shards wrote on stderr (shard-K.err beside shard-K.jsonl)."""
    text = []
    for p in paths:
        try:
            with open(re.sub(r"\.jsonl$", ".err", p)) as f:
                text += [line.rstrip("\n") for line in f          # each shard's own tally is superseded
                         if line.strip() and not re.match(r"\d+ passed, \d+ failed$", line)]
        except OSError:
            pass
    return text


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # | head is no error
    as_jsonl = "--jsonl" in argv
    paths = [a for a in argv if a != "--jsonl"]
    if not paths:
        print(__doc__.strip().splitlines()[4], file=sys.stderr)
        return 2
    rows = merge(paths)
    for line in errors(paths):
        print(line, file=sys.stderr)
    if not rows:
        print("merge.py: the shards have no results", file=sys.stderr)
        return 1
    if as_jsonl:
        for r in rows:
            print(json.dumps(r))
    lines, status = summary(rows)
    for line in lines:
        print(line, file=sys.stderr if as_jsonl else sys.stdout)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
