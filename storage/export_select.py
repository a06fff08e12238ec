"""Which papers an export holds, under which title: one rule for the app and the CLI.

The app's `e` and `papershelf export` must write the same file for the same selection, byte for
byte. A selection is a tag's papers (`e` → a tag, or a query that is one `#tag` and nothing
else) or the results of a query, in their order. A tag's export is one section holding every
paper of the tag, in library order, whoever asks for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from storage.export import DEFAULT_TITLE, ExportItem, to_markdown
from storage.model import Entry, Paper, normalise_tag

__all__ = ["Selection", "lone_tag", "of_query", "of_tag"]


@dataclass(frozen=True)
class Selection:
    """The papers of one export, its title, and the tag it is about (None for a query's)."""

    title: str
    items: tuple[ExportItem, ...]
    tag: str | None = None

    def markdown(self, today: date) -> str:
        """The reading list as Markdown (`storage.export.to_markdown`)."""
        only = {self.tag} if self.tag is not None else None
        return to_markdown(self.items, title=self.title, today=today, only_tags=only)


def lone_tag(query: str) -> str | None:
    """The tag when `query` is exactly one `#tag` or `tag:name` term, else None."""
    words = query.split()
    if len(words) != 1:
        return None
    word = words[0]
    raw = word[1:] if word.startswith("#") else word[4:] if word.startswith("tag:") else ""
    try:
        return normalise_tag(raw) if raw else None
    except ValueError:
        return None


def of_tag(papers: Iterable[Paper], entry: Callable[[str], Entry], tag: str) -> Selection:
    """Every paper carrying `tag`, in library order."""
    items = []
    for paper in papers:
        state = entry(paper.id)
        if tag in state.tags:
            items.append(ExportItem(paper, state))
    return Selection(f"{DEFAULT_TITLE}: #{tag}", tuple(items), tag)


def of_query(
    query: str,
    result_ids: Sequence[str],
    papers: Sequence[Paper],
    get: Callable[[str], Paper],
    entry: Callable[[str], Entry],
) -> Selection:
    """The results of `query` in their order; a query that is one tag is that tag's export."""
    tag = lone_tag(query)
    if tag is not None:
        return of_tag(papers, entry, tag)
    words = " ".join(query.split())
    title = f"{DEFAULT_TITLE}: {words}" if words else DEFAULT_TITLE
    return Selection(title, tuple(ExportItem(get(pid), entry(pid)) for pid in result_ids))
