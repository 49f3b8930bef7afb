"""Trust tests (issue 14): time and memory budgets, inputs that are not
regular files, workers that die with their parent or crash, failed
writes, inputs never written to, --expect that compares nothing, options
that do not apply, one error format, and --help, man page and docs/usage.md in
agreement.
Called by run_tests.py with its record() and run() helpers."""
import json, os, pathlib, re, shutil, signal, subprocess, tempfile, time

from testlib import child_pids
from testpaths import BIN, ROOT

HEAVY = ROOT / "tests" / "heavy"
PTX = ROOT / "tests" / "litmus" / "ptx"
GOOD = [PTX / "MP-weak.litmus", PTX / "SB-weak.litmus", PTX / "MP+rel.gpu+acq.gpu.litmus"]
VULKAN = ROOT / "tests" / "litmus" / "vulkan" / "Chain-av-sg-then-wg.litmus"
MEMORY_MB = 100
ERROR_LINE = re.compile(r"^[^:\s][^:]*(:\d+:\d+)?: error: \S")


def measured(args, cwd=ROOT, timeout=60):
    """Runs gpubmc; (exit status, stdout, stderr, peak resident KiB of it
    and its workers, seconds)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.monotonic()
        p = subprocess.Popen([str(BIN)] + [str(a) for a in args], cwd=cwd, stdout=out, stderr=err)
        deadline = t0 + timeout
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        if not pid:
            p.kill()
            pid, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        secs = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read(), err.read(), usage.ru_maxrss, secs


def _json_rows(stdout):
    return [json.loads(line) for line in stdout.splitlines()]


def budgets(record, run):
    """A memory-hungry file among good ones: every good file is reported at
    -j 1 and -j 2, the hungry ones are ERRORs that name the file, and the
    peak stays under the budget; a slow file answers UNKNOWN (timeout)."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        names = ["a-good.litmus", "b-hungry.litmus", "c-good.litmus", "d-hungry.litmus", "e-good.litmus"]
        for name, src in zip(names, [GOOD[0], HEAVY / "irreducible-50-stores.litmus", GOOD[1],
                                     HEAVY / "threads-2000.litmus", GOOD[2]]):
            shutil.copy(src, d / name)
        for j in ("1", "2"):
            rc, out, err, peak, secs = measured(["-j", j, "--json", "--bound", "40",
                                                 "--max-memory", str(MEMORY_MB), d])
            rows = _json_rows(out)
            files = [pathlib.Path(o["file"]).name for o in rows]
            good = all(o["result"] in ("PASS", "FAIL") for o in rows if "good" in o["file"])
            want_err = [f"{d / n}: error: out of memory: the check needs more than the --max-memory "
                        f"of {MEMORY_MB} MB" for n in names if "hungry" in n]
            hungry = [o["reason"] for o in rows if "hungry" in o["file"] and o["result"] == "ERROR"]
            record(rc == 1 and files == names and good and hungry == want_err
                   and err.splitlines() == want_err,
                   f"budgets: -j {j}: every good file reported, each hungry one an ERROR naming it "
                   f"(rc {rc}, {files}, {err!r})")
            record(peak < MEMORY_MB * 1024, f"budgets: -j {j}: peak {peak} KiB under {MEMORY_MB} MB")
            print(f"INFO budgets -j {j}: peak {peak / 1024:.0f} MiB, {secs:.2f} s")
        rc, out, err, peak, secs = measured(["--bound", "2", "--timeout", "0.3",
                                             HEAVY / "lock-cas-10.litmus", GOOD[0]])
        lines = out.splitlines()
        record(rc == 20 and len(lines) == 2 and secs < 10
               and lines[0] == f"{HEAVY / 'lock-cas-10.litmus'}: UNKNOWN (timeout: no verdict within "
                               f"the --timeout of 0.3 s)" and lines[1].endswith("PASS (the outcome is reachable)"),
               f"budgets: --timeout 0.3 gives UNKNOWN for the slow file and goes on ({rc}, {secs:.1f} s, {out!r})")
        for bad in (["--timeout", "-1"], ["--timeout", "soon"], ["--max-memory", "-5"], ["--max-memory", "1.5"]):
            p = run(bad + [str(GOOD[0])])
            record(p.returncode == 1 and "gpubmc: error:" in p.stderr, f"budgets: {' '.join(bad)} is a usage error")


def _alive(pid):
    """True while pid runs (a zombie has ended)."""
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def parent_death(record, run):
    """Killing gpubmc kills its workers."""
    if not pathlib.Path("/proc/self/stat").exists():
        print("SKIP parent death: no /proc")
        return
    slow = HEAVY / "lock-cas-10.litmus"
    for j in ("1", "2"):
        p = subprocess.Popen([str(BIN), "-j", j, "--bound", "2", str(slow), str(slow)], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        kids = []
        while len(kids) < int(j) and time.monotonic() < deadline:
            time.sleep(0.05)
            kids = child_pids(p.pid)
        p.kill()
        p.wait()
        deadline = time.monotonic() + 5
        while any(_alive(k) for k in kids) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [k for k in kids if _alive(k)]
        for k in left:
            os.kill(k, signal.SIGKILL)
        record(len(kids) == int(j) and not left,
               f"parent death: -j {j}: {len(kids)} workers, {len(left)} still running after the parent died")


def crashed_worker(record, run):
    """A worker that crashes costs only its file: a fresh one goes on."""
    if not pathlib.Path("/proc/self/stat").exists():
        print("SKIP crashed worker: no /proc")
        return
    slow = HEAVY / "lock-cas-10.litmus"
    p = subprocess.Popen([str(BIN), "--bound", "2", str(slow), str(GOOD[0])], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 10
    kids = []
    while not kids and time.monotonic() < deadline:
        time.sleep(0.05)
        kids = child_pids(p.pid)
    time.sleep(0.2)   # into the check
    for k in kids:
        os.kill(k, signal.SIGSEGV)
    out, err = p.communicate(timeout=60)
    record(len(kids) == 1 and p.returncode == 1
           and err == f"{slow}: error: internal error: the check died of signal 11 (Segmentation fault)\n"
           and out == f"{GOOD[0]}: PASS (the outcome is reachable)\n",
           f"crashed worker: an ERROR for its file, the next file checked ({p.returncode}, {out!r}, {err!r})")


def odd_inputs(record, run):
    """FIFOs, symbolic link loops, broken links: an error line each, and
    the regular files are checked."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        shutil.copy(GOOD[0], d / "good.litmus")
        os.mkfifo(d / "fifo.litmus")
        os.mkfifo(d / "fifo-not-litmus")
        (d / "sub").mkdir()
        os.symlink("..", d / "sub" / "loop")
        os.symlink("self.litmus", d / "self.litmus")
        os.symlink("nowhere.litmus", d / "broken.litmus")
        want = [f"{d}/broken.litmus: error: cannot open: No such file or directory",
                f"{d}/fifo.litmus: error: not a regular file",
                f"{d}/self.litmus: error: cannot open: Too many levels of symbolic links",
                f"{d}/sub/loop: error: directory loop: a symbolic link leads back to a directory being searched",
                f"{d}/fifo.litmus: error: not a regular file"]
        for j in ("1", "2"):
            try:
                p = subprocess.run([str(BIN), "-j", j, str(d), str(d / "fifo.litmus")], cwd=ROOT,
                                   capture_output=True, text=True, timeout=30)
            except subprocess.TimeoutExpired:
                record(False, f"odd inputs: -j {j} hangs")
                continue
            record(p.returncode == 1 and p.stdout == f"{d}/good.litmus: PASS (the outcome is reachable)\n"
                   and p.stderr.splitlines() == want,
                   f"odd inputs: -j {j}: one error per odd path, the good file checked "
                   f"({p.returncode}, {p.stdout!r}, {p.stderr!r})")


def write_errors(record, run):
    """A failed write to stdout or to the witness file is exit status 1."""
    if not os.path.exists("/dev/full"):
        print("SKIP write errors: no /dev/full")
        return
    for args in ([str(GOOD[0])], ["--json", "-j", "2", "tests/litmus/ptx"], ["--help"], ["--version"],
                 ["--expect", "expected.csv"]):
        cwd = PTX if "--expect" in args else ROOT
        with open("/dev/full", "w") as full:
            p = subprocess.run([str(BIN)] + args, cwd=cwd, stdout=full, stderr=subprocess.PIPE,
                               text=True, timeout=120)
        record(p.returncode == 1 and "gpubmc: error: cannot write the standard output: No space left on device"
               in p.stderr, f"write errors: {' '.join(args)} > /dev/full ({p.returncode}, {p.stderr[-200:]!r})")
    p = run(["--witness", "/dev/full", str(GOOD[0])])
    record(p.returncode == 1 and "/dev/full: error: cannot write: No space left on device" in p.stderr,
           f"write errors: --witness /dev/full ({p.returncode}, {p.stderr!r})")


def inputs_kept(record, run):
    """No output path may name an input or a .litmus file."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        for name, src in (("a.litmus", GOOD[0]), ("b.litmus", GOOD[1]), ("c.test", GOOD[0])):
            shutil.copy(src, d / name)
        csv = d / "e.csv"
        csv.write_text("# model=ptx-v6.0\na.litmus,PASS\n")
        before = {f.name: f.read_bytes() for f in d.iterdir()}
        for args in (["--witness", "a.litmus", "b.litmus"], ["--witness=b.litmus", "a.litmus"],
                     ["--witness", "c.test", "c.test"], ["--witness", "./c.test", str(d / "c.test")],
                     ["--witness", "e.csv", "--expect", "e.csv"], ["--witness", "new.litmus", "a.litmus"]):
            p = run(args, cwd=d)
            record(p.returncode == 1 and p.stderr.startswith(f"gpubmc: error: {args[0].split('=')[0]}")
                   and p.stdout == "", f"inputs kept: {' '.join(args)} is refused ({p.returncode}, {p.stderr!r})")
        after = {f.name: f.read_bytes() for f in d.iterdir()}
        record(after == before, "inputs kept: no input changed, no file made")
        p = run(["--witness", "w.json", "a.litmus"], cwd=d)
        record(p.returncode == 0 and json.loads((d / "w.json").read_text())["file"] == "a.litmus",
               "inputs kept: --witness w.json still works")


def empty_expectations(record, run):
    """--expect that compares no row fails and says why."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        rows = d / "rows.csv"
        rows.write_text("# model=ptx-v6.0\nMP-weak.litmus,PASS\nSB-weak.litmus,PASS\n")
        p = run(["--expect", str(rows), "tests/litmus/ptx"])
        record(p.returncode == 1 and p.stderr.startswith(f"{rows}: error: no row names a file given on the command line")
               and p.stdout == "", f"--expect: rows relative to another directory fail ({p.returncode}, {p.stderr!r})")
        p = run(["--expect", str(rows)])
        record(p.returncode == 1 and p.stderr.startswith(f"{rows}: error: no row names an existing file"),
               f"--expect: rows naming no existing file fail ({p.returncode}, {p.stderr!r})")
        p = run(["--expect", str(rows)], cwd=PTX)
        record(p.returncode == 0 and p.stdout == "2 passed, 0 failed\n", "--expect: from the right directory it compares")
        for text in ("", "# model=ptx-v6.0\n", "# model=ptx-v6.0\n# only comments\n\n"):
            rows.write_text(text)
            p = run(["--expect", str(rows), "tests/litmus/ptx"])
            record(p.returncode == 1 and p.stderr.startswith(f"{rows}: error: no rows"),
                   f"--expect: a CSV without rows ({text!r}) fails ({p.returncode}, {p.stderr!r})")
        os.mkfifo(d / "fifo.csv")
        p = run(["--expect", str(d / "fifo.csv")])
        record(p.returncode == 1 and p.stderr == f"{d}/fifo.csv: error: not a regular file\n",
               f"--expect: a FIFO is not read ({p.stderr!r})")


def options_that_apply(record, run):
    """Options that apply to no check are refused; --no-axiom across dialects."""
    mp = str(GOOD[2])
    for args, what in ((["--outcomes", "--engine", "oracle", mp], "--outcomes with the oracle"),
                       (["--outcomes", "--property", "cat_spec", mp], "--outcomes with cat_spec"),
                       (["--outcomes", "--property", "termination", mp], "--outcomes with termination"),
                       (["--progress", "hsa", mp], "--progress without termination"),
                       (["--engine", "oracle", "--property", "termination", mp], "the oracle on termination"),
                       (["--no-axiom", "Causalty", mp], "an axiom of no model"),
                       (["--model", "vulkan", "--no-axiom", "Causality", str(VULKAN)], "an axiom not of --model"),
                       (["--json=yes", mp], "a value for a flag"),
                       (["--symmetry-key", "last", "--property", "termination", mp], "--symmetry-key with termination"),
                       (["--symmetry-key", "last", "--engine", "oracle", mp], "--symmetry-key with the oracle"),
                       (["--symmetry-key", "last", "--outcomes", mp], "--symmetry-key with --outcomes"),
                       (["--symmetry-key", "last", "--no-symmetry", mp], "--symmetry-key with --no-symmetry"),
                       (["--symmetry-key", "first", "--transform", "reorder", mp], "--symmetry-key with --transform")):
        p = run(args)
        record(p.returncode == 1 and p.stderr.startswith("gpubmc: error: ") and p.stdout == "",
               f"options: {what} is a usage error ({p.returncode}, {p.stderr!r})")
    for args, what in ((["--outcomes", "--property", "program_spec,cat_spec", mp], "--outcomes with program_spec"),
                       (["--progress", "fair", mp], "--progress fair (the default) anywhere"),
                       (["--progress", "obe", "--property", "termination", mp], "--progress with termination"),
                       (["--symmetry-key", "last", "--property", "termination,cat_spec", mp],
                        "--symmetry-key with cat_spec")):
        p = run(args)
        record(p.returncode in (0, 10) and p.stderr == "", f"options: {what} works ({p.returncode}, {p.stderr!r})")
    plain = _json_rows(run(["--json", mp, str(VULKAN)]).stdout)
    off = run(["--json", "--no-axiom", "Causality", mp, str(VULKAN)])
    rows = _json_rows(off.stdout)
    record(len(rows) == 2 and plain[0]["result"] == "PASS" and rows[0]["result"] == "FAIL"
           and rows[1] == {**plain[1], "time_ms": rows[1]["time_ms"]} and off.stderr == "",
           f"options: --no-axiom Causality on PTX + Vulkan switches it off for PTX only ({off.stderr!r})")
    p = run(["--no-axiom", "consistency-rf", mp])
    record(p.returncode == 1 and "gpubmc: error: --no-axiom consistency-rf: no file was checked under a model "
           "with that axiom" in p.stderr, f"options: --no-axiom of no checked model fails ({p.stderr!r})")
    # small things a user trips on: each refused before any check, saying what would do
    for args, want in ((["--model", "ptx60", mp], "(the models: ptx-v6.0 ptx-v7.5 vulkan vulkan-nochains opencl; or --cat FILE)"),
                       (["--compare-model", "ptx60", mp], "(the models: ptx-v6.0 ptx-v7.5 vulkan vulkan-nochains opencl; or a FILE.cat)"),
                       (["--graph", "/tmp/gpubmc-never-written.jpg", mp], ".dot, .svg or .png, and this file has none of them"),
                       (["--model", "ptx-v6.0", "--compare-model", "ptx-v6.0", mp], "compares a model with itself"),
                       (["--cat", str(ROOT / "tests" / "cat" / "sc.cat"), "--compare-model",
                         str(ROOT / "tests" / "cat" / ".." / "cat" / "sc.cat"), mp], "compares a model with itself")):
        p = run(args)
        record(p.returncode == 1 and p.stdout == "" and p.stderr.startswith("gpubmc: error: ") and want in p.stderr
               and not pathlib.Path("/tmp/gpubmc-never-written.jpg").exists(),
               f"options: {args[:2]} refused up front, saying what would do ({p.returncode}, {p.stdout!r}, {p.stderr!r})")
    # --compare-model of the model a dialect defaults to: an ERROR per file, never a PASS
    rows = _json_rows(run(["--json", "--compare-model", "ptx-v7.5", mp]).stdout)
    record(len(rows) == 1 and rows[0]["result"] == "ERROR" and "comparing it with itself" in rows[0]["reason"],
           f"options: --compare-model of the test's own model is an error ({rows})")
    # --no-axiom racy3c3, the Vulkan data race's earlier name, is vulkan.cat's racy
    dr = str(ROOT / "tests" / "litmus" / "vulkan-dr" / "DR-MP-priv-data.litmus")
    by_cat_name = run(["--json", "--property", "cat_spec", "--no-axiom", "racy", dr])
    by_own_name = run(["--json", "--property", "cat_spec", "--no-axiom", "racy3c3", dr])
    strip = lambda out: [{k: v for k, v in r.items() if k != "time_ms"} for r in _json_rows(out)]
    record(by_cat_name.stderr == "" and by_cat_name.returncode == by_own_name.returncode
           and strip(by_cat_name.stdout) == strip(by_own_name.stdout) != [],
           f"options: --no-axiom racy3c3 is racy ({by_cat_name.returncode}, {by_cat_name.stderr!r})")
    # a flag switched off raises nothing: the race test passes on both engines, and with
    # every flag of the model off (racy, and stdlib.cat's undefined-behavior) says why
    racy = _json_rows(run(["--json", "--property", "cat_spec", dr]).stdout)
    for engine in ("sat", "oracle"):
        off = _json_rows(run(["--json", "--engine", engine, "--property", "cat_spec", "--no-axiom", "racy",
                              "--no-axiom", "undefined-behavior", dr]).stdout)
        record([r["result"] for r in racy] == ["FAIL"] and [r["result"] for r in off] == ["PASS"]
               and (engine == "oracle" or "switched off by --no-axiom" in off[0]["reason"]),
               f"options: --no-axiom racy switches the race flag off ({engine}): {racy} {off}")
    ocl = str(ROOT / "tests" / "litmus" / "opencl-dr" / "MP-generic-relacq-racy.litmus")
    off = _json_rows(run(["--json", "--property", "cat_spec", "--no-axiom", "data_race", ocl]).stdout)
    record([r["result"] for r in off] == ["PASS"], f"options: --no-axiom data_race switches it off: {off}")
    # an unknown --graph-relations name is refused before any check, and the
    # names it accepts cover every relation of a witness under each model
    p = run(["--graph", "/tmp/gpubmc-never-written.dot", "--graph-relations", "rf,nosuch", mp])
    known = re.search(r"\(the relations a witness can have: ([^)]*)\)", p.stderr)
    record(p.returncode == 1 and p.stdout == "" and known is not None
           and not pathlib.Path("/tmp/gpubmc-never-written.dot").exists(),
           f"options: --graph-relations nosuch refused up front ({p.returncode}, {p.stdout!r}, {p.stderr!r})")
    known = set(known.group(1).split()) if known else set()
    transform = ROOT / "tests" / "transform"
    with tempfile.TemporaryDirectory() as tmp:
        for args in (["--model", "ptx-v6.0", str(transform / "MP-relaxed-reads.litmus")],
                     ["--model", "ptx-v7.5", str(transform / "MP-relaxed-reads.litmus")],
                     ["--model", "vulkan", "--no-axiom", "consistency-cycle", str(transform / "MP-cbar-vk.litmus")],
                     ["--model", "vulkan-nochains", "--no-axiom", "consistency-cycle", str(transform / "MP-cbar-vk.litmus")],
                     ["--property", "program_spec", "--no-axiom", "O-Sscoped",   # one result: one witness object
                      str(ROOT / "tests" / "litmus" / "opencl" / "2+2W-sc.litmus")]):
            w = pathlib.Path(tmp) / "w.json"
            run(["--witness", str(w)] + args)
            edges = set((json.loads(w.read_text()).get("witness") or {}).get("edges", {})) if w.exists() else set()
            record(edges and edges <= known, f"options: {args[:2]}: witness relations {sorted(edges - known)} "
                   f"unknown to --graph-relations (or no witness: {sorted(edges)})")
    p = run(["--model", "ptx-v7.5", "--no-axiom", "racy", mp])
    record(p.returncode == 1 and "has no axiom 'racy'" in p.stderr, f"options: racy is no PTX axiom ({p.stderr!r})")


def error_format(record, run):
    """Every error line is FILE:LINE:COL: error: or FILE: error:, one per file."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        for f in (ROOT / "tests" / "errors").glob("*.litmus"):
            shutil.copy(f, d / f.name)
        lines = GOOD[0].read_text().splitlines()
        (d / "no-condition.litmus").write_text("\n".join(lines[:-1]) + "\n")
        os.mkfifo(d / "fifo.litmus")
        bad = len(list(d.iterdir())) + 1
        huge = HEAVY / "irreducible-50-stores.litmus"
        for j in ("1", "2"):
            p = run(["-j", j, "--model", "ptx-v6.0", str(d), str(huge), "--bound", "10000"])
            errs = p.stderr.splitlines()
            named = {e.split(":", 1)[0] for e in errs}
            record(p.returncode == 1 and all(ERROR_LINE.match(e) for e in errs) and len(errs) == bad
                   and len(named) == bad,
                   f"error format: -j {j}: one FILE[:LINE:COL]: error: line per bad file ({p.stderr!r})")
            p = run(["-j", j, "--json", "--model", "ptx-v6.0", str(d), str(huge), "--bound", "10000"])
            rows = _json_rows(p.stdout)
            record(all(o["reason"].startswith(o["file"] + ":") for o in rows if o["result"] == "ERROR")
                   and len(rows) == bad, f"error format: -j {j} --json: ERROR reasons name the file")


def _help_options(text):
    """The options the option list of --help names, each with whether it
    takes a value."""
    found = {}
    for line in text.splitlines():
        if line.startswith("  -"):
            for form in line[2:26].strip().split(", "):
                name, *value = form.split(" ", 1)
                found[name] = bool(value)
    return found


def documentation(record, run):
    """--help lists every option; the man page and docs/usage.md name each
    one; docs/usage.md's synopsis (its first code block) is --help's;
    --opt=value works for every option with a value; --version agrees with
    the man page; make install puts the man page in place."""
    text = run(["--help"]).stdout
    takes_value = _help_options(text)
    opts = set(takes_value)
    man = re.sub(r"\\f[BIRP]", "", (ROOT / "bmc" / "driver" / "gpubmc.1").read_text()).replace("\\-", "-")
    usage_doc = (ROOT / "docs" / "usage.md").read_text()
    record(len(opts) >= 19, f"documentation: --help lists the options ({sorted(opts)})")
    for o in sorted(opts):
        record(re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", man) is not None, f"documentation: man page names {o}")
        record(re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", usage_doc) is not None,
               f"documentation: docs/usage.md names {o}")
    synopsis = text.split("\n\n", 1)[0].replace("usage: ", "", 1).splitlines()
    usage = usage_doc.split("```")[1].strip("\n").splitlines()
    record([s.strip() for s in synopsis] == [u.strip() for u in usage],
           f"documentation: docs/usage.md's synopsis is --help's\n{usage}\n{synopsis}")
    version = run(["--version"]).stdout.strip()
    record(re.fullmatch(r"gpubmc \d+\.\d+(\.\d+)?", version) is not None and f'"{version}"' in man
           and "--version" in usage_doc, f"documentation: --version ({version!r}) is in the man page")
    samples = {"--model": "ptx-v6.0", "--property": "program_spec,cat_spec", "--progress": "fair",
               "--bound": "2", "--no-axiom": "Causality", "--engine": "oracle", "--witness": "{tmp}/w.json",
               "--expect": "{tmp}/e.csv", "--jobs": "2", "--shard": "1/1", "--timeout": "30",
               "--max-memory": "300", "--graph": "{tmp}/g.dot", "--graph-dir": "{tmp}",
               "--graph-format": "svg", "--graph-relations": "rf,co", "--source": str(GOOD[0]),
               "--transform": "weaken-order", "--emit-transformed": "{tmp}", "--compare-model": "ptx-v6.0",
               "--cat": str(ROOT / "tests" / "cat" / "sc.cat"),
               "--max-states": "1000", "--emit-cuda": "{tmp}/cuda", "--symmetry-key": "last", "--grid": "1,1,1",
               "--observed": str(ROOT / "tests" / "cuda" / "logs" / "allowed.log"), "--observe": "P1:r0,x", "--graph-dpi": "144",
               "--map": "ptx", "--dimacs": "{tmp}/f.cnf"}
    # the file each option is tried on: a PTX test, or an OpenCL one for --map
    files = {"--map": str(ROOT / "tests" / "litmus" / "opencl" / "MP-relacq-dev.litmus")}
    needs = {"--graph-format": ["--graph-dir", "{tmp}"], "--graph-relations": ["--graph", "{tmp}/g.dot"],
             "--emit-transformed": ["--transform", "reorder"], "--observe": ["--transform", "weaken-order"],
             "--graph-dpi": ["--graph", "{tmp}/g.png"]}
    valued = {o for o, v in takes_value.items() if v and o.startswith("--")}
    record(valued == set(samples), f"documentation: sample values for every valued option ({sorted(valued)})")
    with tempfile.TemporaryDirectory() as tmp:
        pathlib.Path(tmp, "e.csv").write_text(f"# model=ptx-v6.0\n{GOOD[0]},PASS\n")
        for o in sorted(valued & set(samples)):
            v = samples[o].format(tmp=tmp)
            extra = [x.format(tmp=tmp) for x in needs.get(o, [])]
            f = files.get(o, str(GOOD[0]))
            spaced, joined = run(extra + [o, v, f]), run(extra + [f"{o}={v}", f])
            same = [re.sub(r'"time_ms":[^,]*', "", x) for x in (spaced.stdout, joined.stdout)]
            record(joined.returncode == spaced.returncode and same[0] == same[1] and joined.returncode != 1,
                   f"documentation: {o}={v} works as {o} {v} ({joined.returncode}, {joined.stderr!r})")
        prefix = pathlib.Path(tmp) / "prefix"
        p = subprocess.run(["make", "-s", "install", f"PREFIX={prefix}"], cwd=ROOT, capture_output=True,
                           text=True, timeout=300)
        page = prefix / "share" / "man" / "man1" / "gpubmc.1"
        record(p.returncode == 0 and page.exists() and (prefix / "bin" / "gpubmc").exists(),
               f"documentation: make install puts the man page in share/man/man1 ({p.stderr[-200:]!r})")


def trust(record, run):
    """Every trust test."""
    budgets(record, run)
    parent_death(record, run)
    crashed_worker(record, run)
    odd_inputs(record, run)
    write_errors(record, run)
    inputs_kept(record, run)
    empty_expectations(record, run)
    options_that_apply(record, run)
    error_format(record, run)
    documentation(record, run)
