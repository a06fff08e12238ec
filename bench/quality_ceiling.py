"""How well any ranker can do on bench_quality's queries: the generator's own model as a ranker.

Run:  /work/venv/bin/python bench/quality_ceiling.py [--library 2000] [--seed 14]

`quality_queries.Generator` draws a query's words from one paper's distinct words, each with a
chance proportional to its idf. Given a query, the paper likeliest to have produced it is the
one holding every word (a prefix: some word it starts) whose words' idf sum is smallest: that
is this script's ranker, which reads the generator's own tokenizer and idf, so no real ranker
(which cannot know them) should beat it by more than chance. Many queries are words several
papers hold alike (`degradation specifically`): this prints the top-1 that even this model
reaches per category, the ceiling against which the issue's 95% should be read.

Typos (`typo`, `misspelt`) are modelled with the generator's own typo rule too: a query word w
comes from a paper word v (of 5+ letters, as the generator draws for these categories) with the
chance that `Generator.typo(v)` returns w (one edit after the first letter, each position and
kind alike), for the one word in k of a `typo` query or every word of a `misspelt` one; so the
model knows, as no ranker can, which kinds of typos the generator makes and how often.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from functools import cache
from pathlib import Path

from quality_queries import _LETTERS, Generator, KnownItem, words  # bench/ (this folder)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench_quality import CORPUS, load_papers, targets_of  # noqa: E402

MODELLED = ("exact", "order", "prefix", "typo", "misspelt", "natural")
"""Categories the model ranks (the operator queries' phrases and fields it does not model)."""
TYPO_MIN = 5
"""The generator draws typo queries' words among those of this many letters or more."""


@cache
def typo_chances(word: str) -> dict[str, float]:
    """Each string `Generator.typo(word)` may return, with its chance: a position after the
    first letter and a kind (insert, delete, replace, swap), alike; a swap of two equal or
    missing neighbours is drawn again."""
    out: Counter[str] = Counter()
    draws = 0
    for i in range(1, len(word)):
        draws += 3
        for letter in _LETTERS:
            out[word[:i] + letter + word[i:]] += 1 / 26
        out[word[:i] + word[i + 1 :]] += 1
        for letter in _LETTERS.replace(word[i], ""):
            out[word[:i] + letter + word[i + 1 :]] += 1 / 25
        if i + 1 < len(word) and word[i] != word[i + 1]:
            draws += 1
            out[word[:i] + word[i + 1] + word[i] + word[i + 2 :]] += 1
    return {typed: chance / draws for typed, chance in out.items()}


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
    long = [{w for w in paper if len(w) >= TYPO_MIN} for paper in held]
    model = Model(idf, held, long)
    for category in MODELLED:
        chosen = [item for item in items if item.category == category]
        first = sum(model.best(item) == item.target for item in chosen)
        print(f"{category:8} top-1 {first / max(1, len(chosen)):.0%} ({first} of {len(chosen)})")


class Model:
    """The generator's model of a query given a paper, as a ranker."""

    def __init__(self, idf: dict[str, float], held: list[set[str]], long: list[set[str]]) -> None:
        self.idf = idf
        self.held, self.long = held, long
        self.mass = [sum(idf[w] for w in paper) for paper in held]
        self.long_mass = [sum(idf[w] for w in paper) for paper in long]
        self.by_first: dict[str, list[str]] = {}
        for word in sorted({w for paper in long for w in paper}):
            self.by_first.setdefault(word[0], []).append(word)

    def sources(self, item: KnownItem, word: str) -> dict[str, float]:
        """The paper words `word` may have come from, each with the chance it came so."""
        if item.category == "prefix":
            # Cut from a word of 5+ letters, to 4..len-1 letters at random.
            return {
                w: 1 / (len(w) - 4)
                for w in self.by_first.get(word[0], ())
                if len(w) > len(word) and w.startswith(word)
            }
        if item.category not in ("typo", "misspelt"):
            return {word: 1.0}
        typo = 1.0 if item.category == "misspelt" else 1 / len(item.query.split())
        found = {word: 1 - typo} if typo < 1 and word in self.idf else {}
        for w in self.by_first.get(word[0], ()):
            if abs(len(w) - len(word)) <= 1:
                chance = typo_chances(w).get(word, 0.0)
                if chance:
                    found[w] = found.get(w, 0.0) + typo * chance
        return found

    def best(self, item: KnownItem) -> int:
        """The paper likeliest to have produced `item` (ties: the first in library order)."""
        drawn_long = item.category in ("prefix", "typo", "misspelt")
        held, mass = (self.long, self.long_mass) if drawn_long else (self.held, self.mass)
        sources = [self.sources(item, word) for word in item.query.split()]
        best, best_score = -1, -math.inf
        for index, paper in enumerate(held):
            score = 0.0
            for found in sources:
                chance = sum(self.idf[w] * p for w, p in found.items() if w in paper)
                if not chance:
                    break
                score += math.log(chance / mass[index])
            else:
                if score > best_score:
                    best, best_score = index, score
        return best


if __name__ == "__main__":
    main()
