"""The commands that only read: `list`, `show` and `related`.

`list` answers from `listing.cache` and state.json alone when it can (`storage.search.listing`),
without opening the Library; otherwise, like `show` and `related`, it opens the Library without
the lock (`read_only=True`).
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from papershelf.cli import output
from papershelf.cli.exits import EXIT_OK
from papershelf.cli.papers import paper_json, summary_line
from papershelf.cli.shelf import named_root, open_library, search
from papershelf.storage.model import Entry

if TYPE_CHECKING:
    from papershelf.storage.search.listing import ListedPaper


def cmd_list(args: argparse.Namespace) -> int:
    """Ranked results of the query language, as lines or as a JSON array."""
    # Tens of thousands of objects made and none freed early: collecting cycles meanwhile
    # would only re-scan them (~10 ms at 10k papers).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _list(args)
    finally:
        if collecting:
            gc.enable()


def _list(args: argparse.Namespace) -> int:
    if not args.json:
        status = list_from_listing(args)
        if status is not None:
            return status
    library = open_library(args, read_only=True)
    hits = search(library, args.query, listing_failed=not args.json)
    if args.limit is not None:
        hits = hits[: args.limit]
    if args.json:
        rows = [
            paper_json(library.get(hit.paper_id), library.entry(hit.paper_id), hit.score)
            for hit in hits
        ]
        output.json_block(rows)
        return EXIT_OK
    output.lines(
        [summary_line(library.get(hit.paper_id), library.entry(hit.paper_id)) for hit in hits]
    )
    if not hits and sys.stderr.isatty():
        output.line("no papers match", stream=sys.stderr)
    return EXIT_OK


def list_from_listing(args: argparse.Namespace) -> int | None:
    """`list` (lines) from listing.cache and state.json, read without the Library or a lock.

    None when they cannot answer as they are (no or a stale listing, an empty library that
    the full path seeds, a state.json the Library must report on): the full path then prints
    exactly what this would have printed.
    """
    from papershelf.storage.files.layout import STATE_FILE, read_entries, resolve_root
    from papershelf.storage.search import listing
    from papershelf.storage.search.engine import parse_query

    root = resolve_root(named_root(args))
    shelf = listing.load(root)
    if shelf is None:
        return None
    with shelf:
        entries = read_entries(root / STATE_FILE)
        if entries is None or not shelf.papers:
            return None
        query = parse_query(" ".join(args.query))
        query.check()  # an unknown `is:` value is the user's error, not an empty result
        try:
            order = shelf.engine().results(query, entries).indices
        except listing.ListingUnusable:
            return None
    if query.notice:
        output.warning(query.notice)
    papers = shelf.papers
    if args.limit is not None:
        order = order[: args.limit]
    _write_lines(papers, order, entries)
    if not order and sys.stderr.isatty():
        output.line("no papers match", stream=sys.stderr)
    return EXIT_OK


def _write_lines(
    papers: Sequence[ListedPaper], order: Sequence[int], entries: Mapping[str, Entry]
) -> None:
    default = Entry()
    output.lines(
        [
            summary_line(paper, entries.get(paper.id, default))
            for paper in map(papers.__getitem__, order)
        ]
    )


def cmd_show(args: argparse.Namespace) -> int:
    """One paper in full."""
    library = open_library(args, read_only=True)
    paper = library.find(args.ref)
    entry = library.entry(paper.id)
    if args.json:
        output.json_block(paper_json(paper, entry, None))
        return EXIT_OK
    from papershelf.storage.text.authors import authors_text
    from papershelf.storage.text.headings import heading
    from papershelf.storage.text.latex import display_text

    head, title = heading(paper.name, paper.title)
    lines = [head, title, ""] if title else [head, ""]
    fields = [("id", paper.id)]
    if paper.authors:
        fields.append(("authors", authors_text(paper.authors)))
    if paper.year is not None:
        fields.append(("year", str(paper.year)))
    fields.append(("venue", paper.venue or "—"))
    if paper.identifiers:  # as `papershelf add` takes them: doi:…, arxiv:…, openreview:…
        fields.append(("ids", "  ".join(paper.identifiers)))
    fields += [
        ("sources", ", ".join(map(_source_shown, paper.sources))),
        ("status", entry.status + (" ★" if entry.starred else "")),
        ("tags", " ".join(f"#{t}" for t in sorted(entry.tags)) or "—"),
    ]
    if entry.updated_at:
        fields.append(("changed", entry.updated_at))
    if paper.imported_at:
        fields.append(("imported", paper.imported_at))
    fields += [("code", url) for url in paper.code_urls]
    fields += [("link", url) for url in paper.links]
    if paper.separate_page:  # not when it is a code URL or link already
        fields.append(("page", paper.separate_page))
    if paper.separate_pdf:
        fields.append(("pdf", paper.separate_pdf))
    lines += [f"{key:>8}: {value}" for key, value in fields]
    output.lines(lines)
    # The note and the abstract have lines of their own; every other field is one line.
    if entry.note:
        output.lines(["", "Note:"])
        output.block(entry.note)
    output.line()
    output.block(display_text(paper.abstract).text)
    return EXIT_OK


def _source_shown(name: str) -> str:
    """A source file by its name, with the header the app shows for a bundled seed list:
    `001_aa86a2e0cf5ed7d9.txt (ICML 2025 Papers)`."""
    from papershelf.storage.library.source_titles import source_title

    title = source_title(name)
    return name if title == name else f"{name} ({title})"


def cmd_related(args: argparse.Namespace) -> int:
    """The papers most like one paper, best first."""
    from papershelf.storage.related.cache import load_or_build

    library = open_library(args, read_only=True)
    paper = library.find(args.ref)
    # The index saved in the library when it is the papers' (tens of ms), else built (seconds)
    # and saved for the next call.
    index, _ = load_or_build(library.root, library.papers_key, library.papers())
    found = index.related(paper.id, k=args.limit)
    if args.json:
        rows = [paper_json(library.get(pid), library.entry(pid), score) for pid, score in found]
        output.json_block(rows)
        return EXIT_OK
    output.lines(
        [
            f"{score:.3f}  {summary_line(library.get(pid), library.entry(pid))}"
            for pid, score in found
        ]
    )
    if not found and sys.stderr.isatty():
        output.line(f"no paper shares enough words with {paper.name}", stream=sys.stderr)
    return EXIT_OK
