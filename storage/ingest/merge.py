"""One paper from many sources: which records are the same paper, and what their merge keeps.

Two records are one paper when they share an abstract (the dedupe key), or an identifier (DOI,
arXiv id, OpenReview id), or, when one of them has no abstract (a `.bib` entry that starts a
reading list from a title), the same title letter for letter, unless something else they both
give contradicts it (`contradicts`: another DOI, arXiv or OpenReview id, another year, another
first author's family name): two workshop papers both called "Introduction" are two papers. The
merged paper keeps the id it was first stored under, so the user's tags and notes stay attached
to it.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import replace

from papershelf.storage.ingest.paragraphs import paper_id
from papershelf.storage.model import Paper
from papershelf.storage.text.authors import family_name

__all__ = [
    "MatchIndex",
    "contradicts",
    "merge_papers",
    "own_ids",
    "record_id",
    "title_key",
    "unique_id",
]

_NOT_LETTERS = re.compile(r"[\W_]+")
# The ASCII characters `_NOT_LETTERS` matches: all but letters and digits.
_ASCII_NOT_LETTERS = bytes(code for code in range(128) if not chr(code).isalnum())


def title_key(title: str) -> str:
    """A title's letters and digits, case-folded: `{BERT}: Pre-training` and `BERT: pre-training`
    are one title."""
    if title.isascii():
        # The same, deleted in one C pass (the regex was a third of merging a large import).
        return title.lower().encode("ascii").translate(None, _ASCII_NOT_LETTERS).decode("ascii")
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


def contradicts(first: Paper, second: Paper) -> bool:
    """Whether two records say they are different papers: each gives a value for the same
    identifier scheme (DOI, arXiv id, OpenReview id), year or first author, and the values
    differ (first authors compared by family name, case and accents folded: `Vaswani, A.` is
    `Ashish Vaswani`; a year earlier than the other's is no contradiction for an arXiv record
    when the other has no arXiv id: the preprint of a later publication). A value only one of
    them gives contradicts nothing."""
    pairs = (
        (first.doi, second.doi),
        (first.arxiv_id, second.arxiv_id),
        (first.openreview_id, second.openreview_id),
    )
    if any(a is not None and b is not None and a != b for a, b in pairs):
        return True
    if first.year is not None and second.year is not None and first.year != second.year:
        earlier, later = (first, second) if first.year < second.year else (second, first)
        # A preprint comes out before its publication (DBLP's CoRR entry of 2018 and the
        # NAACL 2019 paper are one): only an earlier arXiv record explains another year.
        if not (earlier.arxiv_id and not later.arxiv_id):
            return True
    if first.authors and second.authors:
        one, other = _folded_family(first.authors[0]), _folded_family(second.authors[0])
        return bool(one and other) and one != other
    return False


def _folded_family(name: str) -> str:
    """A first author's family name, accents and case folded (`Müller` is `muller`: one
    source writes the umlaut, another drops it), letters only."""
    decomposed = unicodedata.normalize("NFKD", family_name(name))
    return title_key("".join(ch for ch in decomposed if not unicodedata.combining(ch)))


def unique_id(paper: Paper, *taken: Mapping[str, Paper]) -> Paper:
    """`paper` under an id none of `taken` holds: its own (`record_id`) when free; else (a
    record of the same title as another paper, that `contradicts` it) an id from its title,
    year and first author, then with a counter. Deterministic, so importing the same file again
    gives the same ids."""
    if not any(paper.id in papers for papers in taken):
        return paper
    year = "" if paper.year is None else str(paper.year)
    author = _folded_family(paper.authors[0]) if paper.authors else ""
    base = f"title:{title_key(paper.title or '')}:{year}:{author}:{paper.id}"
    candidate, count = _digest(base), 1
    while any(candidate in papers for papers in taken):
        count += 1
        candidate = _digest(f"{base}:{count}")
    return replace(paper, id=candidate)


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


def own_ids(paper: Paper) -> set[str]:
    """Every id `record_id` could have given a record of this paper: its abstract's, each
    identifier's, its title's (a paper stored before its abstract keeps that id)."""
    ids = {_digest(key) for key in paper.identifiers}
    if paper.abstract:
        ids.add(paper_id(paper.abstract))
    if paper.title and (by_title := record_id("", (), paper.title)):
        ids.add(by_title)
    return ids


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
    nothing for them; the title index is built only when a record needs it, and never while
    every paper has an abstract (a shared title joins two papers only when one has none).
    """

    def __init__(self, papers: Mapping[str, Paper]) -> None:
        self._papers = papers
        self._keys: dict[str, str] = {}
        self._titles: dict[str, list[str]] | None = None
        self._without_abstract = 0
        """Papers indexed without an abstract (merges may give one later: an upper bound)."""
        self._last: tuple[Paper, list[str]] | None = None
        """The last paper's keys: `find` and then `added` see the same record (hashing its
        identifiers and title twice was a tenth of a large import)."""
        for paper in papers.values():
            self._index(paper)

    def _index(self, paper: Paper) -> None:
        for key in self._keys_of(paper):
            self._keys.setdefault(key, paper.id)
        if not paper.abstract:
            self._without_abstract += 1
        if self._titles is not None and paper.title:
            self._titles.setdefault(title_key(paper.title), []).append(paper.id)

    def _keys_of(self, paper: Paper) -> list[str]:
        if self._last is not None and self._last[0] is paper:
            return self._last[1]
        keys = list(paper.identifiers)
        if paper.abstract and _stored_before_its_abstract(paper):
            # Its id comes from an identifier or its title: its abstract must still find it.
            # (Any other paper's id is its abstract's: the id itself finds it.)
            keys.append(f"id:{paper_id(paper.abstract)}")
        self._last = (paper, keys)
        return keys

    def find(self, paper: Paper) -> str | None:
        """The id of the stored paper `paper` is a record of, or None when it is new."""
        stored = self._papers.get(paper.id)
        # The same id is the same abstract or first identifier, or (a record with neither) the
        # same title: then only while nothing contradicts.
        if stored is not None and (
            paper.abstract or paper.identifiers or not contradicts(stored, paper)
        ):
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
        if paper.abstract and not self._without_abstract:
            return None  # it would join only a paper without an abstract, and there is none
        if self._titles is None:
            self._titles = {}
            for stored in self._papers.values():
                if stored.title:
                    self._titles.setdefault(title_key(stored.title), []).append(stored.id)
        for candidate in self._titles.get(title_key(paper.title), ()):
            stored = self._papers.get(candidate)
            # A shared title alone joins two papers only when one of them has no abstract
            # (two abstracts that differ are two papers, whatever they are called) and
            # nothing else the two records give says they differ.
            if stored is None or (paper.abstract and stored.abstract):
                continue
            if not contradicts(stored, paper):
                return candidate
        return None

    def added(self, paper: Paper) -> None:
        """Record that `paper` (new, or merged under its id) is now in `papers`."""
        self._index(paper)
