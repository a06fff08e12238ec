"""A long form whose marked letters spell its acronym names the method by the acronym
(storage/names/marked.py; issue #11's `Long Form (ACR)` rule).

Every abstract here is written for the test.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from papershelf.storage.names.derive import derive_name, method_name
from papershelf.storage.names.marked import marked_acronyms
from papershelf.storage.names.words import is_generic
from papershelf.storage.text.latex import display_text


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        # Marked letters after a weak cue, while another acronym is stated by a plain one.
        (
            "Prior work relies on an Implicit Context Vector (ICV). We adopt a different view "
            r"and study \textbf{L}earnable \textbf{I}n-Context \textbf{Ve}ctor (LIVE), which "
            "distills task information. ICV is brittle, and ICV is slow.",
            "LIVE",
        ),
        # The acronym before its long form: "CoLiDE (Concomitant Linear DAG Estimation)".
        (
            "A smooth acyclicity penalty over the directed acyclic graph (DAG) yields Tamarind "
            r"($\textbf{Ta}$rget $\textbf{Ma}$tched $\textbf{R}$egression $\textbf{In}$ "
            r"$\textbf{D}$AGs), "
            "a criterion for structure learning. Every DAG is scored and each DAG is pruned.",
            "Tamarind",
        ),
        # Letters marked inside the words, far from any cue word.
        (
            "Soft prompts shrink as they train, which we call the **Low-Norm Effect**. A fix "
            "follows from it: **N**ormalizing th**e** soft-pro**m**pt v**e**ctors of "
            "vi**si**on-language model**s** (Nemesis) restores their scale.",
            "Nemesis",
        ),
    ],
)
def test_marked_letters_name_the_acronym(abstract: str, name: str) -> None:
    assert method_name(abstract) == name
    assert derive_name(abstract) == name


def test_an_undefined_macro_is_named_by_the_marked_letters() -> None:
    abstract = (
        r"We propose \textbf{No}ise reduction with \textbf{R}eserved \textbf{M}ajority~(\norm), "
        r"which splits the adapter weights. With \norm, larger ranks help."
    )
    assert method_name(abstract) == "NoRM"


def test_a_dataset_the_paper_also_spells_out_does_not_win_over_its_method() -> None:
    abstract = (
        r"We propose a framework, called $\textbf{G}$raph to v$\textbf{I}$sual and "
        r"$\textbf{T}$extual Integr$\textbf{A}$tion (GITA), for graph reasoning. Besides, we "
        r"establish $\textbf{G}$raph-based $\textbf{V}$ision-$\textbf{L}$anguage "
        r"$\textbf{Q}$uestion $\textbf{A}$nswering (GVLQA) dataset. On the GVLQA dataset and "
        "two more, GITA beats the baselines, and GVLQA proves hard."
    )
    assert method_name(abstract) == "GITA"


def test_marked_lower_case_words_are_a_term_not_a_name() -> None:
    text = display_text(
        r"The \textbf{i}nexact \textbf{s}tochastic \textbf{p}roximal \textbf{p}oint "
        r"\textbf{a}lgorithm (isPPA) is popular for sums of losses."
    )
    assert marked_acronyms(text.text, text.styles) == []


def test_fragments_are_not_names_and_unspelled_acronyms_are_not_marked() -> None:
    text = display_text(r"We tune \textbf{Ve}ctors and \textbf{Co}des of a Sparse Model (SPM).")
    assert marked_acronyms(text.text, text.styles) == []


_WORDS = st.lists(
    st.tuples(
        st.text(alphabet="bcdfgklmnprstvz", min_size=3, max_size=8),
        st.integers(min_value=1, max_value=2),
    ),
    min_size=3,
    max_size=5,
)


@settings(max_examples=200, deadline=None)
@given(_WORDS, st.sampled_from(["Recent work suggests", "It is known that", "Results show"]))
def test_any_long_form_whose_bold_letters_spell_its_acronym_is_named_by_it(
    words: list[tuple[str, int]], opening: str
) -> None:
    marked = [(word[:cut].capitalize(), word[cut:]) for word, cut in words]
    acronym = "".join(head for head, _ in marked).upper()
    assume(not is_generic(acronym))
    long_form = " ".join(f"**{head}**{rest}" for head, rest in marked)
    abstract = (
        f"{opening} that graphs are hard to sample. Our view differs: {long_form} ({acronym}) "
        "samples them quickly, and it scales."
    )
    assert method_name(abstract) == acronym


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "In this work, we present Guided-SUMmaries (GSUM), a framework that writes notes "
            "for long documents. GSUM is cheap.",
            "GSUM",
        ),
        (
            "We propose Anchored-reCalibration (AC), which recalibrates scores after a shift.",
            "Anchored-reCalibration",  # a two-capital short form names nothing
        ),
        # Capitals of a coined word ("GitHub") mark nothing: the word keeps its name.
        ("We release GitHub-Issues (GHI), a corpus of bug reports.", "GitHub-Issues"),
        ("We introduce Sketch2Mesh (S2M), a sketch-based modeller.", "Sketch2Mesh"),
    ],
)
def test_capitals_marked_inside_a_hyphenated_word_name_the_acronym(
    abstract: str, name: str
) -> None:
    assert method_name(abstract) == name
