#!/usr/bin/env python3
"""Random litmus programs for cross-checking gpubmc (PTX and Vulkan dialects).

Seeded: the same seed (and index) always gives the same program.  Programs
are small on purpose (1-4 threads, a handful of memory events), so that the
brute-force oracle (`--engine oracle`) can decide them.

They cover what the parser accepts: loads, stores, RMWs (PTX atom/red with
every operation, cas and exch; Vulkan rmw with and without an operation),
memory orders and scopes, fences (PTX fence.sc/acq_rel/proxy.*/alias, Vulkan
membar with storage-class semantics, av/vis), proxies and aliases (PTX
surface/texture/constant/generic aliases with sust/suld/suatom/sured/tld/cold,
Vulkan `y aliases x`), Vulkan storage classes, av/vis accesses, avdevice,
visdevice and ssw, control barriers (PTX bar.cta.sync/arrive with ids and
quorums, Vulkan cbar), forward branches, spin loops, loops that write,
irreducible loops, local arithmetic, register and location initial values,
and a final condition (exists, ~exists, not exists, forall, an optional
filter and locations list) over registers and locations of the program.

    gen.py --seed 7 --index 3             program 3 of seed 7 on stdout
    gen.py --seed 7 --count 100 --out D   D/g7-00000-ptx-b1.litmus ... (dialect, loop bound)
"""
import argparse, os, random, re, sys

PTX_SCOPES = ["cta", "gpu", "sys"]
VK_SCOPES = ["sg", "wg", "qf", "dv"]
BASE_LOCS = ["x", "y", "z"]


class Thread:
    def __init__(self, index, pid):
        self.index = index          # column
        self.pid = pid              # the N of PN
        self.code = []              # instruction texts (labels "LC00:")
        self.regs = []              # registers written, in order
        self.nlabels = 0
        self.nmem = 0               # memory events (not counting loop copies)
        self.writes = {}            # physical location -> writes (loop bodies count twice)
        self.reads = {}             # physical location -> reads (likewise)
        self.events = []            # this thread's share of Gen.events
        self.place = None


class Gen:
    """One program.  `rng` decides everything; nothing else is random."""

    def __init__(self, rng, dialect, exclude=(), brng=None):
        self.r = rng
        # the barrier shapes of issue 26 (mixed quorums, occurrences reached
        # a different number of times, barriers inside loops) draw from
        # their own stream, so the rest of a program is what it was before
        self.brng = brng or random.Random(0)
        self.quorum_bars = [0, 0]   # named barriers with a quorum: outside loops, inside
        self.exclude = set(exclude)    # FEATURES left out
        self.ptx = dialect == "ptx"
        self.values = {0, 1}        # constants the program may produce
        self.loops = False
        self.barrier_ids = []
        self.mult = 1               # 2 inside a loop body (it may be unrolled twice)
        self.loop_kind = None       # None, "spin" or "loop" while generating a block
        self.events = []            # (physical location, "r" or "w", loop kind)
        self.threads = []
        self.dup_events = []
        # writes per physical location: PTX enumerates partial coherence
        # orders, so more than 4 writes to one location swamp the oracle
        self.write_cap = 4 if self.ptx else 5

    # ---------------------------------------------------------------- helpers
    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq, weights=None):
        if weights:
            return self.r.choices(seq, weights=weights)[0]
        return self.r.choice(seq)

    def const(self):
        v = self.pick([1, 2, 3, 0, -1, 5], [40, 30, 10, 10, 4, 6])
        self.values.add(v)
        return v

    def fmt_const(self, v):
        if v >= 0 and self.chance(0.03):
            return hex(v)
        return str(v)

    def phys(self, loc):
        for a, _proxy, target in self.aliases:
            if a == loc:
                return self.phys(target)
        return loc

    def total_writes(self, phys):
        return sum(u.writes.get(phys, 0) for u in self.threads)

    def writable(self, locs):
        return [x for x in locs if self.total_writes(self.phys(x)) + self.mult <= self.write_cap]

    def count_write(self, t, loc):
        p = self.phys(loc)
        t.writes[p] = t.writes.get(p, 0) + self.mult
        self.events.append((p, "w", self.loop_kind))
        t.events.append((p, "w", self.loop_kind))

    def new_reg(self, t):
        if t.regs and self.chance(0.15):
            return self.pick(t.regs)           # overwrite a register
        name = f"r{len(t.regs)}"
        t.regs.append(name)
        return name

    def value(self, t):
        """A store/RMW/branch operand: a constant or a register (data dependency)."""
        if t.regs and self.chance(0.25):
            return self.pick(t.regs)
        return self.fmt_const(self.const())

    def label(self, t):
        t.nlabels += 1
        prefix = "LC" if not self.same_labels else "L"
        return f"{prefix}{t.index if not self.same_labels else ''}{t.nlabels - 1}"

    # ------------------------------------------------------------ locations
    def make_locations(self):
        n = self.pick([1, 2, 3], [25, 50, 25])
        self.base = BASE_LOCS[:n]
        self.locs = list(self.base)            # every name, aliases included
        self.init = {x: (self.pick([1, 2]) if self.chance(0.08) else 0) for x in self.base}
        self.aliases = []                      # (name, proxy or None, target)
        self.proxy_of = {x: "generic" for x in self.base}
        self.sclass = {x: (1 if self.chance(0.2) else 0) for x in self.base}
        if self.ptx and self.chance(0.45) and "alias" not in self.exclude:
            for _ in range(self.pick([1, 2, 3], [60, 30, 10])):
                proxy = self.pick(["surface", "texture", "generic", "constant"], [40, 30, 25, 5])
                target = self.pick(self.locs if self.chance(0.3) else self.base)
                name = {"surface": "s", "texture": "t", "generic": "g", "constant": "k"}[proxy]
                name += str(sum(a[1] == proxy for a in self.aliases))
                self.aliases.append((name, proxy, target))
                self.locs.append(name)
                self.proxy_of[name] = proxy
        if not self.ptx and self.chance(0.12) and "alias" not in self.exclude:
            name, target = "a0", self.pick(self.base)
            self.aliases.append((name, None, target))
            self.locs.append(name)
            self.sclass[name] = self.sclass[target]

    # ------------------------------------------------------------ placement
    def place_threads(self, threads):
        shape = self.pick(["same", "split", "random"], [30, 30, 40])
        for t in threads:
            if self.ptx:
                if shape == "same":
                    t.place = (0, 0)
                elif shape == "split":
                    t.place = (t.index % 2, 0)
                else:
                    t.place = (self.pick([0, 1]), self.pick([0, 0, 1]))
            else:
                if shape == "same":
                    t.place = (0, 0, 0)
                elif shape == "split":
                    t.place = (0, t.index % 2, 0)
                else:
                    t.place = (self.pick([0, 1]), self.pick([0, 1]), self.pick([0, 0, 0, 1]))

    def place_text(self, t):
        if self.ptx:
            return f"P{t.pid}@cta {t.place[0]},gpu {t.place[1]}"
        return f"P{t.pid}@sg {t.place[0]}, wg {t.place[1]}, qf {t.place[2]}"

    # ------------------------------------------------------------ PTX instructions
    def ptx_loc_and_base(self, kind, loc):
        """The mnemonic base fitting the location's proxy (mostly)."""
        proxy = self.proxy_of[loc]
        if self.chance(0.15):
            proxy = self.pick(["generic", "surface", "texture", "constant"])
        bases = {"load": {"generic": "ld", "surface": "suld", "texture": "tld", "constant": "cold"},
                 "store": {"generic": "st", "surface": "sust"},
                 "atom": {"generic": "atom", "surface": "suatom"},
                 "red": {"generic": "red", "surface": "sured"}}[kind]
        return bases.get(proxy, bases["generic"])

    def write_kind(self, t, kind, locs):
        """kind, loc: a write kind whose location has room, else a load."""
        room = self.writable(locs) if kind != "load" else []
        if not room:
            kind = "load"
            loc = self.pick(locs)
        else:
            loc = self.pick(room)
            self.count_write(t, loc)
        if kind in ("load", "atom", "rmw"):
            p = self.phys(loc)
            t.reads[p] = t.reads.get(p, 0) + self.mult
            self.events.append((p, "r", self.loop_kind))
            t.events.append((p, "r", self.loop_kind))
        return kind, loc

    def oracle_estimate(self, bound):
        """A rough count of the oracle's candidate executions: a write (or
        the initial value) for each read, times the coherence orders.  Loop
        bodies count `bound` times (spin loops once), duplicated threads twice."""
        orders = [1, 1, 3, 19, 219, 4231, 130023] if self.ptx else [1, 1, 2, 6, 24, 120, 720, 5040]
        w, r = {}, {}
        for p, kind, loop in self.events + self.dup_events:
            n = bound if loop == "loop" else 1
            d = w if kind == "w" else r
            d[p] = d.get(p, 0) + n
        est = 1
        for p in r.keys() | w.keys():
            est *= (w.get(p, 0) + 1) ** r.get(p, 0) * orders[min(w.get(p, 0), len(orders) - 1)]
        # the oracle tries every subset of the named barriers as synchronising
        return est * 2 ** min(self.quorum_bars[0] + bound * self.quorum_bars[1], 30)

    def ptx_order(self, kind, base):
        if base in ("tld", "suld", "cold", "sust") and self.chance(0.85):
            return "weak"
        if kind == "load":
            mo = self.pick(["weak", "relaxed", "acquire"], [40, 35, 25])
        else:
            mo = self.pick(["weak", "relaxed", "release"], [40, 35, 25])
        return mo if mo == "weak" else f"{mo}.{self.pick(PTX_SCOPES, [30, 55, 15])}"

    def ptx_access(self, t, kind=None):
        kind = kind or self.pick(["load", "store", "atom", "red"], [40, 35, 18, 7])
        kind, loc = self.write_kind(t, kind, self.locs)
        base = self.ptx_loc_and_base(kind, loc)
        t.nmem += 1
        if kind == "load":
            return f"{base}.{self.ptx_order('load', base)} {self.new_reg(t)}, {loc}"
        if kind == "store":
            return f"{base}.{self.ptx_order('store', base)} {loc}, {self.value(t)}"
        mo = self.pick(["relaxed", "acquire", "release", "acq_rel"], [40, 20, 20, 20])
        sc = self.pick(PTX_SCOPES, [30, 55, 15])
        if kind == "red":
            op = self.pick(["add", "sub", "and", "or", "xor", "mul", "div"], [50, 10, 8, 8, 8, 8, 8])
            return f"{base}.{mo}.{sc}.{op} {loc}, {self.value(t)}"
        op = self.pick(["add", "exch", "cas", "sub", "and", "or", "xor", "mul", "div"],
                       [30, 25, 25, 4, 4, 4, 4, 2, 2])
        dst = self.new_reg(t)
        if op == "cas":
            return f"{base}.{mo}.{sc}.cas {dst}, {loc}, {self.value(t)}, {self.value(t)}"
        return f"{base}.{mo}.{sc}.{op} {dst}, {loc}, {self.value(t)}"

    def ptx_fence(self):
        k = self.pick(["sc", "acq_rel", "proxy", "alias"], [35, 25, 25, 15] if self.aliases else [55, 40, 5, 0])
        if k == "proxy":
            return "fence.proxy." + self.pick(["surface", "texture", "generic", "constant"], [45, 35, 10, 10])
        if k == "alias":
            return "fence.proxy.alias"
        return f"fence.{k}.{self.pick(PTX_SCOPES, [35, 50, 15])}"

    # ------------------------------------------------------------ Vulkan instructions
    def vk_semsc(self, loc=None):
        classes = {self.sclass[loc]} if loc is not None else {0}
        if self.chance(0.25):
            classes.add(self.pick([0, 1]))
        if self.chance(0.05):
            classes = {self.pick([0, 1, 2, 3])}
        return "".join(f".semsc{c}" for c in sorted(classes))

    def vk_access(self, t, kind=None):
        kind = kind or self.pick(["load", "store", "rmw"], [40, 38, 22])
        kind, loc = self.write_kind(t, kind, self.locs)
        sc = f"sc{self.sclass[loc]}"
        scope = self.pick(VK_SCOPES, [10, 30, 10, 50])
        t.nmem += 1
        if kind == "rmw":
            mo = self.pick(["", "acq", "rel", "acq_rel"], [55, 15, 15, 15])
            text = "rmw.atom"
            if mo:
                text += f".{mo}.{scope}.{sc}{self.vk_semsc(loc)}"
                if mo in ("rel", "acq_rel") and self.chance(0.3):
                    text += ".semav"
                if mo in ("acq", "acq_rel") and self.chance(0.3):
                    text += ".semvis"
            else:
                text += f".{scope}.{sc}"
            op = self.pick(["", "add", "sub", "and", "or", "xor", "mul", "div"], [40, 40, 4, 4, 4, 4, 2, 2])
            if op:
                text += "." + op
            return f"{text} {self.new_reg(t)}, {loc}, {self.value(t)}"
        atomic = self.chance(0.55)
        if atomic:
            mo = ""
            if self.chance(0.45):
                mo = "acq" if kind == "load" else "rel"
            text = f"{'ld' if kind == 'load' else 'st'}.atom"
            if mo:
                text += f".{mo}.{scope}.{sc}{self.vk_semsc(loc)}"
                if self.chance(0.35):
                    text += ".semvis" if kind == "load" else ".semav"
            else:
                text += f".{scope}.{sc}"
        else:
            style = self.pick(["plain", "nonpriv", "avvis"], [30, 20, 50])
            text = "ld" if kind == "load" else "st"
            if style == "nonpriv":
                text += ".nonpriv"
            elif style == "avvis":
                text += f".{'vis' if kind == 'load' else 'av'}.{scope}"
            text += f".{sc}"
        if kind == "load":
            return f"{text} {self.new_reg(t)}, {loc}"
        return f"{text} {loc}, {self.value(t)}"

    def vk_fence(self):
        k = self.pick(["membar", "avdevice", "visdevice"], [80, 10, 10])
        if k != "membar":
            return k
        mo = self.pick(["acq", "rel", "acq_rel"])
        text = f"membar.{mo}.{self.pick(VK_SCOPES, [10, 30, 10, 50])}{self.vk_semsc()}"
        if mo != "acq" and self.chance(0.3):
            text += ".semav"
        if mo != "rel" and self.chance(0.3):
            text += ".semvis"
        return text

    # ------------------------------------------------------------ shared pieces
    def access(self, t, kind=None):
        return self.ptx_access(t, kind) if self.ptx else self.vk_access(t, kind)

    def load(self, t):
        return self.access(t, "load")

    def fence(self):
        return self.ptx_fence() if self.ptx else self.vk_fence()

    def local(self, t):
        ops = ["add", "sub", "mul", "div"] if self.ptx else ["add", "sub", "mul", "div", "and", "or", "xor"]
        op = self.pick(ops, [50, 20, 10, 5] + [5] * (len(ops) - 4))
        if self.ptx and self.chance(0.15):
            return f"ld {self.new_reg(t)}, {self.value(t)}"      # PTX register move
        a = self.value(t)
        b = self.value(t)
        return f"{op} {self.new_reg(t)}, {a}, {b}"

    def cond_op(self):
        return self.pick(["beq", "bne", "blt", "bgt", "ble", "bge"], [40, 40, 5, 5, 5, 5])

    def barrier(self, bar_id, quorum=None, arrive=False):
        """A control barrier with instance bar_id; quorum = (id, count)."""
        tail = f" {bar_id}" if quorum is None else f" {bar_id}, {quorum[0]}, {quorum[1]}"
        if self.ptx:
            return f"bar.cta.{'arrive' if arrive else 'sync'}{tail}"
        if self.chance(0.35):
            return f"cbar.{self.pick(VK_SCOPES, [15, 55, 10, 20])}{tail}"
        text = f"cbar.{self.pick(['acq_rel', 'acq', 'rel'], [70, 15, 15])}.{self.pick(VK_SCOPES, [15, 55, 10, 20])}"
        text += self.vk_semsc()
        if "acq_rel" in text and self.chance(0.2):
            text += ".semav.semvis"
        return text + tail

    # ------------------------------------------------------------ blocks
    def block(self, t):
        """Instructions for one piece of a thread."""
        kinds = ["access", "fence", "local", "if", "spin", "wloop", "goto"]
        weights = [60, 12, 5, 9, 6, 5, 2]
        if "loop" in self.exclude:
            weights[4:] = [0, 0, 0]
        if "branch" in self.exclude:
            weights[3] = weights[6] = 0
        kind = self.pick(kinds, weights)
        if kind in ("spin", "wloop", "goto"):
            self.mult = 2
            self.loop_kind = "spin" if kind == "spin" else "loop"
        try:
            return self.block_of(t, kind)
        finally:
            self.mult = 1
            self.loop_kind = None

    def block_of(self, t, kind):
        if kind == "access":
            return [self.access(t)]
        if kind == "fence":
            return [self.fence()]
        if kind == "local":
            return [self.local(t)] if t.regs else [self.access(t)]
        if kind == "if":
            code = []
            if t.regs and self.chance(0.3):
                r = self.pick(t.regs)
            else:
                code.append(self.load(t))
                r = code[-1].split()[1].rstrip(",")
            end = self.label(t)
            code.append(f"{self.cond_op()} {r}, {self.fmt_const(self.const())}, {end}")
            for _ in range(self.pick([1, 2], [75, 25])):
                code.append(self.access(t) if self.chance(0.85) else self.fence())
            if self.chance(0.15):   # if-else
                after = self.label(t)
                code.append(f"goto {after}")
                code.append(f"{end}:")
                code.append(self.access(t))
                code.append(f"{after}:")
            else:
                code.append(f"{end}:")
            return code
        self.loops = True
        if kind == "spin":
            head = self.label(t)
            ld = self.load(t)
            r = ld.split()[1].rstrip(",")
            code = [f"{head}:", ld]
            if self.chance(0.2):
                code.append(self.load(t))          # a second read in the iteration
            code.append(f"{self.pick(['bne', 'beq'], [70, 30])} {r}, {self.fmt_const(self.const())}, {head}")
            return code
        if kind == "wloop":
            head = self.label(t)
            shape = self.pick(["rmw", "stld", "count"], [50, 30, 20])
            code = [f"{head}:"]
            if shape == "rmw":
                code.append(self.access(t, "atom" if self.ptx else "rmw"))
                r = code[-1].split()[1].rstrip(",")
                code.append(f"{self.cond_op()} {r}, {self.fmt_const(self.const())}, {head}")
            elif shape == "stld":
                code.append(self.access(t, "store"))
                code.append(self.load(t))
                r = code[-1].split()[1].rstrip(",")
                code.append(f"{self.cond_op()} {r}, {self.fmt_const(self.const())}, {head}")
            else:
                r = self.new_reg(t)
                code.append(f"add {r}, {r}, 1")
                room = self.writable(self.base)
                if room:
                    loc = self.pick(room)
                    self.count_write(t, loc)
                    if self.ptx:
                        code.append(f"st.{self.ptx_order('store', 'st')} {loc}, {r}")
                    else:
                        code.append(f"st.atom.{self.pick(VK_SCOPES)}.sc{self.sclass[loc]} {loc}, {r}")
                    t.nmem += 1
                code.append(f"{self.pick(['blt', 'bne'])} {r}, 2, {head}")
            return code
        # goto: a jump into the middle of a loop (irreducible) or over code
        if self.chance(0.5):
            skip = self.label(t)
            return [f"goto {skip}", self.access(t), f"{skip}:"]
        a, b = self.label(t), self.label(t)
        ld = self.load(t)
        r = ld.split()[1].rstrip(",")
        return [f"goto {b}", f"{a}:", self.access(t), f"{b}:", ld,
                f"{self.cond_op()} {r}, {self.fmt_const(self.const())}, {a}"]

    # ------------------------------------------------------------ whole program
    def program(self, name):
        r = self.r
        self.same_labels = self.chance(0.1)
        self.make_locations()
        n = self.pick([1, 2, 3, 4], [8, 45, 32, 15])
        pids = list(range(n))
        if self.chance(0.05):
            pids = sorted(r.sample(range(6), n))   # thread numbers with gaps
        threads = [Thread(i, pid) for i, pid in enumerate(pids)]
        self.threads = threads
        self.place_threads(threads)
        budget = self.pick([2, 3, 4, 5, 6, 7], [8, 20, 28, 24, 14, 6])
        per = max(1, budget // n)
        for t in threads:
            for _ in range(self.pick(range(1, per + 2))):
                if t.nmem >= per + 1 or sum(u.nmem for u in threads) >= budget + 1:
                    break
                t.code += self.block(t)
            if not t.code:
                t.code.append(self.access(t))
        self.add_barriers(threads)
        sym = None
        if n >= 2 and self.chance(0.15):
            sym = self.duplicate_thread(threads)
        return self.render(name, threads, sym)

    def add_barriers(self, threads):
        if "barrier" in self.exclude:
            return
        if self.chance(0.22 if len(threads) > 1 else 0.05):
            self.add_barriers_of(threads)
        elif len(threads) > 1 and self.brng.random() < 0.25:
            saved, self.r = self.r, self.brng    # more barrier programs, on the barrier stream
            try:
                self.add_barriers_of(threads)
            finally:
                self.r = saved

    def add_barriers_of(self, threads):
        bar_id = self.pick([0, 1, 2])
        users = [t for t in threads if self.chance(0.8)] or threads[:1]
        quorum = None
        if self.chance(0.15):
            quorum = (self.pick([1, 2]), self.pick([1, 2, 3, 4]))
        for t in users:
            pos = self.r.randint(0, len(t.code))
            while pos < len(t.code) and t.code[pos].endswith(":") and pos > 0:
                pos += 1
            arrive = self.ptx and self.chance(0.15)
            t.code.insert(pos, self.barrier(bar_id, quorum, arrive))
            if self.chance(0.12):      # a second barrier in the same thread
                t.code.insert(self.r.randint(pos + 1, len(t.code)),
                              self.barrier(self.pick([bar_id, bar_id, bar_id + 1]), quorum))
        if self.ptx and quorum is None and self.chance(0.1):
            # a barrier whose id is a register
            t = users[0]
            if t.regs:
                t.code.append(f"bar.cta.sync 1, {self.pick(t.regs)}")
        self.barrier_ids.append(bar_id)
        self.barrier_shapes(users, bar_id, quorum)

    def barrier_shapes(self, users, bar_id, quorum):
        """Issue 26's shapes, on the barrier stream: quorums that differ
        between the threads of one barrier, occurrences that threads reach a
        different number of times, and barriers inside spin loops and loops
        that write.  Also counts the quorum barriers for the oracle estimate."""
        b = self.brng
        plain = re.compile(rf"^(c?bar\.\S+) {bar_id}$")
        named = re.compile(rf"^(c?bar\.\S+) {bar_id}, (\d+), (\d+)$")
        if quorum is None and b.random() < 0.4:     # the barriers get a quorum
            quorum = (b.choice([1, 2]), b.choice([1, 2, 3, 4]))
            for t in users:
                t.code = [plain.sub(rf"\1 {bar_id}, {quorum[0]}, {quorum[1]}", ins) for ins in t.code]
        mixed = quorum is not None and b.random() < 0.7
        if mixed:                                   # each thread its own count
            for t in users:
                q = b.choice([1, 2, 3, 4])
                t.code = [named.sub(rf"\1 {bar_id}, \2, {q}", ins) for ins in t.code]
        saved, self.r = self.r, b      # barrier texts draw too (Vulkan semantics)
        try:
            for t in users:
                q = None if quorum is None else (quorum[0], b.choice([1, 2, 3, 4]) if mixed else quorum[1])
                if b.random() < 0.35:               # reached more often than the others
                    for _ in range(b.choice([1, 1, 2])):
                        pos = b.randint(0, len(t.code))
                        while 0 < pos < len(t.code) and t.code[pos].endswith(":"):
                            pos += 1
                        t.code.insert(pos, self.barrier(bar_id, q, self.ptx and b.random() < 0.1))
                heads = [i for i, ins in enumerate(t.code) if ins.endswith(":")
                         and any(j > i and c.split()[-1] == ins[:-1] and not c.startswith("goto")
                                 for j, c in enumerate(t.code))]
                if heads and b.random() < 0.6:      # inside a loop (a spin loop, most often)
                    t.code.insert(b.choice(heads) + 1, self.barrier(bar_id, q))
        finally:
            self.r = saved
        for t in users:
            inside = False
            for ins in t.code:
                if ins.endswith(":"):
                    inside = True     # rough: after a label counts as a loop copy
                if (ins.startswith("bar.") or ins.startswith("cbar.")) and ins.count(",") == 2:
                    self.quorum_bars[1 if inside else 0] += 1

    def duplicate_thread(self, threads):
        """Makes the last thread a copy of the first (same code, symmetric place)."""
        src, dst = threads[0], threads[-1]
        for p, w in src.writes.items():
            if self.total_writes(p) - dst.writes.get(p, 0) + w > self.write_cap:
                return None
        dst.writes = dict(src.writes)
        dst.reads = dict(src.reads)
        self.dup_events = list(src.events)
        self.events = [e for u in self.threads if u is not dst for e in u.events]
        dst.code = []
        for ins in src.code:
            if src.index != dst.index and not self.same_labels:
                ins = ins.replace(f"LC{src.index}", f"LC{dst.index}")
            dst.code.append(ins)
        dst.regs = list(src.regs)
        dst.nlabels = src.nlabels
        if self.ptx:
            dst.place = (src.place[0] + (0 if self.chance(0.5) else 1), src.place[1])
        else:
            dst.place = (src.place[0] + (0 if self.chance(0.5) else 1), src.place[1], src.place[2])
        return (src, dst)

    def condition_atom(self, threads, sym):
        avoid = set()
        if sym and self.chance(0.7):
            avoid = {sym[0].index, sym[1].index}
        regs = [(t, x) for t in threads if t.index not in avoid for x in t.regs]
        if regs and self.chance(0.6):
            t, x = self.pick(regs)
            lhs = f"{self.thread_ref(t)}:{x}"
        else:
            loc = self.pick(self.locs if self.chance(0.2) else self.base)
            lhs = f"[{loc}]" if self.chance(0.05) else loc
        op = self.pick(["==", "!=", "<", ">", "<=", ">=", "="], [67, 18, 3, 3, 3, 3, 3])
        v = self.pick(sorted(self.values))
        return f"{lhs} {op} {v}"

    def condition(self, threads, sym, depth=0):
        k = self.pick(["atom", "and", "or", "not"], [45, 40, 10, 5] if depth < 2 else [1, 0, 0, 0])
        if k == "atom":
            return self.condition_atom(threads, sym)
        if k == "not":
            return f"{self.pick(['~', 'not '], [80, 20])}({self.condition(threads, sym, depth + 1)})"
        a = self.condition(threads, sym, depth + 1)
        b = self.condition(threads, sym, depth + 1)
        conn = "/\\" if k == "and" else "\\/"
        return f"({a} {conn} {b})"

    def thread_ref(self, t):
        """P3, or now and then the bare number the parser also accepts."""
        return f"{t.pid}" if self.chance(0.05) else f"P{t.pid}"

    def render(self, name, threads, sym):
        out = [f"{'PTX' if self.ptx else self.pick(['VULKAN', 'Vulkan'])} {name}",
               '"generated by tests/random/gen.py"']
        if self.chance(0.03):
            out.append("<< an exec config block >>")
        out.append("{")
        inits = [f"{x}={v};" for x, v in self.init.items()]
        for a, proxy, target in self.aliases:
            inits.append(f"{a} @ {proxy} aliases {target};" if proxy else f"{a} aliases {target};")
        for t in threads:
            for x in t.regs:
                if self.chance(0.1):
                    inits.append(f"{self.thread_ref(t)}:{x}={self.pick([0, 1, 2])};")
                elif self.chance(0.3):
                    inits.append(f"{self.thread_ref(t)}:{x}=0;")
        if self.chance(0.05):
            inits.insert(self.r.randint(0, len(inits)), "(* a comment *)")
        out += inits
        out.append("}")
        if not self.ptx and len(threads) > 1 and self.chance(0.08):
            a, b = self.r.sample(threads, 2)
            out += ["{", f"ssw {a.pid} {b.pid};", "}"]
        header = [self.place_text(t) for t in threads]
        rows = max(len(t.code) for t in threads)
        cols = [t.code + [""] * (rows - len(t.code)) for t in threads]
        widths = [max(len(c) for c in [h] + col) for h, col in zip(header, cols)]
        out.append(" " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " ;")
        for i in range(rows):
            out.append(" " + " | ".join(col[i].ljust(w) for col, w in zip(cols, widths)) + " ;")
        if self.chance(0.05):
            regs = [f"P{t.pid}:{x}" for t in threads for x in t.regs]
            entries = self.r.sample(self.base + regs, min(3, len(self.base + regs)))
            out.append(f"locations [{'; '.join(entries)};]")
        if self.chance(0.15) and "filter" not in self.exclude:
            out.append(f"filter {self.condition(threads, sym)}")
        q = self.pick(["exists", "~exists", "forall", "not exists", "exists0"], [45, 25, 22, 3, 5])
        if q == "exists0":
            out.append("exists 0==0")
        else:
            out.append(f"{q} {self.condition(threads, sym)}")
        return "\n".join(out) + "\n"


FEATURES = ("barrier", "loop", "branch", "alias", "filter")


def generate(seed, index=0, dialect=None, exclude=()):
    """The program for (seed, index): (text, dialect, bound, estimate), where
    estimate is a rough count of the oracle's candidate executions."""
    rng = random.Random(f"gpubmc-gen:{seed}:{index}")
    dialect = dialect or rng.choice(["ptx", "vulkan"])
    g = Gen(rng, dialect, exclude, random.Random(f"gpubmc-gen-barriers:{seed}:{index}"))
    text = g.program(f"G{seed}_{index}")
    bound = 2 if g.loops and rng.random() < 0.4 else 1
    return text, dialect, bound, g.oracle_estimate(bound)


def emit(programs, out, many):
    """Writes (file name, text) pairs into directory out, or their texts to
    stdout (a blank line after each when many)."""
    for name, text in programs:
        if out:
            os.makedirs(out, exist_ok=True)
            with open(os.path.join(out, name), "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text + ("\n" if many else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--index", type=int, default=0, help="first program index")
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--dialect", choices=["ptx", "vulkan"])
    ap.add_argument("--out", help="directory for the files (default: stdout)")
    ap.add_argument("--exclude", action="append", default=[], choices=FEATURES,
                    help="leave a feature out (repeatable)")
    a = ap.parse_args()

    def programs():
        for i in range(a.index, a.index + a.count):
            text, dialect, bound, _estimate = generate(a.seed, i, a.dialect, a.exclude)
            yield f"g{a.seed}-{i:05d}-{dialect}-b{bound}.litmus", text
    emit(programs(), a.out, a.count > 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
