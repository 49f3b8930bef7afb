"""Documentation tests: what README.md and docs/ say is what gpubmc does.

- Every ```litmus block of docs/input-format.md is a whole test that gpubmc
  checks without an input error (exit status 0, 10 or 20, no "error" on
  stderr), and together the blocks show every construct the page lists.
- Every `gpubmc ...` command of a ```console or ```sh block in README.md
  and docs/*.md that runs on bundled files is run (from the project root,
  or where a `cd` line in the block says; /tmp/ paths go to a scratch
  folder); a console block's output lines after the command are compared
  with what it prints (stdout, then stderr), `...` standing for any text.
- The limits docs/input-format.md states are the #defines it cites.
- The option documentation agrees with --help: the man page documents
  exactly --help's options, every option docs/usage.md names is one of
  them, the numeric defaults docs/usage.md states are --help's, the exit
  statuses and --version are the same, and every --transform name is in
  docs/transformations.md. (tests/trust_tests.py checks the other
  direction: each --help option is named in docs/usage.md and the man
  page, and docs/usage.md's synopsis is --help's.)
- With the labelled corpus, the walk-throughs that copy its cat files
  (README.md's and docs/transformations.md's model designer's) run in bash,
  pipes and all, and print what the pages show.
- Links between README.md and docs/ resolve, every page of docs/ is linked
  from README.md, README.md stays an entry page (at most 250 lines), and
  every file docs/layout.md names exists.

Called by run_tests.py as docs(record, run); run alone
(python3 tests/docs_tests.py) it prints 'N passed, N failed'."""
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from testpaths import BIN, CORPUS, ROOT, corpus_missing_note  # noqa: E402

DOCS = ROOT / "docs"
README = ROOT / "README.md"
MAX_README_LINES = 250
SHELL_META = re.compile(r"[|<>;&*`$()]")

# Constructs of docs/input-format.md, each with a pattern that some
# ```litmus example must match.
CONSTRUCTS = {
    "PTX header": r"^PTX ", "Vulkan header": r"^VULKAN ", "doc string": r'^".*"',
    "comment": r"\(\*.*\*\)", "<< >> block": r"<<.*>>", "hex constant": r"0x[0-9A-Fa-f]",
    "negative constant": r"=-\d", "register initialisation": r"\bP\d+:r\d+=",
    "thread number as digits": r"(^|[ ;{])\d+:r\d+", "alias": r"\b\w+ aliases \w+",
    "generic alias": r"@ generic aliases", "surface alias": r"@ surface aliases",
    "texture alias": r"@ texture aliases", "constant alias": r"@ constant aliases",
    "ssw": r"^ssw P\d+ P\d+", "PTX placement": r"P\d+@cta \d+,gpu \d+",
    "Vulkan placement": r"P\d+@sg \d+, wg \d+, qf \d+",
    "ld.weak": r"\bld\.weak ", "ld.relaxed": r"\bld\.relaxed\.(cta|gpu|sys) ",
    "ld.acquire": r"\bld\.acquire\.(cta|gpu|sys) ", "tld": r"\btld\.", "suld": r"\bsuld\.",
    "cold": r"\bcold\.", "st.weak": r"\bst\.weak ", "st.relaxed": r"\bst\.relaxed\.",
    "st.release": r"\bst\.release\.", "sust": r"\bsust\.", "atom": r"\batom\.\w+\.\w+\.(add|sub|exch) ",
    "atom.cas": r"\batom\.\w+\.\w+\.cas ", "red": r"\bred\.\w+\.\w+\.\w+ ", "suatom": r"\bsuatom\.",
    "sured": r"\bsured\.", "fence.sc": r"\bfence\.sc\.", "fence.acq_rel": r"\bfence\.acq_rel\.",
    "fence.proxy.PROXY": r"\bfence\.proxy\.(generic|texture|surface|constant)\b",
    "fence.proxy.alias": r"\bfence\.proxy\.alias\b", "bar.cta.sync": r"\bbar\.cta\.sync \d",
    "bar.cta.sync with id and quorum": r"\bbar\.cta\.sync \d+, \w+, \w+",
    "bar.cta.arrive": r"\bbar\.cta\.arrive ", "PTX local move": r"\bld r\d+, ",
    "add": r"\badd r", "sub": r"\bsub r", "mul": r"\bmul r", "div": r"\bdiv r",
    "and": r"\band r", "or": r"\bor r", "xor": r"\bxor r",
    "beq": r"\bbeq ", "bne": r"\bbne ", "blt": r"\bblt ", "bgt": r"\bbgt ", "ble": r"\bble ",
    "bge": r"\bbge ", "goto": r"\bgoto ", "label": r"\|\s*\w+:\s*[;|]|^\s*\w+:\s*[;|]",
    "Vulkan ld": r"\bld\.sc\d ", "ld.nonpriv": r"\bld\.nonpriv\.sc\d ", "ld.vis": r"\bld\.vis\.\w+\.sc\d ",
    "Vulkan st": r"\bst\.sc\d ", "st.nonpriv": r"\bst\.nonpriv\.sc\d ", "st.av": r"\bst\.av\.\w+\.sc\d ",
    "ld.atom": r"\bld\.atom\.(sg|wg|qf|dv)\.sc\d ", "ld.atom.acq ... semvis": r"\bld\.atom\.acq\.\S*semvis ",
    "st.atom": r"\bst\.atom\.(sg|wg|qf|dv)\.sc\d ", "st.atom.rel ... semav": r"\bst\.atom\.rel\.\S*semav ",
    "several semsc": r"semsc\d\.semsc\d", "rmw.atom": r"\brmw\.atom\.(sg|wg|qf|dv)\.sc\d ",
    "rmw.atom with op": r"\brmw\.atom\.\S*\.(add|or|xor) ", "membar": r"\bmembar\.(acq|rel|acq_rel)\.",
    "cbar": r"\bcbar\.\S+ \d", "cbar with id and quorum": r"\bcbar\.\S+ \d+, \w+, \w+",
    "avdevice": r"\bavdevice\b", "visdevice": r"\bvisdevice\b", "exists": r"^exists ",
    "~exists": r"^~exists ", "not exists": r"^not exists ", "forall": r"^forall ",
    "/\\": r"/\\", "\\/": r"\\/", "~ in an assertion": r"[(/ ]~\(", "not in an assertion": r"\bnot \(",
    "[x]": r"\[\w+\] *[<>=!]", "=": r"\w = \d", "!=": r"!=", "<": r" < ", ">=": r">=",
    "locations": r"^locations \[", "filter": r"^filter ", "empty column": r"\|\s+;|^\s+\|",
}


def _blocks(text, kinds):
    """The fenced blocks of text whose info string is one of kinds, as (kind, body)."""
    return [(m.group(1), m.group(2)) for m in
            re.finditer(r"^```(\w+)\n(.*?)^```", text, re.M | re.S) if m.group(1) in kinds]


def _pages():
    return [README] + sorted(DOCS.glob("*.md"))


def litmus_examples(record, run):
    """Each ```litmus block of docs/input-format.md parses and checks; the
    blocks cover every construct of CONSTRUCTS."""
    page = DOCS / "input-format.md"
    blocks = [b for _, b in _blocks(page.read_text(), {"litmus"})]
    record(len(blocks) >= 20, f"docs: input-format.md has a litmus example per construct ({len(blocks)} blocks)")
    with tempfile.TemporaryDirectory() as tmp:
        for i, body in enumerate(blocks):
            name = (body.split(None, 2)[1:2] or [f"block{i}"])[0]
            safe = re.sub(r"[^\w.+-]", "_", name)
            path = pathlib.Path(tmp, f"{i:02d}-{safe}.litmus")
            path.write_text(body)
            p = run([str(path)], cwd=tmp)
            record(p.returncode in (0, 10, 20) and "error" not in p.stderr,
                   f"docs: input-format.md example {name} checks without an input error "
                   f"(exit {p.returncode}: {p.stdout.strip()} {p.stderr.strip()})")
    missing = [what for what, pattern in CONSTRUCTS.items()
               if not any(re.search(pattern, b, re.M) for b in blocks)]
    record(not missing, f"docs: input-format.md has an example of every construct (missing: {missing})")
    return len(blocks)


def limits(record, run):
    """The limits input-format.md states are the code's: each `NAME` it
    cites stands right after the number that #define NAME gives."""
    text = " ".join((DOCS / "input-format.md").read_text().split("## Limits", 1)[1].split())
    defines = {}
    for header in (ROOT / "litmus" / "parse_impl.h", ROOT / "program" / "program.h"):
        defines.update(re.findall(r"^#define\s+(\w+)\s+(\d+)\b", header.read_text(), re.M))
    cited = [(m.group(1), m.group(2)) for m in re.finditer(r"(\d(?:[\d,]*\d)?)[^\d(]*\(`(\w+)`", text)]
    record(len(cited) >= 6, f"docs: input-format.md's limits cite their #defines ({cited})")
    for number, name in cited:
        record(defines.get(name) == number.replace(",", ""),
               f"docs: input-format.md's limit {name} is {number}, the code's {defines.get(name)}")


def _matches(expected, actual):
    """True when the actual lines are the expected ones, '...' in an
    expected line standing for any text."""
    if len(expected) != len(actual):
        return False
    for e, a in zip(expected, actual):
        pattern = ".*".join(re.escape(part) for part in e.split("..."))
        if not re.fullmatch(pattern, a):
            return False
    return True


def _console_steps(body):
    """(command, the lines shown after it) for each `$ ` line of a console block."""
    steps = []
    for line in body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:].strip(), []))
        elif steps:
            steps[-1][1].append(line)
    return steps


def _commands(body, kind):
    """(cd, argv or None, expected output lines or None) for each command of a
    block: argv is None for a command that is not a runnable gpubmc command,
    and the output is None where the block shows none."""
    steps, cwd = [], "."
    pairs = _console_steps(body) if kind == "console" else [(line.strip(), []) for line in body.splitlines()]
    for cmd, out in pairs:
        if cmd.startswith("cd "):
            cwd = str(pathlib.PurePosixPath(cwd) / cmd[3:].strip())
            continue
        words = cmd.split()
        if not words or words[0] not in ("gpubmc", "build/gpubmc"):
            continue
        runnable = not SHELL_META.search(cmd)
        steps.append((cwd, shlex.split(cmd)[1:] if runnable else None, cmd,
                      out if kind == "console" and out else None))
    return steps


def commands(record, run):
    """Runs every runnable gpubmc command of the pages' console and sh blocks."""
    ran = compared = skipped = 0
    with tempfile.TemporaryDirectory() as tmp:
        for page in _pages():
            rel = page.relative_to(ROOT)
            for kind, body in _blocks(page.read_text(), {"console", "sh"}):
                for cwd, argv, cmd, out in _commands(body, kind):
                    if argv is None:
                        skipped += 1
                        print(f"INFO docs: not run ({rel}): {cmd}")
                        continue
                    argv = [str(pathlib.Path(tmp, pathlib.PurePosixPath(a).name)) if a.startswith("/tmp/") else a
                            for a in argv]
                    p = run(argv, cwd=ROOT / cwd)
                    ran += 1
                    record(p.returncode in (0, 10, 20) and "error" not in p.stderr,
                           f"docs: {rel}: `{cmd}` runs (exit {p.returncode}, {p.stderr.strip()[:300]})")
                    if out is not None:
                        compared += 1
                        actual = (p.stdout + p.stderr).splitlines()
                        record(_matches(out, actual),
                               f"docs: {rel}: `{cmd}` prints what the page shows\n"
                               f"page:\n" + "\n".join(out) + "\ngot:\n" + "\n".join(actual))
    record(ran >= 8, f"docs: the pages' gpubmc commands are run ({ran})")
    return ran, compared, skipped


def corpus_walkthroughs(record):
    """A page's console blocks from the one that copies the corpus's cat
    files (`../shared/corpus/models/`) to the last that uses the copies in
    /tmp/ (a model designer's walk-through: cp, grep, pipes, `$?`) run in
    bash when the corpus is there, each command's output compared with the
    page's; /tmp/ is a scratch folder, `gpubmc` the built one.  Returns how
    many commands ran."""
    if not (CORPUS / "models").is_dir():
        print(corpus_missing_note("docs: the walk-throughs that read the corpus's cat files"))
        return 0
    ran = 0
    for page in _pages():
        rel = page.relative_to(ROOT)
        blocks = [b for _, b in _blocks(page.read_text(), {"console"})]
        first = next((i for i, b in enumerate(blocks) if "../shared/corpus/models/" in b), None)
        if first is None:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            def local(text):
                return text.replace("/tmp/", tmp + "/").replace("../shared/corpus", str(CORPUS))
            for body in blocks[first:]:
                if "/tmp/" not in body:
                    break
                for cmd, out in _console_steps(body):
                    line = local(cmd)
                    if line.startswith("gpubmc "):
                        line = shlex.quote(str(BIN)) + line[len("gpubmc"):]
                    p = subprocess.run(["bash", "-c", line], cwd=ROOT, capture_output=True, text=True, timeout=600)
                    ran += 1
                    actual = (p.stdout + p.stderr).splitlines()
                    record(_matches([local(o) for o in out], actual),
                           f"docs: {rel}: `{cmd}` prints what the page shows\n"
                           f"page:\n" + "\n".join(out) + "\ngot:\n" + "\n".join(actual))
    record(ran >= 5, f"docs: the walk-throughs that read the corpus's cat files run ({ran} commands)")
    return ran


def _help_options(text):
    """The options of --help's option list, each with its description."""
    found, last = {}, None
    for line in text.split("\noptions:\n", 1)[1].split("\n\n", 1)[0].splitlines():
        if line.startswith("  -"):
            forms, desc = line[2:26].strip(), line[26:].strip()
            names = [f.split(" ", 1)[0] for f in forms.split(", ")]
            last = names
            for n in names:
                found[n] = desc
        elif last:
            for n in last:
                found[n] += " " + line.strip()
    return found


def _man_options():
    """The options the man page documents (its .TP headings)."""
    lines = (ROOT / "bmc" / "driver" / "gpubmc.1").read_text().splitlines()
    opts = set()
    for i, line in enumerate(lines[:-1]):
        if line == ".TP":
            heading = re.sub(r"\\f[BIRP]", "", lines[i + 1]).replace("\\-", "-")
            opts.update(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", heading))
    return opts


def _bullet(usage, option):
    """The text of docs/usage.md's bullet that documents option, or ''."""
    for m in re.finditer(r"^- (.*?)(?=^- |^\S|\Z)", usage, re.M | re.S):
        head = m.group(1).split(":", 1)[0]
        if re.search(rf"`{re.escape(option)}[ `=]", head):
            return m.group(1)
    return ""


def usage(record, run):
    """docs/usage.md and the man page against --help."""
    text = run(["--help"]).stdout
    options = _help_options(text)
    record(len(options) >= 20, f"docs: --help lists its options ({sorted(options)})")
    man = _man_options()
    record(man == set(options), f"docs: the man page documents exactly --help's options "
                                f"(only in the man page: {sorted(man - set(options))}, "
                                f"only in --help: {sorted(set(options) - man)})")
    doc = (DOCS / "usage.md").read_text()
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*[a-z])", doc))
    record(named <= set(options), f"docs: every option usage.md names is one of --help's "
                                  f"(unknown: {sorted(named - set(options))})")
    for option, desc in sorted(options.items()):
        m = re.search(r"default (\d+)", desc)
        if not m:
            continue
        bullet = _bullet(doc, option)
        stated = re.search(r"default (\d[\d,]*)", bullet)
        record(stated is not None and stated.group(1).replace(",", "") == m.group(1),
               f"docs: usage.md states {option}'s default as --help does ({m.group(1)}; "
               f"usage.md: {stated.group(1) if stated else 'none'})")
    exit_help = " ".join(text.split("exit status:", 1)[1].split(";", 1)[0].split())
    exit_doc = " ".join(doc.split("Exit status:", 1)[1].split())
    record(exit_doc.startswith(exit_help.rstrip(".")),
           f"docs: usage.md's exit statuses are --help's ({exit_help!r})")
    version = run(["--version"]).stdout.strip()
    record(f"`--version` prints `{version}`" in " ".join(doc.split()),
           f"docs: usage.md says what --version prints ({version})")
    names = re.findall(r"[a-z]+(?:-[a-z]+)+|[a-z]+", options["--transform"].split(":", 1)[1])
    transforms = (DOCS / "transformations.md").read_text()
    missing = [n for n in names if n != "or" and f"`{n}`" not in transforms]
    record(len(names) >= 7 and not missing,
           f"docs: transformations.md describes every --transform ({names}; missing {missing})")


def links(record, run):
    """Relative links resolve; every docs page is linked from README.md;
    README.md is an entry page; docs/layout.md names real files."""
    for page in _pages():
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if re.match(r"\w+://", target):
                continue
            record((page.parent / target).exists(),
                   f"docs: {page.relative_to(ROOT)} links to {target}, which exists")
    readme = README.read_text()
    for page in sorted(DOCS.glob("*.md")):
        record(f"(docs/{page.name})" in readme, f"docs: README.md links to docs/{page.name}")
    n = readme.count("\n")
    record(n <= MAX_README_LINES, f"docs: README.md is an entry page ({n} lines, at most {MAX_README_LINES})")
    layout = (DOCS / "layout.md").read_text().split("```")[1]
    top, named = None, 0
    for line in layout.splitlines():
        m = re.match(r"^(\w+)/\s", line)
        if m:
            top = m.group(1)
        for path in re.findall(r"\b(tests/[\w./-]+\w/?)", line):
            named += 1
            record((ROOT / path).exists(), f"docs: docs/layout.md: {path} exists")
        for name in re.findall(r"(?<![\w/.])(\w+\.(?:c|h|cuh|1))\b", line):
            named += 1
            record(top is not None and any((ROOT / top).rglob(name)),
                   f"docs: docs/layout.md: {name} exists under {top}/")
    record(named >= 40, f"docs: docs/layout.md names files ({named})")


def docs(record, run):
    n = litmus_examples(record, run)
    limits(record, run)
    ran, compared, skipped = commands(record, run)
    walked = corpus_walkthroughs(record)
    usage(record, run)
    links(record, run)
    print(f"INFO docs: {n} litmus examples checked; {ran} gpubmc commands of the pages run, "
          f"{compared} outputs compared, {skipped} not runnable alone; the walk-throughs with the corpus's "
          f"cat files ran {walked} commands in bash")


def main():
    counts = [0, 0]

    def record(ok, what, show=True):
        counts[0 if ok else 1] += 1
        if not ok and show:
            print(f"FAIL {what}")

    def run(args, cwd=ROOT):
        return subprocess.run([str(BIN)] + [str(a) for a in args], cwd=cwd,
                              capture_output=True, text=True, timeout=120)

    docs(record, run)
    print(f"{counts[0]} passed, {counts[1]} failed")
    return 1 if counts[1] else 0


if __name__ == "__main__":
    sys.exit(main())
