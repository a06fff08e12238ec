"""Related papers ("more like this"): TF-IDF cosine similarity of titles and abstracts.

`RelatedIndex(papers)` is built once per library (a second or two at 10,000 papers, so the TUI
builds it in a worker) and answers `related(paper_id)` in a few milliseconds. Pure Python:

- Tokens: lower-case words of the title (counted twice: a title names the topic) and abstract,
  LaTeX commands and URLs removed, English and ML-boilerplate stop words dropped, plurals folded
  (`networks` -> `network`, `policies` -> `policy`).
- Weights: sublinear tf (`1 + ln tf`) times idf (`ln N/df`), L2-normalised per paper. Terms in
  more than half the papers carry no topic and are dropped; terms of a single paper can match
  nothing, so they only count in the paper's norm.
- An inverted index maps each term to its papers and weights (two parallel arrays per term, a
  twelfth of the memory of tuples). A query takes its paper's `QUERY_TERMS` heaviest terms and
  accumulates dot products over their postings only: the score is the cosine restricted to those
  terms, which ranks like the full cosine for the top results at a fraction of the work.

Building costs seconds, so `storage.related.cache` saves the built parts (`idf`, `postings`) to
the library directory and `RelatedIndex.from_parts` puts a saved index back in milliseconds.
`BUILD_FINGERPRINT` changes with the settings a build depends on, so a saved index made by other
settings is never taken for this one.
"""

from __future__ import annotations

import heapq
import math
import re
import sys
import zlib
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from papershelf.storage.model import Paper

__all__ = ["BUILD_FINGERPRINT", "QUERY_TERMS", "WEIGHT_SCALE", "Posting", "RelatedIndex", "tokens"]

QUERY_TERMS = 30
"""Heaviest terms of the query paper used to find its neighbours."""
MAX_DF_SHARE = 0.5
_PROGRESS_STEP = 4096
"""Papers between two calls of a build's `progress`."""
_PAUSE_STEP = 32
"""Papers between two calls of a build's `pause` (a few milliseconds of work at 100k papers)."""
TITLE_WEIGHT = 2

# One pass finds words and the pieces to skip whole: LaTeX commands (`\\mathcal`) and URLs.
_PIECE = re.compile(r"\\[A-Za-z]+|(?:https?://|www\.)\S+|[^\W_]+")
_SKIPPED = ("\\", "http", "www.")

# Function words, plus the words every ML abstract uses whatever its topic.
_STOP_TEXT = """
    a about above across after again against all almost along also although always am among an
    and another any are as at be because been before being below between both but by can could
    did do does doing done down during each either else et etc even ever every few for from
    further had has have having he her here hers him his how however i if in into is it its
    itself just less let like many may me might more most much must my neither no nor not now of
    off often on once one only onto or other others our ours out over own per rather same she
    should since so some such than that the their theirs them themselves then there thereby
    therefore these they this those though through thus to too toward towards under until up
    upon us very via was we well were what whatever when where whether which while who whom whose
    why will with within without would yet you your
    paper propose proposed proposes present presents introduce introduced introduces novel new
    approach approaches method methods result results show shows shown demonstrate demonstrates
    demonstrated experiment experimental experiments extensive significant significantly
    outperform outperforms outperforming existing state art work works study studies use used
    using based achieve achieves achieving perform performance improve improves improved
    improvement improvements effective effectively efficient efficiently furthermore moreover
    additionally specifically particular particularly key first second two three various wide
    widely several address addresses problem problems challenge challenges challenging recent
    recently make makes able enable enables provide provides prior previous framework code
    available github com https http www org
"""
_STOP_WORDS = frozenset(_STOP_TEXT.split())

Posting = tuple["array[int]", "array[int]"]
"""One term's postings: paper positions (ascending, `array("i")`) and the term's weight in each
paper, quantised (`array("H")`: the weight times `WEIGHT_SCALE`, rounded down)."""

WEIGHT_SCALE = 65535
"""A weight (0 < w <= 1: the vectors are L2-normalised) is kept as `floor(w * WEIGHT_SCALE)`,
at least 1, in two bytes: half the float32 weights' memory and disk (related-index.bin at
100,000 papers: 65 MB to 50 MB). Rounding down keeps every score at or under the cosine of the
full vectors, so at most 1; a score moves by under sqrt(30) / 65535 < 0.0001 (the query's 30
weights sum to at most sqrt(30), each posting weight is off by under 1 / 65535), a rank only
where two papers were that close."""

BUILD_FINGERPRINT = zlib.crc32(
    repr(
        (
            sorted(_STOP_WORDS),
            _PIECE.pattern,
            _SKIPPED,
            MAX_DF_SHARE,
            TITLE_WEIGHT,
            sys.byteorder,
            array("i").itemsize,
            array("H").itemsize,
            WEIGHT_SCALE,
        )
    ).encode()
)
"""A checksum of what a build depends on besides the code (stop words, the word pattern, the
weights) and of the machine's array layout: a saved index records it and is used only when it
matches. A change to the code of the build (`_term`, `_fold`, the weights' formula) must bump
`papershelf.storage.related.cache.FORMAT` instead."""


def _fold(word: str) -> str:
    """A crude plural fold: enough to meet `networks` with `network`, never harmful to names."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ics")):
        return word[:-1]
    return word


def _term(piece: str) -> str | None:
    """The index term of one piece of text, or None when it is not one."""
    if piece.startswith(_SKIPPED):
        return None
    word = piece.lower()
    if len(word) < 2 or word in _STOP_WORDS or word.isdigit():
        return None
    word = _fold(word)
    return None if word in _STOP_WORDS else word


def _lookup(piece: str, memo: dict[str, str | None]) -> str | None:
    term = memo.get(piece, "")
    if term == "":
        term = memo[piece] = _term(piece)
    return term


def tokens(text: str) -> list[str]:
    """The index terms of `text`, in order (stop words, numbers and one-letter words dropped)."""
    memo: dict[str, str | None] = {}
    return [t for piece in _PIECE.findall(text) if (t := _lookup(piece, memo)) is not None]


def _count_terms(text: str, counts: Counter[str], memo: dict[str, str | None], times: int) -> None:
    """Add the terms of `text` (each `times` over) to `counts`; `memo` caches piece -> term."""
    for piece, count in Counter(_PIECE.findall(text)).items():
        term = memo.get(piece, "")  # `_lookup` inlined: this loop is most of the build
        if term == "":
            term = memo[piece] = _term(piece)
        if term is not None:
            counts[term] += count * times


def _paper_terms(paper: Paper, memo: dict[str, str | None] | None = None) -> Counter[str]:
    """Term counts of one paper: its abstract, and its title counted `TITLE_WEIGHT` times."""
    memo = {} if memo is None else memo
    counts: Counter[str] = Counter()
    _count_terms(paper.abstract, counts, memo, 1)
    if paper.title:
        _count_terms(paper.title, counts, memo, TITLE_WEIGHT)
    return counts


class _Numbers(dict[str, int]):
    """Term -> its number, a new term numbered when first looked up (in C: `map` over it)."""

    __slots__ = ()

    def __missing__(self, term: str) -> int:
        number = self[term] = len(self)
        return number


class _Counted:
    """The term counts of a run of papers, flat: every paper's term numbers and counts one
    after the other, and where each paper's end. A few bytes a term instead of a `Counter`
    per paper (at 100,000 papers: ~55 MB instead of ~300 MB)."""

    __slots__ = ("counts", "ends", "numbers")

    def __init__(self) -> None:
        self.numbers = array("i")
        self.counts = array("H")
        self.ends = array("i")

    def add(self, found: Counter[str], numbers: _Numbers) -> None:
        """Append one paper's term counts, numbering its new terms."""
        self.numbers.extend(map(numbers.__getitem__, found))
        counts = self.counts
        mark = len(counts)
        try:
            counts.extend(found.values())
        except OverflowError:  # a term 65,536 times in one paper: wider counts from now on
            del counts[mark:]
            counts = self.counts = array("I", counts)
            counts.extend(found.values())
        self.ends.append(len(self.numbers))


class RelatedIndex:
    """TF-IDF vectors of a fixed set of papers, for "more like this" queries.

    The inverted index is three flat buffers (`parts`): every posting term's papers one term
    after the other (int32 positions), their weights (uint16) and where each term's run starts
    (int64, one more than there are terms); `_number` finds a term's run. A loaded index keeps
    the buffers `related-index.bin` gave it (memoryviews of its bytes: nothing copied).
    """

    def __init__(
        self,
        papers: Iterable[Paper],
        *,
        query_terms: int = QUERY_TERMS,
        progress: Callable[[int, int], None] | None = None,
        pause: Callable[[], None] | None = None,
    ) -> None:
        """Index `papers`; `progress(done, total)` hears every few thousand papers (seconds at
        100k papers); `pause()` is called every few milliseconds of work and may wait (the app
        gives way to the searches of keys being typed) or raise to stop the build.

        Two passes: the first counts every paper's terms into flat arrays, a run of papers at
        a time (`_Counted`), and the papers holding each term; the second turns a run's
        counts into weights, writes them where their terms' postings lie (known from those
        counts) and frees the run. No per-paper dict outlives its paper.
        """
        self._setup(papers, query_terms)
        papers_ = self._papers
        size = len(papers_)
        total = size + size // 2  # the second pass is about a third of the work
        memo: dict[str, str | None] = {}
        numbers = _Numbers()
        runs: list[_Counted | None] = []
        df: Counter[int] = Counter()
        for start in range(0, size, _PROGRESS_STEP):
            run = _Counted()
            for offset, paper in enumerate(papers_[start : start + _PROGRESS_STEP]):
                if pause is not None and not offset % _PAUSE_STEP:
                    pause()
                run.add(_paper_terms(paper, memo), numbers)
            df.update(run.numbers)
            runs.append(run)
            if progress is not None:
                progress(min(size, start + _PROGRESS_STEP), total)
        del memo
        # The idf table and the posting terms in the order of first appearance: the order the
        # dict-per-paper build gave them, so related-index.bin is the same file as before.
        limit = max(2, int(size * MAX_DF_SHARE))
        idf: dict[str, float] = {}
        weight_of = array("d", bytes(8 * len(numbers)))  # idf by number; 0.0: not weighed
        posting_of = array("i", b"\xff" * (4 * len(numbers)))  # -1: no posting
        starts = array("q", [0])
        slots: dict[str, int] = {}
        for term, number in numbers.items():
            count = df[number]
            if count <= limit or size < 4:
                weight = idf[term] = weight_of[number] = math.log(size / count)
                # A term no other paper has cannot make a match: only in its paper's norm.
                if weight > 0.0 and count > 1:
                    posting_of[number] = slots[term] = len(slots)
                    starts.append(starts[-1] + count)
        del numbers, df
        positions = array("i", bytes(4 * starts[-1]))
        weights = array("H", bytes(2 * starts[-1]))
        cursor = array("q", starts)
        log, scale, paper = math.log, WEIGHT_SCALE, 0
        for at, run in enumerate(runs):
            assert run is not None
            runs[at] = None  # free each run once weighed
            begin = 0
            for end in run.ends:
                if pause is not None and not paper % _PAUSE_STEP:
                    pause()
                raw = [
                    (number, (1.0 + log(count)) * weight)
                    for number, count in zip(
                        run.numbers[begin:end], run.counts[begin:end], strict=True
                    )
                    if (weight := weight_of[number]) > 0.0
                ]
                begin = end
                norm = math.sqrt(sum(w * w for _, w in raw))
                if norm:
                    for number, w in raw:
                        slot = posting_of[number]
                        if slot >= 0:
                            place = cursor[slot]
                            cursor[slot] = place + 1
                            positions[place] = paper
                            weights[place] = max(1, int(w / norm * scale))
                paper += 1
            if progress is not None and paper < size:  # the end is reported once, below
                progress(size + paper // 2, total)
        self._idf = idf
        self._number = slots
        self._starts = starts
        self._positions = memoryview(positions)
        self._weights = memoryview(weights)
        if progress is not None:
            progress(total, total)

    def _setup(self, papers: Iterable[Paper], query_terms: int) -> None:
        self._papers: list[Paper] = list(papers)
        self._position = {paper.id: i for i, paper in enumerate(self._papers)}
        self.query_terms = query_terms

    @classmethod
    def from_parts(
        cls,
        papers: Iterable[Paper],
        idf: dict[str, float],
        terms: Sequence[str],
        parts: tuple[Sequence[int], memoryview, memoryview],
        *,
        query_terms: int = QUERY_TERMS,
    ) -> RelatedIndex:
        """The index of `papers` whose build gave `idf`, the posting `terms` and `parts` (see
        `parts`: the starts, positions and weights, which it keeps as they are).

        Takes them unchecked: `storage.related.cache` checks what it read before it calls
        this. Answers exactly like the index they came from.
        """
        index = cls.__new__(cls)
        index._setup(papers, query_terms)
        index._idf = idf
        index._number = dict(zip(terms, range(len(terms)), strict=True))
        index._starts, index._positions, index._weights = parts
        return index

    @property
    def idf(self) -> Mapping[str, float]:
        """Every term's idf, including terms of one paper only (they count in its norm)."""
        return self._idf

    @property
    def terms(self) -> Sequence[str]:
        """The terms that can match (have postings), in the order of their runs in `parts`."""
        return tuple(self._number)

    @property
    def parts(self) -> tuple[Sequence[int], memoryview, memoryview]:
        """The postings' three buffers: where each term's run starts (and the last ends), the
        papers' positions (int32, ascending in a run), their quantised weights (uint16)."""
        return self._starts, self._positions, self._weights

    @property
    def postings(self) -> Mapping[str, Posting]:
        """The inverted index: the terms that can match, each with its papers and weights
        (copied out of the flat buffers: for tests and tools, not queries)."""
        return _PostingsView(self)

    def _posting(self, term: str) -> tuple[memoryview, memoryview]:
        number = self._number[term]
        start, end = self._starts[number], self._starts[number + 1]
        return self._positions[start:end], self._weights[start:end]

    def _vector(self, terms: Counter[str]) -> dict[str, float]:
        """The L2-normalised sublinear tf-idf weights of one paper's term counts."""
        idf = self._idf
        raw = {
            term: (1.0 + math.log(count)) * idf[term]
            for term, count in terms.items()
            if idf.get(term, 0.0) > 0.0
        }
        norm = math.sqrt(sum(w * w for w in raw.values()))
        return {term: w / norm for term, w in raw.items()} if norm else {}

    def __len__(self) -> int:
        return len(self._papers)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._position

    def _query(self, paper_id: str) -> list[tuple[str, float]]:
        """The paper's heaviest indexed terms with their weights (heaviest first)."""
        index = self._position.get(paper_id)
        if index is None:
            return []
        vector = self._vector(_paper_terms(self._papers[index]))
        indexed = [(term, w) for term, w in vector.items() if term in self._number]
        return heapq.nsmallest(self.query_terms, indexed, key=lambda item: (-item[1], item[0]))

    def related(self, paper_id: str, k: int = 10) -> list[tuple[str, float]]:
        """The `k` papers most like `paper_id`, best first, as (id, score in 0..1).

        The paper itself is never included; papers sharing no term with it are not either. An
        id not in the index (imported after it was built) has no related papers.
        """
        self_index = self._position.get(paper_id)
        if self_index is None or k <= 0:
            return []
        scores: dict[int, float] = {}
        get = scores.get
        for term, weight in self._query(paper_id):
            docs, weights = self._posting(term)
            for doc, w in zip(docs, weights, strict=True):
                scores[doc] = get(doc, 0.0) + weight * w
        scores.pop(self_index, None)
        best = heapq.nsmallest(k, scores.items(), key=lambda item: (-item[1], item[0]))
        papers = self._papers
        # A position outside the papers only comes from a damaged related-index.bin whose
        # checksum matched by chance (storage.related.cache checks the postings' ends only).
        return [
            (papers[doc].id, round(score / WEIGHT_SCALE, 6))
            for doc, score in best
            if 0 <= doc < len(papers)
        ]

    def shared_terms(self, paper_id: str, other_id: str, n: int = 5) -> list[str]:
        """The terms that make two papers alike, heaviest first (to explain a match)."""
        first, second = self._position.get(paper_id), self._position.get(other_id)
        if first is None or second is None:
            return []
        a = self._vector(_paper_terms(self._papers[first]))
        b = self._vector(_paper_terms(self._papers[second]))
        common = [(a[term] * b[term], term) for term in a.keys() & b.keys()]
        return [term for _, term in sorted(common, key=lambda item: (-item[0], item[1]))[:n]]

    @property
    def papers(self) -> Sequence[Paper]:
        """The papers indexed, in the order given."""
        return self._papers


class _PostingsView(Mapping[str, Posting]):
    """`RelatedIndex.postings`: each term's run copied out as the two arrays of a `Posting`."""

    __slots__ = ("_index",)

    def __init__(self, index: RelatedIndex) -> None:
        self._index = index

    def __getitem__(self, term: str) -> Posting:
        docs, weights = self._index._posting(term)
        return array("i", docs.tolist()), array("H", weights.tolist())

    def __iter__(self) -> Iterator[str]:
        return iter(self._index._number)

    def __len__(self) -> int:
        return len(self._index._number)
