"""The two records papershelf keeps: Paper (imported, immutable) and Entry (the user's state)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Literal, get_args

Status = Literal["unread", "reading", "read"]
STATUSES: tuple[Status, ...] = get_args(Status)


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
    """The record's own landing page (JSON input), when it has one."""

    @property
    def has_code(self) -> bool:
        """Whether the paper links at least one code repository."""
        return bool(self.code_urls)

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
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Paper:
        """Inverse of `to_dict`; tolerates fields missing from older files."""

        def strings(key: str) -> tuple[str, ...]:
            value = data.get(key) or ()
            return tuple(str(item) for item in value)  # type: ignore[union-attr]

        def optional(key: str) -> str | None:
            value = data.get(key)
            return None if value is None else str(value)

        return cls(
            id=str(data["id"]),
            name=str(data.get("name") or ""),
            title=optional("title"),
            abstract=str(data.get("abstract") or ""),
            venue=optional("venue"),
            sources=strings("sources"),
            code_urls=strings("code_urls"),
            links=strings("links"),
            imported_at=str(data.get("imported_at") or ""),
            authors=strings("authors"),
            url=optional("url"),
        )


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
        """Inverse of `to_dict`; unknown statuses fall back to unread rather than failing."""
        status = data.get("status")
        tags = data.get("tags") or ()
        return cls(
            tags=frozenset(str(tag) for tag in tags),  # type: ignore[union-attr]
            status=status if status in STATUSES else "unread",  # type: ignore[arg-type]
            starred=bool(data.get("starred")),
            note=str(data.get("note") or ""),
            updated_at=None if data.get("updated_at") is None else str(data["updated_at"]),
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
