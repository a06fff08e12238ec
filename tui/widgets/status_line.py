"""The status line: how many papers are shown, the active filter, the sort and the marks.

Each figure is a reactive, bound (`data_bind`) to the main screen's own; the line is drawn
from them by `render`, so a change of results, marks or order shows without anyone asking for
a redraw, and a keystroke that changes several figures draws the line once. Always one line:
its geometry never changes, so no change lays out the screen.
"""

from __future__ import annotations

from typing import ClassVar

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from papershelf.tui.text import plain


class StatusLine(Widget):
    """`N of M papers · filter · sort · marked` in one line."""

    # Colours of the figures (component classes); layout is the main screen's.
    DEFAULT_CSS = """
    StatusLine > .status-line--count {
        color: $text;
        text-style: bold;
    }

    StatusLine > .status-line--query {
        color: $text-accent;
    }

    StatusLine > .status-line--marked {
        color: $text-warning;
        text-style: bold;
    }

    StatusLine > .status-line--error {
        color: $text-error;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "status-line--count",
        "status-line--query",
        "status-line--marked",
        "status-line--error",
    }

    result_count: reactive[int] = reactive(0)
    """How many papers the list shows."""
    paper_count: reactive[int] = reactive(0)
    """How many papers the library holds."""
    query_text: reactive[str] = reactive("")
    """The filter's text (user text: shown literally)."""
    sort_label: reactive[str] = reactive("library order")
    """The remembered order's name; a query ranks by relevance instead while `by_relevance`."""
    by_relevance: reactive[bool] = reactive(True)
    mark_count: reactive[int] = reactive(0)
    searching: reactive[bool] = reactive(False)
    """A search for `query_text` is under way (or waits for the index)."""
    query_error: reactive[str | None] = reactive(None)
    """What is wrong with the query, if anything."""
    unsaved_note: reactive[str | None] = reactive(None)
    """`● 1 change not saved — retrying`, while a change is not on disk."""
    progress: reactive[str | None] = reactive(None)
    """`search index 45%`, while a build that takes seconds runs in the background."""
    writing: reactive[str | None] = reactive(None)
    """`removing RelGNN…`, while a change is being saved in the background."""

    def render(self) -> Content:
        """The line for the figures as they are now (drawn once a frame, however many changed)."""
        query = self.query_text
        sort = "relevance" if query.strip() and self.by_relevance else self.sort_label
        return status_content(
            shown=self.result_count,
            total=self.paper_count,
            query=query,
            marked=self.mark_count,
            searching=self.searching,
            error=self.query_error,
            sort=sort,
            unsaved=self.unsaved_note,
            progress=self.progress,
            writing=self.writing,
        )

    @property
    def text(self) -> str:
        """The plain text shown."""
        return self.render().plain


def status_content(
    *,
    shown: int,
    total: int,
    query: str,
    marked: int,
    sort: str,
    searching: bool = False,
    error: str | None = None,
    unsaved: str | None = None,
    progress: str | None = None,
    writing: str | None = None,
) -> Content:
    """The status line for these figures (the query and the error are shown literally).

    `unsaved` comes first: it must not be missed; then `writing` (a change being saved: the
    list shows it once it is on disk). `sort` names the order of the results.
    """
    parts: list[Content | str] = []
    if unsaved:
        parts += [plain(unsaved, ".status-line--error", one_line=True), "  "]
    if writing:
        parts += [plain(writing, ".status-line--marked", one_line=True), "  "]
    parts.append(plain(f"{shown:,} of {total:,} papers", ".status-line--count"))
    if query.strip():
        parts += ["  filter: ", plain(query, ".status-line--query", one_line=True)]
    parts.append(f"  sort: {sort}")
    if marked:
        parts += ["  ", plain(f"{marked:,} marked", ".status-line--marked")]
    if searching:
        parts.append("  searching…")
    if progress:
        parts.append(f"  {progress}")
    if error:
        parts += ["  ", plain(error, ".status-line--error", one_line=True)]
    return Content.assemble(*parts)
