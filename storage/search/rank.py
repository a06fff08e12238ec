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
        assigned = 0
        parts: list[tuple[float, int]] = []
        for position, tier in enumerate(unit):
            fresh = tier.bits & result & ~assigned
            if fresh:
                assigned |= fresh
                weight = tier.weight if weights is None else weights[number][position]
                parts.append((weight, fresh))
        if not parts:
            continue
        grown: dict[float, int] = {}
        for score, group in groups.items():
            for weight, fresh in parts:
                part = group & fresh
                if part:
                    key = score + weight
                    grown[key] = grown.get(key, 0) | part
            left = group & ~assigned
            if left:
                grown[score] = grown.get(score, 0) | left
        groups = grown
    return groups


def best_fields(result: int, tiers: Iterable[Tier], order: Sequence[str]) -> list[tuple[str, int]]:
    """Each paper of `result` under one field: that of its best-weighted tier, ties broken by
    `order` (a field list); papers in no tier fall under "". Fields in `order`'s order."""
    rank = {field: n for n, field in enumerate(order)}
    by_field: dict[str, int] = {}
    done = 0
    for tier in sorted(tiers, key=lambda t: (-t.weight, rank[t.field])):
        fresh = tier.bits & result & ~done
        if fresh:
            done |= fresh
            by_field[tier.field] = by_field.get(tier.field, 0) | fresh
    fields = sorted(by_field.items(), key=lambda item: rank[item[0]])
    rest = result & ~done
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
    hits: Results, groups: dict[float, int], fields: Sequence[tuple[str, int]], size: int
) -> None:
    """Append every group, best score first (papers of one score in library order), each
    listed only when read (`Results.add_later`)."""
    for score in sorted(groups, reverse=True):
        group = groups[score]
        hits.add_later(
            group, partial(add_group, group=group, score=float(score), fields=fields, size=size)
        )
