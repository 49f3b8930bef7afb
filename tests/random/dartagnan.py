#!/usr/bin/env python3
"""Cross-check of gpubmc against Dartagnan (Dat3M) on random programs.
A by-hand tool: it needs a Dartagnan build (../shared/tools/build_dartagnan.sh,
default /tmp/dartagnan/dartagnan.sh) and is never part of `make test`.

Programs come from gen.py (the general generator) and gen_corners.py (the
corners issue 20 asks for: proxies and aliases with and without proxy/alias
fences, av/vis operations, control barriers with several threads and ids,
PTX barriers, loops that write), rewritten into what Dartagnan's parser
accepts (see `to_dartagnan`); the same rewritten file goes to both tools.

Checks per program: under each model of its dialect (ptx-v6.0 and ptx-v7.5;
vulkan and vulkan-nochains), program_spec, cat_spec (Vulkan only: the PTX
models flag nothing), and termination under `fair` and one other progress
model picked per program.  gpubmc runs in batches (--json, -j J), Dartagnan in
one JVM per chunk of files (--method=eager --encoding.initializeRegisters=true
--encoding.integers=true, at the same --bound).

Verdicts compare as: agree (same verdict, UNKNOWN included); disagree (PASS
against FAIL, or a verdict that rests on an execution found -- exists PASS,
~exists/forall/cat_spec/termination FAIL -- against UNKNOWN: the other tool
should have found that execution within the same bound); inconclusive (a
verdict that rests on no execution against UNKNOWN: one tool proved what the
other could not within its bound); error (gpubmc ERROR or internal error:
always counted); dartagnan-error (Dartagnan could not run the file).

    dartagnan.py run -n 5000 --seed 1 --out build/dartagnan-run
    dartagnan.py reduce FILE --model M --property P [--progress G] [--bound N]
    dartagnan.py translate FILE         (print the Dartagnan-ready text)
    dartagnan.py timing -n 2000 --seed 1 --out DIR   (gpubmc slower than 2x Dartagnan?)

`run` writes OUT/summary.json, OUT/results.jsonl (one line per check) and
every disagreeing or erroring program under OUT/cases/; `reduce` shrinks a
program while both tools keep their verdicts and prints the reduced text.
"""
import argparse, collections, concurrent.futures, json, os, pathlib, random, re
import subprocess, sys, tempfile, time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
import gen              # noqa: E402
import gen_corners      # noqa: E402
import litmus_table as L  # noqa: E402

DART = os.environ.get("DARTAGNAN", "/tmp/dartagnan/dartagnan.sh")
CATS = pathlib.Path(os.environ.get("CAT_DIR", ROOT.parent / "shared" / "corpus" / "models"))
DART_FLAGS = ["--method=eager", "--encoding.initializeRegisters=true", "--encoding.integers=true"]
MODELS = {"PTX": ["ptx-v6.0", "ptx-v7.5"], "VULKAN": ["vulkan", "vulkan-nochains"]}
OTHER_PROGRESS = ["hsa", "obe", "hsa_obe", "lobe", "unfair"]

# Dartagnan with --encoding.integers=true computes on unbounded integers: its
# division is SMT integer division (floor, anything for a zero divisor) and
# and/or/xor go through unsigned bit-vectors, so -1 & -1 is 4294967295.
# gpubmc uses 32-bit two's complement.  Those operations are swapped for ones
# both compute alike on small values; the memory model is what is compared.
ARITH = {"div": "sub", "and": "add", "or": "add", "xor": "sub"}


# ---------------------------------------------------------------- translation
def to_dartagnan(text):
    """The program rewritten into what Dartagnan's litmus parser accepts:
    VULKAN in capitals, threads numbered 0..n-1 (Dartagnan looks a thread up
    by its position), labels LC<digits>, decimal constants, no [x] in
    conditions, and the arithmetic of ARITH.  Returns the text."""
    t = L.parse(text)
    t.pre = []
    # gen.py writes now and then a bare thread number (`1:r0`, which both
    # parsers accept) and a comment among the initial entries; Dartagnan
    # keeps neither apart: the number is not renamed with its thread below
    # and a comment leaves an empty entry (`;;`) that its parser rejects
    t.init = [e for e in (re.sub(r"\(\*.*?\*\)", "", e, flags=re.S).strip() for e in t.init) if e]
    t.init = [re.sub(r"^(\d+)\s*:", r"P\1:", e) for e in t.init]

    def bare(s):
        return re.sub(r"(?<![\w:])(\d+)\s*:\s*(?=r\d)", r"P\1:", s) if s is not None else s

    t.cond, t.filter, t.locations = bare(t.cond), bare(t.filter), bare(t.locations)
    ren = {old: new for new, old in enumerate(t.pids())}

    def pid_sub(s):
        return re.sub(r"\bP(\d+)(?=\s*:)", lambda m: f"P{ren.get(int(m.group(1)), m.group(1))}", s)

    t.places = [re.sub(r"^P(\d+)", lambda m: f"P{ren[int(m.group(1))]}", p) for p in t.places]
    t.init = [pid_sub(e) for e in t.init]
    if t.ssw:
        t.ssw = [(ren[a], ren[b]) for a, b in t.ssw]

    def dec(s):
        return re.sub(r"\b0[xX][0-9a-fA-F]+\b", lambda m: str(int(m.group(0), 16) - (1 << 32)
                                                               if int(m.group(0), 16) >= 1 << 31
                                                               else int(m.group(0), 16)), s)

    def cond(s):
        return dec(pid_sub(re.sub(r"\[\s*(\w+)\s*\]", r"\1", s)))

    for k, code in enumerate(t.code):
        new = []
        for ins in code:
            ins = re.sub(r"\bL(\d+)\b", r"LC9\1", ins)
            ins = dec(ins)
            words = ins.split(None, 1)
            parts = words[0].split(".")
            if len(parts) == 1 and parts[0] in ARITH:                 # local arithmetic
                parts[0] = ARITH[parts[0]]
            elif parts[0] in ("atom", "suatom", "red", "sured", "rmw") and parts[-1] in ARITH:
                parts[-1] = ARITH[parts[-1]]                           # an RMW's operation
            ins = ".".join(parts) + (" " + words[1] if len(words) > 1 else "")
            new.append(ins)
        t.code[k] = new
    t.init = [dec(e) for e in t.init]
    add_register_inits(t)
    if t.locations is not None:
        t.locations = pid_sub(t.locations)
    if t.filter is not None:
        t.filter = cond(t.filter)
    t.cond = cond(t.cond)
    return t.render()


def add_register_inits(t):
    """Writes `Pi:rj=0` for every register of a thread that the initial
    state leaves out.  Both tools start registers at 0, but Dartagnan's
    --encoding.initializeRegisters misses a read of a register by an
    instruction that also writes it (`add r0, r0, 1` in a loop: r0 may start
    anywhere), while it honours an explicit initial value."""
    have = {re.sub(r"\s+", "", e.split("=")[0]) for e in t.init if re.match(r"P\d+\s*:", e)}
    for pid, code in zip(t.pids(), t.code):
        regs = []
        for ins in code:
            for r in re.findall(r"\br\d+\b", ins):
                if r not in regs:
                    regs.append(r)
        for r in regs:
            if f"P{pid}:{r}" not in have:
                t.init.append(f"P{pid}:{r}=0")
                have.add(f"P{pid}:{r}")
    return t


def witness_side(prop, quant, result):
    """Does this verdict rest on an execution that was found?"""
    if prop == "program_spec":
        return result == ("PASS" if quant == "exists" else "FAIL")
    return result == "FAIL"


def compare(prop, quant, g, d):
    """agree | disagree | inconclusive | error | dartagnan-error"""
    if g in ("ERROR", "STALL", None) or g is None:
        return "error"
    if d not in ("PASS", "FAIL", "UNKNOWN"):
        return "dartagnan-error"
    if g == d:
        return "agree"
    if "UNKNOWN" in (g, d):
        known = d if g == "UNKNOWN" else g
        return "disagree" if witness_side(prop, quant, known) else "inconclusive"
    return "disagree"


# ---------------------------------------------------------------- the two tools
def run_gpubmc(binary, files, model, prop, bound, progress=None, jobs=2, timeout=60):
    """{file: (result, reason, milliseconds)} for one gpubmc batch (the
    check's own time_ms, process start excluded)."""
    args = [str(binary), "--json", "-j", str(jobs), "--model", model, "--bound", str(bound),
            "--property", prop, "--timeout", str(timeout)]
    if progress:
        args += ["--progress", progress]
    out = {}
    for k in range(0, len(files), 400):
        chunk = files[k:k + 400]
        p = subprocess.run(args + chunk, capture_output=True, text=True)
        for line in p.stdout.splitlines():
            try:
                o = json.loads(line)
            except ValueError:
                continue
            r = o["result"]
            if "internal error" in o.get("reason", ""):
                r = "ERROR"
            out[o["file"]] = (r, o.get("reason", ""), o.get("time_ms"))
        for f in chunk:
            if f not in out:
                out[f] = ("ERROR", f"no result (gpubmc exit {p.returncode}): {p.stderr[-300:]}", None)
    return out


def parse_dartagnan(text):
    res = {}
    for block in re.split(r"\n(?=Test: )", text):
        m = re.search(r"^Test: (.*)$", block, re.M)
        if not m:
            continue
        r = re.search(r"^Result: (\w+)", block, re.M)
        det = re.search(r"^Details:\n((?:\t.*\n?)*)", block, re.M)
        reason = re.search(r"^Reason: (.*)$", block, re.M)
        tm = re.search(r"^Time: ([0-9.]+) secs", block, re.M)
        why = (reason.group(1) if reason else "") + (" " + det.group(1).strip() if det else "")
        res[m.group(1).strip()] = (r.group(1) if r else "?", why.strip()[:300] +
                                   (f" [{tm.group(1)} s]" if tm else ""),
                                   float(tm.group(1)) * 1000 if tm else None)
    return res


def run_dartagnan(files, model, prop, bound, progress=None, chunk=80, timeout_s=20, jvm_limit=None, extra=()):
    """{file: (result, reason)}; a JVM that dies or runs over its limit
    gives the files it held a DART-STALL, after its files are retried alone
    once."""
    if not files:
        return {}
    target = "ptx" if model.startswith("ptx") else "opencl" if model == "opencl" else "vulkan"
    args = [DART, str(CATS / f"{model}.cat"), f"--target={target}", f"--property={prop}",
            f"--bound={bound}", f"--timeout={timeout_s}"] + DART_FLAGS
    if progress:
        args.append(f"--modeling.progress={progress}")
    args += list(extra)
    out = {}
    todo = [files[k:k + chunk] for k in range(0, len(files), chunk)]
    while todo:
        part = todo.pop(0)
        limit = jvm_limit or (30 + len(part) * (timeout_s + 5))
        try:
            p = subprocess.run(args + part, capture_output=True, text=True, timeout=limit,
                               env=dict(os.environ, DAT3M_OUTPUT=os.environ.get("DAT3M_OUTPUT", tempfile.gettempdir() + "/gpubmc-dartagnan-output")))
            got = parse_dartagnan(p.stdout)
        except subprocess.TimeoutExpired:
            got = {}
        for f in part:
            if f in got:
                out[f] = got[f]
        missing = [f for f in part if f not in got]
        if missing and len(part) > 1:
            todo.extend([f] for f in missing)        # retried one by one
        elif missing:
            out[missing[0]] = ("DART-STALL", "no result from Dartagnan")
    return out


# ---------------------------------------------------------------- explaining
DART_NO_LC = ("--wmm.analysis.assumeLocalConsistency=false",)


def batch(jobs, binary, tmp, par=2, chunk=100, timeout_s=20):
    """Runs jobs {key, text, model, prop, progress, bound, extra, gpubmc}:
    {key: (gpubmc result or None, Dartagnan result)}."""
    groups = collections.defaultdict(list)
    files = {}
    for k, j in enumerate(jobs):
        f = str(tmp / f"j{k:05d}.litmus")
        pathlib.Path(f).write_text(j["text"])
        files[j["key"]] = f
        groups[(j["model"], j["prop"], j.get("progress"), j["bound"], tuple(j.get("extra", ())))].append(j)

    def one(gk):
        model, prop, prog, bound, extra = gk
        js = groups[gk]
        gf = [files[j["key"]] for j in js if j.get("gpubmc", True)]
        g = run_gpubmc(binary, gf, model, prop, bound, prog, jobs=1) if gf else {}
        d = run_dartagnan([files[j["key"]] for j in js], model, prop, bound, prog, chunk=chunk,
                          timeout_s=timeout_s, extra=extra)
        return {j["key"]: (g.get(files[j["key"]], (None, ""))[0], d.get(files[j["key"]], ("DART-STALL", ""))[0])
                for j in js}

    out = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=par) as ex:
        for r in ex.map(one, list(groups)):
            out.update(r)
    return out


BARRIER = re.compile(r"^((?:bar\.cta\.(?:sync|arrive))|(?:cbar\S*))\s+(-?\d+)\s*(?:,\s*(\S+?)\s*(?:,\s*(\S+)\s*)?)?$")


def group_of(t, k):
    """The CTA (gpu, cta) or workgroup (qf, wg) of thread k."""
    nums = [int(x) for x in re.findall(r"\d+", t.places[k].split("@", 1)[1])]
    return (nums[1], nums[0]) if t.dialect == "PTX" else (nums[2], nums[1])


def barrier_renamed(text):
    """The program with every barrier occurrence given its own instance, so
    that Dartagnan matches barriers per occurrence as gpubmc does: the k-th
    barrier of instance i (and id) of a thread becomes instance 100 + 10 i +
    k when every thread of its CTA/workgroup that has instance i reaches a
    k-th; an occurrence some such thread lacks (gpubmc: it waits for ever)
    becomes a jump to itself, a hang in both tools.  Only where each thread's
    barriers come before its first label or jump (so the k-th is static) and
    ids are constants; None otherwise, or when nothing changes."""
    t = L.parse(text)
    occ = {}                                        # (thread, index) -> (group, inst, id, k)
    counts = collections.defaultdict(dict)          # (group, inst, id) -> {thread: n}
    for k, code in enumerate(t.code):
        seen = collections.Counter()
        jumped = False
        for i, ins in enumerate(code):
            m = BARRIER.match(ins)
            if m:
                if jumped:
                    return None
                inst, bid = int(m.group(2)), m.group(3)
                if bid is not None and not re.match(r"-?\d+$", bid):
                    return None
                occ[(k, i)] = (group_of(t, k), inst, bid, seen[(inst, bid)])
                seen[(inst, bid)] += 1
            elif re.match(r"LC\d+:$", ins) or re.search(r"\bLC\d+\s*$", ins):
                jumped = True
        for (inst, bid), n in seen.items():
            counts[(group_of(t, k), inst, bid)][k] = n
    changed = False
    for (k, i), (grp, inst, bid, n) in sorted(occ.items(), reverse=True):
        m = BARRIER.match(t.code[k][i])
        if n >= min(counts[(grp, inst, bid)].values()):
            # an arrive never waits: without a partner it does nothing
            t.code[k][i:i + 1] = ([f"LC776{n}:"] if m.group(1) == "bar.cta.arrive"
                                  else [f"LC777{n}:", f"goto LC777{n}"])
            changed = True
            continue
        new = f"{m.group(1)} {100 + 10 * inst + n}"
        if bid is not None:
            new += f", {bid}" + (f", {m.group(4)}" if m.group(4) is not None else "")
        t.code[k][i] = new
        changed |= n > 0
    return t.render() if changed else None


def barriers_alone(text):
    """The program without the barriers of threads that no other thread of
    their CTA/workgroup shares a barrier instance (and id) with: such a
    thread never waits there (docs/semantics.md: a thread alone in its CTA or workgroup
    passes every barrier), while Dartagnan lets a barrier instance pass only
    when every occurrence of it in the CTA is reached, so a thread alone
    with two occurrences, or one it skips, waits for itself.  None when
    there is no such barrier."""
    t = L.parse(text)
    have = collections.defaultdict(set)             # (group, inst, id) -> threads
    for k, code in enumerate(t.code):
        for ins in code:
            m = BARRIER.match(ins)
            if m:
                have[(group_of(t, k), int(m.group(2)), m.group(3))].add(k)
    return _barriers_replaced(t, "775", lambda k, m: have[(group_of(t, k), int(m.group(2)), m.group(3))] == {k}
                              and m.group(4) is None)


def _barriers_replaced(t, tag, drop):
    """Parsed program t with each barrier instruction of thread k for which
    drop(k, match) holds replaced by a label LC<tag><n>, rendered; None when
    none is."""
    changed = False
    for k, code in enumerate(t.code):
        new = []
        for ins in code:
            m = BARRIER.match(ins)
            if m and drop(k, m):
                changed = True
                new.append(f"LC{tag}{len(new)}:")
                continue
            new.append(ins)
        t.code[k] = new
    return t.render() if changed else None


def quorums_equalised(text):
    """The program with the members of each barrier (CTA/workgroup,
    instance and id) that give different constant quorums given the
    largest of them: Dat3M's quorum rules (encodeNamedBarrierCfQuorum)
    contradict each other when a barrier's members give different quorums
    and leave no execution, so every property holds vacuously there, while
    gpubmc keeps the arrivals that meet every quorum of their set and lets
    the others wait (docs/semantics.md, Quorums).  None when no barrier has
    different quorums."""
    t = L.parse(text)
    quorums = collections.defaultdict(set)          # (group, inst, id) -> quorums
    for k, code in enumerate(t.code):
        for ins in code:
            m = BARRIER.match(ins)
            if m and m.group(4) is not None and re.fullmatch(r"-?\d+", m.group(4)):
                quorums[(group_of(t, k), int(m.group(2)), m.group(3))].add(int(m.group(4)))
    mixed = {key: max(q) for key, q in quorums.items() if len(q) > 1}
    if not mixed:
        return None
    for k, code in enumerate(t.code):
        for i, ins in enumerate(code):
            m = BARRIER.match(ins)
            key = (group_of(t, k), int(m.group(2)), m.group(3)) if m else None
            if key in mixed and m.group(4) is not None:
                code[i] = f"{m.group(1)} {m.group(2)}, {m.group(3)}, {mixed[key]}"
    return t.render()


def arrives_dropped(text):
    """The program without its bar.cta.arrive: an arrive never waits (PTX
    ISA), while Dartagnan lets it wait, like a sync, for every barrier of
    its instance in the CTA, also for one a thread skips.  None when there
    is none."""
    return _barriers_replaced(L.parse(text), "774", lambda k, m: m.group(1) == "bar.cta.arrive")


def filter_dropped(text):
    """The program without its filter: gpubmc's termination ignores the
    filter (docs/semantics.md: a filter is a condition on the final state, which an
    execution that hangs has not), Dartagnan applies it to the registers
    of the hanging execution; the cat files say nothing about filters.
    None when there is no filter."""
    t = L.parse(text)
    if t.filter is None:
        return None
    t.filter = None
    return t.render()


def filter_unaccessed(text):
    """The program with each location of the filter that no instruction
    writes (through any alias) replaced by its initial value, which is its
    final value: Dartagnan leaves the final value of a location that no
    instruction accesses, or that is read only through an alias, free in a
    filter (while its condition sees the initial value).  None when there is
    none."""
    t = L.parse(text)
    if t.filter is None:
        return None
    init, alias = {}, {}
    for e in t.init:
        m = re.match(r"(\w+)\s*=\s*(-?\d+)$", e)
        if m:
            init[m.group(1)] = m.group(2)
        m = re.match(r"(\w+)\s*(?:@\s*\w+\s*)?aliases\s+(\w+)$", e)
        if m:
            alias[m.group(1)] = m.group(2)

    def root(x):
        while x in alias:
            x = alias[x]
        return x

    used = set()                                    # physical locations some instruction writes
    for code in t.code:
        for ins in code:
            ops = [o.strip() for o in (ins.split(None, 1) + [""])[1].split(",")]
            head = ins.split(".")[0].split()[0]
            if head in ("st", "sust", "red", "sured") and ops:
                used.add(root(ops[0]))
            elif head in ("atom", "suatom", "rmw") and len(ops) > 1:
                used.add(root(ops[1]))
    changed = False

    def sub(m):
        nonlocal changed
        name = m.group(0)
        if root(name) in init and root(name) not in used and not re.match(r"r\d+$", name):
            changed = True
            return init[root(name)]
        return name

    t.filter = re.sub(r"(?<![:\w])[a-z]\w*\b", sub, t.filter)
    return t.render() if changed else None


def filter_alias_named(text):
    """The program with each filter location that no instruction names,
    while some instruction names an alias of it, written as that alias:
    Dartagnan leaves the final value of a location named only through its
    aliases free in a filter (and in a condition that names nothing else
    of it), where it keeps the alias's.  None when there is none."""
    t = L.parse(text)
    if t.filter is None:
        return None
    alias = {}
    for e in t.init:
        m = re.match(r"(\w+)\s*(?:@\s*\w+\s*)?aliases\s+(\w+)$", e)
        if m:
            alias[m.group(1)] = m.group(2)

    def root(x):
        while x in alias:
            x = alias[x]
        return x

    named = set()
    for code in t.code:
        for ins in code:
            for o in (ins.split(None, 1) + [""])[1].split(","):
                o = o.strip()
                if re.match(r"[a-z]\w*$", o) and not re.match(r"r\d+$", o):
                    named.add(o)
    changed = False

    def sub(m):
        nonlocal changed
        name = m.group(0)
        if re.match(r"r\d+$", name) or name in named:
            return name
        others = sorted(a for a in named if root(a) == root(name))
        if others:
            changed = True
            return others[0]
        return name

    t.filter = re.sub(r"(?<![:\w])[a-z]\w*\b", sub, t.filter)
    return t.render() if changed else None


def scopes_renumbered(text):
    """The program with CTA (workgroup) ids made unique across GPUs (queue
    families): Dartagnan groups control barriers by the CTA or workgroup
    number alone (ProgramEncoder.getWorkgroupId), so threads of cta 0 on gpu
    0 and gpu 1 wait for each other there, while its cat relations (scta,
    swg) compare the whole hierarchy.  None when no two threads share a
    number in different GPUs (queue families), or there is no barrier."""
    t = L.parse(text)
    if not any(BARRIER.match(i) for c in t.code for i in c):
        return None
    groups = {group_of(t, k) for k in range(len(t.code))}
    if len({g[1] for g in groups}) == len(groups):
        return None
    for k, pl in enumerate(t.places):
        pid, where = pl.split("@", 1)
        nums = [int(x) for x in re.findall(r"\d+", where)]
        if t.dialect == "PTX":
            t.places[k] = f"{pid}@cta {nums[1] * 10 + nums[0]},gpu {nums[1]}"
        else:
            wg = nums[2] * 10 + nums[1]
            t.places[k] = f"{pid}@sg {wg * 10 + nums[0]}, wg {wg}, qf {nums[2]}"
    return t.render()


CAS = re.compile(r"^((?:su)?atom\.\S+\.cas)\s+(r\d+)\s*,\s*(\w+)\s*,\s*(\S+?)\s*,\s*(\S+)$")


def cas_renamed(text):
    """The program with each PTX CAS whose compared or new value is its own
    destination register given a fresh destination, copied back by an add:
    Dartagnan compiles `atom.cas d, [a], b, c` as d = load(a); store(a,
    d == b ? c : d), reading b and c after d was overwritten.  None when no
    CAS is like that."""
    t = L.parse(text)
    if t.dialect != "PTX":
        return None
    changed = False
    fresh = 90
    for code in t.code:
        for i, ins in enumerate(list(code)):
            m = CAS.match(ins)
            if m and m.group(2) in (m.group(4), m.group(5)):
                k = code.index(ins)
                tmp = f"r{fresh}"
                fresh += 1
                code[k:k + 1] = [f"{m.group(1)} {tmp}, {m.group(3)}, {m.group(4)}, {m.group(5)}",
                                 f"add {m.group(2)}, {tmp}, 0"]
                changed = True
    return t.render() if changed else None


def loops_hang(text):
    """The program with every backward jump sent to a side-effect-free
    self-loop instead: each loop runs its first iteration, then hangs where
    it would have gone round again (or leaves as before).  gpubmc counts
    races before a hang (cat_spec), so a race it then finds lies in the first
    iteration of an execution that the original program's loops cut at
    every bound.  None when there is no backward jump."""
    t = L.parse(text)
    changed = False
    for code in t.code:
        labels = {}
        tail = []
        for i, ins in enumerate(code):
            m = re.match(r"(LC\d+):$", ins)
            if m:
                labels[m.group(1)] = i
                continue
            m = re.search(r"\b(LC\d+)\s*$", ins)
            if m and m.group(1) in labels:
                hang = f"LC888{len(tail)}"
                code[i] = ins[:m.start(1)] + hang
                tail += [f"{hang}:", f"goto {hang}"]
        if tail:
            code += ["goto LC8889"] + tail + ["LC8889:"]
            changed = True
    return t.render() if changed else None


def has_loop(text):
    return any(re.search(r"\bLC\d+\s*$", ins) for code in L.parse(text).code for ins in code)


def explain(cases, binary, tmp, par=2):
    """Tries the known differences on each disagreement and returns
    {case key: (class, detail)}:
      dat3m-local-consistency: Dartagnan agrees with gpubmc once told not to
        assume program order per location (Vulkan; its PTX target never does);
      dat3m-filter-unaccessed: with each filter location that no instruction
        accesses replaced by its initial value (see filter_unaccessed),
        Dartagnan agrees;
        also: with each filter location that no instruction names written as
        an alias some instruction names (see filter_alias_named);
      dat3m-register-init: with every register given an explicit initial 0
        (see add_register_inits), Dartagnan agrees;
      dat3m-cas-register: with each PTX CAS given a destination register of its
        own (see cas_renamed), Dartagnan agrees;
      dat3m-barrier-scope-id: with CTA/workgroup numbers unique across GPUs
        or queue families (see scopes_renumbered), Dartagnan agrees;
      barrier-per-occurrence: with each barrier occurrence its own instance
        and unmatched occurrences hanging (see barrier_renamed), gpubmc keeps
        its verdict and Dartagnan agrees;
      barrier-per-occurrence also: with the barriers of threads alone in
        their CTA/workgroup dropped (see barriers_alone), both agree (on
        gpubmc's verdict, or on a verdict where gpubmc said UNKNOWN: such
        barriers never wait, but keep the program out of the interleaving
        fragment and a loop through them from counting as a spin);
      dat3m-arrive-waits: without the bar.cta.arrive instructions (see
        arrives_dropped), both agree;
      dat3m-quorum-contradiction: with each barrier's members given one
        quorum, the largest they gave (see quorums_equalised), both agree
        on gpubmc's verdict: Dat3M's quorum rules leave no execution;
      filter-termination: termination of a program with a filter; without
        the filter Dartagnan agrees (see filter_dropped): undecided by the
        model, the cat files say nothing about filters;
      filter-cat-spec-hang: cat_spec of a program with a filter that no
        execution that ends satisfies (gpubmc, program_spec of `exists
        FILTER`), where without the filter both find a race: Dartagnan
        found it in an execution that hangs, evaluating the filter on its
        registers; undecided by the model (gpubmc counts, with a filter,
        only executions that end: docs/semantics.md);
      race-in-cut-execution: gpubmc said UNKNOWN and Dartagnan found a race
        (cat_spec); with each loop hanging after its first iteration (see
        loops_hang), and the filter dropped where there is one (Dartagnan
        evaluates it on the hanging execution: filter-cat-spec-hang), gpubmc
        finds a race too: it lies in executions that the loops cut at every
        bound, which gpubmc does not search (docs/semantics.md);
      bound: one tool said UNKNOWN, and at a higher loop bound (up to 4)
        both give one verdict (a PASS against a FAIL that a higher bound
        settles stays unexplained: one of them answered wrongly at the lower);
      unexplained: none of these."""
    jobs = []
    for c in cases:
        key = (c["file"], c["model"], c["property"], c["progress"])
        text = pathlib.Path(c["file"]).read_text()
        base = {"model": c["model"], "prop": c["property"], "progress": c["progress"], "bound": c["bound"]}
        if c["dialect"] == "VULKAN":
            jobs.append(dict(base, key=key + ("lc",), text=text, extra=DART_NO_LC, gpubmc=False))
        r = barrier_renamed(text)
        if r:
            jobs.append(dict(base, key=key + ("bar",), text=r))
        r = cas_renamed(text)
        if r:
            jobs.append(dict(base, key=key + ("cas",), text=r))
        r = scopes_renumbered(text)
        if r:
            jobs.append(dict(base, key=key + ("scope",), text=r))
        if c["property"] == "cat_spec" and c["gpubmc"] == "UNKNOWN":
            r = loops_hang(text)
            if r:
                jobs.append(dict(base, key=key + ("hang",), text=r))
            if r and filter_dropped(r):   # the race may also need the filter gone
                jobs.append(dict(base, key=key + ("hangnf",), text=filter_dropped(r)))
        r = filter_unaccessed(text)
        if r:
            jobs.append(dict(base, key=key + ("filter",), text=r))
        r = filter_alias_named(text)
        if r:
            jobs.append(dict(base, key=key + ("falias",), text=r))
        r = barriers_alone(text)
        if r:
            jobs.append(dict(base, key=key + ("alone",), text=r))
        r = arrives_dropped(text)
        if r:
            jobs.append(dict(base, key=key + ("arrive",), text=r))
        r = quorums_equalised(text)
        if r:
            jobs.append(dict(base, key=key + ("quorum",), text=r))
        if c["property"] == "termination":
            r = filter_dropped(text)
            if r:
                jobs.append(dict(base, key=key + ("nofilter",), text=r))
        if c["property"] == "cat_spec" and c["dartagnan"] == "FAIL" and filter_dropped(text):
            jobs.append(dict(base, key=key + ("nofilter",), text=filter_dropped(text)))
            t = L.parse(text)
            t.quant, t.cond, t.filter = "exists", f"({t.filter})", None
            jobs.append(dict(base, key=key + ("filterends",), text=t.render(), prop="program_spec"))
        r = add_register_inits(L.parse(text)).render()
        if r != L.parse(text).render():
            jobs.append(dict(base, key=key + ("reg",), text=r))
        if has_loop(text):
            for b2 in range(c["bound"] + 1, min(c["bound"] + 2, 4) + 1):
                jobs.append(dict(base, key=key + (f"b{b2}",), text=text, bound=b2))
    got = batch(jobs, binary, tmp, par=par)
    out = {}
    for c in cases:
        key = (c["file"], c["model"], c["property"], c["progress"])
        g = c["gpubmc"]
        lc = got.get(key + ("lc",))
        bar = got.get(key + ("bar",))
        cas = got.get(key + ("cas",))
        scope = got.get(key + ("scope",))
        reg = got.get(key + ("reg",))
        filt = got.get(key + ("filter",))
        hang = got.get(key + ("hang",))
        hang_nofilter = got.get(key + ("hangnf",))
        alone = got.get(key + ("alone",))
        nofilt = got.get(key + ("nofilter",))
        arrive = got.get(key + ("arrive",))
        quorum = got.get(key + ("quorum",))
        falias = got.get(key + ("falias",))
        fends = got.get(key + ("filterends",))
        bounds = sorted((k[-1], v) for k, v in got.items() if k[:4] == key and re.match(r"b\d+$", k[-1]))
        if lc and lc[1] == g:
            out[key] = ("dat3m-local-consistency", f"without local consistency Dartagnan says {lc[1]}")
        elif hang and hang[0] == "FAIL" == c["dartagnan"]:
            out[key] = ("race-in-cut-execution", "with each loop hanging after its first iteration gpubmc "
                                                 "finds the race too")
        elif hang_nofilter and hang_nofilter[0] == "FAIL" == c["dartagnan"]:
            out[key] = ("race-in-cut-execution", "with each loop hanging after its first iteration and the "
                                                 "filter dropped (Dartagnan evaluates it on a hanging "
                                                 "execution) gpubmc finds the race too")
        elif filt and filt[0] == g and filt[1] == g:
            out[key] = ("dat3m-filter-unaccessed", f"filter locations nothing accesses replaced by their "
                                                   f"initial values: both {g}")
        elif falias and falias[0] == g and falias[1] == g:
            out[key] = ("dat3m-filter-unaccessed", f"filter locations named through the alias the program "
                                                   f"uses: both {g}")
        elif reg and reg[0] == g and reg[1] == g:
            out[key] = ("dat3m-register-init", f"registers given explicit initial values: both {g}")
        elif cas and cas[0] == g and cas[1] == g:
            out[key] = ("dat3m-cas-register", f"CAS destination renamed: both {g}")
        elif scope and scope[0] == g and scope[1] == g:
            out[key] = ("dat3m-barrier-scope-id", f"CTA/workgroup ids made unique: both {g}")
        elif bar and bar[0] == g and bar[1] == g:
            out[key] = ("barrier-per-occurrence", f"barriers renamed per occurrence: both {g}")
        elif alone and alone[0] == g and alone[1] == g:
            out[key] = ("barrier-per-occurrence", f"barriers of threads alone in their CTA/workgroup "
                                                  f"dropped: both {g}")
        elif alone and g == "UNKNOWN" and alone[0] == alone[1] and alone[0] in ("PASS", "FAIL"):
            out[key] = ("barrier-per-occurrence", f"barriers of threads alone in their CTA/workgroup "
                                                  f"dropped: both {alone[0]} (gpubmc's UNKNOWN: those barriers, "
                                                  f"which never wait, keep the program out of the interleaving "
                                                  f"fragment and a loop through them from counting as a spin)")
        elif arrive and arrive[0] == g and arrive[1] == g:
            out[key] = ("dat3m-arrive-waits", f"without bar.cta.arrive both say {g}")
        elif quorum and quorum[0] == g and quorum[1] == g:
            out[key] = ("dat3m-quorum-contradiction", f"each barrier's members given one quorum: both say {g}")
        elif c["property"] == "termination" and nofilt and nofilt[0] == g and nofilt[1] == g:
            out[key] = ("filter-termination", f"without the filter both say {g}")
        elif (c["property"] == "cat_spec" and nofilt and fends and nofilt == ("FAIL", "FAIL")
              and fends[0] == "FAIL" and g in ("PASS", "UNKNOWN")):
            out[key] = ("filter-cat-spec-hang", "no execution that ends satisfies the filter (gpubmc), "
                                                "without the filter both find the race")
        else:
            hit = [(b, v) for b, v in bounds if v[0] == v[1] and v[0] in ("PASS", "FAIL")]
            if hit and "UNKNOWN" in (g, c["dartagnan"]):
                out[key] = ("bound", f"at bound {hit[0][0][1:]} both say {hit[0][1][0]}")
            else:
                detail = []
                if lc:
                    detail.append(f"Dartagnan without local consistency {lc[1]}")
                if bar:
                    detail.append(f"renamed barriers: gpubmc {bar[0]}, Dartagnan {bar[1]}")
                if cas:
                    detail.append(f"CAS renamed: gpubmc {cas[0]}, Dartagnan {cas[1]}")
                if scope:
                    detail.append(f"scope ids unique: gpubmc {scope[0]}, Dartagnan {scope[1]}")
                detail += [f"bound {b[1:]}: gpubmc {v[0]}, Dartagnan {v[1]}" for b, v in bounds]
                out[key] = ("unexplained", "; ".join(detail))
    return out


# ---------------------------------------------------------------- programs
def program(seed, index, corner_share):
    """(source, text): a program from gen.py or gen_corners.py, rewritten."""
    rng = random.Random(f"dartagnan-mix:{seed}:{index}")
    if rng.random() < corner_share:
        text, bound = gen_corners.generate(seed, index)
        src = "corners"
    else:
        text, _dialect, bound, _est = gen.generate(seed, index)
        src = "gen"
    return src, to_dartagnan(text), bound, rng.choice(OTHER_PROGRESS)


def can_hang(t):
    """Has the program a backward jump or a barrier (else every thread ends)?"""
    for code in t.code:
        seen = set()
        for ins in code:
            m = re.match(r"(LC\d+):$", ins)
            if m:
                seen.add(m.group(1))
            elif ins.startswith(("bar.", "cbar")):
                return True
            else:
                m = re.search(r"\b(LC\d+)\s*$", ins)
                if m and m.group(1) in seen:
                    return True
    return False


def checks_of(t, other, only=None):
    """(model, property, progress) triples for a program: termination only
    where some thread could hang (a straight-line program without barriers
    terminates under every progress model).  `only`, a set of (model,
    property), replaces them by exactly those pairs that fit the dialect
    (PTX cat_spec included, which the default leaves out: the PTX models
    flag nothing, so both tools say PASS)."""
    if only is not None:
        out = []
        for m in MODELS[t.dialect]:
            for mm, p in sorted(only):
                if mm != m:
                    continue
                if p != "termination":
                    out.append((m, p, None))
                elif can_hang(t):
                    out += [(m, p, "fair"), (m, p, other)]
        return out
    out = []
    for m in MODELS[t.dialect]:
        out.append((m, "program_spec", None))
        if t.dialect == "VULKAN":
            out.append((m, "cat_spec", None))
        if can_hang(t):
            out.append((m, "termination", "fair"))
            out.append((m, "termination", other))
    return out


def run_folder(path):
    """The run's output folder, with its files/ and cases/ made."""
    out = pathlib.Path(path)
    (out / "files").mkdir(parents=True, exist_ok=True)
    (out / "cases").mkdir(parents=True, exist_ok=True)
    return out


def run(a):
    t0 = time.monotonic()
    out = run_folder(a.out)
    meta = {}
    groups = collections.defaultdict(list)     # (model, prop, progress, bound) -> files
    only = {tuple(c.split(":", 1)) for c in a.checks.split(",")} if a.checks else None
    indices = [int(x) for x in a.indices.split(",")] if a.indices else range(a.index, a.index + a.n)
    for i in indices:
        src, text, bound, other = program(a.seed, i, a.corners)
        t = L.parse(text)
        f = str((out / "files" / f"s{a.seed}-{i:05d}-{src}-{t.dialect.lower()}-b{bound}.litmus").resolve())
        pathlib.Path(f).write_text(text)
        meta[f] = {"index": i, "source": src, "dialect": t.dialect, "bound": bound, "quant": t.quant,
                   "other": other}
        for model, prop, prog in checks_of(t, other, only):
            groups[(model, prop, prog, bound)].append(f)
    print(f"dartagnan cross-check: seed {a.seed}, programs {indices[0]}..{indices[-1]} ({len(indices)}), "
          f"{sum(len(v) for v in groups.values())} checks in {len(groups)} groups", flush=True)
    binary = pathlib.Path(a.bin)
    results = []
    counts = collections.Counter()

    def one_group(key):
        model, prop, prog, bound = key
        files = groups[key]
        g = run_gpubmc(binary, files, model, prop, bound, prog, jobs=1)
        d = run_dartagnan(files, model, prop, bound, prog, chunk=a.chunk, timeout_s=a.dart_timeout)
        return key, g, d

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
        for key, g, d in ex.map(one_group, sorted(groups, key=str)):
            model, prop, prog, bound = key
            for f in groups[key]:
                gr, greason, gms = g.get(f, ("ERROR", "missing", None))
                dr, dreason, dms = (d.get(f, ("DART-STALL", "missing")) + (None,))[:3]
                kind = compare(prop, meta[f]["quant"], gr, dr)
                label = prop if prop != "termination" else f"termination-{'fair' if prog == 'fair' else 'other'}"
                counts[(model, label, kind)] += 1
                row = {"file": f, "model": model, "property": prop, "progress": prog, "bound": bound,
                       "gpubmc": gr, "gpubmc_reason": greason, "dartagnan": dr,
                       "dartagnan_reason": dreason, "kind": kind, "gpubmc_ms": gms,
                       "dartagnan_ms": dms, **meta[f]}
                results.append(row)
                if kind in ("disagree", "error"):
                    case = out / "cases" / pathlib.Path(f).name
                    case.write_text(pathlib.Path(f).read_text())
            print(f"  {model} {prop} {prog or ''} bound {bound}: {len(groups[key])} files "
                  f"({time.monotonic() - t0:.0f} s)", flush=True)
    with open(out / "results.jsonl", "w") as fh:
        for r in results:
            fh.write(json.dumps(r) + "\n")
    table = collections.defaultdict(collections.Counter)
    for (model, label, kind), v in counts.items():
        table[(model, label)][kind] += v
    summary = {"seed": a.seed, "first": a.index, "programs": len(indices), "seconds": time.monotonic() - t0,
               "table": {f"{m} {p}": dict(c) for (m, p), c in sorted(table.items())}}
    if a.indices:
        summary["indices"] = list(indices)
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print_table(table)
    print_slowest(results)
    return 0 if a.no_explain else post(out, binary, a.j, a.reduce)


def print_slowest(results, limit=2.0):
    """Checks where gpubmc took more than `limit` times Dartagnan's own time
    (both tools' per-check times, process and JVM start excluded), and the
    largest ratios."""
    timed = [r for r in results if r["gpubmc_ms"] is not None and r["dartagnan_ms"]]
    ratio = lambda r: r["gpubmc_ms"] / max(r["dartagnan_ms"], 1.0)
    timed.sort(key=ratio, reverse=True)
    slow = [r for r in timed if ratio(r) > limit]
    print(f"timing: {len(timed)} checks timed by both; {len(slow)} where gpubmc took over "
          f"{limit:g}x Dartagnan; gpubmc total {sum(r['gpubmc_ms'] for r in timed) / 1000:.1f} s, "
          f"Dartagnan total {sum(r['dartagnan_ms'] for r in timed) / 1000:.1f} s")
    for r in timed[:5]:
        print(f"  {ratio(r):8.2f}x  gpubmc {r['gpubmc_ms']:9.1f} ms  Dartagnan {r['dartagnan_ms']:9.1f} ms  "
              f"{r['model']} {r['property']} {r['progress'] or ''} {pathlib.Path(r['file']).name}")


def timing(a):
    """Is any check more than 2x slower in gpubmc than in Dartagnan?  gpubmc
    times every check of the programs (its own time_ms, -j 1); Dartagnan
    times a random calibration sample of them (`--sample`) in warm JVMs,
    whose fastest check gives Dartagnan's floor F on this machine; then
    Dartagnan also times every check on which gpubmc took over F: only there
    can gpubmc be more than 2x slower than a Dartagnan check that takes at
    least F/2 (the margin for checks faster than the sample's fastest).
    Prints the counts and the largest ratios; writes OUT/timing.jsonl."""
    out = pathlib.Path(a.out)
    (out / "files").mkdir(parents=True, exist_ok=True)
    groups = collections.defaultdict(list)
    for i in range(a.index, a.index + a.n):
        src, text, bound, other = program(a.seed, i, a.corners)
        t = L.parse(text)
        f = str((out / "files" / f"s{a.seed}-{i:05d}-{src}-{t.dialect.lower()}-b{bound}.litmus").resolve())
        pathlib.Path(f).write_text(text)
        for model, prop, prog in checks_of(t, other):
            groups[(model, prop, prog, bound)].append(f)
    t0 = time.monotonic()
    g = {}
    for key, files in groups.items():
        model, prop, prog, bound = key
        for f, v in run_gpubmc(pathlib.Path(a.bin), files, model, prop, bound, prog, jobs=1).items():
            g[key + (f,)] = v
    timed = {k: v[2] for k, v in g.items() if v[2] is not None}
    print(f"timing: {len(timed)} of {len(g)} checks timed by gpubmc in {time.monotonic() - t0:.0f} s "
          f"(median {sorted(timed.values())[len(timed) // 2]:.1f} ms, max {max(timed.values()):.1f} ms)", flush=True)
    rng = random.Random(f"timing:{a.seed}")
    sample = set(rng.sample(sorted(timed), min(a.sample, len(timed))))

    def dartagnan(keys):
        by = collections.defaultdict(list)
        for k in keys:
            by[k[:4]].append(k[4])
        got = {}
        for key, files in by.items():
            model, prop, prog, bound = key
            for f, v in run_dartagnan(files, model, prop, bound, prog, chunk=200, timeout_s=a.dart_timeout).items():
                got[key + (f,)] = v[2] if len(v) > 2 else None
        return got
    d = dartagnan(sample)
    floor = min(v for v in d.values() if v)
    slow = [k for k in timed if timed[k] > floor and k not in d]
    print(f"timing: Dartagnan's calibration sample: {sum(1 for v in d.values() if v)} checks, fastest "
          f"{floor:.0f} ms, median {sorted(v for v in d.values() if v)[len(d) // 2]:.0f} ms; "
          f"gpubmc over {floor:.0f} ms on {len(slow)} more checks, timed by Dartagnan too", flush=True)
    d.update(dartagnan(slow))
    rows = [{"model": k[0], "property": k[1], "progress": k[2], "bound": k[3], "file": k[4],
             "gpubmc_ms": timed[k], "dartagnan_ms": d.get(k)} for k in timed]
    with open(out / "timing.jsonl", "w") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")
    both = [r for r in rows if r["dartagnan_ms"]]
    unbounded = [r for r in rows if not r["dartagnan_ms"] and r["gpubmc_ms"] > floor]
    over = [r for r in both if r["gpubmc_ms"] > 2 * r["dartagnan_ms"]]
    print(f"timing: {len(rows)} checks; {len(both)} timed by both; {len(over)} where gpubmc took over 2x "
          f"Dartagnan; {len(rows) - len(both) - len(unbounded)} where gpubmc took at most {floor:.0f} ms "
          f"(<= 2x a Dartagnan check of {floor / 2:.0f} ms or more); {len(unbounded)} left undecided "
          f"(no Dartagnan time)")
    both.sort(key=lambda r: r["gpubmc_ms"] / r["dartagnan_ms"], reverse=True)
    for r in both[:8]:
        print(f"  {r['gpubmc_ms'] / r['dartagnan_ms']:8.3f}x  gpubmc {r['gpubmc_ms']:9.1f} ms  Dartagnan "
              f"{r['dartagnan_ms']:9.1f} ms  {r['model']} {r['property']} {r['progress'] or ''} "
              f"{pathlib.Path(r['file']).name}")
    return 1 if over or unbounded else 0


def post(out, binary, par=2, reduce_max=0):
    """Explains the disagreements of OUT/results.jsonl (OUT/cases.jsonl, one
    line each with its class), then reduces up to reduce_max unexplained ones,
    one per program and property, into OUT/reduced/."""
    rows = [json.loads(l) for l in open(out / "results.jsonl")]
    cases = [r for r in rows if r["kind"] == "disagree"]
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gpubmc-dexplain-") as tmp:
        ex = explain(cases, binary, pathlib.Path(tmp), par=par)
    classes = collections.Counter()
    with open(out / "cases.jsonl", "w") as fh:
        for c in cases:
            key = (c["file"], c["model"], c["property"], c["progress"])
            c["class"], c["class_detail"] = ex[key]
            classes[c["class"]] += 1
            fh.write(json.dumps(c) + "\n")
    print(f"explained {len(cases)} disagreements in {time.monotonic() - t0:.0f} s: " +
          ", ".join(f"{v} {k}" for k, v in classes.most_common()), flush=True)
    if reduce_max:
        reduce_cases(out, binary, reduce_max)
    return 0


def reexplain(out, binary, par=2):
    """Explains again only the unexplained disagreements of OUT/cases.jsonl
    (after new classes were added), updating the file."""
    cases = [json.loads(l) for l in open(out / "cases.jsonl")]
    todo = [c for c in cases if c["class"] == "unexplained"]
    with tempfile.TemporaryDirectory(prefix="gpubmc-dexplain-") as tmp:
        ex = explain(todo, binary, pathlib.Path(tmp), par=par)
    for c in todo:
        c["class"], c["class_detail"] = ex[(c["file"], c["model"], c["property"], c["progress"])]
    with open(out / "cases.jsonl", "w") as fh:
        for c in cases:
            fh.write(json.dumps(c) + "\n")
    classes = collections.Counter(c["class"] for c in cases)
    print(f"re-explained {len(todo)} unexplained disagreements: " +
          ", ".join(f"{v} {k}" for k, v in classes.most_common()), flush=True)
    return 0


def reduce_cases(out, binary, reduce_max, skip_done=True):
    """Reduces up to reduce_max unexplained disagreements of OUT/cases.jsonl,
    one per program and property, into OUT/reduced/ (those already there are
    kept)."""
    cases = [json.loads(l) for l in open(out / "cases.jsonl")]
    (out / "reduced").mkdir(exist_ok=True)
    done = set()
    for c in cases:
        if c["class"] != "unexplained" or (c["file"], c["property"]) in done or len(done) >= reduce_max:
            continue
        done.add((c["file"], c["property"]))
        prog = c["progress"] if c["property"] == "termination" else None
        name = pathlib.Path(c["file"]).stem + f"-{c['model']}-{c['property']}" + (f"-{prog}" if prog else "")
        dest = out / "reduced" / f"{name}.litmus"
        if skip_done and dest.exists():
            continue
        t0 = time.monotonic()
        text, target = reduce_text(pathlib.Path(c["file"]).read_text(), c["model"], c["property"],
                                   prog, c["bound"], binary)
        dest.write_text(text)
        print(f"  reduced {name}: gpubmc {target[0]}, Dartagnan {target[1]} ({time.monotonic() - t0:.0f} s)",
              flush=True)
    return explain_reduced(out, binary, [c for c in cases if (c["file"], c["property"]) in done])


def explain_reduced(out, binary, cases):
    """Explains the reduced programs again (a reduction often uncovers a known
    difference that the whole program hid): OUT/reduced/classes.jsonl."""
    rows = []
    for c in cases:
        prog = c["progress"] if c["property"] == "termination" else None
        name = pathlib.Path(c["file"]).stem + f"-{c['model']}-{c['property']}" + (f"-{prog}" if prog else "")
        f = out / "reduced" / f"{name}.litmus"
        if not f.exists():
            continue
        m = re.search(r'"reduced: gpubmc (\w+), Dartagnan (\w+)', f.read_text())
        if not m or m.group(1) == m.group(2):
            continue
        rows.append(dict(c, file=str(f.resolve()), gpubmc=m.group(1), dartagnan=m.group(2),
                         dialect=L.parse(f.read_text()).dialect, original=c["file"]))
    with tempfile.TemporaryDirectory(prefix="gpubmc-dexplain-") as tmp:
        ex = explain(rows, binary, pathlib.Path(tmp), par=1)
    with open(out / "reduced" / "classes.jsonl", "w") as fh:
        for r in rows:
            r["class"], r["class_detail"] = ex[(r["file"], r["model"], r["property"], r["progress"])]
            fh.write(json.dumps(r) + "\n")
            print(f"  {pathlib.Path(r['file']).name}: {r['class']} ({r['class_detail']})", flush=True)
    return 0


def print_table(table):
    kinds = ["agree", "disagree", "inconclusive", "error", "dartagnan-error"]
    print(f"{'model':16} {'property':20} " + " ".join(f"{k:>15}" for k in kinds))
    for (m, p), c in sorted(table.items()):
        print(f"{m:16} {p:20} " + " ".join(f"{c.get(k, 0):15d}" for k in kinds))


# ---------------------------------------------------------------- the final table
JUDGED = {"dartagnan": ("dat3m-", "barrier-per-occurrence", "dartagnan-"),
          "bound": ("bound", "race-in-cut-execution", "incomplete-"),
          "undecided": ("filter-termination", "filter-cat-spec-hang", "undecided-"),
          "gpubmc": ("gpubmc-",)}


def judged_column(cls):
    for col, prefixes in JUDGED.items():
        if any(cls == p or (p.endswith("-") and cls.startswith(p)) for p in prefixes):
            return col
    return "unjudged"


def table(a):
    """Adds up runs (each OUT of `run`, with `explain`'s cases.jsonl): a
    run OUT-fix (a re-run of some programs with --indices) replaces their
    rows.  Disagreements count under their explained class, or under the
    class that --judged (CSV: index,model,property,progress,class,reason;
    `*` matches anything) gives the unexplained ones, judged by hand."""
    judged = []
    if a.judged:
        import csv
        with open(a.judged) as fh:
            for row in csv.DictReader(l for l in fh if not l.startswith("#")):
                judged.append(row)

    def manual(r):
        for j in judged:
            if (str(r["index"]) == j["index"] and j["model"] in ("*", r["model"])
                    and j["property"] in ("*", r["property"]) and j["progress"] in ("*", str(r["progress"]))):
                return j["class"]
        return None

    rows, programs, seconds, seed = {}, set(), 0.0, set()
    for out in map(pathlib.Path, a.runs):
        for d in [out, out.with_name(out.name + "-fix")]:
            if not (d / "summary.json").exists():
                continue
            summ = json.loads((d / "summary.json").read_text())
            seconds += summ["seconds"]
            seed.add(summ["seed"])
            classes = {}
            if (d / "cases.jsonl").exists():
                for l in open(d / "cases.jsonl"):
                    c = json.loads(l)
                    classes[(c["index"], c["model"], c["property"], c["progress"])] = c["class"]
            fixed = set(summ.get("indices", []))
            if fixed:
                rows = {k: v for k, v in rows.items() if k[0] not in fixed}
            for l in open(d / "results.jsonl"):
                r = json.loads(l)
                key = (r["index"], r["model"], r["property"], r["progress"])
                r["class"] = classes.get(key)
                rows[key] = r
                programs.add(r["index"])
    cols = ["agree", "dartagnan", "bound", "undecided", "gpubmc", "unjudged", "inconclusive", "error",
            "dartagnan-error"]
    tab = collections.defaultdict(collections.Counter)
    unjudged = []
    for key, r in sorted(rows.items(), key=lambda kv: str(kv[0])):
        label = r["property"] if r["property"] != "termination" else \
            f"termination-{'fair' if r['progress'] == 'fair' else 'other'}"
        k = r["kind"]
        if k == "disagree":
            cls = r["class"] or "unexplained"
            if cls == "unexplained":
                cls = manual(r) or "unexplained"
            k = judged_column(cls)
            if k == "unjudged":
                unjudged.append(r)
        tab[(r["model"], label)][k] += 1
    print(f"seed {sorted(seed)}, {len(programs)} programs, {len(rows)} checks, {seconds:.0f} s of runs")
    print(f"| model | property | checks | " + " | ".join(cols) + " |")
    print("|---|---|---:|" + "---:|" * len(cols))
    total = collections.Counter()
    for (m, p), c in sorted(tab.items()):
        total.update(c)
        print(f"| {m} | {p} | {sum(c.values())} | " + " | ".join(str(c.get(k, 0)) for k in cols) + " |")
    print(f"| all | all | {sum(total.values())} | " + " | ".join(str(total.get(k, 0)) for k in cols) + " |")
    for r in unjudged:
        print(f"unjudged: {r['index']} {r['model']} {r['property']} {r['progress']} gpubmc {r['gpubmc']} "
              f"Dartagnan {r['dartagnan']} {r['file']}")
    for r in rows.values():
        if r["kind"] == "error":
            print(f"gpubmc error: {r['index']} {r['model']} {r['property']} {r['progress']}: {r['gpubmc_reason'][:200]}")
        if r["kind"] == "dartagnan-error":
            print(f"dartagnan error: {r['index']} {r['model']} {r['property']} {r['progress']}: "
                  f"{r['dartagnan']} {r['dartagnan_reason'][:120]}")
    return 0


# ---------------------------------------------------------------- reduction
def _with(t, **fields):
    """A copy of t with the given fields replaced."""
    c = t.copy()
    for name, value in fields.items():
        setattr(c, name, value)
    return c


def shrink_candidates(t):
    """Smaller programs than t, smallest steps last."""
    cands = []
    n = len(t.code)
    # drop a whole thread (its registers must not be in the condition)
    for k in range(n):
        if n == 1:
            break
        pid = t.pids()[k]
        text_c = " ".join([t.cond, t.filter or "", t.locations or ""])
        if re.search(rf"\bP{pid}\s*:", text_c):
            continue
        c = t.copy()
        del c.code[k]
        del c.places[k]
        c.init = [e for e in c.init if not re.match(rf"P{pid}\s*:", e)]
        if c.ssw:
            c.ssw = [(a, b) for a, b in c.ssw if pid not in (a, b)] or None
        cands.append(c)
    # condition and filter
    if t.filter is not None:
        cands.append(_with(t, filter=None))
        cands += [_with(t, filter=L.show_cond(s)) for s in L.cond_shrinks(L.parse_cond(t.filter))]
    if t.locations is not None:
        cands.append(_with(t, locations=None))
    cands += [_with(t, cond=L.show_cond(s)) for s in L.cond_shrinks(L.parse_cond(t.cond))]
    if t.ssw:
        for k in range(len(t.ssw)):
            c = t.copy()
            del c.ssw[k]
            c.ssw = c.ssw or None
            cands.append(c)
    # drop one instruction, or a pair (a branch and its label)
    for k in range(n):
        for j in range(len(t.code[k])):
            c = t.copy()
            del c.code[k][j]
            if not c.code[k]:
                continue
            cands.append(c)
        for j, ins in enumerate(t.code[k]):
            m = re.match(r"(LC\d+):$", ins)
            if m:
                c = t.copy()
                c.code[k] = [x for x in c.code[k] if not re.search(rf"\b{m.group(1)}\b", x)]
                if c.code[k]:
                    cands.append(c)
    # initial state: register values and non-zero location values
    for j, e in enumerate(t.init):
        if re.match(r"P\d+\s*:", e):
            c = t.copy()
            del c.init[j]
            cands.append(c)
        m = re.match(r"(\w+)\s*=\s*(-?\d+)$", e)
        if m and m.group(2) != "0":
            c = t.copy()
            c.init[j] = f"{m.group(1)}=0"
            cands.append(c)
    # simpler instructions: drop qualifiers that only add strength
    simpl = [(r"\.semav\b", ""), (r"\.semvis\b", ""), (r"(\.semsc\d)(\.semsc\d)", r"\1"),
             (r"\.acq_rel\b", ".acq"), (r"\.acq_rel\b", ".rel"), (r"\.(acquire|release|acq_rel)\.", ".relaxed."),
             (r"^ld\.(relaxed|acquire)\.(cta|gpu|sys)", "ld.weak"), (r"^st\.(relaxed|release)\.(cta|gpu|sys)", "st.weak"),
             (r"\.(sys|gpu)\b", ".cta"), (r"\.(dv|qf|wg)\b", ".sg"), (r"\.(dv|qf)\b", ".wg"),
             (r"\b(beq|bne|blt|bgt|ble|bge) r\d+, -?\d+, ", "goto "), (r",\s*r(\d+)\s*$", ", 1")]
    for k in range(n):
        for j, ins in enumerate(t.code[k]):
            for pat, rep in simpl:
                new = re.sub(pat, rep, ins, count=1)
                if new != ins:
                    c = t.copy()
                    c.code[k][j] = new
                    cands.append(c)
    # places: move a thread into thread 0's cta/workgroup
    for k in range(1, n):
        base = re.sub(r"^P\d+", "", t.places[0])
        pid = re.match(r"P\d+", t.places[k]).group(0)
        if t.places[k] != pid + base:
            c = t.copy()
            c.places[k] = pid + base
            cands.append(c)
    # unused initial entries (aliases and locations nothing names)
    body = " ".join(" ".join(code) for code in t.code) + " " + t.cond + " " + (t.filter or "")
    for j, e in enumerate(t.init):
        m = re.match(r"(\w+)\s*(=|@|aliases\b)", e)
        if m and not re.match(r"P\d", e):
            name = m.group(1)
            others = " ".join(x for i2, x in enumerate(t.init) if i2 != j)
            if not re.search(rf"\b{name}\b", body) and not re.search(rf"\baliases\s+{name}\b", others):
                c = t.copy()
                del c.init[j]
                cands.append(c)
    return cands


def size(t):
    return (sum(len(c) for c in t.code), len(t.code), len(t.cond) + len(t.filter or ""),
            sum(len(i) for c in t.code for i in c), len(t.init))


def verdicts(texts, model, prop, progress, bound, binary, tmp):
    files = []
    for k, text in enumerate(texts):
        f = str(tmp / f"c{k:04d}.litmus")
        pathlib.Path(f).write_text(text)
        files.append(f)
    g = run_gpubmc(binary, files, model, prop, bound, progress, jobs=2)
    d = run_dartagnan(files, model, prop, bound, progress, chunk=200, timeout_s=20)
    return [(g[f][0], d.get(f, ("?", ""))[0]) for f in files]


def reduce_text(text, model, prop, progress, bound, binary, max_rounds=60, log=None):
    """(reduced text, (gpubmc verdict, Dartagnan verdict)): the program shrunk
    while both tools keep their verdicts."""
    t = L.parse(to_dartagnan(text))
    with tempfile.TemporaryDirectory(prefix="gpubmc-dreduce-") as tmp:
        tmp = pathlib.Path(tmp)
        target = verdicts([t.render()], model, prop, progress, bound, binary, tmp)[0]
        rounds = 0
        while target[0] != target[1] and rounds < max_rounds:
            rounds += 1
            seen, uniq = set(), []
            for c in shrink_candidates(t):
                add_register_inits(c)       # a dropped initial value stays 0 (see there)
                if size(c) >= size(t):
                    continue
                r = c.render()
                if r not in seen:
                    seen.add(r)
                    uniq.append((c, r))
            if not uniq:
                break
            got = verdicts([r for _, r in uniq], model, prop, progress, bound, binary, tmp)
            ok = [c for (c, _), v in zip(uniq, got) if v == target]
            if not ok:
                break
            t = min(ok, key=size)
            if log:
                log(f"round {rounds}: {size(t)[0]} instructions, {len(t.code)} threads")
    t.pre = [f'"reduced: gpubmc {target[0]}, Dartagnan {target[1]} ({model} {prop}'
             f'{" " + progress if progress else ""}, bound {bound})"']
    return t.render(), target


def reduce(a):
    progress = a.progress if a.property == "termination" else None
    text, target = reduce_text(pathlib.Path(a.file).read_text(), a.model, a.property, progress, a.bound,
                               pathlib.Path(a.bin), a.rounds, log=lambda m: print(m, file=sys.stderr))
    print(f"verdicts: gpubmc {target[0]}, Dartagnan {target[1]}", file=sys.stderr)
    print(text, end="")
    return 0 if target[0] != target[1] else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("-n", type=int, default=500)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--index", type=int, default=0, help="first program index")
    r.add_argument("--corners", type=float, default=0.5, help="share of programs from gen_corners.py")
    r.add_argument("--out", default=str(ROOT / "build" / "dartagnan-run"))
    r.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    r.add_argument("-j", type=int, default=2, help="groups checked at once (Dartagnan JVMs)")
    r.add_argument("--chunk", type=int, default=100, help="files per Dartagnan JVM")
    r.add_argument("--dart-timeout", type=int, default=20, help="Dartagnan's solver timeout per file (s)")
    r.add_argument("--reduce", type=int, default=0, help="reduce up to N unexplained disagreements")
    r.add_argument("--no-explain", action="store_true", help="skip explaining the disagreements "
                   "(`explain OUT` does it later)")
    r.add_argument("--indices", help="only these program indices, comma-separated (re-running some "
                                     "programs of a run; -n and --index are then ignored)")
    r.add_argument("--checks", help="only these MODEL:PROPERTY checks, comma-separated "
                                    "(e.g. ptx-v6.0:cat_spec,ptx-v7.5:cat_spec)")
    e = sub.add_parser("explain", help="explain (and reduce) the disagreements of a finished run")
    e.add_argument("out")
    e.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    e.add_argument("-j", type=int, default=2)
    e.add_argument("--reduce", type=int, default=0)
    e.add_argument("--only-reduce", action="store_true", help="reduce the unexplained cases of cases.jsonl")
    e.add_argument("--unexplained", action="store_true",
                   help="explain again only the unexplained cases of cases.jsonl")
    d = sub.add_parser("reduce")
    d.add_argument("file")
    d.add_argument("--model", required=True)
    d.add_argument("--property", required=True)
    d.add_argument("--progress", default="fair")
    d.add_argument("--bound", type=int, default=1)
    d.add_argument("--rounds", type=int, default=60)
    d.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    tb = sub.add_parser("table", help="add up finished runs (and their -fix re-runs) into one table")
    tb.add_argument("runs", nargs="+")
    tb.add_argument("--judged", help="CSV of hand-judged unexplained disagreements")
    tm = sub.add_parser("timing", help="is any check more than 2x slower in gpubmc than in Dartagnan?")
    tm.add_argument("-n", type=int, default=2000)
    tm.add_argument("--seed", type=int, default=1)
    tm.add_argument("--index", type=int, default=0)
    tm.add_argument("--corners", type=float, default=0.5)
    tm.add_argument("--sample", type=int, default=200, help="checks in Dartagnan's calibration sample")
    tm.add_argument("--dart-timeout", type=int, default=20)
    tm.add_argument("--out", default=str(ROOT / "build" / "dartagnan-timing"))
    tm.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    tr = sub.add_parser("translate")
    tr.add_argument("file")
    a = ap.parse_args()
    if a.cmd == "run":
        return run(a)
    if a.cmd == "reduce":
        return reduce(a)
    if a.cmd == "table":
        return table(a)
    if a.cmd == "timing":
        return timing(a)
    if a.cmd == "explain":
        if a.unexplained:
            return reexplain(pathlib.Path(a.out), pathlib.Path(a.bin), a.j)
        if a.only_reduce:
            return reduce_cases(pathlib.Path(a.out), pathlib.Path(a.bin), a.reduce or 1000)
        return post(pathlib.Path(a.out), pathlib.Path(a.bin), a.j, a.reduce)
    print(to_dartagnan(pathlib.Path(a.file).read_text()), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
