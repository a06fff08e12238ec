"""Benchmark: an import's last step alone, the merge and the save (papers.json, papers.cache).

Run by hand: `python bench/bench_import_tail.py PAPERS_JSON [--repeat N] [--gc]`, where
PAPERS_JSON is a library's papers.json (e.g. one `papershelf import /tmp/papershelf-100k.jsonl`
made). Its papers are read once, then merged into an empty temporary library N times (default
3), and each run's CPU and wall seconds are printed. This step runs on one CPU after the
parallel parse, so its time counts whole in the import's wall time. `papershelf import` runs
without the cyclic garbage collector; `--gc` keeps it on, as a library user's import would.
To compare with older code, run it with that checkout first on PYTHONPATH (its papers.json
reader is the same): `PYTHONPATH=OLD python bench/bench_import_tail.py ...`.
"""

from __future__ import annotations

import argparse
import gc
import json
import tempfile
import time
from pathlib import Path

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper


def read_papers(path: Path) -> list[Paper]:
    """The papers of a papers.json, as the library reads them."""
    data = json.loads(path.read_bytes())
    return [Paper.from_dict(record) for record in data["papers"].values()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("papers_json", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--gc", action="store_true", help="keep the garbage collector on")
    args = parser.parse_args()
    papers = read_papers(args.papers_json)
    if not args.gc:
        gc.disable()
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="papershelf-tail-") as directory:
            library = Library.open(Path(directory), seed=False)
            cpu, wall = time.process_time(), time.perf_counter()
            report = library.import_papers(papers, "bench")
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(
                f"{report.added:,} papers merged and saved: {cpu:.2f} s CPU, {wall:.2f} s wall",
                flush=True,
            )


if __name__ == "__main__":
    main()
