"""Measure the app in a real terminal (tmux): start to first frame, and key to list redrawn.

    /work/venv/bin/python bench/bench_app.py [--corpus PATH] [--root DIR] [--papers N] [--runs N]

Builds (once) a library of the whole corpus in --root, starts the app (`papershelf --db ROOT`,
from this source tree) in a detached tmux session with `PAPERSHELF_TRACE` set, types the
queries of queries.txt one key at a time and times each key from just before `tmux send-keys`
to the app's `list-rendered` mark (the list was redrawn after that key's search): a key that
waits behind a busy UI thread counts its wait, as the person typing feels it. The app's own
marks (`key`: FilterBar got the key, then `changed`, `searched`, `results`) split that time,
`send->key` being the terminal and the queue before the app reads the key. Start time is taken
just before tmux starts the process. After the queries it waits for the related-papers index,
opens its screen once, quits, and reads the app's peak RSS (`peak-rss`, written as the app
stops). Each figure is printed as median, p95 and max.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from queries import QUERIES_FILE, read_queries  # bench/queries.py (the script's folder)

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")
SESSION = f"papershelf-bench-{os.getpid()}"
"""Per process, so that two runs on one machine do not drive each other's app."""
STEPS = ("changed", "searched", "results")
"""Trace marks between `key` and `list-rendered`, in order (see tui/app.py)."""


def build_library(root: Path, corpus: Path, papers: int = 0) -> int:
    """A library of the corpus in `root` (its first `papers` records; 0: all), made once."""
    from papershelf.storage.library.library import Library

    library = Library.open(root, seed=False)
    if not library.papers():
        started = time.perf_counter()
        source = corpus
        if papers:
            lines = corpus.read_text(encoding="utf-8").splitlines(keepends=True)[:papers]
            source = Path(tempfile.mkdtemp()) / f"first-{papers}.jsonl"
            source.write_text("".join(lines), encoding="utf-8")
        library.import_files([source])
        print(f"imported {len(library.papers())} papers in {time.perf_counter() - started:.2f} s")
    return len(library.papers())


def parse_trace(text: str) -> list[tuple[float, str, str]]:
    events = []
    for line in text.splitlines():
        stamp, _, rest = line.partition(" ")
        event, _, detail = rest.partition(" ")
        events.append((float(stamp), event, detail))
    return events


class TraceReader:
    """Reads the app's trace as it grows, parsing each line once.

    The bench polls while the app works; re-reading the whole file every poll would compete
    with the app (and tmux) for the machine's two cores and inflate the very times measured.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.events: list[tuple[float, str, str]] = []
        self._offset = 0
        self._partial = ""

    def poll(self) -> None:
        try:
            with self.path.open("r", encoding="utf-8") as file:
                file.seek(self._offset)
                chunk = file.read()
                self._offset = file.tell()
        except FileNotFoundError:
            return
        text = self._partial + chunk
        complete, _, self._partial = text.rpartition("\n")
        if complete:
            self.events.extend(parse_trace(complete))

    def wait_for(self, event: str, after: float = 0.0, timeout: float = 30.0) -> float:
        deadline = time.time() + timeout
        seen = 0
        while time.time() < deadline:
            self.poll()
            for stamp, name, _ in self.events[seen:]:
                if name == event and stamp >= after:
                    return stamp
            seen = len(self.events)
            time.sleep(0.005)
        raise TimeoutError(f"no {event!r} in {self.path} within {timeout} s")


def tmux(*args: str) -> None:
    subprocess.run(["tmux", *args], check=True)


def run_once(
    root: Path,
    trace: Path,
    width: int,
    height: int,
    queries: list[str],
    per_key: list[str] | None = None,
) -> dict[str, list[float]]:
    trace.unlink(missing_ok=True)
    # Exactly what the `papershelf --db ROOT` console script runs (it also sets up the garbage
    # collector for a long-lived library, which matters to the frame times measured here).
    code = (
        f"import sys; from papershelf.cli.main import main; sys.exit(main(['--db', {str(root)!r}]))"
    )
    command = (
        f"cd {shlex.quote(str(REPO))} && PAPERSHELF_TRACE={shlex.quote(str(trace))} "
        f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"
    )
    subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)
    started = time.time()
    tmux("new-session", "-d", "-s", SESSION, "-x", str(width), "-y", str(height), command)
    try:
        reader = TraceReader(trace)
        first = reader.wait_for("first-frame")
        # The first start after an import builds the search index: at 100k papers on a busy
        # machine that takes longer than any one frame should.
        ready = reader.wait_for("index-ready", timeout=600)
        figures: dict[str, list[float]] = {
            "start_to_first_frame": [first - started],
            "start_to_index_ready": [ready - started],
            "key_to_list": [],
        }
        tmux("send-keys", "-t", SESSION, "/")
        time.sleep(0.3)
        for query in queries:
            for typed, char in enumerate(query, start=1):
                before = time.time()
                tmux("send-keys", "-t", SESSION, "-l", char)
                rendered = reader.wait_for("list-rendered", after=before)
                # From the moment the key left for the terminal: a key queued behind a busy
                # UI thread counts the wait (the app's own `key` mark would hide it).
                figures["key_to_list"].append(rendered - before)
                events = reader.events
                keys = [t for t, name, _ in events if name == "key" and before <= t <= rendered]
                if keys:
                    figures.setdefault("  send->key", []).append(keys[0] - before)
                    # Where the time went: the app's own marks between the key and the frame.
                    stamps = {name: t for t, name, _ in events if keys[0] <= t <= rendered}
                    steps = [("key", keys[0]), *((n, stamps[n]) for n in STEPS if n in stamps)]
                    ends = [*steps[1:], ("list", rendered)]
                    parts = []
                    for (a, ta), (b, tb) in zip(steps, ends, strict=True):
                        figures.setdefault(f"  {a}->{b}", []).append(tb - ta)
                        parts.append(f"{a}->{b}={(tb - ta) * 1000:.1f}")
                    if per_key is not None:
                        per_key.append(
                            f"{(rendered - before) * 1000:.1f}\t{query[:typed]!r}\t"
                            f"send->key={(keys[0] - before) * 1000:.1f}\t" + "\t".join(parts)
                        )
                time.sleep(0.05)  # a fast typist: ~20 keys/s
            cleared = time.time()
            tmux("send-keys", "-t", SESSION, "C-u")  # clear the input for the next query
            # From before the key: on a busy machine the list was drawn more than 10 ms before
            # this line ran (`after=time.time() - 0.01`), and the bench waited for ever.
            reader.wait_for("list-rendered", after=cleared)
            time.sleep(0.2)
        # Memory at its fullest: the related-papers index built and its screen shown once.
        reader.wait_for("related-ready", timeout=120)
        for key, event in (("Escape", ""), ("r", "related-shown"), ("Escape", ""), ("q", "")):
            sent = time.time()
            tmux("send-keys", "-t", SESSION, key)
            if event:
                reader.wait_for(event, after=sent)
            # An escape with a key close behind it reads as alt+key (the terminal's encoding):
            # 'Escape q' sent 0.3 s apart on a busy machine was alt+q, and the app never quit.
            time.sleep(1.0)
        peak = reader.wait_for("peak-rss")
        detail = next(d for t, name, d in reader.events if name == "peak-rss" and t == peak)
        figures["peak_rss_mb"] = [float(detail)]
        return figures
    finally:
        subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)


def summary(values: list[float], unit: str = "ms") -> str:
    if unit == "MB":
        return f"median {statistics.median(values):7.1f} MB  max {max(values):7.1f} MB"
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    median = statistics.median(ms)
    return f"median {median:7.1f} ms  p95 {p95:7.1f} ms  max {ms[-1]:7.1f} ms  (n={len(ms)})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument(
        "--papers", type=int, default=0, help="a new --root gets the first N records (0: all)"
    )
    parser.add_argument(
        "--root", type=Path, default=Path(tempfile.gettempdir()) / "papershelf-bench"
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--queries", type=Path, default=QUERIES_FILE)
    parser.add_argument(
        "--keys", type=Path, help="write each key's times (ms, the typed text, its steps) here"
    )
    parser.add_argument("--traces", type=Path, help="keep the app's traces in this directory")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("tmux is needed", file=sys.stderr)
        return 2
    width, height = (int(part) for part in args.size.split("x"))
    queries = read_queries(args.queries)
    count = build_library(args.root, args.corpus, args.papers)
    print(
        f"library: {count} papers in {args.root}; terminal {width}x{height}; "
        f"{len(queries)} queries; {os.cpu_count()} cpus"
    )
    merged: dict[str, list[float]] = {}
    per_key: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        if args.traces:
            args.traces.mkdir(parents=True, exist_ok=True)
        for run in range(args.runs):
            trace = (args.traces or Path(scratch)) / f"trace-{run}.txt"
            per_key.append(f"# run {run + 1}")
            figures = run_once(args.root, trace, width, height, queries, per_key)
            for name, values in figures.items():
                merged.setdefault(name, []).extend(values)
    for name, values in merged.items():
        print(f"{name:22} {summary(values, 'MB' if name.endswith('_mb') else 'ms')}")
    if args.keys:
        args.keys.write_text("\n".join(per_key) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
