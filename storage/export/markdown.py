"""Markdown reading lists: export (`to_markdown`) and reading a ticked list back (the file is
written by `storage.export.writing`, shared by every format; its names are re-exported here).

Layout (CommonMark; renders as intended on GitHub, in VS Code and Obsidian)::

    # Title

    Exported 2025-06-01 · 3 papers · 1 read

    ## gnn

    - [x] ★ **RelGNN** — ICML 2025 · [code](https://x.org/r) #gnn <!-- papershelf:ID tags=gnn -->

      *Paper title* — Vaswani, Shazeer, … +6\\
      The abstract's first sentence.\\
      Note: the user's note

Each paper appears once, so a list has one box to tick per paper. With `group_by_tag` it sits
under its alphabetically first tag (not counting the `only_tags` the export was limited to, when
it has others) and every one of its tags is written on its line as `#tag`; papers without tags
come last under `## untagged`. The item line (checkbox, name, links, tags, id comment) is what
`parse_markdown_list` (`storage.export.markdown_read`, re-exported here) reads back; the indented
paragraph under it is for the reader and is ignored on the way back. The id comment also
records the tags written on the line (`tags=...`, as reading the line gives them back), so that
importing the edited list can tell a tag the person deleted from one added in papershelf since.
The links are `[code](URL)` for each code URL, then `[page](URL)` for the paper's own page (its
`url`, else its arXiv abstract page, else its DOI). The authors follow the title, shortened by
`text.authors.authors_short`.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from papershelf.storage.export.markdown_read import (
    ListedItem,
    ListScan,
    line_tags,
    parse_markdown_list,
    scan_markdown_list,
    tag_record,
)
from papershelf.storage.export.writing import (
    ExportError,
    ExportExists,
    default_export_name,
    write_export,
)
from papershelf.storage.model import Entry, Paper, normalise_tag
from papershelf.storage.text.authors import authors_short
from papershelf.storage.text.mdescape import clean_inline, link_destination, markdown_escape

__all__ = [
    "ExportError",
    "ExportExists",
    "ExportItem",
    "ListScan",
    "ListedItem",
    "default_export_name",
    "display",
    "first_sentence",
    "listed_tag",
    "markdown_escape",
    "parse_markdown_list",
    "scan_markdown_list",
    "to_markdown",
    "write_export",
]

DEFAULT_TITLE = "Reading list"
UNTAGGED = "untagged"
SENTENCE_MAX = 300
"""Longest first sentence written; a longer one is cut at a word boundary and ends with `…`."""
HEAD_MAX = 4 * SENTENCE_MAX
"""Raw abstract characters turned into display text to find the first sentence."""

# Ids go into an HTML comment, so they must not contain `--` or `>`; real ids are 12 hex digits.
_SAFE_ID = re.compile(r"[0-9A-Za-z_.]{1,64}")
_PUNCTUATION = frozenset(string.punctuation)
# Sentence ends: `.`/`!`/`?` (with closing quotes or brackets) before a space, or CJK full stops.
_CJK_STOPS = "\u3002\uff01\uff1f"
_SENTENCE_END = re.compile(rf"[.!?][\"'\u201d\u2019)\]]*(?=\s)|[{_CJK_STOPS}]")
_OPENERS = "([\"'\u201c\u2018"
_ABBREVIATIONS = frozenset(
    [
        "e.g.",
        "i.e.",
        "al.",
        "cf.",
        "vs.",
        "fig.",
        "figs.",
        "eq.",
        "eqs.",
        "sec.",
        "no.",
        "approx.",
        "resp.",
        "ref.",
        "refs.",
        "ca.",
        "viz.",
    ]
)


@dataclass(frozen=True)
class ExportItem:
    """One paper to export, with the user's state for it."""

    paper: Paper
    entry: Entry


@functools.cache
def _display_function() -> Callable[[str], str]:
    """`text.latex.display_text(...).text`, or the identity while latex.py does not exist."""
    try:
        from papershelf.storage.text.latex import display_text  # optional: another part writes it
    except ModuleNotFoundError as error:
        if error.name != "papershelf.storage.text.latex":
            raise
        return lambda text: text
    return lambda text: display_text(text).text


def display(text: str) -> str:
    """The display text of paper text: LaTeX as Unicode, Markdown emphasis markers removed."""
    return _display_function()(text)


def first_sentence(text: str, limit: int = SENTENCE_MAX) -> str:
    """The first sentence of `text` as one clean line, at most `limit` characters (plus `…`)."""
    clean = clean_inline(text)
    end = len(clean)
    for match in _SENTENCE_END.finditer(clean):
        word = clean[: match.start() + 1].rsplit(" ", 1)[-1].lstrip(_OPENERS)
        if word.casefold() in _ABBREVIATIONS or re.fullmatch(r"[A-Z]\.", word):
            continue  # `e.g.`, `et al.`, initials
        rest = clean[match.end() :].lstrip()
        if match.group()[0] in _CJK_STOPS or not rest or not rest[0].islower():
            end = match.end()
            break
    sentence = clean[:end].strip()
    if len(sentence) <= limit:
        return sentence
    cut = sentence[:limit]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"


def _head(abstract: str) -> str:
    """The start of an abstract, long enough for its first sentence (display text is costly)."""
    if len(abstract) <= HEAD_MAX:
        return abstract
    cut = abstract[:HEAD_MAX]
    return cut[: cut.rindex(" ")] if " " in cut else cut


def _tag_key(tag: str) -> str:
    """A tag in normal form when it has one, else as stored."""
    try:
        return normalise_tag(tag)
    except ValueError:
        return tag


def _wanted_tags(only_tags: Collection[str] | None) -> frozenset[str] | None:
    """Normalise `only_tags`; None (or empty) means every paper."""
    if isinstance(only_tags, str):
        only_tags = (only_tags,)  # a lone tag, not its characters
    if not only_tags:
        return None
    try:
        return frozenset(normalise_tag(tag) for tag in only_tags)
    except ValueError as error:
        raise ExportError(str(error)) from None


def _select(items: Iterable[ExportItem], wanted: frozenset[str] | None) -> list[ExportItem]:
    """The items to export: first occurrence of each paper, filtered by `wanted` tags."""
    seen: set[str] = set()
    chosen = []
    for item in items:
        if item.paper.id in seen:
            continue
        if wanted is not None and not wanted & {_tag_key(t) for t in item.entry.tags}:
            continue
        seen.add(item.paper.id)
        chosen.append(item)
    return chosen


def _section_tags(entry: Entry, wanted: frozenset[str] | None) -> list[str]:
    """The sections a paper belongs in, alphabetically: each of its tags, or (an export of
    some tags) each of those it carries."""
    tags = sorted({_tag_key(tag) for tag in entry.tags})
    return tags if wanted is None else [tag for tag in tags if tag in wanted]


@dataclass(frozen=True, slots=True)
class _Section:
    heading: str
    items: list[ExportItem]
    """Papers written here in full: those whose first section this is."""
    elsewhere: list[tuple[ExportItem, str]]
    """Papers of this tag written in full under an earlier section (the item, that tag)."""


def _groups(items: Sequence[ExportItem], wanted: frozenset[str] | None) -> list[_Section]:
    """The sections: tags alphabetically, then the untagged papers.

    A paper is written in full once, under its first section, so the list has one box to tick
    per paper; every other section of its tags names it with a pointer there, so that a reader
    looking under any of its tags finds it.
    """
    full: dict[str, list[ExportItem]] = {}
    pointers: dict[str, list[tuple[ExportItem, str]]] = {}
    untagged: list[ExportItem] = []
    for item in items:
        tags = _section_tags(item.entry, wanted)
        if not tags:
            untagged.append(item)
            continue
        full.setdefault(tags[0], []).append(item)
        for tag in tags[1:]:
            pointers.setdefault(tag, []).append((item, tags[0]))
    sections = [
        _Section(markdown_escape(tag), full.get(tag, []), pointers.get(tag, []))
        for tag in sorted(full.keys() | pointers.keys())
    ]
    if untagged:
        # A real tag can be called "untagged"; tags never contain spaces, so this cannot clash.
        heading = (
            UNTAGGED if UNTAGGED not in full.keys() | pointers.keys() else f"{UNTAGGED} (no tags)"
        )
        sections.append(_Section(heading, untagged, []))
    return sections


def _summary(items: Sequence[ExportItem], today: date) -> str:
    """The line under the title: date, number of papers, how many are read."""
    count = len(items)
    read = sum(item.entry.status == "read" for item in items)
    noun = "paper" if count == 1 else "papers"
    line = f"Exported {today.isoformat()} · {count} {noun}"
    return f"{line} · {read} read" if read else line


def _tag_text(tag: str) -> str:
    """`#tag` as written on an item line (a stored tag never has spaces; be safe anyway)."""
    tag = "-".join(clean_inline(tag).split())
    # A tag can start with `#`/`+` ("+ #x" normalises to "#x"); escaped, they are kept on the way
    # back, where a leading marker typed by a person is dropped by `normalise_tag`.
    rest = tag.lstrip("#+")
    lead = "".join("\\" + ch for ch in tag[: len(tag) - len(rest)])
    text = lead + markdown_escape(rest, line_start=False)
    backslashes = len(text[:-1]) - len(text[:-1].rstrip("\\"))
    if text[-1:] in _PUNCTUATION and backslashes % 2 == 0:
        # Escaped, so that reading back does not drop it like the `.` in "see #tag."
        text = text[:-1] + "\\" + text[-1]
    return "#" + text


def listed_tag(tag: str) -> str | None:
    """The tag as reading back an exported item line gives it (the stored tag, for any tag
    papershelf stores itself); None when its `#tag` reads back as no tag at all."""
    found = line_tags(_tag_text(tag))
    return next(iter(found)) if found else None


def _item_lines(item: ExportItem) -> list[str]:
    """The Markdown lines of one paper: the item line, then its indented details paragraph."""
    paper, entry = item.paper, item.entry
    name, title = _heading_text(paper)
    parts = ["-", "[x]" if entry.status == "read" else "[ ]"]
    if entry.starred:
        parts.append("★")
    head = f"**{markdown_escape(name)}**"
    venue = markdown_escape(paper.venue or "")
    if venue:
        head += f" — {venue}"
    destinations = [d for d in map(link_destination, paper.code_urls) if d is not None]
    for number, destination in enumerate(destinations, start=1):
        label = "code" if number == 1 else f"code {number}"
        head += f" · [{label}]({destination})"
    page_url = _page(paper)
    page = link_destination(page_url) if page_url else None
    if page is not None:
        head += f" · [page]({page})"
    parts.append(head)
    parts.extend(_tag_text(tag) for tag in sorted(entry.tags))
    if _SAFE_ID.fullmatch(paper.id):
        written = {listed for listed in map(listed_tag, entry.tags) if listed is not None}
        parts.append(f"<!-- papershelf:{paper.id} {tag_record(written)} -->")
    lines = [" ".join(parts)]

    details = []
    authors = markdown_escape(clean_inline(authors_short(paper.authors)))
    if title:
        details.append(f"*{markdown_escape(title)}*" + (f" — {authors}" if authors else ""))
    elif authors:
        details.append(authors)
    sentence = first_sentence(display(_head(paper.abstract)))
    if sentence:
        details.append(markdown_escape(sentence))
    note = markdown_escape(entry.note)
    if note:
        details.append(f"Note: {note}")
    if details:
        # A blank line, then one paragraph whose lines end in `\` (a hard line break).
        lines += ["", "\\\n".join(f"  {line}" for line in details)]
    return lines


def _page(paper: Paper) -> str | None:
    """The paper's own page: its `url` (unless it is one of its code links, written already),
    else its arXiv abstract page, else its DOI's resolver."""
    if paper.url:
        return None if paper.url in paper.code_urls else paper.url
    if paper.arxiv_id:
        return f"https://arxiv.org/abs/{paper.arxiv_id}"
    if paper.doi:
        return f"https://doi.org/{paper.doi}"
    return None


def to_markdown(
    items: Sequence[ExportItem],
    *,
    title: str,
    group_by_tag: bool = True,
    today: date | None = None,
    only_tags: Collection[str] | None = None,
) -> str:
    """Render `items` (in their given order within each section) as a Markdown reading list.

    `only_tags`, when given and not empty, keeps only papers carrying at least one of those tags;
    sections then come from the papers' other tags (a `#to-read` list is grouped by topic), and
    a paper with no other tag sits under its `only_tags` tag. Raises ExportError for an unusable
    tag.
    """
    wanted = _wanted_tags(only_tags)
    chosen = _select(items, wanted)
    lines = [
        f"# {markdown_escape(title) or DEFAULT_TITLE}",
        "",
        _summary(chosen, today or date.today()),
        "",
    ]
    sections = _groups(chosen, wanted) if group_by_tag else [_Section("", chosen, [])]
    for section in sections:
        if section.heading:
            lines += [f"## {section.heading}", ""]
        for item in section.items:
            lines += [*_item_lines(item), ""]
        for item, first in section.elsewhere:
            lines += [_pointer_line(item, first), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _pointer_line(item: ExportItem, first: str) -> str:
    """A paper written in full under an earlier section: a plain bullet (no box, no id, so
    reading the list back never takes it for the paper's item) saying where."""
    head = markdown_escape(_heading_text(item.paper)[0])
    return f"- **{head}** — see *{markdown_escape(first)}* above"


def _heading_text(paper: Paper) -> tuple[str, str]:
    """(heading, title shown below it or ""), one clean line each, as `text.headings` says."""
    from papershelf.storage.text.headings import heading

    title = clean_inline(display(paper.title or ""))
    head, below = heading(clean_inline(display(paper.name)), title or None)
    return head or paper.id, below or ""
