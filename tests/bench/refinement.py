#!/usr/bin/env python3
"""Refinement benchmark: what a transformation check costs next to a plain
check, and how long --necessary-sync takes on a 4-thread test with twelve
synchronisation sites.

For every own transformation example (tests/transform) and every PTX v7.5
and Vulkan program_spec corpus test, one built-in transformation that
applies (the first of weaken-order, narrow-scope, drop-fence, reorder) is
written out with --emit-transformed; then the first rewritten program is
checked plainly (gpubmc TARGET) and against its original (gpubmc --source
ORIGINAL TARGET), each the best of --repeat runs of the check's own time
(time_ms, without process start).  Prints the median, p90 and max of the
ratio refinement / plain, per set and overall.
Usage: refinement.py [--bin build/gpubmc] [--corpus ../shared/corpus] [--repeat 3] [--quick]"""
import argparse, json, pathlib, statistics, subprocess, sys, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TRANSFORMS = ("weaken-order", "narrow-scope", "drop-fence", "reorder")


def gpubmc(binary, args):
    p = subprocess.run([binary, "--json"] + args, capture_output=True, text=True, timeout=600)
    return [json.loads(line) for line in p.stdout.splitlines()]


def best_ms(binary, args, repeat):
    """The smallest time_ms over repeat runs, with the result of the last."""
    times, result = [], None
    for _ in range(repeat):
        out = gpubmc(binary, args)
        if len(out) != 1:
            return None, None
        times.append(out[0]["time_ms"])
        result = out[0]["result"]
    return min(times), result


def target_of(binary, test, tmp):
    """The first program one of TRANSFORMS writes for test, or None."""
    for name in TRANSFORMS:
        out = pathlib.Path(tmp) / name
        out.mkdir(exist_ok=True)
        gpubmc(binary, ["--transform", name, "--emit-transformed", str(out), str(test)])
        stem = test.name[:-len(".litmus")]
        made = sorted(out.glob(f"{stem}.{name}.*.litmus"))
        if made:
            return made[0]
    return None


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def corpus_tests(corpus, suites):
    tests = []
    for suite in suites:
        csv = corpus / "expected" / f"{suite}.csv"
        if not csv.exists():
            continue
        for line in csv.read_text().splitlines():
            if line and not line.startswith("#") and (corpus / line.split(",")[0]).exists():
                tests.append(corpus / line.split(",")[0])
    return tests


def measure(binary, tests, repeat, tmp):
    ratios, skipped = [], 0
    for test in tests:
        target = target_of(binary, test, tmp)
        plain, plain_res = best_ms(binary, [str(target)], repeat) if target else (None, None)
        refine, refine_res = best_ms(binary, ["--source", str(test), str(target)], repeat) if target else (None, None)
        if not plain or not refine or "ERROR" in (plain_res, refine_res):
            skipped += 1
            continue
        ratios.append((refine / plain, test.name, plain, refine))
    return ratios, skipped


def report(what, ratios, skipped):
    if not ratios:
        print(f"{what:10} no tests")
        return
    r = [x[0] for x in ratios]
    print(f"{what:10} {len(r):4} tests ({skipped} skipped): refinement/plain median {statistics.median(r):.2f}x, "
          f"p90 {quantile(r, 0.9):.2f}x, max {max(r):.2f}x "
          f"(plain median {statistics.median(x[2] for x in ratios):.2f} ms, "
          f"refinement median {statistics.median(x[3] for x in ratios):.2f} ms)")


def necessary_sync(binary, repeat):
    test = ROOT / "tests" / "transform" / "SB4-fence.sc.litmus"
    ms, result = best_ms(binary, ["--necessary-sync", str(test)], max(repeat, 5))
    out = gpubmc(binary, ["--necessary-sync", str(test)])[0]
    n = len(out["details"]["sites"])
    print(f"--necessary-sync on {test.name} (4 threads, 12 sites, {n} weakenings): {ms:.1f} ms, {result}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="own examples and 20 corpus tests only")
    a = ap.parse_args()
    binary = str(pathlib.Path(a.bin).resolve())
    own = sorted((ROOT / "tests" / "transform").glob("*.litmus"))
    corpus = corpus_tests(pathlib.Path(a.corpus), ("PTXv7_5", "VULKAN"))
    if a.quick:
        corpus = corpus[::max(1, len(corpus) // 20)]
    with tempfile.TemporaryDirectory() as tmp:
        own_r, own_s = measure(binary, own, a.repeat, tmp)
        cor_r, cor_s = measure(binary, corpus, a.repeat, tmp)
    report("own", own_r, own_s)
    report("corpus", cor_r, cor_s)
    report("all", own_r + cor_r, own_s + cor_s)
    worst = sorted(own_r + cor_r, reverse=True)[:5]
    for ratio, name, plain, refine in worst:
        print(f"  {ratio:6.2f}x  {name} (plain {plain:.2f} ms, refinement {refine:.2f} ms)")
    necessary_sync(binary, a.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
