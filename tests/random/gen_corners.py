#!/usr/bin/env python3
"""Random litmus programs aimed at the corners issue 20 names, in the syntax
Dartagnan's parser accepts (labels LC<digits>, threads P0..Pn-1, decimal
constants): PTX proxies and aliases with and without proxy/alias fences,
Vulkan av/vis operations (.av/.vis accesses, avdevice, visdevice, semav,
semvis, storage classes and semantics, aliases), control barriers with
several threads and ids (PTX bar.cta.sync/arrive with instance, id and
quorum; Vulkan cbar with and without semantics), barriers used twice or in
loops, and loops that write (counters, CAS locks, exchange loops, store-load
loops).  Small on purpose (1-4 threads, a handful of events).

Seeded: generate(seed, index) -> (text, bound) always gives the same program.

    gen_corners.py --seed 7 --index 3           program 3 of seed 7
    gen_corners.py --seed 7 --count 50 --out D  D/c7-00000.litmus ...
"""
import argparse, random, sys

import gen

PTX_SCOPES = ["cta", "gpu", "sys"]
VK_SCOPES = ["sg", "wg", "qf", "dv"]


class Prog:
    def __init__(self, rng, ptx):
        self.r = rng
        self.ptx = ptx
        self.code = []          # per thread
        self.regs = []          # per thread: registers written
        self.nlab = []          # per thread: labels made
        self.places = []
        self.locs = []          # base locations
        self.aliases = []       # (name, proxy or None, target)
        self.init = {}
        self.sclass = {}        # Vulkan storage class per name
        self.values = {0, 1}
        self.loops = False
        self.reginit = []

    # ------------------------------------------------------------ helpers
    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq, w=None):
        return self.r.choices(seq, weights=w)[0] if w else self.r.choice(seq)

    def thread(self):
        self.code.append([])
        self.regs.append([])
        self.nlab.append(0)
        return len(self.code) - 1

    def reg(self, t):
        if self.regs[t] and self.chance(0.1):
            return self.pick(self.regs[t])
        name = f"r{len(self.regs[t])}"
        self.regs[t].append(name)
        return name

    def label(self, t):
        self.nlab[t] += 1
        return f"LC{t}{self.nlab[t] - 1}"

    def const(self):
        v = self.pick([1, 2, 3, 0], [50, 30, 12, 8])
        self.values.add(v)
        return v

    def val(self, t):
        if self.regs[t] and self.chance(0.2):
            return self.pick(self.regs[t])
        return str(self.const())

    def emit(self, t, *ins):
        self.code[t].extend(ins)

    def names(self):
        return self.locs + [a for a, _, _ in self.aliases]

    def proxy(self, name):
        for a, p, _ in self.aliases:
            if a == name:
                return p
        return "generic"

    # ------------------------------------------------------------ PTX pieces
    def ptx_mo(self, kind):
        if kind == "load":
            mo = self.pick(["weak", "relaxed", "acquire"], [40, 35, 25])
        else:
            mo = self.pick(["weak", "relaxed", "release"], [40, 35, 25])
        return mo if mo == "weak" else f"{mo}.{self.pick(PTX_SCOPES, [35, 50, 15])}"

    def ptx_load(self, t, loc=None, mo=None):
        loc = loc or self.pick(self.names())
        base = {"generic": "ld", "surface": "suld", "texture": "tld", "constant": "cold"}[self.proxy(loc)]
        if self.chance(0.06):
            base = self.pick(["ld", "suld", "tld"])
        if mo is None:
            mo = self.ptx_mo("load") if base == "ld" or self.chance(0.1) else "weak"
        r = self.reg(t)
        self.emit(t, f"{base}.{mo} {r}, {loc}")
        return r

    def ptx_store(self, t, loc=None, mo=None, v=None):
        loc = loc or self.pick([n for n in self.names() if self.proxy(n) in ("generic", "surface")])
        base = "sust" if self.proxy(loc) == "surface" else "st"
        if self.chance(0.05):
            base = self.pick(["st", "sust"])
        if mo is None:
            mo = self.ptx_mo("store") if base == "st" or self.chance(0.1) else "weak"
        self.emit(t, f"{base}.{mo} {loc}, {v if v is not None else self.val(t)}")

    def ptx_rmw(self, t, loc=None, op=None, red=False):
        loc = loc or self.pick([n for n in self.names() if self.proxy(n) in ("generic", "surface")])
        sur = self.proxy(loc) == "surface"
        mo = self.pick(["relaxed", "acquire", "release", "acq_rel"], [45, 20, 20, 15])
        sc = self.pick(PTX_SCOPES, [30, 55, 15])
        if red:
            self.emit(t, f"{'sured' if sur else 'red'}.{mo}.{sc}.{self.pick(['add', 'add', 'sub'])} {loc}, {self.val(t)}")
            return None
        op = op or self.pick(["add", "exch", "cas"], [40, 30, 30])
        r = self.reg(t)
        base = "suatom" if sur else "atom"
        if op == "cas":
            self.emit(t, f"{base}.{mo}.{sc}.cas {r}, {loc}, {self.val(t)}, {self.val(t)}")
        else:
            self.emit(t, f"{base}.{mo}.{sc}.{op} {r}, {loc}, {self.val(t)}")
        return r

    def ptx_fence(self, t, kind=None):
        kind = kind or self.pick(["sc", "acq_rel", "proxy", "alias"],
                                 [25, 20, 35, 20] if self.aliases else [55, 45, 0, 0])
        if kind == "proxy":
            px = [p for _, p, _ in self.aliases if p != "generic"] or ["surface"]
            self.emit(t, "fence.proxy." + (self.pick(px) if self.chance(0.8) else
                                           self.pick(["surface", "texture", "constant", "generic"])))
        elif kind == "alias":
            self.emit(t, "fence.proxy.alias")
        else:
            self.emit(t, f"fence.{kind}.{self.pick(PTX_SCOPES, [35, 50, 15])}")

    # ------------------------------------------------------------ Vulkan pieces
    def vk_semsc(self, loc=None):
        cs = {self.sclass.get(loc, 0)} if loc else {self.pick([0, 0, 1])}
        if self.chance(0.2):
            cs.add(1 - min(cs))
        return "".join(f".semsc{c}" for c in sorted(cs))

    def vk_scope(self):
        return self.pick(VK_SCOPES, [10, 30, 10, 50])

    def vk_load(self, t, loc=None, style=None):
        loc = loc or self.pick(self.names())
        sc = f"sc{self.sclass[loc]}"
        style = style or self.pick(["atom", "acq", "plain", "nonpriv", "vis"], [25, 20, 15, 10, 30])
        r = self.reg(t)
        if style == "atom":
            ins = f"ld.atom.{self.vk_scope()}.{sc}"
        elif style == "acq":
            ins = f"ld.atom.acq.{self.vk_scope()}.{sc}{self.vk_semsc(loc)}" + (".semvis" if self.chance(0.5) else "")
        elif style == "plain":
            ins = f"ld.{sc}"
        elif style == "nonpriv":
            ins = f"ld.nonpriv.{sc}"
        else:
            ins = f"ld.vis.{self.vk_scope()}.{sc}"
        self.emit(t, f"{ins} {r}, {loc}")
        return r

    def vk_store(self, t, loc=None, style=None, v=None):
        loc = loc or self.pick(self.names())
        sc = f"sc{self.sclass[loc]}"
        style = style or self.pick(["atom", "rel", "plain", "nonpriv", "av"], [25, 20, 15, 10, 30])
        if style == "atom":
            ins = f"st.atom.{self.vk_scope()}.{sc}"
        elif style == "rel":
            ins = f"st.atom.rel.{self.vk_scope()}.{sc}{self.vk_semsc(loc)}" + (".semav" if self.chance(0.5) else "")
        elif style == "plain":
            ins = f"st.{sc}"
        elif style == "nonpriv":
            ins = f"st.nonpriv.{sc}"
        else:
            ins = f"st.av.{self.vk_scope()}.{sc}"
        self.emit(t, f"{ins} {loc}, {v if v is not None else self.val(t)}")

    def vk_rmw(self, t, loc=None, op=None):
        loc = loc or self.pick(self.names())
        sc = f"sc{self.sclass[loc]}"
        mo = self.pick(["", "acq", "rel", "acq_rel"], [45, 20, 20, 15])
        ins = "rmw.atom"
        if mo:
            ins += f".{mo}.{self.vk_scope()}.{sc}{self.vk_semsc(loc)}"
            if mo in ("rel", "acq_rel") and self.chance(0.3):
                ins += ".semav"
            if mo in ("acq", "acq_rel") and self.chance(0.3):
                ins += ".semvis"
        else:
            ins += f".{self.vk_scope()}.{sc}"
        op = op if op is not None else self.pick(["", "add"], [50, 50])
        if op:
            ins += f".{op}"
        r = self.reg(t)
        self.emit(t, f"{ins} {r}, {loc}, {self.val(t)}")
        return r

    def vk_fence(self, t, kind=None):
        kind = kind or self.pick(["membar", "avdevice", "visdevice"], [70, 15, 15])
        if kind != "membar":
            self.emit(t, kind)
            return
        mo = self.pick(["acq", "rel", "acq_rel"])
        ins = f"membar.{mo}.{self.vk_scope()}{self.vk_semsc()}"
        if mo != "acq" and self.chance(0.5):
            ins += ".semav"
        if mo != "rel" and self.chance(0.5):
            ins += ".semvis"
        self.emit(t, ins)

    # ------------------------------------------------------------ shared pieces
    def load(self, t, loc=None):
        return self.ptx_load(t, loc) if self.ptx else self.vk_load(t, loc)

    def store(self, t, loc=None, v=None):
        return self.ptx_store(t, loc, v=v) if self.ptx else self.vk_store(t, loc, v=v)

    def rmw(self, t, loc=None, op=None):
        return self.ptx_rmw(t, loc, op) if self.ptx else self.vk_rmw(t, loc, op)

    def fence(self, t):
        return self.ptx_fence(t) if self.ptx else self.vk_fence(t)

    def access(self, t, loc=None):
        k = self.pick(["load", "store", "rmw"], [45, 40, 15])
        if k == "load":
            self.load(t, loc)
        elif k == "store":
            self.store(t, loc)
        else:
            self.rmw(t, loc)

    def barrier(self, t, inst, named=None):
        """named = (id, quorum or None)"""
        tail = f" {inst}" if named is None else f" {inst}, {named[0]}" + (f", {named[1]}" if named[1] else "")
        if self.ptx:
            self.emit(t, f"bar.cta.{'arrive' if self.chance(0.15) else 'sync'}{tail}")
            return
        if self.chance(0.35):
            self.emit(t, f"cbar.{self.pick(VK_SCOPES, [15, 55, 10, 20])}{tail}")
            return
        mo = self.pick(["acq_rel", "acq", "rel"], [70, 15, 15])
        ins = f"cbar.{mo}.{self.pick(VK_SCOPES, [15, 55, 10, 20])}{self.vk_semsc()}"
        if mo != "acq" and self.chance(0.3):
            ins += ".semav"
        if mo != "rel" and self.chance(0.3):
            ins += ".semvis"
        self.emit(t, ins + tail)

    # ------------------------------------------------------------ setup
    def setup_locations(self, n, alias_p):
        self.locs = ["x", "y", "z"][:n]
        for x in self.locs:
            self.init[x] = 0 if self.chance(0.92) else self.pick([1, 2])
            self.sclass[x] = 0 if self.chance(0.75) else 1
        if self.chance(alias_p):
            if self.ptx:
                for _ in range(self.pick([1, 2, 3], [50, 35, 15])):
                    proxy = self.pick(["surface", "texture", "constant", "generic"], [40, 25, 10, 25])
                    target = self.pick(self.locs[:1] if self.chance(0.7) else self.names())
                    name = {"surface": "s", "texture": "t", "constant": "k", "generic": "g"}[proxy]
                    name += str(sum(1 for a in self.aliases if a[0][0] == name))
                    self.aliases.append((name, proxy, target))
            else:
                target = self.locs[0]
                self.aliases.append(("a", None, target))
                self.sclass["a"] = self.sclass[target] if self.chance(0.8) else 1 - self.sclass[target]

    def setup_places(self, n, split_p=0.4):
        shape = self.pick(["same", "split", "random"], [1 - split_p, split_p / 2, split_p / 2])
        for k in range(n):
            if self.ptx:
                if shape == "same":
                    pl = (0, 0)
                elif shape == "split":
                    pl = (k % 2, 0)
                else:
                    pl = (self.pick([0, 1]), self.pick([0, 0, 1]))
                self.places.append(f"P{k}@cta {pl[0]},gpu {pl[1]}")
            else:
                if shape == "same":
                    pl = (self.pick([0, 0, 1]), 0, 0)
                elif shape == "split":
                    pl = (0, k % 2, 0)
                else:
                    pl = (self.pick([0, 1]), self.pick([0, 1]), self.pick([0, 0, 0, 1]))
                self.places.append(f"P{k}@sg {pl[0]}, wg {pl[1]}, qf {pl[2]}")

    # ------------------------------------------------------------ families
    def fam_proxy(self):
        """PTX: one physical location seen through proxies and aliases."""
        self.setup_locations(self.pick([1, 2], [50, 50]), 1.0)
        n = self.pick([1, 2, 3], [35, 50, 15])
        self.setup_places(n)
        shape = self.pick(["seq", "mp", "mix"], [35, 35, 30]) if n >= 2 else "seq"
        if shape == "mp" and len(self.locs) < 2:
            self.locs.append("y")
            self.init["y"] = 0
        for _ in range(n):
            self.thread()
        if shape == "mp":
            data = self.locs[0]
            names = [data] + [a for a, _, tg in self.aliases]
            w, rd = self.pick(names), self.pick(names)
            if self.proxy(w) not in ("generic", "surface"):
                w = data
            self.ptx_store(0, w, mo="weak", v=2)
            for _ in range(self.pick([0, 1, 2], [30, 45, 25])):
                self.ptx_fence(0, self.pick(["proxy", "alias", "acq_rel"], [50, 35, 15]))
            self.ptx_store(0, "y", mo=f"release.{self.pick(PTX_SCOPES, [40, 50, 10])}", v=1)
            r0 = self.ptx_load(1, "y", mo=f"acquire.{self.pick(PTX_SCOPES, [40, 50, 10])}")
            for _ in range(self.pick([0, 1, 2], [30, 45, 25])):
                self.ptx_fence(1, self.pick(["proxy", "alias", "acq_rel"], [50, 35, 15]))
            r1 = self.ptx_load(1, rd)
            for t in range(2, n):
                for _ in range(self.pick([1, 2])):
                    self.access(t)
            return f"P1:{r0} == 1 /\\ P1:{r1} != 2" if self.chance(0.7) else None
        for t in range(n):
            for _ in range(self.pick([2, 3, 4], [40, 40, 20]) if shape == "seq" else self.pick([1, 2, 3])):
                if self.chance(0.3 if shape == "seq" else 0.2):
                    self.ptx_fence(t, self.pick(["proxy", "alias", "sc", "acq_rel"], [45, 35, 10, 10]))
                group = [self.locs[0]] + [a for a, _, _ in self.aliases]
                self.access(t, self.pick(group) if self.chance(0.85) else None)
        return None

    def fam_avvis(self):
        """Vulkan: message passing and coherence through av/vis, semantics, aliases."""
        self.setup_locations(2, 0.25)
        n = self.pick([1, 2, 3], [10, 70, 20])
        self.setup_places(n, 0.6)
        for _ in range(n):
            self.thread()
        data, flag = self.locs[0], self.locs[1]
        if n == 1:
            for _ in range(self.pick([2, 3, 4])):
                if self.chance(0.3):
                    self.vk_fence(0)
                self.access(0, self.pick(self.names()))
            return None
        wname = self.pick([data] + [a for a, _, _ in self.aliases])
        rname = self.pick([data] + [a for a, _, _ in self.aliases])
        self.vk_store(0, wname, self.pick(["plain", "av", "nonpriv", "atom"], [25, 45, 15, 15]), v=2)
        if self.chance(0.25):
            self.emit(0, "avdevice")
        if self.chance(0.5):
            self.vk_fence(0, "membar")
        self.vk_store(0, flag, self.pick(["rel", "atom", "av"], [55, 35, 10]), v=1)
        r0 = self.vk_load(1, flag, self.pick(["acq", "atom", "vis"], [55, 35, 10]))
        if self.chance(0.5):
            self.vk_fence(1, "membar")
        if self.chance(0.25):
            self.emit(1, "visdevice")
        r1 = self.vk_load(1, rname, self.pick(["plain", "vis", "nonpriv", "atom"], [25, 45, 15, 15]))
        for t in range(2, n):
            for _ in range(self.pick([1, 2])):
                self.access(t)
        if self.chance(0.3):
            self.access(self.pick(range(n)))
        return f"P1:{r0} == 1 /\\ P1:{r1} != 2" if self.chance(0.7) else None

    def fam_barrier(self):
        """Control barriers: several threads, instances, ids, quorums, used twice."""
        self.setup_locations(self.pick([1, 2]), 0.15)
        n = self.pick([2, 3, 4], [45, 35, 20])
        self.setup_places(n, 0.3)
        for _ in range(n):
            self.thread()
        nbar = self.pick([1, 2], [70, 30])
        named = self.chance(0.3)
        users = [t for t in range(n) if self.chance(0.85)] or [0]
        for t in range(n):
            before = self.pick([0, 1, 2], [25, 55, 20])
            for _ in range(before):
                if self.chance(0.15):
                    self.fence(t)
                self.access(t)
            if t in users:
                for b in range(nbar):
                    inst = b if self.chance(0.8) else self.pick([0, 1])
                    nm = None
                    if named:
                        nm = (self.pick([1, 2]) if self.chance(0.8) else self.pick(self.regs[t] or ["1"]),
                              self.pick([None, 2, 3, n]))
                    if self.chance(0.15):     # inside a branch: some threads may skip it
                        r = self.load(t)
                        end = self.label(t)
                        self.emit(t, f"{self.pick(['bne', 'beq'])} {r}, {self.const()}, {end}")
                        self.barrier(t, inst, nm)
                        self.emit(t, f"{end}:")
                    else:
                        self.barrier(t, inst, nm)
                    if b + 1 < nbar and self.chance(0.5):
                        self.access(t)
            for _ in range(self.pick([0, 1, 2], [20, 60, 20])):
                self.access(t)
        return None

    def fam_loop(self):
        """Loops that write: counters, CAS locks, exchange loops, store-load loops,
        a barrier in a loop, and spins on a flag another thread writes."""
        self.setup_locations(self.pick([1, 2, 3], [30, 50, 20]), 0.1)
        n = self.pick([1, 2, 3], [25, 55, 20])
        self.setup_places(n)
        for _ in range(n):
            self.thread()
        self.loops = True
        for t in range(n):
            shape = self.pick(["counter", "cas", "exch", "stld", "bar", "spin", "plain"],
                              [20, 20, 10, 15, 10, 15, 10])
            if shape == "bar" and n < 2:
                shape = "counter"
            head = self.label(t)
            if shape == "counter":
                r = self.reg(t)
                self.emit(t, f"{head}:", f"add {r}, {r}, 1")
                self.store(t, self.pick(self.locs), v=r)
                if self.chance(0.4):
                    self.access(t)
                self.emit(t, f"{self.pick(['blt', 'bne'])} {r}, {self.pick([2, 3])}, {head}")
            elif shape == "cas":
                lock = self.locs[-1]
                if self.ptx:
                    r = self.reg(t)
                    self.emit(t, f"{head}:", f"atom.{self.pick(['acquire', 'relaxed', 'acq_rel'])}."
                                            f"{self.pick(PTX_SCOPES, [30, 60, 10])}.cas {r}, {lock}, 0, 1")
                else:
                    self.emit(t, f"{head}:")
                    r = self.vk_rmw(t, lock, op="")
                self.emit(t, f"bne {r}, 0, {head}")
                self.access(t, self.locs[0])
                if self.ptx:
                    self.ptx_store(t, lock, mo=self.pick(["release.gpu", "relaxed.gpu", "weak"]), v=0)
                else:
                    self.vk_store(t, lock, self.pick(["rel", "atom"]), v=0)
            elif shape == "exch":
                self.emit(t, f"{head}:")
                r = self.rmw(t, self.pick(self.locs), op="exch" if self.ptx else "")
                self.emit(t, f"{self.pick(['bne', 'beq'])} {r}, {self.const()}, {head}")
            elif shape == "stld":
                self.emit(t, f"{head}:")
                self.store(t, self.pick(self.locs))
                r = self.load(t, self.pick(self.locs))
                self.emit(t, f"{self.pick(['bne', 'beq'])} {r}, {self.const()}, {head}")
            elif shape == "bar":
                r = self.reg(t)
                self.emit(t, f"{head}:", f"add {r}, {r}, 1")
                if self.chance(0.6):
                    self.access(t)
                self.barrier(t, 0)
                self.emit(t, f"blt {r}, {self.pick([2, 3])}, {head}")
            elif shape == "spin":
                self.emit(t, f"{head}:")
                r = self.load(t, self.pick(self.locs))
                self.emit(t, f"{self.pick(['bne', 'beq'], [70, 30])} {r}, {self.const()}, {head}")
                if self.chance(0.5):
                    self.access(t)
            else:
                for _ in range(self.pick([1, 2])):
                    self.access(t)
        return None

    def fam_mixed(self):
        """Classic shapes (MP, SB, LB, CoRR, CoWW, 2+2W, IRIW-ish) with random
        strengths, fences, aliases, and for Vulkan the race flag."""
        self.setup_locations(2, 0.3)
        x, y = self.locs
        shape = self.pick(["MP", "SB", "LB", "CoRR", "CoWW", "2+2W", "R", "S"])
        n = 2
        self.setup_places(n, 0.5)
        for _ in range(n):
            self.thread()
        nm = self.names()

        def alias_of(l):
            opts = [l] + [a for a, _, tg in self.aliases if tg == l]
            return self.pick(opts)

        def st(t, l, v):
            self.store(t, alias_of(l) if self.ptx and self.chance(0.3) else l, v=v)

        def fen(t):
            if self.chance(0.45):
                self.fence(t)

        if shape == "MP":
            st(0, x, 1); fen(0); st(0, y, 1)
            self.load(1, y); fen(1); self.load(1, alias_of(x))
        elif shape == "SB":
            st(0, x, 1); fen(0); self.load(0, y)
            st(1, y, 1); fen(1); self.load(1, x)
        elif shape == "LB":
            self.load(0, x); fen(0); st(0, y, 1)
            self.load(1, y); fen(1); st(1, x, 1)
        elif shape == "CoRR":
            st(0, x, 1)
            self.load(1, x); fen(1); self.load(1, alias_of(x))
        elif shape == "CoWW":
            st(0, x, 1); fen(0); st(0, alias_of(x), 2)
            self.load(1, x)
        elif shape == "2+2W":
            st(0, x, 1); fen(0); st(0, y, 2)
            st(1, y, 1); fen(1); st(1, x, 2)
        elif shape == "R":
            st(0, x, 1); fen(0); st(0, y, 1)
            st(1, y, 2); fen(1); self.load(1, x)
        else:
            st(0, x, 2); fen(0); st(0, y, 1)
            self.load(1, y); fen(1); st(1, x, 1)
        if self.chance(0.2):
            t = self.thread()
            self.places.append(self.places[0].replace("P0", f"P{t}"))
            self.access(t, self.pick(nm))
        return None

    # ------------------------------------------------------------ condition
    def atom(self):
        cands = [f"P{t}:{r}" for t in range(len(self.code)) for r in self.regs[t]]
        if cands and self.chance(0.65):
            lhs = self.pick(cands)
        else:
            lhs = self.pick(self.locs if self.chance(0.8) else self.names())
        op = self.pick(["==", "!="], [85, 15])
        return f"{lhs} {op} {self.pick(sorted(self.values))}"

    def condition(self):
        k = self.pick([1, 2, 3], [35, 45, 20])
        atoms = [self.atom() for _ in range(k)]
        if k > 1 and self.chance(0.2):
            return "(" + " \\/ ".join(atoms) + ")"
        return "(" + " /\\ ".join(atoms) + ")"

    def render(self, name, cond):
        out = [f"{'PTX' if self.ptx else 'VULKAN'} {name}", '"generated by tests/random/gen_corners.py"', "{"]
        out += [f"{x}={v};" for x, v in self.init.items()]
        for a, p, tg in self.aliases:
            out.append(f"{a} @ {p} aliases {tg};" if p else f"{a} aliases {tg};")
        for t in range(len(self.code)):
            for r in self.regs[t]:
                if self.chance(0.05):
                    out.append(f"P{t}:{r}={self.pick([1, 2])};")
        out.append("}")
        if not self.ptx and len(self.code) > 1 and self.chance(0.05):
            a, b = self.r.sample(range(len(self.code)), 2)
            out += ["{", f"ssw {a} {b};", "}"]
        rows = max(len(c) for c in self.code)
        cols = [c + [""] * (rows - len(c)) for c in self.code]
        widths = [max(len(x) for x in [h] + col) for h, col in zip(self.places, cols)]
        out.append(" " + " | ".join(h.ljust(w) for h, w in zip(self.places, widths)) + " ;")
        for i in range(rows):
            out.append(" " + " | ".join(col[i].ljust(w) for col, w in zip(cols, widths)) + " ;")
        if self.chance(0.08):
            out.append(f"filter {self.condition()}")
        q = self.pick(["exists", "~exists", "forall"], [65, 20, 15])
        out.append(f"{q} {cond or self.condition()}")
        return "\n".join(out) + "\n"


def generate(seed, index):
    """(text, bound) of program `index` of `seed`."""
    rng = random.Random(f"gpubmc-corners:{seed}:{index}")
    ptx = rng.random() < 0.5
    p = Prog(rng, ptx)
    fams = ["proxy", "barrier", "loop", "mixed"] if ptx else ["avvis", "barrier", "loop", "mixed"]
    fam = rng.choices(fams, weights=[30, 25, 25, 20])[0]
    cond = getattr(p, f"fam_{fam}")()
    for t in range(len(p.code)):
        if not p.code[t]:
            p.access(t)
    text = p.render(f"C{seed}_{index}_{fam}", cond)
    bound = rng.choice([1, 2, 2, 3]) if p.loops or any("LC" in i for c in p.code for i in c) else 1
    return text, bound


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--index", type=int, default=0)
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--out")
    a = ap.parse_args()

    def programs():
        for i in range(a.index, a.index + a.count):
            text, bound = generate(a.seed, i)
            yield f"c{a.seed}-{i:05d}-b{bound}.litmus", text
    gen.emit(programs(), a.out, a.count > 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
