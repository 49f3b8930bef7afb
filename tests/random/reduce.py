#!/usr/bin/env python3
"""Shrinks a litmus program while gpubmc keeps failing on it the same way.

Greedy: drops threads, instructions, initial values and parts of the
condition, one at a time, keeping each change after which the failure is
still there, until nothing more can go.

    reduce.py FILE --model M --property P [--bound N] [--progress G] WHAT

WHAT is one of
    --engines          the SAT engine and --engine oracle disagree
    --symmetry         the SAT engine with and without --no-symmetry disagree
    --error TEXT       the result is ERROR (or a crash) and the reason or
                       stderr contains TEXT
The reduced program goes to stdout (or -o FILE).
"""
import argparse, json, pathlib, re, subprocess, sys, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def run(binary, args, text):
    with tempfile.NamedTemporaryFile("w", suffix=".litmus", delete=False) as f:
        f.write(text)
    try:
        p = subprocess.run([binary, "--json"] + args + [f.name], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return {"result": "TIMEOUT", "reason": ""}, ""
    finally:
        pathlib.Path(f.name).unlink()
    if p.returncode < 0 or not p.stdout.strip():
        return {"result": "CRASH", "reason": p.stderr}, p.stderr
    return json.loads(p.stdout.splitlines()[0]), p.stderr


def interesting(a, text):
    base = ["--model", a.model, "--property", a.property, "--bound", str(a.bound)]
    if a.progress:
        base += ["--progress", a.progress]
    s, err = run(a.bin, base, text)
    if s["result"] in ("TIMEOUT",):
        return False
    if a.error is not None:
        return s["result"] in ("ERROR", "CRASH") and (a.error in s.get("reason", "") or a.error in err)
    if s["result"] in ("ERROR", "CRASH"):
        return False
    other = base + (["--engine", "oracle"] if a.engines else ["--no-symmetry"])
    o, _ = run(a.bin, other, text)
    if o["result"] in ("ERROR", "CRASH", "TIMEOUT") or "candidate executions for the oracle" in o.get("reason", ""):
        return False
    return o["result"] != s["result"]


class Program:
    """A litmus file split into the parts the reducer edits."""

    def __init__(self, text):
        lines = text.splitlines()
        i = next(k for k, l in enumerate(lines) if "@" in l and "|" in l or re.match(r"\s*P\d+@", l))
        self.head = lines[:i]
        header = lines[i].strip().rstrip(";")
        self.threads = [h.strip() for h in header.split("|")]
        self.rows = []
        k = i + 1
        while k < len(lines) and lines[k].strip().endswith(";") and "|" in lines[k] or (
                k < len(lines) and len(self.threads) == 1 and lines[k].strip().endswith(";")
                and not re.match(r"\s*(exists|~|forall|filter|locations|not)", lines[k])):
            self.rows.append([c.strip() for c in lines[k].strip()[:-1].split("|")])
            k += 1
        self.tail = lines[k:]

    def text(self):
        cols = len(self.threads)
        rows = [r for r in self.rows if any(r)]
        widths = [max([len(self.threads[c])] + [len(r[c]) for r in rows]) for c in range(cols)]
        out = list(self.head)
        out.append(" " + " | ".join(h.ljust(w) for h, w in zip(self.threads, widths)) + " ;")
        for r in rows:
            out.append(" " + " | ".join(x.ljust(w) for x, w in zip(r, widths)) + " ;")
        return "\n".join(out + self.tail) + "\n"


def candidates(text):
    """Smaller variants of the program, biggest cuts first."""
    p = Program(text)
    n = len(p.threads)
    for c in range(n):                      # drop a thread
        if n > 1:
            q = Program(text)
            del q.threads[c]
            for r in q.rows:
                del r[c]
            yield q.text()
    for ri in range(len(p.rows)):           # drop an instruction
        for c in range(n):
            if p.rows[ri][c]:
                q = Program(text)
                q.rows[ri][c] = ""
                yield q.text()
    for hi, line in enumerate(p.head):      # drop an initial value or alias
        if re.match(r"\s*[\w:]+\s*(=|@|aliases)", line) and not line.strip().startswith('"'):
            q = Program(text)
            del q.head[hi]
            yield q.text()
    for ti, line in enumerate(p.tail):      # drop the filter, the locations, parts of the condition
        if line.startswith(("filter", "locations")):
            q = Program(text)
            del q.tail[ti]
            yield q.text()
        atoms = re.findall(r"(?:\[?\w+\]?|P\d+:\w+) *(?:==|!=|<=|>=|<|>) *-?\w+", line)
        if line.startswith(("exists", "~exists", "forall", "not exists", "filter")) and len(atoms) > 1:
            quant = re.match(r"(~exists|not exists|exists|forall|filter)", line).group(1)
            for atom in atoms:
                q = Program(text)
                q.tail[ti] = f"{quant} ({atom})"
                yield q.text()


def reduce(text, pred):
    changed = True
    while changed:
        changed = False
        for cand in candidates(text):
            if cand != text and pred(cand):
                text = cand
                changed = True
                break
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--bin", default=str(ROOT / "build" / "gpubmc"))
    ap.add_argument("--model", required=True)
    ap.add_argument("--property", default="program_spec")
    ap.add_argument("--bound", type=int, default=1)
    ap.add_argument("--progress")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--engines", action="store_true")
    g.add_argument("--symmetry", action="store_true")
    g.add_argument("--error")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    text = pathlib.Path(a.file).read_bytes().decode("utf-8", "replace")
    if not interesting(a, text):
        print("reduce.py: the program does not fail that way", file=sys.stderr)
        return 1
    text = reduce(text, lambda t: interesting(a, t))
    if a.output:
        pathlib.Path(a.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
