"""The app's live search: the filter's text -> ranked results in the list, tag pane and status.

A quick search runs on the UI thread, so the list changes in the same frame as the filter's
text; a slow one (and the next after it) runs in a thread worker, where the newest search wins.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from time import perf_counter
from typing import TYPE_CHECKING

from textual import on, work
from textual.worker import get_current_worker

from papershelf.storage.errors import PapershelfError
from papershelf.storage.search.engine import Hit, Results, SearchEngine, parse_query
from papershelf.tui.app_actions import PaperActions
from papershelf.tui.app_trace import TRACE
from papershelf.tui.collector import IdleCollector
from papershelf.tui.messages import SearchFailed, SearchFinished
from papershelf.tui.widgets.paper_list import AllPapers

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library

SEARCH_CACHE = "search-index.bin"
"""The search index's cache file in the library directory (shared with `papershelf list`)."""
INLINE_SEARCH_SECONDS = 0.008
"""A search runs on the UI thread when the previous one took less (see `start_search`)."""


class SearchWiring(PaperActions):
    """Runs searches for the app and shows their results."""

    def __init__(self, library: Library) -> None:
        super().__init__(library)
        self.engine: SearchEngine | None = None
        """The search index; None until the worker has built or loaded it."""
        self.query_text = ""
        self._serial = 0
        self.shown_serial = 0
        """The serial of the search whose results the list shows (benchmarks wait for it)."""
        self._search_error: str | None = None
        self._search_lock = threading.Lock()
        self._last_search = 0.0
        """Seconds the last search took: a slow one sends the next to the worker."""
        self.collector = IdleCollector()

    def _update_status(self, searching: bool = False) -> None:
        """Redraw the status line; the app overrides this."""

    def _all_hits(self) -> Sequence[Hit]:
        # The empty query needs no index: every paper in library order, made on demand.
        return AllPapers(self.library.papers())

    def query_edited(self, query: str) -> None:
        """The filter's text changed (typed, pasted, cleared or set by code): search for it."""
        TRACE.mark("changed")
        self.collector.activity()
        self.query_text = query
        self.start_search(keep=None)

    def start_search(self, keep: str | None) -> None:
        """Search for the current query; the newest search wins, older ones are dropped."""
        self._serial += 1
        query = self.query_text
        if not query.strip():
            self._show_results(self._serial, self._all_hits(), keep=keep)
        elif self.engine is None:
            self._update_status(searching=True)  # queued: IndexReady starts it
        elif self._last_search < INLINE_SEARCH_SECONDS and self._search_lock.acquire(False):
            # Quick searches run right here, so that the list changes in the same frame as the
            # filter's text (a worker round trip costs a frame or two); a slow one moves the
            # next search to the worker, which never blocks typing.
            try:
                started = perf_counter()
                hits = self.engine.results(query, self.library.entries())
                self._last_search = perf_counter() - started
            except PapershelfError as error:
                self._search_error = str(error)
                self._update_status()
                return
            finally:
                self._search_lock.release()
            TRACE.mark("searched", f"{self._serial} {self._last_search * 1000:.2f} inline")
            self._show_results(self._serial, hits, keep=keep)
        else:
            entries = dict(self.library.entries())  # a snapshot: the worker runs in a thread
            self._search(self.engine, query, entries, self._serial, keep)
            self._update_status(searching=True)

    def results_current(self) -> bool:
        """Whether the list shows the results of the query as typed. A key that acts on a
        paper can arrive before a slow search's results (`/graph enter T` typed ahead): the
        search then runs here, at once, so the key acts on a paper of its query's results. Until
        the index has loaded there are none to give: say so, and act on nothing."""
        if self.shown_serial == self._serial:
            return True
        if self.engine is None:
            self.notify_info("Still loading the search index: try again in a moment", "warning")
            return False
        try:
            with self._search_lock:  # a worker's search finishes first (the engine's caches)
                hits = self.engine.results(self.query_text, self.library.entries())
        except PapershelfError as error:
            self._search_error = str(error)
            self._update_status()
            return False
        self._show_results(self._serial, hits, keep=None)
        return True

    @work(thread=True, exclusive=True, group="search")
    def _search(
        self, engine: SearchEngine, query: str, entries: dict, serial: int, keep: str | None
    ) -> None:
        started = perf_counter()
        try:
            with self._search_lock:  # the engine's caches are not shared between threads
                hits = engine.results(query, entries)
        except PapershelfError as error:
            self.post_message(SearchFailed(serial, query, str(error)))
            return
        except Exception as error:
            # Unexpected: the crash guard logs it; the status line must not say "searching…"
            # for ever.
            self.post_message(
                SearchFailed(serial, query, f"search failed ({type(error).__name__})")
            )
            raise
        finally:
            self._last_search = perf_counter() - started
        if not get_current_worker().is_cancelled:
            seconds = perf_counter() - started
            TRACE.mark("searched", f"{serial} {seconds * 1000:.2f}")
            self.post_message(SearchFinished(serial, query, hits, keep, seconds))

    @on(SearchFinished)
    def _search_finished(self, message: SearchFinished) -> None:
        # Not when shown already: `results_current` caught up, and the cursor has moved since.
        if message.serial == self._serial != self.shown_serial:
            TRACE.mark("results", str(message.serial))
            self._show_results(message.serial, message.hits, keep=message.keep)

    @on(SearchFailed)
    def _search_failed(self, message: SearchFailed) -> None:
        if message.serial == self._serial:
            self._search_error = message.message
            self._update_status()

    def _show_results(self, serial: int, hits: Sequence[Hit], keep: str | None) -> None:
        # What the CLI would refuse (`has:pdf`, `is:done`) the status line says, in its words.
        self._search_error = next(iter(parse_query(self.query_text).errors), None)
        self.shown_serial = serial
        self.paper_list.show(hits, keep=keep)
        self._refresh_side()
        if TRACE.enabled:
            detail = f"{serial} {len(hits)} {self.query_text!r}"
            self.call_after_refresh(self._trace_rendered, self.paper_list.shown_count, detail)

    def _trace_rendered(self, shown: int, detail: str) -> None:
        # Marked after the first frame that drew these results (not just any frame).
        if self.paper_list.painted_count >= shown:
            TRACE.mark("list-rendered", detail)
        else:
            self.call_after_refresh(self._trace_rendered, shown, detail)

    def _refresh_side(self) -> None:
        self.main_screen.tag_pane.show_counts(self._tag_counts(self.paper_list.hits))
        self._update_status()

    def _tag_counts(self, hits: Sequence[Hit]) -> Counter[str]:
        # Only tagged papers are looked at (a bit test each), never all 10k hits.
        if isinstance(hits, AllPapers) or (
            isinstance(hits, Results) and len(hits) == len(self.library.papers())
        ):
            return self.library.tag_counts()
        counts: Counter[str] = Counter()
        if isinstance(hits, Results):
            for paper_id, entry in self.library.entries().items():
                if entry.tags and hits.contains(paper_id):
                    counts.update(entry.tags)
            return counts
        return self.library.tag_counts(hit.paper_id for hit in hits)
