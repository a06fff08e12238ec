"""Sort orders of the results: their names, the `S` cycle, and hits put in another order.

The empty query lists every paper in the remembered order (`storage.library.settings.SORT_ORDERS`);
a query ranks by relevance unless the user picks one of those orders with `S` (or the palette).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import overload

from textual.command import DiscoveryHit, Hit, Hits, Provider

from papershelf.storage.library.settings import SORT_ORDERS
from papershelf.storage.search.engine import Hit as SearchHit
from papershelf.storage.search.engine import Results

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
