"""Names an opening clause puts before "is a" (storage/names/opening.py), in abstracts written
for these tests: "To this end, NAME is a ...", "In this work, NAME is an ..."."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.names.derive import method_name
from papershelf.storage.names.opening import opening_clause_names


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "Tensor parallelism leaves hardware idle.Towards mitigating this, Tidewell is an "
            "evolution of the standard Transformer. Tidewell overlaps the two phases.",
            "Tidewell",
        ),
        (
            "Retrieval is slow. To this end, LexiRank is a ranking system for legal documents "
            "that reads citations.",
            "LexiRank",
        ),
        ("In this work, GraphMosaic-2 is a framework for tiling graphs.", "GraphMosaic-2"),
    ],
)
def test_a_name_after_an_opening_clause_is_named(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


@pytest.mark.parametrize(
    "abstract",
    [
        "In addition, this is a hard problem for most planners.",
        "In practice, Adam is an optimizer that most people tune by hand.",  # said once
        # A long clause is a sentence of its own, not an opening: no name.
        "When the data are scarce and the labels noisy and the budget small and fixed, Ridge "
        "is a baseline. Ridge wins.",
        "We compare with many baselines, and Ridge is a strong one. Ridge wins.",
        # One adverb opens an explanation of a known concept, not the paper's own name.
        "Intuitively, VC-dimension is a measure of the size of a class. The VC-dimension of ...",
    ],
)
def test_no_name_without_a_short_opening_clause(abstract: str) -> None:
    assert opening_clause_names(abstract) == []


@given(st.text(alphabet="abc XYZ,.-", max_size=80))
def test_every_name_found_is_in_the_text_before_is_a(text: str) -> None:
    for _, position, name in opening_clause_names(text):
        assert text.startswith(name, position)
        assert text.find(" is a", position) == position + len(name)
