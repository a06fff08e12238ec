"""Reading a library file only when it is a regular file.

A FIFO, a device or a link to one where `state.json`, `papers.json`, the journal, the settings
or a backup belongs must not hang papershelf (opening a FIFO waits for a writer; reading
`/dev/zero` never ends) or be taken for data. So every such file is opened without blocking,
checked with `fstat` on the open descriptor (what is read is what was checked), and refused
unless it is a regular file.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from papershelf.storage.files.layout import StatKey, stat_key


class NotRegularFile(OSError):
    """The path names a FIFO, a device, a socket or a directory, not a regular file."""


def read_regular(path: Path, *, max_bytes: int | None = None) -> tuple[StatKey, bytes]:
    """The bytes of the regular file at `path` and the `StatKey` of exactly those bytes.

    Raises `FileNotFoundError` when there is none, `NotRegularFile` for anything but a regular
    file (or one over `max_bytes`, which is not read), and other `OSError`s as they come.
    """
    # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer; it does not
    # change reads of a regular file.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
        if max_bytes is not None and info.st_size > max_bytes:
            raise NotRegularFile(errno.EFBIG, "larger than papershelf ever writes it", str(path))
        return stat_key(info), handle.read()
