"""The test runner's shared helpers: one tally of results, gpubmc run from
the project root, and its --json verdicts.  Every group module takes
record() and run() from here (or is handed them by run_tests.py)."""
import json
import pathlib
import subprocess

from testpaths import BIN, ROOT


class Tally:
    """Counts passed and failed results; prints each failure once."""

    def __init__(self):
        self.passed = self.failed = 0

    def record(self, ok, what, show=True):
        """One result: ok or not, with what it checked (printed on failure)."""
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            if show:
                print(f"FAIL {what}")


TALLY = Tally()
record = TALLY.record


def run(args, cwd=ROOT, timeout=120):
    """build/gpubmc with args, in cwd: the finished process, text output."""
    return subprocess.run([str(BIN)] + [str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def verdicts(args, files, cwd, with_reason=False, timeout=120):
    """{file: result} (or {file: (result, reason)}) of one --json run."""
    p = run(["--json"] + args + files, cwd, timeout)
    got = {}
    asked = any("barrier_divergence" in str(a) for a in args)
    for line in p.stdout.splitlines():
        o = json.loads(line)
        if o.get("property") == "barrier_divergence" and not asked:
            continue   # the check SPIR-V and OpenCL files get by default besides the one asked for
        got[o["file"]] = (o["result"], o.get("reason", "")) if with_reason else o["result"]
    return got


def child_pids(pid):
    """The processes whose parent is pid (from /proc)."""
    kids = []
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids
