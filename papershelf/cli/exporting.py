"""The commands that write the library out to a file and back: `export`, `backup`, `restore`."""

from __future__ import annotations

import argparse

from papershelf.cli import output
from papershelf.cli.exits import EXIT_OK
from papershelf.cli.papers import plural
from papershelf.cli.shelf import open_library, search
from papershelf.storage.errors import PapershelfError


def cmd_export(args: argparse.Namespace) -> int:
    """The matching papers as a Markdown reading list, BibTeX, CSV or JSON, to stdout or a
    file; the format is `--format`, else the file's suffix, else Markdown."""
    from datetime import date
    from pathlib import Path

    from papershelf.storage.export import selection
    from papershelf.storage.export.formats import format_of_path
    from papershelf.storage.export.writing import ExportExists, write_export

    target: Path | None = None if str(args.output or "-") == "-" else args.output
    fmt = args.format or (format_of_path(target) if target else None) or "markdown"
    library = open_library(args, read_only=True)
    query = " ".join(args.query)
    tags = library.tag_counts()
    tag = selection.lone_tag(query, tags)
    ids = [] if tag else [hit.paper_id for hit in search(library, args.query)]
    chosen = selection.of_query(query, ids, library.papers(), library.get, library.entry, tags)
    items = chosen.items
    text = chosen.text(fmt, date.today())
    if target is None:
        if text:
            output.block(text)
        return EXIT_OK
    try:
        path = write_export(target, text, overwrite=args.force)
    except ExportExists:
        raise PapershelfError(
            f"{args.output} already exists; use --force to overwrite it"
        ) from None
    output.line(f"wrote {plural(len(items), 'paper')} to {path}")
    return EXIT_OK


def cmd_backup(args: argparse.Namespace) -> int:
    """Write the whole user state to FILE."""
    from papershelf.storage.export.backup import write_backup

    library = open_library(args)
    count = write_backup(library, args.file, force=args.force)
    output.line(f"saved the state of {plural(count, 'paper')} to {args.file}")
    return EXIT_OK


def cmd_restore(args: argparse.Namespace) -> int:
    """Replace the whole user state with FILE's (one undoable step)."""
    from papershelf.storage.export.backup import restore_backup

    if args.merge:
        from papershelf.cli.syncing import merge_from

        return merge_from(args, args.file)
    if args.dry_run:
        raise PapershelfError("--dry-run goes with --merge (a restore replaces the state)")
    library = open_library(args)
    report = restore_backup(library, args.file)
    if not report.changed:
        # No undo step was recorded: `undo` now would take back some earlier change.
        output.line(f"restored {args.file}: nothing changed (the library already holds its state)")
        return EXIT_OK
    line = (
        f"restored {args.file}: {plural(report.entries, 'paper')} with tags, status, "
        f"stars or notes; {plural(report.changed, 'paper')} changed"
    )
    if report.absent:
        line += f"; {report.absent} kept for papers not in this library"
    output.line(line + " (papershelf undo takes it back)")
    return EXIT_OK
