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
