"""Build a library's related-papers index in a child process, for a process that must stay quick.

`RelatedIndex` is pure-Python CPU: ~24 s at 100,000 papers. Built on a thread of the app, it
shares the interpreter lock with the UI thread the whole time, and every key typed meanwhile
waits for it (at 100k papers a key's list took 224 ms at p95 while it ran, 53 ms once it was
saved). A child process has an interpreter of its own: on a machine with two CPUs the app keeps
one to itself, and the child runs at a lower priority (`NICENESS`) so that the terminal and the
app win when both CPUs are busy. Its memory is its own too, and given back when it ends.

`build_in_child(root, key, ...)` starts `python -m papershelf.storage.library.related_child
ROOT KEY` and waits for it. The child opens the library read-only, builds the index of its
papers only if they were read from the papers.json with that `StatKey` (the one the caller's
papers came from), saves `related-index.bin` as `related.cache.save` always does (atomically,
checksummed) and ends; the caller then loads the file with `related.cache.load`, which checks
the key, the ids and the checksum as for any cache. Nothing the child says is trusted but its
progress: a child that failed, was killed, or built for other papers only means the file does
not load, and the caller builds in-process as before.

The child reports `DONE TOTAL` lines on stdout (progress) and ends by itself when its parent
is gone (checked between small steps of the build), so a killed app leaves no orphan working.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from papershelf.storage.caches.frame import stat_key_bytes
from papershelf.storage.files.layout import StatKey

__all__ = ["NICENESS", "build_in_child", "main"]

NICENESS = 10
"""The child's `nice` increment: the app's UI (and the terminal) go first on a busy machine."""
_POLL_SECONDS = 0.1
"""How often the waiting thread checks `cancelled` while the child says nothing."""
_STALE = 3
"""The child's exit status when the library's papers.json is not the one asked for."""
_ORPHAN = 4
"""The child's exit status when its parent went away."""


def build_in_child(
    root: Path,
    key: StatKey,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> bool:
    """Build and save the related index of the library in `root` (read from the papers.json
    with `key`) in a child process; True once the child says it saved it.

    `progress(done, total)` hears the child's progress; `cancelled()` is asked at least every
    `_POLL_SECONDS`, and a True ends the child at once (False is returned). Never raises for
    the child's sake: a child that cannot start or fails returns False.
    """
    command = [sys.executable, "-m", __name__, str(root), stat_key_bytes(key).hex()]
    try:
        child = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # its own errors only mean "build it here"
        )
    except OSError:
        return False
    assert child.stdout is not None
    if progress is not None:
        progress(0, 1)  # the child reads the library first (seconds at 100k papers): say so now
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(child.stdout, selectors.EVENT_READ)
            pending = b""
            while True:
                if cancelled():
                    return False
                if not selector.select(_POLL_SECONDS):
                    continue
                chunk = os.read(child.stdout.fileno(), 4096)
                if not chunk:
                    break  # the child closed its output: it is ending
                pending += chunk
                *lines, pending = pending.split(b"\n")
                if progress is not None and lines:
                    _report(lines[-1], progress)
        return child.wait() == 0
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        child.stdout.close()


def _report(line: bytes, progress: Callable[[int, int], None]) -> None:
    """Hand on one `DONE TOTAL` line; anything else is ignored."""
    parts = line.split()
    if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
        progress(int(parts[0]), int(parts[1]))


def main(argv: list[str]) -> int:
    """The child: `ROOT KEY` (the papers.json's `StatKey` in hex). See the module docstring."""
    # Imported here: the parent needs none of it to start a child.
    from papershelf.storage.library.library import Library
    from papershelf.storage.related.cache import save
    from papershelf.storage.related.index import RelatedIndex

    if len(argv) != 2:
        print("usage: python -m papershelf.storage.library.related_child ROOT KEY", file=sys.stderr)
        return 2
    parent = os.getppid()
    os.nice(NICENESS)
    library = Library.open(Path(argv[0]), seed=False, read_only=True, create=False)
    key = library.papers_key
    if key is None or stat_key_bytes(key).hex() != argv[1]:
        return _STALE

    def report(done: int, total: int) -> None:
        print(done, total, flush=True)

    def pause() -> None:
        if os.getppid() != parent:  # the app is gone: nobody will load what this builds
            raise SystemExit(_ORPHAN)

    index = RelatedIndex(library.papers(), progress=report, pause=pause)
    return 0 if save(library.root, key, index) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
