"""Method names in forms the names brief of issue #11 found missed (storage/names/).

Every abstract here is written for the test, in the style of a failure class seen on the
development half: a dash set off by spaces, an acronym with an aside in its parentheses, a
short form that contracts a hyphenated name, and a long name with its acronym that begins the
sentence after the paper makes an unnamed thing.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.names.acronyms import contracts
from papershelf.storage.names.derive import derive_name, method_name
from papershelf.storage.names.words import ACRONYM

# --- a name set off by a spaced hyphen or an en dash after its kind ---------------------------


@pytest.mark.parametrize("dash", [" - ", " \u2013 ", "\u2013", " -- ", "\u2014"])
def test_a_kind_then_a_dash_sets_off_the_name(dash: str) -> None:
    abstract = f"We propose a new method{dash}FlexNet{dash}that learns flexible features."
    assert method_name(abstract) == "FlexNet"


def test_a_hyphen_inside_words_after_a_kind_names_nothing() -> None:
    # "framework-level": a hyphen joining words is no dash.
    abstract = "We propose a new framework-level Cache to speed up decoding."
    assert method_name(abstract) != "Cache"


# --- an acronym with an aside in its parentheses -------------------------------------------------


@pytest.mark.parametrize(
    "abstract",
    [
        "We propose a method termed Sparse Projection Learning In Time (SPLIT, for short), "
        "which learns fast.",
        "We propose Sparse Projection Learning In Time (SPLIT; see below), which learns fast.",
        "To fix this, we propose a novel loss called Frame Aligned Frame Error (FAFE, written "
        "F2E below), which aligns frames.",
    ],
)
def test_an_acronym_with_an_aside_names_its_long_name(abstract: str) -> None:
    assert method_name(abstract) in ("SPLIT", "FAFE")


@pytest.mark.parametrize(
    "text",
    ["strong models (GPT-4, Claude and Llama) do", "as before (Qin, 2022) we", "(ACR, and more)"],
)
def test_a_list_or_a_citation_in_parentheses_is_no_acronym(text: str) -> None:
    assert ACRONYM.search(text) is None


def test_an_aside_after_an_acronym_keeps_the_acronym_alone() -> None:
    match = ACRONYM.search("Frame Aligned Frame Error (FAFE, denoted as F2E to differ) and")
    assert match is not None and match.group(1) == "FAFE"


# --- a short form that contracts a hyphenated name ------------------------------------------------


def test_a_contracted_short_form_is_the_name() -> None:
    abstract = "We propose Controlled-GAIL (C-GAIL), which adds a regularizer. C-GAIL is stable."
    assert method_name(abstract) == "C-GAIL"


def test_a_coined_word_with_its_own_abbreviation_keeps_its_name() -> None:
    abstract = "We propose Text-to-LoRA (T2L), which adapts models from a task description."
    assert method_name(abstract) == "Text-to-LoRA"


@pytest.mark.parametrize(
    ("word", "acronym", "contracted"),
    [
        ("Controlled-GAIL", "C-GAIL", True),
        ("Multi-Scale-ViT", "MS-ViT", True),
        ("Multi-scale-ViT", "M-S-ViT", True),
        ("Text-to-LoRA", "T2L", False),
        ("Controlled-GAIL", "CG", False),
        ("Robust-GAIL", "C-GAIL", False),
        ("GAIL", "C-GAIL", False),
    ],
)
def test_contracts(word: str, acronym: str, contracted: bool) -> None:
    assert contracts(word, acronym) is contracted


@given(st.text(alphabet="abAB-", max_size=12), st.text(alphabet="abAB-", max_size=8))
def test_a_contraction_keeps_the_last_part_and_is_shorter(word: str, acronym: str) -> None:
    if contracts(word, acronym):
        assert word.split("-")[-1] == acronym.split("-")[-1]
        assert len(acronym.replace("-", "")) < len(word.replace("-", ""))


# --- a long name and acronym beginning the next sentence ----------------------------------------


@pytest.mark.parametrize(
    "abstract",
    [
        "Constrained control is hard. In this paper, we introduce a new policy optimization "
        "algorithm for constrained problems with the average criterion. The Average-Constrained "
        "Policy Optimization (ACPO) algorithm is inspired by trust regions.",
        "In this paper, we introduce a new architecture for sequences. The Gated Spectral Token "
        "Mixer (GSTM) architecture mixes tokens in the spectral domain.",
    ],
)
def test_a_long_name_after_an_unnamed_making_is_named_by_its_acronym(abstract: str) -> None:
    assert method_name(abstract) in ("ACPO", "GSTM")


@pytest.mark.parametrize(
    "abstract",
    [
        # No sentence before it where the paper makes something: a known method described.
        "Policy search is hard. The Trust Region Policy Optimization (TRPO) algorithm is a "
        "classic.",
        # The paper made another kind of thing: the acronym is a part it uses.
        "In this paper, we introduce a new dataset for driving. The Gated Spectral Token Mixer "
        "(GSTM) architecture serves as our baseline.",
    ],
)
def test_a_long_name_elsewhere_is_not_named_so(abstract: str) -> None:
    assert method_name(abstract) not in ("TRPO", "GSTM")


# --- a name made in the passive voice -------------------------------------------------------------


@pytest.mark.parametrize(
    "abstract",
    [
        "Gates matter. In this paper, FlexNet is proposed to learn gates per layer.",
        "Gates matter. A novel network, FlexNet, is proposed to learn gates per layer.",
        "Gates matter. Accordingly, FlexNet is thus introduced. It learns gates per layer.",
        "Gates matter. A Flexible Gated Network (FlexNet) is presented in this paper.",
        "Gates matter. Moreover, the FlexNet framework is proposed to learn gates.",
        "Gates matter. Moreover, {\\sc Flexible Network (FlexNet)} is further proposed.",
    ],
)
def test_a_name_made_in_the_passive_voice(abstract: str) -> None:
    assert method_name(abstract) == "FlexNet"


@pytest.mark.parametrize(
    "abstract",
    [
        "Gates matter. FlexNet was proposed to learn gates. We study its limits.",
        "Gates matter. FlexNet has been proposed to learn gates. We study its limits.",
        "Gates matter. FlexNet is proposed by Smith to learn gates. We study its limits.",
        "Gates matter. FlexNet is introduced in [12] to learn gates. We study its limits.",
        "Gates matter. Many FlexNet methods are proposed to learn gates. We study their limits.",
        "Gates matter. FlexNet is designed to learn gates. We study its limits.",
    ],
)
def test_another_works_passive_is_no_name(abstract: str) -> None:
    assert method_name(abstract) is None


# --- one capitalised word a lead cue introduces, then a clause, said again ----------------------


@pytest.mark.parametrize(
    "abstract",
    [
        "Sorting is slow. We propose Zebra to sort faster. Zebra uses stripes.",
        "Sorting is slow. We propose Zebra for faster sorting. Experiments show that Zebra wins.",
        "Sorting is slow. We introduce Zebra that sorts with stripes. Zebra is fast.",
        "Sorting is slow. We propose Zebra by sorting with stripes (Zebra is fast).",
    ],
)
def test_one_capitalised_word_then_a_clause_said_again_is_a_name(abstract: str) -> None:
    assert method_name(abstract) == "Zebra"


@pytest.mark.parametrize(
    "abstract",
    [
        # Said once: it may be a known thing the paper proposes to use.
        "Sorting is slow. We propose Zebra to sort faster. It uses stripes.",
        # A content word after it: an adjective of a known thing.
        "Regression is hard. We propose Bayesian inference to regress. Bayesian methods help.",
        # Said again only inside a longer word.
        "Sorting is slow. We propose Zebra to sort faster. Zebrafish use stripes.",
    ],
)
def test_a_capitalised_word_not_said_again_as_a_name_is_none(abstract: str) -> None:
    assert method_name(abstract) is None


# --- "denoted as", and a capitalised long name the paper calls its own ---------------------------


def test_denoted_as_names_a_coined_word() -> None:
    abstract = "We build a strong baseline network denoted as MobiNet, which is accurate."
    assert method_name(abstract) == "MobiNet"


def test_denoted_as_names_no_lower_case_words() -> None:
    abstract = "Let the attention be denoted as softmax attention, which we bound."
    assert method_name(abstract) is None


@pytest.mark.parametrize(
    "abstract",
    [
        "Robust methods are pessimistic. We add geometry to the terms, resulting in our novel "
        "Geometry-Calibrated Robust Optimization (GCRO) for regression. GCRO is better.",
        "We use our framework to propose an objective. Our Dynamics Stable Learning by "
        "Invariant Measure (DySLIM) objective enables stable training.",
    ],
)
def test_our_capitalised_long_name_is_named_by_its_acronym(abstract: str) -> None:
    assert derive_name(abstract) in ("GCRO", "DySLIM")


def test_our_lower_case_topic_is_no_name() -> None:
    abstract = "Tables are hard. We study our tabular learning setting (TLS) in depth."
    assert derive_name(abstract) != "TLS"


# --- a coined word by means of which the paper solves what it posed -----------------------------


@pytest.mark.parametrize(
    "abstract",
    [
        "Distances are hard. We address these limitations with GRAPE, introducing a new idea. "
        "GRAPE writes programs.",
        "Gates matter. We tackle this problem via FlexNet. FlexNet learns gates.",
        "Gates matter. We therefore address this through FlexNet, which learns gates. FlexNet "
        "wins.",
    ],
)
def test_a_coined_word_the_paper_solves_with_is_shown(abstract: str) -> None:
    assert derive_name(abstract) in ("GRAPE", "FlexNet")


@pytest.mark.parametrize(
    "abstract",
    [
        "Gates matter. We compare with GPT-4 and show GPT-4 fails.",
        "Gates matter. We address this with GPT-4 prompts. GPT-4 is strong.",
        "Gates matter. We address this with FlexNet. Nothing else is said.",
    ],
)
def test_a_tool_or_a_word_said_once_is_not_shown_so(abstract: str) -> None:
    assert derive_name(abstract) not in ("GPT-4", "FlexNet")


# --- a kind of thing the paper makes, and its short form, said once -----------------------------


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "Adapters are costly. Experiments show that our low-rank plus quantized matrix "
            "decomposition approach (LQ-Adapt) beats strong baselines.",
            "LQ-Adapt",
        ),
        (
            "Series have gaps. We fold this layer into a novel score-based diffusion model (SSDM) "
            "for imputation.",
            "SSDM",
        ),
        ("We give a new algorithm (GLOWS) that uses density ratios.", "GLOWS"),
    ],
)
def test_a_kind_the_paper_makes_names_its_short_form(abstract: str, name: str) -> None:
    assert derive_name(abstract) == name


def test_a_known_kind_and_its_short_form_is_no_name() -> None:
    abstract = "Adapters are costly. Low-rank adaptation methods (LoRA-X) are used widely here."
    assert derive_name(abstract) != "LoRA-X"


# --- a quoted phrase set off and described --------------------------------------------------------


@pytest.mark.parametrize(
    "abstract",
    [
        'Gates matter. We propose "flexible gates", a gated network for vision.',
        "Gates matter. We propose ``flexible gates'' -- a gated network for vision.",
    ],
)
def test_a_quoted_phrase_set_off_and_described_is_a_name(abstract: str) -> None:
    assert method_name(abstract) == "Flexible gates"


def test_a_quoted_word_in_a_sentence_is_no_name() -> None:
    abstract = 'Gates matter. We propose "flexible" gates, a gated network for vision.'
    assert method_name(abstract) != "Flexible"


def test_a_closing_quote_is_not_part_of_a_lower_case_name() -> None:
    abstract = "We propose a new attack that we call ``neural fishing''. It extracts secrets."
    assert method_name(abstract) == "Neural fishing"


def test_a_contraction_with_a_lower_case_initial_is_the_name() -> None:
    # The acronym's capitals begin inside the hyphenated word ("RLAIF" of "direct-RLAIF").
    abstract = "Finally, we introduce direct-RLAIF (d-RLAIF) - a technique that skips rewards."
    assert derive_name(abstract) == "d-RLAIF"


def test_a_new_part_and_its_short_form_do_not_name_the_method() -> None:
    # A variant is a part of a method, not what the paper is named by.
    abstract = (
        "We build graph transformers. It uses walk encodings and a novel decomposed variant "
        "(D-RWE) to capture structure."
    )
    assert derive_name(abstract) != "D-RWE"


def test_a_part_presented_in_the_passive_yields_to_the_method_introduced() -> None:
    abstract = (
        "Scales matter. A novel multi-scale learner, varying window attention (VWA), is "
        "presented. VWA widens windows and VWA is cheap. Then, we "
        "introduce a multi-scale decoder (MSD), **VWFormer**, to improve segmentation. VWFormer "
        "beats UperNet, and VWFormer is fast."
    )
    assert method_name(abstract) == "VWFormer"


def test_a_coined_word_described_after_a_dash_in_our_sentence_is_shown() -> None:
    abstract = (
        "Tables are hard for deep models. We start by describing TabZ -- a simple model based "
        "on MLPs. We find that TabZ beats prior models, and TabZ is fast."
    )
    assert derive_name(abstract) == "TabZ"


def test_another_works_name_described_after_a_dash_is_not_shown() -> None:
    abstract = (
        "Agents rise with CodeBench -- a benchmark of issues. Building CodeBench costs effort, "
        "and CodeBench is small. In this work, we address this challenge and introduce "
        "FixAgent, a system for setups."
    )
    assert derive_name(abstract) == "FixAgent"


# --- the new readers on text made of their own pieces ---------------------------------------------

_PIECES = st.sampled_from(
    [
        "We address this with ",
        "FlexNet",
        "(FlexNet)",
        "{\\sc Flexible Network (FlexNet)}",
        " is proposed",
        " are introduced",
        " is thus presented",
        " by Smith",
        " in [12]",
        ", ",
        ". ",
        " -- a ",
        "our novel ",
        "Gated Mixer ",
        "(GM, for short)",
        " algorithm",
        "we introduce a new algorithm",
        "The ",
        "Zebra",
        " to sort",
        "proposed",
        " ",
    ]
)


@given(st.lists(_PIECES, max_size=14).map("".join))
def test_every_candidate_of_the_new_readers_is_text_of_the_abstract(text: str) -> None:
    from papershelf.storage.names.cues import candidates
    from papershelf.storage.names.passive import passive_name

    for score, at, name in candidates(text, ()):
        assert 0 <= at <= len(text) and 2 <= score <= 6
        assert name.rstrip("s") in text or name in text
    index = text.find("proposed")
    while index >= 0:
        found = passive_name(text, index)
        assert found is None or text.startswith(found[2], found[1])
        index = text.find("proposed", index + 1)
    assert method_name(text) is None or method_name(text) in text
