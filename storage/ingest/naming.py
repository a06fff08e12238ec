"""Papers for many records at once: each record's draft (what it gives before its name), then
the names of a chunk of drafts together, in worker processes when an import is large.

`derive_name` is about half of a large import's CPU, and a pure function of the abstract, the
title and the code URLs, so a file's records are named a chunk (`CHUNK` records) at a time:
the first `POOL_AFTER` records in this process (a seed list or a .bib file starts no process),
then, when the machine has an idle CPU, by worker processes while this process reads the next
chunk and collects the last one (and names, itself, the chunks no worker has started while it
would otherwise wait: `_share`). Chunks come back in file order, at most `_AHEAD` per worker in
flight, so a streamed file is still read in constant memory per record. The names are the ones
this process would derive: the same function on the same arguments.

`PAPERSHELF_IMPORT_WORKERS` sets how many worker processes (0: none; default: `free_workers`,
one fewer than the CPUs the load average leaves idle, at most `MAX_WORKERS`). A pool that cannot
start or breaks is not the import's error: its chunks are named here instead. Workers are
spawned: like any `multiprocessing` user, a script that imports at module level needs an
`if __name__ == "__main__":` guard (a worker imports the main module).

May import `names`, `text`, `model` and `ingest.limits`.
"""

from __future__ import annotations

import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from papershelf.storage.ingest.limits import capped_authors, capped_title
from papershelf.storage.ingest.paragraphs import paper_id
from papershelf.storage.model import Paper
from papershelf.storage.names.derive import derive_name
from papershelf.storage.text.urls import is_code_url, split_urls

__all__ = ["CHUNK", "MAX_WORKERS", "POOL_AFTER", "Draft", "draft", "named", "worker_count"]

CHUNK = 256
"""Records named together: large enough that sending them to a worker costs little (~0.3 MB)."""
POOL_AFTER = 2048
"""Records named in this process before a pool starts: starting one costs ~0.2 s of CPU."""
MAX_WORKERS = 3
_AHEAD = 4
"""Chunks in flight per worker: those the executor has queued for it (two) and two more that
this process may name itself instead (`_share`); about 1 MB of abstracts."""
WORKERS_VARIABLE = "PAPERSHELF_IMPORT_WORKERS"

NameArgs = tuple[str, str | None, tuple[str, ...]]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Draft:
    """A record's paper before its name: the capped title and authors, the abstract's code URLs
    (and the record's page when it is one) and its other links."""

    abstract: str
    title: str | None
    authors: tuple[str, ...]
    url: str | None
    code_urls: tuple[str, ...]
    links: tuple[str, ...]

    def name_args(self) -> NameArgs:
        """What `derive_name` reads."""
        return (self.abstract, self.title, self.code_urls)

    def paper(self, name: str, source: str, venue: str | None, now: str, **fields: Any) -> Paper:
        """The paper, named `name`, from `source`, with the record's other `fields` (`doi`,
        `year`...: built with them, not `replace`d after)."""
        return Paper(
            id=paper_id(self.abstract),
            name=name,
            title=self.title,
            abstract=self.abstract,
            venue=venue,
            sources=(source,),
            code_urls=self.code_urls,
            links=self.links,
            imported_at=now,
            authors=self.authors,
            url=self.url,
            **fields,
        )


def draft(
    abstract: str,
    *,
    title: str | None = None,
    authors: tuple[str, ...] = (),
    url: str | None = None,
) -> Draft:
    """A record's draft: title and authors capped (`ingest.limits`), the abstract's URLs split."""
    title, authors = capped_title(title), capped_authors(authors)
    code_urls, links = split_urls(abstract)
    if url is not None and is_code_url(url):
        code_urls = code_urls + tuple(u for u in (url,) if u not in code_urls)
    return Draft(abstract, title, authors, url, code_urls, links)


def derive_names(args: list[NameArgs]) -> list[str]:
    """`derive_name` of each (abstract, title, code URLs): what a worker runs on a chunk."""
    return [derive_name(abstract, title=title, code_urls=urls) for abstract, title, urls in args]


def worker_count() -> int:
    """Worker processes for a large import: `PAPERSHELF_IMPORT_WORKERS`, else those the CPUs
    the machine leaves idle can run (`free_workers`)."""
    value = os.environ.get(WORKERS_VARIABLE, "").strip()
    if value.isdigit():
        return min(int(value), MAX_WORKERS)
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average here: take the CPUs as idle
        load = 1.0
    return free_workers(cpus, load)


def free_workers(cpus: int, load: float) -> int:
    """Workers for `cpus` CPUs at this load average (the import's own process counted in it):
    one fewer than the CPUs left idle, at most `MAX_WORKERS`. On a busy CPU a worker takes its
    time from other processes and adds its own cost (pickling, cold caches): at 100,000 papers
    on two CPUs at load 8 to 14 one run with a worker took 61.5 s of CPU and 239 s against 46.5 s
    and 175 s without, another 50.7 s and 177 s against 50.3 s and 194 s."""
    idle = cpus - max(load - 1.0, 0.0)  # the import itself is running: it is not the load
    return max(0, min(int(idle + 0.5) - 1, cpus - 1, MAX_WORKERS))


def named(items: Iterable[T], args_of: Callable[[T], NameArgs]) -> Iterator[tuple[T, str]]:
    """Each item with its name (`derive_name(*args_of(item))`), in order, named a chunk at a time.

    Items are read ahead of what is yielded by at most `_AHEAD` chunks per worker (one chunk
    without a pool); an error reading them is raised once the items before it are yielded.
    """
    pending: deque[_Chunk[T]] = deque()
    pool: _Pool | None = None
    seen = 0
    try:
        for items_chunk in _chunks(items, CHUNK):
            chunk = _Chunk(items_chunk, [args_of(item) for item in items_chunk])
            seen += len(items_chunk)
            if pool is None and seen > POOL_AFTER and (workers := worker_count()) > 0:
                pool = _Pool(workers)
            if pool is not None:
                chunk.future = pool.submit(chunk.args)
            pending.append(chunk)
            while len(pending) > (pool.ahead if pool is not None else 0):
                _share(pending, pool)
                yield from pending.popleft().named(pool)
        while pending:
            _share(pending, pool)
            yield from pending.popleft().named(pool)
    finally:
        if pool is not None:
            pool.close()


def _share(pending: deque[_Chunk[T]], pool: _Pool | None) -> None:
    """While the oldest chunk is still being named by a worker, this process names the newest
    chunks no worker has started (cancelled there): it would only wait otherwise, and on two
    CPUs one worker names more slowly than this process reads (CPU shared out as it frees)."""
    first = pending[0].future
    if pool is None or first is None:
        return
    for chunk in reversed(pending):
        if first.done():
            return
        if chunk.future is not None and chunk.future.cancel():
            chunk.future = None
            chunk.names = derive_names(chunk.args)


class _Chunk(Generic[T]):
    """Items, their `derive_name` arguments, and the worker's future when one names them (or
    their names, once named here)."""

    def __init__(self, items: list[T], args: list[NameArgs]) -> None:
        self.items = items
        self.args = args
        self.future: Future[list[str]] | None = None
        self.names: list[str] | None = None

    def named(self, pool: _Pool | None) -> Iterator[tuple[T, str]]:
        names = self.names
        if names is None and pool is not None and self.future is not None:
            names = pool.result(self.future)
        if names is None:  # no pool, or it broke: named here, the same names
            names = derive_names(self.args)
        return zip(self.items, names, strict=True)


class _Pool:
    """Worker processes; once one fails, every chunk is named in this process instead."""

    def __init__(self, workers: int) -> None:
        self.ahead = workers * _AHEAD
        self._executor: ProcessPoolExecutor | None
        try:
            import multiprocessing

            # Spawned, not forked: the app imports from a thread, and a fork copies only it.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                workers, mp_context=context, initializer=_ignore_interrupts
            )
        except (OSError, ImportError, ValueError):
            self._executor = None

    def submit(self, args: list[NameArgs]) -> Future[list[str]] | None:
        if self._executor is None:
            return None
        try:
            # The executor starts its workers in `submit`: they start with ctrl+c ignored.
            with _interrupts_ignored():
                return self._executor.submit(derive_names, args)
        except (OSError, RuntimeError):  # BrokenProcessPool is a RuntimeError
            self.close()
            return None

    def result(self, future: Future[list[str]]) -> list[str] | None:
        if self._executor is None and not future.done():
            return None  # cancelled when the pool closed
        try:
            return future.result()
        except (OSError, RuntimeError, CancelledError):
            self.close()
            return None

    def close(self) -> None:
        if self._executor is not None:
            executor, self._executor = self._executor, None
            executor.shutdown(wait=True, cancel_futures=True)


def _ignore_interrupts() -> None:
    """In a worker: ctrl+c is the importing process's to handle (no worker traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """SIGINT ignored while a worker is started (in the main thread; a signal handler can be
    set nowhere else): a process started then inherits it, so a ctrl+c, which a terminal sends
    to every process of the job, never interrupts a worker's start-up (a traceback, before
    `_ignore_interrupts` runs) nor this process while it hands the worker its start (the
    worker then fails reading it: another traceback). A ctrl+c in those milliseconds is lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
