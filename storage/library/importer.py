"""Importing abstract lists into papers.json: parse each file, merge by id, write once.

Also where a first start finds its papers: `bundled_seed_files`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf.storage.errors import PapershelfError
from papershelf.storage.library.lock import LibraryLock
from papershelf.storage.library.papers_file import PapersFile
from papershelf.storage.model import Paper
from papershelf.storage.text.clean import clean_name

if TYPE_CHECKING:
    # Imported where used: `papershelf list` and the app's start never parse a file.
    from papershelf.storage.ingest import parse
    from papershelf.storage.ingest.merge import MatchIndex

__all__ = ["FileReport", "Importer", "bundled_seed_files"]


@dataclass(frozen=True, slots=True)
class FileReport:
    """What importing one file did. `error` is a one-line message when the file imported nothing."""

    source: str
    added: int = 0
    duplicates: int = 0
    skipped: int = 0
    error: str | None = None


def bundled_seed_files() -> list[Path]:
    """The abstract lists a first start imports: the installed `papershelf.seeds` data package, or
    the checkout's `seeds/` directory when running from source or an editable install."""
    found: list[Path] = []
    try:
        from importlib.resources import files

        package = files("papershelf.seeds")
        found = sorted(Path(str(item)) for item in package.iterdir() if item.name.endswith(".txt"))
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):
        found = []
    if found and all(path.is_file() for path in found):
        return found
    checkout = Path(__file__).resolve().parents[2] / "seeds"  # storage/library/ -> the checkout
    return sorted(checkout.glob("*.txt"))


class Importer:
    """Imports into one library's papers, each import one locked write of papers.json."""

    def __init__(self, lock: LibraryLock, papers: PapersFile) -> None:
        self._lock = lock
        self._papers = papers

    def import_files(
        self,
        paths: Iterable[str | os.PathLike[str]],
        venue: str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[FileReport]:
        """Import abstract lists; one report per file, in order (see `Library.import_files`)."""
        from papershelf.storage.ingest import parse

        files = [Path(path) for path in paths]
        parsed: list[parse.ParseResult | FileReport] = []
        for done, path in enumerate(files, start=1):
            try:
                parsed.append(parse.read_file(path, venue))
            except PapershelfError as error:
                parsed.append(FileReport(parse.source_name(path), error=str(error)))
            except OSError as error:
                # Names are cleaned: a newline or ESC in one must not reach the terminal.
                where = clean_name(str(path))
                error_line = f"{where}: {error.strerror}"
                parsed.append(FileReport(parse.source_name(path), error=error_line))
            if progress is not None:
                progress(done, len(files))
        batches = [result.papers for result in parsed if not isinstance(result, FileReport)]
        counts = iter(self.merge(batches))
        reports: list[FileReport] = []
        for result in parsed:
            if isinstance(result, FileReport):
                reports.append(result)
            else:
                added, seen = next(counts)
                reports.append(
                    FileReport(result.source, added, result.duplicates + seen, result.skipped)
                )
        return reports

    def merge(self, batches: Sequence[Sequence[Paper]]) -> list[tuple[int, int]]:
        """Merge batches of papers by id in one locked read-modify-write of papers.json.

        Returns (added, already present) per batch. The papers dict is replaced, never mutated.
        """
        held = self._papers
        with self._lock.held():
            held.reload(for_write=True)
            papers = dict(held.papers)
            changed: set[str] = set()
            from papershelf.storage.ingest.merge import MatchIndex

            index = MatchIndex(papers)
            counts = [_merge(batch, papers, changed, index) for batch in batches]
            if changed:
                held.replace(papers, changed)
            if held.pending:
                # Also papers an earlier import could not save: they are in memory only.
                held.save()
        return counts


def _merge(
    batch: Sequence[Paper], papers: dict[str, Paper], changed: set[str], index: MatchIndex
) -> tuple[int, int]:
    """Add `batch` to `papers`, each record merged into the paper it matches (by abstract,
    identifier or title: `ingest.merge.MatchIndex`), which keeps its id."""
    from papershelf.storage.ingest.merge import merge_papers

    added = seen = 0
    for paper in batch:
        found = index.find(paper)
        if found is None:
            added += 1
            merged = paper
        else:
            seen += 1
            old = papers[found]
            merged = merge_papers(old, paper)
            if merged == old:
                continue
        papers[merged.id] = merged
        changed.add(merged.id)
        index.added(merged)
    return added, seen
