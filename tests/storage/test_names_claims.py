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


def test_a_claim_is_a_guess_the_shown_name_does_not_take() -> None:
    """Claims about a baseline ("we find that FedAvg achieves ...") are common in papers that
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
