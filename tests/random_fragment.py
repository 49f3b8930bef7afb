#!/usr/bin/env python3
"""Random programs of the interleaving fragment, decided by both termination
engines and compared.

Each seed gives one program, Vulkan or PTX, on one location x: two or three
threads, each a few accesses (loads, stores, exchanges, adds, all atomic or
strong) and loops in the forward-progress study's shapes (a body that reads
a register, then a conditional jump back, or a jump out and a goto back),
placed in one or several subgroups/workgroups (CTAs/GPUs) with scopes wide
enough for every access to be in scope of every other.  Both engines answer
all six progress models (--progress all, one check per file; --progress
names others: strong models, per-scope hierarchies): the default engine must
decide each program with the explicit-state engine, and wherever SAT decides
(PASS or FAIL) it must give the same verdict.

usage: random_fragment.py [--count N] [--seed S] [--bound B] [--timeout S] [--bin PATH] [-j N] [--progress P]
Prints the counts and one line per disagreement; exit status 1 on any.
"""
import argparse, json, pathlib, random, subprocess, sys, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
VALUES = (0, 1, 2)


class Thread:
    """One thread's code under construction: lines, fresh labels, registers."""

    def __init__(self, tid, access):
        self.tid, self.access, self.lines, self.nlabels, self.nregs = tid, access, [], 0, 0

    def label(self):
        self.nlabels += 1
        return f"LC{self.tid}{self.nlabels - 1}"

    def reg(self):
        self.nregs += 1
        return f"r{self.nregs - 1}"


def vulkan_access(rng, scope):
    """A function (kind, reg, value) -> Vulkan instruction text."""
    def make(kind, r, v):
        return {"ld": f"ld.atom.{scope}.sc0 {r}, x", "st": f"st.atom.{scope}.sc0 x, {v}",
                "exch": f"rmw.atom.{scope}.sc0 {r}, x, {v}", "add": f"rmw.atom.{scope}.sc0.add {r}, x, {v}"}[kind]
    return make


def ptx_access(rng, scope):
    """A function (kind, reg, value) -> PTX instruction text, relaxed or
    acquire/release (all strong)."""
    ld = rng.choice(["relaxed", "acquire"])
    st = rng.choice(["relaxed", "release"])
    rmw = rng.choice(["relaxed", "acquire", "release", "acq_rel"])

    def make(kind, r, v):
        return {"ld": f"ld.{ld}.{scope} {r}, x", "st": f"st.{st}.{scope} x, {v}",
                "exch": f"atom.{rmw}.{scope}.exch {r}, x, {v}", "add": f"atom.{rmw}.{scope}.add {r}, x, {v}"}[kind]
    return make


def reading(rng, th, looped):
    """An access that reads into a fresh register; its register.  An add
    only outside loops, so that x takes finitely many values."""
    r = th.reg()
    kinds = ["ld", "exch", "exch"] + ([] if looped else ["add"])
    th.lines.append(th.access(rng.choice(kinds), r, rng.choice(VALUES)))
    return r


def block(rng, th, depth, looped=False):
    """Appends one block: an access, a loop, or a forward skip (looped:
    inside a loop)."""
    shape = rng.choice(["access", "access", "loop", "loop", "goto-loop", "skip"] if depth < 2 else ["access"])
    if shape == "access":
        if rng.random() < 0.5:
            th.lines.append(th.access("st", None, rng.choice(VALUES)))
        else:
            reading(rng, th, looped)
    elif shape == "loop":   # LC: body; b<cond> r, v, LC
        head = th.label()
        th.lines.append(f"{head}:")
        if rng.random() < 0.3:
            block(rng, th, depth + 1, True)
        r = reading(rng, th, True)
        th.lines.append(f"{rng.choice(['beq', 'bne'])} {r}, {rng.choice(VALUES)}, {head}")
    elif shape == "goto-loop":   # LC: body; b<cond> r, v, OUT; goto LC; OUT:
        head, out = th.label(), th.label()
        th.lines.append(f"{head}:")
        r = reading(rng, th, True)
        th.lines.append(f"{rng.choice(['beq', 'bne'])} {r}, {rng.choice(VALUES)}, {out}")
        if rng.random() < 0.3:
            th.lines.append(th.access("st", None, rng.choice(VALUES)))
        th.lines.append(f"goto {head}")
        th.lines.append(f"{out}:")
    else:   # b<cond> r, v, OUT; block; OUT:
        r = reading(rng, th, looped)
        out = th.label()
        th.lines.append(f"{rng.choice(['beq', 'bne'])} {r}, {rng.choice(VALUES)}, {out}")
        block(rng, th, depth + 1, looped)
        th.lines.append(f"{out}:")


def placement(rng, dialect, n):
    """Each thread's place (four threads for "nested", whatever n) and a scope wide
    enough for all of them."""
    if dialect == "VULKAN":
        how = rng.choice(["sg", "sg", "wg", "qf", "mixed", "nested"])
        # mixed: workgroup 0's two subgroups (threads 0 and 2) and workgroup 1
        # (thread 1): a group owed progress may choose which subgroup gets it;
        # nested: four threads, two workgroups of two subgroups, so the
        # device may choose a workgroup and a workgroup a subgroup
        n = 4 if how == "nested" else n
        places = {"sg": [(0, 0, 0)] * n, "wg": [(t % 2, 0, 0) for t in range(n)],
                  "qf": [(0, t % 2, 0) for t in range(n)],
                  "mixed": [((0, 0, 0), (0, 1, 0), (1, 0, 0))[t % 3] for t in range(n)],
                  "nested": [(t % 2, t // 2, 0) for t in range(n)]}[how]
        wider = {"sg": ["wg", "qf", "dv"], "wg": ["wg", "qf", "dv"], "qf": ["qf", "dv"], "mixed": ["qf", "dv"],
                 "nested": ["qf", "dv"]}[how]
        return [f"P{t}@sg {a},wg {b}, qf {c}" for t, (a, b, c) in enumerate(places)], rng.choice(wider)
    how = rng.choice(["cta", "cta", "gpu", "sys"])
    places = {"cta": [(0, 0)] * n, "gpu": [(t % 2, 0) for t in range(n)], "sys": [(0, t % 2) for t in range(n)]}[how]
    wider = {"cta": ["cta", "gpu", "sys"], "gpu": ["gpu", "sys"], "sys": ["sys"]}[how]
    return [f"P{t}@cta {a},gpu {b}" for t, (a, b) in enumerate(places)], rng.choice(wider)


def program(seed):
    """The litmus text of seed's program."""
    rng = random.Random(seed)
    dialect = rng.choice(["VULKAN", "VULKAN", "PTX"])
    n = rng.choice([2, 2, 2, 3])
    heads, scope = placement(rng, dialect, n)
    n = len(heads)
    make = vulkan_access if dialect == "VULKAN" else ptx_access
    threads = [Thread(t, make(rng, scope)) for t in range(n)]
    for th in threads:
        for _ in range(rng.choice([1, 2, 2])):
            block(rng, th, 0)
    init = [f"x={rng.choice((0, 0, 1))};"] + [f"P{th.tid}:r{k}=0;" for th in threads for k in range(th.nregs)]
    height = max(len(th.lines) for th in threads)
    cols = [heads] + [[th.lines[i] if i < len(th.lines) else "" for th in threads] for i in range(height)]
    body = "\n".join(" | ".join(c.ljust(34) for c in row) + " ;" for row in cols)
    return f"{dialect} random-{seed}\n\"generated by tests/random_fragment.py\"\n{{\n" + "\n".join(init) + \
        f"\n}}\n{body}\nexists 0==0\n"


def models_in(progress):
    """How many progress models a --progress value names."""
    if progress.startswith("["):
        return 1
    return sum(6 if m == "all" else 1 for m in progress.split(";")[0].split(","))


def results(binary, args, directory, jobs, progress):
    """{(file, progress): JSON result} of a termination run under progress."""
    p = subprocess.run([str(binary), "--json", "--property", "termination", "--progress", progress, "-j", str(jobs)]
                       + args + [str(directory)], capture_output=True, text=True, timeout=1800)
    out = {}
    for line in p.stdout.splitlines():
        o = json.loads(line)
        out[(pathlib.Path(o["file"]).name, o["progress"])] = o
    return out, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bound", type=int, default=2)
    ap.add_argument("--timeout", default="2", help="seconds per SAT check (past it: undecided)")
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--progress", default="all", help="the progress models (gpubmc's --progress)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        for k in range(a.count):
            (d / f"r{a.seed + k:06d}.litmus").write_text(program(a.seed + k))
        states, err1 = results(a.bin, [], d, a.j, a.progress)
        sat, err2 = results(a.bin, ["--engine", "sat", "--bound", str(a.bound), "--timeout", a.timeout], d, a.j,
                            a.progress)
        bad = 0
        for text in (err1, err2):
            for line in text.splitlines():
                print(f"error: {line}")
                bad += 1
        decided = agree = 0
        for key, o in sorted(states.items()):
            s = sat.get(key)
            if o.get("engine") != "states" or o["result"] not in ("PASS", "FAIL"):
                bad += 1
                print(f"{key[0]} [{key[1]}]: not decided by the states engine: {o['result']} ({o['reason']})")
                print((d / key[0]).read_text())
            elif s is not None and s["result"] in ("PASS", "FAIL"):
                decided += 1
                if s["result"] == o["result"]:
                    agree += 1
                else:
                    bad += 1
                    print(f"{key[0]} [{key[1]}]: states {o['result']} ({o['reason']}), sat {s['result']} "
                          f"({s['reason']})")
                    print((d / key[0]).read_text())
        fails = sum(1 for o in states.values() if o["result"] == "FAIL")
        print(f"{a.count} random fragment programs (seeds {a.seed}..{a.seed + a.count - 1}, --progress {a.progress}), "
              f"{len(states)} verdicts ({fails} FAIL), SAT decides {decided} at bound {a.bound}: "
              f"{agree} agree, {bad} problems")
        return 1 if bad or len(states) != models_in(a.progress) * a.count else 0


if __name__ == "__main__":
    sys.exit(main())
