"""The library's inter-process lock: `.lock`, held around every read-modify-write.

A read-only open takes no lock and creates no lock file; everything that writes papers.json,
state.json or the journal does so inside `LibraryLock.held()`. The lock is re-entrant within a
process (`depth` says how deep), so a change may reload and save under one lock; another thread
of the process waits for it, except with `timeout=0`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf.storage.errors import LibraryError

if TYPE_CHECKING:
    import filelock

__all__ = ["LOCK_FILE", "LOCK_TIMEOUT", "LibraryBusy", "LibraryLock"]

LOCK_FILE = ".lock"
LOCK_TIMEOUT = 5.0
"""Seconds to wait for another papershelf process to finish saving."""


class LibraryBusy(LibraryError):
    """Another papershelf process held the library's lock for longer than the timeout."""


class LibraryLock:
    """The lock file of one library directory, plus a thread lock for this process."""

    def __init__(self, root: Path, timeout: float = LOCK_TIMEOUT) -> None:
        self.root = root
        self.timeout = timeout
        self._file_lock: filelock.FileLock | None = None
        """Made on first use: importing filelock costs a read-only `papershelf list` 20+ ms."""
        self._thread_lock = threading.RLock()
        self.depth = 0
        """How deep this process is inside `held()`; damaged files are moved only under it."""

    @contextmanager
    def held(self, timeout: float | None = None) -> Iterator[None]:
        """Hold the lock (waiting up to `timeout`, default `self.timeout`); `LibraryBusy` when
        another process holds it longer."""
        import filelock

        wait = self.timeout if timeout is None else timeout
        # `timeout=0` (a refresh that tries again later) does not wait for another thread of
        # this process either: the app writes a removal in a worker, seconds at 100k papers.
        if not self._thread_lock.acquire(blocking=wait != 0):
            raise LibraryBusy(f"library is busy: this papershelf is saving to {self.root}")
        try:
            if not self.depth:
                self._check_lock_file()
            if self._file_lock is None:
                self._file_lock = filelock.FileLock(
                    self.root / LOCK_FILE,
                    thread_local=False,
                    poll_interval=0.002,
                    preserve_lock_file=True,
                )
            try:
                self._file_lock.acquire(timeout=wait)
            except filelock.Timeout:
                raise LibraryBusy(
                    f"library is busy: another papershelf is saving to {self.root} "
                    f"(waited {wait:g} s); try again"
                ) from None
            except OSError as error:
                raise LibraryError(f"cannot lock the library in {self.root}: {error}") from error
            self.depth += 1
            try:
                yield
            finally:
                self.depth -= 1
                self._file_lock.release()
        finally:
            self._thread_lock.release()

    def _check_lock_file(self) -> None:
        """Fail at once, naming the reason, when the lock file cannot be opened: filelock would
        retry until the timeout and the user would be told another papershelf is busy."""
        path = self.root / LOCK_FILE
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise LibraryError(
                f"cannot use {self.root} as a library: cannot create its lock file {path} "
                f"({error.strerror or error})"
            ) from None
        os.close(fd)
