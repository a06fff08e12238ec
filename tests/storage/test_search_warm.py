"""`SearchEngine.warm()` (run by the app's index worker) leaves nothing for a keystroke to load."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from papershelf.storage.model import Paper
from papershelf.storage.search.engine import SearchEngine

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import sys
from papershelf.storage.model import Paper
from papershelf.storage.search.engine import SearchEngine
papers = [Paper(f"{i:012x}", f"Method{i}", None, f"diffusion planning {i}", "V", ("s",))
          for i in range(50)]
engine = SearchEngine(papers)
before = "rapidfuzz.process" in sys.modules
if sys.argv[1] == "warm":
    engine.warm()
after_warm = "rapidfuzz.process" in sys.modules
hits = engine.results("difusion", {})
print(before, after_warm, len(hits))
"""


def run(mode: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, mode], cwd=REPO, capture_output=True, text=True, check=True
    )
    return result.stdout.split()


def test_warm_loads_the_typo_matcher_before_any_keystroke() -> None:
    # Not loaded by building the index, loaded by warm(), and the typo query still finds all.
    assert run("warm") == ["False", "True", "50"]


def test_without_warm_the_typo_matcher_loads_only_when_a_query_needs_it() -> None:
    assert run("cold") == ["False", "False", "50"]


def _engine() -> SearchEngine:
    papers = [
        Paper(f"{i:012x}", f"Method{i}", None, f"diffusion $d_{i}$ planning", "V", ("s",))
        for i in range(300)
    ]
    return SearchEngine(papers)


def test_an_exact_term_in_the_abstracts_may_take_long_until_answered() -> None:
    engine = _engine()
    assert engine.may_take_long("'d")
    assert engine.may_take_long("planning abstract:'di")
    assert not engine.may_take_long("diffusion plan")  # words: the last search's time says
    assert not engine.may_take_long("title:'d")  # names and titles: a scan of short texts
    assert not engine.may_take_long("'")  # no value yet
    engine.results("'d", {})
    assert not engine.may_take_long("'d")  # answered: kept


def test_warm_words_loads_the_latex_converter_the_first_keys_hits_need() -> None:
    # A hit's title is drawn as shown: importing the converter took ~50 ms of the first key.
    probe = (
        "import sys\n"
        "from papershelf.storage.model import Paper\n"
        "from papershelf.storage.search.engine import SearchEngine\n"
        "engine = SearchEngine([Paper('0' * 12, 'N', 'T', 'an abstract', 'V', ('s',))])\n"
        "before = 'papershelf.storage.text.latex_math' in sys.modules\n"
        "engine.warm_words()\n"
        "print(before, 'papershelf.storage.text.latex_math' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False", "True"]
