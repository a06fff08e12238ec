"""`search.lengths`: abstract length codes and the buckets ranking weighs them by."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.search.lengths import Lengths, flags_to_bits, length_code
from papershelf.storage.search.postings import bits_to_ids


def test_length_codes() -> None:
    assert length_code(0) == 0
    assert length_code(1) == 1  # any text is not "none"
    assert length_code(200) == 50
    assert length_code(10**6) == 255


@given(st.lists(st.booleans(), max_size=300))
def test_flags_to_bits(flags: list[bool]) -> None:
    bits = flags_to_bits(bytes(flags))
    assert bits_to_ids(bits) == [i for i, flag in enumerate(flags) if flag]


@given(st.lists(st.integers(0, 255), max_size=200))
def test_buckets_hold_every_paper_once_shortest_first(codes: list[int]) -> None:
    buckets = Lengths(bytes(codes)).buckets()
    ratios = [ratio for ratio, _ in buckets]
    assert ratios == sorted(ratios)
    assert all(0.5 <= ratio <= 2 for ratio in ratios)
    seen: list[int] = []
    for _, bits in buckets:
        assert bits
        seen += bits_to_ids(bits)
    assert sorted(seen) == list(range(len(codes)))


def test_a_paper_twice_the_average_is_in_the_longest_bucket() -> None:
    buckets = Lengths(bytes([50, 50, 50, 50, 100, 25, 0])).buckets()
    by_paper = {i: ratio for ratio, bits in buckets for i in bits_to_ids(bits)}
    average = (50 * 4 + 100 + 25) / 6
    assert by_paper[4] == round(2 ** (round(2 * math.log2(100 / average)) / 2), 4)
    assert by_paper[5] < by_paper[0] < by_paper[4]
    assert by_paper[6] == 0.5  # no abstract: the shortest (no abstract tier to weigh)
