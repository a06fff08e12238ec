"""Related papers: TF-IDF neighbours on a hand-made library and on a real-corpus excerpt."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import papershelf.storage.related.index as related_index
from papershelf.storage.ingest.parse import paper_id, read_file
from papershelf.storage.model import Paper
from papershelf.storage.related.index import RelatedIndex, tokens

EXCERPT = Path(__file__).resolve().parent.parent / "fixtures" / "related" / "excerpt.jsonl"

ABSTRACTS = {
    "diffusion-a": "We train denoising diffusion models for image synthesis with a new noise "
    "schedule; the sampler reaches low FID on ImageNet with few denoising steps.",
    "diffusion-b": "Denoising diffusion samplers need many steps. We distil a diffusion model "
    "into a few-step image generator and keep its FID on ImageNet.",
    "bandit-a": "We study contextual bandits with heavy-tailed rewards and prove a regret bound "
    "that matches the lower bound up to logarithmic factors.",
    "bandit-b": "Linear bandits in batches: an algorithm whose regret is optimal with few "
    "policy switches, and a lower bound on the regret of any batched bandit policy.",
    "protein-a": "Protein structure prediction from sequence with an equivariant network "
    "trained on folded proteins; it predicts side chains and backbone angles.",
    "protein-b": "An inverse folding model designs protein sequences for a given backbone "
    "structure, scoring each sequence with a learned structure predictor.",
    "graph-a": "Graph neural networks over-smooth node features with depth; we add residual "
    "connections between message passing layers of the graph network.",
    "graph-b": "Message passing on relational databases: a graph neural network over the "
    "tables' rows links nodes by foreign keys.",
    "lonely": "Weather forecasting for farms with rain gauges and satellite pictures.",
}


def make(key: str, abstract: str, title: str | None = None) -> Paper:
    return Paper(
        id=paper_id(abstract), name=key, title=title, abstract=abstract, venue=None, sources=()
    )


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    return [make(key, text) for key, text in ABSTRACTS.items()]


@pytest.fixture(scope="module")
def index(papers: list[Paper]) -> RelatedIndex:
    return RelatedIndex(papers)


def name_of(papers: list[Paper], pid: str) -> str:
    return next(paper.name for paper in papers if paper.id == pid)


@pytest.mark.parametrize("key", [k for k in ABSTRACTS if k != "lonely"])
def test_most_related_is_the_same_topic(papers, index, key):
    paper = next(p for p in papers if p.name == key)
    best, score = index.related(paper.id, k=1)[0]
    partner = key[:-1] + ("b" if key.endswith("a") else "a")
    assert name_of(papers, best) == partner
    assert 0.0 < score <= 1.0


def test_self_is_excluded_and_scores_descend(papers, index):
    for paper in papers:
        found = index.related(paper.id, k=20)
        assert paper.id not in {pid for pid, _ in found}
        scores = [score for _, score in found]
        assert scores == sorted(scores, reverse=True)
        assert len(found) == len({pid for pid, _ in found})


def test_a_paper_sharing_no_term_has_no_related_papers(papers, index):
    lonely = next(p for p in papers if p.name == "lonely")
    assert index.related(lonely.id) == []


def test_k_limits_and_unknown_ids(papers, index):
    first = papers[0].id
    assert len(index.related(first, k=2)) == 2
    assert index.related(first, k=0) == []
    assert index.related("000000000000") == []
    assert first in index and "nope" not in index and len(index) == len(papers)


def test_deterministic_and_independent_of_input_order(papers, index):
    again = RelatedIndex(papers)
    backwards = RelatedIndex(list(reversed(papers)))
    for paper in papers:
        assert index.related(paper.id) == again.related(paper.id)
        assert dict(index.related(paper.id)) == dict(backwards.related(paper.id))


def test_shared_terms_explain_a_match(papers, index):
    a = next(p for p in papers if p.name == "bandit-a")
    b = next(p for p in papers if p.name == "bandit-b")
    shared = index.shared_terms(a.id, b.id, 3)
    assert "bandit" in shared and "regret" in shared
    assert index.shared_terms(a.id, "nope") == []


def test_the_title_is_indexed_too():
    query = make("q", "Sparse attention kernels for long context transformers.")
    titled = make("titled", "Gardening tips.", title="Sparse attention for transformers")
    untitled = make("untitled", "Gardening tips for tomatoes.")
    fillers = [make(f"f{i}", f"Filler text number {i} about cooking.") for i in range(4)]
    index = RelatedIndex([query, titled, untitled, *fillers])
    assert [pid for pid, _ in index.related(query.id)] == [titled.id]


def test_tokens_drop_latex_urls_numbers_and_stop_words():
    text = (
        r"We propose $\mathcal{O}(n)$ Networks for 2025 via https://github.com/a/b-c and "
        r"\textbf{Policies}; the Schrödinger bridge, a GMMs study."
    )
    assert tokens(text) == ["network", "policy", "schrödinger", "bridge", "gmm"]


def test_real_excerpt_neighbours_share_the_topic():
    result = read_file(EXCERPT)
    group = {}
    for line in EXCERPT.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        group[record["title"]] = record["group"]
    by_id = {paper.id: paper for paper in result.papers}
    index = RelatedIndex(result.papers)
    top1 = top3 = 0
    for paper in result.papers:
        found = [group[by_id[pid].title] for pid, _ in index.related(paper.id, k=3)]
        top1 += found[0] == group[paper.title]
        top3 += group[paper.title] in found
    assert len(result.papers) == 30
    assert top1 >= 28  # 29 of 30 at the time of writing
    assert top3 == 30


@given(st.lists(st.text(alphabet="abcdefgh ", min_size=1, max_size=60), min_size=2, max_size=8))
def test_scores_are_bounded_and_never_include_self(texts):
    papers = [make(f"p{i}", f"{text} p{i}x") for i, text in enumerate(texts)]
    unique = list({paper.id: paper for paper in papers}.values())
    index = RelatedIndex(unique)
    for paper in unique:
        for pid, score in index.related(paper.id):
            assert pid != paper.id
            assert 0.0 < score <= 1.0 + 1e-9


# -- the flat build against the plain one it replaced -------------------------------------------


def plain_index(papers: list[Paper]) -> tuple[dict[str, float], dict[str, tuple[list, list]]]:
    """The idf table and postings as the first build made them: a `Counter` and a dict of
    weights per paper, every posting appended term by term (the reference for the flat one)."""
    counts = [related_index._paper_terms(paper) for paper in papers]
    df: Counter[str] = Counter()
    for terms in counts:
        df.update(terms.keys())
    size = len(papers)
    limit = max(2, int(size * related_index.MAX_DF_SHARE))
    idf = {term: math.log(size / n) for term, n in df.items() if n <= limit or size < 4}
    postings: dict[str, tuple[list, list]] = {}
    for i, terms in enumerate(counts):
        raw = {
            term: (1.0 + math.log(count)) * idf[term]
            for term, count in terms.items()
            if idf.get(term, 0.0) > 0.0
        }
        norm = math.sqrt(sum(w * w for w in raw.values()))
        for term, w in raw.items():
            if norm and df[term] > 1:
                docs, weights = postings.setdefault(term, ([], []))
                docs.append(i)
                weights.append(max(1, int(w / norm * related_index.WEIGHT_SCALE)))
    return idf, postings


WORDS = ["kernel", "kernels", "graph", "diffusion", "bandit", "regret", "policy", "the", "x"]
WORDS += ["policies", "token", "sparse", "attention", "2025", r"\mathcal", "Graph", "KERNEL"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(WORDS), min_size=0, max_size=30).map(" ".join),
            st.one_of(st.none(), st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join)),
        ),
        min_size=1,
        max_size=12,
    ),
    st.integers(min_value=1, max_value=8),
)
def test_the_flat_build_is_the_plain_build(corpus, step):
    """Any corpus, cut into runs of any length: the same idf table (in the same order), the
    same postings (the same terms in the same order, papers, weights) and the same answers."""
    made = [make(f"p{i}", f"{text} n{i}", title) for i, (text, title) in enumerate(corpus)]
    papers = list({paper.id: paper for paper in made}.values())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(related_index, "_PROGRESS_STEP", step)
        index = RelatedIndex(papers)
    idf, postings = plain_index(papers)
    assert list(index.idf.items()) == list(idf.items())
    assert list(index.terms) == list(postings)
    assert {t: (list(d), list(w)) for t, (d, w) in index.postings.items()} == postings
    for paper in papers:
        scores: dict[int, float] = {}
        for term, weight in index._query(paper.id):
            for doc, w in zip(*postings[term], strict=True):
                scores[doc] = scores.get(doc, 0.0) + weight * w
        mine = papers.index(paper)
        best = sorted(
            ((d, s) for d, s in scores.items() if d != mine), key=lambda item: (-item[1], item[0])
        )
        expected = [(papers[d].id, round(s / related_index.WEIGHT_SCALE, 6)) for d, s in best]
        assert index.related(paper.id, k=len(papers)) == expected


def test_counts_past_sixteen_bits_are_kept_whole():
    """A term 70,000 times in one paper (an abstract can be long): counted, not wrapped."""
    long = make("long", "kernel " * 70_000 + "graph")
    other = make("other", "kernel graph bandit")
    third = make("third", "bandit regret policy")
    index = RelatedIndex([long, other, third])
    idf, postings = plain_index([long, other, third])
    assert {t: (list(d), list(w)) for t, (d, w) in index.postings.items()} == postings
    assert dict(index.idf) == idf


def test_a_build_pauses_every_few_papers_and_a_pause_changes_nothing():
    """`pause` is heard every `_PAUSE_STEP` papers in both passes, and a build that paused is the
    build that did not; a pause that raises stops the build (the app's worker cancelled)."""
    made = [make(f"p{i}", f"graph kernel n{i % 7} topic{i % 3}") for i in range(100)]
    heard: list[int] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(related_index, "_PAUSE_STEP", 8)
        patch.setattr(related_index, "_PROGRESS_STEP", 30)
        paused = RelatedIndex(made, pause=lambda: heard.append(1))
    plain = RelatedIndex(made)
    assert len(heard) >= 2 * (100 // 8)  # each pass, every 8 papers
    assert list(paused.idf.items()) == list(plain.idf.items())
    assert {t: (list(d), list(w)) for t, (d, w) in paused.postings.items()} == {
        t: (list(d), list(w)) for t, (d, w) in plain.postings.items()
    }

    class Stop(Exception):
        pass

    def stop() -> None:
        raise Stop

    with pytest.raises(Stop):
        RelatedIndex(made, pause=stop)
