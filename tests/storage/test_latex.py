"""Display text: LaTeX math to Unicode, Markdown emphasis to styles (storage/text/latex.py)."""

# The expected values are Unicode math symbols on purpose (script C, tilde operator, alpha).
# ruff: noqa: RUF001

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.text.latex import display_text, latex_to_unicode

SEEDS = sorted((Path(__file__).resolve().parents[2] / "seeds").glob("*.txt"))

# Every distinct $...$ span in the seeds and what a reader should see.
SEED_SPANS = {
    r"$ \mathcal{C} $": "𝒞",
    r"$(1+\varepsilon)$": "(1+ε)",
    r"$3\sim10\%$": "3∼10%",
    r"$72.0 \pm 5.9$": "72.0 ± 5.9",
    r"$79.6 \pm 5.2$": "79.6 ± 5.2",
    r"$L^p$": "Lᵖ",
    r"$\alpha$": "α",
    r"$\beta$": "β",
    r"$\ell^{1}$": "ℓ¹",
    r"$\sim$": "∼",
    r"$\textbf{STRING}$": "STRING",
    r"$\textbf{exact}$": "exact",
    r"$\texttt{LIFT}$": "LIFT",
    r"$\tilde\Omega(\sqrt{m})$": "Ω̃(√m)",
    r"$\widetilde{\mathcal{O}}(\epsilon^{-3})$": "Õ(ε⁻³)",
    r"$\widetilde{\mathcal{O}}(\epsilon^{-5})$": "Õ(ε⁻⁵)",
    r"$^2$": "²",
    r"$k$": "k",
    r"$k\ll m$": "k ≪ m",
    r"$m$": "m",
}


def test_every_seed_span_is_listed() -> None:
    spans = {span for path in SEEDS for span in re.findall(r"\$[^$]*\$", path.read_text())}
    assert spans == set(SEED_SPANS)


@pytest.mark.parametrize(("span", "shown"), SEED_SPANS.items())
def test_seed_span(span: str, shown: str) -> None:
    assert latex_to_unicode(span) == shown
    assert display_text(span).text == shown


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("K$^2$IE", "K²IE"),
        ("$\\ell^{1}$-*path-metric*", "ℓ¹-*path-metric*"),
        ("nearly 100\\% accuracy, $\\sim$30 samples", "nearly 100% accuracy, ∼30 samples"),
        ("costs $5 million and $10 million", "costs $5 million and $10 million"),
        ("a lone $ sign", "a lone $ sign"),
        ("price \\$5 and $x$", "price $5 and x"),
        ("$\\frac{a+b}{2}$ and $x_{ij}^{2}$", "(a+b)/2 and xᵢⱼ²"),
        ("$\\mathbb{R}^d$, $O(n \\log n)$", "ℝᵈ, O(n log n)"),
        ("$x^{\\top} W_{q}$", "x^⊤ W_q"),
        ("$\\unknownmacro{x}$ stays", "$\\unknownmacro{x}$ stays"),
        ("$\\frac{1}{$ broken", "$\\frac{1}{$ broken"),
        ("$}{$ braces", "$}{$ braces"),
        ("score---not density", "score—not density"),
        ("$$E = mc^2$$", "E = mc²"),
    ],
)
def test_latex_to_unicode(text: str, shown: str) -> None:
    assert latex_to_unicode(text) == shown


def spans(text: str) -> list[tuple[str, str]]:
    display = display_text(text)
    return [(display.text[start:end], style) for start, end, style in display.styles]


def test_emphasis_styles() -> None:
    display = display_text("A **bold** and *it* and _under_ word.")
    assert display.text == "A bold and it and under word."
    assert spans("A **bold** and *it* and _under_ word.") == [
        ("bold", "bold"),
        ("it", "italic"),
        ("under", "italic"),
    ]


def test_emphasis_not_inside_words_math_or_urls() -> None:
    text = "snake_case_name and $a_b_c$ and https://x.org/_a_/b*c*d and 2 * 3 * 4"
    display = display_text(text)
    assert display.styles == ()
    assert display.text == "snake_case_name and a_b_c and https://x.org/_a_/b*c*d and 2 * 3 * 4"


def test_emphasis_around_math_and_inside_words() -> None:
    assert spans("**LEVIS-$\\alpha$** wins") == [("LEVIS-α", "bold")]
    assert display_text("**N**eural **C**ollapse").text == "Neural Collapse"
    assert spans("*Policy gradient* (PG)") == [("Policy gradient", "italic")]


@pytest.mark.parametrize(
    "text",
    [
        "We propose ToolChain*, an A* search method.",
        "Diff-Instruct*(DI*), a distillation method.",
        "the \\begin{equation*} environment",
        "(ER Decay)*, and then *, alone",
    ],
)
def test_a_star_beside_punctuation_that_cannot_open_or_close_is_kept(text: str) -> None:
    # CommonMark's flanking rules: a `*` before punctuation opens only after a space or
    # punctuation; a `*` after punctuation closes only before one.
    display = display_text(text)
    assert display.styles == ()
    assert display.text.count("*") == text.count("*")


def test_stars_that_flank_words_are_still_emphasis() -> None:
    assert spans("named *D*istributional *A*dversarial defence") == [
        ("D", "italic"),
        ("A", "italic"),
    ]
    assert spans("*Experience Replay Decay (ER Decay)*\u2014forgetting") == [
        ("Experience Replay Decay (ER Decay)", "italic")
    ]
    assert spans("a *novel*, simple method") == [("novel", "italic")]
    assert spans("(*in brackets*)") == [("in brackets", "italic")]


def test_styled_math() -> None:
    assert spans("We use $\\texttt{LIFT}$ and $\\textbf{STRING}$.") == [
        ("LIFT", "code"),
        ("STRING", "bold"),
    ]


def test_markup_like_text_is_kept() -> None:
    text = "Predict [MASK] and [/] tokens [bold]x[/bold]."
    assert display_text(text).text == text


def test_seed_abstracts_display_quickly_and_cleanly() -> None:
    for path in SEEDS:
        for paragraph in path.read_text().split("\n\n")[1:]:
            shown = display_text(paragraph).text
            assert "$" not in shown and "**" not in shown and "\\" not in shown


@given(st.text(alphabet=st.sampled_from(list("ab $\\^_{}*`x\x00\x1b\u202e\n\t")), max_size=60))
def test_display_text_never_raises_and_spans_fit(text: str) -> None:
    display = display_text(text)
    assert all(unicodedata.category(ch) != "Cc" or ch == "\n" for ch in display.text), display.text
    for start, end, style in display.styles:
        assert 0 <= start < end <= len(display.text)
        assert style in ("bold", "italic", "code")


@given(st.text(max_size=80))
def test_latex_to_unicode_never_raises(text: str) -> None:
    assert isinstance(latex_to_unicode(text), str)
