"""Search quality: queries a person would type, each with the paper that must come first.

The library is tests/fixtures/search/abstracts.jsonl: 320 real abstracts picked from the shared
corpus (by title hash, abstracts under 1,100 characters). Queries are half-remembered words from
a title or abstract, in any order, with typos, partial names and operators; the expected paper is
named by its title. Required: >= 90% ranked first and 100% in the top 5.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from papershelf.storage.model import Paper
from papershelf.storage.search.engine import SearchEngine

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "search" / "abstracts.jsonl"


def load_fixture() -> list[Paper]:
    """Papers from the fixture; the name is the title's head (before ':'), as for named methods."""
    papers = []
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        title = record["title"].strip()
        name = title.split(":")[0] if ":" in title else " ".join(title.split()[:4])
        papers.append(
            Paper(
                id=hashlib.sha1(record["abstract"].encode()).hexdigest()[:12],
                name=name,
                title=title,
                abstract=record["abstract"],
                venue=record["venue"],
                sources=("abstracts.jsonl",),
            )
        )
    return papers


# (query, start of the title of the paper that must rank first)
CASES = [
    ("instructions data llm separate", "Can LLMs Separate Instructions From Data"),
    ("image editing dataset instruction high quality", "HQ-Edit"),
    ("bijection jailbreak", "Endless Jailbreaks with Bijection"),
    ("gnn rewiring grass", "Greener GRASS"),
    ("bayesian bilevel", "Convergence of Bayesian Bilevel"),
    ("auction advertising", "Optimal Auction Design"),
    ("pomdp belief state", "Belief-State Query Policies"),
    ("tamper resistant open weight", "Tamper-Resistant Safeguards"),
    ("addition transformers", "Understanding Addition in Transformers"),
    ("inorganic materials language model", "Fine-Tuned Language Models Generate Stable Inorganic"),
    ("conformal disparate impact", "Conformal Prediction Sets Can Cause Disparate"),
    ("radiance field compression attribute", "ACRF"),
    ("grapharena", "GraphArena"),
    ("wasserstein policy optimisation", "Wasserstein Policy Optimization"),
    ("forgetting finetuning scaling laws", "Scaling Laws for Forgetting"),
    ("data shapley selection", "Rethinking Data Shapley"),
    ("score matching equilibrium", "Efficient Score Matching with Deep Equilibrium"),
    ("run out of data", "Position: Will we run out of data"),
    ("debate doubly efficient", "Scalable AI Safety via Doubly-Efficient Debate"),
    ("point cloud completion unbalanced", "Unpaired Point Cloud Completion"),
    ("idk token", "I Don't Know"),
    ("lora ntk minima", "LoRA Training in the NTK Regime"),
    ("unhippo", "UnHiPPO"),
    ("malibo likelihood-free", "MALIBO"),
    ("adjoint matching", "Adjoint Matching"),
    ("bayesian flow networks", "Unifying Bayesian Flow Networks"),
    ("dropout modified equations", "Stochastic Modified Equations and Dynamics of Dropout"),
    ("noisy embeddings instruction finetuning", "NEFTune"),
    ("genie interactive environments", "Genie"),
    ("gflownet local search", "Local Search GFlowNets"),
    ("cryptic crossword", "A Reasoning-Based Approach to Cryptic Crossword"),
    ("phantomwiki", "PhantomWiki"),
    ("copyrighted content", "DE-COP"),
    ("compositional text to video", "VideoTetris"),
    ("rag watermark", "Ward"),
    ("imitation graph diffusion in-context", "Instant Policy"),
    ("self play autonomy", "Robust Autonomy Emerges from Self-Play"),
    ("molecule generation rotational alignment", "Scalable Non-Equivariant 3D Molecule"),
    ("koopman probabilistic", "KooNPro"),
    ("surgical object", "Recognize Any Surgical Object"),
    ("poodle pooled dense", "PooDLe"),
    ("goldfish memorize", "Be like a Goldfish"),
    ("relu activation sparsity llm", "ReLU Strikes Back"),
    ("kfac inverse free", "Structured Inverse-Free Natural Gradient"),
    ("gaussian splatting wild", "WildGaussians"),
    ("looped transformers", "On Expressive Power of Looped Transformers"),
    ("query routing cost", "Hybrid LLM"),
    ("rediffuser", "ReDiffuser"),
    # short, common words: the title must win over abstracts that merely mention them
    ("diffusion inverse", "Regularization by Texts for Latent Diffusion Inverse"),
    ("flow matching tabular", "Exponential Family Variational Flow Matching"),
    ("federated calibration", "FedCal"),
    ("continual replay", "Layerwise Proximal Replay"),
    ("bandit knapsack", "Piecewise-Stationary Bandits with Knapsacks"),
    ("sharpness aware pruning", "Adaptive Sharpness-Aware Pruning"),
    ("neural collapse ood", "NECO"),
    ("model merging federated", "Local Superior Soups"),
    ("mean field langevin chaos", "Propagation of Chaos for Mean-Field Langevin"),
    ("dropedge", "Aggregation Buffer"),
    ("coreset variational", "Variational Bayesian Pseudo-Coreset"),
    ("text to 3d sparse view", "Instant3D"),
    # typos
    ("reinforcment lerning critique", "Teaching Language Models to Critique"),
    ("diferentially private trasnformer", "Delving into Differentially Private Transformer"),
    ("homomorphsim counts", "Homomorphism Counts for Graph Neural Networks"),
    ("tensor compeltion richardson", "Fast Tensor Completion"),
    ("one step generator difusion teacher", "PaGoDA"),
    ("wirless channels", "Physics-Informed Generative Modeling of Wireless"),
    # partial names and prefixes while typing
    ("koopm", "KooNPro"),
    ("neftu", "NEFTune"),
    ("spike patterns", "convSeq"),
    ("typography", "MetaDesigner"),
    ("embodiment co-design", "BodyGen"),
    # operators
    ("^proteus", "Proteus"),
    ("'ECE calibration", "How Flawed Is ECE"),
    ("routing|router llm cost", "Hybrid LLM"),
    ("social welfare !fairness", "Learning Social Welfare Functions"),
    ("lie symmetry venue:icml", "Physics and Lie symmetry informed Gaussian"),
    ('"pixel-wise uncertainty"', "BayesDiff"),
]


@pytest.fixture(scope="module")
def engine_and_titles() -> tuple[SearchEngine, dict[str, str]]:
    papers = load_fixture()
    return SearchEngine(papers), {paper.id: paper.title or "" for paper in papers}


def ranks(engine: SearchEngine, titles: dict[str, str]) -> list[tuple[str, str, int | None]]:
    """(query, expected, 1-based rank or None) for every case."""
    out = []
    for query, expected in CASES:
        matching = [t for t in titles.values() if t.startswith(expected)]
        assert len(matching) == 1, f"expected title not unique in the fixture: {expected!r}"
        order = [titles[hit.paper_id] for hit in engine.search(query, {})]
        rank = next((n for n, title in enumerate(order, 1) if title.startswith(expected)), None)
        out.append((query, expected, rank))
    return out


def test_fixture_is_big_enough():
    assert len(load_fixture()) >= 300
    assert len(CASES) >= 40


def test_search_quality(engine_and_titles):
    engine, titles = engine_and_titles
    results = ranks(engine, titles)
    first = sum(rank == 1 for _, _, rank in results) / len(results)
    top5 = sum(rank is not None and rank <= 5 for _, _, rank in results) / len(results)
    misses = [(q, e, r) for q, e, r in results if r != 1]
    print(f"\nsearch quality: first {first:.1%}, top 5 {top5:.1%} of {len(results)}; {misses}")
    assert top5 == 1.0, misses
    assert first >= 0.9, misses
