"""Paper names: method names, repository names, headlines (storage/names/derive.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.names.derive import (
    derive_name,
    headline,
    method_name,
    title_name,
)
from papershelf.storage.text.headings import heading, heading_fields


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("Here we introduce RelGNN, a novel GNN framework.", "RelGNN"),
        (
            "We propose Safe Diffusion Models for PDE Control (SafeDiffCon), which works.",
            "SafeDiffCon",
        ),
        ("We propose a novel framework, **LEVIS**, comprising parts.", "LEVIS"),
        ("We introduce $\\textbf{STRING}$: Separable Position Encodings.", "STRING"),
        ("This paper introduces $k$-Dynamic Time Warping ($k$-DTW), a measure.", "k-DTW"),
        (
            "We refer to the model as the *kernel intensity estimator* (K$^2$IE). K$^2$IE wins.",
            "K²IE",
        ),
        ("In this paper, we propose KEA (Keeping Exploration Alive) which helps.", "KEA"),
        ("we introduce Pior-Informed Preference Alignment (PIPA), a framework.", "PIPA"),
        ("These insights culminate in our ConText model, which is good.", "ConText"),
        ("A method called **N**eural-**C**ollapse **L**earning (NCL) is shown.", "NCL"),
        ("We propose a novel reinforcement learning (RL) method for control.", None),
        ("We present a generalization of QAOA that is more suitable.", None),
        ("We propose L1-infinite norm constraints for binary weights.", None),
        ("State space models are popular. We extend the HiPPO theory.", None),
    ],
)
def test_method_name(abstract: str, name: str | None) -> None:
    assert method_name(abstract) == name


def test_topic_acronym_far_from_the_cue_is_not_a_name() -> None:
    abstract = (
        "This paper presents the first study on adapting the visual in-context learning "
        "(V-ICL) paradigm to text. V-ICL is hard. Our code is at https://github.com/x/ConText. "
        "This culminates in our ConText model."
    )
    assert derive_name(abstract, code_urls=("https://github.com/x/ConText",)) == "ConText"


def test_repository_name_when_no_method() -> None:
    abstract = "Peptide sequencing is a task. We propose an improved model."
    assert derive_name(abstract, code_urls=("https://github.com/BEAM-Labs/denovo",)) == "denovo"
    assert derive_name(abstract, code_urls=("https://github.com/lab/code",)) != "code"


def test_title_short_name_and_headline() -> None:
    assert title_name("RelGNN: Composite Message Passing") == "RelGNN"
    assert title_name("NaturalSpeech 2: Latent Diffusion") == "NaturalSpeech 2"
    assert title_name("Shifting the Paradigm: A Diffeomorphism") is None
    assert title_name("Position: Agents Need Memory") is None
    plain = "Nothing named here. It is a study."
    assert derive_name(plain, title="UniDB: A Unified Bridge") == "UniDB"
    assert (
        derive_name(plain, title="Shifting the Paradigm: A Long Subtitle")
        == "Shifting the Paradigm"
    )
    assert derive_name(plain, title=None) == "Nothing named here"


def test_headline_is_cut_at_a_word_boundary() -> None:
    text = (
        "We investigate the Sobolev IPM problem for probability measures supported on a "
        "graph metric space. More."
    )
    assert headline(text) == "The Sobolev IPM problem for probability measures supported…"
    long = "In this paper, we study the effects of noise, with a focus on privacy and robustness."
    assert headline(long) == "The effects of noise, with a focus on privacy and robustness"
    longer = (
        "We study the effects of label noise in offline alignment, with a focus on the privacy."
    )
    assert headline(longer) == "The effects of label noise in offline alignment"
    assert headline("Short one.") == "Short one"


@given(st.text(max_size=300))
def test_headline_never_empty_nor_dangling(text: str) -> None:
    line = headline(text)
    assert line and len(line) <= 70
    words = line.rstrip("…").split()
    if len(words) > 1:
        assert words[-1].lower() not in {"of", "the", "and", "a", "an", "for", "to", "with"}


@given(st.text(max_size=300), st.one_of(st.none(), st.text(max_size=80)))
def test_derive_name_never_empty(abstract: str, title: str | None) -> None:
    assert derive_name(abstract, title=title).strip()


# --- a name that only restates the title -------------------------------------------------------

RESTATING_TITLES = [
    "Stronger Neyman Regret Guarantees for Adaptive Experimental Design",
    "Decision Theoretic Foundations for Conformal Prediction: Optimal Uncertainty Quantification",
    "On gauge freedom, conservativity and intrinsic dimensionality estimation in diffusion models",
]


@pytest.mark.parametrize("title", RESTATING_TITLES)
def test_a_headline_of_the_title_gives_way_to_the_whole_title(title: str) -> None:
    name = derive_name("An abstract that names no method at all.", title)
    assert name != title  # cut, or only the main clause
    assert heading(name, title) == (" ".join(title.split()), None)
    assert heading_fields(name, title) == ("title", None)


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("SMASH", "Beyond Point Prediction: Score Matching-based Pseudolikelihood Estimation"),
        ("Other words…", "Stronger Neyman Regret Guarantees for Adaptive Experimental Design"),
    ],
)
def test_a_method_name_or_other_words_head_with_the_title_beside(name: str, title: str) -> None:
    assert heading(name, title) == (name, title)
    assert heading_fields(name, title) == ("name", "title")
    assert heading_fields(name, None) == ("name", None)
