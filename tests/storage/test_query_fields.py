"""Parsing the field terms: `author:`, `title:`, `name:`, `abstract:` and `year:`."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.errors import QueryError
from papershelf.storage.search.parse import (
    FIELD_KEYS,
    MAX_YEAR,
    MIN_YEAR,
    Term,
    parse_query,
)


def only(text: str) -> Term:
    """The one term of a one-word query."""
    query = parse_query(text)
    assert len(query.clauses) == 1 and len(query.clauses[0]) == 1, query
    return query.clauses[0][0]


@pytest.mark.parametrize(
    ("text", "kind", "value", "fields"),
    [
        ("author:vaswani", "word", "vaswani", ("authors",)),
        ("authors:Vaswani", "word", "vaswani", ("authors",)),
        ("AUTHOR:vaswani", "word", "vaswani", ("authors",)),
        ("author:Müller", "word", "muller", ("authors",)),  # folded: accents and case
        ("author:Łukasz", "word", "lukasz", ("authors",)),  # and strokes
        ("author:SØREN", "word", "soren", ("authors",)),
        ("author:sohl-dickstein", "word", "sohl-dickstein", ("authors",)),
        ("author:'garcía", "exact", "garcia", ("authors",)),
        ("author:^ashish", "prefix", "ashish", ("authors",)),
        ('author:"ashish vaswani"', "exact", "ashish vaswani", ("authors",)),
        ("title:diffusion", "word", "diffusion", ("name", "title")),
        ("title:^mitig", "prefix", "mitig", ("name", "title")),
        ("name:mctd", "word", "mctd", ("name",)),
        ("abstract:'diffusion", "exact", "diffusion", ("abstract",)),
        ("abstract:transformer", "word", "transformer", ("abstract",)),
    ],
)
def test_a_field_key_makes_a_text_term_looking_in_its_fields(
    text: str, kind: str, value: str, fields: tuple[str, ...]
) -> None:
    term = only(text)
    assert (term.kind, term.value, term.fields, term.negated) == (kind, value, fields, False)
    assert not parse_query(text).errors


def test_a_field_word_has_the_tokens_of_the_same_bare_word() -> None:
    assert only("author:sohl-dickstein").tokens == ("sohl", "dickstein")
    assert only("title:gpt-4").tokens == only("gpt-4").tokens == ("gpt", "4")


@pytest.mark.parametrize("text", ["!author:shazeer", "author:!shazeer"])
def test_a_field_term_is_negated_before_or_after_the_key(text: str) -> None:
    term = only(text)
    assert (term.kind, term.value, term.fields, term.negated) == (
        "word",
        "shazeer",
        ("authors",),
        True,
    )


def test_bare_alternatives_after_a_field_key_stay_in_its_fields() -> None:
    (clause,) = parse_query("author:vaswani|shazeer|^noam").clauses
    assert [(t.kind, t.value, t.fields) for t in clause] == [
        ("word", "vaswani", ("authors",)),
        ("word", "shazeer", ("authors",)),
        ("prefix", "noam", ("authors",)),
    ]
    (clause,) = parse_query('author:"ashish vaswani"|"noam shazeer"').clauses
    assert [(t.kind, t.value, t.fields) for t in clause] == [
        ("exact", "ashish vaswani", ("authors",)),
        ("exact", "noam shazeer", ("authors",)),
    ]
    (clause,) = parse_query("author:vaswani|title:attention").clauses
    assert [t.fields for t in clause] == [("authors",), ("name", "title")]


def test_a_word_without_a_key_looks_everywhere_and_unknown_keys_stay_words() -> None:
    assert only("vaswani").fields == ()
    term = only("foo:bar")
    assert (term.kind, term.tokens, term.fields) == ("word", ("foo", "bar"), ())


@pytest.mark.parametrize("text", ["author:", "title:", "!abstract:", "year:", "year:..", "year:."])
def test_a_key_with_nothing_after_it_yet_is_ignored(text: str) -> None:
    query = parse_query(text)
    assert query.is_empty and not query.errors


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("year:2024", (2024, 2024)),
        ("YEAR:2024", (2024, 2024)),
        ("year:2023..2025", (2023, 2025)),
        ("year:2020..", (2020, MAX_YEAR)),
        ("year:..2019", (MIN_YEAR, 2019)),
        ("year:2020.", (2020, MAX_YEAR)),  # on the way to `2020..`
        ("year:202", (2020, 2029)),  # fewer digits: every year they start
        ("year:2", (2000, 2999)),
        ("year:199..2001", (1990, 2001)),
        ("year:2024..2024", (2024, 2024)),
    ],
)
def test_years_and_ranges(text: str, years: tuple[int, int]) -> None:
    term = only(text)
    assert (term.kind, term.years) == ("year", years)
    assert not parse_query(text).errors


def test_year_alternatives_repeat_the_key() -> None:
    (clause,) = parse_query("year:2017|2024..").clauses
    assert [t.years for t in clause] == [(2017, 2017), (2024, MAX_YEAR)]


@pytest.mark.parametrize(
    "value", ["abc", "20x4", "20245", "2024...2025", "2023..2024..2025", "-2024", "2024-2025"]
)
def test_a_value_that_is_no_year_is_one_clear_error(value: str) -> None:
    query = parse_query(f"year:{value} diffusion")
    assert query.errors == (
        f"unknown year: value {value!r} (use a year like 2024, or a range: 2023..2025, "
        "2020.., ..2019)",
    )
    assert query.clauses[0][0].years is None  # matches nothing
    with pytest.raises(QueryError) as raised:
        query.check()
    assert "\n" not in str(raised.value)


def test_a_backwards_range_is_an_error_that_says_the_right_way() -> None:
    query = parse_query("year:2025..2023")
    assert query.errors == ("year range '2025..2023' runs backwards (use 2023..2025)",)
    assert only("year:2025..2023").years is None


@given(st.integers(0, 9999), st.integers(0, 9999))
def test_any_two_years_make_a_range_or_one_error(low: int, high: int) -> None:
    query = parse_query(f"year:{low:04d}..{high:04d}")  # four digits: years, not prefixes
    term = query.clauses[0][0]
    if low <= high:
        assert term.years == (low, high) and not query.errors
    else:
        assert term.years is None and len(query.errors) == 1


@given(st.text(alphabet="0123456789.-x:", max_size=12))
def test_any_year_value_is_a_range_or_one_error(value: str) -> None:
    query = parse_query(f"year:{value}")
    if query.is_empty:
        assert not query.errors and value.strip(".") == ""
        return
    (term,) = query.clauses[0]
    assert term.kind == "year"
    if term.years is None:
        assert len(query.errors) == 1
    else:
        first, last = term.years
        assert MIN_YEAR <= first <= last <= MAX_YEAR and not query.errors


@given(
    st.sampled_from(sorted(FIELD_KEYS)),
    st.text(alphabet=st.characters(categories=("L", "N")), min_size=1, max_size=10),
    st.booleans(),
)
def test_a_field_word_is_the_bare_word_restricted_to_the_key_fields(
    key: str, word: str, negated: bool
) -> None:
    bare = parse_query(("!" if negated else "") + word)
    field = parse_query(f"{'!' if negated else ''}{key}:{word}")
    if bare.is_empty:
        assert field.is_empty
        return
    (bare_term,) = bare.clauses[0]
    (field_term,) = field.clauses[0]
    assert field_term.fields == FIELD_KEYS[key]
    assert (field_term.kind, field_term.value, field_term.tokens, field_term.negated) == (
        bare_term.kind,
        bare_term.value,
        bare_term.tokens,
        bare_term.negated,
    )
