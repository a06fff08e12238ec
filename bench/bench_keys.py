"""The search engine's own time per keystroke on a library, as thread CPU time.

    /work/venv/bin/python bench/bench_keys.py --root DIR [--queries FILE]

Opens the library in --root read-only, loads its search index as the app does (built and saved
when missing), warms it as the app does, then types every query of queries.txt one key at a
time (`d`, `di`, ...) as the app would search them: the engine's results, and the name and title
spans of the first 40 hits (what the list draws). Each keystroke is timed with this thread's CPU
time, which the load of a shared machine inflates far less than wall time: on two cores busy with
other work, bench_app's wall-clock figures measure the machine as much as papershelf. Prints
median, p95 and max over every keystroke and the slowest keys.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from queries import QUERIES_FILE, read_queries  # bench/queries.py (the script's folder)

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--queries", type=Path, default=QUERIES_FILE)
    parser.add_argument("--slowest", type=int, default=8)
    args = parser.parse_args()

    from papershelf.storage.library.library import Library
    from papershelf.storage.search.engine import SearchEngine

    started = time.perf_counter()
    library = Library.open(args.root, read_only=True)
    papers = library.papers()
    opened = time.perf_counter()
    engine = SearchEngine.load(args.root / "search-index.bin", papers)
    engine.warm()
    ready = time.perf_counter()
    entries = library.entries()
    keys: list[tuple[float, str, int]] = []
    for query in read_queries(args.queries):
        for end in range(1, len(query) + 1):
            typed = query[:end]
            cpu = time.thread_time()
            hits = engine.results(typed, entries)
            for hit in hits[:40]:
                hit.spans_in("name")
                hit.spans_in("title")
            keys.append(((time.thread_time() - cpu) * 1000, typed, len(hits)))
    ms = sorted(k[0] for k in keys)
    p95 = ms[round(0.95 * (len(ms) - 1))]
    print(
        f"{len(papers)} papers: open {opened - started:.2f} s, index load and warm-up "
        f"{ready - opened:.2f} s (wall)"
    )
    print(
        f"keystrokes {len(ms)}: median {statistics.median(ms):.1f} ms  p95 {p95:.1f} ms  "
        f"max {ms[-1]:.1f} ms (thread CPU)"
    )
    for took, typed, count in sorted(keys, reverse=True)[: args.slowest]:
        print(f"  {took:7.1f} ms  {typed!r}  {count} hits")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
