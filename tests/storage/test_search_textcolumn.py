"""The compact store of folded text (`search.textcolumn.TextColumn`) answers exactly as the
plain lists of strings it replaces: the rows containing a value, the rows with a form starting
with one, and each row's text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.search.textcolumn import TextColumn

# Few characters, so that values occur often; with ones UTF-8 spells in two, three and four
# bytes, the last code point, a lone surrogate, NUL and the newline that joins a row's forms.
CHARACTERS = st.sampled_from(
    ["a", "b", "c", "é", "\u03b5", "\u207b", "\U0001d49e", "\U0010ffff", "\ud800", "\x00", "\n"]
)
texts = st.lists(CHARACTERS, max_size=8).map("".join)
rows = st.lists(st.lists(texts, min_size=1, max_size=3), max_size=12)


def plain_containing(table: list[list[str]], value: str, within: list[int] | None) -> list[int]:
    candidates = range(len(table)) if within is None else within
    return [i for i in candidates if value in "\n".join(table[i])]


def plain_starting(table: list[list[str]], value: str) -> list[int]:
    return sorted({i for i, forms in enumerate(table) for form in forms if form.startswith(value)})


@given(rows, texts, st.booleans(), st.data())
def test_a_column_answers_as_its_strings(
    table: list[list[str]], value: str, compact: bool, data
) -> None:
    column = TextColumn(table, compact)
    assert len(column) == len(table)
    assert [column.row(i) for i in range(len(table))] == ["\n".join(forms) for forms in table]
    assert list(column.containing(value)) == plain_containing(table, value, None)
    within = data.draw(st.lists(st.integers(0, max(len(table) - 1, 0)), unique=True).map(sorted))
    within = within if table else []
    assert list(column.containing(value, within)) == plain_containing(table, value, within)
    assert column.starting(value) == plain_starting(table, value)


@given(rows, st.booleans())
def test_every_piece_of_every_row_is_found(table: list[list[str]], compact: bool) -> None:
    """Each substring of a row (its forms and the newline between them) finds that row."""
    column = TextColumn(table, compact)
    for i, forms in enumerate(table):
        text = "\n".join(forms)
        for start in range(len(text)):
            for end in range(start, len(text) + 1):
                assert i in column.containing(text[start:end])
        for form in forms:
            for end in range(len(form) + 1):
                assert i in column.starting(form[:end])


def test_a_compact_column_is_smaller_than_its_strings() -> None:
    """One buffer and offsets: at most about the UTF-8 text and 40 bytes a row, where a
    string each was ~57 bytes a row and two bytes a character for non-Latin-1 text."""
    table = [[f"graph neural network {i} with ε-greedy"] for i in range(2000)]
    column = TextColumn(table, compact=True)
    column.starting("g")  # the prefix table too
    utf8 = sum(len(forms[0].encode()) for forms in table)
    assert column.nbytes <= utf8 + 40 * len(table)
