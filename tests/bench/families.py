#!/usr/bin/env python3
"""Scalable litmus-test families for benchmarking gpubmc.

Each family is a function `name(n)` that returns a `Case`: the litmus text
(PTX dialect unless the family says Vulkan), the gpubmc arguments (--model, --property, --bound) and the
expected verdict with a one-line reason.  Verdicts follow gpubmc's meaning:
for `exists` PASS means the outcome is reachable, FAIL that it is not;
UNKNOWN means no witness within the bound while a loop can run past it.

The expectations were reasoned from ../shared/corpus/models/ptx-v7.5.cat:
  cause      = observation?; (po?; ((sync | sync_fence | sync_barrier); po?)+ | po)
               (restricted to same-address generic events)
  Causality  : irreflexive((rf | fr); cause)
  Coherence  : same-address W -cause-> W is in co
  Atomicity  : no morally strong fr;co inside an rmw
  NoThinAir  : acyclic(rf | addr | data | ctrl)
The Vulkan families were reasoned the same way from vulkan.cat (the
comment of each says how).
All threads sit in distinct CTAs of GPU 0 unless said otherwise, so gpu-scope
strong accesses are morally strong and cta-scope ones are not.

Standard library only.  `python3 families.py --list` lists the families;
`python3 families.py --out DIR --n 3 [FAMILY...]` writes tests for a look.
"""
import argparse
import os
import pathlib
import sys
from dataclasses import dataclass, field


@dataclass
class Case:
    family: str
    n: int
    text: str
    args: list
    expected: str
    reason: str
    file: str = field(default="")


def render(name, doc, init, threads, cond, dialect="PTX"):
    """Litmus text: `threads` is a list of (header, [instruction, ...])."""
    cols = [[" " + h] + [" " + i for i in ins] for h, ins in threads]
    rows = max(len(c) for c in cols)
    # columns are padded to line up, unless the table is too big to pad
    # (an XF barrier over 1000 workgroups would be gigabytes of blanks)
    pad = rows * len(cols) <= 200000
    width = [max(len(s) for s in c) if pad else 0 for c in cols]
    lines = [f"{dialect} {name}", f'"{doc}"', "{", " ".join(f"{k}={v};" for k, v in init), "}"]
    for r in range(rows):
        cells = [(c[r] if r < len(c) else "").ljust(w) for c, w in zip(cols, width)]
        lines.append(" |".join(cells) + " ;")
    lines.append(cond)
    return "\n".join(lines) + "\n"


def hdr(i, cta, gpu=0):
    return f"P{i}@cta {cta},gpu {gpu}"


def conj(atoms):
    return " /\\ ".join(atoms)


def disj(atoms):
    return " \\/ ".join(f"({a})" for a in atoms)


def ptx75(prop="program_spec", bound=1):
    return ["--model", "ptx-v7.5", "--property", prop, "--bound", str(bound)]


def vulkan(prop="program_spec", bound=1):
    return ["--model", "vulkan", "--property", prop, "--bound", str(bound)]


# --------------------------------------------------------------------------
# IRIW

def _iriw(n, variant):
    readers = max(2, n)
    if variant == "acq":
        ld, mid = "ld.acquire.gpu", None
    else:
        ld, mid = "ld.relaxed.gpu", "fence.sc.gpu"
    threads = [(hdr(0, 0), ["st.relaxed.gpu x, 1"]), (hdr(1, 1), ["st.relaxed.gpu y, 1"])]
    atoms = []
    for k in range(readers):
        t = k + 2
        a, b = ("x", "y") if k % 2 == 0 else ("y", "x")
        ins = [f"{ld} r0, {a}"] + ([mid] if mid else []) + [f"{ld} r1, {b}"]
        threads.append((hdr(t, t), ins))
        atoms += [f"P{t}:r0 == 1", f"P{t}:r1 == 0"]
    name = f"IRIW-{variant}-{readers}"
    doc = (f"IRIW with {readers} readers alternating x,y / y,x ({variant}); "
           "every reader sees its first location written and its second not")
    return render(name, doc, [("x", 0), ("y", 0)], threads, "exists (" + conj(atoms) + ")")


def iriw_acq(n):
    """IRIW, 2 relaxed gpu writers, n readers (even: x then y, odd: y then x)
    with ld.acquire.gpu; exists: even readers see x=1,y=0, odd y=1,x=0.
    Expected PASS (reachable): relaxed stores form no release pattern, so
    no sync and cause is po only; PTX is not multi-copy atomic here."""
    return Case("iriw-acq", n, _iriw(n, "acq"), ptx75(), "PASS",
                "relaxed stores give no release pattern: no sync, cause is empty across threads")


def iriw_sc(n):
    """IRIW with n readers whose two ld.relaxed.gpu are separated by
    fence.sc.gpu; same outcome.  Expected FAIL (unreachable): sync_fence
    orders an even reader's fence and an odd reader's fence; if the even one
    is first, observation(Wx;Rx);po;sync_fence;po is cause(Wx;odd Rx)
    against fr(odd Rx;Wx) (Causality), symmetrically with y."""
    return Case("iriw-sc", n, _iriw(n, "sc"), ptx75(), "FAIL",
                "any even/odd reader pair: sync_fence gives cause from a write to a read that fr-precedes it (Causality)")


# --------------------------------------------------------------------------
# Message-passing chain

def _mp_chain(n, st, ld):
    n = max(2, n)
    threads = [(hdr(0, 0), ["st.weak d, 1", f"{st} f1, 1"])]
    for i in range(1, n - 1):
        threads.append((hdr(i, i), [f"{ld} r0, f{i}", f"{st} f{i + 1}, r0"]))
    last = n - 1
    threads.append((hdr(last, last), [f"{ld} r0, f{last}", "ld.weak r1, d"]))
    init = [("d", 0)] + [(f"f{i}", 0) for i in range(1, n)]
    kind = "rel+acq" if "release" in st else "rlx"
    doc = (f"MP chain over {n} threads ({kind}): P0 writes d then f1, Pi copies f_i to f_i+1, "
           f"P{last} reads f{last} then d")
    return render(f"MP-chain-{kind}-{n}", doc, init, threads,
                  f"exists (P{last}:r0 == 1 /\\ P{last}:r1 == 0)")


def mp_chain_relacq(n):
    """MP chain over n threads: P0 `st.weak d,1; st.release.gpu f1,1`; Pi
    (0<i<n-1) `ld.acquire.gpu r0,f_i; st.release.gpu f_i+1,r0`; the last
    `ld.acquire.gpu r0,f_n-1; ld.weak r1,d`.  exists (last r0=1, r1=0).
    Expected FAIL: r0=1 at the end needs every link to read the 1 of the
    previous release store (the only non-zero writes), each link syncs,
    so cause(Wd;Rd) via po;sync;...;po and fr(Rd;Wd) breaks Causality."""
    return Case("mp-chain-relacq", n, _mp_chain(n, "st.release.gpu", "ld.acquire.gpu"), ptx75(),
                "FAIL", "every link is a morally strong release/acquire sync, so cause(Wd;Rd) against fr (Causality)")


def mp_chain_rlx(n):
    """The same chain with st.relaxed.gpu / ld.relaxed.gpu links.  Expected
    PASS (reachable): no release/acquire pattern, no sync, cause only po."""
    return Case("mp-chain-rlx", n, _mp_chain(n, "st.relaxed.gpu", "ld.relaxed.gpu"), ptx75(),
                "PASS", "relaxed links never sync, so nothing orders the weak data accesses")


# --------------------------------------------------------------------------
# Store buffering ring

def _sb(n, variant):
    n = max(2, n)
    st = "st.release.gpu" if variant == "relacq" else "st.relaxed.gpu"
    ld = "ld.acquire.gpu" if variant == "relacq" else "ld.relaxed.gpu"
    threads, atoms = [], []
    for i in range(n):
        ins = [f"{st} x{i}, 1"] + (["fence.sc.gpu"] if variant == "sc" else []) + [f"{ld} r0, x{(i + 1) % n}"]
        threads.append((hdr(i, i), ins))
        atoms.append(f"P{i}:r0 == 0")
    doc = f"SB ring of {n} threads ({variant}): Pi stores x_i then loads x_i+1; all loads read 0"
    return render(f"SB-ring-{variant}-{n}", doc, [(f"x{i}", 0) for i in range(n)], threads,
                  "exists (" + conj(atoms) + ")")


def sb_rlx(n):
    """SB ring: Pi `st.relaxed.gpu x_i,1; ld.relaxed.gpu r0,x_i+1 mod n`;
    exists all r0=0.  Expected PASS: no sync, cause is po only and po never
    links two accesses of one location."""
    return Case("sb-rlx", n, _sb(n, "rlx"), ptx75(), "PASS",
                "relaxed accesses give no cause between threads")


def sb_relacq(n):
    """SB ring with st.release.gpu / ld.acquire.gpu.  Expected PASS: every
    load reads the initial write, which is no release, so nothing syncs."""
    return Case("sb-relacq", n, _sb(n, "relacq"), ptx75(), "PASS",
                "loads read the initial writes, so no release/acquire pair syncs")


def sb_sc(n):
    """SB ring with fence.sc.gpu between store and load.  Expected FAIL:
    sync_fence is a strict total order of the n fences; for its last fence
    F_m, P_m+1's store po;sync_fence;po reaches P_m's load of x_m+1,
    which fr-precedes that store (Causality)."""
    return Case("sb-sc", n, _sb(n, "sc"), ptx75(), "FAIL",
                "the sync_fence-last fence's load is cause-after the store it fr-precedes (Causality)")


# --------------------------------------------------------------------------
# Load buffering ring

def _lb(n, variant):
    n = max(2, n)
    ld = "ld.acquire.gpu" if variant == "relacq" else "ld.relaxed.gpu"
    st = "st.release.gpu" if variant == "relacq" else "st.relaxed.gpu"
    val = "r0" if variant == "data" else "1"
    threads, atoms = [], []
    for i in range(n):
        threads.append((hdr(i, i), [f"{ld} r0, x{i}", f"{st} x{(i + 1) % n}, {val}"]))
        atoms.append(f"P{i}:r0 == 1")
    doc = f"LB ring of {n} threads ({variant}): Pi loads x_i then stores x_i+1; all loads read 1"
    return render(f"LB-ring-{variant}-{n}", doc, [(f"x{i}", 0) for i in range(n)], threads,
                  "exists (" + conj(atoms) + ")")


def lb_rlx(n):
    """LB ring: Pi `ld.relaxed.gpu r0,x_i; st.relaxed.gpu x_i+1,1`; exists
    all r0=1.  Expected PASS: no dependency (po is not in rf|dep) and no sync."""
    return Case("lb-rlx", n, _lb(n, "rlx"), ptx75(), "PASS",
                "rf|dep is acyclic without dependencies and relaxed accesses never sync")


def lb_relacq(n):
    """LB ring with ld.acquire.gpu / st.release.gpu.  Expected FAIL: each
    load reads the release store of its predecessor, so every rf syncs and
    cause(P0 Rx0; P_n-1 Wx0) via po;sync;po;... closes rf;cause (Causality)."""
    return Case("lb-relacq", n, _lb(n, "relacq"), ptx75(), "FAIL",
                "the ring of release/acquire syncs makes rf;cause reflexive (Causality)")


def lb_data(n):
    """LB ring with relaxed accesses and a data dependency (Pi stores r0).
    Expected FAIL: reading 1 everywhere needs the cycle rf;data;rf;data...
    (NoThinAir); without it every value stays 0."""
    return Case("lb-data", n, _lb(n, "data"), ptx75(), "FAIL",
                "all-ones needs an rf|data cycle (NoThinAir)")


# --------------------------------------------------------------------------
# CAS spin lock

LOCK_BOUND = 2


def _lock(n, acq, rel):
    n = max(2, n)
    threads = []
    for i in range(n):
        ins = [f"LC{i}0:", f"atom.{acq}.gpu.cas r0, l, 0, 1", f"bne r0, 0, LC{i}0",
               "ld.weak r1, c", "add r1, r1, 1", "st.weak c, r1", f"st.{rel} l, 0"]
        threads.append((hdr(i, i), ins))
    kind = "acqrel" if acq == "acquire" else "rlx"
    doc = (f"{n} threads take a CAS spin lock ({kind}) and increment c non-atomically inside; "
           "a lost update leaves c below n")
    return render(f"Lock-cas-{kind}-{n}", doc, [("l", 0), ("c", 0)], threads, f"exists (c != {n})")


def lock_acqrel(n):
    """N-thread CAS spin lock: `LC: atom.acquire.gpu.cas r0,l,0,1; bne r0,0,LC;
    ld.weak r1,c; add r1,r1,1; st.weak c,r1; st.release.gpu l,0`; exists
    (c != n), a lost update.  --bound 2 (each thread may fail one CAS).
    Expected UNKNOWN: Atomicity makes successful CASes read the previous
    release, which syncs, so critical sections are cause-ordered (Causality
    makes each load read the previous increment, Coherence orders the
    stores) and c ends at n within the bound; but the CAS loop writes (a
    failed CAS writes the old value), so it is not a cut spin and could run
    past the bound: no witness, UNKNOWN rather than FAIL."""
    return Case("lock-acqrel", n, _lock(n, "acquire", "release.gpu"), ptx75(bound=LOCK_BOUND),
                "UNKNOWN", "acquire/release serialises the critical sections, but the writing CAS loop can exceed the bound")


def lock_rlx(n):
    """The same lock with atom.relaxed.gpu.cas and st.relaxed.gpu release.
    Expected PASS (lost update reachable): with no sync a thread that takes
    the lock after another may still read the initial c."""
    return Case("lock-rlx", n, _lock(n, "relaxed", "relaxed.gpu"), ptx75(bound=LOCK_BOUND),
                "PASS", "a relaxed lock gives no sync, so a later critical section may read a stale c")


# --------------------------------------------------------------------------
# Inter-workgroup (XF) barrier widened to n workgroups

def _xf(n, variant):
    n = max(2, n)
    rlx = variant == "rlx"
    ld_wait = "ld.relaxed.gpu" if rlx else "ld.acquire.gpu"
    st_reset = "st.relaxed.gpu" if rlx else "st.release.gpu"
    master = ["st.weak x, 1"]
    for i in range(1, n):
        master += [f"LW{i}:", f"ld.relaxed.gpu r2, f{i}", f"bne r2, 0, LD{i}", f"goto LW{i}", f"LD{i}:"]
    master.append("bar.cta.sync 1")
    master += [f"{st_reset} f{i}, 0" for i in range(1, n)]
    threads = [(hdr(0, 0), master)]
    atoms = []
    t = 1
    for i in range(1, n):
        lead = ["bar.cta.sync 1", f"st.relaxed.gpu f{i}, 1", "LC0:", f"{ld_wait} r2, f{i}",
                "bne r2, 1, LC1", "goto LC0", "LC1:", "bar.cta.sync 2", "ld.weak r1, x"]
        follow = ["bar.cta.sync 1", "bar.cta.sync 2", "ld.weak r1, x"]
        threads.append((hdr(t, i), lead))
        threads.append((hdr(t + 1, i), follow))
        atoms += [f"P{t}:r2 != 1 /\\ P{t}:r1 == 0", f"P{t + 1}:r1 == 0"]
        t += 2
    doc = (f"Inter-workgroup barrier, {n} workgroups ({variant}): master CTA 0 writes x, waits for "
           "each flag, resets them; each other CTA's leader raises its flag, waits for the reset, "
           "meets its follower at bar 2; both then read x")
    init = [("x", 0)] + [(f"f{i}", 0) for i in range(1, n)]
    return render(f"XF-Barrier-{variant}-{n}", doc, init, threads, "exists " + disj(atoms))


def xf_barrier_relacq(n):
    """XF barrier (shape of the paper's Figure 2 / corpus XF-Barrier) with
    n workgroups: CTA 0 is the master (st.weak x,1; for each i spin with
    ld.relaxed.gpu until f_i != 0; bar.cta.sync 1; st.release.gpu f_i,0),
    CTA i (1..n-1) has a leader (bar 1; st.relaxed.gpu f_i,1; spin with
    ld.acquire.gpu until f_i != 1; bar 2; ld.weak r1,x) and a follower
    (bar 1; bar 2; ld.weak r1,x).  exists: some leader or follower reads
    x=0 after the barrier.  Expected FAIL: the leader leaves its loop only by
    reading the master's release of 0 (the only other write), which syncs;
    the follower is reached through sync_barrier of bar 2; cause(Wx;Rx)
    against fr(Rx;Wx) (Causality)."""
    return Case("xf-barrier-relacq", n, _xf(n, "relacq"), ptx75(), "FAIL",
                "release reset read by the acquire spin, then bar 2, orders Wx before every read (Causality)")


def xf_barrier_rlx(n):
    """The same barrier with relaxed reset stores and relaxed spin loads.
    Expected PASS (stale read reachable): nothing syncs across CTAs."""
    return Case("xf-barrier-rlx", n, _xf(n, "rlx"), ptx75(), "PASS",
                "relaxed flag traffic never syncs, so x may be read stale")


def xf_barrier_term(n):
    """The release/acquire barrier checked for termination (fair progress).
    Expected PASS: every flag is raised (fair scheduling), the master's
    relaxed read of the co-last write sees it; its reset is cause-after
    the raise (observation;po), so Coherence makes 0 co-last and the leader
    leaves; both bar.cta.sync meet all threads of each CTA."""
    return Case("xf-barrier-term", n, _xf(n, "relacq"), ptx75("termination"), "PASS",
                "every spin's co-last value exits it and every barrier is met by its whole CTA")


# --------------------------------------------------------------------------
# Spin loops and the bound

def _spin(k, count, cond):
    p1 = ["LC00:", "ld.acquire.gpu r0, f"] + (["add r2, r2, 1"] if count else []) + \
         ["bne r0, 1, LC00", "ld.weak r1, x"]
    threads = [(hdr(0, 0), ["st.weak x, 1", "st.release.gpu f, 1"]), (hdr(1, 1), p1)]
    kind = "count" if count else "pure"
    doc = (f"P1 waits with ld.acquire.gpu for P0's release of f ({kind} loop"
           + (", counting iterations in r2" if count else "") + ")")
    return render(f"Spin-{kind}-{k}", doc, [("x", 0), ("f", 0)], threads, cond)


def spin_pure(k):
    """MP with a side-effect-free acquire spin; forall (P1:r1 == 1) with
    --bound k.  Expected PASS for every k: the spin is recognised and cut at
    one iteration (complete for such loops), so time should not grow with k;
    leaving the loop needs reading the release, which syncs (Causality)."""
    return Case("spin-pure", k, _spin(k, False, "forall (P1:r1 == 1)"), ptx75(bound=k), "PASS",
                "spin cut at one iteration; the exiting acquire read syncs with the release")


def spin_count_reach(k):
    """The spin also counts iterations (add r2,r2,1: a live register, so the
    loop is unrolled k times); exists (P1:r2 == k /\\ P1:r1 == 1) with
    --bound k.  Expected PASS: read f=0 k-1 times, then the release 1."""
    return Case("spin-count-reach", k, _spin(k, True, f"exists (P1:r2 == {k} /\\ P1:r1 == 1)"),
                ptx75(bound=k), "PASS", "k-1 reads of 0 then the release: exactly k iterations")


def spin_count_stale(k):
    """The counting spin with exists (P1:r1 == 0), --bound k.  Expected
    UNKNOWN: no terminating execution reads stale x (the exit syncs), but the
    counting loop is not a cut spin and may iterate past k."""
    return Case("spin-count-stale", k, _spin(k, True, "exists (P1:r1 == 0)"), ptx75(bound=k),
                "UNKNOWN", "stale x is forbidden by the sync, but the counting loop can run past the bound")


# --------------------------------------------------------------------------
# IRIW with many writers: n writers of n locations, n readers of all of them

def _iriw_many(n, dialect, relacq=False, full=False):
    """n writers of x0..x_n-1, n readers of all of them, each thread in its
    own CTA / workgroup; relacq: release writers and acquire readers;
    full: the condition names every read (n*n terms: the first 1, the
    rest 0), else only each reader's first and last read."""
    n = max(2, n)
    if dialect == "PTX":
        st, ld = ("st.release.gpu", "ld.acquire.gpu") if relacq else ("st.relaxed.gpu", "ld.relaxed.gpu")
        where = lambda t: hdr(t, t)
    else:
        st, ld = (("st.atom.rel.dv.sc0.semsc0", "ld.atom.acq.dv.sc0.semsc0") if relacq
                  else ("st.atom.dv.sc0", "ld.atom.dv.sc0"))
        where = lambda t: f"P{t}@sg 0, wg {t}, qf 0"
    threads = [(where(i), [f"{st} x{i}, 1"]) for i in range(n)]
    atoms = []
    for k in range(n):
        t = n + k
        order = [(k + j) % n for j in range(n)]
        threads.append((where(t), [f"{ld} r{j}, x{loc}" for j, loc in enumerate(order)]))
        named = range(n) if full else (0, n - 1)
        atoms += [f"P{t}:r{j} == {int(j == 0)}" for j in named]
    kind = ("relacq-" if relacq else "") + ("full-" if full else "")
    seen = ("its first location written and every other not" if full
            else "its first location written and its last not")
    doc = (f"IRIW with {n} writers of x0..x{n - 1} and {n} readers of all of them"
           f"{' (release writers, acquire readers)' if relacq else ''}; reader k reads "
           f"from x_k round to x_k-1 and sees {seen}")
    return render(f"IRIW-many-{kind}{dialect.lower()}-{n}", doc, [(f"x{i}", 0) for i in range(n)], threads,
                  "exists (" + conj(atoms) + ")", dialect)


def iriw_many_ptx(n):
    """IRIW widened: n writers (Pi `st.relaxed.gpu x_i,1`) and n readers, reader
    k reading every location with ld.relaxed.gpu from x_k round to x_k-1;
    exists: every reader sees its first location written and its last not
    (n + n*n events).  Expected PASS (reachable): relaxed stores never sync,
    so cause leaves no thread except by observation;po, and a reader's
    last read (fr to a write another reader observed first) reads a
    location that reader reads only once; PTX is not multi-copy atomic."""
    return Case("iriw-many-ptx", n, _iriw_many(n, "PTX"), ptx75(), "PASS",
                "relaxed stores never sync: the readers may disagree on the order of the writes")


def iriw_many_vulkan(n):
    """The same program in Vulkan: `st.atom.dv.sc0` writers and
    `ld.atom.dv.sc0` readers, each thread in its own workgroup.  Expected
    PASS (reachable): without release or acquire semantics there is no sw,
    hb is po, and locord relates only accesses of one location; the cycle
    rf;po;fr;rf;po;fr of the disagreeing readers runs through po between
    different locations, which no consistency-cycle relation contains."""
    return Case("iriw-many-vulkan", n, _iriw_many(n, "VULKAN"), vulkan(), "PASS",
                "no sw without release/acquire: po across locations is in no consistency-cycle relation")


def iriw_many_relacq_ptx(n):
    """iriw-many-ptx with `st.release.gpu` writers and `ld.acquire.gpu`
    readers.  Expected PASS (reachable): a reader that reads a write's 1
    syncs with it, but readers never release, so sync leaves no reader:
    a write x_i is cause-before only the reads of the one reader that
    reads x_i=1 first (reader i), and the same-address reads that
    fr-precede it (the other readers' reads of x_i, 0) are cause-after
    no write; without fence.sc nothing orders two readers."""
    return Case("iriw-many-relacq-ptx", n, _iriw_many(n, "PTX", relacq=True), ptx75(), "PASS",
                "acquire readers never release: sync reaches one reader only and never another one")


def iriw_many_relacq_vulkan(n):
    """iriw-many-vulkan with `st.atom.rel.dv.sc0.semsc0` writers and
    `ld.atom.acq.dv.sc0.semsc0` readers (all device scope, so inscope).
    Expected PASS (reachable): rf from a release to an acquire is sw, so
    hb runs from writer i into reader i (which reads x_i=1) and along its
    po; but a reader never writes, so hb from writer i reaches no other
    reader, and no reader reaches another.  consistency-cycle's relations
    (locord, rf, fr, asmo) each relate one location: a cycle would stay in
    x_i, whose only edges are rf/hb from W x_i to reader i's read and fr
    from the other readers' reads of 0 to W x_i (no locord back: that
    needs hb from W x_i to them).  All accesses are atomic (consistency-rf
    does not apply) and there is no RMW."""
    return Case("iriw-many-relacq-vulkan", n, _iriw_many(n, "VULKAN", relacq=True), vulkan(), "PASS",
                "sw reaches only the reader that reads the release, and readers never write: no cycle per location")


def iriw_full_ptx(n):
    """iriw-many-ptx whose condition names every read (n*n terms at n
    readers, one flat conjunction): reader k sees x_k=1 and every other
    location 0.  Expected PASS (reachable): per location x_i, reader i reads
    1 and the others 0 (fr before W x_i); relaxed accesses never sync, so
    no cause relates the readers' reads of x_i, and reader i reads x_i
    once, so observation;po leads to no same-address access."""
    return Case("iriw-full-ptx", n, _iriw_many(n, "PTX", full=True), ptx75(), "PASS",
                "each location read 1 by one reader and 0 by the rest: relaxed accesses give no cause between readers")


def iriw_full_vulkan(n):
    """iriw-many-vulkan with the condition that names every read, as
    iriw-full-ptx.  Expected PASS (reachable): no sw, hb is po, and the
    consistency relations each stay in one location, where reader i's read
    of 1 and the others' reads of 0 are related to W x_i only by rf and fr."""
    return Case("iriw-full-vulkan", n, _iriw_many(n, "VULKAN", full=True), vulkan(), "PASS",
                "no sw: per location only rf and fr, which make no cycle")


def iriw_full_relacq_vulkan(n):
    """iriw-many-relacq-vulkan with the condition that names every read.
    Expected PASS (reachable), as for iriw-many-relacq-vulkan: hb from
    W x_i reaches reader i only, which reads x_i once (the 1), so no
    locord runs from W x_i to a read of 0."""
    return Case("iriw-full-relacq-vulkan", n, _iriw_many(n, "VULKAN", relacq=True, full=True), vulkan(),
                "PASS", "sw reaches only the reader that reads the release: per location no cycle")


# --------------------------------------------------------------------------
# Many locations, many writers

def stores_one_thread(n):
    """One thread storing 1 to each of n distinct locations with
    st.relaxed.gpu; exists every location ends at 1.  Expected PASS: the one
    execution writes every location once, after its initial write in co."""
    threads = [(hdr(0, 0), [f"st.relaxed.gpu x{i}, 1" for i in range(n)])]
    cond = "exists (" + conj([f"x{i} == 1" for i in range(n)]) + ")"
    text = render(f"Stores-one-thread-{n}", f"One thread stores 1 to each of {n} locations",
                  [(f"x{i}", 0) for i in range(n)], threads, cond)
    return Case("stores-one-thread", n, text, ptx75(), "PASS",
                "the only execution writes 1 everywhere, each after the initial write")


def one_store_threads(n):
    """n threads in distinct CTAs, thread i storing i+1 to x with
    st.relaxed.gpu; exists (x == 1).  Expected PASS: nothing orders the
    writes of different threads, so co may put P0's write last."""
    n = max(2, n)
    threads = [(hdr(i, i), [f"st.relaxed.gpu x, {i + 1}"]) for i in range(n)]
    text = render(f"One-store-threads-{n}", f"{n} threads store to x, each its own value",
                  [("x", 0)], threads, "exists (x == 1)")
    return Case("one-store-threads", n, text, ptx75(), "PASS",
                "co may order P0's write last: nothing relates the writes of different threads")


FAMILIES = {f.__name__.replace("_", "-"): f for f in [
    iriw_acq, iriw_sc, iriw_many_ptx, iriw_many_vulkan, iriw_many_relacq_ptx, iriw_many_relacq_vulkan,
    iriw_full_ptx, iriw_full_vulkan, iriw_full_relacq_vulkan, stores_one_thread, one_store_threads,
    mp_chain_relacq, mp_chain_rlx, sb_rlx, sb_relacq, sb_sc,
    lb_rlx, lb_relacq, lb_data, lock_acqrel, lock_rlx,
    xf_barrier_relacq, xf_barrier_rlx, xf_barrier_term,
    spin_pure, spin_count_reach, spin_count_stale]}


def generate(family, n, outdir):
    """Writes the family's test for size n into outdir and returns its Case."""
    case = FAMILIES[family](n)
    path = pathlib.Path(outdir) / f"{family}-{n}.litmus"
    path.write_text(case.text)
    case.file = str(path)
    return case


def main():
    ap = argparse.ArgumentParser(description="Write scalable litmus families.")
    ap.add_argument("--out", help="directory to write into")
    ap.add_argument("--n", type=int, default=3)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("families", nargs="*")
    a = ap.parse_args()
    names = a.families or list(FAMILIES)
    if a.list or not a.out:
        for name in names:
            doc = " ".join(FAMILIES[name].__doc__.split())
            print(f"{name}: {doc}\n")
        return 0
    os.makedirs(a.out, exist_ok=True)
    for name in names:
        c = generate(name, a.n, a.out)
        print(f"{c.file}: {' '.join(c.args)} -> {c.expected} ({c.reason})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
