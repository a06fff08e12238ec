"""Known-item queries for `bench_quality.py`, simulated from the papers themselves.

The simulated-query method of the IR literature (Azzopardi, de Rijke and Balog, "Building
simulated queries for known-item topics", SIGIR 2007): pick a target paper, draw a few of its
words with a chance proportional to how discriminative they are (their idf over the corpus),
then write them the way a person might. The rules below are fixed and know nothing about any
ranker: this module does not import papershelf, and its words come from its own tokenizer.

Categories (`CATEGORIES`), each with 2 to 4 words unless said otherwise:
- exact: words of the title and abstract, as written, in the order they appear there;
- order: the same kind of draw, shuffled into an order that differs from the text's;
- prefix: each word of 5+ letters cut to a prefix of 4 to len-1 letters (typing stopped early);
- typo: one word of 5+ letters carries one typo (a letter inserted, deleted, replaced, or two
  neighbours swapped; never the first letter, which people rarely get wrong);
- misspelt: every word (5+ letters) carries one such typo;
- operator: the query language's field keys and phrases, in turn: `title:w` and two words,
  `abstract:w` and two words, `"two neighbouring abstract words"` and one title word;
- natural: 3 to 5 words of the abstract that are not in the title, shuffled (a description of
  what the paper does, by someone who forgot its title).
Words are 3+ letters, not stopwords; a paper too short for a category's rule is skipped for it.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

CATEGORIES = ("exact", "order", "prefix", "typo", "misspelt", "operator", "natural")

_LATEX = re.compile(r"\\[A-Za-z]+|\$[^$]*\$")
_WORD = re.compile(r"[a-z]{3,}")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_STOPWORD_TEXT = """
    the and for with that this from are was were our their its into over under via using use
    used can not but which these those than then them they such also both each more most other
    some any all only very well when where while what who how has have had been being between
    about after before through during without within across upon per may might will would should
    could does did done here there thus hence however therefore based show shows shown propose
    proposed new novel approach method methods paper work results result present presents study
    first second two three one many much often further able make makes made while yet"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


@dataclass(frozen=True)
class Target:
    """A paper as the generator sees it: where it is and its words."""

    index: int
    title: str
    abstract: str


@dataclass(frozen=True)
class KnownItem:
    """One query and the paper (its index in the library) it was made from."""

    category: str
    query: str
    plain: str
    """The query's words without operators (`title:`, quotes), for baselines without them."""
    target: int


def words(text: str) -> list[str]:
    """The generator's own words of a text: lower-case ASCII letters, 3+, no LaTeX commands."""
    return [w for w in _WORD.findall(_LATEX.sub(" ", text).lower()) if w not in STOPWORDS]


class Generator:
    """Seeded query generator over a fixed list of papers (title, abstract)."""

    def __init__(self, targets: Sequence[Target], seed: int = 14) -> None:
        self.targets = list(targets)
        self.rng = random.Random(seed)
        df: Counter[str] = Counter()
        for target in self.targets:
            df.update(set(words(target.title)) | set(words(target.abstract)))
        n = max(1, len(self.targets))
        self.idf = {word: math.log(n / count) + 0.1 for word, count in df.items()}

    def draw(self, pool: Sequence[str], k: int, min_len: int = 3) -> list[str]:
        """k distinct words of `pool`, each drawn with a chance proportional to its idf."""
        candidates = sorted({w for w in pool if len(w) >= min_len})
        chosen: list[str] = []
        while candidates and len(chosen) < k:
            weights = [self.idf[w] for w in candidates]
            pick = self.rng.choices(candidates, weights)[0]
            chosen.append(pick)
            candidates.remove(pick)
        return chosen if len(chosen) == k else []

    def typo(self, word: str) -> str:
        """`word` with one edit after its first letter that changes it."""
        while True:
            i = self.rng.randrange(1, len(word))
            kind = self.rng.choice(("insert", "delete", "replace", "swap"))
            if kind == "insert":
                out = word[:i] + self.rng.choice(_LETTERS) + word[i:]
            elif kind == "delete":
                out = word[:i] + word[i + 1 :]
            elif kind == "replace":
                out = word[:i] + self.rng.choice(_LETTERS.replace(word[i], "")) + word[i + 1 :]
            elif i + 1 < len(word) and word[i] != word[i + 1]:
                out = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
            else:
                continue
            if out != word:
                return out

    def item(self, category: str, target: Target, n: int) -> KnownItem | None:
        """A query of `category` for `target` (the n-th of its category), or None."""
        rng = self.rng
        title, abstract = words(target.title), words(target.abstract)
        both = title + abstract
        k = rng.randint(2, 4)
        if category in ("exact", "order"):
            chosen = self.draw(both, k)
            if not chosen:
                return None
            ordered = sorted(chosen, key=both.index)
            if category == "exact":
                return _item(category, ordered, target)
            shuffled = ordered[:]
            while shuffled == ordered:
                rng.shuffle(shuffled)
            return _item(category, shuffled, target)
        if category == "prefix":
            chosen = self.draw(both, k, min_len=5)
            cut = [w[: rng.randint(4, len(w) - 1)] for w in chosen]
            return _item(category, cut, target) if chosen else None
        if category in ("typo", "misspelt"):
            chosen = self.draw(both, k, min_len=5)
            if not chosen:
                return None
            if category == "typo":
                i = rng.randrange(len(chosen))
                chosen[i] = self.typo(chosen[i])
            else:
                chosen = [self.typo(w) for w in chosen]
            return _item(category, chosen, target)
        if category == "operator":
            return self._operator(target, title, abstract, n)
        if category == "natural":
            only = [w for w in abstract if w not in set(title)]
            chosen = self.draw(only, rng.randint(3, 5))
            return _item(category, chosen, target) if chosen else None
        raise ValueError(category)

    def _operator(
        self, target: Target, title: list[str], abstract: list[str], n: int
    ) -> KnownItem | None:
        form = n % 3
        if form == 0:
            key = self.draw(title, 1)
            rest = self.draw([w for w in title + abstract if w not in key], 2)
            if not key or not rest:
                return None
            return KnownItem(
                "operator", f"title:{key[0]} {' '.join(rest)}", " ".join(key + rest), target.index
            )
        if form == 1:
            key = self.draw(abstract, 1)
            rest = self.draw([w for w in title + abstract if w not in key], 2)
            if not key or not rest:
                return None
            return KnownItem(
                "operator",
                f"abstract:{key[0]} {' '.join(rest)}",
                " ".join(key + rest),
                target.index,
            )
        # A phrase: two words next to each other in the abstract as written (no stopword
        # between them), and one title word.
        raw = _LATEX.sub(" ", target.abstract).lower().split()
        pairs = [
            (a, b)
            for a, b in pairwise(raw)
            if _WORD.fullmatch(a)
            and _WORD.fullmatch(b)
            and a not in STOPWORDS
            and b not in STOPWORDS
        ]
        word = self.draw(title, 1)
        if not pairs or not word:
            return None
        weights = [self.idf.get(a, 0.1) + self.idf.get(b, 0.1) for a, b in pairs]
        a, b = self.rng.choices(pairs, weights)[0]
        return KnownItem("operator", f'"{a} {b}" {word[0]}', f"{a} {b} {word[0]}", target.index)

    def generate(self, per_category: int) -> list[KnownItem]:
        """`per_category` queries of each category, each for a target drawn at random."""
        items: list[KnownItem] = []
        for category in CATEGORIES:
            made, tries = 0, 0
            while made < per_category and tries < per_category * 20:
                tries += 1
                target = self.rng.choice(self.targets)
                item = self.item(category, target, made)
                if item is not None:
                    items.append(item)
                    made += 1
        return items


def _item(category: str, chosen: list[str], target: Target) -> KnownItem:
    query = " ".join(chosen)
    return KnownItem(category, query, query, target.index)
