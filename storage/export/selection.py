"""Which papers an export holds, under which title: one rule for the app and the CLI.

The app's `e` and `papershelf export` must write the same file for the same selection, byte for
byte. A selection is a tag's papers (`e` → a tag, or a query that is one `#tag` and nothing
else) or the results of a query, in their order. A tag's export is one section holding every
paper of the tag, in library order, whoever asks for it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from papershelf.storage.export.formats import Format
from papershelf.storage.export.markdown import DEFAULT_TITLE, ExportItem, to_markdown
from papershelf.storage.model import Entry, Paper, normalise_tag

__all__ = ["Selection", "first_tag", "lone_tag", "of_query", "of_tag"]


@dataclass(frozen=True)
class Selection:
    """The papers of one export, its title, and the tag it is about (None for a query's)."""

    title: str
    items: tuple[ExportItem, ...]
    tag: str | None = None

    def markdown(self, today: date) -> str:
        """The reading list as Markdown (`papershelf.storage.export.markdown.to_markdown`)."""
        only = {self.tag} if self.tag is not None else None
        return to_markdown(self.items, title=self.title, today=today, only_tags=only)

    def text(self, fmt: Format, today: date) -> str:
        """The selection in format `fmt` (`export.formats`): Markdown as `markdown` writes it;
        BibTeX, CSV and JSON one entry or row per paper in the selection's order."""
        # Imported here: each format loads only when it is written.
        if fmt == "bibtex":
            from papershelf.storage.export.bibtex import to_bibtex

            return to_bibtex(item.paper for item in self.items)
        if fmt in ("csv", "json"):
            from papershelf.storage.export.table import to_csv, to_json

            pairs = ((item.paper, item.entry) for item in self.items)
            return to_csv(pairs) if fmt == "csv" else to_json(pairs)
        return self.markdown(today)


def lone_tag(query: str, tags: Collection[str]) -> str | None:
    """The tag when `query` is one `#tag` or `tag:name` term that selects exactly the papers of
    one of `tags` (the library's), else None.

    `#to` is a prefix in the query language (`to-read`, `today`): a term that is not a whole
    tag, or is the start of another tag too, selects more than one tag's papers, so its export
    is a query's.
    """
    words = query.split()
    tag = _tag_term(words[0]) if len(words) == 1 else None
    if tag is None or tag not in tags:
        return None
    if any(other != tag and other.startswith(tag) for other in tags):
        return None
    return tag


def first_tag(query: str, tags: Collection[str]) -> str | None:
    """The first `#tag` / `tag:name` term of `query` that names one of `tags`, if any (the
    app's export dialog offers it; `#gn` typed halfway is no tag to export)."""
    for word in query.split():
        tag = _tag_term(word)
        if tag is not None and tag in tags:
            return tag
    return None


def _tag_term(word: str) -> str | None:
    """The normalised tag of a `#tag` or `tag:name` (any case) query term, else None."""
    raw = word[1:] if word.startswith("#") else word[4:] if word[:4].casefold() == "tag:" else ""
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
    tags: Collection[str],
) -> Selection:
    """The results of `query` in their order; a query that is one of `tags` (the library's,
    see `lone_tag`) is that tag's export."""
    tag = lone_tag(query, tags)
    if tag is not None:
        return of_tag(papers, entry, tag)
    words = " ".join(query.split())
    title = f"{DEFAULT_TITLE}: {words}" if words else DEFAULT_TITLE
    return Selection(title, tuple(ExportItem(get(pid), entry(pid)) for pid in result_ids))
