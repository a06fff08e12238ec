"""`papershelf import`: abstract lists into the library, and edited reading lists back."""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf.cli import output
from papershelf.cli.exits import EXIT_OK, EXIT_USER_ERROR
from papershelf.cli.output import PROG
from papershelf.cli.papers import plural
from papershelf.cli.shelf import open_library
from papershelf.storage.errors import PapershelfError

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library


def cmd_import(args: argparse.Namespace) -> int:
    """Import files; one line per file, errors on stderr; exit 1 when any file failed.

    A Markdown list papershelf exported (it holds `<!-- papershelf:ID -->` comments) is applied
    as an edited reading list (ticks and tag changes; see `storage.export.roundtrip`) instead.
    """
    # An import makes a few objects per record and frees few before it ends (papers, their
    # records, papers.json's documents): the cyclic collector's full passes only re-scan them,
    # ever more of them (at 100,000 papers ~2 s of CPU, a third of the merge and save). The
    # import makes no cycles worth collecting, and the process ends when it is done.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _import(args)
    finally:
        if collecting:
            gc.enable()


def _import(args: argparse.Namespace) -> int:
    from papershelf.storage.export.roundtrip import is_reading_list

    library = open_library(args, create=True)
    lists = {i for i, path in enumerate(args.files) if is_reading_list(path)}
    plain = [path for i, path in enumerate(args.files) if i not in lists]
    progress = _ProgressLine() if plain and sys.stderr.isatty() else None
    reports = iter(
        library.import_files(
            plain, venue=args.venue, progress=progress, include_removed=args.include_removed
        )
    )
    if progress is not None:
        progress.end(f"imported {plural(len(plain), 'file')}")
    failed = added = skipped_removed = 0
    for i, path in enumerate(args.files):
        if i in lists:
            failed += not _apply_reading_list(library, path)
            continue
        report = next(reports)
        added += report.added
        if report.error:
            failed += 1
            output.error(report.error)
        else:
            skipped_removed += report.removed
            output.line(
                f"{report.source}: {report.added} added, {report.duplicates} duplicates, "
                f"{report.skipped} skipped{_removed_counts(report.removed, report.restored)}"
            )
            for note in report.notes:
                output.line(f"{report.source}: {note}")
    if plain:
        # The reports' own counts: the library's size before may have been read from a
        # papers.json found damaged since, or grown by another process's import meanwhile.
        total = len(library.papers())
        output.line(f"{plural(added, 'new paper')}; the library holds {plural(total, 'paper')}.")
    if skipped_removed:
        output.line(f"(you removed those; {PROG} import --include-removed FILE brings them back)")
    return EXIT_USER_ERROR if failed else EXIT_OK


def _removed_counts(removed: int, restored: int) -> str:
    """`, 2 skipped as removed` / `, 2 brought back` for an import report (nothing if none)."""
    text = f", {removed} skipped as removed" if removed else ""
    return text + (f", {restored} brought back" if restored else "")


def _apply_reading_list(library: Library, path: Path) -> bool:
    """Apply one edited reading list and report it; False (message on stderr) when it failed."""
    from papershelf.storage.export.roundtrip import import_reading_list

    try:
        report = import_reading_list(library, path)
    except PapershelfError as error:
        output.error(str(error))
        return False
    plan = report.plan
    parts = [f"{plural(report.changed, 'paper')} changed", f"{plan.unchanged} unchanged"]
    if plan.unknown:
        parts.append(f"{len(plan.unknown)} not in this library")
    if plan.unmatched:
        parts.append(f"{len(plan.unmatched)} items without a papershelf id skipped")
    output.line(f"{report.source}: reading list: {', '.join(parts)}")
    output.lines([f"  {line}" for line in plan.summary_lines()])
    return True


class _ProgressLine:
    """The import's progress on a terminal's stderr, one line rewritten in place: each file as
    it is read, then the merge and the save (seconds for 100,000 papers, with no line of their
    own otherwise), then what was done."""

    def __init__(self) -> None:
        self._width = 0

    def __call__(self, done: int, of: int) -> None:
        text = f"importing: {done}/{of} files"
        if done >= of:
            text += ", merging and saving…"
        self._show(text, done=False)

    def end(self, text: str) -> None:
        """The last state, over whatever the line showed, and the line ended."""
        self._show(text, done=True)

    def _show(self, text: str, *, done: bool) -> None:
        padded = text.ljust(self._width)  # a shorter text must cover the longer one
        self._width = len(text)
        output.progress(padded, done=done)
