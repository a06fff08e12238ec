"""One paper from many sources: which records are the same paper, and what their merge keeps.

Two records are one paper when they share an abstract (the dedupe key), or an identifier (DOI,
arXiv id, OpenReview id), or, when one of them has no abstract (a `.bib` entry that starts a
reading list from a title), the same title letter for letter. The merged paper keeps the id it
was first stored under, so the user's tags and notes stay attached to it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from papershelf.storage.ingest.paragraphs import paper_id
from papershelf.storage.model import Paper

__all__ = ["MatchIndex", "merge_papers", "record_id", "title_key"]

_NOT_LETTERS = re.compile(r"[\W_]+")


def title_key(title: str) -> str:
    """A title's letters and digits, case-folded: `{BERT}: Pre-training` and `BERT: pre-training`
    are one title."""
    return _NOT_LETTERS.sub("", title.casefold())


def record_id(abstract: str, identifiers: Iterable[str] = (), title: str | None = None) -> str:
    """The id a new paper is stored under: from its abstract (`paper_id`) when it has one, else
    from its first identifier (`doi:...`), else from its title; "" when it has none of them."""
    if abstract:
        return paper_id(abstract)
    for key in identifiers:
        return _digest(key)
    if title and (letters := title_key(title)):
        return _digest(f"title:{letters}")
    return ""


def _digest(key: str) -> str:
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]


def _union(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    return first + tuple(item for item in dict.fromkeys(second) if item not in first)


def _union_pairs(
    first: tuple[tuple[str, str], ...], second: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, str], ...]:
    names = {name for name, _ in first}
    return first + tuple(pair for pair in second if pair[0] not in names)


def merge_papers(old: Paper, new: Paper) -> Paper:
    """Merge two records of one paper: `old` (and its id) wins where both have a value.

    A record without an abstract that meets one with an abstract takes the abstract, and the
    name derived from it (a name from a title alone is a guess).
    """
    gains_abstract = not old.abstract and bool(new.abstract)
    return replace(
        old,
        name=new.name if gains_abstract and new.name else old.name or new.name,
        title=old.title or new.title,
        abstract=old.abstract or new.abstract,
        venue=old.venue or new.venue,
        sources=_union(old.sources, new.sources),
        code_urls=_union(old.code_urls, new.code_urls),
        links=_union(old.links, new.links),
        imported_at=old.imported_at or new.imported_at,
        authors=old.authors or new.authors,
        url=old.url or new.url,
        year=old.year if old.year is not None else new.year,
        doi=old.doi or new.doi,
        arxiv_id=old.arxiv_id or new.arxiv_id,
        openreview_id=old.openreview_id or new.openreview_id,
        pdf_url=old.pdf_url or new.pdf_url,
        kind=old.kind or new.kind,
        cite_key=old.cite_key or new.cite_key,
        extra=_union_pairs(old.extra, new.extra),
    )


def _stored_before_its_abstract(paper: Paper) -> bool:
    """Whether the paper's id is not its abstract's but an identifier's or its title's (`record_id`
    of a record without an abstract; merges keep ids, add identifiers and keep a first title).
    Told by hashing a few short keys, not the abstract: an abstract list's papers (no
    identifiers, no title) cost nothing."""
    if not paper.identifiers and not paper.title:
        return False
    ids = {_digest(key) for key in paper.identifiers}
    if paper.title:
        ids.add(record_id("", (), paper.title))
    return paper.id in ids


class MatchIndex:
    """Finds the paper of `papers` (by id, updated as papers are added) a new record belongs to.

    Papers from abstract lists have no identifiers and are found by id alone, so the index costs
    nothing for them; the title index is built only when a record needs it.
    """

    def __init__(self, papers: Mapping[str, Paper]) -> None:
        self._papers = papers
        self._keys: dict[str, str] = {}
        self._titles: dict[str, list[str]] | None = None
        for paper in papers.values():
            self._index(paper)

    def _index(self, paper: Paper) -> None:
        for key in self._keys_of(paper):
            self._keys.setdefault(key, paper.id)
        if self._titles is not None and paper.title:
            self._titles.setdefault(title_key(paper.title), []).append(paper.id)

    @staticmethod
    def _keys_of(paper: Paper) -> list[str]:
        keys = list(paper.identifiers)
        if paper.abstract and _stored_before_its_abstract(paper):
            # Its id comes from an identifier or its title: its abstract must still find it.
            # (Any other paper's id is its abstract's: the id itself finds it.)
            keys.append(f"id:{paper_id(paper.abstract)}")
        return keys

    def find(self, paper: Paper) -> str | None:
        """The id of the stored paper `paper` is a record of, or None when it is new."""
        if paper.id in self._papers:
            return paper.id
        for key in self._keys_of(paper):
            found = self._keys.get(key)
            if found is not None and found in self._papers:
                return found
        if paper.abstract and f"id:{paper.id}" in self._keys:
            return self._keys[f"id:{paper.id}"]
        return self._by_title(paper)

    def _by_title(self, paper: Paper) -> str | None:
        if not paper.title:
            return None
        if self._titles is None:
            self._titles = {}
            for stored in self._papers.values():
                if stored.title:
                    self._titles.setdefault(title_key(stored.title), []).append(stored.id)
        for candidate in self._titles.get(title_key(paper.title), ()):
            stored = self._papers.get(candidate)
            # A shared title alone joins two papers only when one of them has no abstract:
            # two abstracts that differ are two papers, whatever they are called.
            if stored is not None and (not paper.abstract or not stored.abstract):
                return candidate
        return None

    def added(self, paper: Paper) -> None:
        """Record that `paper` (new, or merged under its id) is now in `papers`."""
        self._index(paper)
