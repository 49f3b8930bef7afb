"""Batch honesty tests (issue 26 item 4): batches that stay honest at any
size and under any signal.  Budgets count only what a check allocates,
results stream out in order, a job that fails its worker leaves the jobs
queued behind it whole, the job list is built in linear time,
signals print what is done, --json lines into a pipe go out while a
long check runs, -j respects the open-files limit, outputs
never overwrite inputs, and the small ones.  Each test is a reproducer of
the audit, kept small (a few seconds in all).
Called with record(ok, what) and run(args, cwd=ROOT)."""
import json, os, pathlib, resource, select, signal, subprocess, tempfile, time

from testlib import child_pids
from testpaths import BIN, ROOT

PTX = ROOT / "tests" / "litmus" / "ptx"
MP = PTX / "MP-weak.litmus"
SB = PTX / "SB-weak.litmus"


def _rows(stdout):
    return [json.loads(line) for line in stdout.splitlines()]


def _fast_files(d, n=12):
    """n copies of MP-weak (a check of milliseconds) in d: f00.litmus ..."""
    fast = [d / f"f{i:02d}.litmus" for i in range(n)]
    for f in fast:
        f.write_text(MP.read_text())
    return fast


def _stores(n):
    """A PTX test of n threads with a store each: a check of about 20 MB
    and half a second at n = 150."""
    head = " | ".join(f"P{i}@cta {i},gpu 0" for i in range(n))
    body = " | ".join(f"st.relaxed.gpu x, {i + 1}" for i in range(n))
    return f'PTX threads-{n}\n"{n} stores"\n{{\nx=0;\n}}\n {head} ;\n {body} ;\nexists (x == 1)\n'


def _measured(args, cwd=ROOT, **kw):
    """Runs gpubmc: (CompletedProcess, peak resident KiB of it and of its
    workers, the largest)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen([str(BIN)] + [str(a) for a in args], cwd=cwd, stdout=out, stderr=err, **kw)
        _, status, usage = os.wait4(p.pid, 0)
        out.seek(0)
        err.seek(0)
        return (subprocess.CompletedProcess(p.args, os.waitstatus_to_exitcode(status), out.read(), err.read()),
                usage.ru_maxrss)


def big_parent_budget(record, run):
    """A long job list does not count against a check's --max-memory: the
    parent streams its results instead of keeping every one (8 KB each,
    inherited by every worker)."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        (d / "stores.litmus").write_text(_stores(150))
        csv = d / "many.csv"
        n = 20000
        csv.write_text("# model=ptx-v6.0\n" + "missing.litmus,PASS\n" * n + "stores.litmus,PASS\n")
        p, peak = _measured(["--json", "--max-memory", "60", "--expect", str(csv)], cwd=d)
        rows = _rows(p.stdout)
        last = rows[-1] if rows else {}
        record(len(rows) == n + 1 and last.get("result") == "PASS" and last.get("match") is True
               and f"1 passed, {n} failed" in p.stderr,
               f"big batch: after {n} jobs a 20 MB check still fits --max-memory 60 "
               f"({len(rows)} rows, last {last.get('result')}: {last.get('reason', '')[:120]!r})")
        record(peak < 60 * 1024, f"big batch: {n + 1} jobs, peak {peak} KiB under 60 MB (results streamed)")


def linear_job_list(record, run):
    """The job list is built in linear time: 60,000 rows of one file (a
    quadratic merge took 20 s here) are ready at once; termination rows
    still merge into the last job of the file they can join."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        (d / "mp.litmus").write_text(MP.read_text())
        n = 60000
        for prop in ("program_spec", "termination"):
            csv = d / f"{prop}.csv"
            csv.write_text(f"# model=ptx-v6.0 property={prop}\n" + "mp.litmus,PASS\n" * n)
            t0 = time.monotonic()
            p = run(["--shard", f"1/{n}", "--expect", str(csv)], cwd=d)
            secs = time.monotonic() - t0
            record(p.returncode == 0 and p.stdout == "1 passed, 0 failed\n" and secs < 5,
                   f"job list: {n} {prop} rows ready in {secs:.1f} s ({p.returncode}, {p.stdout!r})")
        (d / "fair.csv").write_text("# model=ptx-v6.0 property=termination progress=fair\n"
                                    "mp.litmus,PASS\nmp.litmus,PASS\nsb.litmus,PASS\n")
        (d / "obe.csv").write_text("# model=ptx-v6.0 property=termination progress=obe\n"
                                   "sb.litmus,FAIL\nmp.litmus,PASS\nmp.litmus,FAIL\n")
        (d / "sb.litmus").write_text(SB.read_text())
        p = run(["--json", "--expect", "fair.csv", "--expect", "obe.csv"], cwd=d)
        got = [(o["file"], o["progress"], o["expected"], o.get("job")) for o in _rows(p.stdout)]
        want = [("mp.litmus", "fair", "PASS", None), ("mp.litmus", "obe", "FAIL", None),
                ("mp.litmus", "fair", "PASS", None), ("mp.litmus", "obe", "PASS", None),
                ("sb.litmus", "fair", "PASS", None), ("sb.litmus", "obe", "FAIL", None)]
        record(got == want, f"job list: termination rows merge into the last job they can join ({got})")


def signals(record, run):
    """SIGINT or SIGTERM mid-batch: the results held back behind a slow
    check are printed, in order, then "K of N checked" (and the tally of
    --expect); the workers are gone; exit status 128 + the signal."""
    slow = ROOT / "tests" / "heavy" / "lock-cas-10.litmus"
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        fast = _fast_files(d)
        csv = d / "e.csv"
        csv.write_text("# model=ptx-v6.0\n" + "".join(f"{f.name},PASS\n" for f in fast))
        for sig, extra in ((signal.SIGINT, []), (signal.SIGTERM, ["--expect", str(csv)])):
            args = [str(BIN), "-j", "2", "--bound", "2", "--model", "ptx-v6.0", str(slow)] + [str(f) for f in fast]
            if extra:
                args = [str(BIN), "-j", "2", "--bound", "2", "--json"] + extra + [str(slow)] + [str(f) for f in fast]
            p = subprocess.Popen(args, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            time.sleep(0.8)   # some fast results held back behind the slow one
            kids = child_pids(p.pid)
            p.send_signal(sig)
            t0 = time.monotonic()
            try:
                out, err = p.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
            secs = time.monotonic() - t0
            name = signal.Signals(sig).name
            lines = out.splitlines()
            if extra:
                files = [json.loads(l)["file"] for l in lines]
            else:
                files = [l.split(": ")[0] for l in lines]
            k = len(files)
            want_err = f"gpubmc: interrupted by {name}: {k} of {len(fast) + 1} checked"
            tally = f"{k} passed, 0 failed"
            record(p.returncode == 128 + sig and k > 0 and files == [str(f) for f in fast[:k]]
                   and want_err in err.splitlines() and (not extra or tally in err.splitlines()) and secs < 5,
                   f"signals: {name} mid-batch prints the {k} results held back and '{want_err}' "
                   f"({p.returncode}, {secs:.1f} s, {out[-200:]!r}, {err!r})")
            time.sleep(0.2)
            alive = [c for c in kids if pathlib.Path(f"/proc/{c}").exists()
                     and pathlib.Path(f"/proc/{c}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
            record(len(kids) == 2 and not alive, f"signals: {name}: the workers are gone ({kids}, {alive})")


def open_files_limit(record, run):
    """-j beyond what the open-files limit allows: the soft limit is
    raised toward the hard one, and past that the workers are capped with
    a note; it used to hang (poll failing with EINVAL, ignored)."""
    files = [str(MP), str(SB)] * 20
    want = subprocess.run([str(BIN), "--model", "ptx-v6.0"] + files, cwd=ROOT, capture_output=True,
                          text=True, timeout=60).stdout
    for soft, hard, note in ((40, 40, True), (40, resource.getrlimit(resource.RLIMIT_NOFILE)[1], False)):
        def limit():
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        if not note and hard != resource.RLIM_INFINITY and hard < 120:
            continue   # no room to raise it here
        try:
            p = subprocess.run([str(BIN), "-j", "30", "--model", "ptx-v6.0"] + files, cwd=ROOT,
                               capture_output=True, text=True, timeout=30, preexec_fn=limit)
        except subprocess.TimeoutExpired:
            record(False, f"open files: -j 30 under ulimit -n {soft} (hard {hard}) hangs")
            continue
        want_err = "gpubmc: note: -j 30: the open-files limit (ulimit -n 40) allows 5 workers\n" if note else ""
        record(p.returncode == 0 and p.stdout == want and p.stderr == want_err,
               f"open files: -j 30 under ulimit -n {soft} (hard {hard}) checks every file"
               f"{' with a note' if note else ''} ({p.returncode}, {p.stderr!r})")


def _fan(readers, rows):
    """A PTX test of one writer and many readers, rows accesses each: a
    fast check whose picture Graphviz is slow to lay out (100 readers of 5
    rows: under a second to check, 4 s to lay out)."""
    head = " | ".join(f"P{i}@cta {i},gpu 0" for i in range(readers + 1))
    body = "".join(" " + " | ".join([f"st.relaxed.gpu x, {r + 1}"] + [f"ld.relaxed.gpu r{r}, x"] * readers) + " ;\n"
                   for r in range(rows))
    return f'PTX fan-{readers}\n"one writer, {readers} readers"\n{{\nx=0;\n}}\n {head} ;\n{body}exists (P1:r0 == 1)\n'


def rendering_budget(record, run):
    """SVG and PNG are laid out in a forked process under the check's
    budgets: past --timeout or --max-memory there is a note, no file, and
    the batch goes on; a picture that fits is written whole."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        (d / "fan.litmus").write_text(_fan(60, 8))
        t0 = time.monotonic()
        run(["--graph", "fan.dot", "fan.litmus"], cwd=d)
        check = time.monotonic() - t0
        limit = round(max(1.0, 3 * check), 1)
        t0 = time.monotonic()
        p = run(["--timeout", str(limit), "--graph", "fan.svg", "fan.litmus"], cwd=d)
        secs = time.monotonic() - t0
        note = f"fan.litmus: note: no graph fan.svg: Graphviz's layout took more than the --timeout of {limit:g} s\n"
        drawn = (d / "fan.svg").exists()
        record(p.returncode == 0 and p.stdout == "fan.litmus: PASS (the outcome is reachable)\n"
               and (p.stderr == note) != drawn and secs < 2 * check + limit + 1.5
               and sorted(f.name for f in d.iterdir()) == ["fan.dot", "fan.litmus"] + (["fan.svg"] if drawn else []),
               f"rendering: the layout stops at --timeout {limit:g} (check {check:.1f} s, all {secs:.1f} s, "
               f"drawn {drawn}, {p.returncode}, {p.stderr!r})")
        p = run(["--max-memory", "24", "--graph", "mp.svg", str(MP)], cwd=d)
        record(p.returncode == 0 and p.stderr.startswith(f"{MP}: note: no graph mp.svg: Graphviz failed (")
               and p.stderr.endswith("within the --max-memory of 24 MB\n") and not (d / "mp.svg").exists(),
               f"rendering: Graphviz runs within --max-memory, and past it there is a note ({p.stderr!r})")
        p = run(["--graph", "mp.svg", str(MP)], cwd=d)
        svg = d / "mp.svg"
        record(p.returncode == 0 and svg.exists() and svg.read_text().rstrip().endswith("</svg>")
               and not [f for f in d.iterdir() if f.name.startswith(".")],
               f"rendering: a small picture is written whole, no temporary file left ({p.stderr!r})")


def _snapshot(d):
    """{relative path: bytes, or '-> target' for a link} of every file under d."""
    got = {}
    for f in sorted(d.rglob("*")):
        if f.is_symlink():
            got[str(f.relative_to(d))] = "-> " + os.readlink(f)
        elif f.is_file():
            got[str(f.relative_to(d))] = f.read_bytes()
    return got


def outputs_kept_apart(record, run):
    """Outputs never write an input, never follow a symbolic link, never
    replace a file the run did not create, and a failed write leaves the
    old file whole."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        (d / "a.litmus").write_text(MP.read_text())
        (d / "b.litmus").write_text(SB.read_text())
        (d / "src.ptx").write_text(MP.read_text())
        (d / "obs.log").write_text((ROOT / "tests" / "cuda" / "logs" / "allowed.log").read_text())
        (d / "other.txt").write_text("mine\n")
        os.symlink("b.litmus", d / "to-input.json")
        os.symlink("other.txt", d / "to-other.dot")
        before = _snapshot(d)
        for args, what in ((["--witness", "obs.log", "--observed", "obs.log", "a.litmus"], "--witness over the --observed log"),
                           (["--witness", "src.ptx", "--source", "src.ptx", "b.litmus"], "--witness over the --source program"),
                           (["--witness", "to-input.json", "a.litmus"], "--witness through a link"),
                           (["--graph", "to-other.dot", "a.litmus"], "--graph through a link"),
                           (["--dimacs", "a.litmus", "a.litmus"], "--dimacs over the input"),
                           (["--witness", "-", "a.litmus"], "--witness - (standard output has the verdicts)"),
                           (["--dimacs", "-", "a.litmus"], "--dimacs - (standard output has the verdicts)")):
            p = run(args, cwd=d)
            record(p.returncode == 1 and p.stderr.startswith(f"gpubmc: error: {args[0]} ") and p.stdout == ""
                   and _snapshot(d) == before, f"outputs: {what} is refused, nothing written ({p.stderr!r})")
        # Directories of outputs gpubmc names: nothing there is replaced.
        rel = ROOT / "tests" / "litmus" / "ptx" / "MP+rel.gpu+acq.gpu.litmus"
        (d / "r.litmus").write_text(rel.read_text())
        for em, target, want in (("em", None, "exists and differs: not replaced"),
                                 ("em2", "../other.txt", "is a symbolic link: not written through")):
            (d / em).mkdir()
            out = f"{em}/r.weaken-order.L9.P0.litmus"   # the first rewrite's name
            if target:
                os.symlink(target, d / out)
            else:
                (d / out).write_text(SB.read_text())   # an input of this run
            before = _snapshot(d)
            p = run(["--transform", "weaken-order", "--emit-transformed", em, "r.litmus"] + ([] if target else [out]),
                    cwd=d)
            record(p.returncode == 1 and _snapshot(d) == before and f"{out} {want}" in p.stderr,
                   f"outputs: --emit-transformed {'through a link' if target else 'over another input'}: "
                   f"nothing written ({p.stderr!r})")
        cu = d / "cu"
        cu.mkdir()
        (cu / "Makefile").write_text("all:\n\techo mine\n")
        (cu / "params.txt").write_text("mine\n")
        p = run(["--emit-cuda", "cu", "a.litmus"], cwd=d)
        record(p.returncode == 1 and (cu / "Makefile").read_text() == "all:\n\techo mine\n"
               and (cu / "params.txt").read_text() == "mine\n" and "cu/Makefile exists and differs" in p.stderr,
               f"outputs: --emit-cuda keeps an existing Makefile and params.txt ({p.stderr!r})")
        p = run(["--emit-cuda", "cu2", "a.litmus"], cwd=d)
        again = run(["--emit-cuda", "cu2", "a.litmus"], cwd=d)
        record(p.returncode == 0 and again.returncode == 0 and again.stderr == ""
               and sorted(f.name for f in (d / "cu2").iterdir()) == ["Makefile", "a.cu", "params.txt"],
               f"outputs: --emit-cuda into its own directory again keeps the same files ({again.stderr!r})")
        (d / "a").mkdir()
        (d / "a" / "b.litmus").write_text(MP.read_text())
        (d / "a_b.litmus").write_text(SB.read_text())
        for args, out in ((["--emit-cuda", "cu3"], "cu3/a_b.cu"), (["--graph-dir", "g"], "g/a_b.program_spec.dot")):
            if args[0] == "--graph-dir":
                (d / "g").mkdir()
            p = run(args + ["a/b.litmus", "a_b.litmus"], cwd=d)
            first = (d / out).read_text() if (d / out).exists() else ""
            record(p.returncode == 1 and "a/b.litmus" in first and "a_b.litmus" not in first
                   and p.stderr.startswith(f"a_b.litmus: error: {out} exists and differs: not replaced"),
                   f"outputs: {args[0]}: a/b.litmus and a_b.litmus do not share {out} ({p.stderr!r})")
        # A failed write (a full disk, here a file size limit) leaves the old witness whole.
        w = d / "w.json"
        w.write_text("old witness\n")

        def small_files():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))
        p = subprocess.run([str(BIN), "--witness", "w.json", "a.litmus"], cwd=d, capture_output=True, text=True,
                           timeout=60, preexec_fn=small_files)
        record(p.returncode == 1 and w.read_text() == "old witness\n" and "w.json: error: cannot write: " in p.stderr
               and not [f for f in d.iterdir() if ".gpubmc-" in f.name],
               f"outputs: a witness that cannot be written whole leaves the old one ({p.returncode}, {p.stderr!r})")
        p = run(["--witness", "w.json", "a.litmus"], cwd=d)
        record(p.returncode == 0 and json.loads(w.read_text())["file"] == "a.litmus",
               "outputs: --witness replaces a file of its own name")


def fifo_after_listing(record, run):
    """A file replaced by a FIFO after the job list was made is refused
    when the worker opens it (non-blocking, then its type checked), not
    waited on until --timeout calls it a timeout."""
    slow = ROOT / "tests" / "heavy" / "lock-cas-10.litmus"
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        x = d / "x.litmus"
        x.write_text(MP.read_text())
        p = subprocess.Popen([str(BIN), "--bound", "2", "--timeout", "1", str(slow), str(x)], cwd=d,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(0.4)   # listed; the slow file is being checked
        x.unlink()
        os.mkfifo(x)
        t0 = time.monotonic()
        try:
            out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        secs = time.monotonic() - t0
        record(p.returncode == 1 and err == f"{x}: error: not a regular file\n" and len(out.splitlines()) == 1
               and secs < 3, f"fifo: a file turned FIFO after listing is refused ({p.returncode}, {secs:.1f} s, "
                             f"{out!r}, {err!r})")


def rewritten_while_queued(record, run):
    """A file rewritten while a long check runs ahead of it is checked as
    it is when its turn comes: the worker reads the files of the jobs
    queued behind a check together with it (util/read_ahead.c), and uses
    what it read only for a moment."""
    slow = ROOT / "tests" / "heavy" / "lock-cas-10.litmus"
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        x = d / "x.litmus"
        x.write_text(MP.read_text())
        behind = _fast_files(d, 2)   # jobs are queued only while more are pending than workers run
        p = subprocess.Popen([str(BIN), "--json", "-j", "1", "--bound", "2", str(slow), str(x)] + [str(f) for f in behind], cwd=d,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(0.5)   # the slow check runs (about 2 s); x was read with it
        x.write_text("PTX broken\n{\n")
        try:
            out, err = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        rows = [r for r in _rows(out) if r.get("file") == str(x)]
        record(len(rows) == 1 and rows[0].get("result") == "ERROR"
               and rows[0].get("reason", "").startswith(f"{x}:3:1: error: "),
               f"read ahead: a queued file rewritten during the check before it is checked as rewritten ({rows}, {err!r})")


def small_ones(record, run):
    """'--' ends the options; a UTF-8 byte-order mark is accepted (litmus
    and CSV); CSV lines may end in CR LF; a CSV line of any length is one row; a check that runs out
    of a tiny --max-memory names it; control characters in file names are
    escaped in human output; a directory with nothing to check is an
    error."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        (d / "-x.litmus").write_text(MP.read_text())
        p = run(["--", "-x.litmus"], cwd=d)
        record(p.returncode == 0 and p.stdout == "-x.litmus: PASS (the outcome is reachable)\n",
               f"small: -- ends the options ({p.returncode}, {p.stderr!r})")
        p = run(["--json", "--", "--json"], cwd=d)
        record(p.returncode == 1 and p.stderr == "--json: error: cannot open: No such file or directory\n",
               f"small: after --, an option's name is a file ({p.stderr!r})")
        bom = b"\xef\xbb\xbf"
        (d / "bom.litmus").write_bytes(bom + MP.read_bytes())
        (d / "bom.csv").write_bytes(bom + b"# model=ptx-v6.0\nbom.litmus,PASS\n")
        p = run(["--expect", "bom.csv"], cwd=d)
        record(p.returncode == 0 and p.stdout == "1 passed, 0 failed\n",
               f"small: a byte-order mark opens a litmus file and a CSV ({p.returncode}, {p.stdout!r}, {p.stderr!r})")
        (d / "crlf.csv").write_bytes(b"# model=ptx-v6.0\r\nbom.litmus,PASS\r\nbom.litmus,PASS")
        p = run(["--expect", "crlf.csv"], cwd=d)
        record(p.returncode == 0 and p.stdout == "2 passed, 0 failed\n",
               f"small: CSV lines may end in CR LF, the last in nothing ({p.returncode}, {p.stdout!r}, {p.stderr!r})")
        row = f"bom.litmus,PASS,{'y' * 5000}"   # the third column, its source, is free text
        (d / "long.csv").write_text(f"# model=ptx-v6.0\n{row}\n")
        p = run(["--expect", "long.csv"], cwd=d)
        record(p.returncode == 0 and p.stdout == "1 passed, 0 failed\n" and p.stderr == "",
               f"small: a CSV line of {len(row)} bytes is one row ({p.returncode}, {p.stderr[:200]!r})")
        (d / "big.litmus").write_text(_stores(150))   # a check of about 20 MB
        p = run(["--json", "--max-memory", "5", "big.litmus"], cwd=d)
        rows = _rows(p.stdout)
        record(p.returncode == 1 and len(rows) == 1 and rows[0]["reason"] == "big.litmus: error: out of memory: the "
               "check needs more than the --max-memory of 5 MB",
               f"small: --max-memory 5 names the budget ({rows})")
        odd = d / "tab\there\x1b[31m.litmus"
        odd.write_text(MP.read_text())
        p = run([odd.name, "gone\x07.litmus"], cwd=d)
        record(p.stdout == "tab\\there\\x1b[31m.litmus: PASS (the outcome is reachable)\n"
               and p.stderr == "gone\\x07.litmus: error: cannot open: No such file or directory\n",
               f"small: control characters in names are escaped ({p.stdout!r}, {p.stderr!r})")
        (d / "empty" / "sub").mkdir(parents=True)
        p = run(["empty"], cwd=d)
        record(p.returncode == 1 and p.stderr == "empty: error: no .litmus file in this directory or under it\n",
               f"small: a directory with nothing to check is an error ({p.returncode}, {p.stderr!r})")


def output_directories(record, run):
    """--graph-dir and --emit-transformed make their directory (one level,
    as --emit-cuda does); a missing parent or a file of that name is an
    error before anything is checked."""
    mp = str(ROOT / "tests" / "litmus" / "ptx" / "MP-weak.litmus")
    rel_acq = str(ROOT / "tests" / "transform" / "MP-rel-acq.litmus")
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        p = run(["--graph-dir", d / "graphs", mp])
        made = [f.name for f in (d / "graphs").iterdir()] if (d / "graphs").is_dir() else []
        record(p.returncode == 0 and len(made) == 1 and made[0].endswith("MP-weak.program_spec.dot"),
               f"--graph-dir makes its directory ({made}, {p.stderr!r})")
        p = run(["--transform", "weaken-order", "--emit-transformed", d / "rewritten", rel_acq])
        record(p.returncode == 10 and len(list((d / "rewritten").glob("*.litmus"))) == 2,
               f"--emit-transformed makes its directory ({p.returncode}, {p.stderr!r})")
        p = run(["--graph-dir", d / "no" / "graphs", mp])
        record(p.returncode == 1 and p.stdout == "" and "cannot make the directory: No such file" in p.stderr,
               f"--graph-dir under a missing parent is an error ({p.stderr!r})")
        (d / "plain").write_text("")
        p = run(["--graph-dir", d / "plain", mp])
        record(p.returncode == 1 and "a file of that name is there" in p.stderr,
               f"--graph-dir naming a file is an error ({p.stderr!r})")


def _mixed_batch(d, bad_name, bad_text, before=4, after=6):
    """Fast files around one bad file in d: f00, f01, ... alternately
    MP-weak (PASS) and MP-relaxed-gpu (FAIL), the bad one after the first
    `before`.  (the file list, {fast file: its verdict})."""
    kinds = [(MP, "PASS"), (PTX / "MP-relaxed-gpu.litmus", "FAIL")]
    files, want = [], {}
    for i in range(before + after):
        src, verdict = kinds[i % 2]
        f = d / f"f{i:02d}.litmus"
        f.write_text(src.read_text())
        files.append(f.name)
        want[f.name] = verdict
        if i == before - 1:
            (d / bad_name).write_text(bad_text)
            files.append(bad_name)
    return files, want


def _kept_apart(rows, files, want, bad, reason):
    """True when rows come one per file in files' order, each fast file
    with its own verdict and the bad one with reason."""
    got = [(r["file"], r["result"], r.get("reason")) for r in rows]
    return ([g[0] for g in got] == files and all(g[1] == want[g[0]] for g in got if g[0] != bad)
            and [g[2] for g in got if g[0] == bad] == [reason])


def queued_jobs(record, run):
    """A worker is sent its next job before it asks: when a check times
    out, runs out of memory or its worker is killed, at -j 1 and -j 2,
    that job alone gets its reason and the jobs queued behind it are
    checked by a fresh worker, each result with its own job."""
    slow = (ROOT / "tests" / "heavy" / "lock-cas-10.litmus").read_text()   # seconds at --bound 2
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        files, want = _mixed_batch(d, "slow.litmus", slow)
        for j in ("1", "2"):
            p = run(["--json", "-j", j, "--bound", "2", "--model", "ptx-v6.0", "--timeout", "0.5"] + files, cwd=d)
            rows = _rows(p.stdout)
            record(_kept_apart(rows, files, want, "slow.litmus", "timeout: no verdict within the --timeout of 0.5 s"),
                   f"queue: -j {j}: a timeout mid-batch is that job's alone, the rest keep their verdicts "
                   f"({[(r['file'], r['result']) for r in rows]}, {p.stderr[-300:]!r})")
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        files, want = _mixed_batch(d, "big.litmus", _stores(150))   # needs more than 15 MB
        for j in ("1", "2"):
            p = run(["--json", "-j", j, "--max-memory", "15", "--model", "ptx-v6.0"] + files, cwd=d)
            rows = _rows(p.stdout)
            record(_kept_apart(rows, files, want, "big.litmus", "big.litmus: error: out of memory: the check needs "
                                                                "more than the --max-memory of 15 MB"),
                   f"queue: -j {j}: running out of memory mid-batch is that job's alone "
                   f"({[(r['file'], r['result']) for r in rows]}, {p.stderr[-300:]!r})")
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        files, want = _mixed_batch(d, "slow.litmus", slow)
        p = subprocess.Popen([str(BIN), "--json", "--bound", "2", "--model", "ptx-v6.0"] + files, cwd=d,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(0.8)   # the fast files before it checked; the slow one is being checked
        for kid in child_pids(p.pid):
            os.kill(kid, signal.SIGKILL)
        try:
            out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        rows = _rows(out)
        record(_kept_apart(rows, files, want, "slow.litmus", "slow.litmus: error: internal error: the check died "
                                                             "of signal 9 (Killed)"),
               f"queue: a worker killed mid-check gives that job its reason, the jobs queued behind it go to "
               f"a fresh worker ({[(r['file'], r['result']) for r in rows]}, {err[-300:]!r})")


def no_job_behind_a_long_check(record, run):
    """-j 2, a check of seconds first and fast files after it: the jobs
    sent to wait behind the long check are taken back by the other worker,
    so every fast file is checked while the long one runs (SIGTERM then
    prints them all, in order)."""
    slow = ROOT / "tests" / "heavy" / "lock-cas-10.litmus"
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        fast = _fast_files(d)
        p = subprocess.Popen([str(BIN), "-j", "2", "--bound", "2", "--model", "ptx-v6.0", str(slow)]
                             + [str(f) for f in fast], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(2.0)   # ample for the fast files, not for the slow one (about 5 s)
        p.send_signal(signal.SIGTERM)
        try:
            out, err = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        files = [l.split(": ")[0] for l in out.splitlines()]
        record(files == [str(f) for f in fast] and f"interrupted by SIGTERM: {len(fast)} of {len(fast) + 1} checked" in err,
               f"queue: -j 2: no job waits behind a long check while the other worker idles "
               f"({len(files)} of {len(fast)} fast files checked, {err!r})")


def rows_while_waiting(record, run):
    """--json into a pipe: the lines go out in batches, but before the main
    process waits: the lines of the fast checks before a check of seconds
    can be read, each whole and in order, while that check runs."""
    slow = ROOT / "tests" / "heavy" / "lock-cas-10.litmus"   # about 5 s at --bound 2
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        fast = _fast_files(d)
        p = subprocess.Popen([str(BIN), "--json", "-j", "1", "--bound", "2", "--model", "ptx-v6.0"]
                             + [str(f) for f in fast] + [str(slow)], cwd=d,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        got, deadline = b"", time.monotonic() + 3
        while got.count(b"\n") < len(fast) and time.monotonic() < deadline:
            if not select.select([p.stdout], [], [], max(0, deadline - time.monotonic()))[0]:
                break
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            got += chunk
        running = p.poll() is None
        p.kill()
        p.communicate()
        lines = got.decode().splitlines()
        files = [json.loads(l)["file"] for l in lines if l.startswith("{") and l.endswith("}")]
        record(running and got.endswith(b"\n") and files == [str(f) for f in fast],
               f"batch: --json into a pipe: the {len(fast)} lines before a long check can be read while it runs "
               f"(read {len(lines)} lines, still running: {running}, {got[-200:]!r})")


def _workers_seen(args, cwd):
    """Runs gpubmc with args: (its result rows, how many worker processes
    were seen, sampled every 10 ms)."""
    p = subprocess.Popen([str(BIN)] + [str(a) for a in args], cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    seen = set()
    while p.poll() is None:
        seen.update(child_pids(p.pid))
        time.sleep(0.01)
    return _rows(p.communicate()[0]), len(seen)


def workers_retire(record, run):
    """A worker whose check raised its peak memory by more than a quarter
    of --max-memory retires: the next check runs in a fresh process (the
    peak is read only when the time since the last reading allows that
    much growth, so a check of half a second is always read).  Under a
    large budget one worker checks them all."""
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        big = [d / f"big{k}.litmus" for k in range(3)]
        for f in big:
            f.write_text(_stores(200))   # about 20 MB each: twice a quarter of 40 MB
        for budget, want in (("40", lambda n: n >= 2), ("4000", lambda n: n == 1)):
            rows, workers = _workers_seen(["-j", "1", "--json", "--max-memory", budget] + big, d)
            record(want(workers) and [r.get("result") for r in rows] == ["PASS"] * 3,
                   f"batch: three 20 MB checks under --max-memory {budget}: {workers} worker processes seen "
                   f"({[r.get('result') for r in rows]})")


def batch_honesty(record, run):
    """Every batch honesty test."""
    big_parent_budget(record, run)
    linear_job_list(record, run)
    signals(record, run)
    rows_while_waiting(record, run)
    open_files_limit(record, run)
    rendering_budget(record, run)
    outputs_kept_apart(record, run)
    fifo_after_listing(record, run)
    rewritten_while_queued(record, run)
    small_ones(record, run)
    output_directories(record, run)
    queued_jobs(record, run)
    no_job_behind_a_long_check(record, run)
    workers_retire(record, run)
