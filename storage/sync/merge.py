"""The three-way merge of one paper's entry: ours, theirs, and what each side held when the two
last agreed (its base, kept in `sync.json` by `storage.sync.peers`).

Each side's change is what differs from its own base. Their change is applied to ours; ours
stays. A field both sides changed since, to different values, is a conflict, reported with both
values and resolved without dropping either side's change where the field allows it:

- tags: ours plus the tags they added, minus the tags either side removed (a set can hold
  both sides' additions);
- note: both texts, ours first, then a marked line naming the other library, then theirs (an
  emptied note on one side keeps the other's text);
- status and star: one value only, so the newer change wins, and the report names both. When
  a side changed a field is the time of the newest step of its undo history that changed it
  (`change_times`), else the entry's `updated_at` (the time of its last change of any field).

The two bases differ when one side has not synced back yet; with a base per side, a change of
ours the other side has not seen is never taken for a change of theirs. Without any base (the
first sync with a library), both bases are the default entry: every difference is a change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from papershelf.storage.library.changes import NOTE_MAX_CHARS
from papershelf.storage.library.journal import Step
from papershelf.storage.model import STATUSES, Entry
from papershelf.storage.text.clean import clean_line

__all__ = ["FieldConflict", "change_times", "merge_entry", "note_parts", "note_separator"]

_DEFAULT = Entry()

FIELDS = ("tags", "status", "starred", "note")


@dataclass(frozen=True, slots=True)
class FieldConflict:
    """Both sides changed one field of one paper since they last agreed."""

    field: str
    """`tags`, `status`, `starred`, `note` or `removal`."""
    ours: str
    theirs: str
    kept: str
    """What the merge made of it, in a few words (`both`, `theirs (newer)`, `ours`)."""


def note_separator(label: str) -> str:
    """The line between our note and theirs when both changed it. The label (a directory's
    name) is one clean line, so a name with a newline cannot forge a part of the note."""
    return f"\n\n--- from {clean_line(label) or '?'} ---\n"


# A merged note's parts are told apart by the lines `note_separator` wrote between them.
_SEPARATOR = re.compile(r"(\n\n--- from [^\n]* ---\n)")


def note_parts(note: str, label: str) -> list[tuple[str, str]]:
    """A note as its parts, each with the line before it (the first: `note_separator(label)`,
    the line it would get were it appended to another note)."""
    if not note:
        return []
    pieces = _SEPARATOR.split(note)
    parts = [(note_separator(label), pieces[0])]
    parts += [(pieces[i], pieces[i + 1]) for i in range(1, len(pieces) - 1, 2)]
    return parts


def _joined(parts: list[tuple[str, str]]) -> str:
    """Parts back into one note (the first without its line)."""
    if not parts:
        return ""
    return parts[0][1] + "".join(line + text for line, text in parts[1:])


def _their_edit(ours: str, base_theirs: str, theirs: str, label: str) -> str:
    """Their edit of a note we have not changed since we last synced with them: theirs, but
    the parts of ours they never saw (merged in from them or another library after they were
    read) stay, less the parts they removed: they cannot have meant to drop text they never
    had (found by an attacker pass: our own note, merged with theirs, was replaced by their
    next edit of theirs and lost on both sides)."""
    seen = {text for _line, text in note_parts(base_theirs, label)}
    ours_parts = note_parts(ours, label)
    if all(text in seen for _line, text in ours_parts):
        return theirs
    their_parts = note_parts(theirs, label)
    gone = seen - {text for _line, text in their_parts}
    kept = [(line, text) for line, text in ours_parts if text not in gone]
    held = {text for _line, text in kept}
    return _joined(kept + [(line, text) for line, text in their_parts if text not in held])


def _merged_note(ours: str, theirs: str, label: str) -> str | None:
    """Both notes in one, ours first, then each part of theirs ours does not hold already
    under its own line (a part merged before is not appended twice); None when one of them
    holds every part of the other already (then that one is the merge: nothing is lost)."""
    our_texts = {text for _line, text in note_parts(ours, label)}
    their_parts = note_parts(theirs, label)
    new = [(line, text) for line, text in their_parts if text not in our_texts]
    if not new or our_texts <= {text for _line, text in their_parts}:
        return None
    return ours + "".join(line + text for line, text in new)


def merge_entry(
    ours: Entry,
    base_ours: Entry,
    theirs: Entry,
    base_theirs: Entry,
    label: str,
    times: tuple[Mapping[str, str], Mapping[str, str]] = ({}, {}),
) -> tuple[Entry, list[FieldConflict]]:
    """Our entry with their changes since `base_theirs` applied, and the conflicts (fields
    both changed, ours since `base_ours`, to different values). `label` names the other side
    in a merged note. `times` are when each side last changed each field (`change_times`; a
    field missing there: the entry's `updated_at`, its last change of any field). `updated_at`
    is ours when nothing changed, else the newer of the two."""
    conflicts: list[FieldConflict] = []

    def when(entry: Entry, side: Mapping[str, str], name: str) -> str:
        return side.get(name) or entry.updated_at or ""

    def newer_theirs(name: str) -> bool:
        return when(theirs, times[1], name) > when(ours, times[0], name)

    def same_time(name: str) -> bool:
        return when(theirs, times[1], name) == when(ours, times[0], name)

    # Tags, one by one: what they added comes in, what either side removed goes.
    their_added = theirs.tags - base_theirs.tags
    their_removed = base_theirs.tags - theirs.tags
    our_removed = base_ours.tags - ours.tags
    tags = (ours.tags | their_added) - their_removed - our_removed
    if ours.tags != base_ours.tags and theirs.tags != base_theirs.tags and ours.tags != theirs.tags:
        conflicts.append(FieldConflict("tags", _tags(ours.tags), _tags(theirs.tags), "both"))

    status = ours.status
    if theirs.status != base_theirs.status and theirs.status != ours.status:
        if ours.status == base_ours.status:
            status = theirs.status
        else:
            rank = STATUSES.index
            take = newer_theirs("status") or (
                same_time("status") and rank(theirs.status) > rank(ours.status)
            )
            status = theirs.status if take else ours.status
            kept = "theirs, the newer" if take else "ours, the newer"
            conflicts.append(FieldConflict("status", ours.status, theirs.status, kept))

    starred = ours.starred
    if theirs.starred != base_theirs.starred and theirs.starred != ours.starred:
        if ours.starred == base_ours.starred:
            starred = theirs.starred
        else:
            take = newer_theirs("starred") or (same_time("starred") and theirs.starred)
            starred = theirs.starred if take else ours.starred
            kept = "theirs, the newer" if take else "ours, the newer"
            conflicts.append(
                FieldConflict("starred", _star(ours.starred), _star(theirs.starred), kept)
            )

    note = ours.note
    if theirs.note != base_theirs.note and theirs.note != ours.note:
        both = _merged_note(ours.note, theirs.note, label) if ours.note and theirs.note else ""
        if ours.note == base_ours.note or not ours.note:
            note = _their_edit(ours.note, base_theirs.note, theirs.note, label)
            if len(note) > NOTE_MAX_CHARS:
                note = ours.note
                kept = f"ours: both together are over {NOTE_MAX_CHARS:,} characters"
                conflicts.append(FieldConflict("note", ours.note, theirs.note, kept))
        elif both is None:
            # One holds the other's text already (a sync back after they merged ours, or one
            # repeated): the fuller note is the merge, and no conflict is left to tell.
            note = theirs.note if len(theirs.note) > len(ours.note) else ours.note
        elif both:
            note = both
        if ours.note != base_ours.note and both is not None:
            kept = "both" if ours.note and theirs.note else "theirs" if theirs.note else "ours"
            if len(note) > NOTE_MAX_CHARS:
                # A note the library could not take (nor a backup hold): ours stays, theirs
                # stays in the other library, and the report says so.
                note = ours.note
                kept = f"ours: both together are over {NOTE_MAX_CHARS:,} characters"
            conflicts.append(FieldConflict("note", ours.note, theirs.note, kept))

    merged = Entry(tags, status, starred, note, ours.updated_at)
    if merged != ours:
        stamps = [stamp for stamp in (ours.updated_at, theirs.updated_at) if stamp]
        merged = replace(merged, updated_at=max(stamps) if stamps else None)
    return merged, conflicts


def change_times(steps: Iterable[Step]) -> dict[str, dict[str, str]]:
    """When each field of each paper last changed, by the undo history (`steps`, oldest first,
    as the journal keeps them): `{paper id: {field: time}}`. A field no step names (history
    trimmed, or changed by a process whose journal write failed) is left out."""
    found: dict[str, dict[str, str]] = {}
    for step in steps:
        for pid, after in step.after.items():
            old, new = step.before.get(pid) or _DEFAULT, after or _DEFAULT
            for name in FIELDS:
                if getattr(old, name) != getattr(new, name) and step.at:
                    found.setdefault(pid, {})[name] = step.at
    return found


def _tags(tags: frozenset[str]) -> str:
    return " ".join(f"#{tag}" for tag in sorted(tags)) or "no tags"


def _star(starred: bool) -> str:
    return "starred" if starred else "not starred"
