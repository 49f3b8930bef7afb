"""The cmocka unit tests (tests/unit/test_*.c, built into build/tests/):
each binary run with TAP output (CMOCKA_MESSAGE_OUTPUT=TAP), one result per
test case read from its 'ok' / 'not ok' lines; a binary that crashes, exits
non-zero without a failed case, or reports fewer cases than its plan fails."""
import os, re, subprocess

from testlib import record
from testpaths import BUILD, ROOT

TAP_LINE = re.compile(r"^(ok|not ok) (\d+) - (\S+)", re.M)
TAP_PLAN = re.compile(r"^1\.\.(\d+)$", re.M)


def unit_tests():
    sources = sorted((ROOT / "tests" / "unit").glob("test_*.c"))
    for src in sources:
        exe = BUILD / "tests" / src.stem
        if not exe.exists():
            record(False, f"unit: {exe} is not built (make test builds it)")
            continue
        env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="TAP")
        p = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300, env=env)
        cases = TAP_LINE.findall(p.stdout)
        plan = TAP_PLAN.search(p.stdout)
        for status, _n, name in cases:
            record(status == "ok", f"{exe.name}: {name}\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
        planned = int(plan.group(1)) if plan else -1
        record(planned == len(cases) and planned > 0,
               f"{exe.name}: {len(cases)} results for a plan of {planned} (exit {p.returncode})\n{p.stderr[-2000:]}")
        if p.returncode != 0 and all(status == "ok" for status, _n, _name in cases):
            record(False, f"{exe.name} exited with {p.returncode} with no failed case\n{p.stderr[-2000:]}")
