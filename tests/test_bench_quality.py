"""bench/bench_quality.py: its metrics on known rank lists, its seeded query rules, and a small
run of the whole script over the 320-abstract fixture (papershelf, fzf and rapidfuzz)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_quality import evaluate, scores, table  # noqa: E402
from quality_queries import CATEGORIES, Generator, KnownItem, Target, words  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "search" / "abstracts.jsonl"

TARGETS = [
    Target(
        0,
        "Denoising Diffusion Probabilistic Models",
        "We present high quality image synthesis results using diffusion probabilistic models, "
        "a class of latent variable models inspired by considerations from nonequilibrium "
        "thermodynamics.",
    ),
    Target(
        1,
        "Attention Is All You Need",
        "The dominant sequence transduction models are based on complex recurrent or "
        "convolutional neural networks. We propose the Transformer, based solely on attention "
        "mechanisms, dispensing with recurrence and convolutions entirely.",
    ),
    Target(
        2,
        "Deep Residual Learning for Image Recognition",
        "Deeper neural networks are more difficult to train. We present a residual learning "
        "framework to ease the training of networks that are substantially deeper than those "
        "used previously.",
    ),
]


def test_scores_of_known_rank_lists() -> None:
    result = scores([1, 2, None, 5, 1, 7])
    assert result.count == 6
    assert result.top1 == pytest.approx(2 / 6)
    assert result.top5 == pytest.approx(4 / 6)
    assert result.mrr == pytest.approx((1 + 1 / 2 + 0 + 1 / 5 + 1 + 1 / 7) / 6)
    assert scores([None, None]).mrr == 0
    assert scores([]).count == 0
    with pytest.raises(ValueError):
        scores([0])


def test_evaluate_groups_ranks_by_category_and_overall() -> None:
    items = [
        KnownItem("exact", "a", "a", 0),
        KnownItem("exact", "b", "b", 1),
        KnownItem("typo", "c", "c", 2),
    ]
    ranks = {"a": 1, "b": 4, "c": None}
    result = evaluate(items, lambda item: ranks[item.query])
    assert result["exact"].top1 == 0.5
    assert result["exact"].mrr == pytest.approx((1 + 1 / 4) / 2)
    assert result["typo"].top5 == 0
    assert result["all"].count == 3
    assert result["all"].mrr == pytest.approx((1 + 1 / 4) / 3)
    assert "| exact | 2 | 50% / 100% / 0.62 |" in table({"x": result})


def test_the_generator_is_seeded_and_keeps_its_rules() -> None:
    first = Generator(TARGETS, seed=3).generate(12)
    assert first == Generator(TARGETS, seed=3).generate(12)
    assert first != Generator(TARGETS, seed=4).generate(12)
    assert {item.category for item in first} == set(CATEGORIES)
    for item in first:
        target = TARGETS[item.target]
        known = set(words(target.title)) | set(words(target.abstract))
        query = item.plain.split()
        if item.category in ("exact", "order"):
            assert set(query) <= known and 2 <= len(query) <= 4
        elif item.category == "prefix":
            assert all(any(w.startswith(q) and len(w) > len(q) >= 4 for w in known) for q in query)
        elif item.category == "misspelt":
            assert not set(query) & known
        elif item.category == "typo":
            assert len(set(query) - known) == 1
        elif item.category == "natural":
            assert set(query) <= set(words(target.abstract))
            assert not set(query) & set(words(target.title))
        else:
            assert re.match(r'(title:|abstract:|")', item.query)


def test_a_typo_is_one_edit_after_the_first_letter() -> None:
    generator = Generator(TARGETS, seed=5)
    from rapidfuzz.distance import OSA

    for word in ("diffusion", "transformer", "residual", "attention") * 10:
        typo = generator.typo(word)
        assert typo != word and typo[0] == word[0]
        assert OSA.distance(word, typo) == 1


@pytest.mark.skipif(shutil.which("fzf") is None, reason="fzf is not installed")
def test_the_script_runs_on_a_small_library(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "bench_quality.py"),
            "--corpus",
            str(FIXTURE),
            "--per-category",
            "6",
            "--cache",
            str(tmp_path / "ranks.json"),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    assert "320 papers, 42 queries (seed 14)" in done.stdout
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| category | n | papershelf top-1") and "fzf" in rows[0]
    assert "rapidfuzz WRatio" in rows[0]
    body = {row.split(" | ")[0][2:]: row for row in rows[2:]}
    assert set(body) == {*CATEGORIES, "all"}
    cells = re.findall(r"(\d+)% / (\d+)% / (\d\.\d\d)", body["all"])
    assert len(cells) == 3
    for top1, top5, mrr in cells:
        assert int(top1) <= int(top5) <= 100
        assert int(top1) / 100 <= float(mrr) + 0.005
    assert (tmp_path / "ranks.json").exists()  # the baselines' ranks, kept for the next run
