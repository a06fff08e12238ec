"""`Hit`, one search result, and `Results`, a ranked list of them kept as paper indices."""

from __future__ import annotations

import sys
import threading
from array import array
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import overload

from papershelf.storage.search.highlight import Spans
from papershelf.storage.search.postings import ids_to_bits


class Explainer:
    """Whatever can work out a hit's terms and spans: `details(index) -> (terms, spans)`."""

    def details(self, index: int) -> tuple[tuple[str, ...], Mapping[str, Spans]]:
        raise NotImplementedError

    def field_spans(self, index: int, field: str) -> Spans:
        """The spans of one field only (a list row needs name and title, not the abstract)."""
        return self.details(index)[1].get(field, ())


class _Given(Explainer):
    """Terms and spans handed to `Hit(...)` directly."""

    __slots__ = ("value",)

    def __init__(self, terms: tuple[str, ...], spans: Mapping[str, Spans]) -> None:
        self.value = (terms, spans)

    def details(self, index: int) -> tuple[tuple[str, ...], Mapping[str, Spans]]:
        return self.value


NO_DETAILS = _Given((), {})


@dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Hit:
    """One paper matching a query.

    `terms` (the words of the paper's text that matched, e.g. "diffusion" for `difusion`) and
    `spans` (field -> sorted, non-overlapping (start, end) offsets in `field_text`) are computed
    on first access and then kept, so that listing 10k hits per keystroke stays cheap.
    """

    paper_id: str
    score: float
    field: str
    """Field of the best-scoring match: "name" | "title" | "tags" | "authors" | "note" | "abstract"
    | "" (see `highlight.FIELDS`)."""
    _explainer: Explainer
    _index: int

    def __init__(
        self,
        paper_id: str,
        score: float,
        field: str,
        terms: Sequence[str] = (),
        spans: Mapping[str, Spans] | None = None,
    ) -> None:
        object.__setattr__(self, "paper_id", paper_id)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "_explainer", _Given(tuple(terms), dict(spans or {})))
        object.__setattr__(self, "_index", -1)

    @property
    def terms(self) -> tuple[str, ...]:
        """Words of the paper's text that matched the query's words, as written there."""
        return self._explainer.details(self._index)[0]

    @property
    def spans(self) -> Mapping[str, Spans]:
        """Field -> match spans in that field's text (see `field_text`)."""
        return self._explainer.details(self._index)[1]

    def spans_in(self, field: str) -> Spans:
        """`spans.get(field, ())`, working out only that field when nothing else was asked."""
        return self._explainer.field_spans(self._index, field)

    def _key(self) -> tuple[object, ...]:
        return (self.paper_id, self.score, self.field, self.terms, dict(self.spans))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hit) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.paper_id, self.score, self.field))

    def __repr__(self) -> str:
        return f"Hit({self.paper_id!r}, score={self.score}, field={self.field!r})"


_HIT_NEW = object.__new__
_SET_ID = Hit.__dict__["paper_id"].__set__
_SET_SCORE = Hit.__dict__["score"].__set__
_SET_FIELD = Hit.__dict__["field"].__set__
_SET_EXPLAINER = Hit.__dict__["_explainer"].__set__
_SET_INDEX = Hit.__dict__["_index"].__set__


def make_hit(paper_id: str, score: float, field: str, explainer: Explainer, index: int) -> Hit:
    """A Hit whose terms and spans `explainer` works out for paper `index` when read."""
    hit = _HIT_NEW(Hit)
    _SET_ID(hit, paper_id)
    _SET_SCORE(hit, score)
    _SET_FIELD(hit, field)
    _SET_EXPLAINER(hit, explainer)
    _SET_INDEX(hit, index)
    return hit


class Results(Sequence[Hit]):
    """Ranked hits kept as paper indices: a `Hit` object is made only for a row that is read.

    A search may match all 10k papers on every keystroke, and a list shows 40 of them: the
    ranking is one array of library indices plus runs of equal (score, field), built with a few
    C-level `extend` calls; `paper_id(i)`, `position(paper_id)` and `contains(paper_id)` answer
    without making hits. Immutable once built (`add` and `add_later` are for the engine while it
    ranks).

    At 100k papers even listing every hit's index costs milliseconds a group: a group of equal
    score may be added later (`add_later`: its size now, its papers when a row of it, or all,
    is first read), so a keystroke lists the groups its screenful shows, not all of them.
    """

    __slots__ = (
        "_bits",
        "_count",
        "_direct",
        "_ends",
        "_explainer",
        "_fields",
        "_filling",
        "_ids",
        "_later_bits",
        "_order",
        "_pending",
        "_position",
        "_scores",
    )

    def __init__(
        self, paper_ids: Sequence[str], position: Mapping[str, int], explainer: Explainer
    ) -> None:
        self._ids = paper_ids
        self._position = position
        self._explainer = explainer
        self._order = array("I")
        self._ends: list[int] = []
        self._scores: list[float] = []
        self._fields: list[str] = []
        self._bits: int | None = None
        self._pending: deque[Callable[[Results], None]] = deque()
        """Groups added later: what adds each to the Results it is given, in rank order.
        Never a callable holding this Results: that cycle kept every search's bitsets alive
        until a full collection, which the app holds off while typing (hundreds of MB at 100k
        papers)."""
        self._count = 0
        """Hits, those pending included."""
        self._later_bits = 0
        """The papers of every group added later."""
        self._direct = False
        """Whether papers were added at once (`add`) too: then `bits` must list them."""
        self._filling = threading.Lock()
        """Held while pending groups are added: a worker and the UI thread may read one
        Results (the engine keeps recent ones)."""

    def add(self, indices: Sequence[int], score: float, field: str) -> None:
        """Append papers `indices` (library indices), all with one score and field."""
        if len(indices):
            self._order.extend(indices)
            self._ends.append(len(self._order))
            self._scores.append(score)
            self._fields.append(field)
            # Not while a pending group is being added (only the filling thread adds then):
            # its papers are counted and in `_later_bits` already.
            if not self._filling.locked():
                self._count += len(indices)
                self._direct = True

    def add_later(self, group: int, fill: Callable[[Results], None]) -> None:
        """Append the papers of bitset `group` (one score), which `fill(self)` adds, in their
        order, with `add` when first read."""
        count = group.bit_count()
        if count:
            self._pending.append(fill)
            self._count += count
            self._later_bits |= group

    def add_later_groups(self, bits: int, fills: Sequence[Callable[[Results], None]]) -> None:
        """Append groups of papers, each added by its `fill(self)` when first read, in their
        order; `bits` holds the papers of them all (disjoint groups, none empty).

        One count of `bits` for them all: a count of one group's papers costs as much as
        counting them all (7 us at 100k papers), and a search lists hundreds of groups."""
        count = bits.bit_count()
        if count:
            self._pending.extend(fills)
            self._count += count
            self._later_bits |= bits

    def fill(self, count: int) -> None:
        """List the first `count` hits now (the searching thread does, for the first screen)."""
        if self._pending and len(self._order) < count:
            self._fill(count - 1)

    def _fill(self, index: int) -> None:
        """Add pending groups until hit `index` is there (-1: all of them)."""
        with self._filling:
            pending = self._pending
            while pending and (index < 0 or len(self._order) <= index):
                pending[0](self)
                pending.popleft()

    def nbytes(self) -> int:
        """About the bytes these results hold (for caches that keep recent searches): the
        order of every hit once listed (4 bytes a hit) and the bitsets of the groups pending,
        each taken as large as all of them together (an upper bound)."""
        pending = len(self._pending) * 2 + 1  # each group's bitset, and its fields'
        return 256 + 4 * self._count + pending * sys.getsizeof(self._later_bits)

    def _filled(self) -> array[int]:
        """The order of every hit (pending groups added first)."""
        if self._pending:
            self._fill(-1)
        return self._order

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Hit: ...

    @overload
    def __getitem__(self, index: slice) -> list[Hit]: ...

    def __getitem__(self, index: int | slice) -> Hit | list[Hit]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("result index out of range")
        if index >= len(self._order):
            self._fill(index)
        run = bisect_right(self._ends, index)
        paper = self._order[index]
        return make_hit(
            self._ids[paper], self._scores[run], self._fields[run], self._explainer, paper
        )

    def __iter__(self) -> Iterator[Hit]:
        start = 0
        order, ids, explainer = self._filled(), self._ids, self._explainer
        for end, score, field in zip(self._ends, self._scores, self._fields, strict=True):
            for paper in order[start:end]:
                yield make_hit(ids[paper], score, field, explainer, paper)
            start = end

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Results: {len(self)} hits>"

    @property
    def indices(self) -> Sequence[int]:
        """Library indices of the hits, in rank order."""
        return self._filled()

    def paper_id(self, index: int) -> str:
        """The id of hit `index`, without making the Hit."""
        if not 0 <= index < len(self._order):
            self._fill(index if index >= 0 else -1)
        return self._ids[self._order[index]]

    def position(self, paper_id: str) -> int | None:
        """Where paper `paper_id` is in the results, or None."""
        paper = self._position.get(paper_id)
        if paper is None or not self.contains(paper_id):
            return None
        return self._filled().index(paper)

    def contains(self, paper_id: str) -> bool:
        """Whether paper `paper_id` is among the results (a bit test)."""
        paper = self._position.get(paper_id)
        return paper is not None and bool(self.bits >> paper & 1)

    @property
    def bits(self) -> int:
        """The results as a bitset of library indices."""
        if self._bits is None:
            if self._direct:
                self._bits = ids_to_bits(self._filled(), len(self._ids))
            else:
                self._bits = self._later_bits  # without listing pending groups
        return self._bits
