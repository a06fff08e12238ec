"""Ranking rules of issue 14 on small hand-made libraries: idf, a repeated abstract word, and
the typo matches a person likely meant (`quality.likely_typos`)."""

from __future__ import annotations

from papershelf.storage.model import Paper
from papershelf.storage.search.engine import SearchEngine


def paper(pid: str, title: str, abstract: str) -> Paper:
    return Paper(
        id=pid,
        name=title.split()[0],
        title=title,
        abstract=abstract,
        venue=None,
        sources=("t.txt",),
    )


FILLER = [
    paper(f"f{i}", f"Benchmark {i} for vision", f"A new dataset of {i} images and labels.")
    for i in range(8)
]


def ranked(papers: list[Paper], query: str) -> list[str]:
    return [hit.paper_id for hit in SearchEngine(papers).search(query, {})]


def test_a_rare_word_in_the_title_beats_a_common_one() -> None:
    papers = [
        paper("common", "A dataset of preferences", "Collected for rlhf of chat models."),
        paper("rare", "Scaling rlhf to many raters", "We release a dataset of ratings."),
        *FILLER,  # `dataset` is in every abstract; `rlhf` in two papers
    ]
    assert ranked(papers, "dataset rlhf")[:2] == ["rare", "common"]


def test_an_abstract_that_repeats_the_word_ranks_first() -> None:
    papers = [
        paper("once", "Message passing", "A graph of molecules, with learned message functions."),
        paper("twice", "Message passing", "Each graph node sends messages along graph edges."),
    ]
    assert ranked(papers, "graph") == ["twice", "once"]


def test_a_typo_finds_the_word_one_edit_away_not_another_two_away() -> None:
    papers = [
        paper("transfer", "Transfer learning for robots", "We transfer policies across arms."),
        paper("transformer", "A transformer for proteins", "Attention over residues."),
    ]
    assert ranked(papers, "transfomer") == ["transformer"]
    assert ranked(papers, "transformer") == ["transformer"]


def test_a_correct_word_finds_no_rarer_word_one_letter_off_but_misspellings() -> None:
    papers = [
        paper("model", "A model of speech", "The model predicts phonemes."),
        paper("modal", "Modal logic provers", "Modal operators for proofs."),
        paper("modal2", "Modal fusion", "Modal inputs are fused."),
        paper("modal3", "Modal gaps", "Across the modal divide."),
        paper("model2", "A model of vision", "The model sees."),
        paper("model3", "A model of touch", "The model feels."),
        paper("model4", "A model of taste", "The model tastes."),
        paper("typo", "Speech recognition", "Our mdoel is small."),
    ]
    found = set(ranked(papers, "model"))
    assert not found & {"modal", "modal2", "modal3"}  # a common word of its own
    assert {"model", "model2", "model3", "model4", "typo"} <= found  # mdoel: a paper's typo
    assert set(ranked(papers, "modle")) >= {"model", "model2"}  # the user's typo: found


def test_of_two_abstracts_holding_the_words_the_shorter_ranks_first() -> None:
    # BM25's length normalisation: the same two words say more in a short abstract.
    long = "Sparse probes of the attention heads. " + "We run many further studies here. " * 12
    papers = [
        paper("long", "Interpreting models", long),
        paper("short", "Interpreting networks", "Sparse probes of attention heads."),
        *FILLER,
    ]
    assert ranked(papers, "sparse probes")[:2] == ["short", "long"]


def test_a_finished_word_means_itself_before_its_longer_forms() -> None:
    # `train` followed by another word is finished: an abstract about a train (said twice)
    # beats a title's "Training"; the last word typed may still grow (`trai`).
    papers = [
        paper("training", "Training robots fast", "Robots learn to walk on legs."),
        paper("train", "Robots on rails", "Robots ride a train; the train is fast."),
        *FILLER,
    ]
    assert ranked(papers, "train robots")[:2] == ["train", "training"]
    assert ranked(papers, "robots trai")[:2] == ["training", "train"]


def test_a_prefix_scores_its_rarer_completion_higher() -> None:
    # `conv` cut short: the paper with the rare completion (convexity, once) before the one
    # with the common one (convolution, in many abstracts).
    common = [
        paper(f"c{i}", f"Vision {i}", f"A convolution network for images, number {i}.")
        for i in range(6)
    ]
    papers = [
        *common,
        paper("usual", "Optimisation in practice", "Landscapes of a convolution network."),
        paper("rare", "Optimisation in theory", "On the convexity of loss landscapes."),
    ]
    assert ranked(papers, "landscapes conv")[:2] == ["rare", "usual"]
