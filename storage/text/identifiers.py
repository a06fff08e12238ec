"""Paper identifiers as people write them, in one canonical form each: DOI, arXiv id, OpenReview id.

Every importer and `papershelf add` store identifiers through these functions, so that the same
paper from a `.bib`, an arXiv feed and an OpenReview export carries the same keys and is merged.
Each returns None for text that is not an identifier of its kind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = [
    "Identifier",
    "arxiv_from_doi",
    "arxiv_id",
    "doi",
    "identifiers_of",
    "identify",
    "openreview_id",
]

# A DOI is "10.<registrant>/<suffix>"; the suffix may hold almost anything but spaces.
_DOI = re.compile(r"^(10\.\d{4,9}/\S+)$")
_DOI_PREFIXES = re.compile(
    r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/|(?:dx\.)?doi\.org/)", re.IGNORECASE
)
# New-style arXiv ids (0704.0001 on) and old-style archive/number ids, with optional version.
_ARXIV_NEW = re.compile(r"^(\d{4}\.\d{4,5})(?:v\d+)?$")
_ARXIV_OLD = re.compile(r"^([a-z][a-z.-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$", re.IGNORECASE)
_ARXIV_PREFIX = re.compile(r"^arxiv:\s*", re.IGNORECASE)
# The scheme is optional: an address copied from a browser's bar often has none.
_ARXIV_URL = re.compile(
    r"^(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/(.+?)(?:\.pdf)?/?$",
    re.IGNORECASE,
)
_OPENREVIEW_ID = re.compile(r"^[A-Za-z0-9_-]{6,20}$")
_OPENREVIEW_HOST = re.compile(r"^(?:www\.|api2?\.)?openreview\.net$", re.IGNORECASE)
_OPENREVIEW_BARE = re.compile(r"^(?:www\.)?openreview\.net/", re.IGNORECASE)
_OPENREVIEW_PREFIX = re.compile(r"^openreview:\s*", re.IGNORECASE)
# DOIs end at the first character no DOI sensibly ends with when copied from prose; a closing
# bracket is kept when it closes one opened in the DOI (`10.1002/(SICI)...<693::AID>`).
_DOI_TRAILING = ".,;:)]}>\"'"
_DOI_PAIRS = {")": "(", "]": "[", "}": "{", ">": "<"}
_DOI_URL = re.compile(r"^(?:https?://)?(?:dx\.)?doi\.org/", re.IGNORECASE)


def doi(text: str) -> str | None:
    """`10.1145/3292500.3330701` from a DOI, `doi:` DOI or doi.org URL; lower case (DOIs are
    case-insensitive), trailing punctuation dropped."""
    text = text.strip()
    value = _DOI_PREFIXES.sub("", text)
    if _DOI_URL.match(text):
        value = unquote(value)  # an address: `%3C` is `<`
    match = _DOI.match(_trimmed(value))
    return match.group(1).lower() if match else None


def _trimmed(value: str) -> str:
    """`value` without the punctuation prose puts after a DOI; a closing bracket that pairs
    with an opening one in the DOI stays."""
    while value and value[-1] in _DOI_TRAILING:
        last = value[-1]
        opener = _DOI_PAIRS.get(last)
        if opener is not None and value.count(opener) >= value.count(last):
            break
        value = value[:-1]
    return value


def arxiv_id(text: str) -> str | None:
    """`2501.01234` or `hep-th/9901001` from an id, `arXiv:` id or arxiv.org abs/pdf URL, with
    its version (`v2`) dropped: every version is one paper."""
    value = text.strip()
    url = _ARXIV_URL.match(value)
    if url is not None:
        value = url.group(1)
    value = _ARXIV_PREFIX.sub("", value)
    match = _ARXIV_NEW.match(value)
    if match is not None:
        number = match.group(1)
        # Four digits after the dot until 1412, five since 1501.
        digits = 4 if number[:4] < "1501" else 5
        return number if len(number) == 5 + digits else None
    match = _ARXIV_OLD.match(value)
    return match.group(1).lower() if match is not None else None


_ARXIV_DOI = "10.48550/arxiv."


def arxiv_from_doi(doi_text: str) -> str | None:
    """The arXiv id of arXiv's own DOI (`10.48550/arXiv.2401.00001`), else None."""
    value = doi(doi_text)
    if value is None or not value.startswith(_ARXIV_DOI):
        return None
    return arxiv_id(value[len(_ARXIV_DOI) :])


def openreview_id(text: str) -> str | None:
    """The forum id from an `openreview:` id or an openreview.net forum/pdf URL (`?id=`).

    A bare token is not taken as an OpenReview id here: too many words look like one. Use
    `openreview_note_id` for a value a source labels as one.
    """
    value = text.strip()
    prefixed = _OPENREVIEW_PREFIX.match(value)
    if prefixed is not None:
        return openreview_note_id(value[prefixed.end() :])
    if _OPENREVIEW_BARE.match(value):
        value = "https://" + value  # copied from a browser's bar without its scheme
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not _OPENREVIEW_HOST.match(parts.hostname or ""):
        return None
    ids = parse_qs(parts.query).get("id") or parse_qs(parts.query).get("forum")
    return openreview_note_id(ids[0]) if ids else None


def openreview_note_id(text: str) -> str | None:
    """An id a source labels as OpenReview's (a note's `forum` or `id` field), if well formed."""
    value = text.strip()
    return value if _OPENREVIEW_ID.match(value) else None


@dataclass(frozen=True, slots=True)
class Identifier:
    """One identifier a person typed, recognised: `scheme` is `arxiv`, `doi` or `openreview`."""

    scheme: str
    value: str

    def __str__(self) -> str:
        return f"{self.scheme}:{self.value}"


def identifiers_of(text: str) -> list[Identifier]:
    """Every identifier `text` can be read as, most specific first: arXiv's own DOI is both
    a DOI and an arXiv id, and a paper may carry either."""
    found: list[Identifier] = []
    for scheme, recognise in (("arxiv", arxiv_id), ("doi", doi), ("openreview", openreview_id)):
        value = recognise(text)
        if value is not None:
            found.append(Identifier(scheme, value))
    from_doi = arxiv_from_doi(text)
    if from_doi is not None and Identifier("arxiv", from_doi) not in found:
        found.append(Identifier("arxiv", from_doi))
    return found


def identify(text: str) -> Identifier | None:
    """What kind of identifier `text` is (`arXiv:2501.01234`, `10.1145/...`, a DOI, arXiv or
    OpenReview URL, `openreview:ID`), or None when it is none of them."""
    for scheme, recognise in (("arxiv", arxiv_id), ("doi", doi), ("openreview", openreview_id)):
        value = recognise(text)
        if value is not None:
            return Identifier(scheme, value)
    return None
