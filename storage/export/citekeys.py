"""Citation keys for a BibTeX export: stable, unique, and the paper's own when it has one.

A paper keeps the key it came with (`Paper.cite_key`, from a `.bib`) when that key is a usable
BibTeX key and no other paper in the export has it; when two share it, the one with the
smaller id keeps it. Any other paper gets `vaswani2017attention`: the first author's family
name, the year (the venue's, `ICML 2025`, when the record has none) and the first significant
word of the title, ASCII-folded and lower case (what Google Scholar writes).

Papers that would get the same key are told apart by `a`, `b`, ... after the first, which
keeps the key bare; who is first is decided by paper id, so the keys depend on which papers
are exported, never on their order or on the day. Keys are compared case-insensitively, as
BibTeX does.
"""

from __future__ import annotations

from collections.abc import Iterable

from papershelf.storage.model import Paper
from papershelf.storage.names.citekey import (
    base_key,
    fold_ascii,
    key_suffix,
    usable_key,
    year_of,
)

__all__ = ["base_key", "cite_keys", "fold_ascii", "usable_key", "year_of"]


def cite_keys(papers: Iterable[Paper]) -> dict[str, str]:
    """A key for every paper, by paper id; unique case-insensitively."""
    chosen: dict[str, str] = {}
    taken: set[str] = set()
    by_id = sorted({paper.id: paper for paper in papers}.values(), key=lambda paper: paper.id)
    for paper in by_id:
        own = paper.cite_key
        if own is not None and usable_key(own) and own.casefold() not in taken:
            chosen[paper.id] = own
            taken.add(own.casefold())
    rest = [paper for paper in by_id if paper.id not in chosen]
    bases = {paper.id: base_key(paper) for paper in rest}
    # Bases in order, then ids: the first of each base gets it bare whatever the selection order.
    for paper in sorted(rest, key=lambda paper: (bases[paper.id], paper.id)):
        number = 0
        while (bases[paper.id] + key_suffix(number)).casefold() in taken:
            number += 1
        key = bases[paper.id] + key_suffix(number)
        chosen[paper.id] = key
        taken.add(key.casefold())
    return chosen
