"""Benchmark: the end of a large import, alone: parsed papers merged into an empty library and
papers.json (and papers.cache) written, with the garbage collector on and off.

Run by hand: `/work/venv/bin/python bench/bench_import_tail.py PAPERS_JSON [--repeat N]`, where
PAPERS_JSON is the papers.json of an imported library (e.g. of /tmp/papershelf-100k.jsonl). Its
papers are read once, then for each round `Library.import_papers` into a fresh temp library,
once with collection on and once off (as `papershelf import` runs), printing CPU seconds.
"""

from __future__ import annotations

import gc
import json
import sys
import tempfile
import time
from pathlib import Path

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper


def tail_cpu(papers: list[Paper], collect: bool) -> float:
    """CPU seconds of merging `papers` into an empty library and saving it."""
    with tempfile.TemporaryDirectory(prefix="papershelf-bench-") as directory:
        library = Library.open(directory, create=True, seed=False)
        gc.collect()
        if not collect:
            gc.disable()
        try:
            start = time.process_time()
            library.import_papers(papers, "bench")
            return time.process_time() - start
        finally:
            gc.enable()


def main() -> None:
    args = sys.argv[1:]
    repeat = 1
    if "--repeat" in args:
        at = args.index("--repeat")
        repeat = int(args[at + 1])
        del args[at : at + 2]
    data = json.loads(Path(args[0]).read_bytes())
    papers = [Paper.from_dict(record) for record in data["papers"].values()]
    del data
    for _ in range(repeat):
        on, off = tail_cpu(papers, True), tail_cpu(papers, False)
        print(f"{len(papers)} papers: merge and save {on:.2f} s CPU collecting, {off:.2f} s not")


if __name__ == "__main__":
    main()
