"""The app's start and memory, headless (no terminal): how long to its first frame and to the
search index, how much CPU that took, and its peak memory after the warm-up and after typing.

    /work/venv/bin/python bench/bench_app_memory.py --root DIR [--no-typing]

Opens the library in DIR (make one with `papershelf --db DIR import FILE`), runs the app with
Textual's headless driver, and prints the app's own trace marks (`mount`, `first-frame`,
`index-ready`, seconds from the process's start), the CPU time to the index, the peak resident
memory once the warm-up tables are built (the exact-term scan of the abstracts), and then, unless
--no-typing, after bench/queries.txt is typed one key at a time. Wall times on a shared machine
measure the machine too: compare CPU times. Run it twice: the first run after an import or a
cache format change writes the caches.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from queries import read_queries  # bench/queries.py (the script's folder)

STARTED = time.time()
CPU_STARTED = time.process_time()
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def peak_mb() -> float:
    """The process's peak resident memory so far (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--no-typing", action="store_true")
    args = parser.parse_args()
    trace = Path(tempfile.mkdtemp()) / "trace.txt"
    os.environ["PAPERSHELF_TRACE"] = str(trace)

    from papershelf.storage.library.library import Library
    from papershelf.tui.app import PapershelfApp

    opening = time.process_time()
    library = Library.open(args.root, seed=False)
    print(f"{len(library.papers())} papers; Library.open {time.process_time() - opening:.2f} s CPU")
    app = PapershelfApp(library)

    async def drive() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            while app.search.engine is None:
                await asyncio.sleep(0.02)
            cpu = time.process_time() - CPU_STARTED
            marks: dict[str, float] = {}
            for line in trace.read_text().splitlines():
                at, event, *_ = line.split(" ")
                marks.setdefault(event, float(at) - STARTED)
            shown = ", ".join(
                f"{event} {marks[event]:.2f} s"
                for event in ("mount", "first-frame", "index-ready")
                if event in marks
            )
            print(f"{shown} (wall); {cpu:.2f} s CPU to the index")
            engine = app.search.engine
            while getattr(engine, "_scan", None) is None and "abstract" not in engine._texts:
                await asyncio.sleep(0.1)
            await pilot.pause(0.2)
            print(f"peak memory after the warm-up: {peak_mb():.0f} MB")
            if args.no_typing:
                return
            await pilot.press("slash")
            for query in read_queries():
                for char in query:
                    await pilot.press("space" if char == " " else char)
                await pilot.pause(0.05)
                await pilot.press("ctrl+u")
            await pilot.pause(0.5)
            print(f"peak memory after typing bench/queries.txt: {peak_mb():.0f} MB")

    asyncio.run(drive())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
