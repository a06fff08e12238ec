"""How the commands print a paper: one summary line, or one JSON object."""

from __future__ import annotations

from typing import TYPE_CHECKING

from papershelf.storage.model import Entry, Paper
from papershelf.storage.text.titles import display_title

if TYPE_CHECKING:
    from papershelf.storage.search.listing import ListedPaper


def plural(count: int, noun: str) -> str:
    """`1 paper`, `2 papers`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def paper_json(paper: Paper, entry: Entry, score: float | None) -> dict[str, object]:
    """One paper as `list --json`, `show --json` and `related --json` print it: everything
    `show` prints, under the keys the README's schema documents."""
    return {
        "id": paper.id,
        "name": paper.name,
        "title": display_title(paper.title) or None,  # as shown (LaTeX as Unicode)
        # As its file wrote it: what `papershelf import` reads back (an id may come from it).
        "title_as_imported": paper.title,
        "authors": list(paper.authors),
        "year": paper.year,
        "venue": paper.venue,
        "tags": sorted(entry.tags),
        "status": entry.status,
        "starred": entry.starred,
        "note": entry.note,
        "changed_at": entry.updated_at,
        "imported_at": paper.imported_at or None,
        "url": paper.url,
        "pdf_url": paper.pdf_url,
        "doi": paper.doi,
        "arxiv_id": paper.arxiv_id,
        "openreview_id": paper.openreview_id,
        "kind": paper.kind,
        "cite_key": paper.cite_key,
        "extra": dict(paper.extra),  # names are unique: an object reads better than pairs
        "code_urls": list(paper.code_urls),
        # The paper's own page is a link too (issue 11); `url` still says which one it is.
        "links": list(paper.links_with_page),
        "abstract": paper.abstract,
        "sources": list(paper.sources),
        "score": score,
    }


def summary_line(paper: Paper | ListedPaper, entry: Entry) -> str:
    """One paper on one line, as `list` and `related` print it."""
    from papershelf.storage.text.headings import heading

    head, title = heading(paper.name, paper.title)
    # Two spaces between the id, the heading (with its title) and the rest, whichever form.
    line = f"{paper.id}  {head}" + (f"  — {title}" if title else "")
    rest = [f"[{paper.venue}]"] if paper.venue else []
    rest.extend(f"#{tag}" for tag in sorted(entry.tags))
    if entry.status != "unread":
        rest.append(f"({entry.status})")
    if entry.starred:
        rest.append("★")
    return line + ("  " + " ".join(rest) if rest else "")
