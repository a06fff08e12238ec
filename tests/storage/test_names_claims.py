"""A coined word a results claim makes its subject is the method's name when no cue states
one (storage/names/claims.py). Abstracts written for these tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.names.claims import claimed_name
from papershelf.storage.names.derive import derive_name, method_name


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "We consider view synthesis from unposed images. Extensive evaluations demonstrate "
            "that PF3plat sets a new state-of-the-art across all benchmarks.",
            "PF3plat",
        ),
        (
            "We tune a language model on paired tasks. We show that our LLM-CXR trained in this "
            "way shows better image-text alignment.",
            "LLM-CXR",
        ),
        (
            "We study streaming video. Experiments show our StreamVAE outperforms baselines.",
            "StreamVAE",
        ),
    ],
)
def test_a_coined_subject_of_a_claim_is_the_guessed_name(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


@pytest.mark.parametrize(
    "abstract",
    [
        "Our method is simple. It achieves strong results on three benchmarks.",
        "We show that LLM outperforms humans on these puzzles.",  # a field acronym
        "We show that the model outperforms baselines.",  # no coined word
    ],
)
def test_no_coined_subject_no_guess(abstract: str) -> None:
    assert method_name(abstract) is None


def test_a_finding_is_a_guess_the_shown_name_does_not_take() -> None:
    """Findings about a baseline ("we find that FedAvg achieves ...") are common in papers that
    name no method, so the name shown (derive_name) keeps its headline."""
    abstract = "We study client drift. We find that FedAvg achieves good accuracy in this setting."
    assert method_name(abstract) == "FedAvg"
    assert derive_name(abstract) != "FedAvg"


@settings(max_examples=200, deadline=None)
@given(
    name=st.from_regex(r"[A-Z][a-z]{2,5}[A-Z0-9][A-Za-z0-9]{1,4}", fullmatch=True),
    opener=st.sampled_from(["Results show that ", "We demonstrate that our ", "Overall, our "]),
    verb=st.sampled_from(["outperforms", "achieves", "surpasses", "sets", "improves"]),
)
def test_any_coined_subject_of_a_winning_verb_is_claimed(name: str, opener: str, verb: str) -> None:
    """Property: "<opener> NAME <verb> ..." claims NAME; the same words lower-cased do not."""
    assert claimed_name(f"{opener}{name} {verb} prior work.") == name
    assert claimed_name(f"{opener}{name.lower()} {verb} prior work.") is None


def test_a_strict_claim_is_the_name_shown() -> None:
    """A coined word with the winning verb right after it, where no cue names the method, is
    shown (it was only `method_name`'s guess: the headline was shown)."""
    abstract = (
        "We consider depth estimation from a single blurred photograph. We train lightweight "
        "modules on synthetic blur. Extensive evaluations demonstrate that BlurDepth3 sets a "
        "new state of the art on four benchmarks."
    )
    assert derive_name(abstract) == "BlurDepth3"


@pytest.mark.parametrize(
    ("abstract", "claimed"),
    [
        # The coined word qualifies the subject ("Top-K techniques"), is not it.
        (
            "We explain text classifiers with counterfactuals written by a language model. "
            "Results show that Top-K techniques improve every explainer we test.",
            "Top-K",
        ),
        # A short form the text defines where the paper makes nothing: the field's.
        (
            "Sparse autoencoders (SAEs) are a popular tool for reading model internals. We ask "
            "whether they help probing. Experiments show that SAEs improve probing rarely.",
            "SAEs",
        ),
    ],
)
def test_a_loose_claim_is_not_the_name_shown(abstract: str, claimed: str) -> None:
    assert method_name(abstract) == claimed
    assert derive_name(abstract) != claimed


def test_a_short_form_the_paper_makes_is_shown_when_claimed() -> None:
    """Defined where the paper makes it (after a preposition, so not `made_acronym`'s), then
    claimed: shown."""
    abstract = (
        "We introduce a way to train text encoders as Hierarchy Tree encoders (HTEs) in "
        "hyperbolic space. Experiments show that HTEs consistently outperform flat encoders."
    )
    assert derive_name(abstract) == "HTEs"


@pytest.mark.parametrize(
    "abstract",
    [
        # The finding's "we prove that" opens the sentence; the claim comes after "and that".
        "We study wide networks in federated learning. We further prove that local models "
        "behave as linear models, and that FedAvg achieves the accuracy of central training.",
        # A finding stated by what the paper makes ("an analysis demonstrating that").
        "We study gossip over directed graphs. We propose a new analysis demonstrating that "
        "Push-Sum-GT achieves linear speedup.",
    ],
)
def test_a_finding_anywhere_in_its_sentence_is_not_the_name_shown(abstract: str) -> None:
    assert method_name(abstract) in ("FedAvg", "Push-Sum-GT")
    assert derive_name(abstract) not in ("FedAvg", "Push-Sum-GT")


def test_a_finding_about_our_method_is_the_name_shown() -> None:
    """ "we show that our X outperforms": the paper's own method, though a finding."""
    abstract = (
        "Many planning problems change a little between solves. We reuse earlier solving "
        "information. Extensive experiments show that we can, and we show that our ReSolv "
        "outperforms solving from scratch."
    )
    assert derive_name(abstract) == "ReSolv"
