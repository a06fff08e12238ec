"""Method names by the failure classes of issue #11 (storage/names*.py).

Every abstract here is written for the test: each states its method's name in one of the ways
the issue lists, and the name found must be exactly that name.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.names.derive import derive_name, method_name
from papershelf.storage.names.words import GENERIC, MAX_NAME, is_generic

# --- a long name with its acronym: the acronym is the name ------------------------------------


@pytest.mark.parametrize(
    "abstract",
    [
        "In this work we propose Gated Spectral Token Mixer (GSTM), a hybrid layer that mixes "
        "tokens in the frequency domain. GSTM halves the cost of attention.",
        "We propose **Gated Spectral Token Mixer (GSTM)**, a hybrid layer that mixes tokens in "
        "the frequency domain.",
        "To close this gap, we introduce a novel Gated Spectral Token Mixer (GSTM) for long "
        "sequences.",
        "We design a new mixing layer, Gated Spectral Token Mixer (GSTM), for long sequences.",
    ],
)
def test_long_name_with_acronym_is_named_by_the_acronym(abstract: str) -> None:
    assert method_name(abstract) == "GSTM"


def test_acronym_letters_may_come_from_inside_words() -> None:
    abstract = "We propose Sparse Hashed AttentiON (SHAON), which routes queries by buckets."
    assert method_name(abstract) == "SHAON"


def test_a_coined_word_keeps_its_name_over_its_abbreviation() -> None:
    abstract = "We introduce Graph2Plan (G2P), a planner that reads scene graphs."
    assert method_name(abstract) == "Graph2Plan"
    repeated = "We propose Sketch2Mesh (S2M) as a tool. S2M is fast, and S2M is small."
    assert method_name(repeated) == "Sketch2Mesh"


def test_a_plural_acronym_is_named_in_the_singular_only_after_plural_words() -> None:
    plural = "We introduce Sparse Routing Networks (SRNs), a family of mixture models."
    assert method_name(plural) == "SRN"
    named = "We propose Low-rank Adapters via Merged Blocks Transfer (LaMBTs), a recipe."
    assert method_name(named) == "LaMBTs"


# --- a name set off by a comma or a dash -------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("To serve many adapters at once, we introduce Falcon, a scalable scheduler.", "Falcon"),
        ("By introducing OrbiNet, a unified encoder for orbital data, we cut errors.", "OrbiNet"),
        (
            "We propose KernelFlow -- a kernel-based normalizing flow for tabular data.",
            "KernelFlow",
        ),
        ("We present Tessellate\u2014a library for mesh learning on the GPU.", "Tessellate"),
        ("To rank training points, we propose C-score, a novel metric of memorisation.", "C-score"),
        ("In this paper, we present Medusa, an efficient way to decode several tokens.", "Medusa"),
        ("We present Marmot: a toolkit for testing data loaders at scale.", "Marmot"),
        (
            "We propose Neural Tide Operators, a family of solvers for coastal flows.",
            "Neural Tide Operators",
        ),
    ],
)
def test_name_set_off_by_an_apposition(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


def test_a_field_acronym_may_begin_a_longer_name() -> None:
    assert method_name("We introduce API Forge, a corpus of tool calls.") == "API Forge"
    assert method_name("We introduce API, a corpus of tool calls.") is None


def test_a_name_after_a_noun_and_a_comma() -> None:
    abstract = "We propose a unified framework, HyperBrush, that paints with layered strokes."
    assert method_name(abstract) == "HyperBrush"


# --- a size or version token -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("We introduce Delta 3B, a 3-billion-parameter model trained on code.", "Delta 3B"),
        ("We release CircuitNet 2.0, which adds timing labels to every design.", "CircuitNet 2.0"),
        ("We present Ottertune v2, a tuner that reuses old sessions.", "Ottertune v2"),
    ],
)
def test_name_with_a_size_or_version(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


# --- a name stated in the text beats a slug or a system merely mentioned -----------------------


def test_text_name_beats_the_repository_slug() -> None:
    url = "https://github.com/lab/gstm-rl"
    abstract = f"We introduce GSTM-RL, an agent that plans with spectral mixers. Code: {url}"
    assert method_name(abstract, (url,)) == "GSTM-RL"
    assert derive_name(abstract, code_urls=(url,)) == "GSTM-RL"


def test_text_name_beats_a_system_it_is_built_on() -> None:
    url = "https://github.com/ray-project/ray"
    abstract = (
        "Our scheduler is built on Ray and runs on thousands of GPUs. We introduce Falcon, a "
        "scalable scheduler for adapter serving. Falcon keeps queues short."
    )
    assert method_name(abstract, (url,)) == "Falcon"


def test_a_coined_repository_name_when_the_text_names_nothing() -> None:
    url = "https://github.com/someone/QuillNet"
    abstract = f"Our proposed method \\method{{}} improves recall. Code: {url}"
    assert method_name(abstract, (url,)) == "QuillNet"
    assert method_name(abstract, ("https://github.com/someone/denovo",)) is None


# --- cue forms that once named nothing ---------------------------------------------------------


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("Quokka is a new planner for household robots. It reads maps.", "Quokka"),
        ("Lumen is a retrieval system for long videos. We show that Lumen is fast.", "Lumen"),
        ("We present a sampler for discrete data named Pebble. It mixes fast.", "Pebble"),
        ("We introduce gridkit, a search space built from grammar rules.", "gridkit"),
        ("We propose nTrans, a transformer whose vectors live on the sphere.", "nTrans"),
        ("We propose the FedWarp framework to align client updates.", "FedWarp"),
        ("Our method, namely ArcLock, blocks transfer of searched cells.", "ArcLock"),
        ("We propose a new detector, named as GraphGuard, which flags fraud.", "GraphGuard"),
        ("Hence, our final method, SwiftMerge, needs no retraining at all.", "SwiftMerge"),
    ],
)
def test_cue_forms(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("We propose ripple pruning, a method that removes heads in waves.", "Ripple pruning"),
        ("Training stalls, a phenomenon we call gradient starvation.", "Gradient starvation"),
        ("We call this phenomenon gradient starvation. We then fix it.", "Gradient starvation"),
    ],
)
def test_lower_case_names(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


def test_lists_and_established_terms_are_not_names() -> None:
    assert method_name("We analyse two algorithms, namely SCX and SCY, in depth.") is None
    assert method_name("These are often referred to as the codebook, a set of vectors.") is None
    assert method_name("We call this superposition. It is common.") is None


# --- names are display text --------------------------------------------------------------------


def test_latex_in_a_name_is_converted() -> None:
    assert method_name("We propose K$^2$Flow, a flow model for sparse counts.") == "K²Flow"
    abstract = "We present $\\mathsf{DNA\\text{-}SE}$, a sampler. $\\mathsf{DNA\\text{-}SE}$ wins."
    name = method_name(abstract)
    assert name is None or "$" not in name


def test_generic_acronyms_are_never_names() -> None:
    assert method_name("We propose a new LLM, which answers questions about tables.") is None
    assert method_name("We introduce RL, a new way to learn.") is None
    assert method_name("We present **GNN**, a message passing model. **GNN** works.") is None


def test_title_capitals_for_a_name_that_is_the_title() -> None:
    abstract = "We propose ripple pruning, a method that removes heads in waves."
    assert derive_name(abstract, title="Ripple Pruning") == "Ripple Pruning"


# --- properties ----------------------------------------------------------------------------------

_VOCABULARY = (
    "data model training noise graph tokens layer loss we propose a the of for and on with is "
    "In This paper method new novel called named Our RL LLM GNN GPU (RL) (GNN) , . : -- "
    "Falcon KernelFlow GSTM $^2$ **bold** https://github.com/a/b v2 3B"
)
WORDS = st.sampled_from(_VOCABULARY.split())
ABSTRACTS = st.one_of(
    st.lists(WORDS, max_size=60).map(" ".join),
    st.text(max_size=300),
)
CAPITAL = st.sampled_from("ABCDFHJKLMPQRTVWXZ")
LOWER = st.text(alphabet="aeioubcdfgklmnprstvz", min_size=2, max_size=6)
# Coined names like "KernelFlow", "OrbiNet", "TabZor": two capitals, lower-case between.
COINED = st.builds(lambda a, b, c, d: a + b + c + d, CAPITAL, LOWER, CAPITAL, LOWER)
SLUGS = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{1,20}", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(ABSTRACTS)
def test_a_name_is_short_printable_and_never_generic(abstract: str) -> None:
    name = method_name(abstract, ("https://github.com/lab/Repo-X",))
    if name is None:
        return
    assert name.strip() == name and name
    assert len(name) <= MAX_NAME
    assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name)
    assert not is_generic(name) and name not in GENERIC


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="abcdefgh", min_size=30, max_size=60), st.sampled_from(["2.0", "3B"]))
def test_a_long_name_with_a_version_is_still_short(middle: str, version: str) -> None:
    abstract = f"We introduce X{middle}Net {version}, a model. X{middle}Net {version} is fast."
    name = method_name(abstract)
    assert name is None or len(name) <= MAX_NAME


@settings(max_examples=200, deadline=None)
@given(COINED, SLUGS, st.sampled_from(["we introduce", "we propose", "This paper presents"]))
def test_a_text_stated_name_beats_any_repository_slug(name: str, slug: str, cue: str) -> None:
    url = f"https://github.com/lab/{slug}"
    abstract = f"{cue} {name}, a method for sorting graphs. The code is at {url}."
    assert method_name(abstract, (url,)) == name


# --- names no cue states (storage/names/weak.py) ------------------------------------------------


def test_a_repository_slug_is_named_as_the_text_writes_it() -> None:
    url = "https://github.com/lab/Quiet_Bee_Hypothesis"
    abstract = (
        "Pruned networks keep their accuracy. The Quiet Bee Hypothesis explains why small "
        f"weights matter. Code: {url}."
    )
    assert method_name(abstract, (url,)) == "Quiet Bee Hypothesis"


def test_a_project_page_names_the_word_the_text_capitalises() -> None:
    abstract = (
        "Sketches are turned into meshes in one pass, and PaintMesh beats every baseline. "
        "See https://paintmesh.github.io/ for videos."
    )
    assert method_name(abstract) == "PaintMesh"


def test_a_project_page_word_found_only_inside_its_url_names_it_by_the_host() -> None:
    # A page made for one paper is named by its host, as derive_name shows it (the text gives
    # no capitals to copy); a person's site with a path names nothing.
    abstract = "Sketches are turned into meshes. See https://paintmesh.github.io/ for videos."
    assert method_name(abstract) == "paintmesh" == derive_name(abstract)
    personal = "Sketches are turned into meshes. See https://jdoe.github.io/projects/x for videos."
    assert method_name(personal) is None


def test_an_acronym_the_paper_defines_for_its_own_work_is_named() -> None:
    abstract = (
        "Tables are hard to read for language models. We therefore build a reader that learns "
        "row-aware table encoding (RoTE) from captions alone. RoTE doubles recall."
    )
    assert method_name(abstract) == "RoTE"


def test_an_acronym_the_field_defines_is_not_the_papers_name() -> None:
    abstract = (
        "Fitted Value Iteration (FVI) is a classic planner. Its error grows with depth, "
        "and FVI is hard to tune."
    )
    assert method_name(abstract) is None


def test_a_coined_word_that_the_abstract_keeps_as_its_subject_is_named() -> None:
    abstract = (
        "Long videos overwhelm memory. The approach below compresses frames into tokens. "
        "ClipZip keeps the key frames. ClipZip is trained once, and ClipZip runs on a phone."
    )
    assert method_name(abstract) == "ClipZip"


def test_a_coined_word_said_once_or_twice_is_not_named() -> None:
    abstract = "Long videos overwhelm memory. ClipZip keeps the key frames, unlike ClipZip-lite."
    assert method_name(abstract) is None


def test_a_project_page_path_names_the_project() -> None:
    abstract = (
        "Depth maps are read off a frozen image model, and FrostDepth needs no labels. "
        "Project page: https://someone.github.io/projects/FrostDepth/"
    )
    assert method_name(abstract) == "FrostDepth"


def test_hyphenated_capitalised_words_begin_a_long_name_not_a_coined_one() -> None:
    abstract = (
        "We propose Time-Aware Graph Sampler (TAGS), which draws neighbours by recency. "
        "TAGS is fast."
    )
    assert method_name(abstract) == "TAGS"
    alone = "We propose Time-Aware, a sampler that draws neighbours by recency."
    assert method_name(alone) == "Time-Aware"


def test_a_project_page_path_keeps_its_capitals_when_the_text_says_the_name_only_there() -> None:
    abstract = "Depth maps come from a frozen model. Videos: https://lab.github.io/FrostDepth/"
    assert method_name(abstract) == "FrostDepth"


@pytest.mark.parametrize(
    "abstract",
    [
        "Labels are scarce. We therefore release SlimNet, a compact vision model for drones.",
        "Labels are scarce. Our tests rely on SlimNet, an open benchmark of drone images.",
        "Labels are scarce, so we train SlimNet, a new and simple model, on synthetic views.",
    ],
)
def test_a_coined_word_described_as_a_kind_of_thing_is_named(abstract: str) -> None:
    assert method_name(abstract) == "SlimNet"


def test_a_coined_word_described_as_no_kind_of_thing_is_not_named() -> None:
    abstract = "Labels are scarce. We test on ImageNet, a large collection of photos."
    assert method_name(abstract) is None


def test_an_acronym_for_something_new_the_paper_makes_is_named() -> None:
    abstract = (
        "Sensors drift over months. We fold this prior into a novel drift-aware filter (DRIFTR) "
        "for long deployments. DRIFTR runs on microcontrollers."
    )
    assert method_name(abstract) == "DRIFTR"


def test_a_two_capital_field_term_never_beats_the_papers_name() -> None:
    abstract = (
        "Large label spaces, also known as extreme classification (XC), arise in tagging. XC "
        "models are big, XC training is slow, and XC data is sparse. In this work, we propose "
        "FloatLite, a low-precision training framework."
    )
    assert method_name(abstract) == "FloatLite"


# --- the name shown (derive_name): guesses sure enough to show ---------------------------------


@pytest.mark.parametrize(
    "abstract",
    [
        "Rooftop solar is hard to map. We propose a shadow-aware panel segmenter with tiled "
        "attention (SPAN) for aerial photos. SPAN needs ten times fewer labels.",
        "Rooftop solar is hard to map. In this work we develop a novel and rather simple way "
        "to outline panels on roofs (SPAN). SPAN needs ten times fewer labels.",
        "Rooftop solar is hard to map. We design a segmenter for the tiled and often shadowed "
        "aerial photos of cities (SPAN), and our SPAN needs ten times fewer labels.",
    ],
)
def test_an_acronym_defined_where_the_paper_makes_something_is_shown(abstract: str) -> None:
    assert derive_name(abstract) == "SPAN"


@pytest.mark.parametrize(
    "abstract",
    [
        # said once: a passing abbreviation
        "Rooftop solar is hard to map. We propose a segmenter that is aware of shadows and of "
        "the tiles of aerial photos (SPAN), with ten times fewer labels.",
        # the topic after a preposition, never the subject of a later sentence
        "Rooftop solar is hard to map. We propose a faster sampler for Hamiltonian Monte Carlo "
        "(HMCX) on aerial photos, where HMCX is the usual choice.",
        # defined by the field, not where the paper makes something
        "Hamiltonian Monte Carlo (HMCX) is slow on aerial photos. We show that HMCX mixes well.",
    ],
)
def test_an_acronym_the_paper_does_not_make_is_not_shown(abstract: str) -> None:
    assert derive_name(abstract) != "HMCX" and derive_name(abstract) != "SPAN"


def test_an_acronym_said_once_where_the_paper_makes_a_new_method_is_shown() -> None:
    """Said once, but of the novel thing the paper proposes: its name, not a passing one."""
    abstract = (
        "Integer training is cheap but coarse. In this paper, we propose a novel training "
        "framework that, for the first time, reaches adaptive bit allocation (ABAL) for every "
        "layer. It halves the cost on three backbones."
    )
    assert derive_name(abstract) == "ABAL"


def test_an_acronym_said_once_for_a_new_task_is_not_shown() -> None:
    """A new task or dataset the paper proposes is what it studies, not its method."""
    abstract = (
        "Animals adapt fast. We first propose a new task, the sequential maze game (SMG), "
        "which extends a classic test of memory. A network trained on it forgets little."
    )
    assert derive_name(abstract) != "SMG"


@pytest.mark.parametrize(
    "abstract",
    [
        "We present QuarrySet, a benchmark of rock photos. Leveraging QuarrySet, we introduce "
        "GeoLens, a vision model for geologists. GeoLens is public.",
        "We build QuarrySet, a dataset of rock photos. Using the QuarrySet dataset, we introduce "
        "GeoLens, a vision model for geologists. GeoLens is public.",
    ],
)
def test_a_dataset_the_text_uses_to_make_its_method_is_not_the_name(abstract: str) -> None:
    assert method_name(abstract) == "GeoLens"


@pytest.mark.parametrize(
    "url", ["https://quillnet.github.io", "https://quillnet-page.github.io/website/"]
)
def test_a_page_made_for_the_paper_names_it_like_a_repository(url: str) -> None:
    abstract = f"Handwriting is hard to synthesise. We fix the strokes. Samples: {url}"
    assert derive_name(abstract) == "quillnet"


@pytest.mark.parametrize(
    "url", ["https://someone.github.io/projects/strokes/", "https://review20417.github.io"]
)
def test_a_personal_site_or_a_submission_number_names_nothing(url: str) -> None:
    abstract = f"Handwriting is hard to synthesise. We fix the strokes. Samples: {url}"
    assert derive_name(abstract) == "Handwriting is hard to synthesise"


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("Filters leak. We propose a new attack Hornet that poisons a few samples.", "Hornet"),
        ("Agents spread exploits. We propose a defense Quillguard to stop them.", "Quillguard"),
    ],
)
def test_a_kind_right_before_a_capitalised_word_names_it(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


@pytest.mark.parametrize(
    "abstract",
    [
        "Sharpness matters. We introduce a measure of the loss Hessian that tracks it.",
        "We propose Residual Policy Optimization Schedules for robots, and policy Hessian tests.",
        "Results show that our method beats the strong baselines Smith and Jones on all tasks.",
    ],
)
def test_a_capitalised_word_after_a_kind_in_other_phrases_is_no_name(abstract: str) -> None:
    assert method_name(abstract) not in ("Hessian", "Smith", "Optimization Schedules")


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("We introduce Ripple Merging (RM), a way to merge adapters.", "Ripple Merging"),
        ("This paper presents Tidal Decoding (ID), a simple way to decode.", "Tidal Decoding"),
        ("We propose **Ripple Merging (RM)**, which merges adapters.", "Ripple Merging"),
    ],
)
def test_a_two_capital_or_generic_short_form_leaves_the_long_name(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


def test_a_short_form_that_is_a_name_still_names_the_method() -> None:
    abstract = "We introduce Ripple Merging (RiMe), a way to merge adapters. RiMe is fast."
    assert method_name(abstract) == "RiMe"


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("Chat logs are rare. We compiled ChatHarbor, a corpus of a million chats.", "ChatHarbor"),
        ("We pioneer Liquid Meshes, a representation of moving scenes.", "Liquid Meshes"),
    ],
)
def test_compiling_and_pioneering_make_the_papers_own_work(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


@pytest.mark.parametrize(
    "abstract",
    [
        "Subsets are hard to score. Moreover, we present the Layered Encoding of Sparse Subset "
        "Ordering (QUILTS), an attention model. Tests favour QUILTS, and QUILTS is fast.",
        "Caches grow with the context, so we cut memory by presenting a novel approach, Pooled "
        "Keys for Long Context Reading (PULCR). PULCR keeps a fixed-size cache.",
    ],
)
def test_an_acronym_after_a_capitalised_long_name_with_small_words_is_shown(abstract: str) -> None:
    assert derive_name(abstract) in ("QUILTS", "PULCR")


def test_a_venue_and_year_after_a_repository_name_are_not_part_of_it() -> None:
    abstract = "Queries are rotated. Code: https://github.com/lab/SpinQuery_ICML2031"
    assert derive_name(abstract, code_urls=("https://github.com/lab/SpinQuery_ICML2031",)) == (
        "SpinQuery"
    )


def test_a_name_said_inside_a_longer_hyphenated_name_is_not_repeated_by_it() -> None:
    # "ORB" is said once alone; "ORB-Suite" three times: the suite is the paper's subject.
    abstract = (
        "We introduce open retrieval bias (ORB), a measure of how retrievers favour popular "
        "passages. We then release the ORB-Suite benchmark with nine domains. ORB-Suite exposes "
        "failures of dense retrievers, and ORB-Suite results transfer to new domains."
    )
    assert method_name(abstract) == "ORB-Suite"


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "Sorting is slow on sparse inputs. We propose an LLM-based solution, SortPilot, "
            "that writes sorting kernels for each input shape.",
            "SortPilot",
        ),
        (
            "Charts hide their data from readers. We introduce a compact MLLM, ChartLens, which "
            "reads values from chart images.",
            "ChartLens",
        ),
        (
            "Exams in many scripts remain untested. Our novel resource, POLYEXAM, is a benchmark "
            "of questions in thirty scripts.",
            "POLYEXAM",
        ),
        (
            "Early exits waste accuracy. We propose a new exit criterion VOTEX where exits vote "
            "on the label.",
            "VOTEX",
        ),
    ],
)
def test_solutions_resources_criteria_and_language_models_are_kinds(
    abstract: str, name: str
) -> None:
    assert method_name(abstract) == name


def test_a_list_after_a_plural_kind_names_what_is_compared_not_made() -> None:
    abstract = (
        "Compilers emit intermediate code. In this paper, we present a study evaluating four "
        "LLMs\u2014GPT-4, Gemma 2, Llama 3 and Mistral\u2014on reading it."
    )
    assert derive_name(abstract) != "GPT-4"
    assert method_name(abstract) is None


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "Clinical notes are long, and we first introduce Ward Notes Bench, a corpus of notes. "
            "Next, we propose the Clinical Note Reader (CliNoTE), a novel framework that "
            "condenses notes for physicians. CliNoTE halves reading time, and CliNoTE runs on "
            "a laptop.",
            "CliNoTE",
        ),
        (
            "This paper introduces the retrieval-augmented dialogue agent with Labelled Automata "
            "(LA-Plan), a new framework designed to keep dialogues on track.",
            "LA-Plan",
        ),
    ],
)
def test_an_acronym_the_words_do_not_spell_names_what_the_cue_introduces_and_describes(
    abstract: str, name: str
) -> None:
    assert method_name(abstract) == name


@pytest.mark.parametrize("term", ["SSL", "SMC", "MCMC", "SCM", "DRO", "GCN", "NAS"])
def test_field_terms_found_as_false_names_are_generic(term: str) -> None:
    assert is_generic(term)


@pytest.mark.parametrize(
    "abstract",
    [
        "We route each token through a gated mixer and name the framework as GM-Route. "
        "GM-Route halves latency.",
        "Our sampler reuses old chains, and we call it ChainRe, since it recycles them.",
    ],
)
def test_a_naming_verb_whose_subject_came_before_names_the_method(abstract: str) -> None:
    assert method_name(abstract) in ("GM-Route", "ChainRe")


def test_a_repository_slug_of_lower_case_words_is_a_description_not_a_name() -> None:
    url = "https://github.com/lab/geometry-of-diffusion-models"
    abstract = f"We study how diffusion models curve their latent space. Code: {url}."
    title = "The Geometry of Diffusion Models Revisited"
    assert derive_name(abstract, None, (url,)) == "How diffusion models curve their latent space"
    assert derive_name(abstract, title, (url,)) == "The Geometry of Diffusion Models Revisited"
    short = "https://github.com/lab/tree-diffusion"
    assert derive_name(abstract, title, (short,)) == "tree-diffusion"  # two words may name it


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "Fair clustering is hard to approximate. We propose a novel ``Split and Join'' "
            "framework that returns a constant-factor solution.",
            "Split and Join",
        ),
        (
            'Here, we introduce the "light tubes" framework, a geometric embedding of trees.',
            "Light tubes",
        ),
    ],
)
def test_a_quoted_phrase_and_its_kind_after_a_cue_is_a_name(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


def test_a_common_word_in_quotes_is_no_name() -> None:
    assert method_name('We propose a new "robust" method for ranking.') is None


def test_by_proposing_introduces_the_papers_own_lower_case_name() -> None:
    abstract = (
        "Circuits cannot read trees. We address this by proposing sum-product-tree networks, "
        "an extension of circuits to tree-structured data."
    )
    assert method_name(abstract) == "Sum-product-tree networks"


def test_we_provide_a_kind_and_its_name() -> None:
    abstract = (
        "Uncertainty is rarely reported for protein fitness. We here provide a Gaussian "
        "process model, Mutarex, with a kernel for mutation similarity."
    )
    assert method_name(abstract) == "Mutarex"


@pytest.mark.parametrize(
    "verb", ["developing", "designing", "building", "constructing", "devising", "creating"]
)
def test_by_making_a_named_thing_is_a_cue_like_by_proposing(verb: str) -> None:
    abstract = (
        f"We tackle client drift by {verb} a customised normalisation approach, Hybrid Layer "
        "Scaling (HLS). HLS splits the statistics of each layer between clients. Code: "
        "https://github.com/lab/HybridLS"
    )
    code_urls = ("https://github.com/lab/HybridLS",)
    assert method_name(abstract, code_urls) == "HLS"
    assert derive_name(abstract, code_urls=code_urls) == "HLS"
