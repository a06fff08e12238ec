"""Benchmark of `related.index.RelatedIndex` on the shared corpus (run by hand, not by pytest).

    /work/venv/bin/python bench/bench_related.py [CORPUS] [--show 20]

Prints the build time, the time to save the index to `related-index.bin` and the median and
best of `LOADS` loads of it (storage.related.cache; target: under 150 ms), whether the loaded
index answers like the built one, the median and 95th-percentile query time over 100 papers
spread evenly through the corpus (target: <= 100 ms), and with `--show N` the titles of the top
5 related papers of N papers spread evenly through the corpus, for judging by hand.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from papershelf.storage.ingest.parse import read_file
from papershelf.storage.related.cache import RELATED_CACHE, load, save
from papershelf.storage.related.index import RelatedIndex

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")
QUERIES = 100
LOADS = 7
KEY = (1, 2, 3)
"""A made-up papers.json key: the cache is saved and loaded under it."""


def spread(count: int, size: int, offset: int = 0) -> list[int]:
    """`count` indexes spread evenly over `range(size)`."""
    return [(offset + i * size // count) % size for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--show", type=int, default=0, metavar="N")
    args = parser.parse_args()

    start = time.perf_counter()
    papers = read_file(args.corpus).papers
    parsed = time.perf_counter() - start
    gc.collect()
    start = time.perf_counter()
    index = RelatedIndex(papers)
    built = time.perf_counter() - start
    print(f"papers: {len(papers)}  (parse {parsed:.2f} s)")
    print(f"build:  {built:.2f} s")

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        if not save(root, KEY, index):
            sys.exit("the index could not be saved")
        saved = time.perf_counter() - start
        size = (root / RELATED_CACHE).stat().st_size
        loads = []
        loaded = None
        for _ in range(LOADS):
            gc.collect()
            start = time.perf_counter()
            loaded = load(root, KEY, papers)
            loads.append(time.perf_counter() - start)
    if loaded is None:
        sys.exit("the saved index did not load")
    print(f"save:   {saved * 1000:.0f} ms ({size / 1e6:.1f} MB)")
    print(
        f"load:   median {statistics.median(loads) * 1000:.0f} ms, "
        f"best {min(loads) * 1000:.0f} ms over {LOADS} loads "
        f"({built / statistics.median(loads):.0f}x faster than the build)"
    )
    probes = spread(QUERIES, len(papers), offset=11)
    same = all(loaded.related(papers[i].id, 10) == index.related(papers[i].id, 10) for i in probes)
    print(f"loaded index answers like the built one on {len(probes)} papers: {same}")

    timings = []
    for i in spread(QUERIES, len(papers), offset=7):
        start = time.perf_counter()
        index.related(papers[i].id, k=10)
        timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    p95 = timings[int(0.95 * (len(timings) - 1))]
    print(
        f"query:  median {statistics.median(timings):.1f} ms, p95 {p95:.1f} ms, "
        f"max {timings[-1]:.1f} ms over {len(timings)} papers"
    )

    by_id = {paper.id: paper for paper in papers}
    for number, i in enumerate(spread(args.show, len(papers), offset=3), start=1):
        paper = papers[i]
        print(f"\n[{number}] {paper.title or paper.name}")
        for other_id, score in index.related(paper.id, k=5):
            shared = ", ".join(index.shared_terms(paper.id, other_id, 4))
            other = by_id[other_id]
            print(f"    {score:.3f}  {other.title or other.name}   ({shared})")


if __name__ == "__main__":
    main()
