"""Measure a removal and its undo in the app, in a real terminal (tmux), as the person feels it.

    /work/venv/bin/python bench/bench_remove.py --root DIR [--window S] [--gap S] [--size WxH]
                                                [--query WORD]

`--root` is a library the bench may change (a copy: `cp -a /tmp/q-base /tmp/rm-bench`); the
removal is undone at the end, so one copy serves several runs. The app (this source tree) runs
in a detached tmux session with `PAPERSHELF_TRACE` set. Once its index and warm tables are
ready, the bench removes the paper under the cursor (`D`, then `y`), sends `j` every `--gap`
seconds for `--window` seconds, waits for the index rebuilt after the removal, then does the
same with `u` (undo). Each `j` is timed from just before `tmux send-keys` to the app's `move`
mark (the list's cursor action ran on the UI thread): a key that waits behind a busy UI thread
counts its wait. Printed per phase: the removal (or undo) visible in the list (`list-rendered`)
and on disk (`write-done`, when the app marks it), the index ready again, and the keys' times,
those sent before the list showed the change apart from the rest. With `--query`, after the
removal's keys the bench types `/WORD` one key at a time (while the search index is being made
again) and times each key to the list drawn (`list-rendered`), as `bench_app.py` does.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_app import TraceReader, tmux  # bench/bench_app.py (the script's folder)

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SESSION = f"papershelf-bench-remove-{os.getpid()}"


def summary(values: list[float]) -> str:
    """Median, p95 and max of `values` (seconds) in ms."""
    if not values:
        return "(none)"
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (
        f"median {statistics.median(ms):8.1f} ms  p95 {p95:8.1f} ms  max {ms[-1]:8.1f} ms"
        f"  (n={len(ms)})"
    )


def phase(
    reader: TraceReader, keys: list[str], window: float, gap: float, query: str = ""
) -> dict[str, object]:
    """Send `keys` (the change), then `j` every `gap` s for `window` s, then type `query` in
    the filter (while the index is made again); time everything."""
    reader.poll()
    moves_before = sum(1 for _, name, _ in reader.events if name == "move")
    started = time.time()
    for key in keys:
        tmux("send-keys", "-t", SESSION, key)
        time.sleep(0.3)  # the dialog opens before its key comes
    changed_at = time.time()
    sent: list[float] = []
    time.sleep(0.2)
    while time.time() - changed_at < window:
        sent.append(time.time())
        tmux("send-keys", "-t", SESSION, "j")
        time.sleep(gap)
    shown = reader.wait_for("list-rendered", after=changed_at, timeout=600)
    typed: list[float] = []
    typed_until = changed_at
    if query:
        tmux("send-keys", "-t", SESSION, "/")
        time.sleep(0.3)
        for char in query:
            before = time.time()
            tmux("send-keys", "-t", SESSION, "-l", char)
            typed.append(reader.wait_for("list-rendered", after=before, timeout=120) - before)
            time.sleep(gap)
        typed_until = time.time()
        tmux("send-keys", "-t", SESSION, "Escape")  # clears the filter
        time.sleep(1.0)
        tmux("send-keys", "-t", SESSION, "Escape")  # back to the list
        time.sleep(1.0)
    ready = reader.wait_for("index-ready", after=changed_at, timeout=900)
    deadline = time.time() + 120
    while True:
        reader.poll()
        moves = [t for t, name, _ in reader.events if name == "move"][moves_before:]
        if len(moves) >= len(sent) or time.time() > deadline:
            break
        time.sleep(0.05)
    written = next(
        (t for t, name, _ in reader.events if name == "write-done" and t >= changed_at), None
    )
    latencies = [move - send for send, move in zip(sent, moves, strict=False)]
    during = [lat for send, lat in zip(sent, latencies, strict=False) if send < shown]
    after = [lat for send, lat in zip(sent, latencies, strict=False) if send >= shown]
    return {
        "keys": " ".join(keys),
        "to_list": shown - changed_at,
        "to_disk": None if written is None else written - changed_at,
        "to_index": ready - changed_at,
        "during": during,
        "after": after,
        "lost": len(sent) - len(latencies),
        "typed": typed,
        "typed_until": typed_until - changed_at,
        "seconds": time.time() - started,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, required=True, help="a copy the bench may change")
    parser.add_argument("--window", type=float, default=20.0, help="seconds of keys per phase")
    parser.add_argument("--gap", type=float, default=0.2, help="seconds between two keys")
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--trace", type=Path, default=None, help="keep the app's trace here")
    parser.add_argument(
        "--query", default="", help="typed in the filter after the keys, before the index is in"
    )
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("tmux is needed", file=sys.stderr)
        return 2
    from papershelf.storage.library.library import Library

    count = len(Library.open(args.root, seed=False, read_only=True).papers())
    width, height = (int(part) for part in args.size.split("x"))
    trace = args.trace or Path(f"/tmp/bench-remove-trace-{os.getpid()}.txt")
    trace.unlink(missing_ok=True)
    code = (
        "import sys; from papershelf.cli.main import main; "
        f"sys.exit(main(['--db', {str(args.root)!r}]))"
    )
    command = (
        f"cd {shlex.quote(str(REPO))} && PAPERSHELF_TRACE={shlex.quote(str(trace))} "
        f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"
    )
    print(f"library: {count} papers in {args.root}; {os.cpu_count()} cpus; trace {trace}")
    tmux("new-session", "-d", "-s", SESSION, "-x", str(width), "-y", str(height), command)
    try:
        reader = TraceReader(trace)
        reader.wait_for("index-ready", timeout=900)
        reader.wait_for("tables-ready", timeout=900)
        time.sleep(2.0)  # the warm cache's save, the first collections: a quiet app
        results = [
            phase(reader, ["D", "y"], args.window, args.gap, args.query),
            phase(reader, ["u"], args.window, args.gap),
        ]
        tmux("send-keys", "-t", SESSION, "q")
        reader.wait_for("peak-rss", timeout=120)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)
    after = len(Library.open(args.root, seed=False, read_only=True).papers())
    for result in results:
        disk = result["to_disk"]
        print(f"-- {result['keys']}")
        print(f"   change to list drawn      {result['to_list']:8.2f} s")  # type: ignore[str-format]
        if disk is not None:
            print(f"   change on disk            {disk:8.2f} s")
        print(f"   change to index ready     {result['to_index']:8.2f} s")  # type: ignore[str-format]
        print(f"   j before the list changed {summary(result['during'])}")  # type: ignore[arg-type]
        print(f"   j after                   {summary(result['after'])}")  # type: ignore[arg-type]
        if result["typed"]:
            until = result["typed_until"]
            print(f"   filter key to list drawn  {summary(result['typed'])}")  # type: ignore[arg-type]
            print(f"   (typed until {until:.2f} s after the change)")  # type: ignore[str-format]
        if result["lost"]:
            print(f"   {result['lost']} keys never reached the list")
    print(f"papers before {count}, after remove and undo {after}")
    return 0 if after == count else 1


if __name__ == "__main__":
    raise SystemExit(main())
