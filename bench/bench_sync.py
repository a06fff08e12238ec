"""Benchmark of `papershelf sync` on the shared corpus (run by hand, not by pytest).

    /work/venv/bin/python bench/bench_sync.py [CORPUS] [--tagged 2000] [--changes 500]

Library A imports CORPUS and tags `--tagged` papers; B (empty) syncs from A (every paper comes
in); A syncs back. Then each side changes `--changes` papers (A tags, B sets statuses, 50 papers
on both: conflicts) and A syncs from B, first with `--dry-run`, then for real, then again
(nothing to do). Prints each step's wall time, the conflicts, and sync.json's size. Works in a
temporary directory under /tmp.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from papershelf.storage.library.library import Library
from papershelf.storage.sync.run import sync_library

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")
T = TypeVar("T")


def timed(label: str, call: Callable[[], T]) -> T:
    start = time.perf_counter()
    result = call()
    print(f"{label}: {time.perf_counter() - start:.2f} s")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--tagged", type=int, default=2000)
    parser.add_argument("--changes", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sync-bench-", dir="/tmp") as tmp:
        a_root, b_root = Path(tmp, "a"), Path(tmp, "b")
        a = Library.open(a_root, seed=False)
        timed("import A", lambda: a.import_files([args.corpus]))
        ids = [paper.id for paper in a.papers()]
        print(f"papers: {len(ids)}")
        a.tag(ids[: args.tagged], add=["to-read"])
        b = Library.open(b_root, seed=False)
        report = timed("B syncs A (every paper in)", lambda: sync_library(b, a_root))
        print("  " + report.summary)
        report = timed("A syncs B (nothing to do)", lambda: sync_library(a, b_root))
        print("  " + report.summary)
        changes = args.changes
        a.tag(ids[:changes], add=["a-side"])
        b = Library.open(b_root, seed=False)
        b.set_status(ids[changes - 50 : 2 * changes - 50], "read")
        b.tag(ids[changes - 50 : changes], add=["b-side"])
        a = Library.open(a_root, seed=False)
        report = timed("A syncs B --dry-run", lambda: sync_library(a, b_root, dry_run=True))
        print("  " + report.summary)
        report = timed("A syncs B", lambda: sync_library(a, b_root))
        print("  " + report.summary)
        report = timed("A syncs B again", lambda: sync_library(a, b_root))
        print("  " + report.summary)
        undo = timed("A undoes the sync", a.undo)
        print(f"  undone: {undo}")
        print(f"sync.json: {(a_root / 'sync.json').stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
