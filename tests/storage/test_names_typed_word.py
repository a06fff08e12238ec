"""One capitalised word and its kind after a lead cue, said again (phrases.typed_phrase), in
abstracts written for these tests: "we present the Zebra algorithm ... Zebra is fast"."""

from __future__ import annotations

from papershelf.storage.names.derive import method_name


def test_a_capitalised_word_and_its_kind_said_again_is_named() -> None:
    abstract = (
        "Routing is slow. In this paper we present the Zebra algorithm for routing. Zebra is fast."
    )
    assert method_name(abstract) == "Zebra"


def test_a_capitalised_word_and_its_kind_said_once_is_no_name() -> None:
    # Said once, it may be another's work the paper presents or uses.
    abstract = "Control is hard. In this paper we present the Bellman operator for games."
    assert method_name(abstract) is None
