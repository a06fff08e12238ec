"""Benchmark: the CPU time of loading the caches the app's index worker and `papershelf list`
read at start: `SearchIndex.load` of search-index.bin and `listing.load` (papers.cache's listed
columns, search-index.bin's main section, listing.cache), medians of 3.

    python bench/bench_cache_load.py DIR
    PYTHONPATH=/tmp/old python /tmp/old/bench/bench_cache_load.py DIR-OLD   # another tree

Run by hand on a library whose caches are current (after `papershelf --db DIR list diffusion`).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from papershelf.storage.library.library import Library
from papershelf.storage.search import listing
from papershelf.storage.search.index import SearchIndex


def cpu(action: Callable[[], None]) -> float:
    times = []
    for _ in range(3):
        t = time.process_time()
        action()
        times.append(time.process_time() - t)
    return statistics.median(times)


def main() -> None:
    root = Path(sys.argv[1])
    papers = Library.open(root, seed=False, read_only=True).papers()

    def index() -> None:
        assert SearchIndex.load(root / "search-index.bin", papers) is not None

    def shelf() -> None:
        found = listing.load(root)
        assert found is not None
        found.close()

    print(listing.__file__)
    print(f"SearchIndex.load {cpu(index):.3f} s CPU, listing.load {cpu(shelf):.3f} s CPU")


if __name__ == "__main__":
    main()
