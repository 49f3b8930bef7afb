"""The CUDA harness and hardware logs (issue 19).

--emit-cuda: every own PTX test (tests/litmus/ptx, tests/litmus/ptx75,
tests/gallery) is emitted, or refused with exactly the reason
tests/cuda/refused.csv gives; every emitted program holds each litmus
instruction of each thread, in order, as a comment followed by its inline
PTX, whose mnemonic is the litmus mnemonic (atom.sub and red.sub as the add
of the negated operand; local arithmetic as add.s32, sub.s32, mul.lo.s32,
div.s32, a move as mov.b32), and branches as C gotos; the Makefile and
params.txt are written beside them. With nvcc (on PATH or in
/usr/local/cuda/bin) every PTX test under tests/litmus and tests/gallery
and in the corpus is emitted or refused with a reason, and the device side
of each emitted program compiles for sm_90 with every warning an error
(compile_all, in make check-all); a representative handful build whole in
make test (`make cuda-compile` builds them all); a compiled program accepts the params.txt written beside
it and refuses a bad one by line. Without nvcc these say that they skip.

--observed: each row of tests/cuda/observed.csv (a hand-written log in the
harness's format, litmus7's or herd7's, a test, a bound) gives its
reasoned verdict and output; tests/cuda/errors.csv lists malformed logs
and the exact error each gives.

Called by run_tests.py with its record() and run() helpers."""
import csv, os, pathlib, re, resource, subprocess, sys, tempfile, time

from testpaths import BUILD, CORPUS, ROOT, corpus_missing_note

CUDA = ROOT / "tests" / "cuda"
sys.path.insert(0, str(CUDA))
import run_gpu  # noqa: E402
from run_gpu import nvcc  # noqa: E402

CORPUS_PTX = CORPUS / "litmus" / "PTX"
OWN_PTX = ["tests/litmus/ptx", "tests/litmus/ptx75", "tests/gallery"]
# compiled in make test: a spin loop with release/acquire; fence.sc, atom.cas,
# arithmetic and branches over three CTAs; a barrier in one CTA; a generic
# alias (a second mapping of the memory) with fence.proxy.alias
HANDFUL = ["tests_litmus_ptx_MP+spin-acq", "tests_gallery_Deque-fence.sc", "tests_litmus_ptx_SB+bar-samecta",
           "tests_litmus_ptx75_MP-alias-aliasF-rd"]
LOCAL_PTX = {"add": "add.s32", "sub": "sub.s32", "mul": "mul.lo.s32", "div": "div.s32", "ld": "mov.b32"}


def litmus_files():
    out = []
    for d in OWN_PTX:
        out += sorted(str(p.relative_to(ROOT)) for p in (ROOT / d).glob("*.litmus"))
    return out


def dumped_threads(path):
    """Per thread of the litmus file: its instructions as (kind, text), from
    build/litmus_dump."""
    p = subprocess.run([str(BUILD / "litmus_dump"), path], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    threads = []
    for line in p.stdout.splitlines():
        if re.match(r"  P\d+ @", line):
            threads.append([])
        m = re.match(r"    \d+:\d+ (\w+) .*\| (.*)$", line)
        if m and threads:
            threads[-1].append((m.group(1), m.group(2).strip()))
    return threads


def emitted_threads(cu_text):
    """Per lt_thread_N function of an emitted program: (text, PTX
    mnemonic or None for a jump) of each instruction, in order."""
    out = {}
    for m in re.finditer(r"__device__ static bool lt_thread_(\d+)\(.*?\n\{\n(.*?)\n\}\n", cu_text, re.S):
        body = m.group(2).splitlines()
        items = []
        for i, line in enumerate(body):
            jump = re.match(r"    (?:if \(.*\) )?(?:\{ if \(\+\+steps > max_steps\) return false; )?goto lab_\w+;"
                            r"(?: \})?   // (.*)$", line)
            if jump:
                items.append((jump.group(1), None))
            elif line.startswith("    // ") and i + 1 < len(body):
                asm = re.match(r'    asm volatile\("([a-z0-9_.]+)[ ;]', body[i + 1])
                items.append((line[7:], asm.group(1) if asm else "?"))
        out[int(m.group(1))] = items
    return out


def ptx_matches(text, mnemonic):
    """True when the PTX mnemonic is the litmus instruction's."""
    word = text.split()[0]
    if "." not in word:
        return mnemonic == LOCAL_PTX.get(word)
    if word.startswith(("atom.", "red.")) and word.endswith(".sub"):
        word = word[:-4] + ".add"
    return mnemonic.startswith(word + ".") or mnemonic == word


def check_program(record, path, cu):
    """The emitted program of path holds each instruction as written."""
    expected = dumped_threads(path)
    got = emitted_threads(cu.read_text())
    ok = len(expected) == len(got) and len(expected) > 0
    for t, instrs in enumerate(expected):
        want = [text for kind, text in instrs if kind != "label"]
        have = got.get(t, [])
        ok &= [text for text, _ in have] == want
        for text, mnemonic in have:
            if mnemonic is not None and not ptx_matches(text, mnemonic):
                record(False, f"emit-cuda: {path}: `{text}` emitted as `{mnemonic}`")
                ok = False
            if mnemonic is None and not re.match(r"(b(eq|ne|lt|gt|le|ge)|goto)\b", text):
                ok = False
    record(ok, f"emit-cuda: {path}: every instruction of every thread in order, as its inline PTX")


def emit_own(record, run, out):
    """Emits the own PTX tests into out; checks the refusals and programs."""
    refused = {r["file"]: r["reason"] for r in csv.DictReader((CUDA / "refused.csv").open())}
    files = litmus_files()
    p = run(["--json", "-j", "2", "--emit-cuda", str(out)] + files)
    import json
    results = {o["file"]: o for o in map(json.loads, p.stdout.splitlines())}
    record(set(results) == set(files), f"emit-cuda: a result per own PTX test ({len(results)} of {len(files)})")
    emitted = 0
    for f in files:
        o = results.get(f)
        if o is None:
            continue
        name = f[:-len(".litmus")].replace("/", "_")
        if f in refused:
            want = f"{f}: error: not emitted: {refused[f]}"
            record(o["result"] == "ERROR" and o["reason"] == want and not (out / f"{name}.cu").exists(),
                   f"emit-cuda: {f} refused: {o['reason']!r}, expected {want!r}")
        else:
            ok = o["result"] == "PASS" and o["reason"].startswith(f"wrote {out}/{name}.cu: ")
            record(ok, f"emit-cuda: {f} emitted ({o['result']}: {o['reason']})")
            if ok:
                emitted += 1
                check_program(record, f, out / f"{name}.cu")
    record(p.returncode == (1 if refused else 0), f"emit-cuda: exit status {p.returncode} with refusals")
    record((out / "Makefile").exists() and "params.txt" in (out / "Makefile").read_text()
           and re.search(r"^iterations = \d+$", (out / "params.txt").read_text(), re.M) is not None,
           "emit-cuda: Makefile and params.txt written")
    print(f"INFO emit-cuda: {emitted} own PTX tests emitted, {len(refused)} refused")
    return emitted


def compile_handful(record, out):
    """nvcc compiles a handful of emitted programs; each reads params.txt."""
    compiler = nvcc()
    if not compiler:
        print("SKIP emit-cuda compile: no nvcc (PATH, /usr/local/cuda/bin); `make cuda-compile` needs one too")
        return
    failed = dict(run_gpu.build(compiler, "sm_90", out, HANDFUL, 2, progress=False, timeout=600))
    for name in HANDFUL:
        record(name not in failed, f"emit-cuda: nvcc -arch=sm_90 {name}.cu: {failed.get(name, '')[-800:]}")
    prog = out / HANDFUL[0]
    if not prog.exists():
        return
    ok = subprocess.run([str(prog), "-p", str(out / "params.txt"), "-h"], capture_output=True, text=True, timeout=60)
    record(ok.returncode == 2 and ok.stderr.startswith("usage: "),
           f"emit-cuda: the program accepts params.txt ({ok.returncode}, {ok.stderr[:200]!r})")
    bad = out / "bad-params.txt"
    bad.write_text("iterations = 10\nstress_blocks_per_sm = 99\n")
    p = subprocess.run([str(prog), "-p", str(bad)], capture_output=True, text=True, timeout=60)
    record(p.returncode == 2 and p.stderr == f"{bad}:2: error: stress_blocks_per_sm must be from 0 to 64\n",
           f"emit-cuda: a bad parameter is refused by line ({p.returncode}, {p.stderr!r})")
    print(f"INFO emit-cuda: compiled {len(HANDFUL)} programs with {compiler}")
    host_round_trip(record, compiler, out)


def host_round_trip(record, compiler, out):
    """The host side of an emitted program (tests/cuda/host_check.cu: its
    own counting and printers, on 64 made-up instances, 9 of them cut)
    writes a log that --observed reads back: r0, r1 are bits 0 and 1 of the
    instance, so of the 55 uncut instances 14 end in the state
    MP+rel.gpu+acq.gpu forbids."""
    import json
    stem = "tests_litmus_ptx_MP+rel.gpu+acq.gpu"
    exe = out / "host_check"
    p = subprocess.run([compiler, "-Werror", "all-warnings", f'-DEMITTED="{out / stem}.cu"', "-o", str(exe),
                        str(CUDA / "host_check.cu")], capture_output=True, text=True, timeout=600)
    record(p.returncode == 0, f"emit-cuda: host_check compiles: {p.stderr[-800:]}")
    if p.returncode != 0:
        return
    p = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    (out / "host.log").write_text(p.stdout)
    j = json.loads(p.stderr)
    record(p.returncode == 0 and j["instances"] == 64 and j["cut"] == 9 and j["positive"] == 14
           and sum(s["count"] for s in j["states"]) == 55 and j["observed"] == ["P1:r0", "P1:r1"],
           f"emit-cuda: the harness counts made-up outcomes ({p.stderr[:300]})")
    record("\nCondition ~exists (1:r0=1 /\\ 1:r1=0) is NOT validated\n" in p.stdout
           and "\n14      *> 1:r0=1; 1:r1=0;\n" in p.stdout, f"emit-cuda: the harness's herd log ({p.stdout[:400]})")
    q = subprocess.run([str(BUILD / "gpubmc"), "--observed", str(out / "host.log"),
                        "tests/litmus/ptx/MP+rel.gpu+acq.gpu.litmus"], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    record(q.stdout.startswith("tests/litmus/ptx/MP+rel.gpu+acq.gpu.litmus: FAIL (the model forbids 1 of the 4 "
                               "observed outcomes: P1:r0=1; P1:r1=0; (seen 14 times)")
           and "Observed: 4 outcomes in 55 runs" in q.stdout,
           f"emit-cuda: --observed reads the harness's own log:\n{q.stdout}{q.stderr}")
    runner_table(record, out, p.stdout, p.stderr)


def runner_table(record, out, log, js):
    """tests/cuda/run_gpu.py's table from the made-up run: 1 iteration, 64
    runs, 14 weak (the ~exists body) and 14 forbidden, FAIL; exit status 10."""
    import contextlib, io
    d = out / "runner"
    d.mkdir()
    (d / "results.log").write_text(log)
    (d / "results.json").write_text(js)
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        rc = run_gpu.table(d, ["tests/litmus/ptx/MP+rel.gpu+acq.gpu.litmus"])
    row = text.getvalue().splitlines()[1].split()
    record(rc == 10 and row[:6] == ["tests/litmus/ptx/MP+rel.gpu+acq.gpu.litmus", "1", "64", "14", "14", "FAIL"],
           f"run_gpu.py: the table of a run ({rc}, {text.getvalue()!r})")


def compile_all(record):
    """Every PTX test the harness supports compiles for sm_90: each PTX
    file under tests/litmus and tests/gallery (but the malformed ones under
    errors/) and the corpus's PTX tests (when the corpus is there) is
    emitted, or refused with the harness's reason; nvcc compiles the device
    side of each emitted program (-cubin: cicc and ptxas on the inline PTX,
    every warning an error), two at a time. A program that does not compile
    fails, with nvcc's words."""
    compiler = nvcc()
    if not compiler:
        print("SKIP emit-cuda compile-all: no nvcc (PATH, /usr/local/cuda/bin): the emitted programs are not compiled")
        return
    paths = [ROOT / "tests" / "litmus", ROOT / "tests" / "gallery"]
    if CORPUS_PTX.is_dir():
        paths.append(CORPUS_PTX)
    else:
        print(corpus_missing_note("emit-cuda compile-all over the corpus's PTX tests"))
    files = [os.path.relpath(f, ROOT) for f in run_gpu.ptx_tests(paths)]
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "all"
        emitted, refused = run_gpu.emit(files, out, 2, cwd=ROOT)
        record(sorted(list(emitted) + list(refused)) == sorted(set(files)),
               f"emit-cuda compile-all: a result per PTX test ({len(emitted)} emitted, {len(refused)} refused, "
               f"{len(files)} tests)")
        for f, why in sorted(refused.items()):
            record(why.startswith(f"{f}: error: not emitted: ") and len(why) > len(f) + 30,
                   f"emit-cuda compile-all: {f} not emitted without the harness's reason: {why}")
        stems = {stem: f for f, stem in emitted.items()}
        record(len(stems) == len(emitted), "emit-cuda compile-all: a program name per test")
        wall, cpu = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
        failed = dict(run_gpu.build(compiler, "sm_90", out, sorted(stems), 2, cubin=True, progress=False))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall, cpu = time.monotonic() - wall, after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
        for stem, f in sorted(stems.items()):
            record(stem not in failed and (out / f"{stem}.cubin").is_file(),
                   f"emit-cuda compile-all: {f}: nvcc -arch=sm_90 -cubin {stem}.cu:\n{failed.get(stem, '')[-1500:]}")
    print(f"INFO emit-cuda: {len(stems) - len(failed)} of {len(files)} PTX tests compiled for sm_90 "
          f"({len(refused)} refused by the harness, {len(failed)} failed; nvcc -cubin, 2 jobs: {wall:.0f} s wall, "
          f"{cpu:.0f} s CPU)")
    for why, n in run_gpu.refusal_kinds(refused):
        print(f"INFO emit-cuda:   {n:4} refused: {why}")


def observed_rows(record, run):
    """Each hand-written log against its reasoned verdict and output."""
    for row in csv.DictReader((CUDA / "observed.csv").open()):
        log = CUDA / "logs" / row["log"]
        p = run(["--observed", str(log), "--bound", row["bound"], row["file"]])
        first = p.stdout.splitlines()[0] if p.stdout else ""
        ok = first.startswith(f"{row['file']}: {row['verdict']} (") and row["output must contain"] in p.stdout
        record(ok, f"observed: {row['log']} {row['file']} --bound {row['bound']}: expected {row['verdict']} "
                   f"and {row['output must contain']!r}, got:\n{p.stdout}{p.stderr}")
    for row in csv.DictReader((CUDA / "errors.csv").open()):
        p = run(["--observed", str(CUDA / "logs" / row["log"]), row["file"]])
        got = p.stderr.replace(str(CUDA) + "/", "tests/cuda/")
        record(p.returncode == 1 and got.splitlines() == [row["error"]],
               f"observed: {row['log']}: expected {row['error']!r}, got {p.returncode} {got!r}")


def observed_json(record, run):
    """--json: the details name each forbidden state with its explanation,
    and --witness writes the execution that reaches it without them."""
    import json
    with tempfile.TemporaryDirectory() as tmp:
        w = pathlib.Path(tmp) / "w.json"
        p = run(["--json", "--witness", str(w), "--observed", str(CUDA / "logs" / "forbidden.log"),
                 "tests/litmus/ptx/MP+rel.gpu+acq.gpu.litmus"])
        o = json.loads(p.stdout)
        d = o.get("details", {})
        bad = [s for s in d.get("states", []) if s["verdict"] == "forbidden"]
        record(o["result"] == "FAIL" and d.get("runs") == 1000032 and len(bad) == 1
               and bad[0]["values"] == {"P1:r0": 1, "P1:r1": 0} and bad[0]["count"] == 3
               and bad[0]["explanation"]["axioms"] == ["Causality"] and d.get("unobserved") == []
               and o.get("explanation", {}).get("axioms") == ["Causality"],
               f"observed --json: the forbidden state with its explanation ({p.stdout[:600]})")
        wit = json.loads(w.read_text()) if w.exists() else {}
        record(wit.get("explanation", {}).get("witness") is not None,
               "observed --witness: the execution without Causality")


def usage_errors(record, run):
    """Options that do not go with --emit-cuda or --observed, and an output
    directory that is an input, are usage errors."""
    mp, log = "tests/litmus/ptx/MP-weak.litmus", str(CUDA / "logs" / "allowed.log")
    with tempfile.TemporaryDirectory() as tmp:
        for args, what in ((["--emit-cuda", tmp, "--property", "termination", mp], "--emit-cuda with termination"),
                           (["--emit-cuda", tmp, "--outcomes", mp], "--emit-cuda with --outcomes"),
                           (["--observed", log, "--explain", mp], "--observed with --explain"),
                           (["--observed", log, "--property", "cat_spec", mp], "--observed with cat_spec"),
                           (["--observed", log, "--engine", "oracle", mp], "--observed with the oracle"),
                           (["--emit-cuda", tmp, "--observed", log, mp], "--emit-cuda with --observed"),
                           (["--observed", log, "--source", mp, mp], "--observed with --source"),
                           (["--emit-cuda", "tests/litmus/ptx", "tests/litmus/ptx"], "--emit-cuda into an input")):
            p = run(args)
            record(p.returncode == 1 and p.stderr.startswith("gpubmc: error: ") and p.stdout == "",
                   f"options: {what} is a usage error ({p.returncode}, {p.stderr!r})")
        record(not any(pathlib.Path(tmp).iterdir()), "options: a refused --emit-cuda writes nothing")


def cuda(record, run):
    """Every CUDA harness and hardware log test."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "cuda"
        if emit_own(record, run, out):
            compile_handful(record, out)
    observed_rows(record, run)
    observed_json(record, run)
    usage_errors(record, run)
