"""Measure the app's start in a real terminal (tmux): to the first frame and to the search index.

    /work/venv/bin/python bench/bench_start.py --root DIR [--tree PATH ...] [--runs N]

Starts `papershelf --db DIR` (as bench_app does: the code of each `--tree`, default this
source tree) in a detached tmux session with `PAPERSHELF_TRACE` set, waits for the app's
`first-frame` and `index-ready` marks, and quits. For each mark it gives the wall time from
just before tmux starts the process and the app process's CPU time then (user + system from
/proc, 10 ms ticks): on a shared machine wall times measure the load as much as papershelf,
CPU times much less. Several trees run in turn, run after run (ABAB...), so that old and new
code meet the same load; give each tree its own copy of a library (`--root` once per tree,
in the same order) when a run may write caches. Prints medians and ranges.

`--bytecode` compiles each tree's modules first (`compileall`): a checkout run with
PYTHONDONTWRITEBYTECODE=1 (as this machine's sessions are) otherwise compiles every module of
papershelf at each start, ~0.1 s of CPU that a pip-installed papershelf (compiled at install)
never spends.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_app import TraceReader  # bench/bench_app.py (the script's folder)

REPO = Path(__file__).resolve().parent.parent
SESSION = f"papershelf-start-{os.getpid()}"
MARKS = ("first-frame", "index-ready")
PHASES = ("run-app", "library-open", "app-imported", "mount", "first-frame")
"""Marks whose detail is the app's own CPU time then (`Trace.mark_cpu`; older code has none)."""
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process `pid` so far (all its threads)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14 and 15)


def app_pid(pane_pid: int, timeout: float = 10.0) -> int:
    """The Python process the pane's shell started (the shell itself when it exec'd it)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = subprocess.run(
            ["pgrep", "-P", str(pane_pid)], capture_output=True, text=True
        ).stdout.split()
        if found:
            return int(found[0])
        with open(f"/proc/{pane_pid}/cmdline", "rb") as cmdline:
            if b"python" in cmdline.read():
                return pane_pid
        time.sleep(0.002)
    raise TimeoutError("the app's process did not start")


def run_once(tree: Path, root: Path, trace: Path, size: str) -> dict[str, float]:
    """One start of the app of `tree` on `root`: wall and CPU seconds at each mark."""
    trace.unlink(missing_ok=True)
    code = (
        f"import sys; from papershelf.cli.main import main; sys.exit(main(['--db', {str(root)!r}]))"
    )
    command = (
        f"cd {shlex.quote(str(tree))} && exec env PAPERSHELF_TRACE={shlex.quote(str(trace))} "
        f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"
    )
    width, height = size.split("x")
    subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)
    started = time.time()
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", SESSION, "-x", width, "-y", height, command],
        check=True,
    )
    try:
        pane = subprocess.run(
            ["tmux", "display", "-p", "-t", SESSION, "#{pane_pid}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        pid = app_pid(int(pane))
        reader = TraceReader(trace)
        figures: dict[str, float] = {}
        for mark in MARKS:
            stamp = reader.wait_for(mark, timeout=600)
            figures[f"{mark} cpu"] = cpu_seconds(pid)
            figures[f"{mark} wall"] = stamp - started
        subprocess.run(["tmux", "send-keys", "-t", SESSION, "q"], check=True)
        reader.wait_for("peak-rss", timeout=60)
        for _, name, detail in reader.events:
            if name in PHASES and detail:
                figures[f"  cpu at {name}"] = float(detail)
        return figures
    finally:
        subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, action="append", required=True)
    parser.add_argument("--tree", type=Path, action="append")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--bytecode", action="store_true", help="compile each tree first")
    args = parser.parse_args()
    trees = args.tree or [REPO]
    roots = args.root if len(args.root) == len(trees) else [args.root[0]] * len(trees)
    results: list[dict[str, list[float]]] = [{} for _ in trees]
    for tree in trees if args.bytecode else ():
        folders = [str(tree / name) for name in ("papershelf", "storage", "tui")]
        subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], check=True)
    with tempfile.TemporaryDirectory() as scratch:
        for run in range(args.runs):
            for number, (tree, root) in enumerate(zip(trees, roots, strict=True)):
                trace = Path(scratch) / f"trace-{number}-{run}.txt"
                figures = run_once(tree, root, trace, args.size)
                for name, value in figures.items():
                    results[number].setdefault(name, []).append(value)
                time.sleep(0.5)
    load = os.getloadavg()
    print(f"{args.runs} runs a tree, {args.size}, load average {load[0]:.1f} {load[1]:.1f}")
    for tree, figures in zip(trees, results, strict=True):
        print(tree)
        for name, values in figures.items():
            print(
                f"  {name:18} median {statistics.median(values) * 1000:6.0f} ms"
                f"  (min {min(values) * 1000:6.0f}, max {max(values) * 1000:6.0f})"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
