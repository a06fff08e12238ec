"""The learned name ranker and its gate (storage/names/rank.py, weights in rank_weights.py).

Every abstract here is written for the test, one or more for each failure class the ranker was
fitted against (bench/fit_names.py): another candidate wins, no cue, an unsafe or a wrong guess,
a position paper. Where a test says the hand-written choice differs, it fails without the ranker.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from papershelf.storage.names import rank
from papershelf.storage.names.derive import derive_name, headline, ranking_inputs
from papershelf.storage.names.rank_weights import ADD, GATE, KEEP, WEIGHTS
from papershelf.storage.text.latex import display_text
from papershelf.storage.text.urls import split_urls

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _features(abstract: str, name: str, code_urls: tuple[str, ...] = ()) -> dict[str, float]:
    """The named candidate's features, by feature name."""
    ranking = ranking_inputs(abstract, code_urls)
    rows = rank.all_features(ranking.everyone, ranking.ctx)
    for candidate, row in zip(ranking.everyone, rows, strict=True):
        if candidate.name == name:
            return dict(zip(rank.FEATURES, row, strict=True))
    raise AssertionError(f"{name!r} is not a candidate: {[c.name for c in ranking.everyone]}")


def _shown(abstract: str) -> str:
    return derive_name(abstract, None, split_urls(abstract)[0])


def test_the_weights_fit_the_features() -> None:
    # A feature added without refitting (bench/fit_names.py) would pair weights with the wrong
    # features: scoring refuses (zip strict), and this says why.
    assert len(WEIGHTS) == len(rank.FEATURES)
    assert len(GATE) == len(rank.GATE_FEATURES)
    assert math.isfinite(KEEP) and (math.isfinite(ADD) or math.isinf(ADD))


# --- features ---------------------------------------------------------------------------------


def test_features_of_the_papers_own_contribution() -> None:
    abstract = (
        "Sea ice charts are drawn by hand. We then design a compact segmenter for radar scenes, "
        "IceSeg, which needs few labels. IceSeg is released, and IceSeg beats the ResNet baseline."
    )
    ice = _features(abstract, "IceSeg")
    assert ice["after_lead"] == 1.0  # after "we ... design" in its sentence
    assert ice["starts_sentence"] == 0.5  # once: "IceSeg is released"
    assert ice["acts"] > 0  # "IceSeg beats"
    assert ice["log_count"] == pytest.approx(math.log(3))
    baseline = _features(abstract, "ResNet")
    assert baseline["after_preposition"] == 0.0 and baseline["modifies"] == 1.0  # "ResNet baseline"
    assert baseline["after_lead"] == 0.0 and baseline["said_once"] == 1.0


def test_features_of_an_acronym_and_its_long_name() -> None:
    abstract = (
        "Tidal models drift. Based on this module, an end-to-end Sparse Tidal Mixer (ST-Mix) is "
        "presented for coastal gauges, which halves the error of harmonic fits."
    )
    short = _features(abstract, "ST-Mix")
    assert short["in_parens"] == 1.0 and short["expands"] == 1.0  # its words spell it
    assert short["passive"] == 1.0  # "(ST-Mix) is presented"
    assert short["no_cue"] == 1.0 and short["has_hyphen"] == 1.0


def test_features_of_the_repository() -> None:
    abstract = (
        "Maps age. We present GlacierNet, a change detector for satellite tiles. Our code is at "
        "https://github.com/lab/glaciernet."
    )
    found = _features(abstract, "GlacierNet", split_urls(abstract)[0])
    assert found["repo_same"] == 1.0 and found["url_same"] == 1.0
    assert found["described"] == 1.0  # "GlacierNet, a change detector"
    assert found["cue6"] == 1.0  # "we present X, a ...": the rules' surest cue


# --- another candidate wins -------------------------------------------------------------------


def test_the_repository_and_the_text_agree_over_the_first_cue() -> None:
    # Two contributions; the code is the second's, and the text describes it as a model.
    abstract = (
        "Blind restoration needs data and capacity. We present a dual strategy: SiftPipe, a data "
        "curation pipeline, and MistClear, a restoration model built on diffusion. MistClear "
        "outperforms prior restorers on real photos. Code: https://github.com/lab/MistClear"
    )
    ranking = ranking_inputs(abstract, split_urls(abstract)[0])
    assert ranking.ctx.chosen == "SiftPipe"  # the hand-written rules take the first cue's
    assert _shown(abstract) == "MistClear"


def test_the_acronym_of_a_transformer_wins_over_the_topic_before_it() -> None:
    abstract = (
        "Answering questions about sensor streams is new. We build Stream Question Answering "
        "(SQA), a dataset of sensor logs. Building on this resource, we propose the Sensor "
        "Query Transformer (SQFormer), a novel framework that bridges stream encoders and "
        "language models. SQFormer improves accuracy on SQA by ten points."
    )
    ranking = ranking_inputs(abstract, ())
    assert ranking.ctx.chosen != "SQFormer"
    assert _shown(abstract) == "SQFormer"


# --- no cue -----------------------------------------------------------------------------------


def test_a_coined_name_the_text_keeps_using_is_shown_without_a_cue() -> None:
    abstract = (
        "Graph edit distance is costly to compute. We address these limitations with TorchFold, "
        "introducing a new view of the problem. Instead of training a network to predict edits, "
        "TorchFold employs a solver. TorchFold beats every baseline."
    )
    assert ranking_inputs(abstract, ()).ctx.chosen is None  # no rule names it
    assert _shown(abstract) == "TorchFold"


# --- unsafe guess -----------------------------------------------------------------------------


def test_a_topic_acronym_in_parentheses_is_never_added() -> None:
    abstract = (
        "Wind farms are hard to site. We propose a faster solver for Mixed Integer Programs "
        "(MIPX) over wind maps, where MIPX is the usual tool and MIPX solvers are slow."
    )
    ranking = ranking_inputs(abstract, ())
    assert ranking.ctx.chosen is None
    values = ranking.gate_features()
    assert values is not None and rank.gate_score(values, named=False) == -math.inf
    assert _shown(abstract) == headline(display_text(abstract).text)


# --- wrong guess ------------------------------------------------------------------------------


def test_a_benchmark_problem_the_paper_evaluates_on_is_withdrawn() -> None:
    abstract = (
        "Solver choice matters for routing. We describe a framework that picks a solver per "
        "instance and explore several designs for each part. We evaluate our framework on two "
        "classic problems, Orienteering Tour Problem (OTP) and Capacitated Depot Routing (CDR). "
        "Results show that picking helps."
    )
    ranking = ranking_inputs(abstract, ())
    assert ranking.ctx.chosen == "OTP"  # the hand-written rules would show a topic's acronym
    assert _shown(abstract) == headline(display_text(abstract).text)


# --- position papers --------------------------------------------------------------------------


def test_a_position_paper_names_no_method() -> None:
    # The corpus labels these by their titles' "Position:"; papershelf shows no such name (a
    # title's "Position" is not a name either: derive.title_name).
    abstract = (
        "In this position paper, we argue that benchmarks for tabular learning are saturated and "
        "that the community must build harder ones."
    )
    assert _shown(abstract) == headline(display_text(abstract).text)


# --- the fit ----------------------------------------------------------------------------------


def test_the_fit_learns_which_feature_marks_the_right_candidate() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import fit_names
    finally:
        sys.path.remove(str(BENCH))
    # Two features; the right candidate always has the second: its weight must come out higher,
    # and the same data must give the same weights (the fit is deterministic).
    data = [
        ([[1.0, 0.0], [0.0, 1.0]], [False, True]),
        ([[0.0, 1.0], [1.0, 0.0], [0.0, 0.0]], [True, False, False]),
        ([[1.0, 1.0], [1.0, 0.0]], [True, False]),
    ]
    weights = fit_names.fit(data, 2)
    assert weights[1] > weights[0]
    assert fit_names.accuracy(data, weights) == 1.0
    assert fit_names.fit(data, 2) == weights
