"""One JSON schema for every --json line (issue 29, item 5).

docs/result.schema.json describes a result line of every mode; each line
below, one run per kind of line (plain checks on the SAT engine, the
oracle and the explicit-state engine, several progress models, outcomes,
explanations, expectations, shards, input errors, each comparison with and
without --explain, termination and cat_spec refinement, --observed with a
forbidden state, --emit-cuda, the barrier_divergence lines SPIR-V and
OpenCL files get by default), must validate against it (tests/schema_check.py,
so that no package is needed).  The schema itself must catch what issue 29
found: an empty model, a site with both verdict and result, a reachability
that is not a boolean.

Called with run_tests.py's record(ok, what) and run(args, cwd) helpers."""
import json, pathlib, tempfile

from schema_check import validate
from testpaths import ROOT

SCHEMA = json.loads((ROOT / "docs" / "result.schema.json").read_text())
T = "tests/transform"
PTX = "tests/litmus/ptx"
LOGS = "tests/cuda/logs"


def _runs(tmp):
    """(what, args) of one run per kind of line."""
    return [
        ("plain PASS", [f"{PTX}/MP-weak.litmus"]),
        ("plain FAIL", [f"{PTX}/MP+rel.gpu+acq.gpu.litmus", "--no-axiom", "Causality"]),
        ("oracle", ["--engine", "oracle", f"{PTX}/MP-weak.litmus"]),
        ("outcomes", ["--outcomes", f"{PTX}/MP-weak.litmus"]),
        ("explain", ["--explain", f"{T}/MP-rel-acq.litmus", f"{T}/SB4-fence.sc.litmus"]),
        ("explain, OpenCL", ["--explain"] + [f"tests/litmus/opencl/{n}.litmus" for n in
                                             ("RS-same-thread-store", "MP-local-flag-fences-both", "SB-sc-fences-dev",
                                              "NAL-read-unordered", "Barrier-MP-local")]),
        ("cat_spec", ["--property", "cat_spec", "tests/litmus/vulkan-dr/DR-MP-priv-data.litmus"]),
        ("termination, several progress models", ["--property", "termination", "--progress", "all",
                                                  f"{T}/MP-spin-acq.litmus"]),
        ("termination, explicit states", ["--property", "termination", "--engine", "states",
                                          f"{T}/MP-spin-acq.litmus"]),
        ("expectations", ["--expect", f"{tmp}/e.csv", f"{PTX}/MP-weak.litmus"]),
        ("shard", ["--shard", "1/2", f"{PTX}/MP-weak.litmus", f"{PTX}/SB-weak.litmus"]),
        ("input error", ["tests/errors/alias-cycle.litmus"]),
        ("default properties of SPIR-V and OpenCL (barrier_divergence too)",
         ["tests/spirv/nonuniform-barrier.spvasm", "tests/litmus/divergence/CL-div-uniform.litmus"]),
        ("--source", ["--source", f"{T}/MP-spin-acq.litmus", f"{T}/refine/MP-spin-acq.nospin.litmus",
                      f"{T}/refine/MP-spin-acq.hoisted.litmus", f"{T}/refine/MP-observed.renamed.litmus"]),
        ("--source --explain", ["--explain", "--source", f"{T}/MP-spin-acq.litmus",
                                f"{T}/refine/MP-spin-acq.nospin.litmus"]),
        ("--source termination", ["--property", "termination", "--source", f"{T}/MP-spin-acq.litmus",
                                  f"{T}/refine/MP-spin-acq.stuck.litmus"]),
        ("--source cat_spec", ["--property", "cat_spec", "--source", f"{T}/MP-rel-acq.litmus",
                               f"{T}/MP-relaxed-reads.litmus"]),
        ("--transform", ["--transform", "remove-spin", f"{T}/MP-spin-membar-vk.litmus", f"{T}/MP-rel-acq.litmus"]),
        ("--transform --explain --emit-transformed", ["--explain", "--transform", "weaken-order",
                                                      "--emit-transformed", tmp, f"{T}/MP-rel-acq.litmus"]),
        ("--necessary-sync", ["--necessary-sync", f"{T}/MP-membar-cbar-vk.litmus"]),
        ("--minimize-sync", ["--minimize-sync", f"{T}/MP-membar-cbar-vk.litmus"]),
        ("--compare-model", ["--model", "vulkan", "--compare-model", "vulkan-nochains",
                             "tests/litmus/vulkan/Chain-av-sg-then-wg.litmus"]),
        ("--observed", ["--observed", f"{LOGS}/forbidden.log", f"{PTX}/MP+rel.gpu+acq.gpu.litmus"]),
        ("--observed, allowed", ["--observed", f"{LOGS}/allowed.log", f"{PTX}/SB-weak.litmus"]),
        ("--emit-cuda", ["--emit-cuda", f"{tmp}/cuda", f"{PTX}/MP-weak.litmus"]),
    ]


def _lines(record, run, what, args):
    p = run(["--json"] + args)
    lines = [l for l in p.stdout.splitlines() if l.strip()]
    record(len(lines) > 0, f"schema: {what}: no JSON line ({p.returncode}, {p.stderr[-300:]})")
    return [json.loads(l) for l in lines]


def _every_line(record, run):
    """Every line of every run validates; the fields issue 29 asked for are
    there: engine wherever an engine ran, reachable on plain program_spec
    lines of the SAT engine, model null (not "") on an input error."""
    kinds = set()
    with tempfile.TemporaryDirectory() as tmp:
        (pathlib.Path(tmp) / "e.csv").write_text(f"{PTX}/MP-weak.litmus,PASS\n")
        for what, args in _runs(tmp):
            for o in _lines(record, run, what, args):
                errors = validate(o, SCHEMA)
                record(not errors, f"schema: {what}: {errors[:5]} in {json.dumps(o)[:400]}")
                kinds.add((o.get("details") or {}).get("kind", "plain"))
                ran = o["result"] != "ERROR" and (o.get("details") or {}).get("kind") != "emit-cuda"
                record(not ran or "engine" in o, f"schema: {what}: a line without its engine: {json.dumps(o)[:300]}")
    record(kinds == {"plain", "refinement", "transformation", "necessary-sync", "minimize-sync", "compare-model",
                     "observed", "emit-cuda"}, f"schema: every kind of line was seen: {sorted(kinds)}")
    o = _lines(record, run, "reachable", [f"{PTX}/MP-weak.litmus", f"{PTX}/MP+rel.gpu+acq.gpu.litmus"])
    record([x.get("reachable") for x in o] == [True, False], f"schema: reachable as a boolean: {o}")
    o = _lines(record, run, "error", ["tests/errors/alias-cycle.litmus"])[0]
    record(o["model"] is None, f"schema: an input error has model null: {o}")


def _schema_catches(record):
    """The schema refuses what issue 29 found wrong."""
    good = {"file": "f.litmus", "model": "ptx-v7.5", "property": "program_spec", "result": "PASS",
            "time_ms": 1.0, "reason": "the outcome is reachable", "reachable": True}
    record(validate(good, SCHEMA) == [], f"schema: a good line validates: {validate(good, SCHEMA)}")
    for what, change in (("an empty model", {"model": ""}), ("reachability as text", {"reachable": "yes"}),
                         ("an unknown field", {"verdict": "PASS"}), ("an empty reason", {"reason": ""})):
        record(validate({**good, **change}, SCHEMA) != [], f"schema: refuses {what}")
    site = {"line": 9, "thread": 0, "transformation": "weaken-order", "change": "x", "result": "FAIL",
            "verdict": "FAIL", "reason": "r", "details": None}
    bad = {**good, "details": {"kind": "transformation", "name": "weaken-order", "sites": [site]}}
    record(validate(bad, SCHEMA) != [], "schema: refuses a site with both verdict and result")


def json_schema(record, run):
    """Every JSON line against docs/result.schema.json."""
    _schema_catches(record)
    _every_line(record, run)
