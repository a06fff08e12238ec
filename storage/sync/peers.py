"""What this library and each other one last agreed on: `<root>/sync.json`.

    {"format": "papershelf-sync", "version": 1, "self": "<this library's random id>",
     "peers": {"<the other side's resolved path>": {
         "synced_at": "2026-12-03T17:00:00Z", "token": "<random, new at each sync>",
         "peer_id": "<its self>" | null, "seen_at": "<its record of us: token>" | null,
         "ours":   {"entries": {"<id>": <entry>}, "listed": [...], "removed": [...]},
         "theirs": {"entries": {"<id>": <entry>}, "listed": [...], "removed": [...]}}}}

After each sync with a peer, `ours` is this library's state as the sync left it and `theirs` the
peer's as it was read (its ids translated to ours), both non-default entries only, plus the ids
each listed and held in its removed table (a backup file lists none). The next sync takes what
differs from them as each side's change since. Written atomically after the merge, under the
library's lock.

The other side's own sync.json (read, never written) helps too: its record of this library
(`peer_id` = our `self`) says what it saw of us when it last synced from us. A paper we have not
changed since it saw it was merged there already: its version there supersedes ours, so its
base is what it saw (`their_view`), and syncing back after the other side merged reports no
conflict twice. `self` is made (random) by the first sync; a library copied whole gets its own
at its first sync with the original.

A missing file, or a peer it does not name, means the two never agreed: both bases are empty.
A damaged or foreign file is read as empty too (and said once): the merge then takes every
difference for a change on both sides, which can bring back a tag one side removed, but never
drops one.
Before it is rewritten, a damaged or foreign file is kept aside (`sync.json.corrupt-<time>`); a
newer papershelf's is read as empty and never rewritten (its records are not ours to drop).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from papershelf.storage.errors import SaveError
from papershelf.storage.files.jsonstore import (
    CorruptFileError,
    atomic_write,
    dumps,
    keep_aside,
    parse_object,
)
from papershelf.storage.files.layout import StatKey
from papershelf.storage.files.readfile import read_regular
from papershelf.storage.model import Entry, file_stamp, utc_now

__all__ = [
    "SYNC_FILE",
    "Base",
    "PeerBase",
    "load_base",
    "own_id",
    "save_base",
    "side",
    "their_view",
]

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
    peer_id: str | None = None
    """The peer's `self` when it was read (None: it had none, or a backup file)."""
    seen_at: str | None = None
    """The `token` of the peer's record of us as it was at this sync: a view of us under that
    token was taken in already, so it is used no more."""


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


@dataclass(frozen=True, slots=True)
class _Found:
    """sync.json as read: its peers (unchecked per peer) and `self` id, and what is wrong."""

    peers: dict[str, Any] = field(default_factory=dict)
    own: str | None = None
    problem: str | None = None
    """One line to tell, when the file could not be used."""
    newer: bool = False
    """A newer papershelf's: never overwritten by this one."""
    damaged: StatKey | None = None
    """The version read, when it is damaged or foreign: kept aside before it is replaced."""


def _read(root: Path) -> tuple[dict[str, Any], str | None]:
    """The peers of sync.json as stored (unchecked per peer), and a problem to tell, if any."""
    found = _read_file(root)
    return found.peers, found.problem


def _read_file(root: Path) -> _Found:
    path = root / SYNC_FILE
    try:
        key, raw = read_regular(path, max_bytes=MAX_BYTES)
    except FileNotFoundError:
        return _Found()
    except OSError as error:
        return _Found(problem=f"{path} could not be read ({error.strerror or error})")
    try:
        data = parse_object(raw, path, key)
    except CorruptFileError as error:
        return _Found(problem=f"{path} is damaged ({error.reason})", damaged=key)
    if data.get("format") != FORMAT or not isinstance(data.get("peers"), dict):
        return _Found(problem=f"{path} is not a papershelf sync record", damaged=key)
    version = data.get("version")
    if type(version) is not int or version < 1:
        return _Found(problem=f"{path} is not a papershelf sync record", damaged=key)
    if version > VERSION:
        return _Found(problem=f"{path} was written by a newer papershelf", newer=True)
    own = data.get("self")
    return _Found(data["peers"], own if isinstance(own, str) and own else None)


def own_id(root: Path) -> str | None:
    """The library's `self` id (None: it never synced, or its sync.json is unusable)."""
    return _read_file(root).own


def their_view(other_root: Path, our_id: str | None) -> tuple[Base, str] | None:
    """What the library at `other_root` saw of us (its record whose `peer_id` is `our_id`,
    the newest if several) when it last synced from us, and that record's `token` (new at
    every sync); None when it has none usable."""
    if our_id is None:
        return None
    peers = _read_file(other_root).peers
    found: tuple[str, str, Base] | None = None
    for record in peers.values():
        if not isinstance(record, dict) or record.get("peer_id") != our_id:
            continue
        when, token = record.get("synced_at"), record.get("token")
        if not isinstance(when, str) or not isinstance(token, str):
            continue
        try:
            seen = _side(record.get("theirs"))
        except ValueError:
            continue
        if found is None or when > found[0]:
            found = (when, token, seen)
    return None if found is None else (found[2], found[1])


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
        peer_id, seen_at = record.get("peer_id"), record.get("seen_at")
        base = PeerBase(
            _side(record.get("ours")),
            _side(record.get("theirs")),
            record["synced_at"],
            peer_id if isinstance(peer_id, str) else None,
            seen_at if isinstance(seen_at, str) else None,
        )
    except ValueError as error:
        return PeerBase(), f"{root / SYNC_FILE} is damaged for {peer} ({error})"
    return base, problem


def side(entries: Mapping[str, Entry], listed: Iterable[str], removed: Iterable[str]) -> Base:
    """One side's state as a base: its non-default entries, listed and removed ids."""
    kept = {pid: entry for pid, entry in entries.items() if not entry.is_default}
    return Base(kept, frozenset(listed), frozenset(removed))


def save_base(
    root: Path,
    peer: str,
    ours: Base,
    theirs: Base,
    peer_id: str | None = None,
    seen_at: str | None = None,
) -> None:
    """Record what the two sides hold after a sync (under the library's lock); other peers'
    records are kept as they are. Raises `PapershelfError` (`SaveError`) when it cannot, and
    when the file is a newer papershelf's (left as it is: its records are not this version's
    to drop); a damaged or foreign one is kept aside (`sync.json.corrupt-<time>`) first."""
    found = _read_file(root)
    if found.newer:
        raise SaveError(f"{root / SYNC_FILE} was written by a newer papershelf: left as it is")
    if found.damaged is not None:
        try:
            keep_aside(root / SYNC_FILE, found.damaged, file_stamp())
        except OSError as error:
            where = root / SYNC_FILE
            raise SaveError(f"{where} is damaged and could not be kept aside ({error})") from None
    peers, own = dict(found.peers), found.own
    peers[peer] = {
        "synced_at": utc_now(),
        # Which sync this record is (times have seconds only, and syncs can be quicker).
        "token": uuid.uuid4().hex,
        "peer_id": peer_id,
        "seen_at": seen_at,
        "ours": _side_json(ours),
        "theirs": _side_json(theirs),
    }
    document = {
        "format": FORMAT,
        "version": VERSION,
        # A library copied whole (to start the other machine) carries the same id: the first
        # sync between the two gives this one its own.
        "self": own if own and own != peer_id else uuid.uuid4().hex,
        "peers": dict(sorted(peers.items())),
    }
    atomic_write(root / SYNC_FILE, dumps(document))
