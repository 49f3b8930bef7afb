#!/usr/bin/env python3
"""Does spirv-opt add behaviour to a compute shader?  For each GLSL kernel
here (or those named): compile it with glslangValidator, disassemble it
with spirv-dis, write the kernel's `// @Output:`, `// @Input:` and
`// @Config:` comments in front of the text as gpubmc's `; @...:` headers,
check it with gpubmc, then optimise the binary with each spirv-opt pass
set below, disassemble and check the result, and compare it with the
unoptimised module by `gpubmc --source` (PASS: every outcome of the
optimised kernel, the final values of the memory its @Output names, is an
outcome of the unoptimised one).  With --expect CSV (kernel,passes,own,
source) a differing result fails the run.  Exit 0: all as expected (or no
--expect); 1: a difference; 2: a tool is missing or a step failed."""
import argparse
import csv
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent

# name, spirv-opt arguments (--ssa-rewrite first where a loop pass needs SSA form)
PASS_SETS = [
    ("O", ["-O"]),
    ("Os", ["-Os"]),
    ("loop-unroll", ["--ssa-rewrite", "--loop-unroll"]),
    ("merge-blocks", ["--merge-blocks"]),
    ("licm", ["--ssa-rewrite", "--loop-invariant-code-motion"]),
    ("loop-peeling", ["--ssa-rewrite", "--loop-peeling"]),
    ("loop-unswitch", ["--ssa-rewrite", "--loop-unswitch"]),
    ("redundancy-elimination", ["--ssa-rewrite", "--redundancy-elimination"]),
    ("if-conversion", ["--ssa-rewrite", "--if-conversion"]),
    ("adce", ["--eliminate-dead-code-aggressive"]),
]
TOOLS = ("glslangValidator", "spirv-dis", "spirv-opt")


def step(cmd):
    """Runs a tool; its output, or exits 2 naming the failing command."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"check_optimiser: {' '.join(map(str, cmd))} failed:\n{p.stdout}{p.stderr}")
    return p.stdout


def headers(comp):
    """The kernel's gpubmc headers: its `// @X:` comment lines as `; @X:`."""
    return "".join("; " + line[3:] + "\n" for line in comp.read_text().splitlines() if line.startswith("// @"))


def disassemble(spv, head, out):
    """Writes spv's disassembly with the headers in front to out."""
    out.write_text(head + step(["spirv-dis", str(spv)]))


def verdict(gpubmc, args):
    """gpubmc's result and reason for one file."""
    p = subprocess.run([gpubmc, "--json"] + args, capture_output=True, text=True, timeout=600)
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            o = json.loads(line)
            return o["result"], o.get("reason", "")
    return "ERROR", p.stderr.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kernels", nargs="*", help="GLSL compute shaders (default: every .comp here)")
    ap.add_argument("--gpubmc", default=str(HERE.parent.parent / "build" / "gpubmc"))
    ap.add_argument("--bound", default="2", help="gpubmc's loop bound (default 2)")
    ap.add_argument("--keep", help="write the .spv and .spvasm files to this directory")
    ap.add_argument("--expect", help="CSV of kernel,passes,own,source results to compare with")
    a = ap.parse_args()
    missing = [t for t in TOOLS if not shutil.which(t)]
    if missing:
        print(f"check_optimiser: {', '.join(missing)} not found (make deps installs glslang-tools and "
              f"spirv-tools)", file=sys.stderr)
        return 2
    kernels = [pathlib.Path(k) for k in a.kernels] or sorted(HERE.glob("*.comp"))
    expected = {}
    if a.expect:
        for r in csv.reader(l for l in pathlib.Path(a.expect).read_text().splitlines() if l and l[0] != "#"):
            expected[(r[0], r[1])] = (r[2], r[3])
    work = pathlib.Path(a.keep) if a.keep else pathlib.Path(tempfile.mkdtemp(prefix="gpubmc-glsl-"))
    work.mkdir(parents=True, exist_ok=True)
    differ = 0
    for comp in kernels:
        stem, head = comp.stem, headers(comp)
        spv, base = work / f"{stem}.spv", work / f"{stem}.spvasm"
        step(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-o", str(spv), str(comp)])
        disassemble(spv, head, base)
        own = verdict(a.gpubmc, ["--bound", a.bound, str(base)])
        rows = [("-", own, ("-", ""))]
        for name, args in PASS_SETS:
            ospv, oasm = work / f"{stem}.{name}.spv", work / f"{stem}.{name}.spvasm"
            step(["spirv-opt"] + args + [str(spv), "-o", str(ospv)])
            disassemble(ospv, head, oasm)
            rows.append((name, verdict(a.gpubmc, ["--bound", a.bound, str(oasm)]),
                         verdict(a.gpubmc, ["--bound", a.bound, "--source", str(base), str(oasm)])))
        for name, (r_own, why_own), (r_src, why_src) in rows:
            line = f"{stem} {name}: {r_own} ({why_own})" + (f"; --source: {r_src} ({why_src})" if name != "-" else "")
            want = expected.get((stem, name))
            if a.expect and want != (r_own, r_src):
                differ += 1
                line += f"  <- expected {want[0] + ', --source ' + want[1] if want else 'no row'}"
            print(line)
    if not a.keep:
        shutil.rmtree(work)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
