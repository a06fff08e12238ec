"""papershelf.storage.text.headings: each word of a paper's name and title said once."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.text.headings import heading, heading_fields, name_split


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("PANDAS", "PANDAS: Improving Many-shot Jailbreaking"),
        ("Depth-Anything-V2", "Depth Anything V2"),
        ("Textural-or-Textual", "Textural or Textual: How Vision-Language Models Read Text"),
        ("natural_counterfactuals", "Natural Counterfactuals With Necessary Backtracking"),
        ("DenseConnector", "Dense Connector for MLLMs"),
        ("RIP", "R.I.P.: Better Models by Survival of the Fittest Prompts"),
        ("Rank-SHAP", "RankSHAP: Shapley Value Based Feature Attributions for Learning to Rank"),
        (
            "Bilevel-Optimization-under-Unbounded-Smo",
            "Bilevel Optimization under Unbounded Smoothness",
        ),
        ("Scaling Laws for Sparse…", "Scaling Laws for Sparse Mixtures of Experts"),
        ("K²IE", "K$^2$IE: Kernel Method-based Kernel Intensity Estimators"),
    ],
)
def test_a_title_that_says_the_name_heads_alone(name: str, title: str) -> None:
    head, below = heading(name, title)
    assert below is None
    assert head == " ".join(title.replace("K$^2$IE", "K²IE").split())


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("RelGNN", "Composite Message Passing for Relational Deep Learning"),
        ("Graph", "GraphCast: Learning Skillful Weather Forecasting"),
        ("Mamba", "Mambas in the Grass: Snakes as Sequence Models"),
        ("LoRA", "Low-Rank Adaptation of Large Language Models"),
    ],
)
def test_a_name_the_title_does_not_say_heads_with_the_title_beside_it(
    name: str, title: str
) -> None:
    assert heading(name, title) == (name, title)


def test_no_title_or_the_same_words_give_the_name_alone() -> None:
    assert heading("RelGNN", None) == ("RelGNN", None)
    assert heading("RelGNN", "  ") == ("RelGNN", None)
    assert heading("Same Title", "same  title") == ("Same Title", None)
    assert heading("", "A Title") == ("A Title", None)


@given(name=st.text(min_size=1, max_size=30), title=st.text(max_size=80))
def test_nothing_is_lost_the_name_is_shown_unless_the_title_holds_its_letters(
    name: str, title: str
) -> None:
    head, below = heading(name, title)
    shown = head + " " + (below or "")

    def letters(text: str) -> str:
        return "".join(ch for ch in text.casefold() if ch.isalnum())

    assert letters(name.removesuffix("…"))[:24] in letters(shown) or not name.strip()
    if "$" not in title and "\\" not in title:
        assert letters(title) in letters(shown)


@pytest.mark.parametrize(
    ("name", "title", "fields"),
    [
        ("PANDAS", "PANDAS: Improving Many-shot Jailbreaking", ("title", None)),
        ("RelGNN", "Composite Message Passing for Relational Deep Learning", ("name", "title")),
        ("RelGNN", None, ("name", None)),
        ("Same Title", "same title", ("name", None)),
        ("", "A Title", ("title", None)),
    ],
)
def test_the_fields_a_screen_draws_follow_the_heading(
    name: str, title: str | None, fields: tuple[str, str | None]
) -> None:
    assert heading_fields(name, title) == fields


# -- name_split: where a list row cuts a title that begins with the name ----------------------


@pytest.mark.parametrize(
    ("name", "title", "shown"),
    [
        (
            "PANDAS",
            "PANDAS: Improving Many-shot Jailbreaking",
            ("PANDAS", "Improving Many-shot Jailbreaking"),
        ),
        (
            "RIP",
            "R.I.P.: Better Models by Survival of the Fittest Prompts",
            ("R.I.P.", "Better Models by Survival of the Fittest Prompts"),
        ),
        (
            "RLEF",
            "RLEF: Grounding Code LLMs in Execution Feedback",
            ("RLEF", "Grounding Code LLMs in Execution Feedback"),
        ),
        (
            "K²IE",
            "K²IE: Kernel Method-based Kernel Intensity Estimators",
            ("K²IE", "Kernel Method-based Kernel Intensity Estimators"),
        ),
        (
            "PokéChamp",
            "PokéChamp: an Expert-level Minimax Language Agent",
            ("PokéChamp", "an Expert-level Minimax Language Agent"),
        ),
        (
            "Textural-or-Textual",
            "Textural or Textual: How Vision-Language Models Read Text",
            ("Textural or Textual", "How Vision-Language Models Read Text"),
        ),
        ("SPIN", "SPIN — Self-Play Fine-Tuning", ("SPIN", "Self-Play Fine-Tuning")),
        (
            "Mixtral",
            "Mixtral - a Sparse Mixture of Experts",
            ("Mixtral", "a Sparse Mixture of Experts"),
        ),
    ],
)
def test_a_title_that_begins_with_the_name_and_a_separator_splits_after_it(
    name: str, title: str, shown: tuple[str, str]
) -> None:
    split = name_split(name, title)
    assert split is not None
    assert (title[: split[0]], title[split[1] :]) == shown


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("Graph", "GraphCast: Learning Skillful Weather Forecasting"),  # a longer word
        ("Depth-Anything-V2", "Depth Anything V2"),  # the whole title: nothing to add
        ("PANDAS", "PANDAS:"),  # only the separator follows
        ("Scaling Laws for Sparse…", "Scaling Laws for Sparse Mixtures of Experts"),  # a headline
        ("DenseConnector", "Dense Connector for MLLMs"),  # no separator after the name
        ("RelGNN", "Composite Message Passing for Relational Deep Learning"),
        ("", "A Title: With a Colon"),
    ],
)
def test_other_titles_do_not_split(name: str, title: str) -> None:
    assert name_split(name, title) is None


@given(name=st.text(min_size=1, max_size=20), title=st.text(max_size=60))
def test_a_split_keeps_the_name_letters_and_drops_only_the_separator(name: str, title: str) -> None:
    split = name_split(name, title)
    if split is None:
        return
    end, start = split
    assert 0 < end < start < len(title)
    assert title[end:start].strip(" :-|\u2013\u2014") == ""

    def letters(text: str) -> str:
        return "".join(ch for ch in text.casefold() if ch.isalnum())

    assert letters(title[:end]) == letters(name)
