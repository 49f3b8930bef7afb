"""What Graphviz makes of a gpubmc picture: the boxes of its labels, read
back from the layout (build/graph_layout prints Graphviz's xdot JSON), and
the checks a reader's eye makes: no label overprints another, and every
cluster's title fits inside its cluster.

  label_boxes(layout) -> [(owner, text, (x0, y0, x1, y1))]
  overlaps(boxes) -> [(text, text)] pairs of labels of different owners whose boxes meet
  titles_too_wide(layout) -> [cluster title] titles wider than their cluster"""
import json, subprocess

from testpaths import BUILD

DRAW_KEYS = ("_ldraw_", "_xldraw_", "_hldraw_", "_tldraw_")


def layout(dot_path):
    """Graphviz's layout of a DOT file as xdot JSON."""
    p = subprocess.run([str(BUILD / "graph_layout"), str(dot_path)], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(p.stderr)
    return json.loads(p.stdout)


def _text_boxes(ops, owner):
    """The box of each text op: its width from Graphviz, its height the
    font size (ascent 0.8, descent 0.2 of it around the baseline)."""
    size, out = 14.0, []
    for op in ops:
        if op["op"] == "F":
            size = op["size"]
        elif op["op"] == "T":
            x, y, w = op["pt"][0], op["pt"][1], op["width"]
            x0 = x - w / 2 if op["align"] == "c" else x - w if op["align"] == "r" else x
            out.append((owner, op["text"], (x0, y - 0.2 * size, x0 + w, y + 0.8 * size)))
    return out


def label_boxes(g):
    boxes = []
    for key in DRAW_KEYS:
        boxes += _text_boxes(g.get(key, []), "graph")
    for i, o in enumerate(g.get("objects", [])):
        for key in DRAW_KEYS:
            boxes += _text_boxes(o.get(key, []), f"object {o.get('name', i)}")
    for i, e in enumerate(g.get("edges", [])):
        for key in DRAW_KEYS:
            boxes += _text_boxes(e.get(key, []), f"edge {i}")
    return boxes


def overlaps(boxes, slack=0.5):
    """Pairs of labels of different owners whose boxes overlap by more than slack points each way."""
    out = []
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            (oa, ta, a), (ob, tb, b) = boxes[i], boxes[j]
            if oa == ob:
                continue
            if min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack:
                out.append((ta, tb))
    return out


def titles_too_wide(g):
    """Cluster titles wider than their cluster's box."""
    out = []
    for o in g.get("objects", []):
        if not o.get("name", "").startswith("cluster") or "bb" not in o:
            continue
        x0, _y0, x1, _y1 = (float(v) for v in o["bb"].split(","))
        for _owner, text, box in _text_boxes(o.get("_ldraw_", []), o["name"]):
            if box[0] < x0 - 0.5 or box[2] > x1 + 0.5:
                out.append(text)
    return out
