"""--explain names the synchronisation (issue 29, item 2).

A compound edge of an explanation's cycle (cause, hb, locord, observation,
sync, sw) is expanded into the program-order, reads-from and
synchronisation steps that make it, and each synchronisation step is named
as a reader knows it: a release/acquire pattern, a fence pair, a barrier,
with the instructions that supply it and the read through which the
release side reaches the acquire side.  --explain works with the
comparisons: a FAIL says why the source forbids the target's new outcome.

Called with run_tests.py's record(ok, what) and run(args, cwd) helpers."""
import json

from testpaths import ROOT

TRANSFORM = ROOT / "tests" / "transform"


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


def explain_sync(record, run):
    """Synchronisation named in explanations, plain and in comparisons."""
    _plain(record, run)
    _comparisons(record, run)
    _every_site(record, run)
