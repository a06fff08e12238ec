"""The UI thread's CPU time per key, split by part (headless, Pilot; no tmux, no profiler).

    /work/venv/bin/python bench/bench_ui_parts.py --root DIR [--keys N] [--settle S]

Opens the library in --root, waits for the search index and then `--settle` seconds (the
warm tables' build), types bench_app's queries one key at a time with Pilot and, after each
key, waits until the list shows that key's results and the reader has followed. Each part of
the UI thread's work is timed with `time.thread_time` (CPU of the UI thread only, which the
load of a shared machine inflates far less than wall time) by wrapping the method that does it:

    frame         a screen's update (compositing; every widget's lines drawn in it)
      list rows   PaperList.render_lines inside frames
      reader      Reader.render_line inside frames
    results       SearchWiring.show_results (the list's new rows, tag counts, status)
    reader show   Reader.show (the paper's text made, wrapped, its changed lines marked)
    all           the UI thread's CPU from the key's press to the reader drawn (with Pilot's)

Prints each part's median, p95 and total per key. Parts nest (frame holds list rows).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from queries import read_queries  # bench/queries.py (the script's folder)

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

_UI_THREAD = threading.get_ident()
_spent: dict[str, float] = defaultdict(float)
_depth: dict[str, int] = defaultdict(int)


def _timed(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """`method`, adding its UI-thread CPU time to `_spent[name]` (outermost call only)."""

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if threading.get_ident() != _UI_THREAD or _depth[name]:
            return method(*args, **kwargs)
        _depth[name] += 1
        started = time.thread_time()
        try:
            return method(*args, **kwargs)
        finally:
            _spent[name] += time.thread_time() - started
            _depth[name] -= 1

    return wrapper


def _instrument() -> None:
    from textual.screen import Screen

    from papershelf.tui.app_search import SearchWiring
    from papershelf.tui.widgets.paper_list import PaperList
    from papershelf.tui.widgets.reader import Reader

    parts: list[tuple[type, str, str]] = [
        (Screen, "_on_timer_update", "frame"),
        (PaperList, "render_lines", "list rows"),
        (Reader, "render_line", "reader lines"),
        (SearchWiring, "show_results", "results"),
        (Reader, "show", "reader show"),
    ]
    for owner, attribute, name in parts:
        setattr(owner, attribute, _timed(name, getattr(owner, attribute)))
    if os.environ.get("UI_PARTS_WIDGETS"):
        from textual.widget import Widget

        original = Widget.render_lines

        def render_lines(self: Widget, crop: Any) -> Any:
            return _timed("w:" + type(self).__name__, original)(self, crop)

        Widget.render_lines = render_lines  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--keys", type=int, default=0, help="stop after N keys (0: all)")
    parser.add_argument("--settle", type=float, default=20.0)
    args = parser.parse_args()
    os.environ.setdefault("PAPERSHELF_TRACE", str(Path(tempfile.mkdtemp()) / "trace.txt"))
    _instrument()

    from papershelf.storage.library.library import Library
    from papershelf.tui.app import PapershelfApp

    library = Library.open(args.root, seed=False)
    app = PapershelfApp(library)
    per_key: dict[str, list[float]] = defaultdict(list)

    async def drive() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            while app.search.engine is None:
                await asyncio.sleep(0.05)
            await asyncio.sleep(args.settle)
            await pilot.press("slash")
            await pilot.pause(0.2)
            typed = 0
            reader = app.main_screen.reader
            for query in read_queries():
                for char in query:
                    _spent.clear()
                    started = time.thread_time()
                    serial = app.search.serial + 1
                    await pilot.press("space" if char == " " else char)
                    while app.search.shown_serial < serial:
                        await asyncio.sleep(0.0005)
                    await pilot.pause()  # the list's frame
                    await pilot.pause()  # the reader follows one frame later
                    per_key["all"].append(time.thread_time() - started)
                    names = ["frame", "list rows", "reader lines", "results", "reader show"]
                    names += [n for n in _spent if n.startswith("w:") and n not in per_key]
                    for name in {*names, *per_key} - {"all"}:
                        per_key[name].append(_spent.get(name, 0.0))
                    assert reader.paper_id == app.paper_list.current_id
                    typed += 1
                    if args.keys and typed >= args.keys:
                        return
                await pilot.press("ctrl+u")
                await pilot.pause(0.1)

    asyncio.run(drive())
    for name, values in per_key.items():
        ms = sorted(value * 1000 for value in values)
        p95 = ms[round(0.95 * (len(ms) - 1))]
        print(
            f"{name:<13} median {statistics.median(ms):6.2f} ms  p95 {p95:6.2f} ms"
            f"  mean {statistics.fmean(ms):6.2f} ms  (n={len(ms)})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
