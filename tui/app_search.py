"""The app's live search: the filter's text -> ranked results in the list, tag pane and status.

`SearchWiring` is composed by the app (`app.search`), not inherited. A quick search runs on the
UI thread, so the list changes in the same frame as the filter's text; a slow one (and the next
after it) runs in a thread worker, where the newest search wins. The search index is loaded (or
built) in a worker after the first frame.
"""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import partial
from time import perf_counter
from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from papershelf.storage.errors import PapershelfError
from papershelf.storage.library.cache_child import ChildBuild
from papershelf.storage.search import warm_cache
from papershelf.storage.search.engine import (
    Hit,
    Results,
    SearchCancelled,
    SearchEngine,
    parse_query,
)
from papershelf.tui.app_trace import TRACE
from papershelf.tui.app_workflow_sort import SortedHits
from papershelf.tui.collector import freeze_long_lived
from papershelf.tui.messages import IndexReady, SearchFailed, SearchFinished, TablesReady
from papershelf.tui.progress import WorkerProgress
from papershelf.tui.widgets.hits import AllPapers, Without

if TYPE_CHECKING:
    from papershelf.storage.files.layout import StatKey
    from papershelf.storage.model import Entry, Paper
    from papershelf.tui.app import PapershelfApp

SEARCH_CACHE = "search-index.bin"
"""The search index's cache file in the library directory (shared with `papershelf list`)."""
WARM_CACHE = warm_cache.WARM_CACHE
"""The warm tables' cache file in the library directory (`storage.search.warm_cache`)."""
WARM_CHILD_FROM = 5_000
"""Papers from which warm tables not saved yet are made by a child process: ~0.6 s of CPU at
this size, ~6 s at 100,000 papers, that the warm-up would take from the typing's interpreter."""
INLINE_SEARCH_SECONDS = 0.008
"""A search runs on the UI thread when the previous one took less (see `start_search`)."""
WARM_QUIET_SECONDS = 0.03
"""The tables' warm-up and the related-papers build wait until no search has started or run
for this long (`give_way`):
about the list's redraw after a search. Longer (0.3 s) starved it while keys came every 0.1 s,
and an exact term typed then built its own tables (6.5 s at 100k papers, on a key)."""


class GiveWayStopped(Exception):
    """Ends a background build that gives way (`give_way`) when its worker is cancelled (the
    app stops, or a new index replaces this one after an import)."""


class SearchWiring:
    """Runs searches for the app that composes it and shows their results."""

    def __init__(self, app: PapershelfApp) -> None:
        self._app = app
        self.library = app.library
        self.engine: SearchEngine | None = None
        """The search index; None until the worker has built or loaded it."""
        self.serial = 0
        """The serial of the newest search (each query edit starts one)."""
        self.shown_serial = 0
        """The serial of the search whose results the list shows (benchmarks wait for it)."""
        self.lock = threading.Lock()
        """Held while the engine searches: its caches are not shared between threads."""
        self.last_search = 0.0
        """Seconds the last search took: a slow one sends the next to the worker."""
        self.progress: WorkerProgress | None = None
        """The progress of the last index load or build (what it showed)."""
        self.last_activity = 0.0
        """`perf_counter()` when the last search started or ended (`give_way` waits on it)."""
        self._quiet = threading.Event()
        """Never set: what a paused warm-up waits on, for a while at a time."""
        self.stale: frozenset[str] = frozenset()
        """Papers the engine holds that the library no longer does (`papers_changed`)."""

    @property
    def query_text(self) -> str:
        """The filter's text as searched (kept by the main screen, which shows it)."""
        return self._app.main_screen.query_text

    # -- the index -------------------------------------------------------------------------------

    def build_index(self) -> None:
        """Load (or build) the search index in a worker; `IndexReady` brings it back."""
        library = self.library
        self._app.run_worker(
            partial(self._load_index, library.papers(), library.papers_key),
            thread=True,
            exclusive=True,
            group="index",
            description="search index",  # not the repr of 10k papers
        )

    def _load_index(self, papers: Sequence[Paper], papers_key: StatKey | None) -> None:
        # The index comes from the library's cache file when it matches the papers (a tenth
        # of a second instead of two; `papershelf list` keeps it fresh too); warm-up fills the
        # tables the first keystrokes need. A build shows its progress on the status line.
        started = perf_counter()
        cache = self.library.root / SEARCH_CACHE
        self.progress = WorkerProgress(self._app, "search index", self._show_progress)
        if cache.exists():
            engine = SearchEngine.load(cache, papers, self.progress)
        else:
            engine = SearchEngine(papers, progress=self.progress)
            with contextlib.suppress(OSError):
                engine.save(cache)
        engine.warm_words()  # what every first key needs; the engine is not shared yet
        self._app.post_message(IndexReady(engine, perf_counter() - started))
        # The tables of exact and `^` terms, filters and (last) the abstracts as shown: seconds
        # at 100k papers, built while typing goes on and without the searches' lock (each is
        # stored whole when done), so no key waits for them; a search that needs one sooner
        # makes its own. The costliest (the abstracts as shown, each letter's papers) come from
        # warm-tables.cache when an earlier start saved them for these papers and this code.
        # Each step gives way to the searches of keys being typed (`give_way`).
        warm_file = self.library.root / WARM_CACHE
        try:
            key = warm_cache.cache_key(papers_key, engine.fingerprint)
            parts = None
            if key is not None:
                parts = warm_cache.load(warm_file, key, len(papers), self.give_way)
            if parts is None and key is not None and self._warm_apart(engine, papers_key):
                parts = warm_cache.load(warm_file, key, len(papers), self.give_way)
            loaded = parts is not None and engine.adopt_warm(parts)
            TRACE.mark("warm-cache", "loaded" if loaded else "missed")
            engine.warm_tables(abstracts=True, pause=self.give_way)
        except GiveWayStopped:
            return  # the app stops or a new index replaced this one: nothing to freeze
        self._app.post_message(TablesReady())
        made = None if loaded else engine.warm_parts()
        if made is not None and key is not None:
            # Compressed in pieces, zlib without the interpreter: typing goes on meanwhile.
            with contextlib.suppress(GiveWayStopped):
                warm_cache.save(warm_file, key, made, self.give_way)

    def _warm_apart(self, engine: SearchEngine, papers_key: StatKey | None) -> bool:
        """For `WARM_CHILD_FROM` papers or more, have a child process make and save the costly
        warm tables (`storage.library.cache_child`) while this worker makes the cheap ones
        (names, titles, authors, filters: a second at 100k papers); True once the child saved
        them. Meanwhile a search that needs a table not made yet makes its own."""
        if papers_key is None or len(engine.papers) < WARM_CHILD_FROM:
            return False
        child = ChildBuild.start("warm", self.library.root, papers_key)
        if child is None:
            return False
        worker = get_current_worker()
        try:
            engine.warm_tables(abstracts=False, pause=self.give_way)
            made = child.wait(cancelled=lambda: worker.is_cancelled)
        finally:
            child.stop()
        if worker.is_cancelled:
            raise GiveWayStopped
        return made

    def tables_ready(self) -> None:
        """The warm tables are built: they live as long as the index, so out of gc's way.

        Unfrozen, the first full collection after them (at the user's first pause) walked
        every object they hold: 0.7-2 s at 100,000 papers, a stall for the next key.
        """
        TRACE.mark("tables-ready")
        freeze_long_lived()

    def give_way(self) -> None:
        """Called by the tables' warm-up between its small steps (a thousand papers or so):
        returns once no search has started or run for `WARM_QUIET_SECONDS`. The warm-up holds
        the interpreter while it runs (seconds at 100k papers): the searches of keys being
        typed go first, and it goes on when typing stops."""
        worker = get_current_worker()
        while not worker.is_cancelled:
            quiet = perf_counter() - self.last_activity
            if quiet >= WARM_QUIET_SECONDS and not self.lock.locked():
                return
            # Woken early by nothing: a short wait, so that an app stopping is seen soon.
            self._quiet.wait(min(max(WARM_QUIET_SECONDS - quiet, 0.01), 0.1))
        raise GiveWayStopped  # the app stops or a new index replaces this one: no more tables

    def papers_changed(self, present: set[str]) -> None:
        """Papers were imported, removed or put back: build the index again. Until it is
        ready, searches keep running on the index there is (22-25 s of rebuilding at 100k
        papers, during which a filter got no results at all), with the papers no longer in
        the library left out of the list (`PaperList.hiding`); papers put back or imported are
        found once the new index is in (the list without a filter shows them at once)."""
        engine = self.engine
        if engine is not None:
            papers = self._app.paper_list
            papers.unhide(self.stale)
            self.stale = frozenset(p.id for p in engine.papers if p.id not in present)
            papers.hiding |= self.stale
        self.build_index()

    def index_ready(self, message: IndexReady) -> None:
        """The index is there: run the query typed while it was being built."""
        TRACE.mark("index-ready", f"{message.seconds:.3f}")
        self.engine = message.engine
        self._app.paper_list.unhide(self.stale)
        self.stale = frozenset()
        self._app.main_screen.progress = None
        freeze_long_lived()  # the index lives as long as the library
        if self.query_text.strip():
            self.start_search(keep=None)

    def _show_progress(self, text: str | None) -> None:
        self._app.main_screen.progress = text

    # -- searching -------------------------------------------------------------------------------

    def query_edited(self, query: str) -> None:
        """The filter's text changed (typed, pasted, cleared or set by code): search for it."""
        TRACE.mark("changed")
        self._app.collector.activity()
        self._app.workflow.new_query(self.query_text, query)
        self._app.main_screen.query_text = query
        self.start_search(keep=None)

    def start_search(self, keep: str | None) -> None:
        """Search for the current query; the newest search wins, older ones are dropped (a
        worker's search still running gives up at its next step: `cancelled`)."""
        self.serial += 1
        self.last_activity = perf_counter()
        query = self.query_text
        if not query.strip():
            self.show_results(self.serial, self._app.workflow.all_hits(), keep=keep)
        elif self.engine is None:
            self._show_searching(self.serial)  # queued: IndexReady starts it
        elif (
            self.last_search < INLINE_SEARCH_SECONDS
            and not self.engine.may_take_long(query)
            and self.lock.acquire(False)
        ):
            # Quick searches run right here, so that the list changes in the same frame as the
            # filter's text (a worker round trip costs a frame or two); a slow one moves the
            # next search to the worker, which never blocks typing. So does one the last
            # search's time says nothing about (an exact term: `'` 2 ms, then `'d` 0.4 s).
            try:
                started = perf_counter()
                hits = self.engine.results(query, self.library.entries())
                self.last_search = perf_counter() - started
            except PapershelfError as error:
                self._failed(str(error))
                return
            finally:
                self.lock.release()
            TRACE.mark("searched", f"{self.serial} {self.last_search * 1000:.2f} inline")
            self.show_results(self.serial, hits, keep=keep)
        else:
            # The library replaces its entries on every change, never changes them in place: the
            # worker may read this mapping (copying it costs a pass over every entry per key).
            entries = self.library.entries()
            self._app.run_worker(
                partial(self._search, self.engine, query, entries, self.serial, keep),
                thread=True,
                exclusive=True,
                group="search",
                description=f"search {self.serial}",  # not the repr of every entry
            )
            # `searching…` only once the frame with the typed key is drawn and the results are
            # not in: said at once, the status line joined the key's frame, whose redraw then
            # spanned the screen from the filter to the status line, while the worker searched.
            self._app.call_after_refresh(self._show_searching, self.serial)

    def _show_searching(self, serial: int) -> None:
        """The status line says `searching…` for the query of search `serial`, unless its
        results are shown already or a newer search started."""
        if serial == self.serial != self.shown_serial:
            screen = self._app.main_screen
            screen.shown_query = self.query_text
            screen.searching = True

    def results_current(self) -> bool:
        """Whether the list shows the results of the query as typed. A key that acts on a
        paper can arrive before a slow search's results (`/graph enter T` typed ahead): the
        search then runs here, at once, so the key acts on a paper of its query's results. Until
        the index has loaded there are none to give: say so, and act on nothing."""
        if self.shown_serial == self.serial:
            return True
        if self.engine is None:
            self._app.notify_info(
                "Still loading the search index: try again in a moment", "warning"
            )
            return False
        try:
            with self.lock:  # a worker's search finishes first (the engine's caches)
                hits = self.engine.results(self.query_text, self.library.entries())
        except PapershelfError as error:
            self._failed(str(error))
            return False
        self.show_results(self.serial, hits, keep=None)
        return True

    def _search(
        self,
        engine: SearchEngine,
        query: str,
        entries: Mapping[str, Entry],
        serial: int,
        keep: str | None,
    ) -> None:
        started = perf_counter()
        try:
            with self.lock:  # the engine's caches are not shared between threads
                hits = engine.results(query, entries, partial(self.superseded, serial))
        except SearchCancelled:
            # A newer key's search waits for the lock: it starts now, and this one's results
            # (of a query no longer typed) are never shown.
            TRACE.mark("cancelled", str(serial))
            return
        except PapershelfError as error:
            self._app.post_message(SearchFailed(serial, query, str(error)))
            return
        except Exception as error:
            # Unexpected: the crash guard logs it; the status line must not say "searching…"
            # for ever.
            self._app.post_message(
                SearchFailed(serial, query, f"search failed ({type(error).__name__})")
            )
            raise
        finally:
            self.last_activity = perf_counter()
            self.last_search = self.last_activity - started
        if not get_current_worker().is_cancelled:
            seconds = perf_counter() - started
            TRACE.mark("searched", f"{serial} {seconds * 1000:.2f}")
            self._app.post_message(SearchFinished(serial, query, hits, keep, seconds))

    def superseded(self, serial: int) -> bool:
        """Whether search `serial` is no longer the newest (read from the worker's thread:
        `serial` is one int the UI thread replaces)."""
        return serial != self.serial

    def finished(self, message: SearchFinished) -> None:
        """A worker's results: shown if they are still the newest."""
        # Not when shown already: `results_current` caught up, and the cursor has moved since.
        if message.serial == self.serial != self.shown_serial:
            TRACE.mark("results", str(message.serial))
            self.show_results(message.serial, message.hits, keep=message.keep)

    def failed(self, message: SearchFailed) -> None:
        """A worker's search failed: the status line says why (if it is still the newest)."""
        if message.serial == self.serial:
            self._failed(message.message)

    def _failed(self, error: str) -> None:
        """The newest search failed: the status line says why, and no longer `searching…`."""
        screen = self._app.main_screen
        screen.shown_query = self.query_text
        screen.query_error = error
        screen.searching = False

    # -- showing ---------------------------------------------------------------------------------

    def show_results(self, serial: int, hits: Sequence[Hit], keep: str | None) -> None:
        """Show `hits` (in the chosen order) in the list and the tag pane; the status line
        follows the list's count and the screen's figures set here."""
        hits, keep = self._app.workflow.arrange(hits, keep)
        screen = self._app.main_screen
        # What the CLI would refuse (`has:pdf`, `is:done`) the status line says, in its words.
        screen.query_error = next(iter(parse_query(self.query_text).errors), None)
        screen.shown_query = self.query_text
        screen.searching = False
        self.shown_serial = serial
        papers = self._app.paper_list
        papers.show(hits, keep=keep)
        self.refresh_side()
        if TRACE.enabled:
            detail = f"{serial} {len(hits)} {self.query_text!r}"
            self._app.call_after_refresh(self._trace_rendered, papers.shown_count, detail)

    def _trace_rendered(self, shown: int, detail: str) -> None:
        # Marked after the first frame that drew these results (not just any frame).
        if self._app.paper_list.painted_count >= shown:
            TRACE.mark("list-rendered", detail)
        else:
            self._app.call_after_refresh(self._trace_rendered, shown, detail)

    def refresh_side(self) -> None:
        """Redraw the tag pane's counts for the results shown."""
        self._app.main_screen.tag_pane.show_counts(self._tag_counts(self._app.paper_list.hits))

    def _tag_counts(self, hits: Sequence[Hit]) -> Counter[str]:
        if isinstance(hits, Without):
            # Results less the rows of a removal being saved: the results' counts (their fast
            # paths), less those rows' tags; never a pass over every hit.
            counts = self._tag_counts(hits.base)
            for paper_id in hits.hidden_ids:
                counts.subtract(self.library.entry(paper_id).tags)
            return +counts  # no tag left at zero
        # The counts do not depend on the order: count the unsorted results (fast paths there).
        if isinstance(hits, SortedHits):
            hits = hits.base
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
