"""The search engine's warm-up as the app runs it after the index is ready: its CPU, and how
long a thread standing for the UI thread waits meanwhile.

    python bench/bench_warm.py --root DIR [--tree TREE] [--cache FILE [--save]] [--runs N]

Opens the library in --root read-only, loads its search index and runs `warm_words()`, as the
app's index worker does before `IndexReady`. Then it times what the worker does next: with
--cache, `storage.search.warm_cache.load` of FILE and `SearchEngine.adopt_warm` (--save first
makes the tables and writes FILE for these papers and this code), then `warm_tables`, each
step's `pause` a `time.sleep(0)`. Meanwhile a thread sleeps 1 ms at a time and records how late
it wakes: a wait over a few ms is the warm-up holding the interpreter (or, on a loaded machine,
the CPU). Prints the warm-up thread's CPU and wall time and the ticker's longest waits.

--tree runs another checkout's code (e.g. a worktree of main: no --cache there) so that old and
new are measured side by side on one library.
"""

from __future__ import annotations

import argparse
import gc
import sys
import threading
import time
from pathlib import Path


def _tick(stop: threading.Event, waits: list[float]) -> None:
    """Sleep 1 ms at a time until `stop`, noting how long each sleep took."""
    last = time.perf_counter()
    while not stop.is_set():
        time.sleep(0.001)
        now = time.perf_counter()
        waits.append(now - last)
        last = now


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--save", action="store_true")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree))

    from papershelf.storage.library.library import Library
    from papershelf.storage.search.engine import SearchEngine

    library = Library.open(args.root, read_only=True)
    papers = library.papers()
    index_file = args.root / "search-index.bin"
    key = None
    if args.cache is not None:
        from papershelf.storage.search import warm_cache

        fingerprint = SearchEngine.load(index_file, papers).fingerprint
        key = warm_cache.cache_key(library.papers_key, fingerprint)
        if key is None:
            print("no key: papers not from a papers.json, or the code's source unreadable")
            return 1
        if args.save:
            made = SearchEngine.load(index_file, papers)
            made.warm()
            parts = made.warm_parts()
            assert parts is not None
            print(f"saved: {warm_cache.save(args.cache, key, parts)}")
            del made, parts
    for _ in range(args.runs):
        engine = SearchEngine.load(index_file, papers)
        engine.warm_words()
        gc.collect()
        gc.freeze()  # as the app does once the index is in (`freeze_long_lived`)
        waits: list[float] = []
        stop = threading.Event()

        ticker = threading.Thread(target=_tick, args=(stop, waits))
        ticker.start()
        time.sleep(0.05)
        cpu, wall = time.thread_time(), time.perf_counter()
        if args.cache is not None:
            from papershelf.storage.search import warm_cache

            assert key is not None
            loaded = warm_cache.load(args.cache, key, len(papers), lambda: time.sleep(0))
            if loaded is None or not engine.adopt_warm(loaded):
                print("the cache was not used (another key, or damaged)")
        engine.warm_tables(pause=lambda: time.sleep(0))
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        stop.set()
        ticker.join()
        gc.unfreeze()
        longest = sorted(waits, reverse=True)
        over = [sum(w > limit for w in waits) for limit in (0.02, 0.05)]
        print(
            f"warm-up CPU {cpu:.3f} s, wall {wall:.3f} s; ticker waits over 20 ms: {over[0]}, "
            f"over 50 ms: {over[1]}; longest "
            + " ".join(f"{w * 1000:.0f}" for w in longest[:5])
            + " ms",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
