"""The shared records and tag normalisation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage.model import Entry, Paper, normalise_tag


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
    assert Entry.from_dict({"status": "finished"}).status == "unread"
    assert Entry().is_default and not entry.is_default
