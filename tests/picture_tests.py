"""Pictures people can read (issue 29, item 4), checked on Graphviz's own
layout: every gallery picture (tests/gallery/*.dot, which the gallery
group keeps equal to what gpubmc draws) is laid out by Graphviz's dot
engine (build/graph_layout, the library gpubmc renders with) and its label
boxes read back (tests/picture_layout.py): no label overprints another,
and every cluster's title fits its cluster.  A thread that halts before
its first event has its column in the threads' row, not beside the
initial state.  --graph-dpi sets the resolution.  gpubmc loads Graphviz
only to render: its start loads no libgvc, and without one a PNG is a
clear error (tests/tools/hide_graphviz.c hides it).

Called with run_tests.py's record(ok, what) and run(args, cwd) helpers."""
import os, pathlib, struct, subprocess, tempfile

import picture_layout
from testpaths import BIN, ROOT

GALLERY = ROOT / "tests" / "gallery"


def _png_size(path):
    """(width, height) from a PNG's IHDR chunk."""
    data = pathlib.Path(path).read_bytes()[16:24]
    return struct.unpack(">II", data)


def _gallery_labels(record):
    pictures = sorted(GALLERY.glob("*.dot"))
    overlapping, wide = [], []
    for dot in pictures:
        g = picture_layout.layout(dot)
        overlapping += [(dot.name, pair) for pair in picture_layout.overlaps(picture_layout.label_boxes(g))]
        wide += [(dot.name, t) for t in picture_layout.titles_too_wide(g)]
    record(len(pictures) >= 20 and overlapping == [], f"pictures: labels overprint others: {overlapping}")
    record(wide == [], f"pictures: titles wider than their clusters: {wide}")


def _halted_row(record):
    """XF-barrier under obe: the witness shows CTA 0 never starting, so P0
    has no event; its title must be on the rank of the other titles (the
    same y), below the initial state's box."""
    g = picture_layout.layout(GALLERY / "XF-barrier.termination-obe.dot")
    pos = {o["name"]: o.get("pos") for o in g["objects"]}
    ys = {n: float(p.split(",")[1]) for n, p in pos.items() if n.startswith("title_P") and p}
    init = next(o for o in g["objects"] if o["name"] == "cluster_init")
    init_bottom = float(init["bb"].split(",")[1])
    record(sorted(ys) == ["title_P0", "title_P1", "title_P2"] and len(set(ys.values())) == 1
           and all(y < init_bottom for y in ys.values()),
           f"pictures: the halted P0 is in the threads' row: {ys}, initial state above {init_bottom}")


def _dpi(record, run):
    """--graph-dpi 192 is twice Graphviz's 96 for PNG: each side doubles
    (within a pixel of rounding); out of range, or without a graph, it is a
    usage error."""
    with tempfile.TemporaryDirectory() as tmp:
        plain, big = pathlib.Path(tmp) / "p.png", pathlib.Path(tmp) / "b.png"
        run(["--explain", "--graph", plain, "tests/gallery/MP-rel-acq.litmus"])
        run(["--explain", "--graph-dpi", "192", "--graph", big, "tests/gallery/MP-rel-acq.litmus"])
        (w, h), (W, H) = _png_size(plain), _png_size(big)
        record(abs(W - 2 * w) <= 2 and abs(H - 2 * h) <= 2, f"pictures: --graph-dpi 192 doubles {w}x{h}: {W}x{H}")
    for args in (["--graph-dpi", "7", "--graph", "/tmp/x.png"], ["--graph-dpi", "144"]):
        p = run(args + ["tests/gallery/MP-rel-acq.litmus"])
        record(p.returncode == 1 and "gpubmc: error: --graph-dpi" in p.stderr, f"pictures: usage error {args}: {p.stderr}")


def pictures(record, run):
    """Gallery pictures on Graphviz's layout; --graph-dpi; captions of rewritten programs."""
    _gallery_labels(record)
    _halted_row(record)
    _dpi(record, run)
    _rewritten_caption(record, run)
    _graphviz_on_demand(record)


def _graphviz_on_demand(record):
    """The loader's list of gpubmc's libraries has no libgvc; with dlopen
    of libgvc failing (the preload library), --graph x.png is an error
    that says what is missing, exit 1, and --graph x.dot still works."""
    listed = subprocess.run([BIN], env={**os.environ, "LD_TRACE_LOADED_OBJECTS": "1"},
                            capture_output=True, text=True).stdout
    record("libc.so" in listed and "libgvc" not in listed, f"pictures: gpubmc starts without Graphviz: {listed}")
    with tempfile.TemporaryDirectory() as tmp:
        shim = pathlib.Path(tmp) / "hide_graphviz.so"
        subprocess.run(["cc", "-shared", "-fPIC", "-o", shim, ROOT / "tests" / "tools" / "hide_graphviz.c", "-ldl"],
                       check=True)
        hidden = {**os.environ, "LD_PRELOAD": str(shim)}
        test = "tests/litmus/ptx/MP-weak.litmus"
        png = subprocess.run([BIN, "--graph", pathlib.Path(tmp) / "x.png", test], cwd=ROOT, env=hidden,
                             capture_output=True, text=True)
        record(png.returncode == 1 and f"{test}: error: rendering a PNG needs Graphviz's libgvc.so.6 "
               "(make deps installs it): /nonexistent/libgvc.so.6: cannot open" in png.stderr
               and not (pathlib.Path(tmp) / "x.png").exists(),
               f"pictures: without Graphviz a PNG is an error: {png.returncode} {png.stderr}")
        dot = subprocess.run([BIN, "--graph", pathlib.Path(tmp) / "x.dot", test], cwd=ROOT, env=hidden,
                             capture_output=True, text=True)
        record(dot.returncode == 0 and (pathlib.Path(tmp) / "x.dot").exists(),
               f"pictures: without Graphviz a .dot is still written: {dot.returncode} {dot.stderr}")


def _rewritten_caption(record, run):
    """A transformation's picture draws the first adding site's execution,
    which is one of the rewritten program: its caption says which rewrite,
    where, and names the file --emit-transformed wrote (remove-spin of
    MP-spin-membar-vk: one site, line 14, P1)."""
    with tempfile.TemporaryDirectory() as tmp:
        dot = pathlib.Path(tmp) / "g.dot"
        run(["--transform", "remove-spin", "--graph", dot, "tests/transform/MP-spin-membar-vk.litmus"])
        text = dot.read_text() if dot.exists() else ""
        record("rewritten by remove-spin at P1, line 14: the loop from line 11 runs once" in text
               and "drawn: the events and lines of the rewritten program (--emit-transformed DIR writes it)" in text,
               f"pictures: a transformation's caption names the rewrite: {text[:600]}")
        run(["--transform", "remove-spin", "--emit-transformed", tmp, "--graph", dot,
             "tests/transform/MP-spin-membar-vk.litmus"])
        record(f"{tmp}/MP-spin-membar-vk.remove-spin.L14.P1.litmus" in dot.read_text(),
               f"pictures: the caption names the emitted file: {dot.read_text()[:600]}")
