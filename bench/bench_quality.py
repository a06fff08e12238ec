"""Search quality against two peers: known-item queries, top-1, top-5 and MRR per category.

Run:  /work/venv/bin/python bench/bench_quality.py [--corpus PATH] [--library N]
      [--per-category 80] [--seed 14] [--no-fzf] [--no-rapidfuzz] [--show-misses CATEGORY]

`--library N` makes the library the corpus's first N papers (queries are made from those): fzf
needs ~3 s of CPU per query over the whole corpus's 15 MB of lines, ~0.5 s over 2,000 papers.

The queries come from `quality_queries.py` (seeded, and blind to every ranker: see there), made
from the corpus papers read in place through the real importer. Each query is run through:
- papershelf: `SearchEngine.results(query)` over the library (name, title, abstract);
- fzf: `fzf --filter QUERY` (its default fuzzy, extended mode), one subprocess per query, over
  one line per paper holding the title and the abstract;
- rapidfuzz: `process.extract(query, titles, scorer=WRatio, processor=default_process)` over the
  titles (as the Textual arXiv viewer ranks; lower-cased, or it would miss every capital).
Baselines get the query's plain words (`title:` and quotes dropped: they have no such operators).
The baselines do not change when papershelf does, and fzf over 15 MB of lines costs ~3 s of CPU
per query: their ranks are kept in `--cache` (a JSON file outside the repository, keyed by the
corpus's digest, the system and the query), so a rerun after a ranking change runs only papershelf.
A query's rank is where its paper comes (1 = first); a paper not returned has no rank. Reported
per category: top-1 and top-5 (share of queries whose paper is within that rank) and MRR (mean
of 1/rank, 0 when not returned).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from quality_queries import CATEGORIES, Generator, KnownItem, Target  # bench/ (this folder)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from papershelf.storage.model import Paper  # noqa: E402
from papershelf.storage.search.engine import SearchEngine  # noqa: E402

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")
CACHE = Path(tempfile.gettempdir()) / "papershelf-quality-baselines.json"

Ranker = Callable[[KnownItem], "int | None"]


@dataclass(frozen=True)
class Scores:
    """One system's figures over one set of queries."""

    count: int
    top1: float
    top5: float
    mrr: float


def scores(ranks: Sequence[int | None]) -> Scores:
    """Top-1, top-5 (shares) and MRR of known-item ranks (1-based; None: not returned)."""
    n = len(ranks)
    if not n:
        return Scores(0, 0.0, 0.0, 0.0)
    found = [r for r in ranks if r is not None]
    if any(r < 1 for r in found):
        raise ValueError("ranks start at 1")
    return Scores(
        n,
        sum(r == 1 for r in found) / n,
        sum(r <= 5 for r in found) / n,
        sum(1 / r for r in found) / n,
    )


def load_papers(path: Path) -> list[Paper]:
    """The corpus through the real importer (what a user's library would hold)."""
    from papershelf.storage.ingest.parse import parse_bytes

    return list(parse_bytes(path.read_bytes(), path.name).papers)


def targets_of(papers: Sequence[Paper]) -> list[Target]:
    return [Target(i, p.title or p.name, p.abstract) for i, p in enumerate(papers)]


def papershelf_ranker(papers: Sequence[Paper]) -> Ranker:
    engine = SearchEngine(papers)
    ids = [p.id for p in papers]

    def rank(item: KnownItem) -> int | None:
        position = engine.results(item.query, {}).position(ids[item.target])
        return None if position is None else position + 1

    return rank


def fzf_ranker(papers: Sequence[Paper], fzf: str, tmp: Path) -> Ranker:
    """fzf over "index TAB title abstract" lines, matching only after the tab (`--nth 2..`)."""
    lines = tmp / "fzf-lines.txt"
    lines.write_text(
        "".join(
            f"{i}\t{' '.join(f'{p.title or p.name} {p.abstract}'.split())}\n"
            for i, p in enumerate(papers)
        ),
        encoding="utf-8",
    )

    def rank(item: KnownItem) -> int | None:
        with lines.open("rb") as source:
            done = subprocess.run(
                [fzf, "--filter", item.plain, "--delimiter", "\t", "--nth", "2.."],
                stdin=source,
                capture_output=True,
                check=False,
            )
        for n, line in enumerate(done.stdout.splitlines(), 1):
            if int(line.split(b"\t", 1)[0]) == item.target:
                return n
        return None

    return rank


def rapidfuzz_ranker(papers: Sequence[Paper]) -> Ranker:
    from rapidfuzz import fuzz, process, utils

    titles = [p.title or p.name for p in papers]
    processed = [utils.default_process(t) for t in titles]

    def rank(item: KnownItem) -> int | None:
        query = utils.default_process(item.plain)
        found = process.extract(query, processed, scorer=fuzz.WRatio, limit=None)
        for n, (_, score, index) in enumerate(found, 1):
            if index == item.target:
                return n if score > 0 else None
        return None

    return rank


class RankCache:
    """Ranks of a baseline kept in a JSON file between runs, keyed by corpus, system and query."""

    def __init__(self, path: Path | None, corpus: bytes, size: int) -> None:
        self.path = path
        self.size = size
        self.corpus = hashlib.sha1(corpus, usedforsecurity=False).hexdigest()[:16]
        self.ranks: dict[str, int | None] = {}
        self.dirty = False
        if path is not None and path.exists():
            try:
                self.ranks = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self.ranks = {}

    def wrap(self, system: str, rank: Ranker) -> Ranker:
        def cached(item: KnownItem) -> int | None:
            key = f"{self.corpus} {self.size} {system} {item.target} {item.plain}"
            if key not in self.ranks:
                self.ranks[key] = rank(item)
                self.dirty = True
                if len(self.ranks) % 20 == 0:
                    self.save()  # a long run stopped midway keeps what it found
            return self.ranks[key]

        return cached

    def save(self) -> None:
        if self.path is not None and self.dirty:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.ranks), encoding="utf-8")
            tmp.replace(self.path)


def evaluate(items: Sequence[KnownItem], rank: Ranker) -> dict[str, Scores]:
    """Scores per category, and over all queries under "all"."""
    ranks: dict[str, list[int | None]] = {}
    for item in items:
        ranks.setdefault(item.category, []).append(rank(item))
    out = {c: scores(ranks[c]) for c in CATEGORIES if c in ranks}
    out["all"] = scores([r for rs in ranks.values() for r in rs])
    return out


def table(results: dict[str, dict[str, Scores]]) -> str:
    """A Markdown table: one row per category, top-1 / top-5 / MRR of each system."""
    systems = list(results)
    head = "| category | n | " + " | ".join(f"{s} top-1 / top-5 / MRR" for s in systems) + " |"
    lines = [head, "| --- | ---: |" + " ---: |" * len(systems)]
    for category in (*CATEGORIES, "all"):
        first = results[systems[0]].get(category)
        if first is None:
            continue
        cells = [
            f"{s.top1:.0%} / {s.top5:.0%} / {s.mrr:.2f}"
            for s in (results[system][category] for system in systems)
        ]
        lines.append(f"| {category} | {first.count} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def misses(
    items: Iterable[KnownItem], rank: Ranker, papers: Sequence[Paper], category: str
) -> None:
    """Print the queries of `category` whose paper is not first (to see where ranking loses)."""
    for item in items:
        if item.category != category:
            continue
        r = rank(item)
        if r != 1:
            print(f"{r!s:>5}  {item.query!r:50}  {papers[item.target].title!r:.90}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--per-category", type=int, default=80)
    parser.add_argument(
        "--library", type=int, default=0, help="the library: the corpus's first N papers (0: all)"
    )
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--no-fzf", action="store_true")
    parser.add_argument("--no-rapidfuzz", action="store_true")
    parser.add_argument("--cache", type=Path, default=CACHE, help="baseline ranks kept here")
    parser.add_argument("--no-cache", action="store_true", help="run the baselines afresh")
    parser.add_argument("--show-misses", metavar="CATEGORY", help="list papershelf's misses")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    papers = load_papers(args.corpus)
    if args.library:
        papers = papers[: args.library]
    cache = RankCache(None if args.no_cache else args.cache, args.corpus.read_bytes(), len(papers))
    items = Generator(targets_of(papers), args.seed).generate(args.per_category)
    print(
        f"{len(papers)} papers, {len(items)} queries (seed {args.seed}) in "
        f"{time.perf_counter() - start:.1f} s"
    )
    results: dict[str, dict[str, Scores]] = {}
    ours = papershelf_ranker(papers)
    if args.show_misses:
        misses(items, ours, papers, args.show_misses)
        return
    systems: list[tuple[str, Callable[[], Ranker]]] = [("papershelf", lambda: ours)]
    fzf = shutil.which("fzf")
    with tempfile.TemporaryDirectory(prefix="bench-quality-") as name:
        if fzf and not args.no_fzf:
            systems.append(("fzf", lambda: cache.wrap("fzf", fzf_ranker(papers, fzf, Path(name)))))
        elif not args.no_fzf:
            print("fzf not installed: its column is left out")
        if not args.no_rapidfuzz:
            systems.append(
                ("rapidfuzz WRatio", lambda: cache.wrap("WRatio", rapidfuzz_ranker(papers)))
            )
        for label, make in systems:
            start = time.perf_counter()
            results[label] = evaluate(items, make())
            cache.save()
            print(f"{label}: {time.perf_counter() - start:.1f} s")
    print()
    print(table(results))


if __name__ == "__main__":
    main()
