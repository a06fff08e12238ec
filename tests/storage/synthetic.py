"""The small synthetic libraries the storage tests build, in one place.

`make_papers` gives distinct, realistic papers; `synthetic_library` an unseeded library of them
(the `lib` fixtures start from it and add their own entries); `ids` and `reopen` read a library
back. The kill tests' worker process (`killworker.py`, run as a script) imports `make_papers`
from here too.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper


def make_papers(count: int, *, prefix: str = "paper") -> list[Paper]:
    """`count` distinct synthetic papers with realistic 12-hex ids and distinct names."""
    papers = []
    for i in range(count):
        abstract = f"We study problem {prefix} {i} and propose Method{prefix.title()}{i}."
        papers.append(
            Paper(
                id=hashlib.sha1(abstract.encode()).hexdigest()[:12],
                name=f"Method{prefix.title()}{i}",
                title=None,
                abstract=abstract,
                venue="TEST 2025",
                sources=("synthetic.txt",),
                imported_at="2025-01-01T00:00:00Z",
            )
        )
    return papers


def synthetic_library(root: Path, count: int) -> Library:
    """An unseeded library at `root` holding `make_papers(count)`, imported from synthetic.txt."""
    library = Library.open(root, seed=False)
    if count:
        library.import_papers(make_papers(count), "synthetic.txt")
    return library


def ids(library: Library) -> list[str]:
    """The library's paper ids, in library order."""
    return [paper.id for paper in library.papers()]


def reopen(library: Library) -> Library:
    """The same library as a second process would open it (from disk)."""
    return Library.open(library.root, seed=False)
