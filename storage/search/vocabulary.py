"""The sorted vocabulary of a search index and the tables that match a query word against it.

A token's id is its position in `tokens`. A prefix is a range of ids (bisect); a typo match
compares the word with the distinct prefixes of the right lengths (rapidfuzz); an infix is
found in the name and title tokens joined into one text (`head_table`). Split out of
`search.index`, which owns the postings and what a word matches in each field.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from itertools import accumulate, compress, repeat
from operator import contains, itemgetter

from papershelf.storage.search.lru import Lru
from papershelf.storage.search.quality import fuzzy_quality, match_quality, max_typos

_MAX_CHAR = "\U0010ffff"
_CONTAINING_CACHE_SIZE = 256
_CONTAINING_CACHE_BYTES = 4 << 20
"""Token ids of recent exact terms (`containing`), 4 bytes a token: `'e` alone is most of the
vocabulary (hundreds of thousands of tokens at 100k papers)."""


class Vocabulary:
    """Every token of an index, sorted, with the tables built from it on demand."""

    def __init__(
        self,
        tokens: list[str],
        head: Sequence[int],
        head_table: tuple[str, Sequence[int]] | None = None,
    ) -> None:
        self.tokens = tokens
        self.head = head
        """Ids of the tokens found in names or titles, ascending (where infixes are looked for)."""
        self._head_table = head_table
        self._prefix_tables: dict[tuple[int, str], list[str]] = {}
        self._containing: Lru[str, Sequence[int]] = Lru(
            _CONTAINING_CACHE_BYTES, _CONTAINING_CACHE_SIZE, _ids_weight
        )

    def token_id(self, token: str) -> int | None:
        """The position of `token` in the vocabulary, or None when no paper has it."""
        tid = bisect_left(self.tokens, token)
        return tid if tid < len(self.tokens) and self.tokens[tid] == token else None

    def prefix_range(self, prefix: str) -> tuple[int, int]:
        """tokens[lo:hi] are the tokens starting with `prefix`."""
        lo = bisect_left(self.tokens, prefix)
        return lo, bisect_left(self.tokens, prefix + _MAX_CHAR, lo)

    def warm(self) -> None:
        """Build the tables the first keystrokes need (prefix tables, the head table) and load
        rapidfuzz (its import took ~13 ms alone, 340 ms in the app while another worker held the
        interpreter): for a background worker."""
        for first in sorted({token[0] for token in self.tokens}):
            for length in range(4, 15):
                self.prefix_table(length, first)
        self.infix_matches("zzz")
        self.typo_matches("zzzzz", 0, 0)
        match_quality("zzzzz", "zzzzy")

    def clear_caches(self) -> None:
        """Forget the tables (benchmarks measure cold searches with this)."""
        self._head_table = None
        self._prefix_tables.clear()
        self._containing.clear()

    def prefix_table(self, length: int, first: str) -> list[str]:
        """The distinct `token[:length]` of the tokens starting with `first`: the prefixes of
        that length, and the shorter tokens whole (callers skip those: one C-level pass here
        costs a third of a filtering Python loop, and a CLI query builds ten of these)."""
        key = (length, first)
        table = self._prefix_tables.get(key)
        if table is None:
            lo, hi = self.prefix_range(first)
            cut = itemgetter(slice(None, length))
            table = self._prefix_tables[key] = list(set(map(cut, self.tokens[lo:hi])))
        return table

    def typo_matches(self, word: str, lo: int, hi: int) -> dict[int, int]:
        """Token id -> fuzzy quality, for tokens outside vocab[lo:hi] matched with typos."""
        k = max_typos(word, known=lo < hi)
        found: dict[int, int] = {}
        if not k:
            return found
        from rapidfuzz import process  # imported on first use: a quick CLI run may not need it
        from rapidfuzz.distance import OSA

        vocab = self.tokens
        for length in range(max(1, len(word) - k), len(word) + k + 1):
            for first in dict.fromkeys(word[:2]):
                prefixes = self.prefix_table(length, first)
                for prefix, distance, _ in process.extract(
                    word, prefixes, scorer=OSA.distance, score_cutoff=k, limit=None
                ):
                    if len(prefix) != length:
                        continue  # a whole token shorter than `length`, not its prefix
                    if distance == 0 and length >= len(word):
                        continue  # an exact prefix: already in the prefix range
                    start, end = self.prefix_range(prefix)
                    for tid in range(start, end):
                        if lo <= tid < hi:
                            continue
                        quality = fuzzy_quality(distance, len(vocab[tid]) == length)
                        if quality > found.get(tid, 0):
                            found[tid] = quality
        return found

    def containing(self, value: str) -> Sequence[int]:
        """Ids of the tokens containing `value` anywhere (cached: typing `'diff` asks for `d`,
        `di`, ...; each is looked for among the tokens of the previous one, in C)."""
        found = self._containing.get(value)
        if found is None:
            tokens = self.tokens
            within = self._containing.get(value[:-1]) if len(value) > 1 else None
            if within is None and len(value) > 1:
                within = self._containing.get(value[1:])
            if within is None:
                held = map(contains, tokens, repeat(value))
                found = array("I", compress(range(len(tokens)), held))
            else:
                held = map(contains, map(tokens.__getitem__, within), repeat(value))
                found = array("I", compress(within, held))
            self._containing.put(value, found)
        return found

    def head_table(self) -> tuple[str, Sequence[int]]:
        """The name and title tokens (`head`) joined by newlines, and where each starts."""
        if self._head_table is None:
            # C-level loops: every query word of 3+ letters needs this table (~12k tokens at
            # 10k papers); a saved index carries it (`parts`).
            tokens = list(map(self.tokens.__getitem__, self.head))
            joined = "\n" + "\n".join(tokens) + "\n"
            # Token j starts after the leading newline and the j tokens (+ newline) before it.
            starts = list(accumulate(map((1).__add__, map(len, tokens)), initial=1))
            starts.pop()
            self._head_table = (joined, starts)
        return self._head_table

    def infix_matches(self, word: str) -> list[int]:
        """Ids of name/title tokens containing `word` after their first character."""
        head = self.head
        joined, offsets = self.head_table()
        found: list[int] = []
        position = joined.find(word)
        while position != -1:
            slot = bisect_left(offsets, position + 1) - 1
            if joined[position - 1] != "\n":  # not at the token's start: prefixes are elsewhere
                found.append(head[slot])
            nxt = offsets[slot + 1] if slot + 1 < len(offsets) else len(joined)
            position = joined.find(word, max(position + 1, nxt))
        return found


def _ids_weight(ids: Sequence[int]) -> int:
    """The bytes of a kept list of token ids (an `array('I')`)."""
    return 64 + 4 * len(ids)
