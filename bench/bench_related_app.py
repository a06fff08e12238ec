"""`r` (more like this) to the related screen painted, in a real terminal (run by hand).

    /work/venv/bin/python bench/bench_related_app.py [--root DIR] [--runs N]

Starts papershelf in tmux at 120x40 with PAPERSHELF_TRACE set, waits for the related index,
then for N papers spread through the list presses `r`, waits for the screen, presses `esc` and
moves on. The time is from the action starting to the frame after the screen mounted, read from
the app's own trace (`related-key` -> `related-shown`). Target: 100 ms at 10,815 papers.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", "-L", "bench-related", *args], capture_output=True, text=True
    ).stdout


def events(trace: Path, name: str) -> list[float]:
    if not trace.exists():
        return []
    found = []
    for line in trace.read_text().splitlines():
        parts = line.split(" ", 2)
        if len(parts) >= 2 and parts[1] == name:
            found.append(float(parts[0]))
    return found


def wait_for(trace: Path, name: str, count: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while len(events(trace, name)) < count:
        if time.monotonic() > deadline:
            sys.exit(f"timed out waiting for {name} #{count}")
        time.sleep(0.02)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, default=Path("/tmp/perf-db"))
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    papershelf = shutil.which("papershelf") or str(Path(sys.executable).with_name("papershelf"))
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "trace.txt"
        command = f"env -u COLUMNS -u LINES PAPERSHELF_TRACE={trace} {papershelf} --db {args.root}"
        tmux("kill-server")
        tmux("new-session", "-d", "-s", "b", "-x", "120", "-y", "40", command)
        try:
            wait_for(trace, "related-ready", 1, timeout=120)
            for run in range(args.runs):
                tmux("send-keys", "-t", "b", "r")
                wait_for(trace, "related-shown", run + 1)
                tmux("send-keys", "-t", "b", "Escape")
                time.sleep(0.2)
                for _ in range(7):
                    tmux("send-keys", "-t", "b", "j")
                time.sleep(0.3)
        finally:
            tmux("kill-server")
        keys = events(trace, "related-key")
        shown = events(trace, "related-shown")
        ms = sorted((s - k) * 1000 for k, s in zip(keys, shown, strict=False))
        ready = [line for line in trace.read_text().splitlines() if " related-ready " in line]
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    print(f"related index built in {ready[0].split()[-1]} s (in its worker)")
    print(
        f"r -> related screen painted, {len(ms)} papers: median {statistics.median(ms):.1f} ms, "
        f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
