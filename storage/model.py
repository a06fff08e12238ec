"""The two records papershelf keeps: Paper (imported, immutable) and Entry (the user's state)."""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol, get_args
from urllib.parse import quote

Status = Literal["unread", "reading", "read"]
STATUSES: tuple[Status, ...] = get_args(Status)


def utc_now() -> str:
    """The current UTC time to the second, as records store it (`2026-01-31T12:00:00Z`)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def file_stamp() -> str:
    """The current UTC time as a file-name suffix (`20260131T120000Z`), for damaged files
    moved aside."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


@dataclass(frozen=True, slots=True)
class Paper:
    """One imported paper. Never edited by the user; rewritten only by an import."""

    id: str
    """First 12 hex digits of sha1 of the normalised abstract (see `ingest.dedupe_key`)."""
    name: str
    """Derived display name: the method's name, the repository's name, or a short headline."""
    title: str | None
    abstract: str
    venue: str | None
    sources: tuple[str, ...]
    code_urls: tuple[str, ...] = ()
    links: tuple[str, ...] = ()
    imported_at: str = ""
    authors: tuple[str, ...] = ()
    url: str | None = None
    """The record's own landing page (JSON or BibTeX `url`, arXiv's abs page), when it has one."""
    year: int | None = None
    """Year of publication, when a source gives one."""
    doi: str | None = None
    """DOI, normalised by `papershelf.storage.text.identifiers.doi` (lower case, no resolver)."""
    arxiv_id: str | None = None
    """arXiv identifier without version (`2501.01234`, `hep-th/9901001`)."""
    openreview_id: str | None = None
    """OpenReview forum id."""
    pdf_url: str | None = None
    """A link to the PDF, when a source gives one."""
    kind: str | None = None
    """The BibTeX entry type it came as (`inproceedings`, `article`, ...), lower case."""
    cite_key: str | None = None
    """The citation key it came with (a `.bib` file's), kept so exports cite it the same way."""
    extra: tuple[tuple[str, str], ...] = ()
    """Other bibliographic fields as (name, value) pairs, names lower case and unique, in source
    order (BibTeX `pages`, `volume`, `publisher`, ...): kept so a BibTeX round trip loses none."""

    @property
    def has_code(self) -> bool:
        """Whether the paper links at least one code repository."""
        return bool(self.code_urls)

    @property
    def separate_page(self) -> str | None:
        """The paper's own page (`url`), unless it is already one of its code URLs or links."""
        if self.url is None or self.url in self.code_urls or self.url in self.links:
            return None
        return self.url

    @property
    def links_with_page(self) -> tuple[str, ...]:
        """`links`, then `separate_page`: the page is a link like the others wherever links
        are shown or offered, and each address is listed once."""
        page = self.separate_page
        return self.links if page is None else (*self.links, page)

    @property
    def separate_pdf(self) -> str | None:
        """The PDF's address (`pdf_url`), unless it is already a code URL, a link or the page."""
        pdf = self.pdf_url
        if pdf is None or pdf == self.url or pdf in self.code_urls or pdf in self.links:
            return None
        return pdf

    @property
    def doi_url(self) -> str | None:
        """The DOI's address at the resolver (`https://doi.org/10.1145/...`), if it has one."""
        if not self.doi:
            return None
        # `#`, `?`, `%`, `<`, `>` and spaces occur in old DOIs and mean something in a URL.
        return "https://doi.org/" + quote(self.doi, safe="/:;()[]._-+=,")

    @property
    def arxiv_url(self) -> str | None:
        """Its arXiv abstract page (`https://arxiv.org/abs/2501.01234`), if it has an arXiv id."""
        return f"https://arxiv.org/abs/{quote(self.arxiv_id)}" if self.arxiv_id else None

    @property
    def openreview_url(self) -> str | None:
        """Its OpenReview forum page, if it has an OpenReview id."""
        if not self.openreview_id:
            return None
        return f"https://openreview.net/forum?id={quote(self.openreview_id, safe='')}"

    @property
    def record_links(self) -> tuple[str, ...]:
        """The addresses its record gives beyond the abstract's, each once: its page, its PDF,
        then its DOI, arXiv and OpenReview pages."""
        found = (
            self.url,
            self.pdf_url,
            self.doi_url,
            self.arxiv_url,
            self.openreview_url,
        )
        return tuple(dict.fromkeys(url for url in found if url))

    @property
    def all_links(self) -> tuple[str, ...]:
        """Every address of the paper, each once, in the order `o` offers them: code URLs, the
        abstract's other links, then `record_links`."""
        return tuple(dict.fromkeys((*self.code_urls, *self.links, *self.record_links)))

    def to_dict(self) -> dict[str, object]:
        """The JSON-safe form stored in papers.json."""
        return {
            "id": self.id,
            "name": self.name,
            "title": self.title,
            "abstract": self.abstract,
            "venue": self.venue,
            "sources": list(self.sources),
            "code_urls": list(self.code_urls),
            "links": list(self.links),
            "imported_at": self.imported_at,
            "authors": list(self.authors),
            "url": self.url,
            "year": self.year,
            "doi": self.doi,
            "arxiv_id": self.arxiv_id,
            "openreview_id": self.openreview_id,
            "pdf_url": self.pdf_url,
            "kind": self.kind,
            "cite_key": self.cite_key,
            "extra": [list(pair) for pair in self.extra],
        }

    @property
    def identifiers(self) -> tuple[str, ...]:
        """The paper's identifiers as `scheme:value` keys (`doi:10.1/x`, `arxiv:2501.01234`,
        `openreview:abc`): an import matches papers by any of them."""
        keys = (("doi", self.doi), ("arxiv", self.arxiv_id), ("openreview", self.openreview_id))
        return tuple(f"{scheme}:{value}" for scheme, value in keys if value)

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Paper:
        """Inverse of `to_dict`; fields missing from older files take their defaults.

        Raises ValueError naming the field when a value has the wrong type (a text where a list
        belongs, a number for a name): such a file is damaged, and reading `"abc"` as the three
        sources `a`, `b`, `c` would hide it.
        """
        if not isinstance(data, dict):
            raise ValueError("a paper record is not an object")
        paper_id = data.get("id")
        if type(paper_id) is not str or not paper_id:
            raise ValueError("a paper record has no id")
        return cls(
            id=paper_id,
            name=_text(data, "name", ""),
            title=_optional_text(data, "title"),
            abstract=_text(data, "abstract", ""),
            venue=_optional_text(data, "venue"),
            sources=_texts(data, "sources"),
            code_urls=_texts(data, "code_urls"),
            links=_texts(data, "links"),
            imported_at=_text(data, "imported_at", ""),
            authors=_texts(data, "authors"),
            url=_optional_text(data, "url"),
            year=_optional_year(data),
            doi=_optional_text(data, "doi"),
            arxiv_id=_optional_text(data, "arxiv_id"),
            openreview_id=_optional_text(data, "openreview_id"),
            pdf_url=_optional_text(data, "pdf_url"),
            kind=_optional_text(data, "kind"),
            cite_key=_optional_text(data, "cite_key"),
            extra=_pairs(data, "extra"),
        )


class StoredText(Protocol):
    """Text kept outside the process (an abstract in papers.json), read each time it is asked
    for, so a library of 100,000 papers does not hold every abstract as a Python string."""

    @property
    def length(self) -> int:
        """The text's length in characters, known without reading it."""
        ...

    def text(self) -> str:
        """The text, read and checked (raises `LibraryError` when it cannot be)."""
        ...


_ABSTRACT_SLOT = Paper.__dict__["abstract"]
"""The slot that holds a paper's abstract: a `str`, or a `StoredText` (papers.cache's papers)."""


class _Abstract:
    """`Paper.abstract`: the slot's text, or the text its `StoredText` reads. Every reader of
    `paper.abstract` gets a `str` either way; a stored one is read again each time (it is not
    kept: keeping it would hold every abstract ever shown)."""

    def __get__(self, paper: Paper | None, owner: type | None = None) -> Any:
        if paper is None:
            return self
        value = _ABSTRACT_SLOT.__get__(paper, owner)
        return value if type(value) is str else value.text()

    def __set__(self, paper: Paper, value: str | StoredText) -> None:
        _ABSTRACT_SLOT.__set__(paper, value)

    def __delete__(self, paper: Paper) -> None:
        _ABSTRACT_SLOT.__delete__(paper)


setattr(Paper, "abstract", _Abstract())  # noqa: B010  (pyright keeps seeing the `str` field)


def abstract_length(paper: Paper) -> int:
    """`len(paper.abstract)` without reading a stored abstract (search-index.bin's key)."""
    try:
        value = _ABSTRACT_SLOT.__get__(paper, Paper)
    except TypeError:  # not a Paper (a listing's `ListedPaper`)
        return len(paper.abstract)
    return len(value) if type(value) is str else value.length


def set_abstracts(papers: Iterable[Paper], abstracts: Iterable[str | StoredText]) -> None:
    """Set the abstract of each of `papers` (new ones, being filled field by field): the slot
    itself, in one C-level loop."""
    deque(map(_ABSTRACT_SLOT.__set__, papers, abstracts), maxlen=0)


def stored_abstract(paper: Paper) -> StoredText | None:
    """The `StoredText` a paper's abstract is read from, or None when it holds the text."""
    value = _ABSTRACT_SLOT.__get__(paper, Paper)
    return None if type(value) is str else value


def _text(data: dict[str, object], key: str, default: str) -> str:
    value = data.get(key, default)
    if type(value) is not str:
        raise ValueError(f"{key} must be text, not {type(value).__name__}")
    return value


def _optional_text(data: dict[str, object], key: str) -> str | None:
    value = data.get(key)
    if value is not None and type(value) is not str:
        raise ValueError(f"{key} must be text or null, not {type(value).__name__}")
    return value


def _texts(data: dict[str, object], key: str) -> tuple[str, ...]:
    value = data.get(key, ())
    if type(value) not in (list, tuple) or not all(type(item) is str for item in value):  # type: ignore[union-attr]
        raise ValueError(f"{key} must be a list of texts")
    return tuple(value)  # type: ignore[arg-type]


def _optional_year(data: dict[str, object]) -> int | None:
    value = data.get("year")
    # bool is an int subclass; `true` is not a year.
    if value is not None and type(value) is not int:
        raise ValueError(f"year must be a whole number or null, not {type(value).__name__}")
    return value


def _pairs(data: dict[str, object], key: str) -> tuple[tuple[str, str], ...]:
    value = data.get(key, ())
    if type(value) not in (list, tuple):
        raise ValueError(f"{key} must be a list of [name, value] pairs")
    pairs: list[tuple[str, str]] = []
    for item in value:  # type: ignore[union-attr]
        if type(item) not in (list, tuple) or len(item) != 2:
            raise ValueError(f"{key} must be a list of [name, value] pairs")
        name, text = item
        if type(name) is not str or type(text) is not str:
            raise ValueError(f"{key} must be a list of [name, value] pairs of texts")
        pairs.append((name, text))
    return tuple(pairs)


@dataclass(frozen=True, slots=True)
class Entry:
    """The user's state for one paper."""

    tags: frozenset[str] = field(default_factory=frozenset)
    status: Status = "unread"
    starred: bool = False
    note: str = ""
    updated_at: str | None = None

    @property
    def is_default(self) -> bool:
        """True when the entry holds nothing worth storing."""
        return not self.tags and self.status == "unread" and not self.starred and not self.note

    def to_dict(self) -> dict[str, object]:
        """The JSON-safe form stored in state.json (tags sorted, so files diff cleanly)."""
        return {
            "tags": sorted(self.tags),
            "status": self.status,
            "starred": self.starred,
            "note": self.note,
            "updated_at": self.updated_at,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Entry:
        """Inverse of `to_dict`; missing fields take their defaults, tags are normalised.

        Raises ValueError naming the field for anything `to_dict` cannot have written: a text
        where the tag list belongs, an unknown status, a starred flag that is not true/false.
        """
        if not isinstance(data, dict):
            raise ValueError("an entry is not an object")
        tags = data.get("tags", [])
        if type(tags) is not list or not all(type(tag) is str for tag in tags):
            raise ValueError("tags must be a list of texts")
        status = data.get("status", "unread")
        if status not in STATUSES:
            raise ValueError(f"status {str(status)[:20]!r} is not one of {', '.join(STATUSES)}")
        starred = data.get("starred", False)
        if type(starred) is not bool:
            raise ValueError("starred must be true or false")
        updated_at = data.get("updated_at")
        if updated_at is not None and type(updated_at) is not str:
            raise ValueError("updated_at must be text or null")
        return cls(
            tags=frozenset(normalise_tag(tag) for tag in tags),  # type: ignore[union-attr]
            status=status,  # type: ignore[arg-type]
            starred=starred,
            note=_text(data, "note", ""),
            updated_at=updated_at,
        )


TAG_MAX_LENGTH = 64


def normalise_tag(raw: str) -> str:
    """Return the canonical form of a tag: NFC, lower case, words joined by '-'.

    Leading `#`/`+` markers and control characters are removed. Raises ValueError when
    nothing usable is left or the tag is too long.
    """
    text = unicodedata.normalize("NFC", raw)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    # Strip every leading marker and space, so normalising is idempotent ("+ #x" -> "x").
    text = text.lstrip("#+ \t\n").strip().casefold()
    tag = "-".join(text.split())
    if not tag:
        raise ValueError(f"not a usable tag: {raw!r}")
    if len(tag) > TAG_MAX_LENGTH:
        raise ValueError(f"tag longer than {TAG_MAX_LENGTH} characters: {tag[:20]}…")
    return tag
