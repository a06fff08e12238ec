"""A name in quotes right after a cue, set off after its closing quote (words.SET_OFF), in
abstracts written for these tests: 'we introduce "Zebra", a solver ...'."""

from __future__ import annotations

import pytest

from papershelf.storage.names.derive import method_name


@pytest.mark.parametrize("quoted", ["'Zebra'", '"Zebra"', "\u201cZebra\u201d", "\u2018Zebra\u2019"])
def test_a_quoted_name_set_off_after_its_quote_is_named(quoted: str) -> None:
    abstract = f"Routing is slow. We introduce {quoted}, a solver for routing. It is fast."
    assert method_name(abstract) == "Zebra"


def test_a_quoted_capitalised_phrase_is_named() -> None:
    abstract = 'Planning is hard. We present the "Belief Map Planner": a planner that maps.'
    assert method_name(abstract) == "Belief Map Planner"


def test_a_quoted_ordinary_word_without_a_set_off_is_no_name() -> None:
    abstract = 'Routing is slow. We introduce "Good" solvers that route. They are fast.'
    assert method_name(abstract) is None
