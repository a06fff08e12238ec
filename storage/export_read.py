"""Reading back a Markdown reading list papershelf exported, after a person ticked and edited it.

Items are found by their `<!-- papershelf:ID -->` comment; only the line holding it is read:
its checkbox and its `#tags`. Everything else a person changed is ignored.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from storage.model import TAG_MAX_LENGTH, normalise_tag

__all__ = ["ListScan", "ListedItem", "parse_markdown_list", "scan_markdown_list"]

# A comment written by a person after a backslash (`\<!--`) is text, not an id.
_ID_COMMENT = re.compile(r"(?<!\\)<!--\s*papershelf:([0-9A-Za-z_.]{1,64})\s*-->")
_ANY_COMMENT = re.compile(r"(?<!\\)<!--.*?-->")
_TASK = re.compile(r"^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,9}[.)])[ \t]+\[([ xX])\]")
_TAG = re.compile(r"(?<!\S)#((?:\\\S|[^\s\\])+)")
_PUNCTUATION = frozenset(string.punctuation)
_TAG_UNIT = re.compile(r"\\[!-/:-@\[-`{-~]|.")  # an escaped character, or any one character


@dataclass(frozen=True)
class ListedItem:
    """One item found in a Markdown list papershelf exported (and a person may have edited)."""

    paper_id: str
    checked: bool
    tags: frozenset[str]
    """The `#tags` on the item line, normalised."""
    line: int
    """1-based line number of the item line."""


@dataclass(frozen=True)
class ListScan:
    """Everything `scan_markdown_list` found."""

    items: tuple[ListedItem, ...]
    unmatched: tuple[int, ...]
    """Line numbers of checklist items without a papershelf id (a person deleted the comment)."""


def _tag_from_token(token: str) -> str:
    """The normalised tag in `#token`; raises ValueError when there is none.

    Escapes are undone, trailing unescaped punctuation (`#tag.`) is dropped, and escaped
    leading `#`/`+` are part of the tag (see `_tag_text`).
    """
    units = _TAG_UNIT.findall(token)
    while units and units[-1] in _PUNCTUATION:
        units.pop()
    lead = ""
    while units and units[0] in ("\\#", "\\+"):
        lead += units.pop(0)[-1]
    rest = "".join(unit[-1] for unit in units)
    tag = lead + normalise_tag(rest) if rest else lead
    if not tag or len(tag) > TAG_MAX_LENGTH:
        raise ValueError(f"not a usable tag: {token!r}")
    return tag


def _line_tags(line: str) -> frozenset[str]:
    """The normalised `#tags` on one item line (comments skipped, escapes undone)."""
    text = _ANY_COMMENT.sub(" ", line)
    tags = set()
    for match in _TAG.finditer(text):
        try:
            tags.add(_tag_from_token(match.group(1)))
        except ValueError:
            continue  # e.g. `#` followed only by control characters
    return frozenset(tags)


def scan_markdown_list(text: str) -> ListScan:
    """Find the items of a Markdown list papershelf exported, as a person left it.

    An item is the line holding its `<!-- papershelf:ID -->` comment; `[x]`/`[X]` there means
    checked and its `#tags` are read back. A paper found on several lines is one item (checked
    if any is, tags united, first line). Checklist lines without an id are counted as unmatched.
    """
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    found: dict[str, ListedItem] = {}
    unmatched = []
    for number, line in enumerate(lines, start=1):
        ids = _ID_COMMENT.findall(line)
        task = _TASK.match(line)
        if not ids:
            if task:
                unmatched.append(number)
            continue
        checked = task is not None and task.group(1) in "xX"
        tags = _line_tags(line)
        for paper_id in ids:
            earlier = found.get(paper_id)
            if earlier is None:
                found[paper_id] = ListedItem(paper_id, checked, tags, number)
            else:
                found[paper_id] = ListedItem(
                    paper_id, earlier.checked or checked, earlier.tags | tags, earlier.line
                )
    return ListScan(tuple(found.values()), tuple(unmatched))


def parse_markdown_list(text: str) -> list[ListedItem]:
    """The items of a ticked Markdown list, in file order (see `scan_markdown_list`)."""
    return list(scan_markdown_list(text).items)
