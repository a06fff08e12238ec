"""A text command inside another ("\\underline{\\textbf{L}}earnable") and \\textsf are shown as
their text (storage/text/latex.py): no command is left for the reader, search or names.

Every abstract here is written for the test.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.names.derive import method_name
from papershelf.storage.text.latex import display_text, latex_to_unicode


def test_a_letter_marked_by_two_commands_is_shown_bold_inside_its_word() -> None:
    shown = display_text(r"A \underline{\textbf{S}}parse \underline{\textbf{Ro}}uter (SRo).")
    assert shown.text == "A Sparse Router (SRo)."
    assert [shown.text[start:end] for start, end, _ in shown.styles] == ["S", "Ro"]
    assert {style for _, _, style in shown.styles} == {"bold"}


def test_an_outer_style_wins_and_inner_commands_leave_their_text() -> None:
    shown = display_text(r"See \textbf{a \emph{fast} solver} and \underline{x\texttt{y}z}.")
    assert shown.text == "See a fast solver and xyz."
    assert shown.styles == ((4, 17, "bold"),)
    assert latex_to_unicode(r"\textsf{PARL} is \underline{\textbf{new}}") == "PARL is new"


@pytest.mark.parametrize(
    "abstract",
    [
        r"We improve the Dense Gate Router (DGR) with \underline{\textbf{S}}parse "
        r"\underline{\textbf{Ro}}uting \underline{\textbf{G}}ates (SRoG). DGR is slow, and DGR "
        "is brittle.",
        # Before: the outer command's "{Ro}" left the fragment "Ro" standing as a name.
        r"The DGR is slow. We propose to replace it by \underline{\textbf{S}}parse "
        r"\underline{\textbf{Ro}}uting \underline{\textbf{G}}ates (SRoG), a module that routes "
        "tokens.",
    ],
)
def test_marked_letters_under_two_commands_name_their_acronym(abstract: str) -> None:
    assert method_name(abstract) == "SRoG"


_COMMANDS = st.sampled_from(["textbf", "textit", "emph", "texttt", "textsf", "underline"])
_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(_COMMANDS, _COMMANDS, _WORD, _WORD, _WORD)
def test_no_command_of_two_nested_is_left_in_the_text(
    outer: str, inner: str, before: str, middle: str, after: str
) -> None:
    source = f"x \\{outer}{{{before}\\{inner}{{{middle}}}{after}}} y"
    assert display_text(source).text == f"x {before}{middle}{after} y"
    assert latex_to_unicode(source) == f"x {before}{middle}{after} y"
