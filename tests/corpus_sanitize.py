#!/usr/bin/env python3
"""Runs a sanitizer build of gpubmc over every corpus file (program_spec and
cat_spec, default models) and reports any AddressSanitizer / UBSan finding,
crash or time-out.  Usage:
corpus_sanitize.py BIN [CORPUS]"""
import concurrent.futures as cf, pathlib, subprocess, sys

BIN = pathlib.Path(sys.argv[1]).resolve()
CORPUS = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else
                      pathlib.Path(__file__).resolve().parent.parent.parent / "shared" / "corpus")


def check(path):
    for prop in ("program_spec", "cat_spec"):
        args = [str(BIN), "--json", "--property", prop, str(path)]
        try:
            p = subprocess.run(args, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            return path, f"time-out ({prop})"
        if ("Sanitizer" in p.stderr or "runtime error" in p.stderr or "internal error" in p.stderr
                or p.returncode < 0):   # a crashed worker: an internal error
            return path, (p.stderr.strip().splitlines() or ["crash"])[0]
    return path, None


def main():
    if not CORPUS.is_dir():
        print(f"SKIP: {CORPUS} not found")
        return 0
    files = sorted((CORPUS / "litmus").rglob("*.litmus"))
    with cf.ThreadPoolExecutor(2) as pool:
        bad = [(p, why) for p, why in pool.map(check, files) if why]
    for p, why in bad:
        print(f"{p}: {why}")
    print(f"{len(files) - len(bad)} passed, {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
