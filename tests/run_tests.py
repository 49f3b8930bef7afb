#!/usr/bin/env python3
"""gpubmc's test runner.  Runs the test groups in order, prints each group's
results and wall and CPU time, and ends with 'N passed, N failed'.

  python3 tests/run_tests.py              every correctness group (make test)
  python3 tests/run_tests.py --all        and the long sweeps (make check-all)
  python3 tests/run_tests.py -k NAME ...  only the group NAME (or those whose name contains NAME)
  python3 tests/run_tests.py --list       the groups, a line each

Groups that need the labelled corpus (../shared/corpus, or GPUBMC_CORPUS)
say that they skip when it is not there; nothing fails for its absence."""
import argparse, resource, sys, time

import batch_honesty_tests
import batch_tests
import cat_tests
import corpus_tests
import cuda_tests
import divergence_tests
import docs_tests
import explain_sync_tests
import explain_tests
import gallery_tests
import json_schema_tests
import layout_tests
import observables_tests
import opencl_tests
import own_tests
import progress_tests
import picture_tests
import quorum_tests
import random_tests
import shard_tests
import spirv_tests
import transform_tests
import trust_tests
import unit_tests
from testlib import TALLY, record, run
from testpaths import BIN

# (name, what it checks, function); run in this order.
GROUPS = [
    ("unit", "cmocka unit tests of the encoders, parser and models", unit_tests.unit_tests),
    ("layout", "includes follow the pipeline; no file over 1,000 lines", lambda: layout_tests.layout(record)),
    ("own-litmus", "own litmus suites on SAT, oracle and both symmetry keys", own_tests.own_litmus),
    ("termination", "own termination tests on both engines", own_tests.own_termination),
    ("fragment", "membership of the interleaving fragment", own_tests.fragment_membership),
    ("states-options", "explicit-state engine options, progress lists, lassos", own_tests.states_options),
    ("regressions", "reproducers of fixed bugs on every engine", own_tests.own_regressions),
    ("symmetry-race", "the two symmetry keys raced on the lock family", own_tests.symmetry_race),
    ("vacuous", "vacuous PASSes say so", own_tests.vacuous_reasons),
    ("quorum", "barrier quorums; no execution is never silently a PASS", lambda: quorum_tests.quorum(record, run)),
    ("errors", "bad input: exit 1 and file:line:col", own_tests.error_reporting),
    ("witness", "witness JSON", own_tests.witness_output),
    ("ast-dump", "the AST dump tool", own_tests.ast_dump),
    ("round-trip", "printer round trip", own_tests.printer_round_trip),
    ("transformations", "built-in transformations and --necessary-sync", transform_tests.transformations),
    ("refinement", "--source refinement", transform_tests.refinements),
    ("telling-outcomes", "new outcomes shown first where the condition looks", transform_tests.telling_outcomes),
    ("observables", "what comparisons observe; unrelated programs refused; outcomes once",
     lambda: observables_tests.observables(record, run)),
    ("observed-marks", "--observed marks *> and :> as herd does", lambda: observables_tests.observed_marks(record, run)),
    ("minimize", "--minimize-sync", transform_tests.minimize),
    ("compare-models", "--compare-model", transform_tests.compare_models),
    ("emit-transformed", "--emit-transformed", transform_tests.emit_transformed),
    ("outcomes", "outcome sets", own_tests.outcome_sets),
    ("batch", "directories, --expect, -j, --shard", lambda: batch_tests.batch_mode(record, run)),
    ("batch-honesty", "streamed results, signals, -j caps, outputs never over inputs, small edges",
     lambda: batch_honesty_tests.batch_honesty(record, run)),
    ("shards", "four shards through GNU parallel give one run", lambda: shard_tests.shards(record, BIN)),
    ("trust", "budgets, signals, writes, options, documentation", lambda: trust_tests.trust(record, run)),
    ("docs", "README and docs/: examples, commands, usage, links", lambda: docs_tests.docs(record, run)),
    ("explain", "--explain sets minimal; graphs", lambda: explain_tests.explanations_and_graphs(record, run)),
    ("explain-sync", "--explain names the release/acquire, fence pair or barrier, comparisons too",
     lambda: explain_sync_tests.explain_sync(record, run)),
    ("json-schema", "every JSON line of every mode against docs/result.schema.json",
     lambda: json_schema_tests.json_schema(record, run)),
    ("pictures", "no overlapping labels in Graphviz's layout, halted threads' row, --graph-dpi",
     lambda: picture_tests.pictures(record, run)),
    ("gallery", "gallery verdicts and pictures", lambda: gallery_tests.gallery(record, run)),
    ("random-fragment", "random fragment programs on both termination engines",
     lambda: random_tests.random_fragment(random_tests.FRAGMENT_N)),
    ("crosscheck", "random programs: SAT, oracle, symmetry keys agree",
     lambda: random_tests.random_crosscheck(random_tests.CROSSCHECK_N)),
    ("cuda", "CUDA harness: emitted programs, a handful compiled, hardware logs", lambda: cuda_tests.cuda(record, run)),
    ("corpus", "the labelled corpus scoreboard", corpus_tests.corpus),
    ("spirv", "SPIR-V kernels: own tests, errors, Dat3M's SPIR-V Vulkan suites", lambda: spirv_tests.spirv(record, run)),
    ("opencl", "OpenCL dialect and model: own tests, errors, --map, the OpenCL suites",
     lambda: opencl_tests.opencl(record, run)),
    ("cat", "--cat: own cat files, errors; built-ins against their cat files", lambda: cat_tests.cat(record, run)),
    ("progress", "strong fairness and per-scope hierarchies: command line, output, CSV, random agreement",
     lambda: progress_tests.progress(record, run)),
    ("barrier-divergence", "--property barrier_divergence: own PTX, Vulkan, SPIR-V and OpenCL tests",
     lambda: divergence_tests.divergence(record, run)),
    ("vulkan-liveness", "Vulkan liveness suites on both engines", corpus_tests.vulkan_liveness),
    ("ptx-liveness", "PTX liveness suites on both engines", corpus_tests.ptx_liveness_engines),
    ("conformance", "make conformance on a Dat3M-shaped view of the corpus", corpus_tests.conformance_view),
]

# The long sweeps: only with --all (make check-all).
LONG_GROUPS = [
    ("progress-corpus", "every strong-fairness CADP suite and SPIRV-VULKAN-Liveness by the scoreboard",
     lambda: progress_tests.progress_corpus(record, run)),
    ("cuda-compile-all", "nvcc over every emitted PTX program (own and corpus)",
     lambda: cuda_tests.compile_all(record)),
    ("random-fragment-long", "5,000 more random fragment programs",
     lambda: random_tests.random_fragment(5000, seed=10001)),
    ("crosscheck-long", "10,000 more random programs", lambda: random_tests.random_crosscheck(10000, seed=20001)),
    ("cat-long", "--cat on the Vulkan liveness suites; 10,000 random programs per dialect (PTX, Vulkan, OpenCL)", lambda: cat_tests.cat_long(record, run)),
]


def selects(k, name, groups):
    """-k NAME picks the group called NAME, or else every group whose name contains it."""
    exact = any(g[0] == k for g in groups)
    return name == k if exact else k in name


def children_cpu():
    """CPU seconds used so far by finished child processes."""
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def run_group(name, fn):
    """Runs one group and prints its tally and its wall and CPU time."""
    before = (TALLY.passed, TALLY.failed, time.monotonic(), children_cpu())
    print(f"== {name}", flush=True)
    try:
        fn()
    except Exception as e:   # a broken group fails, the others still run
        record(False, f"{name}: {type(e).__name__}: {e}")
    wall, cpu = time.monotonic() - before[2], children_cpu() - before[3]
    print(f"== {name}: {TALLY.passed - before[0]} passed, {TALLY.failed - before[1]} failed "
          f"({wall:.1f} s wall, {cpu:.1f} s CPU)", flush=True)
    return name, wall, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-k", action="append", default=[], metavar="NAME",
                    help="run only the group NAME, or the groups whose name contains NAME (repeatable)")
    ap.add_argument("--all", action="store_true", help="also the long sweeps (make check-all)")
    ap.add_argument("--list", action="store_true", help="list the groups and exit")
    args = ap.parse_args()
    groups = GROUPS + LONG_GROUPS if args.all or args.k else GROUPS
    if args.list:
        for name, what, _fn in GROUPS + LONG_GROUPS:
            tier = " (check-all)" if (name, what, _fn) in LONG_GROUPS else ""
            print(f"{name:22} {what}{tier}")
        return 0
    chosen = [g for g in groups if not args.k or any(selects(k, g[0], groups) for k in args.k)]
    if not chosen:
        print(f"no group matches {' '.join(args.k)} (--list names them)")
        return 2
    if not BIN.exists():
        print(f"{BIN} is not built: run make test")
        return 2
    start = time.monotonic()
    times = [run_group(name, fn) for name, _what, fn in chosen]
    slowest = ", ".join(f"{n} {w:.0f} s" for n, w, _c in sorted(times, key=lambda t: -t[1])[:5])
    print(f"time: {time.monotonic() - start:.0f} s wall, {sum(c for _n, _w, c in times):.0f} s CPU in "
          f"child processes; slowest: {slowest}")
    print(f"{TALLY.passed} passed, {TALLY.failed} failed")
    return 0 if TALLY.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
