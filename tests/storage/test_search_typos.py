"""Typo expansion (issue 14): which tokens a word finds by a typo, weighed against what it
finds as typed (`quality.likely_typos`, `quality.TYPO_ODDS`), on the rule and in the engine."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.model import Paper
from papershelf.storage.search.engine import SearchEngine
from papershelf.storage.search.quality import (
    FUZZY1,
    FUZZY2,
    FUZZY_PREFIX1,
    FUZZY_PREFIX2,
    RARE_TYPO,
    TYPO_ODDS,
    likely_typos,
)

QUALITIES = st.sampled_from([FUZZY1, FUZZY_PREFIX1, FUZZY2, FUZZY_PREFIX2])


def test_an_unknown_word_keeps_every_one_typo_match_and_no_two_typo_one() -> None:
    found = {"transformer": FUZZY1, "transformers": FUZZY_PREFIX1, "transfer": FUZZY2}
    counts = {"transformer": 3, "transformers": 1, "transfer": 900}
    kept = likely_typos(found, 0, counts.__getitem__)
    assert kept == {"transformer": FUZZY1, "transformers": FUZZY_PREFIX1}


def test_an_unknown_word_with_only_two_typo_matches_keeps_them() -> None:
    found = {"transfer": FUZZY2, "transferred": FUZZY_PREFIX2}
    assert likely_typos(found, 0, lambda token: 5) == found


def test_a_known_word_keeps_only_far_more_common_or_rare_one_typo_matches() -> None:
    typed = 7
    counts = {
        "common": TYPO_ODDS * typed,  # exactly the odds: kept
        "nearly": TYPO_ODDS * typed - 1,  # one paper short: dropped
        "rare": RARE_TYPO,  # a misspelling in a paper's text: kept
        "few": RARE_TYPO + 1,  # dropped
        "far": 10_000,  # far more common, but two typos away: dropped
    }
    found = {"common": FUZZY1, "nearly": FUZZY1, "rare": FUZZY1, "few": FUZZY1, "far": FUZZY2}
    assert likely_typos(found, typed, counts.__getitem__) == {"common": FUZZY1, "rare": FUZZY1}


@given(
    st.dictionaries(st.sampled_from("abcdefgh"), QUALITIES, max_size=8),
    st.dictionaries(st.sampled_from("abcdefgh"), st.integers(0, 500)),
    st.integers(0, 60),
)
def test_likely_typos_is_the_rule(
    found: dict[str, int], counts: dict[str, int], typed: int
) -> None:
    # The rule written out: one-typo matches when the word is known or any exist, then, for
    # a known word, only tokens in TYPO_ODDS times its papers or in at most RARE_TYPO.
    def count(token: str) -> int:
        return counts.get(token, 0)

    one = {t: q for t, q in found.items() if q in (FUZZY1, FUZZY_PREFIX1)}
    expected = one if typed or one else dict(found)
    if typed:
        expected = {
            t: q
            for t, q in expected.items()
            if count(t) >= TYPO_ODDS * typed or count(t) <= RARE_TYPO
        }
    assert likely_typos(found, typed, count) == expected


def paper(pid: str, title: str, abstract: str) -> Paper:
    return Paper(id=pid, name=title, title=title, abstract=abstract, venue=None, sources=("t",))


def found(papers: list[Paper], query: str) -> set[str]:
    return {hit.paper_id for hit in SearchEngine(papers).search(query, {})}


def test_a_word_typed_right_does_not_find_a_more_common_word_one_letter_off() -> None:
    # `stage` (2 papers) and `state` (6): a person typing stage means stage; before, a token
    # one typo away was searched for whenever it was at least as common as the word.
    papers = [
        paper("stage1", "Two stage detectors", "A first stage proposes boxes."),
        paper("stage2", "Multi stage training", "Each stage trains a head."),
        *(paper(f"state{i}", f"Belief state {i}", "The state of the agent.") for i in range(6)),
    ]
    assert found(papers, "stage") == {"stage1", "stage2"}
    assert found(papers, "stage") == found(papers, "stage")  # the rule is not a cache effect


def test_a_word_that_starts_tokens_is_not_read_as_a_typo_of_a_prefix() -> None:
    # `count` (counts, counting) is one typo from the prefix `cont` of contextual and
    # contrast, both more common: not searched for.
    papers = [
        paper("counts", "Region counts", "We count linear regions."),
        paper("counting", "Counting objects", "Object counting in images."),
        *(paper(f"ctx{i}", f"Contextual bandits {i}", "A contrastive loss.") for i in range(8)),
    ]
    assert found(papers, "count") == {"counts", "counting"}


def test_a_word_in_few_papers_finds_a_far_more_common_one_typo_away() -> None:
    # `shard` in one paper, `shared` in TYPO_ODDS: `shard` is likely shared mistyped.
    papers = [
        paper("shard", "Database shard placement", "Each shard holds rows."),
        *(
            paper(f"shared{i}", f"Shared encoders {i}", "A shared backbone.")
            for i in range(TYPO_ODDS)
        ),
    ]
    assert found(papers, "shard") == {"shard", *(f"shared{i}" for i in range(TYPO_ODDS))}
    # One paper fewer holding `shared`: under the odds, `shard` means itself.
    assert found(papers[:-1], "shard") == {"shard"}


def test_a_field_key_weighs_typos_against_the_word_in_every_field() -> None:
    # `shard` is in 3 abstracts and no title; `shared` in 10 titles, under TYPO_ODDS x 3.
    # `title:shard` counts the word's papers over name, title and abstract as `shard` does, so
    # it finds a subset of what `shard` finds (before, counted in titles only, it would take
    # every "Shared" title for a typo while `shard` alone did not).
    papers = [
        *(paper(f"shard{i}", f"Databases {i}", "Each shard holds rows.") for i in range(3)),
        *(paper(f"shared{i}", f"Shared encoders {i}", "A backbone.") for i in range(10)),
    ]
    assert found(papers, "shard") == {"shard0", "shard1", "shard2"}
    assert found(papers, "title:shard") == set()
