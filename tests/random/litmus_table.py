"""A small reader and writer of generated litmus programs (PTX and Vulkan
dialects): header, initial state, optional ssw block, thread table, and the
lines after it (locations, filter, condition).  Enough for the Dartagnan
cross-check to rewrite programs into what Dartagnan's parser accepts and to
reduce them; not a full litmus parser (gpubmc's own is in litmus/)."""
import re

TAIL_WORDS = ("locations", "filter", "exists", "~exists", "~ exists", "forall", "not exists", "final")


class Litmus:
    def __init__(self):
        self.dialect = "PTX"        # "PTX" or "VULKAN"
        self.name = "T"
        self.pre = []               # lines between the header and the initial state
        self.init = []              # entries of the initial state, without ';'
        self.ssw = None             # None or a list of (i, j) thread numbers
        self.places = []            # "P0@cta 0,gpu 0" per thread
        self.code = []              # per thread, a list of instructions
        self.locations = None       # None or the text inside locations [...]
        self.filter = None          # None or the filter's condition text
        self.quant = "exists"       # exists, ~exists, forall, not exists
        self.cond = "0==0"          # the condition's text

    def copy(self):
        c = Litmus()
        c.__dict__.update({k: (list(v) if isinstance(v, list) else v) for k, v in self.__dict__.items()})
        c.code = [list(t) for t in self.code]
        if self.ssw is not None:
            c.ssw = list(self.ssw)
        return c

    def pids(self):
        return [int(re.match(r"\s*P(\d+)", p).group(1)) for p in self.places]

    def render(self):
        out = [f"{self.dialect} {self.name}"] + self.pre + ["{"]
        out += [f"{e};" for e in self.init]
        out.append("}")
        if self.ssw:
            out += ["{"] + [f"ssw {a} {b};" for a, b in self.ssw] + ["}"]
        header = self.places
        rows = max([len(t) for t in self.code] + [1])
        cols = [t + [""] * (rows - len(t)) for t in self.code]
        widths = [max(len(c) for c in [h] + col) for h, col in zip(header, cols)]
        out.append(" " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " ;")
        for i in range(rows):
            out.append(" " + " | ".join(col[i].ljust(w) for col, w in zip(cols, widths)) + " ;")
        if self.locations is not None:
            out.append(f"locations [{self.locations}]")
        if self.filter is not None:
            out.append(f"filter {self.filter}")
        out.append(f"{self.quant} {self.cond}")
        return "\n".join(out) + "\n"


def parse(text):
    """A Litmus from the text of a generated program (raises ValueError)."""
    lines = text.splitlines()
    t = Litmus()
    head = lines[0].split(None, 1)
    t.dialect = "PTX" if head[0].upper() == "PTX" else "VULKAN"
    t.name = head[1].strip() if len(head) > 1 else "T"
    i = 1
    while i < len(lines) and not lines[i].strip().startswith("{"):
        t.pre.append(lines[i])
        i += 1
    # initial state: everything up to the matching '}'
    body = []
    while True:
        if i >= len(lines):
            raise ValueError("no end of the initial state")
        body.append(lines[i])
        if "}" in lines[i]:
            break
        i += 1
    i += 1
    block = " ".join(body).strip()
    block = block[block.index("{") + 1:block.rindex("}")]
    t.init = [e.strip() for e in block.split(";") if e.strip()]
    # ssw block
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines) and lines[i].strip().startswith("{"):
        body = []
        while True:
            body.append(lines[i])
            if "}" in lines[i]:
                break
            i += 1
        i += 1
        block = " ".join(body).strip()
        block = block[block.index("{") + 1:block.rindex("}")]
        t.ssw = []
        for e in block.split(";"):
            m = re.match(r"\s*ssw\s+P?(\d+)\s+P?(\d+)\s*$", e)
            if m:
                t.ssw.append((int(m.group(1)), int(m.group(2))))
            elif e.strip():
                raise ValueError(f"odd ssw entry {e!r}")
    while i < len(lines) and not lines[i].strip():
        i += 1
    # thread header and rows
    t.places = [c.strip() for c in lines[i].strip().rstrip(";").split("|")]
    n = len(t.places)
    t.code = [[] for _ in range(n)]
    i += 1
    while i < len(lines):
        s = lines[i].strip()
        if not s:
            i += 1
            continue
        if s.startswith(TAIL_WORDS):
            break
        cells = s.rstrip().rstrip(";").split("|")
        if len(cells) != n:
            raise ValueError(f"row with {len(cells)} cells for {n} threads: {s!r}")
        for k, c in enumerate(cells):
            if c.strip():
                t.code[k].append(c.strip())
        i += 1
    rest = " ".join(l.strip() for l in lines[i:] if l.strip())
    m = re.match(r"locations\s*\[([^\]]*)\]\s*(.*)$", rest)
    if m:
        t.locations = m.group(1).strip()
        rest = m.group(2)
    m = re.match(r"filter\s+(.*?)\s*(?=(~\s*exists|not\s+exists|exists|forall)\b)(.*)$", rest)
    if m:
        t.filter = m.group(1).strip()
        rest = m.group(3)
    m = re.match(r"(~\s*exists|not\s+exists|exists|forall)\s*(.*)$", rest)
    if not m:
        raise ValueError(f"no condition in {rest!r}")
    t.quant = re.sub(r"\s+", " ", m.group(1)).replace("~ ", "~")
    t.cond = m.group(2).strip().rstrip(";").strip()
    return t


# ---------------------------------------------------------------- conditions
# A condition is a tree: ("atom", text) | ("not", c) | ("and", a, b) | ("or", a, b)

def parse_cond(s):
    toks = re.findall(r"/\\|\\/|~|\(|\)|not\b|[^()~/\\]+?(?=/\\|\\/|\(|\)|~|$)", s)
    toks = [x.strip() for x in toks if x.strip()]
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        pos[0] += 1
        return toks[pos[0] - 1]

    def disj():
        a = conj()
        while peek() == "\\/":
            take()
            a = ("or", a, conj())
        return a

    def conj():
        a = unary()
        while peek() == "/\\":
            take()
            a = ("and", a, unary())
        return a

    def unary():
        x = peek()
        if x in ("~", "not"):
            take()
            return ("not", unary())
        if x == "(":
            take()
            a = disj()
            if take() != ")":
                raise ValueError("unbalanced condition")
            return a
        return ("atom", take())

    c = disj()
    if pos[0] != len(toks):
        raise ValueError(f"condition not fully read: {s!r}")
    return c


def show_cond(c, top=True):
    if c[0] == "atom":
        return c[1]
    if c[0] == "not":
        return f"~({show_cond(c[1])})"
    conn = "/\\" if c[0] == "and" else "\\/"
    text = f"{show_cond(c[1], False)} {conn} {show_cond(c[2], False)}"
    return f"({text})"


def cond_shrinks(c):
    """Smaller conditions: a node replaced by one of its operands."""
    if c[0] == "atom":
        return
    if c[0] == "not":
        yield c[1]
        for s in cond_shrinks(c[1]):
            yield ("not", s)
        return
    yield c[1]
    yield c[2]
    for s in cond_shrinks(c[1]):
        yield (c[0], s, c[2])
    for s in cond_shrinks(c[2]):
        yield (c[0], c[1], s)


def cond_atoms(c):
    if c[0] == "atom":
        return [c[1]]
    return [a for sub in c[1:] for a in cond_atoms(sub)]
