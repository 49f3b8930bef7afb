#!/usr/bin/env python3
"""Runs PTX litmus tests on this machine's NVIDIA GPU and holds what it sees
against the model (issue 19).

    python3 tests/cuda/run_gpu.py [--out DIR] [--params FILE] [-j N]
                                  [--compile-only] PATH...

Emits every PTX test under the PATHs (in a directory, each *.litmus whose
first word is PTX, outside folders named errors) with `gpubmc --emit-cuda
DIR` (tests the harness cannot run are listed with their reasons), builds
each program with nvcc for --arch (default sm_90, every warning an error),
and unless --compile-only runs each on the GPU with the parameters file
(default: the params.txt gpubmc wrote), its outcomes going to
DIR/results.log (herd's log format) and DIR/results.json.
Then `gpubmc --observed DIR/results.log` judges them and a table follows:
test, iterations (launches), runs (instances), weak runs (those satisfying
an exists or ~exists condition's body, or violating a forall's), forbidden
runs (those whose outcome the model forbids) and the verdict. Without nvcc, or without a GPU, it says so
and stops: it never makes results up.

Exit status: 0 when every program built (and every observed outcome is
allowed), 1 when something failed to build or run, 10 when the GPU showed
an outcome the model forbids."""
import argparse, json, os, pathlib, re, shutil, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
BIN = ROOT / "build" / "gpubmc"


def nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    default = pathlib.Path("/usr/local/cuda/bin/nvcc")
    return str(default) if default.exists() else None


def ptx_tests(paths):
    """The PTX litmus files under paths, sorted: a file as given; in a
    directory, every *.litmus whose first word is PTX, outside folders
    named errors (tests that are malformed on purpose)."""
    out = []
    for path in map(pathlib.Path, paths):
        if path.is_dir():
            out += [str(f) for f in path.rglob("*.litmus") if "errors" not in f.relative_to(path).parts[:-1]
                    and f.read_text(errors="replace").split(None, 1)[:1] == ["PTX"]]
        else:
            out.append(str(path))
    return sorted(out)


def emit(files, out, jobs, cwd=None):
    """gpubmc --emit-cuda (run in cwd): {litmus file: program stem} and
    {litmus file: gpubmc's line for a test it did not emit}."""
    p = subprocess.run([str(BIN), "--json", "-j", str(jobs), "--emit-cuda", str(out)] + files,
                       capture_output=True, text=True, cwd=cwd)
    emitted, refused = {}, {}
    for o in map(json.loads, p.stdout.splitlines()):
        if o["result"] == "PASS":
            emitted[o["file"]] = pathlib.Path(o["reason"].split(" ", 2)[1].rstrip(":")).stem
        else:
            refused[o["file"]] = o["reason"]
    return emitted, refused


def refusal_kinds(refused):
    """How many refusals of each kind: the reasons without their file, line,
    thread, instruction and location names, most frequent first."""
    kinds = {}
    for why in refused.values():
        why = why.split(": error: not emitted: ", 1)[-1]
        why = re.sub(r"^line \d+, P\d+: `[^`]*`: ", "", why)
        why = re.sub(r"^\w+ is an? (\w+)-proxy alias of \w+: ", r"\1-proxy alias: ", why)
        why = re.sub(r"^P\d+ is on gpu \d+ and P\d+ on gpu \d+: ", "threads on several gpus: ", why)
        why = re.sub(r"^P\d+ and P\d+ of cta \d+ pass", "threads of one CTA pass", why)
        why = re.sub(r"^P\d+ has", "a thread has", why)
        kinds[why] = kinds.get(why, 0) + 1
    return sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))


def build(compiler, arch, out, stems, jobs, cubin=False, progress=True, timeout=900):
    """nvcc with every warning an error, for every program: the executable,
    or with cubin only the device code (cicc and ptxas on the inline PTX,
    no host compiler) into STEM.cubin. [(stem, nvcc's words)] of those that
    failed."""
    def one(stem):
        target = ["-cubin", "-o", str(out / f"{stem}.cubin")] if cubin else ["-o", str(out / stem)]
        try:
            p = subprocess.run([compiler, "-O3", f"-arch={arch}", "-Werror", "all-warnings"] + target
                               + [str(out / f"{stem}.cu")], capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return stem, None, f"nvcc ran past {timeout} s"
        return stem, p.returncode, p.stderr
    failed = []
    with ThreadPoolExecutor(jobs) as pool:
        for n, (stem, rc, err) in enumerate(pool.map(one, stems), 1):
            if rc != 0:
                failed.append((stem, err))
                if progress:
                    print(f"nvcc failed on {stem}.cu:\n{err[-2000:]}", file=sys.stderr)
            if progress and n % 50 == 0:
                print(f"  built {n} of {len(stems)}", file=sys.stderr)
    return failed


def run_all(out, stems, params, timeout):
    """Runs each program on the GPU; False (after saying why) when there is
    no GPU or a program failed."""
    log, js = out / "results.log", out / "results.json"
    for f in (log, js):
        if f.exists():
            f.unlink()
    ok = True
    with log.open("w") as sink:
        for stem in stems:
            p = subprocess.run([str(out / stem), "-p", str(params), "-j", str(js)], stdout=sink,
                               stderr=subprocess.PIPE, text=True, timeout=timeout)
            if p.returncode == 3 and "no CUDA device" in p.stderr:
                print(f"no GPU on this machine ({p.stderr.strip()}): nothing was run", file=sys.stderr)
                return False
            if p.returncode != 0:
                print(f"{stem} failed ({p.returncode}): {p.stderr.strip()}", file=sys.stderr)
                ok = False
    return ok


def table(out, files):
    """Judges the log and prints the table; the exit status."""
    p = subprocess.run([str(BIN), "--json", "--observed", str(out / "results.log")] + files,
                       capture_output=True, text=True)
    judged = {o["file"]: o for o in map(json.loads, p.stdout.splitlines())}
    runs = {}
    js = out / "results.json"
    for o in map(json.loads, js.read_text().splitlines() if js.exists() else []):
        runs[o["file"]] = o
    width = max([len(f) for f in files] + [4])
    print(f"{'test':{width}}  {'iterations':>10}  {'runs':>10}  {'weak':>8}  {'forbidden':>9}  verdict")
    forbidden_any = False
    for f in files:
        o, h = judged.get(f, {}), runs.get(f, {})
        weak = h.get("negative" if h.get("kind") == "Required" else "positive", 0)
        bad = sum(s["count"] for s in o.get("details", {}).get("states", []) if s["verdict"] == "forbidden")
        forbidden_any |= bad > 0
        print(f"{f:{width}}  {h.get('params', {}).get('iterations', 0):>10}  {h.get('instances', 0):>10}  {weak:>8}  "
              f"{bad:>9}  {o.get('result', '?')}"
              f"{'' if o.get('result') in ('PASS', None) else ' (' + o.get('reason', '') + ')'}")
    return 10 if forbidden_any else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--out", default=str(ROOT / "build" / "cuda"))
    ap.add_argument("--params")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per program run")
    ap.add_argument("--compile-only", action="store_true")
    a = ap.parse_args()
    compiler = nvcc()
    if not compiler:
        print("no nvcc (PATH, /usr/local/cuda/bin): nothing built", file=sys.stderr)
        return 1
    out = pathlib.Path(a.out)
    if out.exists():
        shutil.rmtree(out)
    emitted, refused = emit(ptx_tests(a.paths), out, a.jobs)
    print(f"emitted {len(emitted)} programs, {len(refused)} tests refused")
    for why in refused.values():
        print(f"  {why}")
    stems = sorted(set(emitted.values()))
    failed = build(compiler, a.arch, out, stems, a.jobs)
    print(f"nvcc -arch={a.arch}: {len(stems) - len(failed)} of {len(stems)} programs compiled")
    if failed or a.compile_only:
        return 1 if failed else 0
    if not run_all(out, stems, pathlib.Path(a.params) if a.params else out / "params.txt", a.timeout):
        return 1
    return table(out, sorted(emitted))


if __name__ == "__main__":
    sys.exit(main())
