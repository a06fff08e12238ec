"""The search engine's memory, without the app: what the warm tables hold, and how much typing
adds (the per-query caches).

    /work/venv/bin/python bench/bench_engine_memory.py --root DIR [--trace] [--rounds N]

Opens the library in --root read-only, loads its search index, warms every table as the app
does (`warm(abstracts=True)`), then types bench/queries.txt one key at a time (`--rounds` times,
each round's queries made distinct by a suffix after the first, so that the caches see new
queries and never only repeats) and reads each result's first screen as the list would.
Prints the resident memory (current, from /proc, and peak) after each step; with --trace,
tracemalloc's count of the bytes Python holds, and the lines that allocated most of what
typing added. Works on any revision (it uses only the engine's public calls), so an old
worktree and a new one can be measured side by side.
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import time
import tracemalloc
from pathlib import Path

from queries import read_queries  # bench/queries.py (the script's folder)

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def rss_mb() -> float:
    """The process's resident memory now."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def peak_mb() -> float:
    """The process's peak resident memory so far (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def report(step: str, trace: bool) -> None:
    traced = ""
    if trace:
        current, peak = tracemalloc.get_traced_memory()
        traced = f"; traced {current / 2**20:.0f} MiB (peak {peak / 2**20:.0f} MiB)"
    print(f"{step}: RSS {rss_mb():.0f} MB, peak {peak_mb():.0f} MB{traced}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    if args.trace:
        tracemalloc.start(1)

    from papershelf.storage.library.library import Library
    from papershelf.storage.search.engine import SearchEngine

    library = Library.open(args.root, read_only=True)
    papers = library.papers()
    report(f"{len(papers)} papers open", args.trace)
    engine = SearchEngine.load(args.root / "search-index.bin", papers)
    engine.warm()
    gc.collect()
    report("index loaded and warmed", args.trace)
    warm = tracemalloc.take_snapshot() if args.trace else None
    entries = library.entries()
    queries = read_queries()
    cpu = time.process_time()
    keys = 0
    for round_ in range(args.rounds):
        suffix = "" if round_ == 0 else f" {'abcdefghij'[round_ % 10]}{round_}"
        for query in queries:
            query = query + suffix
            for end in range(1, len(query) + 1):
                hits = engine.results(query[:end], entries)
                for hit in hits[:40]:
                    hit.spans_in("name")
                    hit.spans_in("title")
                keys += 1
        report(f"typed round {round_ + 1} ({keys} keys)", args.trace)
    print(f"typing: {time.process_time() - cpu:.1f} s CPU")
    del hits
    gc.collect()
    report("after gc.collect()", args.trace)
    if warm is not None:
        typed = tracemalloc.take_snapshot()
        print("what typing added (tracemalloc, by line):")
        for stat in typed.compare_to(warm, "lineno")[: args.top]:
            print(f"  {stat.size_diff / 2**20:8.1f} MiB  {stat.traceback[0]}")
        print("what the warm engine holds (by line):")
        for stat in warm.statistics("lineno")[: args.top]:
            print(f"  {stat.size / 2**20:8.1f} MiB  {stat.traceback[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
