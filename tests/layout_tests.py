"""Layout tests: the folders show the pipeline and data flows one way.

The stages are the Makefile's SRC_DIRS, earliest first (util < litmus <
program < encoders < models < bmc).  Every #include "..." in a stage's C
files must name a file that exists in the same or an earlier stage; the
include graph between folders (subfolders counted apart, e.g. bmc/check
and bmc/concrete) and between files has no cycle; no source file is longer
than MAX_LINES.  A small made-up tree with a backward include, a cycle and
a long file checks that the check itself can fail.  Prints the largest
files.  Called by run_tests.py with its record() helper; run alone
(python3 tests/layout_tests.py) it prints what it finds."""
import pathlib, re, sys, tempfile

from testpaths import ROOT

MAX_LINES = 1000
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def stages(root):
    """The stage folders, earliest first, from the Makefile's SRC_DIRS line."""
    m = re.search(r"^SRC_DIRS\s*=\s*(.+)$", (root / "Makefile").read_text(), re.M)
    return m.group(1).split()


def _cycle(graph):
    """One cycle of graph (node -> set of nodes) as a list of nodes, or None."""
    state, stack = {}, []

    def visit(u):
        state[u] = 1
        stack.append(u)
        for v in sorted(graph.get(u, ())):
            if state.get(v) == 1:
                return stack[stack.index(v):] + [v]
            if v not in state:
                found = visit(v)
                if found:
                    return found
        stack.pop()
        state[u] = 2
        return None

    for u in sorted(graph):
        if u not in state:
            found = visit(u)
            if found:
                return found
    return None


def check_tree(root, order):
    """(problems, files): the layout's violations as sentences, and every
    source file with its line count, largest first."""
    rank = {d: i for i, d in enumerate(order)}
    problems, sizes = [], []
    folders, files = {}, {}
    sources = sorted(p for d in order if (root / d).is_dir()
                     for p in (root / d).rglob("*") if p.suffix in (".c", ".h") and p.is_file())
    for path in sources:
        rel = path.relative_to(root).as_posix()
        text = path.read_text(errors="replace")
        sizes.append((text.count("\n"), rel))
        stage = rel.split("/")[0]
        files.setdefault(rel, set())
        for inc in INCLUDE.findall(text):
            target = inc.split("/")[0]
            if target not in rank:
                problems.append(f"{rel} includes \"{inc}\", which is in no stage ({' < '.join(order)})")
                continue
            if not (root / inc).is_file():
                problems.append(f"{rel} includes \"{inc}\", which does not exist")
                continue
            if rank[target] > rank[stage]:
                problems.append(f"{rel} includes \"{inc}\": {stage}/ comes before {target}/ in the pipeline")
            files[rel].add(inc)
            a, b = rel.rsplit("/", 1)[0], inc.rsplit("/", 1)[0]
            if a != b:
                folders.setdefault(a, set()).add(b)
    for graph, what in ((folders, "folders"), (files, "files")):
        cycle = _cycle(graph)
        if cycle:
            problems.append(f"the {what} include each other in a circle: {' -> '.join(cycle)}")
    sizes.sort(reverse=True)
    for n, rel in sizes:
        if n > MAX_LINES:
            problems.append(f"{rel} has {n} lines, more than {MAX_LINES}")
    return problems, sizes


def _bad_tree(tmp):
    """A tree that breaks every rule once."""
    files = {
        "Makefile": "SRC_DIRS = low high\n",
        "low/a.h": '#include "high/b.h"\n',            # earlier stage includes a later one
        "high/b.h": '#include "high/sub/c.h"\n',
        "high/sub/c.h": '#include "high/b.h"\n#include "low/missing.h"\n',   # cycle, missing file
        "high/long.c": "\n" * (MAX_LINES + 1),
    }
    for name, text in files.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)


def layout(record, verbose=True):
    order = stages(ROOT)
    problems, sizes = check_tree(ROOT, order)
    for p in problems:
        record(False, f"layout: {p}")
    if not problems:
        record(True, "layout")
    with tempfile.TemporaryDirectory() as tmp:
        _bad_tree(pathlib.Path(tmp))
        bad, _ = check_tree(pathlib.Path(tmp), stages(pathlib.Path(tmp)))
    wanted = ("comes before high/", "does not exist", "folders include each other", "files include each other",
              "more than")
    for w in wanted:
        record(any(w in p for p in bad), f"layout: the check misses '{w}' in a made-up bad tree: {bad}")
    if verbose:
        largest = ", ".join(f"{rel} ({n})" for n, rel in sizes[:3])
        print(f"layout: {len(sizes)} files in {' < '.join(order)}, {len(problems)} problems; largest {largest}")


if __name__ == "__main__":
    failures = []
    layout(lambda ok, what, show=True: ok or failures.append(what))
    for f in failures:
        print(f"FAIL {f}")
    sys.exit(1 if failures else 0)
