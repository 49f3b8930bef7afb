"""Explanations and graphs (issue 16).

--explain: on every own program_spec test and every corpus row whose
outcome the model forbids (PTXv7_5 and VULKAN suites, PASS of ~exists;
the extra OPENCL suite, its forbidden outcomes either way), the
axiom set is minimal, checked from outside with --no-axiom: with the whole
set off the verdict flips (the outcome is reachable), with any one of them
kept on it does not (an empty set, "whatever the axioms": with every axiom
off the verdict stays); and each evidence edge named after a relation of the
witness is a pair of that relation in the explanation's execution (and so
each edge of the path of the write that hides a non-atomic read from the
write it reads, OpenCL's O-NaRfG and O-NaRfL).

--graph: the DOT is parsed back (every executed event a node in its
thread's cluster, every requested edge present, co drawn immediate only),
and SVG and PNG files are valid.
Called by run_tests.py with its record() and run() helpers."""
import json, pathlib, re, tempfile

from testpaths import CORPUS, ROOT, corpus_missing_note, corpus_present

OWN = (("ptx", "ptx-v6.0"), ("ptx75", "ptx-v7.5"), ("vulkan", "vulkan"), ("vulkan-nochains", "vulkan-nochains"),
       ("opencl", "opencl"))


def forbidden_rows():
    """(directory, file, model, expected, origin) of program_spec tests whose
    outcome may be forbidden: the own tests ("own") and, when the labelled
    corpus is there, its PTXv7_5 and VULKAN rows that PASS and its extra
    OPENCL rows ("corpus"; explain() keeps those whose outcome is forbidden)."""
    rows = []
    for suite, model in OWN:
        d = ROOT / "tests" / "litmus" / suite
        for line in (d / "expected.csv").read_text().splitlines():
            if line.strip():
                name, exp = line.split(",")[:2]
                rows.append((d, name, model, exp, "own"))
    if not corpus_present():
        print(corpus_missing_note("explain on the PTXv7_5 and VULKAN corpus rows"))
        return rows
    for suite, model in (("PTXv7_5", "ptx-v7.5"), ("VULKAN", "vulkan")):
        for line in (CORPUS / "expected" / f"{suite}.csv").read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                path, exp, _src = line.split(",")
                if exp == "PASS" and (CORPUS / path).exists():
                    rows.append((CORPUS, path, model, exp, "corpus"))
    extra = CORPUS / "extra"
    for line in (extra / "expected" / "OPENCL.csv").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            path, exp, src = line.split(",")
            # dartagnan-skips: herd's verdict, which C11's partial sequenced-before makes differ from Dat3M's
            if src == "dartagnan" and (extra / path).exists():
                rows.append((extra, path, "opencl", exp, "corpus"))
    return rows


def quantifier(path):
    text = path.read_text()
    return "forall" if re.search(r"\bforall\b", text) else "~exists" if "~exists" in text else "exists"


def follows(edges, a, b):
    """Whether a path of edges leads from a to b."""
    seen, todo = set(), [a]
    while todo:
        x = todo.pop()
        for u, v in edges:
            if u == x and v not in seen:
                seen.add(v)
                todo.append(v)
    return b in seen


def first(stdout):
    """The first result of --json output (an OpenCL file's program_spec;
    barrier_divergence follows it)."""
    return json.loads(stdout.splitlines()[0])


def model_axioms(run, model, d, name):
    """The axiom names of model, as gpubmc lists them for an unknown one."""
    err = run(["--model", model, "--no-axiom", "?", name], d).stderr
    return re.search(r"it has: ([^)]*)\)", err).group(1).split()


def explain(record, run):
    checked = {"own": 0, "corpus": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for d, name, model, exp, origin in forbidden_rows():
            q = quantifier(d / name)
            if (q == "exists") != (exp == "FAIL"):
                continue   # the outcome is reachable: nothing to explain
            w = pathlib.Path(tmp) / "w.json"
            p = run(["--json", "--model", model, "--explain", "--witness", str(w), name], d)
            if p.returncode not in (0, 10):
                record(False, f"explain {name}: exit {p.returncode} {p.stderr.strip()}")
                continue
            o = first(p.stdout)
            e = o.get("explanation")
            if o["result"] != exp or not e:
                record(False, f"explain {name}: {o['result']} without an explanation: {o}")
                continue
            axioms = e["axioms"]
            if not axioms:
                record("whatever the axioms" in o["reason"], f"explain {name}: empty set without a reason")
                off = sum((["--no-axiom", a] for a in model_axioms(run, model, d, name)), [])
                got = first(run(["--json", "--model", model] + off + [name], d).stdout)["result"]
                record(got == exp, f"explain {name}: 'whatever the axioms', yet with all of them off {got}")
                continue
            checked[origin] += 1
            flipped = "PASS" if exp == "FAIL" else "FAIL"
            off = sum((["--no-axiom", a] for a in axioms), [])
            got = first(run(["--json", "--model", model] + off + [name], d).stdout)["result"]
            record(got == flipped, f"explain {name}: without {axioms} expected {flipped}, got {got}")
            for keep in axioms:
                off = sum((["--no-axiom", a] for a in axioms if a != keep), [])
                got = first(run(["--json", "--model", model] + off + [name], d).stdout)["result"]
                record(got == exp, f"explain {name}: {keep} kept on, expected {exp}, got {got}")
            wit = json.loads(w.read_text())
            witness = (wit[0] if isinstance(wit, list) else wit)["explanation"]["witness"]   # OpenCL: a list
            for ev in e["evidence"]:
                check_edges(record, name, witness, ev["events"], ev["edges"])
                hidden = ev.get("hidden_by")
                if hidden:
                    ids = hidden["events"]
                    record(ids[1] == hidden["write"] and [ids[0], ids[-1]] == ev["events"],
                           f"explain {name}: the hiding path goes from the read's write through the hiding write")
                    check_edges(record, name, witness, ids, hidden["edges"])
    # the own tests alone hold 92 forbidden outcomes with a non-empty set (23 of
    # them OpenCL); the corpus rows add 99 more (PTXv7_5 and VULKAN 68, OPENCL 31)
    record(checked["own"] >= 90, f"explain: {checked['own']} minimal sets checked on the own tests (expected 90 or more)")
    if corpus_present():
        record(checked["corpus"] >= 95,
               f"explain: {checked['corpus']} minimal sets checked on the corpus rows (expected 95 or more)")
    print(f"explain: {checked['own']} own and {checked['corpus']} corpus forbidden outcomes explained, "
          f"each set checked minimal")


def check_edges(record, name, witness, ids, labels):
    """Each edge of an evidence path named after a relation of the witness
    is a pair of it (po followed along its immediate edges)."""
    for i, lab in enumerate(labels):
        pair = [ids[i], ids[(i + 1) % len(ids)]]
        if lab == "po":   # the witness lists po's immediate edges: follow them
            record(follows(witness["edges"]["po"], *pair),
                   f"explain {name}: evidence edge {pair} -po-> not in the execution")
        elif lab in witness["edges"]:
            record(pair in witness["edges"][lab],
                   f"explain {name}: evidence edge {pair} -{lab}-> not in the execution")


def parse_dot(text):
    """Clusters (name -> node ids) and edges (from, to, label) of our DOT."""
    clusters, current, edges = {}, None, []
    for line in text.splitlines():
        m = re.match(r"\s*subgraph (cluster_\w+) \{", line)
        if m:
            current = m.group(1)
            clusters[current] = []
            continue
        if re.match(r"\s*}\s*$", line):
            current = None
            continue
        m = re.match(r"\s*(e\d+) \[label=", line)
        if m and current:
            clusters[current].append(m.group(1))
        for m in re.finditer(r"(e\d+) -> (e\d+) \[([^\]]*)\]", line):
            lab = re.search(r'label="([^"]*)"', m.group(3))
            edges.append((m.group(1), m.group(2), lab.group(1) if lab else None, "invis" in m.group(3)))
    return clusters, edges


def graphs(record, run):
    with tempfile.TemporaryDirectory() as tmp:
        t = pathlib.Path(tmp)
        cases = (("tests/litmus/ptx/SB-weak.litmus", ["--model", "ptx-v6.0"], None),
                 ("tests/litmus/ptx/MP-weak.litmus", [], "rf,co,fr,cause"),
                 ("tests/litmus/vulkan/MP-rel-acq-wg-twowg.litmus", [], None))
        for name, extra, rels in cases:
            args = extra + ["--witness", str(t / "w.json"), "--graph", str(t / "g.dot")]
            if rels:
                args += ["--graph-relations", rels]
            p = run(args + [name])
            if not (t / "g.dot").exists():
                record(False, f"graph {name}: no DOT written ({p.stderr.strip()})")
                continue
            clusters, edges = parse_dot((t / "g.dot").read_text())
            w = json.loads((t / "w.json").read_text())["witness"]
            ok = True
            for ev in w["events"]:
                where = "cluster_init" if ev["thread"] is None else f"cluster_P{ev['thread']}"
                ok &= f"e{ev['id']}" in clusters.get(where, [])
            record(ok and len(clusters) == len(w["threads"]) + 1,
                   f"graph {name}: every event in its thread's cluster ({clusters})")
            drawn = {(a, b, lab) for a, b, lab, invis in edges if not invis}
            for rel in (rels.split(",") if rels else ["rf", "fr", "rmw"]):
                for a, b in w["edges"].get(rel, []):
                    record((f"e{a}", f"e{b}", rel) in drawn, f"graph {name}: {rel} edge {a}->{b} drawn")
            co = {tuple(x) for x in w["edges"]["co"]}
            for a, b in co:
                immediate = not any((a, c) in co and (c, b) in co for c in {y for _, y in co})
                record(((f"e{a}", f"e{b}", "co") in drawn) == immediate,
                       f"graph {name}: co {a}->{b} drawn iff immediate")
            for a, b in w["edges"]["po"]:
                record(any(x == f"e{a}" and y == f"e{b}" for x, y, _l, _i in edges), f"graph {name}: po {a}->{b}")
        p = run(["--graph", str(t / "g.svg"), "tests/litmus/ptx/MP-weak.litmus"])
        svg = (t / "g.svg").read_text() if (t / "g.svg").exists() else ""
        record(p.returncode == 0 and "<svg" in svg and "P0 @ cta 0, gpu 0" in svg, "graph: SVG rendered")
        p = run(["--graph", str(t / "g.png"), "tests/litmus/ptx/MP-weak.litmus"])
        png = (t / "g.png").read_bytes() if (t / "g.png").exists() else b""
        record(p.returncode == 0 and png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000, "graph: PNG rendered")
        p = run(["--graph-dir", tmp, "--graph-format", "png", "--property", "program_spec,cat_spec",
                 "tests/litmus/vulkan-dr/DR-MP-priv-data.litmus", "tests/litmus/ptx/MP-weak.litmus"])
        made = sorted(x.name for x in t.glob("*.png") if x.name != "g.png")
        # MP-weak's cat_spec PASS (PTX flags nothing) has no execution to draw: a note
        record(made == ["tests_litmus_ptx_MP-weak.program_spec.png", "tests_litmus_vulkan-dr_DR-MP-priv-data.cat_spec.png",
                        "tests_litmus_vulkan-dr_DR-MP-priv-data.program_spec.png"]
               and "MP-weak.litmus: note: no graph" in p.stderr,
               f"graph-dir: one picture per deciding check ({made}, {p.stderr!r})")
        # flat labelled edges between barriers of one rank crashed Graphviz 2.42's dot layout
        p = run(["--graph-dir", tmp, "--graph-format", "png", "--bound", "2", "tests/litmus/regress/bar-sync-twice.litmus",
                 "tests/litmus/regress/bar-in-loop.litmus", "tests/litmus/regress/cbar-twice-one-thread.litmus"])
        record(p.returncode == 0 and len(list(t.glob("tests_litmus_regress_*.png"))) == 3,
               f"graph: barrier executions render ({p.returncode}, {p.stderr!r})")
        p = run(["--graph", str(t / "x.dot"), "--graph-relations", "rf,nosuch", "tests/litmus/ptx/MP-weak.litmus"])
        record(p.returncode == 1 and "unknown relation 'nosuch'" in p.stderr and "cause" in p.stderr,
               f"graph: an unknown relation is an error that lists them ({p.stderr!r})")
        p = run(["--graph", str(t / "x.dot"), "tests/litmus/ptx/MP-weak.litmus", "tests/litmus/ptx/SB-weak.litmus"])
        record(p.returncode == 1 and "--graph-dir" in p.stderr, "graph: --graph with two checks is refused")


def explanations_and_graphs(record, run):
    explain(record, run)
    graphs(record, run)
