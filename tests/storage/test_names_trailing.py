"""Names set off after a whole description, and capitalised names described mid-sentence.

Abstracts written for these tests (storage/names/trailing.py, cues._described_candidates):
"we present a <kind> for <topic>, NAME, which ...", "our approach results in NAME, a <kind>".
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.names.derive import derive_name, method_name
from papershelf.storage.names.trailing import trailing_name

# --- a name between commas after the cue's description ---------------------------------------


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "We present a novel multi-agent framework for issue resolution, Magpie, consisting "
            "of four agents that plan and review patches.",
            "Magpie",
        ),
        (
            "We propose a unified model with a single set of parameters, Spindle, which only "
            "needs to be trained once.",
            "Spindle",
        ),
        (
            "In this paper, we introduce a retrieval system for long legal documents, LexiRank, "
            "that ranks passages by citation structure.",
            "LexiRank",
        ),
        (
            "We develop a lightweight planning system for household robots, TidyBot-2, which "
            "folds laundry.",
            "TidyBot-2",
        ),
        (
            "We propose a novel loss function for imbalanced segmentation, "
            "Uncertainty-Focal-Cross-Entropy (UFCE), designed for rare classes.",
            "UFCE",
        ),
    ],
)
def test_a_name_set_off_after_the_description_is_named(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


@pytest.mark.parametrize(
    "abstract",
    [
        # Examples of what is compared or used, not a name.
        "We present a new benchmark for code models such as GPT-4, Llama, and Mistral.",
        "We present a new benchmark for code models, including HumanEval, MBPP, and APPS.",
        "We propose a method for language models, GPT-4, Llama and Mistral, on math.",
        # No kind of thing in the description: a clause, not a description.
        "We propose that errors grow slowly, Moreover the bound is tight.",
        # The cue introduces no description (no article).
        "We propose to study transfer across domains, Kestrel, which is odd.",
    ],
)
def test_lists_and_clauses_are_not_names(abstract: str) -> None:
    assert method_name(abstract) is None


_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9)


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(["framework", "model", "method", "algorithm", "benchmark", "system"]),
    topic=st.lists(_WORDS, min_size=1, max_size=6),
    name=st.from_regex(r"[A-Z][a-z]{2,6}[A-Z][a-z]{2,6}", fullmatch=True),
    close=st.sampled_from([", which", ", consisting of", " that", ", a"]),
)
def test_any_description_then_a_coined_name_is_named(
    kind: str, topic: list[str], name: str, close: str
) -> None:
    """Property: a cue, an article, a kind, topic words, then ", Name" closed by a clause."""
    abstract = f"We present a new {kind} for {' '.join(topic)}, {name}{close} works well."
    found = trailing_name(abstract, len("We present"), len(abstract))
    assert found is not None and found[2] == name
    assert method_name(abstract) == name


@settings(max_examples=200, deadline=None)
@given(
    topic=st.lists(_WORDS, min_size=1, max_size=6),
    names=st.lists(
        st.from_regex(r"[A-Z][a-z]{2,6}[A-Z0-9][a-z0-9]{1,4}", fullmatch=True),
        min_size=2,
        max_size=4,
        unique=True,
    ),
)
def test_a_list_after_the_description_is_never_a_name(topic: list[str], names: list[str]) -> None:
    """Property: ", A, B and C" after a description lists things; none of them is the name."""
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    abstract = f"We present a new benchmark for {' '.join(topic)}, {listed}, in one suite."
    assert trailing_name(abstract, len("We present"), len(abstract)) is None


# --- a capitalised name the paper describes as a kind of thing -------------------------------


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "Our approach results in Satori, a 7B LLM trained on open data. Satori solves "
            "olympiad problems.",
            "Satori",
        ),
        (
            "We address these limitations with Continuous Ensemble Forecasting, a novel method "
            "for sampling ensembles. Continuous Ensemble Forecasting runs in parallel.",
            "Continuous Ensemble Forecasting",
        ),
        (
            "We instantiate this idea in Dynalang, an agent that learns a world model. Dynalang "
            "learns to act from imagined rollouts.",
            "Dynalang",
        ),
    ],
)
def test_a_capitalised_name_described_by_the_paper_is_named(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


@pytest.mark.parametrize(
    "abstract",
    [
        "We compare with Adam, a popular optimizer for deep networks. Adam is often unstable.",
        "Our experiments use Llama, a large language model, and we find Llama fails.",
        "We evaluate on Places, a scene dataset. Places is large.",
        # Said once: nothing marks it as the paper's subject.
        "Our approach results in Satori, a 7B LLM trained on open data.",
        # Not the paper's own sentence.
        "Prior work built Satori, a 7B LLM trained on open data. Satori is strong.",
    ],
)
def test_a_capitalised_word_the_paper_uses_is_not_named(abstract: str) -> None:
    assert method_name(abstract) is None


# --- the second verb of the paper's sentence: "we avoid ... and develop X" -------------------


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "We avoid the recursive computation of backpropagation and develop a unified "
            "likelihood ratio (ULR) method for gradient estimation with one forward pass.",
            "ULR",
        ),
        (
            "We applied our paradigm to the GSM8K dataset and developed the MR-GSM8K benchmark.",
            "MR-GSM8K",
        ),
    ],
)
def test_a_making_verb_after_and_introduces_a_name(abstract: str, name: str) -> None:
    # derive_name: the name shown, which takes a stated name (not method_name's guesses).
    assert derive_name(abstract) == name


def test_and_with_a_making_verb_and_no_name_names_nothing() -> None:
    assert method_name("Prior methods were designed and developed on small data.") is None
