"""Removing papers: what a removal takes out, and how its undo and redo move records.

Pure functions over the papers in memory; `changes.EntryChanges.remove` and `.travel` do the
locked writes. A removal is one journal step (`journal.Step`) holding each paper's entry and a
`journal.PaperChange` (its position, its sources before, those it kept or None when removed);
the removed paper's record goes to papers.json's removed table (`records.REMOVED_TABLE`), in the
same atomic write that takes it out of the papers. Undo takes it from there back to its old
place in library order, with its entry; a later import reads the table to skip it.

The order of the writes makes a kill at any point lose nothing:

- remove: papers.json (the papers out, their records into the removed table), then the journal
  (the step, with the entries), then state.json (the entries cleared). Killed after papers.json,
  the entries are still in state.json (an import with `include_removed` brings the paper back
  to them); killed after the journal, undo finds the entries already in place. A journal that
  cannot be written leaves the entries in state.json rather than lose them.
- undo / redo: papers.json, then state.json, then the journal. The step leaves its stack only
  with the last write, so a kill before it leaves it to be done again, and a paper already on
  the step's other side counts as done.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from papershelf.storage.library.journal_steps import PaperChange, target_text
from papershelf.storage.model import Paper

__all__ = [
    "RemoveReport",
    "apply_papers",
    "classify",
    "describe_removal",
    "plan_removal",
]


@dataclass(frozen=True, slots=True)
class RemoveReport:
    """What `Library.remove` did (or, for a dry run, would do)."""

    removed: tuple[Paper, ...] = ()
    """The papers taken out of the library, in library order."""
    trimmed: tuple[Paper, ...] = ()
    """Papers that came from the `sources` removed and from other files too: they stay,
    without those sources (as they are after the removal)."""
    sources: tuple[str, ...] = ()
    description: str = ""
    """The undo step's wording, `remove RelGNN`."""
    done: bool = False
    """Whether the library changed (False for a dry run, or when nothing matched)."""
    undoable: bool = False
    """Whether the step is in the journal (False when the journal could not be saved: then
    the removed papers' tags and notes stay in state.json)."""


def plan_removal(
    papers: Mapping[str, Paper], ids: Iterable[str], sources: Sequence[str] = ()
) -> dict[str, PaperChange]:
    """The papers a removal changes: each of `ids` out, and every paper that came only from
    the files `sources` out, every other paper from one of them without those sources. In
    library order."""
    wanted = set(ids)
    files = set(sources)
    changes: dict[str, PaperChange] = {}
    for position, (paper_id, paper) in enumerate(papers.items()):
        if paper_id in wanted:
            changes[paper_id] = PaperChange(position, paper.sources, None)
        elif files and not files.isdisjoint(paper.sources):
            rest = tuple(name for name in paper.sources if name not in files)
            changes[paper_id] = PaperChange(position, paper.sources, rest or None)
    return changes


def describe_removal(
    changes: Mapping[str, PaperChange], sources: Sequence[str], papers: Mapping[str, Paper]
) -> str:
    """The step's wording: `remove RelGNN`, `remove 3 papers`, `remove 17 papers of a.txt`."""
    gone = [pid for pid, change in changes.items() if change.kept is None]
    names = {pid: papers[pid].name for pid in gone[:1]}
    text = f"remove {target_text(gone, names)}" if gone else "remove no paper"
    if sources:
        text += f" of {', '.join(sources)}"
        kept = len(changes) - len(gone)
        if kept:
            text += f" ({kept} kept from other files)"
    return text


def classify(
    changes: Mapping[str, PaperChange],
    current: Mapping[str, Paper],
    removed: Mapping[str, Paper],
    *,
    back: bool,
) -> tuple[list[str], list[str], list[str]]:
    """Which papers an undo (`back`) or redo of `changes` can move: (to move, already on the
    target side, changed elsewhere since: left as they are).

    A removed paper is back once it is in the library (an import may have brought it back);
    undo needs its record in the removed table. Redo removes it only while it has the sources
    it had; a trimmed paper moves only while its sources are the step's other side (in any
    order: an import gives a source back at the end).
    """
    move: list[str] = []
    already: list[str] = []
    conflicts: list[str] = []
    for paper_id, change in changes.items():
        now = current.get(paper_id)
        if change.kept is None:
            if (now is not None) if back else (now is None):
                already.append(paper_id)
                continue
            if back:
                movable = paper_id in removed  # its record, to put back
            else:
                movable = now is not None and _same(now.sources, change.sources)
            (move if movable else conflicts).append(paper_id)
            continue
        leaving, going = (change.kept, change.sources) if back else (change.sources, change.kept)
        if now is not None and _same(now.sources, going):
            already.append(paper_id)
        elif now is not None and _same(now.sources, leaving):
            move.append(paper_id)
        else:
            conflicts.append(paper_id)
    return move, already, conflicts


def _same(first: Sequence[str], second: Sequence[str]) -> bool:
    return sorted(first) == sorted(second)


def apply_papers(
    changes: Mapping[str, PaperChange],
    ids: Sequence[str],
    current: Mapping[str, Paper],
    removed: Mapping[str, Paper],
    *,
    back: bool,
) -> tuple[dict[str, Paper], dict[str, Paper], set[str]]:
    """The papers and the removed table after moving `ids` (as `classify` found them) to the
    side of `changes` that undo (`back`) or redo goes to, and the ids whose records must be
    written.

    A removed paper goes to the removed table; one put back leaves it for its old position
    (taken in ascending order, so a bulk removal comes back exactly in its old order); a
    trimmed paper gets its sources back, or loses them again.
    """
    moving = set(ids)
    papers: dict[str, Paper] = {}
    left = dict(removed)
    changed: set[str] = set()
    for paper_id, paper in current.items():
        if paper_id not in moving:
            papers[paper_id] = paper
            continue
        change = changes[paper_id]
        if change.kept is None:
            left[paper_id] = paper  # removed (again)
        else:
            papers[paper_id] = replace(paper, sources=change.sources if back else change.kept)
            changed.add(paper_id)
    inserts = sorted((changes[pid].position, pid) for pid in moving if pid not in current)
    if inserts:
        items = list(papers.items())
        for position, paper_id in inserts:
            items.insert(min(position, len(items)), (paper_id, left.pop(paper_id)))
            changed.add(paper_id)
        papers = dict(items)
    return papers, left, changed
