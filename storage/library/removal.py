"""Removing papers: what a removal takes out, and how its undo and redo move records.

Pure functions over the papers in memory; `changes.EntryChanges.remove` and `.travel` do the
locked writes. A removal is one journal step (`journal.Step`) holding each paper's record
(`journal.PaperChange`: before, after, position) and its entry, so undo puts both back exactly,
at the paper's old place in library order. A removed paper's record also goes to papers.json's
removed table (`records.REMOVED_TABLE`), which a later import reads to skip it.

The order of the writes makes a kill at any point lose nothing:

- remove: papers.json (the papers out, their records into the removed table), then the journal
  (the step, with records and entries), then state.json (the entries cleared). Killed after
  papers.json, the entries are still in state.json (an import with `include_removed` brings
  the paper back to them); killed after the journal, undo finds the entries already in place.
  A journal that cannot be written leaves the entries in state.json rather than lose them.
- undo / redo: papers.json, then state.json, then the journal. The step leaves its stack only
  with the last write, so a kill before it leaves it to be done again, and a paper already on
  the step's other side counts as done.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from papershelf.storage.library.journal import PaperChange, target_text
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
    """The records a removal changes: each of `ids` out, and every paper that came only from
    the files `sources` out, every other paper from one of them without those sources. In
    library order."""
    wanted = set(ids)
    files = set(sources)
    changes: dict[str, PaperChange] = {}
    for position, (paper_id, paper) in enumerate(papers.items()):
        if paper_id in wanted:
            changes[paper_id] = PaperChange(position, paper, None)
        elif files and not files.isdisjoint(paper.sources):
            rest = tuple(name for name in paper.sources if name not in files)
            after = replace(paper, sources=rest) if rest else None
            changes[paper_id] = PaperChange(position, paper, after)
    return changes


def describe_removal(changes: Mapping[str, PaperChange], sources: Sequence[str]) -> str:
    """The step's wording: `remove RelGNN`, `remove 3 papers`, `remove 17 papers of a.txt`."""
    gone = [pid for pid, change in changes.items() if change.after is None]
    names = {pid: changes[pid].before.name for pid in gone[:1]}
    text = f"remove {target_text(gone, names)}" if gone else "remove no paper"
    if sources:
        text += f" of {', '.join(sources)}"
        kept = len(changes) - len(gone)
        if kept:
            text += f" ({kept} kept from other files)"
    return text


def classify(
    changes: Mapping[str, PaperChange], current: Mapping[str, Paper], *, back: bool
) -> tuple[list[str], list[str], list[str]]:
    """Which papers an undo (`back`) or redo of `changes` can move: (to move, already on the
    target side, changed elsewhere since: left as they are)."""
    move: list[str] = []
    already: list[str] = []
    conflicts: list[str] = []
    for paper_id, change in changes.items():
        source, target = (change.after, change.before) if back else (change.before, change.after)
        now = current.get(paper_id)
        if _same(now, target):
            already.append(paper_id)
        elif now == source:
            move.append(paper_id)
        else:
            conflicts.append(paper_id)
    return move, already, conflicts


def _same(now: Paper | None, target: Paper | None) -> bool:
    """Whether `now` already is `target`: equal, or equal but for the order of its sources (a
    file imported again after `remove --source` gave the source back, at the end)."""
    if now == target:
        return True
    if now is None or target is None or sorted(now.sources) != sorted(target.sources):
        return False
    return replace(now, sources=target.sources) == target


def apply_papers(
    changes: Mapping[str, PaperChange],
    ids: Sequence[str],
    current: Mapping[str, Paper],
    removed: Mapping[str, Paper],
    *,
    back: bool,
) -> tuple[dict[str, Paper], dict[str, Paper], set[str]]:
    """The papers and the removed table after moving `ids` to the side of `changes` that undo
    (`back`) or redo goes to, and the ids whose records must be written.

    A paper put back goes to its old position (taken in ascending order, so a bulk removal
    comes back exactly in its old order); one removed goes to the removed table, one put back
    leaves it.
    """
    targets = {pid: changes[pid].before if back else changes[pid].after for pid in ids}
    papers: dict[str, Paper] = {}
    left = dict(removed)
    changed: set[str] = set()
    for paper_id, paper in current.items():
        if paper_id not in targets:
            papers[paper_id] = paper
            continue
        target = targets[paper_id]
        if target is None:
            left[paper_id] = paper
        else:
            papers[paper_id] = target
            changed.add(paper_id)
    inserts = sorted(
        (changes[pid].position, pid)
        for pid, target in targets.items()
        if target is not None and pid not in current
    )
    if inserts:
        items = list(papers.items())
        for position, paper_id in inserts:
            target = targets[paper_id]
            assert target is not None
            items.insert(min(position, len(items)), (paper_id, target))
            left.pop(paper_id, None)
            changed.add(paper_id)
        papers = dict(items)
    return papers, left, changed
