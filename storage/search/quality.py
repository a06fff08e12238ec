"""How one query word matches one text token, and what a match scores.

A match has a quality (exact > prefix > infix > typo) and a field weight (name > title > tags >
authors > note > abstract twice > abstract); a paper's score for a word is the best weight x
quality, times the word's idf (`word_idf`: rare words count more).
`match_quality` is the reference definition; `search.index` computes the same answers for a
whole vocabulary at once, and `search.run` for the tags and notes of the user's entries.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

INFIX_FIELDS = frozenset({"name", "title", "tags", "note"})
"""Fields where a word may match inside a token (`gnn` in RelGNN); not the abstract (noise)."""

# Match qualities (higher is better), from the best way a query word matches a text token.
EXACT, PREFIX, INFIX, FUZZY1, FUZZY_PREFIX1, FUZZY2, FUZZY_PREFIX2 = 10, 8, 6, 6, 5, 4, 3
FINISHED_PREFIX = 4
"""The quality of a prefix match for a query word followed by another (its typing is done):
`train identify` means train, and only weakly training; the last word typed keeps `PREFIX`."""
FIELD_WEIGHTS = {"name": 10, "title": 9, "tags": 8, "authors": 7, "note": 5, "abstract": 3}
"""A word's score in a paper: best field weight x quality (a title typo beats an abstract hit).
Only `author:` terms look in the authors."""
REPEATED_WEIGHT = 4
"""The weight of an abstract that says the word twice or more (BM25 with k1 = 1.2 gives a second
occurrence a third more than the first; a third adds less, and is not counted)."""


def word_idf(matches: int, size: int) -> float:
    """How much finding a query word says about a paper: BM25's idf of a word that `matches` of
    `size` papers hold, ln(1 + (N - n + 0.5) / (n + 0.5)), rounded so that equal sums stay equal.

    A word's score in a paper is its best weight x quality times this, so `rlhf` in an abstract
    outweighs `dataset` in a title; a word every paper holds still counts a little (> 0).
    """
    return round(math.log(1 + (size - matches + 0.5) / (matches + 0.5)), 4)


K1 = 1.2
"""BM25's k1: how fast a word's score saturates with how strongly a paper holds it."""
_UNIT = FIELD_WEIGHTS["abstract"] * EXACT
"""The weight that counts as one plain occurrence (the word once in the abstract)."""


LENGTH_B = 0.3
"""BM25's b: how much an abstract's length against the average scales its words' weight."""


@lru_cache(maxsize=4096)
def saturated(weight: int, length: float = 1.0) -> float:
    """A tier's weight as BM25F counts it: weight / `_UNIT` as a term frequency, saturated
    (tf (k1 + 1) / (tf + k1 norm)). Field weights order the tiers, but summed over several
    words a title match counts 1.6 times an abstract one, not 3 times: a rare word found in the
    abstract outweighs a common one found in the title.

    `length`: the abstract's length against the average, for an abstract tier (BM25's norm,
    1 - b + b length): the same word counts more in a short abstract than in a long one."""
    tf = weight / _UNIT
    norm = 1 - LENGTH_B + LENGTH_B * length
    return round(tf * (K1 + 1) / (tf + K1 * norm), 4)


def max_typos(word: str, known: bool = True) -> int:
    """Typos a word of this length tolerates: none below 5 characters, 2 from 9; one in a
    4-letter word that no token starts (`known` False: `stae` is state, `csts` costs), where
    a word that is one (`mode`) would find too many others (more, made)."""
    n = len(word)
    if n == 4 and not known:
        return 1
    return 0 if n < 5 else 1 if n < 9 else 2


T = TypeVar("T")
RARE_TYPO = 2
"""A token in at most this many papers, one typo from a word the user typed right, is taken
for a misspelling of it in those papers (`difusion` in a title is found by `diffusion`)."""
TYPO_ODDS = 10
"""How many times as many papers as the word finds as typed a token one typo away must be in
to be searched for too: a word people type is far likelier meant as typed than as a typo of
another (`stage` is not state, `count` not contextual), unless the other is far more common
(`shard`, in a few papers, cut from shared)."""


def likely_typos(found: Mapping[T, int], typed: int, count: Callable[[T], int]) -> dict[T, int]:
    """The typo matches (token -> typo quality) worth searching for: the noisy channel of
    spelling correction, how likely the typo times how common the word meant.

    - Two typos only when no token is one typo away: `transfomer` is transformer, not also
      transfer.
    - A word that finds papers as typed (`typed`: the papers holding it or a token it starts)
      has only one-typo matches, to tokens in at least `TYPO_ODDS` times as many papers
      (`count`: papers holding a token in name, title or abstract), or rare (in at most
      `RARE_TYPO` papers: a misspelling in a paper's text): `model` finds mdoels but not modal
      and moderate, `stage` not state; `langauge`, in one paper, finds language.
    """
    if not found:
        return dict(found)
    kept = dict(found)
    if typed or any(q >= FUZZY_PREFIX1 for q in kept.values()):
        kept = {token: q for token, q in kept.items() if q >= FUZZY_PREFIX1}
    if typed:
        least = TYPO_ODDS * typed
        kept = {
            token: q
            for token, q in kept.items()
            if count(token) >= least or count(token) <= RARE_TYPO
        }
    return kept


def match_quality(word: str, token: str, infix: bool = False, known: bool = True) -> int:
    """How `token` (a text token) matches `word` (a query token): a quality, or 0 for no match.

    The reference definition; the index computes the same answers for the whole vocabulary at once.
    A typo match compares the word with the token's prefixes within `max_typos` of its length
    (optimal string alignment distance: a transposition is one typo), so `trasnf` matches
    transformer and `difusion` matches diffusion. The token must start with the word's first or
    second letter (a swapped first pair is still found): this keeps typo search to a few
    thousand candidates, as search engines' "prefix length" does. `known`: whether any token
    starts with the word (see `max_typos`).
    """
    if token == word:
        return EXACT
    if token.startswith(word):
        return PREFIX
    if infix and len(word) >= 3 and word in token:
        return INFIX
    k = max_typos(word, known)
    if not k or token[0] not in word[:2]:
        return 0
    from rapidfuzz.distance import OSA  # imported on first use: a quick CLI run may not need it

    best = 0
    for j in range(max(1, len(word) - k), min(len(token), len(word) + k) + 1):
        d = OSA.distance(word, token[:j], score_cutoff=k)
        if d <= k:
            best = max(best, fuzzy_quality(d, j == len(token)))
    return best


def fuzzy_quality(distance: int, whole: bool) -> int:
    """The quality of a typo match at `distance` of the whole token or of its prefix."""
    if distance == 0:
        return EXACT if whole else PREFIX
    if distance == 1:
        return FUZZY1 if whole else FUZZY_PREFIX1
    return FUZZY2 if whole else FUZZY_PREFIX2


@dataclass(frozen=True, slots=True)
class Tier:
    """Papers in which a word matches `field` with `quality` (best tiers come first)."""

    weight: int
    field: str
    bits: int
    prefix: bool = False
    """Tokens the word is a proper prefix of (`diff` in diffusion): weaker for a word the user
    has finished typing (`FINISHED_PREFIX`)."""
    idf: float = 0.0
    """The idf this tier's matches score with (a prefix's band of rare completions, see
    `SearchIndex._prefix_bands`); 0: the idf of the word's papers."""


@dataclass(frozen=True, slots=True)
class WordMatch:
    """Everything about one query token that does not depend on the user's entries."""

    word: str
    tiers: tuple[Tier, ...]
    """Sorted by weight, best first; a paper's score is the weight of the first tier holding it."""
    bits: int
    """Every paper the word matches in an indexed field."""
    typo_tokens: frozenset[str]
    """Vocabulary tokens matched only with typos (prefix and infix matches are implied by word)."""
