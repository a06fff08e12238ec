"""Applying a Markdown reading list papershelf exported and a person edited.

`papershelf import reading-list.md` on such a list (a `.md` file with `<!-- papershelf:ID -->`
comments) changes only what the person changed, for the papers the list names:

- a ticked box (`[x]`) marks a paper `read`; an unticked box never un-reads one (an old export
  must not undo reading done since).
- tags: the id comment records the tags the export wrote on the line (`tags=...`), so the
  person's edits are exact: a tag deleted from the line (recorded, not on the line now) is
  removed from the paper, a tag added to the line (on it, not recorded) is added. Tags added or
  removed in papershelf after the export are left as they are.
- a list from an older papershelf has no record; there, a `#tag` on the line that the paper
  lacks is added, and a tag of the paper missing from its line is removed only when the paper
  last changed well before the export (its `updated_at` is at least a day before the day in
  `Exported YYYY-MM-DD`, a margin for time zones): otherwise it may have been added after the
  export, so it is kept and the report says so.
- nothing else: no other paper, no note, star or status other than `read`, and never papers.json.

Papers whose id the library does not hold are reported and skipped. All changes are one write
and one undo step.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf.storage.errors import PapershelfError
from papershelf.storage.export.markdown import ListedItem, listed_tag, scan_markdown_list
from papershelf.storage.ingest.decode import decode, read_bytes
from papershelf.storage.model import Entry

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library

__all__ = [
    "MARKER",
    "Plan",
    "PlannedChange",
    "RoundTripReport",
    "apply_plan",
    "export_date",
    "import_reading_list",
    "is_reading_list",
    "plan_markdown_import",
]

MARKER = "<!-- papershelf:"
MARKDOWN_SUFFIXES = (".md", ".markdown")
_EXPORTED = re.compile(r"^Exported (\d{4})-(\d{2})-(\d{2})\b", re.MULTILINE)
_HEADER_CHARS = 4096


@dataclass(frozen=True, slots=True)
class PlannedChange:
    """What the list asks for one paper."""

    paper_id: str
    name: str
    read: bool = False
    """Set the status to `read`."""
    add: frozenset[str] = frozenset()
    remove: frozenset[str] = frozenset()
    kept: frozenset[str] = frozenset()
    """Tags missing from the line of a list with no tag record, kept as they may have been
    added after the export."""

    @property
    def changes(self) -> bool:
        """Whether applying this changes the paper."""
        return self.read or bool(self.add or self.remove)

    def apply(self, entry: Entry) -> Entry:
        """The entry with this change made (on whatever the entry is by then)."""
        status = "read" if self.read else entry.status
        return replace(entry, status=status, tags=(entry.tags | self.add) - self.remove)

    def summary(self) -> str:
        """`RelGNN: read; +later -to-read` (and the tags kept, if any)."""
        parts = []
        if self.read:
            parts.append("read")
        tags = [f"+{t}" for t in sorted(self.add)] + [f"-{t}" for t in sorted(self.remove)]
        if tags:
            parts.append(" ".join(tags))
        if self.kept:
            kept = " ".join(f"#{t}" for t in sorted(self.kept))
            parts.append(f"kept {kept} (the paper may have changed in papershelf since the export)")
        return f"{self.name}: {'; '.join(parts)}"


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything an edited list asks for."""

    changes: tuple[PlannedChange, ...]
    """Papers to change (and papers with tags kept), in list order."""
    unchanged: int
    """Listed papers of this library that the list leaves as they are."""
    unknown: tuple[str, ...] = ()
    """Listed ids this library does not hold."""
    unmatched: tuple[int, ...] = ()
    """Lines of checklist items with no papershelf id (a person removed the comment)."""

    @property
    def to_change(self) -> tuple[PlannedChange, ...]:
        """Only the papers that will really change."""
        return tuple(change for change in self.changes if change.changes)

    def summary_lines(self) -> list[str]:
        """One line per paper the plan touches (or keeps a tag of)."""
        return [change.summary() for change in self.changes]


def export_date(text: str) -> date | None:
    """The day in the list's `Exported YYYY-MM-DD` line, if it has one."""
    match = _EXPORTED.search(text[:_HEADER_CHARS])
    if match is None:
        return None
    try:
        return date(*(int(group) for group in match.groups()))
    except ValueError:
        return None


def _unchanged_since(entry: Entry, exported_on: date | None) -> bool:
    """Whether the entry surely last changed before the export (a list with no tag record).

    The export's day is local and `updated_at` is UTC: a change made after the export can carry
    the UTC day before it (east of Greenwich), so only a change two days back is surely older.
    An entry with no `updated_at`, or a list with no date, may have changed at any time.
    """
    if exported_on is None or not entry.updated_at:
        return False
    return entry.updated_at[:10] < (exported_on - timedelta(days=1)).isoformat()


def _tag_changes(
    entry: Entry, item: ListedItem, exported_on: date | None
) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(tags to add, stored tags to remove, stored tags kept) for one listed paper.

    Tags are compared as the exported line reads them back (`listed_tag`), which is the stored
    tag for every tag papershelf stores itself.
    """
    shown = {tag: listed_tag(tag) for tag in entry.tags}
    present = frozenset(shown.values())
    if item.exported_tags is not None:
        deleted = item.exported_tags - item.tags
        add = item.tags - item.exported_tags - present
        remove = frozenset(tag for tag, listed in shown.items() if listed in deleted)
        return add, remove, frozenset()
    add = item.tags - present
    missing = frozenset(
        tag for tag, listed in shown.items() if listed is not None and listed not in item.tags
    )
    if _unchanged_since(entry, exported_on):
        return add, missing, frozenset()
    return add, frozenset(), missing


def plan_markdown_import(
    library: Library,
    listed_items: Iterable[ListedItem],
    *,
    exported_on: date | None = None,
    unmatched: Sequence[int] = (),
) -> Plan:
    """What applying the listed items to `library` would change (see the module docstring)."""
    held = {paper.id for paper in library.papers()}
    changes: list[PlannedChange] = []
    unknown: list[str] = []
    unchanged = 0
    for item in listed_items:
        if item.paper_id not in held:
            unknown.append(item.paper_id)
            continue
        entry = library.entry(item.paper_id)
        add, remove, kept = _tag_changes(entry, item, exported_on)
        change = PlannedChange(
            paper_id=item.paper_id,
            name=library.get(item.paper_id).name,
            read=item.checked and entry.status != "read",
            add=add,
            remove=remove,
            kept=kept,
        )
        if change.changes or change.kept:
            changes.append(change)
        else:
            unchanged += 1
    return Plan(tuple(changes), unchanged, tuple(unknown), tuple(unmatched))


def apply_plan(library: Library, plan: Plan, description: str = "import a reading list") -> int:
    """Make the plan's changes as one write and one undo step; returns how many papers changed."""
    todo = {change.paper_id: change.apply for change in plan.to_change}
    if not todo:
        return 0
    return library.edit(todo, description)


def is_reading_list(path: Path) -> bool:
    """Whether `path` is a Markdown file holding papershelf item comments (a list to apply).

    Unreadable files answer False: the plain importer then reports why they cannot be read.
    """
    path = Path(path)
    if path.suffix.lower() not in MARKDOWN_SUFFIXES:
        return False
    try:
        text = decode(read_bytes(path), path.name)
    except PapershelfError:
        return False
    return MARKER in text


@dataclass(frozen=True, slots=True)
class RoundTripReport:
    """What importing one edited list did."""

    source: str
    plan: Plan
    changed: int


def import_reading_list(library: Library, path: Path) -> RoundTripReport:
    """Read, plan and apply one edited reading list; raises PapershelfError when unreadable."""
    path = Path(path)
    source = path.name or str(path)
    text = decode(read_bytes(path), source)
    scan = scan_markdown_list(text)
    plan = plan_markdown_import(
        library, scan.items, exported_on=export_date(text), unmatched=scan.unmatched
    )
    changed = apply_plan(library, plan, f"import {source}")
    return RoundTripReport(source, plan, changed)
