"""Writing an export file: atomically, never over anything but a regular file, and only over
an existing file when asked; the default file name of an export.

Shared by every export format (Markdown, BibTeX, CSV, JSON) and the backups.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import unicodedata
from datetime import date
from pathlib import Path

from papershelf.storage.errors import PapershelfError
from papershelf.storage.files.jsonstore import fsync_directory

__all__ = ["ExportError", "ExportExists", "default_export_name", "write_export"]


class ExportError(PapershelfError):
    """An export could not be written (or its options make no sense)."""


class ExportExists(ExportError):
    """The export file exists and overwriting was not allowed."""


def default_export_name(scope: str, today: date | None = None, suffix: str = ".md") -> str:
    """`reading-list-<scope>-<YYYY-MM-DD>.md` (or another `suffix`), with `scope` made safe
    for any file system."""
    text = unicodedata.normalize("NFC", scope).casefold()
    slug = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in text)
    slug = re.sub(r"-{2,}", "-", slug).strip("-_")[:48].strip("-_")
    day = (today or date.today()).isoformat()
    return f"reading-list-{slug}-{day}{suffix}" if slug else f"reading-list-{day}{suffix}"


def _reason(error: OSError) -> str:
    """A short reason for an OS error, for one-line messages."""
    return error.strerror or str(error)


def _write_temp(directory: Path, stem: str, data: bytes) -> Path:
    """Write `data` to a new file in `directory` (mode from the umask), fsynced."""
    while True:
        temp = directory / f".{stem}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        break
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _check_target(path: Path) -> None:
    """Refuse a `path` that exists as anything but a regular file.

    Replacing it would swap a device, a FIFO or a symbolic link (and what it points to stays
    as it was) for a regular file; as root, that can replace a system device like /dev/null.
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise ExportError(f"cannot write {path}: {_reason(error)}") from None
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise ExportError(f"{path} is {kind}; papershelf writes only to a new or a regular file")


def _publish(temp: Path, path: Path, overwrite: bool) -> None:
    """Move `temp` to `path`; without `overwrite`, never replace an existing file."""
    if overwrite:
        _check_target(path)  # again, just before: it may have changed during the write
        os.replace(temp, path)
        return
    try:
        os.link(temp, path)  # atomic "create only if absent"
    except FileExistsError:
        raise
    except OSError:
        # No hard links here (FAT, some network shares): check, then rename.
        if os.path.lexists(path):
            raise FileExistsError(path) from None
        os.replace(temp, path)
        return
    temp.unlink()


def write_export(path: Path, text: str, *, overwrite: bool = False) -> Path:
    """Write `text` to `path` atomically (temp file, fsync, rename); return the path.

    Raises ExportExists when `path` exists and `overwrite` is false, ExportError when the file
    cannot be written or `path` is anything but a regular file (a directory, a symbolic link,
    a FIFO, a device). A failed write leaves no partial file behind.
    """
    path = Path(path)
    _check_target(path)
    directory = path.parent
    try:
        temp = _write_temp(directory, path.name, text.encode("utf-8"))
    except OSError as error:
        if not directory.is_dir():
            raise ExportError(f"cannot write {path}: folder {directory} does not exist") from None
        raise ExportError(f"cannot write {path}: {_reason(error)}") from None
    try:
        _publish(temp, path, overwrite)
    except FileExistsError:
        raise ExportExists(
            f"{path} already exists; choose another name or allow overwriting"
        ) from None
    except OSError as error:
        raise ExportError(f"cannot write {path}: {_reason(error)}") from None
    finally:
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)
    fsync_directory(directory)
    return path
