"""`papershelf add ID...`: papers fetched by arXiv id, DOI or OpenReview link into the library.

Each identifier is fetched whole (`storage.fetch`) and imported as its own paper, or not at all;
one line per identifier, on stdout when it was added or already there, on stderr when it failed
(exit status 1). `--dry-run` fetches and says what would be added, and writes nothing.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from papershelf.cli import output
from papershelf.cli.exits import EXIT_OK, EXIT_USER_ERROR
from papershelf.cli.papers import plural
from papershelf.cli.shelf import open_library
from papershelf.storage.errors import PapershelfError
from papershelf.storage.text.identifiers import identify

if TYPE_CHECKING:
    from papershelf.storage.ingest.merge import MatchIndex
    from papershelf.storage.library.library import Library
    from papershelf.storage.model import Paper

NOT_AN_IDENTIFIER = "not an arXiv id, DOI or OpenReview link"


def cmd_add(args: argparse.Namespace) -> int:
    """Fetch and add each identifier; the lines come once all are fetched (after the progress)."""
    from papershelf.storage.fetch.client import Client, FetchError
    from papershelf.storage.fetch.lookup import fetch_paper, label
    from papershelf.storage.ingest.merge import MatchIndex

    wanted = [(text, identify(text)) for text in args.ids]
    library = open_library(args, read_only=args.dry_run, create=not args.dry_run)
    seen = {paper.id: paper for paper in library.papers()} if args.dry_run else {}
    index = MatchIndex(seen) if args.dry_run else None
    client = Client.from_environment()
    known = [identifier for _, identifier in wanted if identifier is not None]
    show_progress = len(known) > 1 and sys.stderr.isatty()
    results: list[tuple[bool, str]] = []  # (ok, line)
    added = done = width = 0
    for text, identifier in wanted:
        if identifier is None:
            results.append((False, f"{text}: {NOT_AN_IDENTIFIER}"))
            continue
        name = label(identifier)
        if show_progress:
            line = f"fetching {done + 1}/{len(known)}: {name}"
            # Padded to the longest line so far: `\r` does not clear what a longer one left.
            width = max(width, len(line))
            output.progress(line.ljust(width), done=False)
        done += 1
        try:
            paper = fetch_paper(identifier, client)
        except FetchError as error:
            results.append((False, f"{name}: {error}"))
            continue
        try:
            outcome = _add(library, index, seen, paper, name)
        except PapershelfError as error:  # the library could not be written (locked, full)
            results.append((False, f"{name}: {error}"))
            continue
        added += outcome.startswith(("added", "would add"))
        results.append((True, f"{name}: {outcome}"))
    if show_progress:
        output.progress(f"fetched {plural(len(known), 'identifier')}".ljust(width), done=True)
    for ok, line in results:
        if ok:
            output.line(line)
        else:
            output.error(line)
    if args.dry_run:
        output.line(f"dry run: {plural(added, 'paper')} would be added; nothing was written.")
    elif known:
        total = len(library.papers())
        output.line(f"{plural(added, 'new paper')}; the library holds {plural(total, 'paper')}.")
    failed = any(not ok for ok, _ in results)
    return EXIT_USER_ERROR if failed else EXIT_OK


def _add(
    library: Library, index: MatchIndex | None, seen: dict[str, Paper], paper: Paper, source: str
) -> str:
    """Add `paper` (or, with an `index` of the papers `seen`, only look whether it would be
    new): what happened, as the end of its line."""
    from papershelf.storage.text.titles import display_title

    title = display_title(paper.title) if paper.title else paper.name
    if index is not None:
        if index.find(paper) is not None:
            return "already in the library"
        seen[paper.id] = paper  # a second id of the same paper is then "already" too
        index.added(paper)
        return f'would add "{title}"'
    # Asked for by name: a paper the user removed comes back (an import of a file skips it).
    report = library.import_papers([paper], source=source, include_removed=True)
    if report.restored:
        return f'added "{title}" again (removed before)'
    return f'added "{title}"' if report.added else "already in the library"
