"""How well any ranker can do on bench_quality's queries: the generator's own model as a ranker.

Run:  /work/venv/bin/python bench/quality_ceiling.py [--library 2000] [--seed 14]

`quality_queries.Generator` draws a query's words from one paper's distinct words, each with a
chance proportional to its idf. Given a query, the paper likeliest to have produced it is the
one holding every word (a prefix: some word it starts) whose words' idf sum is smallest: that
is this script's ranker, which reads the generator's own tokenizer and idf, so no real ranker
(which cannot know them) should beat it by more than chance. Many queries are words several
papers hold alike (`degradation specifically`): this prints the top-1 that even this model
reaches per category, the ceiling against which the issue's 95% should be read.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from quality_queries import Generator, KnownItem, words  # bench/ (this folder)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench_quality import CORPUS, load_papers, targets_of  # noqa: E402

MODELLED = ("exact", "order", "prefix", "natural")
"""Categories whose words the model can match without a typo model."""


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--library", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--per-category", type=int, default=80)
    args = parser.parse_args()
    papers = load_papers(args.corpus)
    if args.library:
        papers = papers[: args.library]
    targets = targets_of(papers)
    generator = Generator(targets, args.seed)
    idf = generator.idf
    items = generator.generate(args.per_category)
    held = [set(words(t.title)) | set(words(t.abstract)) for t in targets]
    mass = [sum(idf[w] for w in paper) for paper in held]
    for category in MODELLED:
        chosen = [item for item in items if item.category == category]
        first = sum(_best(item, held, mass, idf) == item.target for item in chosen)
        print(f"{category:8} top-1 {first / max(1, len(chosen)):.0%} ({first} of {len(chosen)})")


def _best(item: KnownItem, held: list[set[str]], mass: list[float], idf: dict[str, float]) -> int:
    """The paper likeliest to have produced `item` (ties: the first in library order)."""
    best, best_score = -1, -math.inf
    for index, paper in enumerate(held):
        score = 0.0
        for word in item.query.split():
            if item.category == "prefix":
                # The word was cut from one of 5+ letters, to 4..len-1 letters at random.
                chance = sum(
                    idf[w] / (len(w) - 4)
                    for w in paper
                    if len(w) >= 5 and len(w) > len(word) and w.startswith(word)
                )
            else:
                chance = idf[word] if word in paper else 0.0
            if not chance:
                break
            score += math.log(chance / mass[index])
        else:
            if score > best_score:
                best, best_score = index, score
    return best


if __name__ == "__main__":
    main()
