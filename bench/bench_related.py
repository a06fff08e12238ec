"""Benchmark of `storage.related.RelatedIndex` on the shared corpus (run by hand, not by pytest).

    /work/venv/bin/python bench/bench_related.py [CORPUS] [--show 20]

Prints the build time, the median and 95th-percentile query time over 100 papers spread evenly
through the corpus (target: <= 100 ms), and with `--show N` the titles of the top 5 related
papers of N papers spread evenly through the corpus, for judging by hand.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storage.ingest import read_file
from storage.related import RelatedIndex

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")
QUERIES = 100


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
