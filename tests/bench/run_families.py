#!/usr/bin/env python3
"""Scaling benchmark: runs gpubmc on the families of families.py for growing
sizes N, checks each verdict against the reasoned one, and prints per family
N, wall time, CPU time (gpubmc and its workers: what a loaded machine does not inflate), the tool's own time, peak memory, CNF size and the pairs the
relations stored (when --json has "vars", "clauses", "pairs": peak memory
should grow no faster than the pairs) and whether the verdict is right.  A family stops after the
first run that exceeds --max-seconds (the run is killed at that limit), or
at gpubmc's limit on the size of a program (LIMIT).
At the end: per family the largest N solved within the limit.

Some families have targets (TARGETS: per size N, CPU seconds and peak MB);
their sizes are tried beside the ladder's, each run is marked "met" or
"MISSED" against its target (CPU time, which a loaded machine inflates
less than wall time), and the misses are listed at the end.

Usage: run_families.py [--bin build/gpubmc] [--max-seconds 60]
                       [--families a,b,...] [--quick] [--max-n 1000] [--sizes 32,50,100]
Exit status: 0 when every finished run had the expected verdict, 1 otherwise
(a missed target is reported, not an error: timings are noisy).
"""
import argparse
import json
import os
import pathlib
import platform
import re
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True          # keep tests/bench free of __pycache__
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import families  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SIZES = [2, 3, 4, 6, 8, 12, 16, 24, 32, 40, 64, 100, 128, 200, 256, 400, 512, 1000]
QUICK_SIZES = [2, 3, 4]

# Targets of the IRIW families with many writers (issue 26): N -> (CPU
# seconds, peak MB), N writers + N readers.  The release/acquire and
# full-condition variants have the targets of the relaxed ones.
IRIW_TARGETS = {32: (0.2, None), 50: (0.6, None), 100: (10.0, 1024)}
TARGETS = {name: IRIW_TARGETS for name in (
    "iriw-many-ptx", "iriw-many-vulkan", "iriw-many-relacq-ptx", "iriw-many-relacq-vulkan",
    "iriw-full-ptx", "iriw-full-vulkan", "iriw-full-relacq-vulkan")}


def target_note(name, n, cpu, rss_kb):
    """"" when the family has no target at n, else "met" or "MISSED (...)"."""
    goal = TARGETS.get(name, {}).get(n)
    if not goal:
        return ""
    secs, mb = goal
    over = []
    if cpu > secs:
        over.append(f"CPU {cpu:.2f} s > {secs:g} s")
    if mb is not None and rss_kb is not None and rss_kb / 1024 > mb:
        over.append(f"{rss_kb / 1024:.0f} MB > {mb} MB")
    return "MISSED (" + "; ".join(over) + ")" if over else "met"


def machine():
    """One line: CPU model, core count, memory."""
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), cpu)
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(next(l for l in f if l.startswith("MemTotal")).split()[1])
            mem = f", {kb / 1048576:.0f} GiB RAM"
    except (OSError, StopIteration, ValueError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{mem}, {platform.system()} {platform.release()}"


TIME = "/usr/bin/time"
# gpubmc's documented limits on program size (program.h, the parser): a
# family stops there, and it is not a wrong verdict
SIZE_LIMIT = re.compile(r"events \(limit \d+\)|too many instructions \(limit \d+\)")


def run_one(cmd, limit, workdir, peak_rss=True):
    """Runs cmd with a wall-clock limit; returns (wall s, CPU s, peak RSS KiB, rc,
    stdout, stderr, timed_out).  Peak RSS comes from /usr/bin/time when it
    exists and peak_rss is set (the child's own high-water mark; the CPU
    then includes /usr/bin/time's own start, about 10 ms here); otherwise
    from wait4, which also counts the memory the child inherited from this
    driver at spawn."""
    out_path, err_path = os.path.join(workdir, "out"), os.path.join(workdir, "err")
    mem_path = os.path.join(workdir, "mem")
    timed = peak_rss and os.access(TIME, os.X_OK)
    if timed:
        cmd = [TIME, "-f", "%M", "-o", mem_path] + cmd
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        t0 = time.perf_counter()
        pid = os.posix_spawn(cmd[0], cmd, os.environ, setpgroup=0,
                             file_actions=[(os.POSIX_SPAWN_DUP2, out.fileno(), 1),
                                           (os.POSIX_SPAWN_DUP2, err.fileno(), 2)])
        lock, state = threading.Lock(), {"reaped": False, "killed": False}

        def kill():
            with lock:
                if not state["reaped"]:
                    state["killed"] = True
                    os.killpg(pid, 9)      # the group: /usr/bin/time and gpubmc

        timer = threading.Timer(limit, kill)
        timer.start()
        _, status, ru = os.wait4(pid, 0)
        with lock:
            state["reaped"] = True
        timer.cancel()
        wall = time.perf_counter() - t0
    rc = os.waitstatus_to_exitcode(status)
    with open(out_path, errors="replace") as f:
        stdout = f.read()
    with open(err_path, errors="replace") as f:
        stderr = f.read()
    peak = ru.ru_maxrss
    if timed:
        try:
            with open(mem_path) as f:
                peak = int(f.read().split()[-1])
        except (OSError, ValueError, IndexError):
            peak = None
        if rc != 0 and stderr.startswith("Command exited with non-zero status"):
            stderr = stderr.split("\n", 1)[-1]
    cpu = ru.ru_utime + ru.ru_stime        # the process and every child it waited for (gpubmc's workers)
    return wall, cpu, peak, rc, stdout, stderr, state["killed"]


def parse_json(stdout):
    """The first JSON object of gpubmc's --json output, or {}."""
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                pass
    return {}


def fmt(v):
    return "-" if v is None else str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--max-seconds", type=float, default=60.0)
    ap.add_argument("--families", default="", help="comma-separated subset (default: all)")
    ap.add_argument("--quick", action="store_true", help=f"sizes {QUICK_SIZES} only")
    ap.add_argument("--max-n", type=int, default=SIZES[-1], help="largest size tried")
    ap.add_argument("--sizes", default="", help="comma-separated sizes instead of the default ladder")
    a = ap.parse_args()
    binary = str(pathlib.Path(a.bin).resolve())
    if not os.access(binary, os.X_OK):
        print(f"error: {binary} is not an executable (run make first)", file=sys.stderr)
        return 1
    names = [s for s in a.families.split(",") if s] or list(families.FAMILIES)
    unknown = [s for s in names if s not in families.FAMILIES]
    if unknown:
        print(f"error: unknown families {unknown}; known: {list(families.FAMILIES)}", file=sys.stderr)
        return 1
    ladder = [int(x) for x in a.sizes.split(",") if x] or (QUICK_SIZES if a.quick else SIZES)
    sizes = [n for n in ladder if n <= a.max_n]

    print(f"machine: {machine()}")
    print(f"binary: {binary}; limit {a.max_seconds:g} s per run; sizes {sizes}")
    print("peak MB: " + ("/usr/bin/time %M of the gpubmc process" if os.access(TIME, os.X_OK)
                          else "wait4 ru_maxrss (no /usr/bin/time; includes the driver's own RSS at spawn)"))
    best, bad, missed, targeted, t_start = {}, 0, [], 0, time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="gpubmc-bench-") as tmp:
        for name in names:
            fam = families.FAMILIES[name]
            first = fam(2)
            args = " ".join(first.args)
            what = "N is the size"
            if fam(3).args != first.args:          # the spin families scale the bound
                what, args = "N is the bound", args.replace("--bound 2", "--bound N")
            print(f"\n== {name}: {args} ({what}); "
                  f"expected {first.expected}: {first.reason}")
            print(f"{'N':>5} {'wall s':>8} {'CPU s':>7} {'tool ms':>9} {'peak MB':>8} {'vars':>9} {'clauses':>10} "
                  f"{'pairs':>10}  {'verdict':<8} ok")
            best[name] = None
            extra = [] if a.sizes or a.quick else list(TARGETS.get(name, {}))
            for n in sorted(set(sizes + [m for m in extra if m <= a.max_n])):
                case = families.generate(name, n, tmp)
                cmd = [binary] + case.args + ["--json", case.file]
                wall, cpu, rss, rc, out, err, killed = run_one(cmd, a.max_seconds, tmp)
                js = parse_json(out)
                over = js.get("result") == "ERROR" and SIZE_LIMIT.search(js.get("reason", ""))
                if killed:
                    verdict, ok = "TIMEOUT", "-"
                elif over:
                    verdict, ok = "LIMIT", "-"
                else:
                    verdict = js.get("result", f"rc={rc}")
                    ok = "ok" if verdict == case.expected else "NOT OK"
                    if verdict != case.expected:
                        bad += 1
                print(f"{n:>5} {wall:>8.3f} {cpu:>7.3f} {fmt(js.get('time_ms')):>9} {fmt(None if rss is None else round(rss / 1024, 1)):>8} "
                      f"{fmt(js.get('vars')):>9} {fmt(js.get('clauses')):>10} {fmt(js.get('pairs')):>10}  "
                      f"{verdict:<8} {ok}"
                      + (f"  target {note}" if (note := target_note(name, n, cpu, rss)) and not killed else ""),
                      flush=True)
                targeted += bool(note) and not killed
                if note.startswith("MISSED") and not killed:
                    missed.append(f"{name} {n}: {note}")
                if ok == "NOT OK":
                    detail = js.get("reason") or err.strip().splitlines()[-1:] or ""
                    print(f"      expected {case.expected}; tool says: {detail}")
                if not killed and wall <= a.max_seconds and ok == "ok":
                    best[name] = n
                if over:
                    print(f"      over gpubmc's size limit: {js['reason'].split('error: ', 1)[-1]}")
                if killed or wall > a.max_seconds or over:
                    break
    print(f"\n== largest N solved correctly within {a.max_seconds:g} s "
          f"(total {time.perf_counter() - t_start:.0f} s)")
    for name in names:
        top = best[name]
        tried_all = top == sizes[-1]
        print(f"{name:<20} {fmt(top)}{'  (largest size tried)' if tried_all else ''}")
    if targeted:
        print("\n== targets (CPU s, peak MB): " + ", ".join(
            f"N={n}: {s:g} s" + (f", {mb} MB" if mb else "") for n, (s, mb) in IRIW_TARGETS.items()))
        print("\n".join(missed) if missed else f"all {targeted} runs with a target met it")
    if bad:
        print(f"\n{bad} run(s) with an unexpected verdict")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
