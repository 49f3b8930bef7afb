"""Gallery (issue 16): the classic GPU memory-model programs in tests/gallery/.

Each row of tests/gallery/expected.csv is
`name,model,property,progress,bound,VERDICT,reason`; the verdict was reasoned
by hand against the model's cat file (the argument is in the litmus file's
comment string and in tests/gallery/README.md). For every row gpubmc must
give that verdict, and the picture it draws (`--graph`, with `--explain` for
program_spec, so that a forbidden outcome is drawn without the axioms that
forbid it and their violation in bold) must be the checked-in .dot:
NAME.dot for the program_spec row, NAME.PROPERTY-PROGRESS.dot for the
others. A row that no single execution decides (an unreachable outcome
without explanation, a PASS of termination, UNKNOWN) has no picture, and
gpubmc must write none.

Called by run_tests.py with its record() and run() helpers;
`python3 tests/gallery_tests.py --update` rewrites the .dot files from the
current build (look at the difference before committing it)."""
import json, pathlib, subprocess, sys, tempfile

from testpaths import BIN, ROOT

GALLERY = ROOT / "tests" / "gallery"
FIELDS = ("name", "model", "property", "progress", "bound", "verdict", "reason")


def rows():
    out = []
    for n, line in enumerate((GALLERY / "expected.csv").read_text().splitlines(), 1):
        if line.strip() and not line.startswith("#"):
            parts = line.split(",", len(FIELDS) - 1)
            if len(parts) != len(FIELDS):
                raise ValueError(f"tests/gallery/expected.csv:{n}: expected {len(FIELDS)} fields")
            out.append(dict(zip(FIELDS, parts)))
    return out


def graph_name(row):
    stem = row["name"][:-len(".litmus")]
    if row["property"] == "program_spec":
        return f"{stem}.dot"
    return f"{stem}.{row['property']}-{row['progress']}.dot"


def arguments(row, graph):
    """gpubmc's arguments for a row, run from the repository root (the caption
    of the picture names the file as given)."""
    args = ["--json", "--model", row["model"], "--property", row["property"],
            "--progress", row["progress"], "--bound", row["bound"], "--graph", str(graph)]
    if row["property"] == "program_spec":
        args.append("--explain")
    return args + [f"tests/gallery/{row['name']}"]


def gallery(record, run):
    table = rows()
    pictures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for row in table:
            what = f"gallery {row['name']} {row['property']} {row['progress']} bound {row['bound']}"
            made = pathlib.Path(tmp) / graph_name(row)
            p = run(arguments(row, made))
            try:
                got = json.loads(p.stdout)
            except json.JSONDecodeError:
                record(False, f"{what}: no JSON line (exit {p.returncode}, {p.stderr.strip()})")
                continue
            record(got["result"] == row["verdict"],
                   f"{what}: expected {row['verdict']}, got {got['result']} ({got.get('reason')})")
            checked = GALLERY / graph_name(row)
            if checked.exists():
                pictures += 1
                same = made.exists() and made.read_text() == checked.read_text()
                record(same, f"{what}: tests/gallery/{checked.name} differs from what gpubmc writes now "
                             f"(python3 tests/gallery_tests.py --update, then look at the difference)")
            else:
                record(not made.exists(), f"{what}: gpubmc draws a picture but tests/gallery/{checked.name} "
                                          "is not checked in")
    names = {r["name"] for r in table}
    for f in sorted(GALLERY.glob("*.litmus")):
        record(f.name in names, f"gallery: {f.name} has no row in tests/gallery/expected.csv")
    drawn = {graph_name(r) for r in table}
    for f in sorted(GALLERY.glob("*.dot")):
        record(f.name in drawn, f"gallery: {f.name} belongs to no row of tests/gallery/expected.csv")
    print(f"gallery: {len(table)} verdicts, {pictures} pictures compared")


def update():
    """Rewrites every row's .dot from build/gpubmc (and removes none)."""
    binary = BIN
    for row in rows():
        target = GALLERY / graph_name(row)
        target.unlink(missing_ok=True)
        p = subprocess.run([str(binary)] + arguments(row, target), cwd=ROOT, capture_output=True, text=True)
        got = json.loads(p.stdout)["result"]
        note = "" if got == row["verdict"] else f" (expected {row['verdict']}!)"
        print(f"{row['name']} {row['property']} {row['progress']}: {got}{note}, "
              f"{'wrote ' + target.name if target.exists() else 'no picture'}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        update()
    else:
        sys.exit("usage: python3 tests/gallery_tests.py --update   (the checks run from tests/run_tests.py)")
