"""papers.cache's layout: its frame, its sections and the columns each holds, and reading the
first section alone (what `papershelf list` needs; `storage.search.listing`).

`library.papers_cache` writes the file and loads every paper from it; this module owns what
both it and the listing must agree on, below the search and the library so that both can use
it. The sections, in file order:

- `LISTED`: `(LISTED_FIELDS, one tuple of values per field)`, the fields `list` prints and
  searches;
- `OTHERS`: `(OTHER_FIELDS, columns)`, every other field of `Paper` but the abstract;
- `PLACES`: where each abstract lies in papers.json (`caches.places.Places.to_bytes`);
- `LENGTHS`: each abstract's length in characters (uint32).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from papershelf.storage.caches.columns import ColumnCheck, paper_column_checks, valid_columns
from papershelf.storage.caches.frame import CacheFile, stat_key_bytes, unmarshal
from papershelf.storage.caches.places import Places
from papershelf.storage.files.layout import StatKey
from papershelf.storage.model import Paper

__all__ = [
    "FILE",
    "FORMAT",
    "LISTED_FIELDS",
    "OTHER_FIELDS",
    "Listed",
    "columns_of",
    "listed",
]

FORMAT = 5
"""Bump when the payload's layout changes (a change of `Paper`'s fields is noticed anyway).
2: the `papershelf.storage.caches.frame` frame, with a checksum.
3: the abstracts' places in papers.json instead of the abstracts.
4: the abstracts' lengths in characters (a third section): abstracts read on demand.
5: the columns `papershelf list` reads in a section of their own (`LISTED_FIELDS`; listing.cache
   held a copy of them before), equal values written once."""
MAGIC = b"PSPAPERS"
FILE = CacheFile(MAGIC, FORMAT, key_size=24, sections=4)
LISTED, OTHERS, PLACES, LENGTHS = range(4)
"""The sections, in file order."""

LISTED_FIELDS = ("id", "name", "title", "venue", "code_urls", "links", "url", "authors", "year")
"""The fields `papershelf list` prints and searches (`links_with_page` is made of `links`,
`url` and `code_urls`)."""
_ALL_FIELDS: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(Paper))
OTHER_FIELDS = tuple(name for name in _ALL_FIELDS if name not in (*LISTED_FIELDS, "abstract"))
"""The second section's fields: every other field but the abstract (read from papers.json)."""

_CHECK_OF = dict(zip(_ALL_FIELDS, paper_column_checks(), strict=True))
LISTED_CHECKS: tuple[ColumnCheck | None, ...] = tuple(_CHECK_OF[name] for name in LISTED_FIELDS)
OTHER_CHECKS: tuple[ColumnCheck | None, ...] = tuple(_CHECK_OF[name] for name in OTHER_FIELDS)


def columns_of(
    raw: bytes | bytearray, names: tuple[str, ...], checks: Sequence[ColumnCheck | None]
) -> tuple[tuple[Any, ...], ...] | None:
    """The columns of one column section, when it holds `names`' and every value checks out
    (`caches.columns`); else None."""
    value = unmarshal(raw)
    if type(value) is not tuple or len(value) != 2:
        return None
    fields, columns = value
    if fields != names or not valid_columns(columns, checks):
        return None
    return columns


class Listed(NamedTuple):
    """What `listed` reads: the `LISTED_FIELDS` columns and where each abstract lies."""

    columns: tuple[tuple[Any, ...], ...]
    places: Places


def listed(path: Path, key: StatKey) -> Listed | None:
    """The columns `papershelf list` reads and the abstracts' places, from the papers.cache at
    `path` when it was made from the papers.json with `key`: its first and third sections
    only, read from one open file (one version) and each checked; None otherwise."""
    opened = FILE.open(path, stat_key_bytes(key))
    if opened is None:
        return None
    with opened:
        main = opened.section(LISTED)
        placed = opened.section(PLACES) if main is not None else None
    if main is None or placed is None:
        return None
    columns = columns_of(main, LISTED_FIELDS, LISTED_CHECKS)
    if columns is None:
        return None
    places = Places.from_bytes(placed, len(columns[0]))
    return None if places is None else Listed(columns, places)
