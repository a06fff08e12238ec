"""Ranking a search's papers as bitsets: scores summed per group of papers, never per paper.

`search.run` knows a query's scoring units (one per query word: tiers of papers, best first; a
paper scores the weight of the first tier holding it) and the papers that satisfy every clause.
At 100,000 papers a one-letter word matches nearly all of them: adding each tier's weight paper
by paper and sorting 100k scores took most of a keystroke. Here papers that score the same are
one bitset (`score_groups`), so the work grows with the number of distinct scores (tens), and
papers are listed (`bits_to_ids`) once, already in rank order. Pure functions of bitsets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import partial

from papershelf.storage.search.hits import Results
from papershelf.storage.search.postings import bits_to_flags, bits_to_ids
from papershelf.storage.search.quality import Tier

_RUN = re.compile(rb"(.)\1*", re.DOTALL)
"""A run of one repeated byte (a field code)."""
_FEW_PAPERS = 64
"""A group of at most this many papers has each paper's field looked up (`add_group`)."""


def score_groups(
    result: int,
    units: Iterable[Sequence[Tier]],
    weights: Sequence[Sequence[float]] | None = None,
) -> dict[float, int]:
    """The papers of `result` grouped by total score: the sum over `units` of the weight of the
    unit's first tier (best first) holding the paper, 0 for a unit that holds it nowhere.

    The same sums, added in the same order, as adding weights paper by paper. `weights` (one
    list per unit, one weight per tier) scores the tiers instead of their own `weight` (which
    still orders them): the ranking's BM25F-style saturated, idf-scaled weights.
    """
    groups: dict[float, int] = {0: result} if result else {}
    for number, unit in enumerate(units):
        # `rest`: the papers of `result` no tier of this unit holds so far. One `&` and one
        # `^` of positive ints a tier: `& ~assigned` made a negative int first, 8 times the
        # cost of an `&` at 100k papers, and did so for every group too.
        rest = result
        parts: list[tuple[float, int]] = []
        for position, tier in enumerate(unit):
            fresh = tier.bits & rest
            if fresh:
                rest ^= fresh
                weight = tier.weight if weights is None else weights[number][position]
                parts.append((weight, fresh))
        if not parts:
            continue
        grown: dict[float, int] = {}
        get = grown.get
        for score, group in groups.items():
            left = group & rest
            if left:
                grown[score] = get(score, 0) | left
                group ^= left
            # The parts are disjoint: once each of the group's papers is placed, the rest of
            # them holds none (most groups are a few papers, placed by the first parts).
            for weight, fresh in parts:
                part = group & fresh
                if part:
                    key = score + weight
                    grown[key] = get(key, 0) | part
                    group ^= part
                    if not group:
                        break
        groups = grown
    return groups


def best_fields(result: int, tiers: Iterable[Tier], order: Sequence[str]) -> list[tuple[str, int]]:
    """Each paper of `result` under one field: that of its best-weighted tier, ties broken by
    `order` (a field list); papers in no tier fall under "". Fields in `order`'s order."""
    rank = {field: n for n, field in enumerate(order)}
    by_field: dict[str, int] = {}
    rest = result  # the papers no tier so far holds
    for tier in sorted(tiers, key=lambda t: (-t.weight, rank[t.field])):
        fresh = tier.bits & rest
        if fresh:
            rest ^= fresh
            by_field[tier.field] = by_field.get(tier.field, 0) | fresh
    fields = sorted(by_field.items(), key=lambda item: rank[item[0]])
    if rest:
        fields.append(("", rest))
    return fields


def add_group(
    hits: Results, group: int, score: float, fields: Sequence[tuple[str, int]], size: int
) -> None:
    """Append the papers of `group` (one score) in library order, each under its field in
    `fields` (disjoint bitsets): runs of one field share one `add`."""
    present = [(field, bits & group) for field, bits in fields if bits & group]
    if not present:
        return
    ids = bits_to_ids(group)
    if len(present) == 1:
        hits.add(ids, score, present[0][0])
        return
    if len(ids) <= _FEW_PAPERS:
        # A few papers (most groups of a multi-word query): each one's field looked up, where
        # the bytes below cost a pass over every paper of the library per field.
        field_of = {i: field for field, bits in present for i in bits_to_ids(bits)}
        start = 0
        for end in range(1, len(ids) + 1):
            if end == len(ids) or field_of[ids[end]] != field_of[ids[start]]:
                hits.add(ids[start:end], score, field_of[ids[start]])
                start = end
        return
    # Fields interleave: one byte per paper of the group, its field's code (1, 2, ...), made by
    # adding the fields' 0/1 bytes scaled by their codes, then the other papers' zero bytes
    # dropped. Runs of one code are runs of one field, found in C.
    codes = 0
    for code, (_, bits) in enumerate(present, start=1):
        codes += int.from_bytes(bits_to_flags(bits, size), "little") * code
    sequence = codes.to_bytes(size, "little").translate(None, b"\x00")
    for run in _RUN.finditer(sequence):
        start, end = run.span()
        hits.add(ids[start:end], score, present[sequence[start] - 1][0])


def add_ranked(
    hits: Results,
    groups: dict[float, int],
    fields: Sequence[tuple[str, int]],
    size: int,
    every: int | None = None,
) -> None:
    """Append every group, best score first (papers of one score in library order), each
    listed only when read (`Results.add_later_groups`); `every`: the papers of them all, when
    the caller knows them (hundreds of ORs of 100k-bit ints saved)."""
    union = 0
    fills = []
    for score in sorted(groups, reverse=True):
        group = groups[score]
        if every is None:
            union |= group
        fills.append(partial(add_group, group=group, score=float(score), fields=fields, size=size))
    hits.add_later_groups(union if every is None else every, fills)
