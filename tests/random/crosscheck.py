#!/usr/bin/env python3
"""Random cross-check of gpubmc: generates N programs from a seed (gen.py),
and a quarter as many OpenCL programs (gen_opencl.py), and compares, for
program_spec and cat_spec under each model of the program's dialect
(ptx-v6.0 and ptx-v7.5; vulkan and vulkan-nochains; opencl):

    the SAT engine  vs  --engine oracle  vs  --no-symmetry  vs  --symmetry-key last

(the SAT engine's default orders interchangeable threads by their first
write, and by their last only in checks too hard for these programs, so
--symmetry-key last checks that key)

and runs termination (fair and one other progress model) to see that it
never errs.  No execution is never silently a PASS: every check says
no_execution alike, the oracle's "0 consistent" included, a PASS from no
execution is vacuous, and a program whose --outcomes set is empty has no
plain program_spec PASS, no plain cat_spec PASS with a filter, and (with no
filter) no plain termination PASS.  Any disagreement, any ERROR result, any "internal error" and
any SAT check that stalls is a failure; failing programs are written to
--keep.  Each configuration is one gpubmc batch (--json, -j J, every file
of a dialect and loop bound in one process).

The oracle only gets programs whose estimated number of candidate
executions (gen.py's estimate) is at most --oracle-max; it skips the
others, and those it gives up on (over its own limit, or no output for
--stall seconds), and says how many.

    crosscheck.py -n 2000 --seed 1 --keep build/crosscheck-failures

Reproduce one program: gen.py --seed S --index I, or gen_opencl.py for an
OpenCL one (printed with each failure).
"""
import argparse, collections, json, os, pathlib, random, re, resource, select, shutil, signal
import subprocess, sys, tempfile, time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
import gen  # noqa: E402
import gen_opencl  # noqa: E402

MODELS = {"ptx": ["ptx-v6.0", "ptx-v7.5"], "vulkan": ["vulkan", "vulkan-nochains"], "opencl": ["opencl"]}
PROPS = ["program_spec", "cat_spec"]
OTHER_PROGRESS = ["hsa", "obe", "hsa_obe", "lobe", "unfair"]


class Batch:
    """Runs gpubmc over files in one process; restarts after a stalled file."""

    def __init__(self, binary, jobs, stall):
        self.binary, self.jobs, self.stall = binary, jobs, stall
        self.processes = 0
        self.reruns = 0

    def run(self, args, files, props, jobs=None):
        """{(file, property): JSON object}.  A job with no result for --stall
        seconds gets result STALL, and the batch goes on after its file."""
        out = {}
        todo = list(files)
        jobs = jobs or self.jobs
        while todo:
            self.processes += 1
            p = subprocess.Popen([str(self.binary), "--json", "-j", str(jobs)] + args + todo,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 start_new_session=True)
            fd = p.stdout.fileno()
            last, buf, stalled = time.monotonic(), b"", False
            while True:
                ready, _, _ = select.select([fd], [], [], 0.5)
                if ready:
                    chunk = os.read(fd, 1 << 16)
                    if not chunk:
                        break
                    buf += chunk
                    *lines, buf = buf.split(b"\n")
                    for line in lines:
                        o = json.loads(line)
                        o["args"] = args
                        out[(o["file"], o["property"])] = o
                    last = time.monotonic()
                elif time.monotonic() - last > self.stall:
                    stalled = True
                    break
            if stalled:
                os.killpg(p.pid, signal.SIGKILL)
            p.stdout.close()
            p.wait()
            rest = [f for f in todo if any((f, q) not in out for q in props)]
            if not rest:
                break
            stuck = rest[0]      # results come in input order: this one held the rest up
            for q in props:
                if (stuck, q) not in out:
                    out[(stuck, q)] = {"file": stuck, "property": q, "args": args,
                                       "result": "STALL" if stalled else "ERROR",
                                       "reason": f"no result within {self.stall} s" if stalled
                                       else "internal error: the worker checking this file died"}
            todo = rest[1:]
        # A dead worker leaves ERROR for every file it held (and when all
        # workers are dead, for every file left): check those one process
        # at a time, which finds the files that crash, then name each crash.
        died = [f for f in files if any(out[(f, q)]["result"] == "ERROR" and "worker checking this file died"
                                        in out[(f, q)].get("reason", "") for q in props)]
        if died and jobs > 1:
            self.reruns += len(died)
            out.update(self.run(args, died, props, jobs=1))
        elif died:
            for f in died:
                for q in props:
                    if "worker checking this file died" in out[(f, q)].get("reason", ""):
                        out[(f, q)] = rerun_alone(self.binary, out[(f, q)])
        return out


def rerun_alone(binary, o):
    """A job whose worker died takes down the other files that worker held,
    so it is re-run alone: its own result, or the crash named."""
    args = o["args"][:o["args"].index("--property")] + ["--property", o["property"]] \
        + o["args"][o["args"].index("--property") + 2:]
    try:
        p = subprocess.run([str(binary), "--json"] + args + [o["file"]],
                           capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return dict(o, result="STALL", reason="no result within 60 s (re-run alone)")
    if p.returncode >= 0 and p.stdout.strip():
        return dict(json.loads(p.stdout.splitlines()[0]), args=o["args"])
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    what = re.sub(r"\d+", "N", lines[0])[:90] if lines else ""
    sig = signal.Signals(-p.returncode).name if p.returncode < 0 else f"exit {p.returncode}"
    return dict(o, crash=f"crash ({sig}){': ' + what if what else ''}")


def error_kind(o):
    """A short name for the kind of an ERROR or internal-error result."""
    why = o.get("reason", "")
    if "crash" in o:
        return o["crash"]
    if "internal error" in why:
        tail = why.split("internal error:", 1)[1].strip()
        m = re.match(r"the concrete evaluator rejects the solver's (\w+) \((.*)\)$", tail)
        if m:
            tail = f"{m.group(1)} rejected: {m.group(2)}"
        return "internal error: " + re.sub(r"\d+", "N", tail)[:90]
    if ": error:" in why:
        return "input rejected: " + why.split(": error:", 1)[1].strip()[:60]
    return "error: " + why[:70]


DECIDED = ("PASS", "FAIL")


def has_filter(f):
    """Whether the program at path f has a filter."""
    return any(line.startswith("filter") for line in pathlib.Path(f).read_text().splitlines())


def empty_set_failures(results, filtered):
    """No execution is never silently a PASS (issue 26).  results maps
    (engine label, property) to a JSON result or None.  Every decided
    result says no_execution alike (the oracle's 0 consistent executions
    included); a PASS with no_execution is vacuous; and when --outcomes has
    no final state: a program_spec PASS is vacuous, so is a cat_spec PASS
    with a filter, and so is a termination PASS without a filter (every
    execution hangs: the PASS holds only if none is fair under the model).
    A termination FAIL may stand where no complete execution is consistent:
    its hang is a partial one (under unfair or obe, say, a thread that never
    starts keeps out the events that make every completion inconsistent;
    Dartagnan agrees on seed 100001's Vulkan program 18014 and OpenCL 1410).
    Yields (kind, detail)."""
    decided = {k: r for k, r in results.items() if r and r["result"] in DECIDED
               and "internal error" not in r.get("reason", "")}
    none = {k: r.get("no_execution") is True for k, r in decided.items()}
    for k, r in decided.items():
        if none[k] and r["result"] == "PASS" and not (r.get("vacuous") is True
                                                      and r["reason"].startswith("vacuously:")):
            yield "no execution: a PASS that is not vacuous", f"{k[0]} {k[1]}: {r['reason']}"
    # the oracle counts every consistent execution; SAT's answer is the same set
    orc = [k for k in decided if k[0] == "oracle"]
    if orc and not any("value cycles" in decided[k]["reason"] for k in orc):
        o_none = any(none[k] for k in orc)
        for k in decided:
            if k[0] != "oracle" and not k[0].startswith("termination") and none[k] != o_none:
                yield (f"no execution: {k[0]} {'says' if none[k] else 'misses'} it, oracle "
                       f"{'says' if o_none else 'misses'} it"), f"{k[1]}: {decided[k]['reason']}"
    sat_none = {none[k] for k in decided if k[0] != "oracle" and not k[0].startswith("termination")}
    if len(sat_none) > 1:
        yield "no execution: the SAT checks disagree", "; ".join(
            f"{k[0]} {k[1]}: {none[k]}" for k in decided if k[0] != "oracle")
    for k in decided:
        if not k[0].startswith("termination") or not sat_none:
            continue
        # a hang never completes (its spinning thread, and those the scheduler
        # stops, leave it partial), so with no complete execution a FAIL may
        # stand; a PASS must say so
        if sat_none == {True} and decided[k]["result"] == "PASS" and not none[k]:
            yield "no execution: termination misses it", f"{k[0]}: {decided[k]['result']} {decided[k]['reason']}"
        elif sat_none == {False} and none[k]:
            yield "no execution: termination says it alone", f"{k[0]}: {decided[k]['reason']}"
    out = results.get(("outcomes", "program_spec"))
    if out and "outcomes" in out and out["outcomes"].get("complete") and not out["outcomes"]["states"]:
        for k, r in decided.items():
            if r["result"] != "PASS" or r.get("vacuous") is True:
                continue
            if k[1] == "program_spec" or (k[1] == "cat_spec" and filtered):
                yield f"no final state: {k[1]} PASS not vacuous", f"{k[0]}: {r['reason']}"
            elif k[1] == "termination" and not filtered:
                yield "no final state: termination PASS not vacuous", f"{k[0]}: {r['reason']}"


def crosscheck(n, seed, binary, keep, jobs=2, oracle_max=3000, stall=5.0, report=print, show=3, exclude=(),
               opencl=None):
    """Generates and checks n programs and opencl OpenCL programs (default
    n // 4); returns a summary dict."""
    t0 = time.monotonic()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    rng = random.Random(seed)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="gpubmc-cross-"))
    groups = collections.defaultdict(list)          # (dialect, bound) -> files
    meta = {}
    programs = [(i, gen.generate(seed, i, exclude=exclude)) for i in range(n)]
    programs += [(i, gen_opencl.generate(seed, i)) for i in range(n // 4 if opencl is None else opencl)]
    for i, (text, dialect, bound, est) in programs:
        d = tmp / f"{dialect}-b{bound}"
        d.mkdir(exist_ok=True)
        f = str(d / f"p{i:05d}.litmus")
        pathlib.Path(f).write_text(text)
        groups[(dialect, bound)].append(f)
        meta[f] = (i, dialect, bound, est)
    gen_secs = time.monotonic() - t0
    batch = Batch(binary, jobs, stall)
    failures = []                                    # (kind, file, detail)
    skipped = collections.Counter()
    compared = 0
    checks = 0

    def fail(kind, f, detail):
        failures.append((kind, f, detail))

    def timed(what, fn, *args):
        t = time.monotonic()
        try:
            return fn(*args)
        finally:
            seconds[what] += time.monotonic() - t
    seconds = collections.Counter()

    for (dialect, bound), files in sorted(groups.items()):
        small = [f for f in files if meta[f][3] <= oracle_max]
        skipped["oracle: estimated over --oracle-max candidates"] += len(files) - len(small)
        for mi, model in enumerate(MODELS[dialect]):
            base = ["--model", model, "--bound", str(bound), "--property", ",".join(PROPS)]
            sat = timed("sat", batch.run, base, files, PROPS)
            nosym = timed("no-symmetry", batch.run, base + ["--no-symmetry"], files, PROPS)
            lastkey = timed("symmetry-key last", batch.run, base + ["--symmetry-key", "last"], files, PROPS)
            orc = timed("oracle", batch.run, base + ["--engine", "oracle"], small, PROPS)
            progress = ["fair", rng.choice(OTHER_PROGRESS)]
            terms = [timed("termination", batch.run, ["--model", model, "--bound", str(bound), "--property",
                                                      "termination", "--progress", g], files, ["termination"])
                     for g in progress]
            outs = timed("outcomes", batch.run, ["--model", model, "--bound", str(bound), "--property",
                                                 "program_spec", "--outcomes"], files, ["program_spec"])
            checks += len(sat) + len(nosym) + len(lastkey) + len(orc) + sum(len(t) for t in terms) + len(outs)
            for f in files:
                for prop in PROPS:
                    where = f"{model} {prop} bound {bound}"
                    s, o = sat.get((f, prop)), orc.get((f, prop))
                    variants = (("no-symmetry", nosym.get((f, prop))), ("symmetry-key last", lastkey.get((f, prop))))
                    bad = False
                    for label, r in (("sat", s),) + variants + (("oracle", o),):
                        if r is None:
                            continue
                        if r["result"] == "ERROR" or "internal error" in r.get("reason", ""):
                            fail(error_kind(r), f, f"{where} [{label}]: {r['result']}: {r.get('reason', '')}")
                            bad = True
                        elif r["result"] == "STALL" and label != "oracle":
                            fail(f"stall ({label})", f, f"{where}: {r['reason']}")
                            bad = True
                    if bad or s is None:
                        continue
                    compared += 1
                    for label, v in variants:
                        if v and v["result"] != s["result"]:
                            fail(f"symmetry: sat {s['result']} vs {label} {v['result']}", f,
                                 f"{where}: sat {s['result']} ({s['reason']}); {label} {v['result']} ({v['reason']})")
                    if o is None:
                        continue
                    if o["result"] == "STALL":
                        skipped[f"oracle: no result within {stall} s"] += 1
                    elif o["result"] == "UNKNOWN" and "candidate executions for the oracle" in o["reason"]:
                        skipped["oracle: over its candidate limit"] += 1
                    elif o["result"] == "UNKNOWN" and "value cycles" in o["reason"]:
                        # values that depend only on themselves (no NoThinAir): the oracle
                        # cannot enumerate 32-bit values and says so
                        skipped["oracle: value cycles it cannot enumerate"] += 1
                    elif o["result"] != s["result"]:
                        fail(f"engines: sat {s['result']} vs oracle {o['result']}", f,
                             f"{where}: sat {s['result']} ({s['reason']}); oracle {o['result']} ({o['reason']})")
                for g, t in zip(progress, terms):
                    r = t.get((f, "termination"))
                    if r is None:
                        continue
                    if r["result"] == "ERROR" or "internal error" in r.get("reason", ""):
                        fail(error_kind(r) + " (termination)", f,
                             f"{model} termination {g} bound {bound}: {r['result']}: {r.get('reason', '')}")
                    elif r["result"] == "STALL":
                        fail("stall (termination)", f, f"{model} termination {g} bound {bound}: {r['reason']}")
                results = {(label, prop): r.get((f, prop)) for label, r in
                           (("sat", sat), ("no-symmetry", nosym), ("symmetry-key last", lastkey), ("oracle", orc))
                           for prop in PROPS}
                results.update({(f"termination {g}", "termination"): t.get((f, "termination"))
                                for g, t in zip(progress, terms)})
                results[("outcomes", "program_spec")] = outs.get((f, "program_spec"))
                for kind, detail in empty_set_failures(results, has_filter(f)):
                    fail(kind, f, f"{model} bound {bound}: {detail}")
    # report: each failing program once per kind, kept under --keep
    kinds = collections.defaultdict(list)
    for kind, f, detail in failures:
        if not any(f == g for g, _ in kinds[kind]):
            kinds[kind].append((f, detail))
    if failures:
        keep = pathlib.Path(keep)
        keep.mkdir(parents=True, exist_ok=True)
    index = []
    for kind, items in sorted(kinds.items()):
        for k, (f, detail) in enumerate(items):
            i, dialect, bound, _est = meta[f]
            name = f"s{seed}-i{i}-{dialect}-b{bound}.litmus"
            shutil.copy(f, keep / name)
            index.append(f"{name}\t{kind}\t{detail}\n")
            if k < show:
                tool = "gen_opencl.py" if dialect == "opencl" else "gen.py"
                report(f"FAIL crosscheck {kind}: {keep / name} ({tool} --seed {seed} --index {i}): {detail}")
        if len(items) > show:
            report(f"FAIL crosscheck {kind}: ... and {len(items) - show} more programs of this kind in {keep}")
    if index:
        with open(keep / "failures.tsv", "w") as out:
            out.writelines(index)
    shutil.rmtree(tmp, ignore_errors=True)
    secs = time.monotonic() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds["gpubmc cpu"] = cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime
    seconds["generate"] = gen_secs
    summary = {"seed": seed, "split": dict(seconds), "programs": len(programs), "checks": checks, "compared": compared,
               "failing_programs": len({f for _, f, _ in failures}),
               "kinds": {k: len(v) for k, v in kinds.items()}, "skipped": dict(skipped),
               "seconds": secs, "processes": batch.processes, "reruns": batch.reruns,
               "dialects": collections.Counter(m[1] for m in meta.values())}
    return summary


def print_summary(s, report=print):
    report(f"crosscheck seed {s['seed']}: {s['programs']} programs ({s['dialects'].get('ptx', 0)} PTX, "
           f"{s['dialects'].get('vulkan', 0)} Vulkan, {s['dialects'].get('opencl', 0)} OpenCL), {s['checks']} checks in {s['processes']} gpubmc batches "
           f"(+{s['reruns']} re-run after a worker died), "
           f"{s['seconds']:.1f} s ({s['programs'] * 60 / max(s['seconds'], 1e-9):.0f} programs/min); "
           f"{s['failing_programs']} failing programs in {len(s['kinds'])} kinds")
    report("  wall time: " + ", ".join(f"{k} {v:.1f} s" for k, v in s["split"].items() if k != "gpubmc cpu")
           + f"; gpubmc used {s['split']['gpubmc cpu']:.1f} s of CPU")
    for k, v in sorted(s["kinds"].items()):
        report(f"  {v:5d}  {k}")
    for k, v in sorted(s["skipped"].items()):
        report(f"  skipped {v} ({k})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1000, help="number of programs")
    ap.add_argument("--seed", type=int, default=None, help="default: a random seed (printed)")
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--keep", default=str(ROOT / "build" / "crosscheck-failures"),
                    help="directory for failing programs")
    ap.add_argument("-j", type=int, default=2, help="gpubmc workers per batch")
    ap.add_argument("--oracle-max", type=int, default=3000,
                    help="largest estimated candidate count given to the oracle")
    ap.add_argument("--stall", type=float, default=5.0, help="seconds without a result before a check is given up")
    ap.add_argument("--show", type=int, default=3, help="programs printed per failure kind")
    ap.add_argument("--exclude", action="append", default=[], choices=gen.FEATURES,
                    help="generate programs without this feature (repeatable)")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1, 10**9)
    print(f"crosscheck: seed {seed}, {a.n} programs"
          + "".join(f" --exclude {x}" for x in a.exclude), flush=True)
    s = crosscheck(a.n, seed, a.bin, a.keep, a.j, a.oracle_max, a.stall, show=a.show, exclude=a.exclude)
    print_summary(s)
    return 1 if s["failing_programs"] else 0


if __name__ == "__main__":
    sys.exit(main())
