"""What a source file is called where a paper says where it came from: the bundled seed lists
by their own header (`ICML 2025 Papers`) instead of their hashed file names
(`001_aa86a2e0cf5ed7d9.txt`); any other source by its file name. `papershelf show` keeps the
file names (`sources`); the app's reader shows these titles.

Pure Python; reads each bundled seed's first paragraph once (a few hundred bytes each).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from papershelf.storage.ingest.paragraphs import paragraphs
from papershelf.storage.library.importer import bundled_seed_files

__all__ = ["seed_headers", "source_title"]

_HEAD_BYTES = 4096
"""How much of a seed file is read for its header (the first paragraph)."""


@cache
def seed_headers() -> Mapping[str, str]:
    """The header of each bundled seed list, by file name (a seed without one is left out)."""
    headers: dict[str, str] = {}
    for path in bundled_seed_files():
        try:
            with path.open("rb") as handle:
                head = handle.read(_HEAD_BYTES).decode("utf-8", errors="replace")
        except OSError:
            continue
        first = next(iter(paragraphs(head)), None)
        if first is not None and first.is_header:
            headers[path.name] = first.text.lstrip("#").strip()
    return headers


def source_title(name: str) -> str:
    """How source `name` is shown: a bundled seed's header, else the name itself."""
    return seed_headers().get(name, name)
