"""bench/bench_names.py's selection: a paper counts when its abstract states the title's short
name as a name, not only inside a longer word or as ordinary English words (hand-made text)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.library.library import fold_name

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_names import Case, earlier_states_name, load, states_name, verdict  # noqa: E402

STATED = [
    ("Falcon", "Here we introduce Falcon, a fast planner."),
    ("Falcon", "Code: https://github.com/lab/falcon"),  # a URL named after it
    ("GSTM", "we propose the gstm layer"),  # not ordinary words: any case counts
    ("Win-Win", "hence the name of our method: Win-Win. We then test it."),
    ("Model Equality Testing", "We formalize this as Model Equality Testing, a test."),
    ("Particle Guidance", "We propose particle guidance, an extension of sampling."),
    ("Motion Guidance", "To this end, we propose _motion guidance_, a technique."),
    ("Shadow Cones", 'Here, we introduce the ``shadow cones" framework.'),
    ("Abstract Reward Processes", "models which we call abstract reward processes (ARPs)."),
    ("Catastrophic Goodhart", "a phenomenon we call catastrophic Goodhart. We adapt it."),
    ("Context Inversion", "We call this phenomenon as the context inversion."),
    ("Superposition Prompting", "a new prompting methodology, superposition prompting, which"),
    ("The Reversal Curse", "We give evidence for the Reversal Curse by finetuning."),
]
NOT_STATED = [
    ("Position", "In this position paper, we argue that data matters."),
    ("Position", "Position papers matter. We present our position on them."),  # sentence start
    ("Strategic Planning", "Decisions rely on strategic planning, where goals guide."),
    ("Distributional Regression", "Distributional regression aims at estimating a law."),
    ("TiC-CLIP", "Code is available at https://github.com/apple/ml-tic-clip"),
    ("Neural SPH", "All Neural SPH-enhanced simulators do better."),
    ("InterpGNN", "a module for GNNs (InterpGNN-GW) to enhance the interplay"),
    ("Binary Decomposition", "we propose a novel binary decomposition strategy, which helps"),
    ("Falcon", "Falconry is old."),  # inside another word
]


@pytest.mark.parametrize(("label", "abstract"), STATED)
def test_a_name_the_text_states_is_selected(label: str, abstract: str) -> None:
    assert states_name(label, abstract)


@pytest.mark.parametrize(("label", "abstract"), NOT_STATED)
def test_ordinary_words_or_part_of_a_word_are_not_a_stated_name(label: str, abstract: str) -> None:
    assert not states_name(label, abstract)


def _case(label: str) -> Case:
    return Case(label, "", (), "other", True, None)


@pytest.mark.parametrize(
    ("label", "name", "right"),
    [
        ("The Reversal Curse", "Reversal Curse", True),
        ("The 3D-PC", "3D-PC", True),
        ("The Reversal Curse", "The Reversal Curse", True),
        ("Theseus", "seus", False),  # an article is a whole word
        ("The Reversal Curse", "Curse", False),
    ],
)
def test_a_name_without_the_titles_article_is_right(label: str, name: str, right: bool) -> None:
    assert (verdict(_case(label), name) == "exact") is right


@given(
    st.sampled_from(["Position", "Zebra Net", "GSTM", "Win-Win", "The Curse"]),
    st.text(alphabet="abcPZNGSTMWinoset -_,.*'()/:", max_size=60),
)
def test_a_stated_name_is_always_a_whole_word_of_the_text(label: str, text: str) -> None:
    # The rule only narrows the old one (the folded label as a word; an underscore, Markdown
    # emphasis, is no letter at its edges).
    if states_name(label, text):
        word = r"(?<![^\W_])" + re.escape(fold_name(label)) + r"(?![^\W_])"
        assert re.search(word, fold_name(text))


@pytest.mark.parametrize(
    ("label", "abstract"), [c for c in STATED if "_" not in c[1]] + NOT_STATED[:4]
)
def test_the_earlier_selection_takes_any_whole_word(label: str, abstract: str) -> None:
    # --selection earlier: the rule before states_name, the folded label as a word anywhere
    # ("In this position paper" states Position), an underscore a letter at its edges.
    assert earlier_states_name(label, abstract)


def test_the_earlier_selection_misses_a_name_in_underscore_emphasis() -> None:
    assert not earlier_states_name("Motion Guidance", "we propose _motion guidance_, a way")


def test_earlier_selection_is_a_superset_and_seeds_split_alike(tmp_path: Path) -> None:
    records = [
        ("Falcon: Fast Planning", "Here we introduce Falcon, a fast planner."),
        ("Position: Data Matters", "In this position paper, we argue that data matters."),
        ("Zebra: Striped Search", "We propose a search. It has no name here."),
    ]
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        "".join(f'{{"title": "{t}", "abstract": "{a}"}}\n' for t, a in records), encoding="utf-8"
    )
    current, every = load(corpus, 11)
    earlier, _ = load(corpus, 11, "earlier")
    assert len(every) == 3
    assert [c.label for c in current] == ["Falcon"]
    assert [c.label for c in earlier] == ["Falcon", "Position"]
    assert current[0].dev == earlier[0].dev  # the half depends on the title alone
