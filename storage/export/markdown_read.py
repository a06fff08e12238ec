"""Reading back a Markdown reading list papershelf exported, after a person ticked and edited it.

Items are found by their `<!-- papershelf:ID tags=... -->` comment; only the line holding it is
read: its checkbox, its `#tags`, and the comment's record of the tags the export wrote there
(`tags=` and the tags, comma-separated and percent-encoded, see `tag_record`), which tells the
tags a person deleted from the line from those added to the paper in papershelf since. Lists
exported before the record existed have `<!-- papershelf:ID -->` only. Everything else a person
changed is ignored.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from urllib.parse import unquote

from papershelf.storage.model import TAG_MAX_LENGTH, normalise_tag

__all__ = [
    "ListScan",
    "ListedItem",
    "line_tags",
    "parse_markdown_list",
    "read_tag_record",
    "scan_markdown_list",
    "tag_record",
]

# A comment written by a person after a backslash (`\<!--`) is text, not an id. What follows
# the id up to `-->` is the tag record; a person may have mangled it (then it is ignored).
_ID_COMMENT = re.compile(r"(?<!\\)<!--\s*papershelf:([0-9A-Za-z_.]{1,64})(?:\s(.*?))?-->")
_RECORD = re.compile(r"\s*tags=([^\s]*)\s*")
_ANY_COMMENT = re.compile(r"(?<!\\)<!--.*?-->")
_TASK = re.compile(r"^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,9}[.)])[ \t]+\[([ xX])\]")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
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
    exported_tags: frozenset[str] | None = None
    """The tags the export wrote on the line, as read back (its comment's record); None when
    the comment has none (a list from an older papershelf, or a record a person mangled)."""


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


def tag_record(tags: frozenset[str] | set[str]) -> str:
    """`tags=a,b`: the comment's record of the tags written on an item line.

    Each tag is percent-encoded but for letters, digits, `_`, `.`, `+` and single `-`, so the
    record can never end the HTML comment (`-->`), hold `--`, or be split by a space or comma.
    """
    return "tags=" + ",".join(_record_text(tag) for tag in sorted(tags))


def _record_text(tag: str) -> str:
    out: list[str] = []
    for ch in tag:
        keep = ch.isalnum() or ch in "_.+" or (ch == "-" and not (out and out[-1] == "-"))
        out.append(ch if keep else "".join(f"%{byte:02X}" for byte in ch.encode("utf-8")))
    return "".join(out)


def read_tag_record(text: str | None) -> frozenset[str] | None:
    """The tags in the rest of an id comment (see `tag_record`); None when there is no record."""
    if text is None:
        return None
    match = _RECORD.fullmatch(text)
    if match is None:
        return None
    body = match.group(1)
    return frozenset(unquote(part) for part in body.split(",") if part) if body else frozenset()


def line_tags(line: str) -> frozenset[str]:
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
    checked and its `#tags` (and the comment's record of the exported tags) are read back. An
    editor that re-wraps long lines may move the comment onto a line of its own: then the item
    runs from the checklist line above it (with no blank line between) to the comment, and its
    box and every `#tag` on those lines count. A paper found on several lines is one item
    (checked if any is, tags and records united, first line). Checklist lines without an id
    are counted as unmatched.
    """
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    found: dict[str, ListedItem] = {}
    unmatched = []
    # The checklist line without a comment being read, and the lines after it so far: the
    # start of an item whose comment a re-wrap moved down.
    wrapped: list[str] = []
    wrapped_task: re.Match[str] | None = None
    wrapped_at = 0
    for number, line in enumerate(lines, start=1):
        comments = _ID_COMMENT.findall(line)
        task = _TASK.match(line)
        if not comments:
            if task:
                unmatched.append(number)
                wrapped, wrapped_task, wrapped_at = [line], task, number
            elif wrapped and line.strip() and not _HEADING.match(line):
                wrapped.append(line)
            else:
                wrapped, wrapped_task = [], None  # a blank line or a heading ends an item
            continue
        at = number
        item_text = line
        if task is None and wrapped_task is not None:
            task, at, item_text = wrapped_task, wrapped_at, "\n".join([*wrapped, line])
            unmatched.remove(wrapped_at)
        wrapped, wrapped_task = [], None
        checked = task is not None and task.group(1) in "xX"
        tags = line_tags(item_text)
        for paper_id, rest in comments:
            exported = read_tag_record(rest)
            earlier = found.get(paper_id)
            if earlier is None:
                found[paper_id] = ListedItem(paper_id, checked, tags, at, exported)
            else:
                found[paper_id] = ListedItem(
                    paper_id,
                    earlier.checked or checked,
                    earlier.tags | tags,
                    earlier.line,
                    _unite(earlier.exported_tags, exported),
                )
    return ListScan(tuple(found.values()), tuple(unmatched))


def _unite(first: frozenset[str] | None, second: frozenset[str] | None) -> frozenset[str] | None:
    """Records of one paper on two lines: what either line was exported with."""
    if first is None or second is None:
        return second if first is None else first
    return first | second


def parse_markdown_list(text: str) -> list[ListedItem]:
    """The items of a ticked Markdown list, in file order (see `scan_markdown_list`)."""
    return list(scan_markdown_list(text).items)
