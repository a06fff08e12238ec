"""`papershelf sync OTHER` and `papershelf restore --merge FILE`: another library's (or a
backup's) tags, statuses, stars, notes and papers merged into this one, one undoable step."""

from __future__ import annotations

import argparse
import sys

from papershelf.cli import output
from papershelf.cli.exits import EXIT_OK
from papershelf.cli.shelf import open_library


def cmd_sync(args: argparse.Namespace) -> int:
    """Merge OTHER (a library directory or a backup file) into the library."""
    return merge_from(args, args.other)


def merge_from(args: argparse.Namespace, other: object) -> int:
    """Run one sync with `other` and print its report: the summary line, one line per
    conflict, and with `--dry-run` one line per paper it would change."""
    from papershelf.storage.sync.run import read_other, sync_library

    # Seconds at 10,000 papers (both papers.json are read whole): a line on a terminal says
    # what is going on, as import's does, and is wiped before anything else is said.
    line = _Progress() if sys.stderr.isatty() else None
    try:
        if line:
            line.show(f"syncing: reading {other}…")
        # The other side first: a missing or damaged one changes nothing, not even here.
        found = read_other(str(other))
        # Like import, a sync may start the library (a new machine joining); never with seeds.
        library = open_library(args, create=True)
        if line:
            line.show("syncing: merging…")
        report = sync_library(library, str(other), dry_run=args.dry_run, other=found)
    finally:
        if line:
            line.wipe()
    output.line(report.summary)
    for conflict in report.conflicts:
        item = conflict.field
        output.line(
            f"  conflict: {conflict.name}: {item.field}: ours {_short(item.ours)} | "
            f"theirs {_short(item.theirs)} (kept {item.kept})"
        )
    if args.dry_run:
        for change in report.changes:
            output.line(f"  {change}")
        output.line("nothing was written (--dry-run)")
    elif report.papers_in or report.changed or report.removed:
        output.line("papershelf undo takes the whole sync back")
    for notice in report.notices:
        output.warning(notice)
    return EXIT_OK


def _short(text: str, limit: int = 60) -> str:
    """A value on one line, shortened: a note can be long and hold newlines."""
    flat = " ".join(text.split()) or "(empty)"
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


class _Progress:
    """One status line on a terminal's stderr, redrawn in place and wiped at the end."""

    def __init__(self) -> None:
        self._width = 0

    def show(self, text: str) -> None:
        output.progress(text.ljust(self._width), done=False)
        self._width = max(self._width, len(text))

    def wipe(self) -> None:
        output.progress(" " * self._width, done=False)
        output.progress("", done=False)  # back to the line's start, for what comes next
