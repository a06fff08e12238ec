"""The three-way merge of one paper's entry: ours, theirs, and what each side held when the two
last agreed (its base, kept in `sync.json` by `storage.sync.peers`).

Each side's change is what differs from its own base. Their change is applied to ours; ours
stays. A field both sides changed since, to different values, is a conflict, reported with both
values and resolved without dropping either side's change where the field allows it:

- tags: ours plus the tags they added, minus the tags either side removed (a set can hold
  both sides' additions);
- note: both texts, ours first, then a marked line naming the other library, then theirs (an
  emptied note on one side keeps the other's text);
- status and star: one value only, so the newer change (the entry's `updated_at`, the time of
  its last change) wins, and the report names both.

The two bases differ when one side has not synced back yet; with a base per side, a change of
ours the other side has not seen is never taken for a change of theirs. Without any base (the
first sync with a library), both bases are the default entry: every difference is a change.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from papershelf.storage.model import STATUSES, Entry

__all__ = ["FieldConflict", "merge_entry", "note_separator"]

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
    """The line between our note and theirs when both changed it."""
    return f"\n\n--- from {label} ---\n"


def merge_entry(
    ours: Entry, base_ours: Entry, theirs: Entry, base_theirs: Entry, label: str
) -> tuple[Entry, list[FieldConflict]]:
    """Our entry with their changes since `base_theirs` applied, and the conflicts (fields
    both changed, ours since `base_ours`, to different values). `label` names the other side
    in a merged note. `updated_at` is ours when nothing changed, else the newer of the two."""
    conflicts: list[FieldConflict] = []
    newer_theirs = (theirs.updated_at or "") > (ours.updated_at or "")

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
            take = newer_theirs or (
                theirs.updated_at == ours.updated_at and rank(theirs.status) > rank(ours.status)
            )
            status = theirs.status if take else ours.status
            kept = "theirs, the newer" if take else "ours, the newer"
            conflicts.append(FieldConflict("status", ours.status, theirs.status, kept))

    starred = ours.starred
    if theirs.starred != base_theirs.starred and theirs.starred != ours.starred:
        if ours.starred == base_ours.starred:
            starred = theirs.starred
        else:
            take = newer_theirs or (theirs.updated_at == ours.updated_at and theirs.starred)
            starred = theirs.starred if take else ours.starred
            kept = "theirs, the newer" if take else "ours, the newer"
            conflicts.append(
                FieldConflict("starred", _star(ours.starred), _star(theirs.starred), kept)
            )

    note = ours.note
    if theirs.note != base_theirs.note and theirs.note != ours.note:
        if ours.note == base_ours.note or not ours.note:
            note = theirs.note
        elif theirs.note:
            note = ours.note + note_separator(label) + theirs.note
        if ours.note != base_ours.note:
            kept = "both" if ours.note and theirs.note else "theirs" if theirs.note else "ours"
            conflicts.append(FieldConflict("note", ours.note, theirs.note, kept))

    merged = Entry(tags, status, starred, note, ours.updated_at)
    if merged != ours:
        stamps = [stamp for stamp in (ours.updated_at, theirs.updated_at) if stamp]
        merged = replace(merged, updated_at=max(stamps) if stamps else None)
    return merged, conflicts


def _tags(tags: frozenset[str]) -> str:
    return " ".join(f"#{tag}" for tag in sorted(tags)) or "no tags"


def _star(starred: bool) -> str:
    return "starred" if starred else "not starred"
