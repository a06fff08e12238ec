"""The opt-in timing trace: what it writes, and nothing when it is off."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from papershelf.tui.app_trace import Trace


def test_events_are_written_with_a_timestamp(tmp_path: Path) -> None:
    path = tmp_path / "trace.txt"
    trace = Trace(str(path))
    trace.mark("key", "d")
    stamp, event, detail = path.read_text(encoding="utf-8").split()
    assert float(stamp) > 0 and (event, detail) == ("key", "d")


@pytest.mark.skipif(sys.platform == "win32", reason="no resource module")
def test_peak_rss_is_recorded_in_megabytes(tmp_path: Path) -> None:
    path = tmp_path / "trace.txt"
    Trace(str(path)).mark_peak_rss()
    _, event, megabytes = path.read_text(encoding="utf-8").split()
    assert event == "peak-rss"
    assert 1 < float(megabytes) < 100_000  # this test process: some MB, not KB or bytes


def test_a_trace_that_is_off_writes_nothing(tmp_path: Path) -> None:
    trace = Trace(None)
    trace.mark("key")
    trace.mark_peak_rss()
    assert not trace.enabled and list(tmp_path.iterdir()) == []


def test_a_cpu_mark_carries_the_process_cpu_time(tmp_path: Path) -> None:
    path = tmp_path / "trace.txt"
    Trace(str(path)).mark_cpu("first-frame")
    _, event, seconds = path.read_text(encoding="utf-8").split()
    assert event == "first-frame" and 0 < float(seconds) < 10_000


def test_a_slow_collection_is_recorded_with_its_generation_and_thread(tmp_path: Path) -> None:
    import gc
    import threading

    path = tmp_path / "trace.txt"
    before = list(gc.callbacks)
    try:
        Trace(str(path)).trace_collections()
        quick = threading.Thread(target=gc.collect, args=(0,), name="quick")
        quick.start()
        quick.join()
        # Enough live containers that a full collection takes well over GC_MARK_SECONDS.
        held = [[i] for i in range(600_000)]
        slow = threading.Thread(target=gc.collect, name="walker")
        slow.start()
        slow.join()
        del held
    finally:
        gc.callbacks[:] = before
    marks = [line.split()[1:] for line in path.read_text(encoding="utf-8").splitlines()]
    walked = [mark[1:] for mark in marks if mark[0] == "gc" and mark[-1] == "walker"]
    assert len(walked) == 1  # the full one; the young one on "quick" took under 5 ms
    generation, milliseconds, _ = walked[0]
    assert generation == "2" and float(milliseconds) >= 5.0
