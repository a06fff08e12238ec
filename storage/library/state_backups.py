"""Backups of state.json, the user's tags, statuses, stars and notes, and recovery from them.

After every save of `state.json` its new content is also written to `backups/state-1.json`; the
older copies move up to `state-2.json` ... `state-<keep>.json` and the oldest is dropped. So
`state-1.json` always equals the last version papershelf saved, and `state-2.json` the one
before it: when state.json is damaged (by a disk, a sync tool, a hand edit), the newest readable
backup holds every change papershelf acknowledged, and the Library recovers from it on its own
(`Library` moves the damaged file aside and says so).

Copies, not hard links: a hard link shares the live file's inode, so a program that damages
state.json in place (`echo > state.json`) would damage its backup with it. The copies are
written atomically but not fsynced: state.json itself is synced, and a backup lost to a power
cut costs only the backup.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from papershelf.storage.errors import PapershelfError
from papershelf.storage.files.readfile import read_regular

BACKUPS_KEPT = 5
BACKUP_DIR = "backups"

T = TypeVar("T")


def backup_path(root: Path, n: int) -> Path:
    """Path of the n-th most recent backup of state.json (1 = the version saved last)."""
    return root / BACKUP_DIR / f"state-{n}.json"


def list_backups(root: Path) -> list[Path]:
    """Existing backups, newest first."""
    return [path for n in range(1, BACKUPS_KEPT + 1) if (path := backup_path(root, n)).exists()]


def keep(root: Path, payload: bytes, *, kept: int = BACKUPS_KEPT) -> str | None:
    """Keep `payload`, the content just saved as state.json, as backup 1, shifting the older
    backups up and dropping the oldest.

    Returns None, or why keeping it failed (a full disk, `backups` not a directory): losing a
    backup must never fail the save it follows, but the user must hear that the safety net is
    gone (see `StateFile.save`).
    """
    from papershelf.storage.files.jsonstore import atomic_write

    try:
        (root / BACKUP_DIR).mkdir(exist_ok=True)
        for n in range(kept - 1, 0, -1):
            with contextlib.suppress(FileNotFoundError):
                os.replace(backup_path(root, n), backup_path(root, n + 1))
        newest = backup_path(root, 1)
        atomic_write(newest, payload, sync=False)
    except OSError as error:
        return f"{root / BACKUP_DIR}: {error.strerror or error}"
    except PapershelfError as error:
        return str(error)
    return None


def keep_if_behind(root: Path, payload: bytes) -> str | None:
    """Keep `payload` (state.json as just read) as backup 1 unless backup 1 already holds it.

    A writer killed between replacing state.json and keeping its backup, or a state.json
    edited by hand, leaves backup 1 one version behind: the next papershelf to read the file
    catches up, so that a later damage still loses nothing.
    """
    try:
        if read_regular(backup_path(root, 1))[1] == payload:
            return None
    except OSError:
        pass
    return keep(root, payload)


def newest_readable(root: Path, read: Callable[[bytes], T]) -> tuple[Path, bytes, T] | None:
    """The newest backup that `read` accepts (it raises for one it does not), with its bytes and
    what `read` made of them; None when no backup can be read."""
    for path in list_backups(root):
        try:
            _, raw = read_regular(path)
            return path, raw, read(raw)
        except Exception:  # any failure to read a backup means: try the next one
            continue
    return None
