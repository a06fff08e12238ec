"""What the app shows follows the library: changes made here, and those another process saved.

`LibraryRefresh` is a plain object the app holds (`app.reloading`); the app's `after_change`,
`poll_library` and `show_notices` delegate to it. It remembers which revision and which list of
papers the screen shows, so a change of entries (tags, status) only redraws and re-filters,
while papers imported, removed or put back also rebuild the search index and drop marks and
rows of papers that are gone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from papershelf.storage.errors import PapershelfError
from papershelf.tui.text import one_line_notice

if TYPE_CHECKING:
    from collections.abc import Sequence

    from papershelf.storage.model import Paper
    from papershelf.tui.app import PapershelfApp

REFRESH_SECONDS = 2.0
"""How often to look for changes another papershelf process saved."""


class LibraryRefresh:
    """Keeps the screen in step with the library of the app that holds it."""

    def __init__(self, app: PapershelfApp) -> None:
        self._app = app
        self.library = app.library
        self._seen_revision = self.library.revision
        self.papers_seen: Sequence[Paper] = self.library.papers()
        """The papers the screen shows (the library's list object, compared by identity)."""
        self._last_poll_error: str | None = None

    def start(self) -> None:
        """Poll for other processes' changes every `REFRESH_SECONDS`."""
        app = self._app
        app.set_interval(REFRESH_SECONDS, app.guarded(self.poll, "the reload"))

    def after_change(self) -> None:
        """Papers or entries changed (here or in another process): redraw and re-filter."""
        app = self._app
        self._seen_revision = self.library.revision
        app.saving.show()  # saved now, or held in memory
        papers = app.paper_list
        papers_changed = self.library.papers() is not self.papers_seen
        if papers_changed:
            self._papers_changed()
        papers.refresh_rows()
        app.main_screen.show_paper(papers.current_id)
        if papers_changed or app.search.query_text.strip() or app.workflow.sort_follows_entries:
            # `is:read`, `#tag`, the order may differ; papers imported, removed or put back
            app.search.start_search(keep=papers.current_id)
        else:
            app.search.refresh_side()

    def _papers_changed(self) -> None:
        """Papers were imported, removed or put back: rebuild the index, and at once stop
        showing (or marking) papers that are gone; until the new index is in, searches run on
        the old one without them (`SearchWiring.papers_changed`)."""
        app = self._app
        self.papers_seen = self.library.papers()
        app.main_screen.paper_count = len(self.papers_seen)
        present = {paper.id for paper in self.papers_seen}
        app.search.papers_changed(present)  # the old index serves until the new one is in
        papers = app.paper_list
        if not papers.marked <= present:
            papers.set_marks(set(papers.marked & present))
        if not app.search.query_text.strip() or app.search.engine is not None:
            return  # `after_change` shows the list again at once, without the papers gone (a
            # pass over 100,000 rows here took 0.3 s of the UI thread after a removal at 100k)
        if any(hit.paper_id not in present for hit in papers.hits):
            hits = [hit for hit in papers.hits if hit.paper_id in present]
            app.search.show_results(app.search.serial, hits, keep=papers.current_id)

    def poll(self) -> None:
        """Pick up changes another process saved (the CLI, a second app); not while this app
        writes a change in a worker (`app.writing`): its lock is held, and the library's held
        view must not move under the screen. The next poll after it looks."""
        if self._app.writing.running is not None:
            return
        try:
            changed = self.library.refresh()
        except PapershelfError as error:
            if str(error) != self._last_poll_error:
                self._last_poll_error = str(error)
                self._app.notify_error(str(error))
            return
        self._last_poll_error = None
        self.show_notices()
        if changed or self.library.revision != self._seen_revision:
            self.after_change()

    def show_notices(self) -> None:
        """What the library did on its own (a damaged file moved aside, state recovered from a
        backup): each notice once, as a warning that stays long enough to be read."""
        for notice in self.library.take_notices():
            self._app.notify(
                one_line_notice(notice, 400), severity="warning", markup=False, timeout=30
            )
        self._app.saving.show()  # a recovery not yet written is an unsaved change
