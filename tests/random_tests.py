"""Seeded random programs: the interleaving fragment on both termination
engines (tests/random_fragment.py) and the general cross-check of SAT,
oracle and symmetry keys (tests/random/crosscheck.py).  make test runs the
sizes below; make check-all runs longer sweeps from other seeds.
CROSSCHECK_SEED and CROSSCHECK_N override the cross-check's seed and size."""
import os, shutil, subprocess, sys

from testlib import record
from testpaths import BIN, BUILD, ROOT

sys.path.insert(0, str(ROOT / "tests" / "random"))
import crosscheck  # noqa: E402

FRAGMENT_N = 1000
CROSSCHECK_N = 3000


def random_fragment(count, seed=1):
    """count seeded random programs of the interleaving fragment, each decided
    by the explicit-state engine under the six progress models and compared
    with SAT wherever SAT decides (tests/random_fragment.py)."""
    p = subprocess.run([sys.executable, str(ROOT / "tests" / "random_fragment.py"), "--count", str(count),
                        "--seed", str(seed), "--bin", str(BIN)], capture_output=True, text=True, timeout=3600)
    summary = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr
    print(summary)
    record(p.returncode == 0, f"random fragment programs: {summary}\n{p.stdout[-4000:]}")


def random_crosscheck(count, seed=1):
    """count random programs (tests/random/gen.py) and a quarter as many
    OpenCL ones (tests/random/gen_opencl.py) from seed: the SAT engine,
    the oracle, --no-symmetry and --symmetry-key last agree, and nothing
    (termination included) errs or crashes.  One record per program; failing
    programs are kept in build/crosscheck-failures."""
    seed = int(os.environ.get("CROSSCHECK_SEED", seed))
    n = int(os.environ.get("CROSSCHECK_N", count))
    if n <= 0:
        print("SKIP random cross-check: CROSSCHECK_N is 0")
        return
    keep = BUILD / "crosscheck-failures"
    shutil.rmtree(keep, ignore_errors=True)
    lines = []
    s = crosscheck.crosscheck(n, seed, BIN, keep, report=lines.append)
    for line in lines:
        print(line)
    for _ in range(s["programs"] - s["failing_programs"]):
        record(True, "crosscheck")
    for _ in range(s["failing_programs"]):
        record(False, "crosscheck", show=False)
    crosscheck.print_summary(s)
    if s["failing_programs"]:
        print(f"  reproduce: python3 tests/random/crosscheck.py -n {n} --seed {seed}")
