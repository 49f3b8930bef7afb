"""--explain names the synchronisation (issue 29, item 2).

A compound edge of an explanation's cycle (cause, hb, locord, observation,
sync, sw; OpenCL's ghb, lhb and O-Sscoped's, issue 30) is expanded into the program-order, reads-from and
synchronisation steps that make it, and each synchronisation step is named
as a reader knows it: a release/acquire pattern, a fence pair, a barrier,
with the instructions that supply it and the read through which the
release side reaches the acquire side.  --explain works with the
comparisons: a FAIL says why the source forbids the target's new outcome.

Called with run_tests.py's record(ok, what) and run(args, cwd) helpers."""
import json

from testpaths import CORPUS, ROOT

TRANSFORM = ROOT / "tests" / "transform"
OPENCL = ROOT / "tests" / "litmus" / "opencl"


def _json(run, args):
    p = run(["--json", "--explain"] + args, TRANSFORM)
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def _synchronisations(explanation):
    return [s for e in (explanation or {}).get("evidence", []) for x in e.get("expansions", [])
            for s in x["synchronisation"]]


def _plain(record, run):
    """Plain checks.  MP-rel-acq: st x is ordered before ld x only through
    the release store of y read by the acquire load.  SB4-fence.sc: the
    fr cycle is closed by two SC fences, ordered by the fence order: a
    fence pair with no read between them."""
    o = _json(run, ["MP-rel-acq.litmus"])[0]
    syn = _synchronisations(o.get("explanation"))
    p = run(["--explain", "MP-rel-acq.litmus"], TRANSFORM)
    record(len(syn) == 1 and syn[0]["kind"] == "release/acquire pattern"
           and "the release/acquire pattern e3 P0 `st.release.gpu y, 1` and e4 P1 `ld.acquire.gpu r0, y`" in p.stdout
           and "-po-> e3 P0 `st.release.gpu y, 1` -sync-> e4" in p.stdout,
           f"MP-rel-acq: the release/acquire pattern: {syn} {p.stdout}")
    o = _json(run, ["SB4-fence.sc.litmus"])[0]
    syn = _synchronisations(o.get("explanation"))
    record(len(syn) == 1 and syn[0]["kind"] == "fence pair" and "through" not in syn[0],
           f"SB4: the SC fence pair: {syn}")


def _comparisons(record, run):
    """remove-spin on the ASPLOS'24 consumer (MP-spin-membar-vk): the source
    forbids the stale read because its membar.rel and membar.acq are a fence
    pair, linked by the consumer's atomic read of the producer's flag store;
    without the loop that read may see 0 and the pair no longer orders x.
    The same through --source and a refinement target."""
    o = _json(run, ["--transform", "remove-spin", "MP-spin-membar-vk.litmus"])[0]
    d = o["details"]["sites"][0]["details"]
    syn = _synchronisations(d.get("explanation"))
    record(o["result"] == "FAIL" and len(syn) == 1 and syn[0]["kind"] == "fence pair"
           and "membar.rel" in d["source_forbids"] + str(d["explanation"])
           and len(syn[0].get("through", [])) == 2,
           f"remove-spin: the fence pair whose loss allows the stale read: {d}")
    p = run(["--explain", "--transform", "remove-spin", "MP-spin-membar-vk.litmus"], TRANSFORM)
    record("    Why the source forbids it: without consistency-cycle it is reachable" in p.stdout
           and "the fence pair e3 P0 `membar.rel.dv.semsc0.semav` and e6 P1 `membar.acq.dv.semsc0.semvis` "
               "(e5 P1 `ld.atom.dv.sc0 r0, flag` reads from e4 P0 `st.atom.dv.sc0 flag, 1`)" in p.stdout,
           f"remove-spin --explain text: {p.stdout}")
    o = _json(run, ["--source", "MP-spin-acq.litmus", "refine/MP-spin-acq.nospin.litmus"])[0]
    syn = _synchronisations(o["details"].get("explanation"))
    record(o["result"] == "FAIL" and [s["kind"] for s in syn] == ["release/acquire pattern"],
           f"--source --explain: the release/acquire pattern the target lost: {o['details']}")


def _every_site(record, run):
    """Every FAIL site of --necessary-sync, remove-spin and hoist-acquire
    over every program of tests/transform/ says why the source forbids its
    new outcome and names at least one synchronisation step: each of these
    programs forbids its outcome by synchronisation (that is what they were
    written to show)."""
    total = named = 0
    missing = []
    for f in sorted(TRANSFORM.glob("*.litmus")):
        for mode in (["--necessary-sync"], ["--transform", "remove-spin"], ["--transform", "hoist-acquire"]):
            for o in _json(run, mode + [f.name]):
                for s in (o.get("details") or {}).get("sites", []):
                    if s["result"] != "FAIL":
                        continue
                    total += 1
                    d = s["details"]
                    if "source_forbids" in d and _synchronisations(d.get("explanation")):
                        named += 1
                    else:
                        missing.append((f.name, mode[-1], s["line"], s["change"]))
    record(total > 100 and named == total, f"{named} of {total} FAIL sites name their synchronisation: {missing}")


def _evidence(run, name):
    """The --explain JSON evidence of tests/litmus/opencl/name (its
    program_spec line, the first) and the text output."""
    o = json.loads(run(["--json", "--explain", name], OPENCL).stdout.splitlines()[0])
    return (o.get("explanation") or {}).get("evidence", []), run(["--explain", name], OPENCL).stdout


def _steps(expansion):
    return [(s["from"], s["relation"], s["to"]) for s in expansion["steps"]]


# Each OpenCL case reasoned from opencl.cat.  Events: the initial writes in
# the order the locations are declared, then each work-item's in program
# order.  MP (MP-relacq-dev: x e0, f e1; P0 e2 `*x = 1`, e3 release store of
# f; P1 e4 acquire load of f, e5 `*x`): reading x's initial e0 is ruled out by
# O-NaRfG because e2 is between: e0 -ghb-> e2 (IW * ~IW) and e2 -ghb-> e5,
# which is e2 -po-> e3 -gsw-> e4 -po-> e5, the gsw step ra_sw(GLOBAL) of the
# release store e3 and the acquire load e4 that reads from it, at device
# scope (both default to memory_scope_device; sdv & DV*DV is incl).
# MP-relacq-wg-one-group: the same at work-group scope (swg & WG*WG).
# Barrier-MP-global (x e0; P0 e1 `*x = 1`, e2 barrier; P1 e3 barrier, e4
# `*x`): e1 -po-> e2 -gsw-> e3 -po-> e4, the gsw step bar_sw(GLOBAL) of the
# two barriers (CLK_GLOBAL_MEM_FENCE).  Barrier-MP-local: the same with
# local x and CLK_LOCAL_MEM_FENCE: lhb, lsw, O-NaRfL.
# MP-local-flag-fences-both (x e0, f e1; P0 e2 `*x = 1`, e3 release fence,
# e4 relaxed store of the local f; P1 e5 relaxed load of f, e6 acquire
# fence, e7 `*x`): e3 -gsw-> e6 is ra_sw(LOCAL) (f is local) of the fence
# pair through e5 reading from e4, in gsw by scf because both fences name
# global and local memory.
# RS-same-thread-store (x e0, y e1; P0 e2 store y, e3 release x = 1, e4
# relaxed x = 2; P1 e5 acquire load of x, e6 load of y): O-CohG, e6 -rb-> e2
# -ghb-> e6; the gsw step e3 -> e5 goes through e5 reading from e4, which
# is in e3's release sequence (rs_prime's wi).
# LB-relacq (x e0, y e1; P0 e2 acquire load of x, e3 release store of y; P1
# e4 acquire load of y, e5 release store of x): O-Rf, irreflexive rf; ghb,
# at e3: e3 -rf-> e4 -ghb-> e3, that ghb e4 -po-> e5 -gsw-> e2 -po-> e3.
# CoRR-relaxed (x e0; P0 e1 store x = 1; P1 e2, e3 loads of x reading 1 then
# 0): O-CohG at e3, (rf^-1); mo; rf; ghb: e3 -rb-> e1 -rf-> e2 -po-> e3.
# SB-sc-fences-dev (x e0, y e1; P0 e2 store x, e3 seq_cst fence, e4 load y;
# P1 e5 store y, e6 seq_cst fence, e7 load x): O-Sscoped's cycle e3 -> e6 ->
# e3, each edge Fsb; rb; sbF: e3 -po-> e4 -rb-> e5 -po-> e6 and e6 -po-> e7
# -rb-> e2 -po-> e3, a seq_cst fence pair at device scope.
# NAL-read-unordered (x e0; P0 e1 store x; P1 e2 load x): the read of e1 is
# ruled out because nothing puts e1 ghb-before e2 (no visible write).
def _opencl_release_acquire(record, run):
    """MP at device and work-group scope, the release sequence, O-Rf and
    O-CohG in their own shapes."""
    for name, scope in (("MP-relacq-dev.litmus", "device"), ("MP-relacq-wg-one-group.litmus", "work-group")):
        ev, text = _evidence(run, name)
        e = ev[0] if ev else {}
        hidden = e.get("hidden_by", {})
        x = (e.get("expansions") or [{}])[0]
        record(e.get("axiom") == "O-NaRfG" and e["events"] == [0, 5] and e["edges"] == ["rf"]
               and hidden.get("write") == 2 and hidden.get("events") == [0, 2, 5]
               and hidden.get("edges") == ["ghb", "ghb"] and len(e["expansions"]) == 1
               and _steps(x) == [(2, "po", 3), (3, "gsw", 4), (4, "po", 5)]
               and x["synchronisation"] == [{"kind": "release/acquire pattern", "release": 3, "acquire": 4,
                                             "through": [3, 4], "memory": "global", "scope": scope}],
               f"opencl {name}: e2 hides e0 through the release/acquire pattern e3, e4: {ev}")
        record(f"O-NaRfG: e0 init x -rf-> e5 P1 `*x`, hidden by e2 P0 `*x = 1`: e0 init x -ghb-> e2 P0 `*x = 1` "
               f"-ghb-> e5 P1 `*x`" in text
               and "  ghb is e2 P0 `*x = 1` -po-> e3 P0 `atomic_store_explicit(f, 1, memory_order_release" in text
               and f"; global memory, {scope} scope)" in text, f"opencl {name} --explain text: {text}")
    cat = CORPUS / "models" / "opencl.cat"
    if cat.exists():   # the cat reader exports the same relations: the same steps
        o = json.loads(run(["--json", "--explain", "--cat", str(cat), "MP-relacq-dev.litmus"], OPENCL)
                       .stdout.splitlines()[0])
        ev, _ = _evidence(run, "MP-relacq-dev.litmus")
        got = (o.get("explanation") or {}).get("evidence", [])
        record(got == ev and _synchronisations({"evidence": got}),
               f"opencl --cat opencl.cat: the built-in's explanation: {got} {ev}")
    ev, text = _evidence(run, "RS-same-thread-store.litmus")
    syn = _synchronisations({"evidence": ev})
    record([(e["axiom"], e["events"], e["edges"]) for e in ev] == [("O-CohG", [6, 2], ["rb", "ghb"])]
           and syn == [{"kind": "release/acquire pattern", "release": 3, "acquire": 5, "through": [4, 5],
                        "release_sequence_of": 3, "memory": "global", "scope": "device"}]
           and "reads from e4 P0 `atomic_store_explicit(x, 2, memory_order_relaxed)`, in the release sequence of "
               "e3 P0 `atomic_store_explicit(x, 1, memory_order_release)`; global memory, device scope)" in text,
           f"opencl RS-same-thread-store: x = 2 continues the release sequence of x = 1: {ev} {text}")
    ev, _ = _evidence(run, "LB-relacq.litmus")
    syn = _synchronisations({"evidence": ev})
    record([(e["axiom"], e["events"], e["edges"]) for e in ev] == [("O-Rf", [3, 4], ["rf", "ghb"])]
           and [_steps(x) for x in ev[0]["expansions"]] == [[(4, "po", 5), (5, "gsw", 2), (2, "po", 3)]]
           and [(s["release"], s["acquire"], s["through"]) for s in syn] == [(5, 2, [5, 2])],
           f"opencl LB-relacq: O-Rf as rf; ghb through one release/acquire pattern: {ev}")
    ev, _ = _evidence(run, "CoRR-relaxed.litmus")
    record([(e["axiom"], e["events"], e["edges"], e["expansions"]) for e in ev]
           == [("O-CohG", [3, 1, 2], ["rb", "rf", "po"], [])],
           f"opencl CoRR-relaxed: O-CohG as rb; rf; po: {ev}")
    ev, text = _evidence(run, "NAL-read-unordered.litmus")
    record([(e["axiom"], e["events"], e.get("unordered"), "hidden_by" in e) for e in ev]
           == [("O-NaRfG", [1, 2], True, False)] and ", not ghb-before it" in text,
           f"opencl NAL-read-unordered: the write read is not ghb-before the read: {ev}")


def _opencl_fences_barriers(record, run):
    """Barriers of global and of local memory, a fence pair over local
    memory admitted to ghb by scf, and seq_cst fences closing O-Sscoped."""
    for name, axiom, hb, memory in (("Barrier-MP-global.litmus", "O-NaRfG", "ghb", "global"),
                                     ("Barrier-MP-local.litmus", "O-NaRfL", "lhb", "local")):
        ev, text = _evidence(run, name)
        sw = "gsw" if hb == "ghb" else "lsw"
        record([(e["axiom"], e["events"], e["hidden_by"]["events"], e["hidden_by"]["edges"],
                 [_steps(x) for x in e["expansions"]], _synchronisations({"evidence": [e]})) for e in ev]
               == [(axiom, [0, 4], [0, 1, 4], [hb, hb], [[(1, "po", 2), (2, sw, 3), (3, "po", 4)]],
                    [{"kind": "barrier", "release": 2, "acquire": 3, "memory": memory, "scope": "work-group"}])]
               and f"the barrier e2 P0 `B1: barrier(CLK_{memory.upper()}_MEM_FENCE)` and e3 P1 "
                   f"`B1: barrier(CLK_{memory.upper()}_MEM_FENCE)` ({memory} memory, one work-group)" in text,
               f"opencl {name}: the barrier pair in {hb}: {ev} {text}")
    ev, text = _evidence(run, "MP-local-flag-fences-both.litmus")
    syn = _synchronisations({"evidence": ev})
    record(syn == [{"kind": "fence pair", "release": 3, "acquire": 6, "through": [4, 5], "memory": "local",
                    "scope": "work-group", "scf": "both regions"}]
           and "local memory, work-group scope; in global happens-before too: both fence global and local memory)"
               in text, f"opencl MP-local-flag-fences-both: the local fence pair in ghb by scf: {syn} {text}")
    ev, text = _evidence(run, "SB-sc-fences-dev.litmus")
    e = ev[0] if ev else {}
    record(e.get("axiom") == "O-Sscoped" and e["events"] == [3, 6] and e["edges"] == ["O-Sscoped", "O-Sscoped"]
           and [_steps(x) for x in e["expansions"]] == [[(3, "po", 4), (4, "rb", 5), (5, "po", 6)],
                                                        [(6, "po", 7), (7, "rb", 2), (2, "po", 3)]]
           and [x["synchronisation"] for x in e["expansions"]]
           == [[{"kind": "fence pair", "release": a, "acquire": b, "scope": "device"}] for a, b in ((3, 6), (6, 3))]
           and "(seq_cst, device scope)" in text,
           f"opencl SB-sc-fences-dev: O-Sscoped's fence edges as Fsb; rb; sbF: {ev} {text}")


def _opencl_transform(record, run):
    """tests/transform/opencl/: every FAIL site of --necessary-sync and
    remove-spin whose new outcome the source forbids names a
    synchronisation step (the others add a race: no explanation)."""
    total = named = 0
    d = TRANSFORM / "opencl"
    for f in sorted(d.glob("*.litmus")):
        for mode in (["--necessary-sync"], ["--transform", "remove-spin"]):
            p = run(["--json", "--explain"] + mode + [f.name], d)
            for o in [json.loads(line) for line in p.stdout.splitlines() if line.strip()]:
                for s in (o.get("details") or {}).get("sites", []):
                    if s["result"] == "FAIL" and "source_forbids" in s["details"]:
                        total += 1
                        named += bool(_synchronisations(s["details"].get("explanation")))
    record(total >= 8 and named == total, f"opencl transformations: {named} of {total} FAIL sites name their sync")


def explain_sync(record, run):
    """Synchronisation named in explanations, plain and in comparisons."""
    _plain(record, run)
    _comparisons(record, run)
    _every_site(record, run)
    _opencl_release_acquire(record, run)
    _opencl_fences_barriers(record, run)
    _opencl_transform(record, run)
