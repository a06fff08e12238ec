"""The undo journal's steps: what one change did to the user's state (and, for a removal, to
the papers), and how a step reads and writes itself as JSON.

The journal file, its stacks and their limits are `storage.library.journal`; this module is the
one record they hold, so `removal` and `changes` can build steps without the file's machinery.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from papershelf.storage.files.jsonstore import dumps
from papershelf.storage.model import Entry

__all__ = ["NAME_CHARS", "PaperChange", "Step", "same_entry", "target_text"]

NAME_CHARS = 40

_DEFAULT = Entry()


def same_entry(first: Entry | None, second: Entry | None) -> bool:
    """Whether two entries hold the same state (None is the default entry; `updated_at` aside)."""
    a = replace(first or _DEFAULT, updated_at=None)
    b = replace(second or _DEFAULT, updated_at=None)
    if a.is_default and b.is_default:
        return True
    return a == b


def target_text(ids: Sequence[str], name_of: Mapping[str, str]) -> str:
    """`RelGNN` for one paper (its name, shortened), `3 papers` for more."""
    if len(ids) == 1:
        name = name_of.get(ids[0]) or ids[0]
        return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1].rstrip() + "…"
    return f"{len(ids)} papers"


def _entry_json(entry: Entry | None) -> dict[str, object] | None:
    return None if entry is None else entry.to_dict()


def _entry_from(value: Any) -> Entry | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValueError("an entry is not an object")
    return Entry.from_dict(value)


@dataclass(frozen=True, slots=True)
class PaperChange:
    """What a removal did to one paper: its `sources` before, and those it `kept` (None: it was
    removed, and its record is in papers.json's removed table); `position` is its place in
    library order before the step."""

    position: int
    sources: tuple[str, ...]
    kept: tuple[str, ...] | None

    def to_json(self) -> dict[str, Any]:
        """The JSON-safe form stored in a step's `papers`."""
        kept = None if self.kept is None else list(self.kept)
        return {"position": self.position, "sources": list(self.sources), "kept": kept}

    @classmethod
    def from_json(cls, data: Any) -> PaperChange:
        """Inverse of `to_json`; raises ValueError for anything else."""
        if not isinstance(data, dict) or type(data.get("position")) is not int:
            raise ValueError("a paper change has no position")
        sources, kept = _texts(data.get("sources")), data.get("kept")
        return cls(data["position"], sources, None if kept is None else _texts(kept))


def _texts(value: Any) -> tuple[str, ...]:
    """A list of texts as a tuple; ValueError for anything else."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("a paper change's sources are not lists of texts")
    return tuple(value)


@dataclass(frozen=True, slots=True)
class Step:
    """One undoable change: the affected papers' entries before and after it, and (a removal)
    their records (`papers`); a sync (`storage.sync`) may also list papers (`added`), which
    undo takes out again, into the removed table, as redo of a removal would."""

    description: str
    before: Mapping[str, Entry | None]
    after: Mapping[str, Entry | None]
    at: str = ""
    papers: Mapping[str, PaperChange] = field(default_factory=dict)
    added: Mapping[str, PaperChange] = field(default_factory=dict)
    """Papers the step listed (from another library, or back from the removed table): their
    `kept` is None, the mirror of a removal. Stored under `"added"`, a key an older papershelf
    ignores (its undo then puts back only the entries, as with removals before it knew them)."""
    _encoded: bytes | None = field(default=None, init=False, repr=False, compare=False)

    def encoded(self) -> bytes:
        """`to_json` as compact JSON bytes, made once: every save rewrites every step, and
        re-encoding a bulk step of 10,000 papers on each later change would dominate it."""
        if self._encoded is None:
            object.__setattr__(self, "_encoded", dumps(self.to_json()))
        return self._encoded  # type: ignore[return-value]

    @property
    def size(self) -> int:
        """How many papers the step holds. A removed paper's record is not counted apart: a
        step removing a whole bad import must stay undoable after the next change."""
        return len(self.ids)

    def to_json(self) -> dict[str, Any]:
        """The JSON-safe form stored in journal.json."""
        data: dict[str, Any] = {
            "description": self.description,
            "at": self.at,
            "before": {pid: _entry_json(entry) for pid, entry in self.before.items()},
            "after": {pid: _entry_json(entry) for pid, entry in self.after.items()},
        }
        if self.papers:
            data["papers"] = {pid: change.to_json() for pid, change in self.papers.items()}
        if self.added:
            data["added"] = {pid: change.to_json() for pid, change in self.added.items()}
        return data

    @classmethod
    def from_json(cls, data: Any) -> Step:
        """Inverse of `to_json`; raises ValueError for anything else."""
        if not isinstance(data, dict):
            raise ValueError("a step is not an object")
        before, after = data.get("before"), data.get("after")
        description = data.get("description")
        if not isinstance(before, dict) or not isinstance(after, dict):
            raise ValueError("a step has no before/after objects")
        if set(before) != set(after):
            raise ValueError("a step's before and after name different papers")
        if not isinstance(description, str):
            raise ValueError("a step has no description")
        papers, added = data.get("papers", {}), data.get("added", {})
        if not isinstance(papers, dict) or not isinstance(added, dict):
            raise ValueError("a step's papers are not an object")
        return cls(
            description=description,
            before={str(pid): _entry_from(value) for pid, value in before.items()},
            after={str(pid): _entry_from(value) for pid, value in after.items()},
            at=str(data.get("at") or ""),
            papers={str(pid): PaperChange.from_json(value) for pid, value in papers.items()},
            added={str(pid): PaperChange.from_json(value) for pid, value in added.items()},
        )

    def only(self, ids: Sequence[str]) -> Step:
        """The same step restricted to `ids` (the papers an undo or redo really moved)."""
        keep = set(ids)
        return replace(
            self,
            before={pid: e for pid, e in self.before.items() if pid in keep},
            after={pid: e for pid, e in self.after.items() if pid in keep},
            papers={pid: change for pid, change in self.papers.items() if pid in keep},
            added={pid: change for pid, change in self.added.items() if pid in keep},
        )

    @property
    def ids(self) -> list[str]:
        """Every paper the step changed: its entries' and its records' (a paper that only
        lost a source has no entry in the step)."""
        return list(dict.fromkeys([*self.after, *self.papers, *self.added]))
