"""LaTeX in BibTeX fields to Unicode (storage/text/latex_fields.py)."""

from __future__ import annotations

import gc
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.text.latex_fields import field_text


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        ('Schr{\\"o}dinger', "Schrödinger"),
        ('Schr\\"{o}dinger', "Schrödinger"),
        ('Schr\\"odinger', "Schrödinger"),
        ("{{BERT}}: Pre-training", "BERT: Pre-training"),
        ("Ren{\\'e} Fran{\\c c}ois", "René François"),
        ("Ko{\\v{c}}isk{\\'y}", "Kočiský"),
        ("{\\L}ukasz, {\\o}, \\ss{}, \\aa", "Łukasz, ø, ß, å"),
        ("na\\\"{\\i}ve, \\'\\i", "naïve, í"),
        ("Erd\\H{o}s", "Erdős"),
        ("pages 1--10, a---b", "pages 1\u201310, a\u2014b"),
        ("``quoted''", "\u201cquoted\u201d"),
        ("D.~E. Knuth", "D. E. Knuth"),
        ("5\\% \\& \\$5 \\# \\_ \\{x\\}", "5% & $5 # _ {x}"),
        ("100% sure", "100% sure"),  # a bare % is not a comment here
        ("\\textbackslash{}emph", "\\emph"),
        ("\\emph{Deep} \\textbf{Nets} \\textsc{Gan}", "Deep Nets Gan"),
        ("\\href{https://x.org}{the site}", "the site"),
        ("\\url{https://x.org/a_b%20c}", "https://x.org/a_b%20c"),
        ("a \\cite{smith} b", "a smith b"),
        ("\\LaTeX{} and \\TeX", "LaTeX and TeX"),
        ("$\\mathcal{O}(n^{2})$ in {$\\alpha$}-nets", "$\\mathcal{O}(n^{2})$ in $\\alpha$-nets"),
        ("$$x_{1}$$", "$$x_{1}$$"),
        ("\\alpha outside math", "\\alpha outside math"),
        ("trailing \\", "trailing \\"),
        ("plain text stays", "plain text stays"),
    ],
)
def test_field_text(latex: str, text: str) -> None:
    assert field_text(latex) == text


def encode(text: str) -> str:
    """Text as a BibTeX writer escapes it: LaTeX's special characters."""
    specials = {
        "\\": "\\textbackslash{}",
        "{": "\\{",
        "}": "\\}",
        "%": "\\%",
        "&": "\\&",
        "$": "\\$",
        "#": "\\#",
        "_": "\\_",
        "~": "\\textasciitilde{}",
        "^": "\\textasciicircum{}",
    }
    return "".join(specials.get(char, char) for char in text)


# Dashes and quote pairs are written by LaTeX's own ligatures (`--`, ``` `` ```), so a
# writer escapes them otherwise; the rest of printable text survives escaping and decoding.
TEXT = st.text(
    alphabet=st.characters(categories=("L", "N", "P", "S", "Zs"), exclude_characters="-`'"),
    max_size=40,
)


@given(TEXT)
def test_escaped_text_decodes_to_itself(text: str) -> None:
    assert field_text(encode(text)) == text


@given(st.text(max_size=60))
def test_any_text_decodes_without_error_and_braces_outside_math_go(text: str) -> None:
    out = field_text(text)
    if "$" not in text and "\\" not in text:
        assert "{" not in out and "}" not in out


@pytest.mark.parametrize("piece", ["{", "}", '\\"', "\\(", "\\a", "\\href", "\\v", "$a\\"])
def test_time_grows_linearly(piece: str) -> None:
    # Four times the text in about four times the time; quadratic work takes sixteen.
    # Each size's best of three runs: noise on a shared machine only ever makes a run slower.
    def seconds(count: int) -> float:
        gc.disable()
        try:
            started = time.perf_counter()
            field_text(piece * count)
            return time.perf_counter() - started
        finally:
            gc.enable()

    # Passing once in three tries is enough: another process's burst can spoil one.
    tries = []
    for _ in range(3):
        small = min(seconds(20_000) for _ in range(3))
        large = min(seconds(80_000) for _ in range(3))
        tries.append((large, small))
        if large < 10 * small + 0.02:
            return
    pytest.fail(f"(4x the text, 1x) in seconds: {tries}")
