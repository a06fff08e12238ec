"""How long each paper's abstract is, for BM25's length normalisation, kept as a few bitsets.

A word found in a short abstract says more about the paper than the same word in a long one
(BM25's `b`): a paper with fewer words is likelier to be the one meant by any of them. Each
paper's abstract length is one byte, a code (its words / `CODE_WORDS`, capped at 255), so 100k
papers keep 100 KB in the index. For ranking, papers fall into buckets by their length against
the average, half an octave apart (`Lengths.buckets`): one bitset each, so `search.run` scores
each bucket's papers with that bucket's weights without a loop over the papers.
"""

from __future__ import annotations

import math

CODE_WORDS = 4
"""Words per step of a length code."""
_STEPS = 2
"""Buckets per doubling of the length (half an octave: about 41% apart; a quarter octave
ranked no better and cost twice the scoring)."""
_SPAN = 2
"""Buckets on each side of the average: from half the average length to twice it."""
_TO_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def length_code(words: int) -> int:
    """The code of an abstract of `words` words: 0 only for none."""
    if words <= 0:
        return 0
    return max(1, min(255, (words + CODE_WORDS // 2) // CODE_WORDS))


def flags_to_bits(flags: bytes) -> int:
    """A bitset from one 0/1 byte per paper (C-level: a translation and one int parse)."""
    if not flags:
        return 0
    return int(flags.translate(_TO_DIGITS)[::-1], 2)


class Lengths:
    """The abstract length code of every paper, in library order, and its buckets."""

    __slots__ = ("_buckets", "codes")

    def __init__(self, codes: bytes) -> None:
        self.codes = codes
        self._buckets: list[tuple[float, int]] | None = None

    def __len__(self) -> int:
        return len(self.codes)

    def buckets(self) -> list[tuple[float, int]]:
        """(length / average length, papers) per bucket holding any paper, shortest first;
        together they hold every paper (one without an abstract in the shortest)."""
        if self._buckets is None:
            self._buckets = self._make()
        return self._buckets

    def _make(self) -> list[tuple[float, int]]:
        codes = self.codes
        with_text = len(codes) - codes.count(0)
        if not with_text:
            return [(1.0, flags_to_bits(b"\x01" * len(codes)))] if codes else []
        average = sum(codes) / with_text
        step = []
        for code in range(256):
            ratio = code / average
            k = round(_STEPS * math.log2(ratio)) if ratio > 0 else -_SPAN
            step.append(max(-_SPAN, min(_SPAN, k)) + _SPAN)
        bucketed = codes.translate(bytes.maketrans(bytes(range(256)), bytes(step)))
        found = []
        for bucket in sorted(set(bucketed)):
            table = bytes.maketrans(bytes(range(256)), bytes(int(b == bucket) for b in range(256)))
            ratio = 2 ** ((bucket - _SPAN) / _STEPS)
            found.append((round(ratio, 4), flags_to_bits(bucketed.translate(table))))
        return found
