"""Short author lists (`Vaswani, Shazeer, … +6`) and family names."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.text.authors import authors_short, family_name

TRANSFORMER = (
    "Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit",
    "Llion Jones", "Aidan N. Gomez", "Łukasz Kaiser", "Illia Polosukhin",
)  # fmt: skip


def test_a_long_list_names_the_first_and_counts_the_rest() -> None:
    assert authors_short(TRANSFORMER) == "Vaswani, Shazeer, … +6"
    assert authors_short(TRANSFORMER[:3]) == "Vaswani, Shazeer, Parmar"
    assert authors_short(TRANSFORMER[:4]) == "Vaswani, Shazeer, … +2"
    assert authors_short(TRANSFORMER, limit=1) == "Vaswani, … +7"
    assert authors_short(()) == ""
    assert authors_short(("", "  ", "Lee, Ann")) == "Lee"


def test_family_names_as_sources_write_them() -> None:
    assert family_name("Vaswani, Ashish") == "Vaswani"
    assert family_name("Guido van Rossum") == "van Rossum"
    assert family_name("Martin Luther King Jr.") == "King"
    assert family_name("{OpenAI}") == "OpenAI"
    assert family_name("Plato") == "Plato"
    assert family_name("  Ann   Lee ") == "Lee"


@given(st.lists(st.text(max_size=12), max_size=12), st.integers(min_value=1, max_value=6))
def test_never_more_than_limit_names(authors: list[str], limit: int) -> None:
    text = authors_short(authors, limit)
    shown = text.split(", … +")[0]
    named = [name for name in authors if family_name(name) and name.strip()]
    if len(named) <= limit:
        assert "… +" not in text
    else:
        count = int(text.rsplit("+", 1)[1])
        assert count == len(named) - max(limit - 1, 1)
        assert shown.count(", ") <= limit - 1 or limit == 1
