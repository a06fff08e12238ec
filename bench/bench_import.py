"""Benchmark: import the whole corpus into an empty temp library, then open it and change tags.

Run by hand: `/work/venv/bin/python bench/bench_import.py [CORPUS]`
(default corpus: /work/shared/corpus/ml-abstracts.jsonl). Prints the import time, both files'
sizes, `Library.open` time next to a bare `json.loads` of papers.json, and the cost of one tag
change (a locked read-modify-write of state.json) with a small and with a large state.json.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from papershelf.storage.library.library import Library

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")


def median_ms(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
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
