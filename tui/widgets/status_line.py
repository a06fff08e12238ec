"""The status line: how many papers are shown, the active filter, the sort and the marks."""

from __future__ import annotations

from typing import ClassVar

from textual.content import Content
from textual.widgets import Static

from papershelf.tui.text import plain


class StatusLine(Static):
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

    def show(
        self,
        *,
        shown: int,
        total: int,
        query: str,
        marked: int,
        searching: bool = False,
        error: str | None = None,
        sort: str | None = None,
        unsaved: str | None = None,
    ) -> None:
        """Redraw with the given figures (the query is user text: shown literally).

        `unsaved` (`● 1 change not saved — retrying`) comes first: it must not be missed.

        `sort` names the order of the results (default: relevance with a query, else library).
        """
        count = plain(f"{shown:,} of {total:,} papers", ".status-line--count")
        parts: list[Content | str] = []
        if unsaved:
            parts += [plain(unsaved, ".status-line--error", one_line=True), "  "]
        parts.append(count)
        if query.strip():
            parts += ["  filter: ", plain(query, ".status-line--query", one_line=True)]
            parts.append(f"  sort: {sort or 'relevance'}")
        else:
            parts.append(f"  sort: {sort or 'library order'}")
        if marked:
            parts += ["  ", plain(f"{marked:,} marked", ".status-line--marked")]
        if searching:
            parts.append("  searching…")
        if error:
            parts += ["  ", plain(error, ".status-line--error", one_line=True)]
        # One line, always: no need for a layout pass on every keystroke.
        self.update(Content.assemble(*parts), layout=False)

    @property
    def text(self) -> str:
        """The plain text shown."""
        return str(self.content)
