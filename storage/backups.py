"""Rotated backups of state.json, the user's tags, statuses, stars and notes.

Before each rewrite of `state.json` the current (just read and verified) version is kept as
`backups/state-1.json`; older ones move up to `state-2.json` ... `state-<keep>.json` and the oldest
is dropped. Every save writes a new file and renames it over the old one, so the old version can
be kept with a hard link: no copy, no extra disk space until it is rotated out.

Restoring (with papershelf closed): copy the backup you want over the live file, e.g.
`cp <data dir>/backups/state-1.json <data dir>/state.json`. `state-1.json` is the version before
the latest change, `state-2.json` the one before that, and so on.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from pathlib import Path

BACKUPS_KEPT = 5
BACKUP_DIR = "backups"


def backup_path(root: Path, n: int) -> Path:
    """Path of the n-th most recent backup of state.json (1 = the version before the last save)."""
    return root / BACKUP_DIR / f"state-{n}.json"


def list_backups(root: Path) -> list[Path]:
    """Existing backups, newest first."""
    return [path for n in range(1, BACKUPS_KEPT + 1) if (path := backup_path(root, n)).exists()]


def rotate(state_file: Path, *, keep: int = BACKUPS_KEPT) -> Path | None:
    """Keep the current `state_file` as backup 1, shifting older backups up; drop the oldest.

    Returns the new backup's path, or None when there was nothing to keep or keeping it failed.
    A failure never stops a save: losing one backup is better than losing the user's change.
    """
    if not state_file.exists():
        return None
    root = state_file.parent
    newest = backup_path(root, 1)
    try:
        if newest.exists() and os.path.samefile(newest, state_file):
            return newest  # a retried save: this version is already kept
        (root / BACKUP_DIR).mkdir(exist_ok=True)
        for n in range(keep - 1, 0, -1):
            with contextlib.suppress(FileNotFoundError):
                os.replace(backup_path(root, n), backup_path(root, n + 1))
        with contextlib.suppress(FileNotFoundError):
            os.unlink(newest)  # left by a writer killed mid-rotation
        try:
            os.link(state_file, newest)
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EMLINK):
                raise
            # Filesystems without hard links get a copy instead.
            shutil.copyfile(state_file, newest)
    except OSError:
        return None
    return newest
