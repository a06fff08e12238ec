"""Importing abstract lists into papers.json: parse each file, merge by id, write once.

A record of a paper the user removed (`Library.remove`; papers.json's removed table) is skipped
and counted (`FileReport.removed`), unless the import brings removed papers back
(`include_removed`): then it is merged into the removed record, under its id, and no longer
counted as removed. Also where a first start finds its papers: `bundled_seed_files`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
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

__all__ = ["FileReport", "Importer", "MergeCounts", "bundled_seed_files"]


@dataclass(frozen=True, slots=True)
class FileReport:
    """What importing one file did. `error` is a one-line message when the file imported nothing.

    `removed`: records of papers the user removed, skipped; `restored`: removed papers brought
    back (`include_removed`, counted in `added` too); `notes`: lines about what the import made
    of the file (`ParseResult.notes`: undefined macros, made citation keys).
    """

    source: str
    added: int = 0
    duplicates: int = 0
    skipped: int = 0
    error: str | None = None
    removed: int = 0
    restored: int = 0
    notes: tuple[str, ...] = ()


@dataclass(slots=True)
class MergeCounts:
    """What merging one batch did (see `Importer.merge`)."""

    added: int = 0
    seen: int = 0
    removed: int = 0
    restored: int = 0
    restored_ids: list[str] = field(default_factory=list)
    """The removed papers brought back, by id (their tags and notes follow them)."""


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
        self.restored_ids: list[str] = []
        """The removed papers the last `import_files` brought back."""

    def import_files(
        self,
        paths: Iterable[str | os.PathLike[str]],
        venue: str | None = None,
        progress: Callable[[int, int], None] | None = None,
        *,
        include_removed: bool = False,
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
        merged = self.merge(batches, include_removed=include_removed)
        self.restored_ids = [pid for got in merged for pid in got.restored_ids]
        counts = iter(merged)
        reports: list[FileReport] = []
        for result in parsed:
            if isinstance(result, FileReport):
                reports.append(result)
            else:
                got = next(counts)
                reports.append(
                    FileReport(
                        result.source,
                        got.added,
                        result.duplicates + got.seen,
                        result.skipped,
                        removed=got.removed,
                        restored=got.restored,
                        notes=result.notes,
                    )
                )
        return reports

    def merge(
        self, batches: Sequence[Sequence[Paper]], *, include_removed: bool = False
    ) -> list[MergeCounts]:
        """Merge batches of papers by id in one locked read-modify-write of papers.json.

        Returns what each batch did. The papers dict is replaced, never mutated.
        """
        held = self._papers
        with self._lock.held():
            held.reload(for_write=True)
            papers = dict(held.papers)
            removed = dict(held.removed or {})
            changed: set[str] = set()
            from papershelf.storage.ingest.merge import MatchIndex

            index = MatchIndex(papers)
            gone = _Removed(removed, include_removed)
            counts = [_merge(batch, papers, changed, index, gone) for batch in batches]
            if gone.restored:
                held.rewrite(papers, changed | held.pending, removed)
                return counts
            if changed:
                held.replace(papers, changed)
            if held.pending:
                # Also papers an earlier import could not save: they are in memory only.
                held.save()
        return counts


class _Removed:
    """The removed papers an import meets: skipped, or (`include_removed`) brought back."""

    def __init__(self, removed: dict[str, Paper], include: bool) -> None:
        self.removed = removed
        self.include = include
        self.restored = 0
        self._index: MatchIndex | None = None

    def find(self, paper: Paper) -> str | None:
        """The id of the removed paper `paper` is a record of, or None."""
        if not self.removed:
            return None
        if self._index is None:
            from papershelf.storage.ingest.merge import MatchIndex

            self._index = MatchIndex(self.removed)
        return self._index.find(paper)


def _merge(
    batch: Sequence[Paper],
    papers: dict[str, Paper],
    changed: set[str],
    index: MatchIndex,
    gone: _Removed,
) -> MergeCounts:
    """Add `batch` to `papers`, each record merged into the paper it matches (by abstract,
    identifier or title: `ingest.merge.MatchIndex`), which keeps its id; records of removed
    papers are skipped or brought back (`gone`)."""
    from papershelf.storage.ingest.merge import merge_papers, unique_id

    counts = MergeCounts()
    for paper in batch:
        found = index.find(paper)
        if found is None and (was := gone.find(paper)) is not None:
            if not gone.include:
                counts.removed += 1
                continue
            # Back as it was (its id, its other sources), with what this record adds.
            # Popped: the removed index reads this dict, and the papers' index finds it now.
            merged = merge_papers(gone.removed.pop(was), paper)
            gone.restored += 1
            counts.restored += 1
            counts.restored_ids.append(was)
            counts.added += 1
        elif found is None:
            counts.added += 1
            # A record of a title another paper (listed or removed) has, that contradicts it:
            # a new paper, under an id of its own.
            merged = unique_id(paper, papers, gone.removed)
        else:
            counts.seen += 1
            old = papers[found]
            merged = merge_papers(old, paper)
            if merged == old:
                continue
        papers[merged.id] = merged
        changed.add(merged.id)
        index.added(merged)
    return counts
