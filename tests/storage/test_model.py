"""The shared records and tag normalisation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.model import Entry, Paper, normalise_tag


@pytest.mark.parametrize(
    ("raw", "tag"),
    [
        ("to-read", "to-read"),
        ("#To Read", "to-read"),
        ("+ #x", "x"),
        ("  Deep   Learning ", "deep-learning"),
        ("ça\x1b[2J", "ça[2j"),
    ],
)
def test_normalise_tag(raw, tag):
    assert normalise_tag(raw) == tag


@pytest.mark.parametrize("raw", ["", "   ", "#", "+#+", "\x00\x07", "x" * 65])
def test_unusable_tags_are_refused(raw):
    with pytest.raises(ValueError):
        normalise_tag(raw)


@given(st.text(max_size=40))
def test_normalise_tag_is_idempotent_and_clean(raw):
    try:
        tag = normalise_tag(raw)
    except ValueError:
        return
    assert normalise_tag(tag) == tag
    assert tag and not any(ch.isspace() for ch in tag)
    assert not tag.startswith(("#", "+"))


def test_records_round_trip_through_dicts():
    paper = Paper(
        id="0123456789ab",
        name="X",
        title=None,
        abstract="A.",
        venue="V",
        sources=("a.txt", "b.txt"),
        code_urls=("https://github.com/o/r",),
    )
    assert Paper.from_dict(paper.to_dict()) == paper
    entry = Entry(tags=frozenset({"b", "a"}), status="read", starred=True, note="n")
    assert Entry.from_dict(entry.to_dict()) == entry
    assert Entry().is_default and not entry.is_default


@pytest.mark.parametrize(
    "record",
    [
        {"tags": "abc"},  # a text where the list belongs: not the tags a, b, c
        {"tags": ["ok", 3]},
        {"tags": [""]},
        {"status": "finished"},
        {"status": ["read"]},
        {"starred": "yes"},
        {"starred": 1},
        {"note": None},
        {"note": 5},
        {"updated_at": 20250101},
        "not an object",
    ],
)
def test_an_entry_that_to_dict_cannot_have_written_is_refused(record):
    with pytest.raises(ValueError):
        Entry.from_dict(record)


def test_entry_tags_read_from_a_file_are_normalised():
    assert Entry.from_dict({"tags": ["To Read", "#gnn"]}).tags == {"to-read", "gnn"}


@pytest.mark.parametrize(
    "change",
    [
        {"sources": "abc"},
        {"sources": ["a", None]},
        {"code_urls": "https://github.com/o/r"},
        {"name": 3},
        {"title": ["t"]},
        {"abstract": None},
        {"id": ""},
        {"id": 12},
        {"authors": {"a": 1}},
    ],
)
def test_a_paper_record_of_the_wrong_shape_is_refused(change):
    record = {**Paper("0123456789ab", "X", None, "A.", None, ("a.txt",)).to_dict(), **change}
    with pytest.raises(ValueError):
        Paper.from_dict(record)


def test_a_paper_record_of_an_older_file_takes_defaults():
    paper = Paper.from_dict({"id": "0123456789ab", "name": "X", "abstract": "A."})
    assert paper.sources == () and paper.url is None and paper.title is None
