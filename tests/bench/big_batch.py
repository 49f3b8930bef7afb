#!/usr/bin/env python3
"""A big batch, for issue 26 item 4: N jobs (one small litmus file listed
N times in an --expect CSV, or N copies in a directory with --copies) at
-j J --max-memory MB.  Prints the seconds to the first result line, the
jobs answered, the out-of-memory verdicts, the rate, and the main
process's peak resident memory (VmHWM, read from /proc while it runs)
beside the peak of it and its workers (wait4).
Usage: big_batch.py [--bin build/gpubmc] [-n 150000] [-j 2] [--max-memory 300]
                    [--file tests/litmus/ptx/MP-weak.litmus] [--copies] [--heavy EVERY]
With --heavy EVERY, every EVERY-th job is a test of 150 threads with a
store each (a check of about 20 MB): none of them may run out of memory."""
import argparse, json, os, pathlib, shutil, subprocess, sys, tempfile, threading, time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def watch_parent(pid, peak, stop):
    """Keeps peak[0] at the parent's VmHWM (KiB) until stop is set."""
    while not stop.is_set():
        try:
            for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak[0] = max(peak[0], int(line.split()[1]))
        except OSError:
            return
        time.sleep(0.2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("-n", type=int, default=150000)
    ap.add_argument("-j", default="2")
    ap.add_argument("--max-memory", default="300")
    ap.add_argument("--file", default=str(ROOT / "tests" / "litmus" / "ptx" / "MP-weak.litmus"))
    ap.add_argument("--copies", action="store_true", help="N copies in a directory instead of a CSV")
    ap.add_argument("--heavy", type=int, default=0, help="every EVERY-th job a check of about 20 MB")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        if a.copies:
            (d / "in").mkdir()
            for i in range(a.n):
                shutil.copy(a.file, d / "in" / f"t{i:06d}.litmus")
            args = ["--model", "ptx-v6.0", "in"]
        else:
            shutil.copy(a.file, d / "t.litmus")
            head = " | ".join(f"P{i}@cta {i},gpu 0" for i in range(150))
            body = " | ".join(f"st.relaxed.gpu x, {i + 1}" for i in range(150))
            (d / "h.litmus").write_text(f'PTX h\n"150 stores"\n{{\nx=0;\n}}\n {head} ;\n {body} ;\nexists (x == 1)\n')
            rows = ["h.litmus,PASS\n" if a.heavy and i % a.heavy == a.heavy - 1 else "t.litmus,PASS\n"
                    for i in range(a.n)]
            (d / "big.csv").write_text("# model=ptx-v6.0\n" + "".join(rows))
            args = ["--expect", "big.csv"]
        cmd = [a.bin, "--json", "-j", a.j, "--max-memory", a.max_memory] + args
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        peak, stop = [0], threading.Event()
        watcher = threading.Thread(target=watch_parent, args=(p.pid, peak, stop), daemon=True)
        watcher.start()
        err = []
        reader = threading.Thread(target=lambda: err.append(p.stderr.read()), daemon=True)
        reader.start()
        first, n, oom, verdicts = None, 0, 0, {}
        for line in p.stdout:
            if first is None:
                first = time.monotonic() - t0
            o = json.loads(line)
            n += 1
            verdicts[o["result"]] = verdicts.get(o["result"], 0) + 1
            oom += "out of memory" in o.get("reason", "")
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        stop.set()
        reader.join()
        print(f"{' '.join(cmd[1:])}: exit {os.waitstatus_to_exitcode(status)}")
        print(f"first result after {first:.2f} s; {n} of {a.n} answered {verdicts}; "
              f"{oom} out of memory; {wall:.0f} s, {n / wall:.0f} jobs/s")
        print(f"main process peak {peak[0] / 1024:.0f} MiB (VmHWM); with workers {usage.ru_maxrss / 1024:.0f} MiB")
        print(f"stderr tail: {err[0][-200:]!r}")
        return 0 if n == a.n and oom == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
