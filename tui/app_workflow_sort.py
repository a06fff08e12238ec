"""Sort orders of the results: their names, the `S` cycle, and hits put in another order.

The empty query lists every paper in the remembered order (`storage.library.settings.SORT_ORDERS`);
a query ranks by relevance unless the user picks one of those orders with `S` (or the palette).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import overload

from textual.command import DiscoveryHit, Hit, Hits, Provider

from papershelf.storage.library.settings import SORT_ORDERS, sort_ids, sort_ranks
from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import Hit as SearchHit
from papershelf.storage.search.engine import Results
from papershelf.tui.widgets.hits import AllPapers

RELEVANCE = "relevance"
"""Not a stored order: the ranking of a query's results."""
ORDER_LABELS: Mapping[str, str] = {
    RELEVANCE: "relevance",
    "library": "library order",
    "name": "name",
    "venue": "venue",
    "status": "status",
    "changed": "recently changed",
}
"""How each order is named in the status line, notifications and the palette."""


def next_order(current: str, *, with_query: bool) -> str:
    """The order `S` moves to: library → name → venue → status → changed (→ relevance)."""
    cycle = (RELEVANCE, *SORT_ORDERS) if with_query else SORT_ORDERS
    index = cycle.index(current) if current in cycle else -1
    return cycle[(index + 1) % len(cycle)]


class SortedHits(Sequence[SearchHit]):
    """The hits of `base` in another order; a Hit is made only for a row that is read."""

    def __init__(self, base: Sequence[SearchHit], order: Sequence[int]) -> None:
        self.base = base
        """The hits in their original (relevance) order."""
        self._order = order
        self._positions: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self._order)

    @overload
    def __getitem__(self, index: int) -> SearchHit: ...

    @overload
    def __getitem__(self, index: slice) -> list[SearchHit]: ...

    def __getitem__(self, index: int | slice) -> SearchHit | list[SearchHit]:
        if isinstance(index, slice):
            return [self.base[i] for i in self._order[index]]
        return self.base[self._order[index]]

    def paper_id(self, index: int) -> str:
        """The id of hit `index`, without making the Hit when the base can tell."""
        return _paper_id(self.base, self._order[index])

    def position(self, paper_id: str) -> int | None:
        """Where paper `paper_id` is, or None."""
        if self._positions is None:
            self._positions = {self.paper_id(i): i for i in range(len(self._order))}
        return self._positions.get(paper_id)


def _paper_id(hits: Sequence[SearchHit], index: int) -> str:
    return hits.paper_id(index) if isinstance(hits, Results) else hits[index].paper_id


def sort_hits(
    hits: Sequence[SearchHit], order: str, ranks: Mapping[str, int]
) -> Sequence[SearchHit]:
    """`hits` in `order` (`relevance`: as they are), by each paper's rank in it
    (`storage.library.settings.sort_ranks`); ties keep their relevance order."""
    if order == RELEVANCE or len(hits) < 2:
        return hits
    last = len(ranks)  # a paper without a rank (not in the library now) goes last
    keys = [ranks.get(_paper_id(hits, i), last) for i in range(len(hits))]
    return SortedHits(hits, sorted(range(len(hits)), key=keys.__getitem__))


class PaperOrder:
    """Every paper in one stored order, for one list of papers (and, in the orders that follow
    them, one revision of the entries): the empty query's hits and each paper's rank, by which
    a query's hits are sorted at each key. Each is made on first use, from one sort."""

    def __init__(
        self, papers: Sequence[Paper], order: str, revision: int, entries: Mapping[str, Entry]
    ) -> None:
        self.papers = papers
        self.order = order
        self.revision = revision
        self._entries = entries  # replaced, never mutated, by each change: a snapshot
        self._by_id: dict[str, Paper] | None = None
        self._ids: list[str] | None = None
        self._hits: Sequence[SearchHit] | None = None
        self._ranks: Mapping[str, int] | None = None

    def fits(self, papers: Sequence[Paper], order: str, revision: int) -> bool:
        """Whether this is the order of these papers (and entries' revision) still."""
        return self.papers is papers and self.order == order and self.revision == revision

    def _papers_by_id(self) -> dict[str, Paper]:
        if self._by_id is None:
            self._by_id = {paper.id: paper for paper in self.papers}
        return self._by_id

    def _ordered_ids(self) -> list[str]:
        if self._ids is None:
            by_id = self._papers_by_id()
            self._ids = sort_ids(by_id, self.order, by_id, self._entries)
        return self._ids

    def hits(self) -> Sequence[SearchHit]:
        """Every paper in the order, a Hit made only for a row that is read (library order
        needs no sort: the papers as they are)."""
        if self._hits is None:
            if self.order == "library":
                self._hits = AllPapers(self.papers)
            else:
                by_id = self._papers_by_id()
                self._hits = AllPapers([by_id[paper_id] for paper_id in self._ordered_ids()])
        return self._hits

    def ranks(self) -> Mapping[str, int]:
        """Each paper's rank in the order (`sort_ranks`, from the same sort as `hits`)."""
        if self._ranks is None:
            by_id = self._papers_by_id()
            ordered = list(by_id) if self.order == "library" else self._ordered_ids()
            self._ranks = sort_ranks(self.order, by_id, self._entries, ordered=ordered)
        return self._ranks


class SortCommands(Provider):
    """A palette command per sort order (`S` cycles through them)."""

    def _commands(self) -> list[tuple[str, str]]:
        return [
            (f"Sort by {ORDER_LABELS[order]}", f"sort('{order}')")
            for order in (*SORT_ORDERS, RELEVANCE)
        ]

    def _runner(self, action: str) -> object:
        async def run() -> None:
            await self.app.run_action(action)

        return run

    async def discover(self) -> Hits:
        """Every order, before anything is typed."""
        for title, action in self._commands():
            yield DiscoveryHit(title, self._runner(action), help="S cycles the orders")  # type: ignore[arg-type]

    async def search(self, query: str) -> Hits:
        """The orders whose command name matches `query`."""
        matcher = self.matcher(query)
        for title, action in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(title),
                    self._runner(action),  # type: ignore[arg-type]
                    text=title,
                    help="S cycles the orders",
                )
