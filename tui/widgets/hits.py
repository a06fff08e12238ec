"""The list's results when no search made them: every paper, and where a paper is in results.

`AllPapers` stands for the empty query's 10k results without making 10k `Hit`s; `position`
finds a paper in any results (those that `Locates`, such as `Results` and sorted results,
answer it without making a Hit each). `Without` is results less a few rows (papers being
removed), made without copying the rest.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Protocol, overload, runtime_checkable

from papershelf.storage.model import Paper
from papershelf.storage.search.engine import Hit


class AllPapers(Sequence[Hit]):
    """The results of the empty query: one Hit per paper, built only when a row needs it."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._papers = papers
        self._rows: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self._papers)

    @overload
    def __getitem__(self, index: int) -> Hit: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Hit]: ...

    def __getitem__(self, index: int | slice) -> Hit | Sequence[Hit]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._papers)))]
        return Hit(paper_id=self._papers[index].id, score=0.0, field="", terms=(), spans={})

    def position(self, paper_id: str) -> int | None:
        """Where paper `paper_id` is (no Hit made; the first call maps every id, so that
        looking up the papers of a removal of thousands stays one pass)."""
        if self._rows is None:
            self._rows = {paper.id: row for row, paper in enumerate(self._papers)}
        return self._rows.get(paper_id)


@runtime_checkable
class Locates(Protocol):
    """Results that find a paper without making a Hit per row (`Results`, sorted results)."""

    def position(self, paper_id: str) -> int | None: ...


def position(hits: Sequence[Hit], paper_id: str) -> int | None:
    """Where paper `paper_id` is in `hits` (without making every Hit when it can)."""
    if isinstance(hits, Locates):
        return hits.position(paper_id)
    return next((i for i, hit in enumerate(hits) if hit.paper_id == paper_id), None)


class Without(Sequence[Hit]):
    """`hits` less the rows at `hidden` (positions in `hits`): the papers of a removal being
    saved leave the list at once, without a copy of the other rows (100,000 at most)."""

    def __init__(self, hits: Sequence[Hit], hidden: Sequence[int]) -> None:
        self.base = hits
        self._hidden = sorted(set(hidden))
        self.hidden_ids = frozenset(hits[row].paper_id for row in self._hidden)
        """The papers of the hidden rows."""
        # The k-th hidden row, less k: how many rows shown lie before it.
        self._shown_before = [row - k for k, row in enumerate(self._hidden)]

    def __len__(self) -> int:
        return len(self.base) - len(self._hidden)

    def _base_index(self, index: int) -> int:
        # Each hidden row at or before the shown row's place pushes it one further.
        return index + bisect_right(self._shown_before, index)

    @overload
    def __getitem__(self, index: int) -> Hit: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Hit]: ...

    def __getitem__(self, index: int | slice) -> Hit | Sequence[Hit]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self.base[self._base_index(index)]

    def position(self, paper_id: str) -> int | None:
        """Where paper `paper_id` is shown; None when hidden or absent."""
        found = position(self.base, paper_id)
        if found is None:
            return None
        before = bisect_right(self._hidden, found)
        if before and self._hidden[before - 1] == found:
            return None
        return found - before
