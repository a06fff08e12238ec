"""Opt-in timing trace: `PAPERSHELF_TRACE=FILE` appends `<unix time> <event> <detail>` lines.

Used by `bench/bench_app.py` to measure start-to-first-frame and keystroke-to-list-updated
from inside the app. Costs one attribute check when the variable is unset.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from typing import TextIO

GC_MARK_SECONDS = 0.005
"""A garbage collection this long or longer is recorded (`trace_collections`)."""


class Trace:
    """Appends timestamped events to a file, or does nothing."""

    def __init__(self, path: str | None) -> None:
        self._file: TextIO | None = None
        if path:
            try:
                self._file = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115
            except OSError:
                self._file = None

    @property
    def enabled(self) -> bool:
        """Whether events are being recorded."""
        return self._file is not None

    def mark(self, event: str, detail: str = "") -> None:
        """Record `event` now (wall clock, so another process can compare)."""
        if self._file is not None:
            self._file.write(f"{time.time():.6f} {event} {detail}\n")

    def mark_cpu(self, event: str) -> None:
        """Record `event` with the process's CPU time so far (all threads), in seconds."""
        if self._file is not None:
            self.mark(event, f"{time.process_time():.3f}")

    def trace_collections(self) -> None:
        """Record every garbage collection of `GC_MARK_SECONDS` or more as `gc` with its
        generation, milliseconds and the thread it ran on (a collection stops every thread:
        the trace shows which ones met a key). Nothing when the trace is off."""
        if self._file is None:
            return
        started: list[float] = [0.0]

        def collected(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                started[0] = time.perf_counter()
                return
            took = time.perf_counter() - started[0]
            if took >= GC_MARK_SECONDS:
                thread = threading.current_thread().name
                self.mark("gc", f"{info['generation']} {took * 1000:.1f} {thread}")

        gc.callbacks.append(collected)

    def mark_peak_rss(self) -> None:
        """Record `peak-rss`: the process's peak resident memory so far, in MB (Unix only)."""
        if self._file is None:
            return
        try:
            import resource
        except ImportError:  # Windows
            return
        kilobytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # bytes on macOS
        divisor = 1024 * 1024 if sys.platform == "darwin" else 1024
        self.mark("peak-rss", f"{kilobytes / divisor:.1f}")


TRACE = Trace(os.environ.get("PAPERSHELF_TRACE"))
