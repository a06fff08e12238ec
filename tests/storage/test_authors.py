"""Authors as shown: family names, the short list (`Vaswani, Shazeer, … +6`), the full line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.search.highlight import author_spans
from papershelf.storage.text.authors import (
    FAMILY_MAX,
    authors_short,
    authors_text,
    display_name,
    family_name,
)

ATTENTION = (
    "Ashish Vaswani",
    "Noam Shazeer",
    "Niki Parmar",
    "Jakob Uszkoreit",
    "Llion Jones",
    "Aidan N. Gomez",
    "Łukasz Kaiser",
    "Illia Polosukhin",
)


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("Ashish Vaswani", "Vaswani"),
        ("Vaswani, Ashish", "Vaswani"),
        ("A. Vaswani", "Vaswani"),
        ("Diederik P. Kingma", "Kingma"),
        ("Jean-Luc van der Berg", "van der Berg"),
        ("van der Berg, Jean-Luc", "van der Berg"),
        ("Aäron van den Oord", "van den Oord"),
        ("Plato", "Plato"),
        ("Martin Luther King Jr.", "King"),
        ("Martin Luther King, Jr.", "King"),
        ("King, Jr., Martin Luther", "King"),
        ("John Smith III", "Smith"),
        ("{OpenAI}", "OpenAI"),
        ("{Google DeepMind}", "Google DeepMind"),
        ("张伟", "张伟"),
        (", Ashish", "Ashish"),
        ("Vaswani,", "Vaswani"),
        ("  Ashish \t  Vaswani  ", "Vaswani"),
        ("Jr.", "Jr."),  # a suffix alone is all the name there is
        ("{}", "{}"),  # nothing to parse: the name as it is
        (",", ","),
        ("", ""),
        ("   ", ""),
        ("\x1b\x07", ""),
    ],
)
def test_family_name(name: str, family: str) -> None:
    assert family_name(name) == family


def test_the_short_list_names_the_first_and_counts_the_rest() -> None:
    assert authors_short(ATTENTION) == "Vaswani, Shazeer, … +6"
    assert authors_short(ATTENTION[:3]) == "Vaswani, Shazeer, Parmar"
    assert authors_short(ATTENTION[:4]) == "Vaswani, Shazeer, … +2"
    assert authors_short(ATTENTION[:1]) == "Vaswani"
    assert authors_short(()) == ""
    assert authors_short(ATTENTION, limit=5) == "Vaswani, Shazeer, Parmar, Uszkoreit, … +4"
    assert authors_short(ATTENTION, limit=8) == ", ".join(
        ["Vaswani", "Shazeer", "Parmar", "Uszkoreit", "Jones", "Gomez", "Kaiser", "Polosukhin"]
    )


def test_a_limit_below_two_still_shows_a_name() -> None:
    assert authors_short(ATTENTION, limit=1) == "Vaswani, … +7"
    assert authors_short(ATTENTION, limit=0) == "Vaswani, … +7"
    assert authors_short(ATTENTION, limit=-5) == "Vaswani, … +7"
    assert authors_short(ATTENTION[:2], limit=1) == "Vaswani, Shazeer"


def test_names_without_text_are_not_counted() -> None:
    assert authors_short(["", "Ashish Vaswani", "  ", "\x1b", "Noam Shazeer"]) == (
        "Vaswani, Shazeer"
    )
    assert authors_short(["Ashish Vaswani", "", "", "", "Noam Shazeer"], limit=2) == (
        "Vaswani, Shazeer"
    )


def test_a_collaboration_is_counted() -> None:
    many = [f"Author Number{i}" for i in range(3000)]
    assert authors_short(many) == "Number0, Number1, … +2998"


def test_hostile_names_are_shown_literally_and_cleanly() -> None:
    assert authors_short(["[bold]Mallory[/bold] Markup", "\x1b[31mEve\x1b[0m Escape"]) == (
        "Markup, Escape"
    )
    assert family_name("Mallory [bold]Markup[/]") == "[bold]Markup[/]"
    assert family_name("Eve \x1b[2J\x1b]0;title\x07Escape") == "Escape"  # the sequences go whole
    long = "Q" * 10_000
    assert family_name(f"Ann {long}") == "Q" * (FAMILY_MAX - 1) + "…"
    assert len(authors_short([long, long, long, long])) < 3 * FAMILY_MAX


def test_the_full_line_keeps_every_name_as_written() -> None:
    assert authors_text(ATTENTION[:2]) == "Ashish Vaswani, Noam Shazeer"
    assert authors_text(()) == ""


# Names of the characters names are parsed by (commas, braces, suffixes), and anything else.
NAMES = st.lists(
    st.text(max_size=30)
    | st.lists(
        st.sampled_from(["Ann", "van", "Jr.", ",", "{", "}", " ", "\x1b", "Ö", "\u3000", "\u200e"])
    ).map("".join),
    max_size=12,
)


def _control(ch: str) -> bool:
    return ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0


@given(NAMES, st.integers(min_value=-3, max_value=12))
def test_the_short_list_is_never_longer_than_needed(names: list[str], limit: int) -> None:
    short = authors_short(names, limit)
    families = [family for family in map(family_name, names) if family]
    assert not any(_control(ch) for ch in short)
    assert "\n" not in short
    if len(families) <= max(2, limit):
        # Everything fits: every family name, nothing counted.
        assert short == ", ".join(families)
    else:
        shown = max(2, limit) - 1
        assert short == ", ".join([*families[:shown], f"… +{len(families) - shown}"])
        # Never longer than the names it stands for would be.
        assert len(short) <= len(", ".join(families)) + len(f", … +{len(families)}")


@given(st.text())
def test_a_family_name_is_one_clean_line_from_the_name(name: str) -> None:
    family = family_name(name)
    assert not any(_control(ch) for ch in family)
    assert family == family.strip()
    assert "  " not in family and "\t" not in family
    assert len(family) <= FAMILY_MAX


# -- the forms a BibTeX import keeps (corporate names braced whole, von Last, Jr, First) --------

BIBTEX_FORMS = (
    "{Google DeepMind}",
    "van der Maaten, Laurens",
    "King, Jr., Martin Luther",
    "Garcia Lopez, Maria",
    "Juan de la Cruz",
)


def test_a_corporate_name_is_shown_without_its_braces() -> None:
    assert display_name("{Google DeepMind}") == "Google DeepMind"
    assert display_name("{OpenAI}") == "OpenAI"
    # Only a name braced whole: braces inside, or one pair that is not the whole, stay.
    assert display_name("{a} and {b}") == "{a} and {b}"
    assert display_name("Vaswani, Ashish") == "Vaswani, Ashish"
    assert display_name("{}") == "{}"
    assert authors_text(BIBTEX_FORMS) == (
        "Google DeepMind, van der Maaten, Laurens, King, Jr., Martin Luther, "
        "Garcia Lopez, Maria, Juan de la Cruz"
    )


def test_every_form_a_bibtex_import_keeps_has_its_family_name() -> None:
    assert [family_name(name) for name in BIBTEX_FORMS] == [
        "Google DeepMind",
        "van der Maaten",
        "King",
        "Garcia Lopez",
        "de la Cruz",
    ]
    assert authors_short(BIBTEX_FORMS) == "Google DeepMind, van der Maaten, … +3"


def test_author_spans_cut_the_shown_text_at_a_corporate_name() -> None:
    text = authors_text(BIBTEX_FORMS[:2])  # "Google DeepMind, van der Maaten, Laurens"
    start = text.index("Maaten")
    spans = author_spans(BIBTEX_FORMS[:2], ((start, start + 6), (0, 6)))
    assert spans == (((0, 6),), ((8, 14),))
    assert display_name(BIBTEX_FORMS[1])[8:14] == "Maaten"
