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

__all__ = [
    "CHUNK",
    "MAX_WORKERS",
    "POOL_AFTER",
    "Draft",
    "draft",
    "mapped",
    "named",
    "worker_count",
]

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
A = TypeVar("A")
R = TypeVar("R")


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
    """Each item with its name (`derive_name(*args_of(item))`), in order, named a chunk at a time
    (`mapped` with `derive_names`)."""
    return mapped(items, args_of, derive_names)


def mapped(
    items: Iterable[T], args_of: Callable[[T], A], work: Callable[[list[A]], list[R]]
) -> Iterator[tuple[T, R]]:
    """Each item with its result, in order: `work` run on the `args_of` of a chunk of items at a
    time, past `POOL_AFTER` items in worker processes when there are any (`work` must then be a
    module-level function, or a `functools.partial` of one, for a worker to run it).

    Items are read ahead of what is yielded by at most `_AHEAD` chunks per worker (one chunk
    without a pool). An error is raised where it lies in the items' order: one `work` raises for
    a chunk once the chunks before it are yielded, and one reading the items once every item
    read before it is (a worker may be checking records that come before the one that could not
    be read).
    """
    pending: deque[_Chunk[T, A, R]] = deque()
    pool: _Pool | None = None
    seen = 0
    try:
        try:
            for items_chunk in _chunks(items, CHUNK):
                chunk = _Chunk(items_chunk, [args_of(item) for item in items_chunk], work)
                seen += len(items_chunk)
                if pool is None and seen > POOL_AFTER and (workers := worker_count()) > 0:
                    pool = _Pool(workers)
                if pool is not None:
                    chunk.future = pool.submit(work, chunk.args)
                pending.append(chunk)
                while len(pending) > (pool.ahead if pool is not None else 0):
                    _share(pending, pool)
                    yield from pending.popleft().results(pool)
        except _ReadFailed as failed:
            # The chunks read before it first: one of them may hold an earlier error.
            while pending:
                _share(pending, pool)
                yield from pending.popleft().results(pool)
            raise failed.error from None
        while pending:
            _share(pending, pool)
            yield from pending.popleft().results(pool)
    finally:
        if pool is not None:
            pool.close()


def _share(pending: deque[_Chunk[T, A, R]], pool: _Pool | None) -> None:
    """While the oldest chunk is still being worked on by a worker, this process works on the
    newest chunks no worker has started (cancelled there): it would only wait otherwise, and on
    two CPUs one worker works more slowly than this process reads (CPU shared out as it frees)."""
    first = pending[0].future
    if pool is None or first is None:
        return
    for chunk in reversed(pending):
        if first.done():
            return
        if chunk.future is not None and chunk.future.cancel():
            chunk.future = None
            chunk.run_here()


class _Chunk(Generic[T, A, R]):
    """Items, the arguments `work` takes for them, and the worker's future when a worker runs it
    (or the results, or the error, once run here)."""

    def __init__(
        self,
        items: list[T],
        args: list[A],
        work: Callable[[list[A]], list[R]] = derive_names,  # type: ignore[assignment]
    ) -> None:
        self.items = items
        self.args = args
        self.work = work
        self.future: Future[list[R]] | None = None
        self.names: list[R] | None = None
        """The results, once run here (`names`: what the chunk held when all it did was name)."""
        self.error: Exception | None = None
        """What `work` raised here: raised when the chunk's turn comes, not before."""

    def run_here(self) -> None:
        try:
            self.names = self.work(self.args)
        except Exception as error:  # raised in turn, by `results`
            self.error = error

    def results(self, pool: _Pool | None) -> Iterator[tuple[T, R]]:
        found = self.names
        if found is None and self.error is None and pool is not None and self.future is not None:
            found = pool.result(self.future)
        if found is None and self.error is None:  # no pool, or it broke: run here, the same
            self.run_here()
            found = self.names
        if self.error is not None:
            raise self.error
        assert found is not None
        return zip(self.items, found, strict=True)

    def named(self, pool: _Pool | None) -> Iterator[tuple[T, R]]:
        """`results` (the name of a chunk of `named`)."""
        return self.results(pool)


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

    def submit(self, work: Callable[[list[A]], list[R]], args: list[A]) -> Future[list[R]] | None:
        if self._executor is None:
            return None
        try:
            # The executor starts its workers in `submit`: they start with ctrl+c ignored.
            with _interrupts_ignored():
                return self._executor.submit(work, args)
        except (OSError, RuntimeError):  # BrokenProcessPool is a RuntimeError
            self.close()
            return None

    def result(self, future: Future[list[R]]) -> list[R] | None:
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


class _ReadFailed(Exception):
    """Reading the items raised `error` (carried past the chunks read before it)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """`items` in lists of `size`; when reading them fails, the items read before the error
    come first (a shorter list), then `_ReadFailed`."""
    chunk: list[T] = []
    try:
        for item in items:
            chunk.append(item)
            if len(chunk) == size:
                yield chunk
                chunk = []
    except Exception as error:  # re-raised after the chunks before it
        if chunk:
            yield chunk
        raise _ReadFailed(error) from error
    if chunk:
        yield chunk
