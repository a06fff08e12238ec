"""`papershelf remove`: take papers out of the library, as one step `papershelf undo` takes back.

Refs are resolved like every command's (`Library.find`); one that is unknown or ambiguous is
reported and nothing is removed (exit 1). `--source FILE` takes every paper that came only from
that file (one also from another file just loses that source). No prompt: the command is for
scripts, and undo brings everything back. One line per paper (the first `SHOWN`), then a count.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf.cli import output
from papershelf.cli.exits import EXIT_OK, EXIT_USER_ERROR
from papershelf.cli.output import PROG
from papershelf.cli.papers import plural, summary_line
from papershelf.cli.parser import UsageError
from papershelf.cli.shelf import open_library
from papershelf.storage.errors import PapershelfError
from papershelf.storage.model import Entry
from papershelf.storage.text.clean import clean_name

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library

SHOWN = 20
"""Papers named one per line before the rest are counted (a bad import may hold thousands)."""


def cmd_remove(args: argparse.Namespace) -> int:
    """Remove the papers named (and `--source`'s); exit 1, removing nothing, on a bad ref."""
    if not args.refs and not args.source:
        raise UsageError(f"{PROG} remove: name a paper (ID or NAME) or give --source FILE")
    library = open_library(args)
    ids: list[str] = []
    failed = False
    for ref in args.refs:
        try:
            ids.append(library.find(ref).id)
        except PapershelfError as error:
            output.error(str(error))
            failed = True
    # Papers record a file's base name, as the import reported it.
    sources = [clean_name(Path(name).name or name) for name in args.source or ()]
    for source in sources:
        if not any(source in paper.sources for paper in library.papers()):
            output.error(f"no paper came from {source} ({_known_sources(library)})")
            failed = True
    if failed:
        output.error("nothing was removed")
        return EXIT_USER_ERROR
    report = library.remove(ids, source=sources, dry_run=args.dry_run)
    verb = "would remove" if args.dry_run else "removed"
    shown = [f"{verb}: {summary_line(paper, Entry())}" for paper in report.removed[:SHOWN]]
    if len(report.removed) > SHOWN:
        shown.append(f"… and {len(report.removed) - SHOWN} more")
    output.lines(shown)
    if report.trimmed:
        also = "would keep" if args.dry_run else "kept"
        output.line(
            f"{also} {plural(len(report.trimmed), 'paper')} that also came from other files "
            f"(no longer from {', '.join(sources)})"
        )
    total = len(library.papers())
    holds = f"would hold {total - len(report.removed)}" if args.dry_run else f"holds {total}"
    summary = f"{verb} {plural(len(report.removed), 'paper')}; the library {holds}"
    if report.done and report.undoable:
        summary += f" ({PROG} undo brings them back)"
    output.line(summary + ".")
    return EXIT_OK


def _known_sources(library: Library) -> str:
    """A few of the library's source files, to say what `--source` can name."""
    names = sorted({name for paper in library.papers() for name in paper.sources})
    if not names:
        return "the library has no papers"
    more = f", … ({len(names)} in all)" if len(names) > 5 else ""
    return "its files: " + ", ".join(names[:5]) + more
