"""Where the tests find things: the project root, the built binary and the
labelled corpus (../shared/corpus beside the clone, or GPUBMC_CORPUS).
Every test module takes its paths from here."""
import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = ROOT / os.environ.get("BUILD", "build")
BIN = BUILD / "gpubmc"
SHARED = ROOT.parent / "shared"
CORPUS = pathlib.Path(os.environ.get("GPUBMC_CORPUS", SHARED / "corpus"))
SCOREBOARD = CORPUS.parent / "tools" / "score.py"   # the scoreboard beside the corpus


def corpus_present():
    """True when the labelled corpus (its litmus/ and expected/ folders) is there."""
    return (CORPUS / "litmus").is_dir() and (CORPUS / "expected").is_dir()


def corpus_missing_note(what):
    """The line a group prints when it skips for want of the corpus."""
    return (f"SKIP {what}: the labelled corpus is not at {CORPUS} "
            f"(clone beside ../shared, or set GPUBMC_CORPUS)")
