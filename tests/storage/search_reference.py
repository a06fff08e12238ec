"""The brute-force reference of which typo matches a search keeps (`quality.likely_typos`), for
the property tests that check the index against every paper's tokens.

It reads the papers' tokens directly (no index): the vocabulary is every token of name, title,
authors and abstract; a token's count is the papers holding it in name, title or abstract.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from papershelf.storage.model import Paper
from papershelf.storage.search.index import field_tokens
from papershelf.storage.search.quality import likely_typos, match_quality


class ReferenceTypos:
    """`quality(word, token, infix)`: `match_quality`, less the typo matches a search drops."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.counts: dict[str, int] = {}
        self.held: list[set[str]] = []
        vocab: set[str] = set()
        for paper in papers:
            held: set[str] = set()
            for field in ("name", "title", "abstract"):
                held |= field_tokens(field, getattr(paper, field) or "")
            for token in held:
                self.counts[token] = self.counts.get(token, 0) + 1
            self.held.append(held)
            vocab |= held | field_tokens("authors", ", ".join(paper.authors))
        self.vocab = sorted(vocab)
        self.kept = cache(self._kept)
        self.known = cache(self._known)

    def _kept(self, word: str) -> frozenset[str]:
        known = self.known(word)
        found = {
            token: quality
            for token in self.vocab
            if not token.startswith(word) and (quality := match_quality(word, token, False, known))
        }
        # The papers holding the word as typed: itself or a token it starts.
        typed = sum(1 for held in self.held if any(t.startswith(word) for t in held))
        return frozenset(likely_typos(found, typed, lambda t: self.counts.get(t, 0)))

    def _known(self, word: str) -> bool:
        """Whether any token starts with `word` (a 4-letter word no token starts has typos)."""
        return any(token.startswith(word) for token in self.vocab)

    def quality(self, word: str, token: str, infix: bool = False) -> int:
        quality = match_quality(word, token, infix, self.known(word))
        if not quality or token.startswith(word):
            return quality
        if infix and len(word) >= 3 and word in token:
            return quality  # an infix match, not a typo
        return quality if token in self.kept(word) else 0
