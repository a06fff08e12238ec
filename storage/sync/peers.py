"""What this library and each other one last agreed on: `<root>/sync.json`.

    {"format": "papershelf-sync", "version": 1,
     "peers": {"<the other side's resolved path>": {
         "synced_at": "2026-12-03T17:00:00Z",
         "ours":   {"entries": {"<id>": <entry>}, "listed": [...], "removed": [...]},
         "theirs": {"entries": {"<id>": <entry>}, "listed": [...], "removed": [...]}}}}

After each sync with a peer, `ours` is this library's state as the sync left it and `theirs` the
peer's as it was read (its ids translated to ours), both non-default entries only, plus the ids
each listed and held in its removed table (a backup file lists none). The next sync takes what
differs from them as each side's change since. Written atomically after the merge, under the
library's lock.

A missing file, or a peer it does not name, means the two never agreed: both bases are empty.
A damaged or foreign file is read as empty too (and said once): the merge then takes every
difference for a change on both sides, which can bring back a tag one side removed, but never
drops one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from papershelf.storage.files.jsonstore import CorruptFileError, atomic_write, dumps, parse_object
from papershelf.storage.files.readfile import read_regular
from papershelf.storage.model import Entry, utc_now

__all__ = ["SYNC_FILE", "Base", "PeerBase", "load_base", "save_base", "side"]

SYNC_FILE = "sync.json"
FORMAT = "papershelf-sync"
VERSION = 1
MAX_BYTES = 512 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Base:
    """One side's state when the two last agreed."""

    entries: Mapping[str, Entry] = field(default_factory=dict)
    listed: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class PeerBase:
    """Both sides' state when this library last synced with one peer."""

    ours: Base = field(default_factory=Base)
    theirs: Base = field(default_factory=Base)
    synced_at: str | None = None
    """None: never synced with this peer."""


def _side(data: Any) -> Base:
    if not isinstance(data, dict):
        raise ValueError("a side is not an object")
    entries = data.get("entries")
    if not isinstance(entries, dict):
        raise ValueError("a side has no entries")
    loaded = {str(pid): Entry.from_dict(entry) for pid, entry in entries.items()}
    return Base(loaded, _ids(data.get("listed")), _ids(data.get("removed")))


def _ids(value: Any) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(pid, str) for pid in value):
        raise ValueError("a side's paper ids are not a list of texts")
    return frozenset(value)


def _side_json(base: Base) -> dict[str, Any]:
    entries = {pid: entry.to_dict() for pid, entry in sorted(base.entries.items())}
    return {"entries": entries, "listed": sorted(base.listed), "removed": sorted(base.removed)}


def _read(root: Path) -> tuple[dict[str, Any], str | None]:
    """The peers of sync.json as stored (unchecked per peer), and a problem to tell, if any."""
    path = root / SYNC_FILE
    try:
        key, raw = read_regular(path, max_bytes=MAX_BYTES)
    except FileNotFoundError:
        return {}, None
    except OSError as error:
        return {}, f"{path} could not be read ({error.strerror or error})"
    try:
        data = parse_object(raw, path, key)
    except CorruptFileError as error:
        return {}, f"{path} is damaged ({error.reason})"
    if data.get("format") != FORMAT or not isinstance(data.get("peers"), dict):
        return {}, f"{path} is not a papershelf sync record"
    if type(data.get("version")) is not int or data["version"] > VERSION:
        return {}, f"{path} was written by a newer papershelf"
    return data["peers"], None


def load_base(root: Path, peer: str) -> tuple[PeerBase, str | None]:
    """What this library and `peer` last agreed on (empty: never), and a one-line problem when
    the record could not be used (then the sync goes on as a first one)."""
    peers, problem = _read(root)
    record = peers.get(peer)
    if record is None:
        return PeerBase(), problem
    try:
        if not isinstance(record, dict) or not isinstance(record.get("synced_at"), str):
            raise ValueError("a peer has no sync time")
        base = PeerBase(_side(record.get("ours")), _side(record.get("theirs")), record["synced_at"])
    except ValueError as error:
        return PeerBase(), f"{root / SYNC_FILE} is damaged for {peer} ({error})"
    return base, problem


def side(entries: Mapping[str, Entry], listed: Iterable[str], removed: Iterable[str]) -> Base:
    """One side's state as a base: its non-default entries, listed and removed ids."""
    kept = {pid: entry for pid, entry in entries.items() if not entry.is_default}
    return Base(kept, frozenset(listed), frozenset(removed))


def save_base(root: Path, peer: str, ours: Base, theirs: Base) -> None:
    """Record what the two sides hold after a sync (under the library's lock); other peers'
    records are kept as they are. Raises `PapershelfError` (`SaveError`) when it cannot."""
    peers, _problem = _read(root)
    peers = dict(peers)
    peers[peer] = {"synced_at": utc_now(), "ours": _side_json(ours), "theirs": _side_json(theirs)}
    document = {"format": FORMAT, "version": VERSION, "peers": dict(sorted(peers.items()))}
    atomic_write(root / SYNC_FILE, dumps(document))
