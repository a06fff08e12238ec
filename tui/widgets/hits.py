"""The list's results when no search made them: every paper, and where a paper is in results.

`AllPapers` stands for the empty query's 10k results without making 10k `Hit`s; `position`
finds a paper in any results (those that `Locates`, such as `Results` and sorted results,
answer it without making a Hit each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, overload, runtime_checkable

from papershelf.storage.model import Paper
from papershelf.storage.search.engine import Hit


class AllPapers(Sequence[Hit]):
    """The results of the empty query: one Hit per paper, built only when a row needs it."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._papers = papers

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


@runtime_checkable
class Locates(Protocol):
    """Results that find a paper without making a Hit per row (`Results`, sorted results)."""

    def position(self, paper_id: str) -> int | None: ...


def position(hits: Sequence[Hit], paper_id: str) -> int | None:
    """Where paper `paper_id` is in `hits` (without making every Hit when it can)."""
    if isinstance(hits, Locates):
        return hits.position(paper_id)
    return next((i for i, hit in enumerate(hits) if hit.paper_id == paper_id), None)
