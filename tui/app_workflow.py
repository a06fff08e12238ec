"""The reading workflow on top of the search: undo/redo keys, "more like this", sort orders.

`WorkflowActions` is composed by the app (`app.workflow`), not inherited: it puts the
search's results in the chosen order (`all_hits`, `arrange`), loads the related-papers index
in a thread after the search index is ready (and again when the papers change; built and
saved when the library's `related-index.bin` is not theirs), and opens the related screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from time import perf_counter
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.worker import get_current_worker

from papershelf.storage.errors import PapershelfError
from papershelf.storage.library.cache_child import build_in_child
from papershelf.storage.library.settings import (
    SORT_ORDERS,
    load_settings,
    save_settings,
)
from papershelf.storage.model import Paper
from papershelf.storage.related.cache import load, save
from papershelf.storage.related.index import RelatedIndex
from papershelf.tui.app_search import GiveWayStopped
from papershelf.tui.app_trace import TRACE
from papershelf.tui.app_workflow_sort import (
    ORDER_LABELS,
    RELEVANCE,
    PaperOrder,
    next_order,
    sort_hits,
)
from papershelf.tui.collector import freeze_long_lived
from papershelf.tui.messages import IndexReady
from papershelf.tui.progress import WorkerProgress
from papershelf.tui.widgets.hits import position

if TYPE_CHECKING:
    from papershelf.storage.files.layout import StatKey
    from papershelf.storage.search.engine import Hit
    from papershelf.tui.app import PapershelfApp

RELATED_COUNT = 10
RELATED_CHILD_FROM = 5_000
"""Papers from which a related index that must be built is built in a child process
(`storage.library.cache_child`): ~2 s of CPU at this size, 24 s at 100,000 papers, that a
thread would take from the typing. Smaller builds stay in a thread: a child costs ~0.5 s."""

WORKFLOW_BINDINGS: list[BindingType] = [
    Binding("u", "undo", "Undo", id="app.undo", show=False, tooltip="Undo the last change"),
    Binding("ctrl+r", "redo", "Redo", id="app.redo", show=False, tooltip="Redo what u undid"),
    Binding(
        "r",
        "related",
        "More like this",
        id="app.related",
        show=False,
        tooltip="Papers most like the one in the reader",
    ),
    Binding(
        "S",
        "sort",
        "Sort",
        id="app.sort",
        show=False,
        tooltip="Cycle the order: library, name, venue, status, recently changed (relevance)",
    ),
]
"""The workflow's keys; the app adds them to its bindings, the help screen and the palette."""


@dataclass
class RelatedReady(Message):
    """The related-papers index of `papers` is ready: `how` it came, "loaded" from the library's
    cache, "child" (built and saved by a child process, then loaded) or "built" here."""

    index: RelatedIndex
    papers: Sequence[Paper]
    seconds: float
    how: str = "built"


class WorkflowActions:
    """Sort orders, related papers and the jump to a paper, for the app that composes it."""

    def __init__(self, app: PapershelfApp) -> None:
        self._app = app
        self.library = app.library
        self.settings = load_settings(app.library.root)
        self.by_relevance = True
        """With a query: rank by relevance (the default) instead of `settings.sort`."""
        self.related_index: RelatedIndex | None = None
        self._related_papers: Sequence[Paper] = ()
        self.related_progress: WorkerProgress | None = None
        """The progress of the last related-index load or build (what it showed)."""
        self._jump_target: str | None = None
        self._order: PaperOrder | None = None
        """Every paper in the remembered order (`_ordering`)."""

    # -- sort ------------------------------------------------------------------------------------

    @property
    def sort_order(self) -> str:
        """The order the results are shown in (`relevance` only while there is a query)."""
        if self._app.search.query_text.strip() and self.by_relevance:
            return RELEVANCE
        return self.remembered_order

    @property
    def remembered_order(self) -> str:
        """The order without a query: chosen in this library (`S`), else the config's, else
        library order."""
        return self.settings.sort or self._app.config.sort or "library"

    @property
    def sort_label(self) -> str:
        """The order as the status line names it."""
        return ORDER_LABELS[self.sort_order]

    @property
    def sort_follows_entries(self) -> bool:
        """Whether a change of status, tags or star can move papers (`status`, `changed`)."""
        return self.sort_order in ("status", "changed")

    def _ordering(self, order: str) -> PaperOrder:
        """Every paper in `order`, kept until the papers change (or, for the orders that follow
        them, the entries): leaving and clearing the filter do not sort the library again, nor
        does each key of a query sorted by name."""
        papers = self.library.papers()
        revision = self.library.revision if order in ("status", "changed") else 0
        ordering = self._order
        if ordering is None or not ordering.fits(papers, order, revision):
            ordering = self._order = PaperOrder(papers, order, revision, self.library.entries())
        return ordering

    def all_hits(self) -> Sequence[Hit]:
        """Every paper in the remembered order (the results of the empty query)."""
        return self._ordering(self.remembered_order).hits()

    def arrange(self, hits: Sequence[Hit], keep: str | None) -> tuple[Sequence[Hit], str | None]:
        """`hits` in the chosen order, and the paper to keep the cursor on (a jump's target)."""
        if self._app.search.query_text.strip() and not self.by_relevance:
            order = self.remembered_order
            hits = sort_hits(hits, order, self._ordering(order).ranks())
        self._show_order()
        if self._jump_target is not None:
            keep, self._jump_target = self._jump_target, None
        return hits, keep

    def new_query(self, old: str, query: str) -> None:
        """A new query (the filter was empty) is ranked by relevance, whatever the last order."""
        if query.strip() and not old.strip():
            self.by_relevance = True
            self._show_order()

    def _show_order(self) -> None:
        # The status line names the order (relevance while a query ranks by it).
        screen = self._app.main_screen
        screen.sort_label = ORDER_LABELS[self.remembered_order]
        screen.by_relevance = self.by_relevance

    def sort(self, order: str = "") -> None:
        """Show the results in `order`, or in the next order of the cycle; remember it."""
        app = self._app
        with_query = bool(app.search.query_text.strip())
        new = order or next_order(self.sort_order, with_query=with_query)
        if new == RELEVANCE:
            if not with_query:
                app.notify_info("Relevance needs a filter: type a query with /", "warning")
                return
            self.by_relevance = True
        elif new in SORT_ORDERS:
            self.by_relevance = False
            if new != self.settings.sort:  # chosen here now, even when it is the config's
                self.settings = self.settings.with_sort(new)
                try:
                    save_settings(self.library.root, self.settings)
                except PapershelfError as error:
                    app.notify_error(f"Sort order not remembered: {error}")
        else:
            app.notify_info(f"Unknown sort order: {new}", "warning")
            return
        app.notify_info(f"Sorted by {self.sort_label}")
        app.search.start_search(keep=app.paper_list.current_id)

    # -- related papers --------------------------------------------------------------------------

    def index_ready(self, message: IndexReady) -> None:
        """Load the related-papers index for the papers the search index was made of."""
        # After the search index, never before the first frame; again when the papers change
        # (an import here or in another process rebuilds the search index first).
        papers = self.library.papers()
        if papers is self._related_papers:
            return
        same_size = len(papers) == len(self._related_papers)
        if same_size and [p.id for p in papers] == [p.id for p in self._related_papers]:
            self._related_papers = papers
            return
        # The key is read with the papers, on this thread: the cache is keyed by the papers.json
        # these papers came from (None: an import not saved, so nothing is loaded or saved).
        self._build_related(papers, self.library.papers_key)

    def _build_related(self, papers: Sequence[Paper], key: StatKey | None) -> None:
        self._app.run_worker(
            partial(self._load_related, papers, key),
            thread=True,
            exclusive=True,
            group="related",
            description="related-papers index",  # not the repr of 10k papers
        )

    def _load_related(self, papers: Sequence[Paper], key: StatKey | None) -> None:
        # Loading the saved index takes tens of milliseconds; a build holds the GIL for seconds
        # while the user types (it slows every frame), so it happens once per set of papers.
        started = perf_counter()
        self.related_progress = WorkerProgress(self._app, "related papers", self._show_progress)
        # The build gives way to the searches of keys being typed, as the tables' warm-up does:
        # run beside them it held the GIL half the time, and at 100,000 papers a key's list
        # took 280 ms at p95 (60 ms once the index was saved).
        give_way = self._app.search.give_way
        build = partial(RelatedIndex, progress=self.related_progress, pause=give_way)
        worker = get_current_worker()
        root = self.library.root
        how = "loaded"
        index = load(root, key, papers) if key is not None else None
        if index is None and key is not None and len(papers) >= RELATED_CHILD_FROM:
            # Built by a process of its own, then loaded like any saved index (checked whole);
            # should the child fail, the build below runs here as before.
            if build_in_child(
                "related", root, key, self.related_progress, lambda: worker.is_cancelled
            ):
                index = load(root, key, papers)
                how = "child"
            if worker.is_cancelled:
                return
        if index is None:
            try:
                index = build(papers)
            except GiveWayStopped:
                return  # the app stops, or newer papers replace these
            save(root, key, index)
            how = "built"
        if not worker.is_cancelled:
            self._app.post_message(RelatedReady(index, papers, perf_counter() - started, how))

    def related_ready(self, message: RelatedReady) -> None:
        """Keep the related-papers index the worker loaded or built."""
        # The seconds last: bench/bench_related_app.py reads them as the detail's last word.
        TRACE.mark("related-ready", f"{message.how} {message.seconds:.3f}")
        freeze_long_lived()  # the index lives as long as the library
        self.related_index = message.index
        self._related_papers = message.papers
        self._app.main_screen.progress = None

    def _show_progress(self, text: str | None) -> None:
        self._app.main_screen.progress = text

    def related(self) -> None:
        """Open "more like this" for the paper in the reader."""
        TRACE.mark("related-key")
        from papershelf.tui.screens.related import RelatedItem, RelatedScreen

        app = self._app
        paper_id = app.main_screen.reader.paper_id or app.paper_list.current_id
        if paper_id is None:
            app.notify_info("No paper in the reader", "warning")
            return
        index = self.related_index
        if index is None or paper_id not in index:
            app.notify_info("Related papers: still indexing… try again in a moment", "warning")
            return
        items = []
        for other_id, score in index.related(paper_id, RELATED_COUNT):
            other = self.library.get(other_id)
            terms = tuple(index.shared_terms(paper_id, other_id))
            items.append(RelatedItem(other_id, other.name, other.title, other.venue, score, terms))
        name = self.library.get(paper_id).name
        app.push_screen(RelatedScreen(name, items), self.jump_to)

    def jump_to(self, paper_id: str | None) -> None:
        """Put the list's cursor on `paper_id`, clearing the filter when it hides the paper."""
        if paper_id is None:
            return
        papers = self._app.paper_list
        found = position(papers.hits, paper_id)
        papers.focus()
        if found is not None:
            papers.move_to(found)
            return
        self._jump_target = paper_id  # `arrange` of the cleared filter's results keeps it
        filter_bar = self._app.main_screen.filter_bar
        if filter_bar.value:
            filter_bar.value = ""
        else:
            self._app.search.start_search(keep=None)
