"""Build a cache of the library in a child process, for a process that must stay quick.

Two of the app's caches cost seconds of pure-Python CPU at 100,000 papers: the related-papers
index (`RelatedIndex`, ~24 s) and the search engine's warm tables (`SearchEngine.warm_tables`,
~6 s; `search.warm_cache` keeps them). Made on a thread of the app, they share the interpreter
lock with the UI thread, and every key typed meanwhile waits (at 100k papers a key's list took
224 ms at p95 while the related index was built, 53 ms once it was saved). A child process has
an interpreter of its own: on a machine with two CPUs the app keeps one to itself, and the
child runs at a lower priority (`NICENESS`) so that the terminal and the app win when both CPUs
are busy. Its memory is its own too, and given back when it ends.

`build_in_child(kind, root, key, ...)` starts `python -m papershelf.storage.library.cache_child
KIND ROOT KEY` (`KINDS`: "related", "warm") and waits for it. The child opens the library
read-only and builds only if its papers were read from the papers.json with that `StatKey` (the
one the caller's papers came from): "related" builds the related index and saves
`related-index.bin` (`related.cache.save`); "warm" loads the saved search index (only if it is
these papers': it builds none) and saves the warm tables (`search.warm_cache.save`). Both save
as the app would (atomically, checksummed) and end; the caller then loads the file with the
usual checks of key, papers and checksums. Nothing the child says is trusted but its progress:
a child that failed, was killed, or built for other papers only means the file does not load,
and the caller makes the thing in-process as before.

The child reports `DONE TOTAL` lines on stdout (progress) and ends by itself when its parent
is gone (checked between small steps), so a killed app leaves no orphan working.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf.storage.caches.frame import stat_key_bytes
from papershelf.storage.files.layout import StatKey

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library

__all__ = ["KINDS", "NICENESS", "ChildBuild", "build_in_child", "main"]

NICENESS = {"related": 10, "warm": 0}
"""Each kind's `nice` increment. The related index is wanted only when `r` is pressed: the
app's UI (and the terminal) go first on a busy machine. The warm tables are wanted by the next
exact term typed (a search that needs one before the child is done makes its own, seconds at
100k papers), so that child is not held back."""
KINDS = tuple(NICENESS)
"""What a child can build (see the module docstring)."""
_POLL_SECONDS = 0.1
"""How often the waiting thread checks `cancelled` while the child says nothing."""
_STALE = 3
"""The child's exit status when the library's papers.json is not the one asked for."""
_ORPHAN = 4
"""The child's exit status when its parent went away."""


class ChildBuild:
    """One child process building one cache: `start` it, do other work, then `wait` (or
    `stop`)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self._process = process

    @classmethod
    def start(cls, kind: str, root: Path, key: StatKey) -> ChildBuild | None:
        """Start building the `kind` of cache (`KINDS`) of the library in `root` (read from the
        papers.json with `key`); None when no child could be started."""
        if kind not in KINDS:
            raise ValueError(f"no such cache: {kind!r}")
        command = [sys.executable, "-m", __name__, kind, str(root), stat_key_bytes(key).hex()]
        try:
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,  # its own errors only mean "build it here"
            )
        except OSError:
            return None
        return cls(process)

    def wait(
        self,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> bool:
        """True once the child says it saved the cache. `progress(done, total)` hears its
        progress; `cancelled()` is asked at least every `_POLL_SECONDS`, and a True ends the
        child at once (False is returned). A child that fails returns False."""
        process = self._process
        assert process.stdout is not None
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(process.stdout, selectors.EVENT_READ)
                pending = b""
                while True:
                    if cancelled():
                        return False
                    if not selector.select(_POLL_SECONDS):
                        continue
                    chunk = os.read(process.stdout.fileno(), 4096)
                    if not chunk:
                        break  # the child closed its output: it is ending
                    pending += chunk
                    *lines, pending = pending.split(b"\n")
                    if progress is not None and lines:
                        _report(lines[-1], progress)
            return process.wait() == 0
        finally:
            self.stop()

    def stop(self) -> None:
        """End the child if it still runs, and reap it (safe to call twice)."""
        process = self._process
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()


def build_in_child(
    kind: str,
    root: Path,
    key: StatKey,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> bool:
    """`ChildBuild.start` then `wait`: True once the child saved the cache. Never raises for
    the child's sake (an unknown `kind` is a ValueError)."""
    child = ChildBuild.start(kind, root, key)
    if child is None:
        return False
    if progress is not None:
        progress(0, 1)  # the child reads the library first (seconds at 100k papers): say so now
    return child.wait(progress, cancelled)


def _report(line: bytes, progress: Callable[[int, int], None]) -> None:
    """Hand on one `DONE TOTAL` line; anything else is ignored."""
    parts = line.split()
    if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
        progress(int(parts[0]), int(parts[1]))


def main(argv: list[str]) -> int:
    """The child: `KIND ROOT KEY` (the papers.json's `StatKey` in hex). See the module docstring."""
    # Imported here: the parent needs none of it to start a child.
    from papershelf.storage.library.library import Library

    if len(argv) != 3 or argv[0] not in KINDS:
        usage = f"usage: python -m {__name__} {'|'.join(KINDS)} ROOT KEY"
        print(usage, file=sys.stderr)
        return 2
    kind, root, wanted = argv
    parent = os.getppid()
    os.nice(NICENESS[kind])
    library = Library.open(Path(root), seed=False, read_only=True, create=False)
    key = library.papers_key
    if key is None or stat_key_bytes(key).hex() != wanted:
        return _STALE

    def report(done: int, total: int) -> None:
        print(done, total, flush=True)

    def pause() -> None:
        if os.getppid() != parent:  # the caller is gone: nobody will load what this builds
            raise SystemExit(_ORPHAN)

    build = _build_related if kind == "related" else _build_warm
    return 0 if build(library, key, report, pause) else 1


def _build_related(
    library: Library, key: StatKey, report: Callable[[int, int], None], pause: Callable[[], None]
) -> bool:
    from papershelf.storage.related.cache import save
    from papershelf.storage.related.index import RelatedIndex

    index = RelatedIndex(library.papers(), progress=report, pause=pause)
    return save(library.root, key, index)


def _build_warm(
    library: Library, key: StatKey, report: Callable[[int, int], None], pause: Callable[[], None]
) -> bool:
    from papershelf.storage.files.layout import SEARCH_CACHE
    from papershelf.storage.search import warm_cache
    from papershelf.storage.search.engine import SearchEngine
    from papershelf.storage.search.index import SearchIndex

    papers = library.papers()
    index = SearchIndex.load(library.root / SEARCH_CACHE, papers)
    if index is None:  # the caller loaded or built one for these papers: not this process's job
        return False
    engine = SearchEngine(papers, index)
    report(0, 1)
    engine.warm_tables(abstracts=True, pause=pause)
    parts = engine.warm_parts()
    cache_key = warm_cache.cache_key(key, engine.fingerprint)
    if parts is None or cache_key is None:
        return False
    saved = warm_cache.save(library.root / warm_cache.WARM_CACHE, cache_key, parts, pause)
    report(1, 1)
    return saved


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
