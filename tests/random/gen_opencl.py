#!/usr/bin/env python3
"""Random OpenCL litmus programs (Dat3M's OpenCL dialect) for the
cross-check: seeded, small (1-4 work-items, a handful of memory events) so
that the brute-force oracle can decide them.

They cover what the OpenCL parser reads: atomic loads, stores, fetch
operations, exchanges and compare-exchanges (strong and weak, explicit or
not), every memory order and scope, non-atomic reads and writes, global,
local and generic locations declared atomic or not (a location can be
declared atomic by one work-item and non-atomic by another), work-item
fences with one or both flags, barriers with ids, if/else on registers,
spin loops, C arithmetic and comparisons, placements in work-groups and
devices, and a herd condition (exists, ~exists, forall) over registers and
locations.

    gen_opencl.py --seed 7 --index 3      program 3 of seed 7 on stdout
"""
import argparse, random, sys

LOCS = ["x", "y", "z"]
ORDERS = ["memory_order_relaxed", "memory_order_acquire", "memory_order_release", "memory_order_acq_rel",
          "memory_order_seq_cst"]
LOAD_ORDERS = [o for o in ORDERS if o not in ("memory_order_release", "memory_order_acq_rel")]
STORE_ORDERS = [o for o in ORDERS if o not in ("memory_order_acquire", "memory_order_acq_rel")]
SCOPES = ["memory_scope_work_item", "memory_scope_work_group", "memory_scope_device",
          "memory_scope_all_svm_devices"]
FETCH = ["add", "sub", "or", "xor", "and"]


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.values = {0, 1}
        self.writes = {}          # location -> writes
        self.reads = {}           # location -> reads
        self.loops = False

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq, weights=None):
        return self.r.choices(seq, weights=weights)[0] if weights else self.r.choice(seq)

    def const(self):
        v = self.pick([1, 2, 3, 0, 5], [45, 30, 10, 10, 5])
        self.values.add(v)
        return v

    def count(self, d, loc, n=1):
        d[loc] = d.get(loc, 0) + n

    def order_scope(self, kinds, explicit=True):
        """', mo[, scope]' of an _explicit call (or '' for the plain one)."""
        if not explicit:
            return ""
        mo = self.pick(kinds)
        if self.chance(0.5):
            return f", {mo}, {self.pick(SCOPES, [5, 35, 45, 15])}"
        return f", {mo}"

    def value(self, regs):
        if regs and self.chance(0.25):
            reg = self.pick(regs)
            return reg if self.chance(0.7) else f"{reg} + {self.const()}"
        return str(self.const())

    def access(self, t, regs, locs, depth):
        """One statement of work-item t."""
        loc = self.pick(locs)
        kind = self.pick(["load", "store", "na_load", "na_store", "rmw", "fence", "branch", "cas"],
                         [24, 22, 9, 9, 12, 8, 10 if depth == 0 else 0, 6])
        explicit = self.chance(0.8)
        name = f"r{len(regs)}"
        if kind == "load":
            self.count(self.reads, loc)
            call = "atomic_load_explicit" if explicit else "atomic_load"
            regs.append(name)
            return f"int {name} = {call}({loc}{self.order_scope(LOAD_ORDERS, explicit)});"
        if kind == "store":
            self.count(self.writes, loc)
            call = "atomic_store_explicit" if explicit else "atomic_store"
            return f"{call}({loc}, {self.value(regs)}{self.order_scope(STORE_ORDERS, explicit)});"
        if kind == "na_load":
            self.count(self.reads, loc)
            regs.append(name)
            return f"int {name} = *{loc};"
        if kind == "na_store":
            self.count(self.writes, loc)
            return f"*{loc} = {self.value(regs)};"
        if kind == "rmw":
            self.count(self.reads, loc)
            self.count(self.writes, loc)
            op = f"fetch_{self.pick(FETCH)}" if self.chance(0.7) else "exchange"
            call = f"atomic_{op}_explicit" if explicit else f"atomic_{op}"
            regs.append(name)
            return f"int {name} = {call}({loc}, {self.const()}{self.order_scope(ORDERS, explicit)});"
        if kind == "cas":
            self.count(self.reads, loc)
            self.count(self.writes, loc)
            self.count(self.reads, f"e{t}")
            self.count(self.writes, f"e{t}")
            strength = self.pick(["strong", "weak"])
            tail = ""
            if explicit:
                tail = f", {self.pick(ORDERS)}, memory_order_relaxed"
                if self.chance(0.5):
                    tail += f", {self.pick(SCOPES, [5, 35, 45, 15])}"
            call = f"atomic_compare_exchange_{strength}" + ("_explicit" if explicit else "")
            regs.append(name)
            return f"int {name} = {call}({loc}, e{t}, {self.const()}{tail});"
        if kind == "fence":
            flags = self.pick(["CLK_GLOBAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE",
                               "CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE"], [50, 20, 30])
            return (f"atomic_work_item_fence({flags}, {self.pick(ORDERS[1:])}, "
                    f"{self.pick(SCOPES, [5, 35, 45, 15])});")
        if not regs:
            return self.access(t, regs, locs, depth + 1)
        reg = self.pick(regs)
        cmp = self.pick(["==", "!=", "<", ">="])
        then = self.access(t, regs, locs, depth + 1)
        text = f"if ({reg} {cmp} {self.const()}) {{ {then} }}"
        if self.chance(0.4):
            text += f" else {{ {self.access(t, regs, locs, depth + 1)} }}"
        return text

    def thread(self, t, place, nthreads, barrier, spin):
        regs = []
        decl = []
        locs = self.r.sample(LOCS, self.pick([1, 2, 3], [20, 50, 30]))
        for loc in LOCS:
            space = self.spaces[loc]
            atomic = "atomic_int" if self.atomic[loc] or (loc in locs and self.chance(0.1)) else "int"
            decl.append(f"{space}{atomic}* {loc}")
        decl.append(f"global int* e{t}")
        body = []
        if spin is not None:
            self.loops = True
            self.count(self.reads, spin)
            body.append(f"while (atomic_load_explicit({spin}, {self.pick(['memory_order_acquire', 'memory_order_relaxed'])})"
                        f" == 0) {{}}")
        n = self.pick([1, 2, 3, 4], [15, 40, 35, 10])
        for i in range(n):
            if barrier and i == n // 2:
                flags = self.pick(["CLK_GLOBAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE",
                                   "CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE"])
                body.append(f"B1: barrier({flags});")
            body.append(self.access(t, regs, locs, 0))
        self.regs[t] = list(regs)
        lines = "\n".join(f"  {s}" for s in body)
        return f"P{t}@wg {place[0]}, dev {place[1]} ({', '.join(decl)}) {{\n{lines}\n}}\n"

    def condition(self, nthreads):
        atoms = []
        for t in range(nthreads):
            for reg in self.regs[t]:
                if self.chance(0.5):
                    atoms.append(f"{t}:{reg}={self.pick(sorted(self.values))}")
        for loc in LOCS:
            if self.writes.get(loc) and self.chance(0.4):
                atoms.append(f"{loc}={self.pick(sorted(self.values))}")
        if not atoms:
            atoms = [f"x={self.pick(sorted(self.values))}"]
        atoms = atoms[:4]
        join = " \\/ " if self.chance(0.15) else " /\\ "
        q = self.pick(["exists", "~exists", "forall"], [65, 15, 20])
        return f"{q} ({join.join(atoms)})"

    def program(self, name):
        nthreads = self.pick([1, 2, 3, 4], [5, 55, 30, 10])
        self.spaces = {loc: self.pick(["global ", "local ", ""], [75, 15, 10]) for loc in LOCS}
        self.atomic = {loc: self.chance(0.75) for loc in LOCS}
        self.regs = {}
        places = [(self.pick([0, 0, 1]), 0 if self.chance(0.95) else 1) for _ in range(nthreads)]
        barrier = nthreads > 1 and self.chance(0.12)
        spinner = self.pick(range(nthreads)) if nthreads > 1 and self.chance(0.12) else None
        init = " ".join(f"[{loc}] = {self.pick([0, 0, 0, 1])};" for loc in LOCS)
        init += " " + " ".join(f"[e{t}] = {self.pick([0, 1])};" for t in range(nthreads))
        threads = [self.thread(t, places[t], nthreads, barrier, self.pick(LOCS) if t == spinner else None)
                   for t in range(nthreads)]
        return f"OPENCL {name}\n{{ {init} }}\n\n" + "\n".join(threads) + "\n" + self.condition(nthreads) + "\n"

    def oracle_estimate(self, bound):
        """A write (or the initial value) for each read, times the coherence orders."""
        orders = [1, 1, 2, 6, 24, 120, 720, 5040]
        est = 1
        for loc in self.reads.keys() | self.writes.keys():
            w, r = self.writes.get(loc, 0), self.reads.get(loc, 0)
            est *= (w + 1) ** r * orders[min(w, len(orders) - 1)]
        return est * (2 if self.loops else 1)


def generate(seed, index=0):
    """The OpenCL program for (seed, index): (text, "opencl", bound, estimate)."""
    rng = random.Random(f"gpubmc-gen-opencl:{seed}:{index}")
    g = Gen(rng)
    text = g.program(f"O{seed}_{index}")
    bound = 2 if g.loops and rng.random() < 0.4 else 1
    return text, "opencl", bound, g.oracle_estimate(bound)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--index", type=int, default=0)
    a = ap.parse_args()
    sys.stdout.write(generate(a.seed, a.index)[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
