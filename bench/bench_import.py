"""Benchmark: import the whole corpus into an empty temp library, then open it and change tags.

Run by hand: `/work/venv/bin/python bench/bench_import.py [CORPUS]`
(default corpus: /work/shared/corpus/ml-abstracts.jsonl). Prints the import time, both files'
sizes, `Library.open` time next to a bare `json.loads` of papers.json, and the cost of one tag
change (a locked read-modify-write of state.json) with a small and with a large state.json.

`bench/bench_import.py --side-by-side OLD [--repeat N] [CORPUS ...]` runs `papershelf import`
(the CLI, one process per run, into an empty temp library) of each corpus (default: the
10,815-paper corpus, and /tmp/papershelf-100k.jsonl when it exists) with an old checkout and with
this one (without worker processes and with one: PAPERSHELF_IMPORT_WORKERS=0 and 1; by default
the import runs those the idle CPUs allow, `ingest.naming.free_workers`), and prints CPU
seconds (the process and its worker processes, user + system), wall seconds and peak RSS (the
largest of the processes: the importing one): the least CPU time and the medians of N rounds,
each round running the three in turn. OLD is a checkout of the code to compare with, e.g.
`git worktree add --detach /tmp/papershelf-main main`; it runs with this venv, OLD first on
PYTHONPATH. On a shared machine read the least CPU time: wall time counts the other processes
too (the load is printed), and a busy machine inflates CPU time as well (by a third or more at a
load average of 10 on 2 CPUs). `bench/bench_import.py --together OLD [--repeat N] [CORPUS ...]`
runs the old and the new import (no worker) at the same time, N times (default 3): both meet the
same contention, and the difference of their CPU times is printed.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from papershelf.storage.library.library import Library

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")
SCALE = Path("/tmp/papershelf-100k.jsonl")
HERE = Path(__file__).resolve().parents[1]


def median_ms(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def cli_import(checkout: Path, corpus: Path, workers: str | None) -> tuple[float, float, int]:
    """(CPU s, wall s, peak RSS MB) of one `papershelf import` of `corpus` into an empty library
    with the code of `checkout` (`workers`: PAPERSHELF_IMPORT_WORKERS, None to leave it unset):
    CPU of the process and its workers (`wait4` counts both, and gives the larger peak, the
    importing process's)."""
    environment = dict(os.environ, PYTHONPATH=str(checkout))
    environment.pop("PAPERSHELF_IMPORT_WORKERS", None)
    if workers is not None:
        environment["PAPERSHELF_IMPORT_WORKERS"] = workers
    with tempfile.TemporaryDirectory(prefix="papershelf-bench-") as directory:
        command = [sys.executable, "-m", "papershelf", "--db", directory, "import", str(corpus)]
        start = time.perf_counter()
        process = subprocess.Popen(
            command,
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=directory,  # `-m` puts the working directory first on sys.path (see `together`)
        )
        assert process.stderr is not None
        errors = process.stderr.read().decode()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            raise SystemExit(f"import failed ({checkout}): {errors[-500:]}")
        return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss // 1024


def side_by_side(old: Path, corpora: list[Path], repeat: int) -> None:
    """The import of each corpus with the old checkout and this one (no worker, one worker),
    `repeat` rounds that take each in turn (so a busy spell of the machine falls on all three):
    the least CPU time (the machine's other load only adds to it) and the medians."""
    print(f"load average before: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")
    print(f"{'corpus':<24} {'code':<16} {'min CPU s':>9} {'CPU s':>7} {'wall s':>7} {'peak MB':>8}")
    codes = (("old", old, None), ("new, no workers", HERE, "0"), ("new, 1 worker", HERE, "1"))
    for corpus in corpora:
        runs: dict[str, list[tuple[float, float, int]]] = {label: [] for label, _, _ in codes}
        for _ in range(repeat):
            for label, checkout, workers in codes:
                runs[label].append(cli_import(checkout, corpus, workers))
        for label, _, _ in codes:
            least = min(run[0] for run in runs[label])
            cpu, wall, peak = (
                statistics.median(column) for column in zip(*runs[label], strict=True)
            )
            print(
                f"{corpus.name:<24} {label:<16} {least:9.1f} {cpu:7.1f} {wall:7.1f} {peak:8.0f}",
                flush=True,
            )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def together(old: Path, corpora: list[Path], repeat: int) -> None:
    """Old and new (no worker) imports of each corpus run at the same time, `repeat` times:
    both meet the same contention, so their CPU times compare on a busy machine."""
    print(f"load average before: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")
    for corpus in corpora:
        for _ in range(repeat):
            with tempfile.TemporaryDirectory(prefix="papershelf-bench-") as directory:
                started = {}
                for label, checkout in (("old", old), ("new", HERE)):
                    environment = dict(os.environ, PYTHONPATH=str(checkout))
                    environment["PAPERSHELF_IMPORT_WORKERS"] = "0"
                    root = str(Path(directory) / label)
                    command = [sys.executable, "-m", "papershelf", "--db", root, "import"]
                    started[label] = subprocess.Popen(
                        [*command, str(corpus)],
                        env=environment,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        # `python -m` puts the working directory before PYTHONPATH on
                        # sys.path: run from a checkout, both imports ran that checkout's
                        # code (the old and new CPU times came out equal). A neutral one.
                        cwd=directory,
                    )
                cpu = {}
                for label, process in started.items():
                    _, status, usage = os.wait4(process.pid, 0)
                    if os.waitstatus_to_exitcode(status):
                        raise SystemExit(f"the {label} import of {corpus} failed")
                    cpu[label] = usage.ru_utime + usage.ru_stime
            print(
                f"{corpus.name}: old {cpu['old']:.1f} s CPU, new {cpu['new']:.1f} s "
                f"({cpu['new'] / cpu['old'] - 1:+.0%})",
                flush=True,
            )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def main() -> None:
    if "--together" in sys.argv:
        args = [arg for arg in sys.argv[1:] if arg != "--together"]
        repeat = 3
        if "--repeat" in args:
            at = args.index("--repeat")
            repeat = int(args[at + 1])
            del args[at : at + 2]
        old, corpora = Path(args[0]), [Path(arg) for arg in args[1:]] or [CORPUS]
        together(old, corpora, repeat)
        return
    if "--side-by-side" in sys.argv:
        args = sys.argv[1:]
        at = args.index("--side-by-side")
        old = Path(args[at + 1])
        del args[at : at + 2]
        repeat = 1
        if "--repeat" in args:
            at = args.index("--repeat")
            repeat = int(args[at + 1])
            del args[at : at + 2]
        corpora = [Path(arg) for arg in args] or [CORPUS, *([SCALE] if SCALE.exists() else [])]
        side_by_side(old, corpora, repeat)
        return
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS
    with tempfile.TemporaryDirectory(prefix="papershelf-bench-") as directory:
        root = Path(directory)
        library = Library.open(root, seed=False)
        start = time.perf_counter()
        (report,) = library.import_files([corpus])
        imported = time.perf_counter() - start
        if report.error:
            raise SystemExit(report.error)
        papers_file, state_file = root / "papers.json", root / "state.json"
        print(f"corpus:                {corpus} ({corpus.stat().st_size / 1e6:.1f} MB)")
        print(
            f"import:                {imported * 1000:.0f} ms  ({report.added} added, "
            f"{report.duplicates} duplicates, {report.skipped} skipped)"
        )
        print(f"papers.json:           {papers_file.stat().st_size / 1e6:.2f} MB")

        raw = papers_file.read_bytes()
        loads = median_ms(lambda: json.loads(raw), 5)
        opened = median_ms(lambda: Library.open(root, seed=False), 5)
        print(f"json.loads papers.json: {loads:.0f} ms (median of 5)")
        print(f"Library.open:          {opened:.0f} ms (median of 5; includes reading the file)")

        ids = [paper.id for paper in library.papers()]
        counter = iter(range(10**9))
        small = median_ms(lambda: library.tag([ids[0]], add=[f"t{next(counter)}"]), 50)
        print(f"state.json (1 entry):  {state_file.stat().st_size / 1e3:.1f} kB")
        print(f"tag change, small state: {small:.1f} ms (median of 50, incl. fsync + backup)")

        library.tag(ids[:2000], add=["bulk", "to-read"])
        library.set_status(ids[:2000:2], "read")
        large = median_ms(lambda: library.tag([ids[1]], add=[f"u{next(counter)}"]), 50)
        print(f"state.json (2000 entries): {state_file.stat().st_size / 1e3:.1f} kB")
        print(f"tag change, 2000 entries: {large:.1f} ms (median of 50)")
        other = Library.open(root, seed=False)
        changed = median_ms(
            lambda: (library.tag([ids[2]], add=[f"v{next(counter)}"]), other.refresh()), 20
        )
        print(f"tag change + refresh in another Library (2000 entries): {changed:.1f} ms")


if __name__ == "__main__":
    main()
