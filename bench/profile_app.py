"""Profile the app's UI thread while queries are typed one key at a time (headless, no tmux).

    /work/venv/bin/python bench/profile_app.py [--root DIR] [--top N] [--no-profile]

Opens the library in --root (make one with `papershelf --db DIR import CORPUS`), waits for the
search index, then types bench_app's queries with Pilot. Prints key-to-list-rendered times from
the app's own trace and, unless --no-profile, the UI thread's cProfile (cumulative time).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

from queries import read_queries  # bench/queries.py (the script's folder)

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path("/tmp/perf-db"))
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--no-profile", action="store_true")
    args = parser.parse_args()
    trace = Path(tempfile.mkdtemp()) / "trace.txt"
    os.environ["PAPERSHELF_TRACE"] = str(trace)

    from papershelf.storage.library.library import Library
    from papershelf.tui.app import PapershelfApp

    library = Library.open(args.root, seed=False)
    app = PapershelfApp(library)
    profile = cProfile.Profile()
    times: list[float] = []

    async def drive() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            while app.search.engine is None:
                await asyncio.sleep(0.05)
            await pilot.pause(0.3)
            await pilot.press("slash")
            for query in read_queries():
                for char in query:
                    started = time.perf_counter()
                    if not args.no_profile:
                        profile.enable()
                    serial = app.search.serial + 1
                    await pilot.press("space" if char == " " else char)
                    while app.search.shown_serial < serial:
                        await asyncio.sleep(0.0005)
                    await pilot.pause()
                    if not args.no_profile:
                        profile.disable()
                    times.append(time.perf_counter() - started)
                await pilot.press("ctrl+u")
                await pilot.pause(0.1)

    asyncio.run(drive())
    ms = sorted(t * 1000 for t in times)
    p95 = ms[round(0.95 * (len(ms) - 1))]
    print(f"press to list shown: median {statistics.median(ms):.1f} ms  p95 {p95:.1f} ms")
    if not args.no_profile:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.top)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
