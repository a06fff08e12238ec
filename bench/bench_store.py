"""Benchmark: a library's files on disk, and what loading its papers costs.

Run by hand on a library built by an import (and a `list` and a `related`, which write the other
caches): `/work/venv/bin/python bench/bench_store.py DIR`. Prints the size of papers.json and of
each cache, the caches' total against papers.json (issue #14: no larger), the CPU time of
`papers_cache.load` (median of 3; since format 4 it reads no abstract: each is read from
papers.json when asked for) and of a `Library.open`, and the process's peak RSS.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from pathlib import Path

from papershelf.storage.library import papers_cache
from papershelf.storage.library.library import Library

CACHES = ("papers.cache", "listing.cache", "search-index.bin", "related-index.bin")


def cpu_seconds(action, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    root = Path(sys.argv[1])
    papers_json = root / "papers.json"
    size = papers_json.stat().st_size
    print(f"papers.json        {size / 1e6:8.1f} MB")
    total = 0
    for name in CACHES:
        path = root / name
        if path.exists():
            total += path.stat().st_size
            print(f"{name:18} {path.stat().st_size / 1e6:8.1f} MB")
        else:
            print(f"{name:18}  missing")
    print(f"caches together    {total / 1e6:8.1f} MB ({total / size:.2f} x papers.json)")

    library = Library.open(root, seed=False, read_only=True)
    key = library.papers_key
    assert key is not None
    found = papers_cache.load(root / papers_cache.CACHE_FILE, key, papers_json)
    print(f"papers.cache used: {found is not None} ({len(library.papers())} papers)")
    load = cpu_seconds(lambda: papers_cache.load(root / papers_cache.CACHE_FILE, key, papers_json))
    print(f"papers_cache.load  {load:.2f} s CPU (median of 3)")
    opened = cpu_seconds(lambda: Library.open(root, seed=False, read_only=True))
    print(f"Library.open       {opened:.2f} s CPU (median of 3)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS           {peak:.0f} MB (pid {os.getpid()})")


if __name__ == "__main__":
    main()
