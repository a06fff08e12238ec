"""What a JSON record gives beyond its abstract, title, authors and page: the rest of a paper's
record, so that `papershelf list --json` / `show --json` output imports back as the same papers.

`parse._parse_json` builds the paper; this module adds:

- `bib_fields`: the BibTeX `kind` and `cite_key` it came with and its other fields (`extra`, an
  object of texts as `--json` prints it, or `[name, value]` pairs as papers.json stores them);
- `record_links`: the code URLs and links the record lists besides those in its abstract (an
  OpenReview `code` field, links merged from another record of the paper);
- `title_of`: `title_as_imported` (the title as its file wrote it, LaTeX and all) before
  `title` (as shown: LaTeX as Unicode), so an abstract-less paper's id, which comes from its
  title, comes back the same;
- `own_identity`: a record papershelf printed carries the paper's `id` and `name`; the id is
  kept when it is one this record could have had (`merge.own_ids`: its abstract's, an
  identifier's or its title's; a paper that gained an abstract after it was stored keeps the id
  it was stored under), and then so is the name. Any other id is ignored: a record never takes
  over another paper's id.

Pure Python; imports `ingest.merge`, `text` and `model` only.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from papershelf.storage.ingest.merge import own_ids
from papershelf.storage.model import Paper
from papershelf.storage.text.clean import clean_line
from papershelf.storage.text.urls import canonical

__all__ = ["NAME_MAX_CHARS", "bib_fields", "own_identity", "record_links", "title_of"]

NAME_MAX_CHARS = 200
"""A longer `name` is no name papershelf gave: the derived one is kept."""

_PAPER_ID = re.compile(r"[0-9a-f]{12}")


def _line(value: Any) -> str | None:
    return (clean_line(value) or None) if isinstance(value, str) else None


def title_of(record: dict[str, Any]) -> str | None:
    """The record's title: as imported when it says so, else `title`; one clean line or None."""
    return _line(record.get("title_as_imported")) or _line(record.get("title"))


def bib_fields(record: dict[str, Any]) -> dict[str, Any]:
    """`kind` (lower case), `cite_key` and `extra` (names lower case and unique, first wins,
    empty values dropped) when the record gives them in a usable form."""
    fields: dict[str, Any] = {}
    if kind := _line(record.get("kind")):
        fields["kind"] = kind.lower()
    if cite_key := _line(record.get("cite_key")):
        fields["cite_key"] = cite_key
    raw = record.get("extra")
    if isinstance(raw, dict):
        items = list(raw.items())
    elif isinstance(raw, list):
        items = [tuple(item) for item in raw if isinstance(item, list) and len(item) == 2]
    else:
        items = []
    pairs: dict[str, str] = {}
    for name, value in items:
        key, text = _line(name), _line(value)
        if key and text:
            pairs.setdefault(key.lower(), text)
    if pairs:
        fields["extra"] = tuple(pairs.items())
    return fields


def _urls(value: Any) -> tuple[str, ...]:
    """A list of web addresses, each canonical and once; anything else is left out."""
    if not isinstance(value, list):
        return ()
    found: list[str] = []
    for item in value:
        text = _line(item)
        url = canonical(text) if text and text.lower().startswith(("http://", "https://")) else None
        if url and url not in found:
            found.append(url)
    return tuple(found)


def record_links(paper: Paper, record: dict[str, Any]) -> Paper:
    """`paper` with the record's `code_urls` and `links`, in the record's order (a paper's own
    order, when `--json` printed it), then any of its own the record lacks. `--json`'s links
    end with the paper's page: the page stays `url`, not a link, unless the abstract has it."""
    given_code = _urls(record.get("code_urls"))
    code_urls = given_code + tuple(url for url in paper.code_urls if url not in given_code)
    given_links = tuple(
        url
        for url in _urls(record.get("links"))
        if url not in code_urls and (url != paper.url or url in paper.links)
    )
    links = given_links + tuple(url for url in paper.links if url not in given_links)
    if (code_urls, links) == (paper.code_urls, paper.links):
        return paper
    return replace(paper, code_urls=code_urls, links=links)


def own_identity(paper: Paper, record: dict[str, Any]) -> Paper:
    """`paper` under the record's `id` and `name` when the id is one of its own (see the
    module docstring); else as it is."""
    given = record.get("id")
    if not isinstance(given, str) or not _PAPER_ID.fullmatch(given):
        return paper
    if given != paper.id and given not in own_ids(paper):
        return paper
    name = _line(record.get("name"))
    if name is None or len(name) > NAME_MAX_CHARS:
        name = paper.name
    return replace(paper, id=given, name=name)
