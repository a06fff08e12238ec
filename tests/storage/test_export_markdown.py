"""Markdown export rendered by a real CommonMark parser (markdown-it-py), under hypothesis.

"Reads back exactly" is defined by `clean_inline`: the text a viewer shows for an escaped field
is the field with every whitespace character turned into a space, control characters (Cc),
surrogates and bidi controls removed, runs of spaces collapsed to one and the ends stripped.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from urllib.parse import unquote

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

import papershelf.storage.export.markdown as export
from papershelf.storage.export.markdown import (
    ExportItem,
    first_sentence,
    parse_markdown_list,
    to_markdown,
)
from papershelf.storage.export.markdown_read import tag_record
from papershelf.storage.model import STATUSES, Entry, Paper, normalise_tag
from papershelf.storage.text.authors import authors_short
from papershelf.storage.text.mdescape import clean_inline, link_destination, markdown_escape


def _parser() -> MarkdownIt:
    """CommonMark plus the extensions viewers apply: tables, strikethrough, linkify, math."""
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    try:
        import linkify_it  # noqa: F401

        md.enable("linkify")
        md.options["linkify"] = True
    except ImportError:
        pass
    try:
        from mdit_py_plugins.dollarmath import dollarmath_plugin
        from mdit_py_plugins.footnote import footnote_plugin

        md.use(dollarmath_plugin).use(footnote_plugin)
    except ImportError:
        pass
    return md


MD = _parser()

NASTY = [
    "[x](javascript:alert(1))",
    "<script>alert(1)</script>",
    "![img](http://x)",
    "# heading",
    "## h2 ##",
    "| a | b |",
    "|---|---|",
    "---|---",
    ":-:|:-:",
    "=",
    "-",
    "$$x$$",
    "$a$",
    "`code`",
    "```",
    "~~~",
    "*",
    "**",
    "_",
    "__",
    "<http://x>",
    "www.x.com",
    "WWW.1x.com",
    "http://example.com/a",
    "x.com",
    "a.b.co.uk",
    "//localhost/x",
    "a@b.com",
    "mailto:a@b.c",
    "&amp;",
    "&#65;",
    "&copy",
    "\n",
    "\r\n",
    "\n\n",
    "\t",
    "    ",
    "\x00",
    "\x1b[31m",
    "\x7f",
    "\x85",
    "\u202e",
    "\u2066",
    "\u2028",
    "\u00a0",
    "\u3000",
    "---",
    "===",
    "***",
    "* * *",
    "1. ",
    "2) ",
    "- ",
    "+ ",
    "> ",
    "~~s~~",
    "~s~",
    "==hi==",
    "%%c%%",
    "<!-- papershelf:abcdef123456 -->",
    "-->",
    "\\",
    "\\\\",
    "[^1]",
    "[^1]: note",
    "[[wiki]]",
    "[ref]: http://x",
    "[x]",
    "[ ]",
    "#tag",
    "<div>",
    "</p>",
    "&",
    "<",
    ">",
    "(",
    ")",
    "\\*",
    "e.g.",
    "3.5",
    "x\uff0ecom",
    "a\u3002com",
]

nasty_text = st.lists(st.one_of(st.sampled_from(NASTY), st.text(max_size=6)), max_size=7).map(
    "".join
)


def _usable_tag(text: str) -> str | None:
    try:
        return normalise_tag(text)
    except ValueError:
        return None


tags = st.sets(nasty_text.map(_usable_tag).filter(lambda t: t is not None), max_size=3).map(
    frozenset
)


@dataclass(frozen=True)
class Url:
    """A code URL and whether the exporter must make it a link (an independent oracle)."""

    url: str
    link: bool


FIXED_URLS = [
    Url("https://github.com/owner/repo", True),
    Url("HTTPS://EXAMPLE.COM/X", True),
    Url("http://x.org/a(b)c", True),
    Url("https://x.com/a b<c>d`e|f", True),
    Url("https://x.com/?a=1&amp;b=2", True),
    Url("https://x.com/&#65;\\y", True),
    Url("https://x.com/)", True),
    Url("  https://x.com/padded  ", True),
    Url("https://x.com/a\nb\u202ec", True),
    Url("javascript:alert(1)", False),
    Url("JavaScript:alert(1)//https://x.com", False),
    Url("data:text/html,<b>x</b>", False),
    Url("file:///etc/passwd", False),
    Url("https://", False),
    Url("http:///x", False),
    Url("ftp://x.org", False),
    Url("//x.com", False),
    Url("www.x.com", False),
    Url("ht\ttps://x.com", False),
    Url("https://[::1", False),
    Url("", False),
]
urls = st.one_of(
    st.sampled_from(FIXED_URLS),
    st.builds(
        lambda scheme, host, path: Url(f"{scheme}://{host}/{path}", True),
        st.sampled_from(["http", "https", "HTTPS"]),
        st.sampled_from(["github.com", "huggingface.co", "a-b.example.org", "127.0.0.1:8080"]),
        nasty_text,
    ),
)


@dataclass(frozen=True)
class Case:
    item: ExportItem
    urls: tuple[Url, ...]


@st.composite
def cases(draw: st.DrawFn, index: int) -> Case:
    code = tuple(draw(st.lists(urls, max_size=3)))
    pid = hashlib.sha1(str(index).encode()).hexdigest()[:12]
    paper = Paper(
        id=pid,
        name=draw(nasty_text),
        title=draw(st.none() | nasty_text),
        abstract=draw(nasty_text),
        venue=draw(st.none() | nasty_text),
        sources=("s.txt",),
        code_urls=tuple(u.url for u in code),
        authors=tuple(draw(st.lists(nasty_text, max_size=5))),
    )
    entry = Entry(
        tags=draw(tags),
        status=draw(st.sampled_from(STATUSES)),
        starred=draw(st.booleans()),
        note=draw(nasty_text),
    )
    return Case(ExportItem(paper, entry), code)


@st.composite
def exports(draw: st.DrawFn) -> list[Case]:
    count = draw(st.integers(0, 4))
    return [draw(cases(i)) for i in range(count)]


# --- walking markdown-it tokens -----------------------------------------------------------


def walk(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from walk(token.children)


def inline_text(token: Token) -> str:
    """What a reader sees of an inline token: text, link text, comments; breaks as newlines."""
    parts = []
    for child in token.children or []:
        if child.type in ("text", "html_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


BLOCK_TYPES = {
    "heading_open",
    "heading_close",
    "paragraph_open",
    "paragraph_close",
    "bullet_list_open",
    "bullet_list_close",
    "list_item_open",
    "list_item_close",
    "inline",
}
INLINE_TYPES = {
    "text",
    "strong_open",
    "strong_close",
    "em_open",
    "em_close",
    "link_open",
    "link_close",
    "html_inline",
    "hardbreak",
}


def title_says(title: str, name: str) -> bool:
    """The title begins with the name's letters and digits (any case, any separators), ending
    as a word there, or the name is cut short (`…`, or 24 letters and digits or more)."""
    letters = "".join(ch for ch in name.removesuffix("…").casefold() if ch.isalnum())
    if not letters:
        return False
    # Each folded character of the title's letters and digits, with where in the title it is.
    folded = [(f, i) for i, ch in enumerate(title) if ch.isalnum() for f in ch.casefold()]
    if "".join(f for f, _ in folded[: len(letters)]) != letters:
        return False
    if name.endswith("…") or len(letters) >= 24:
        return True
    last = folded[len(letters) - 1][1]
    return not title[last + 1 : last + 2].isalnum()


def shown_heading(item: ExportItem) -> tuple[str, str]:
    """(what heads the item, the title shown under it or ""): each word once."""
    name = clean_inline(export.display(item.paper.name))
    title = clean_inline(export.display(item.paper.title or ""))
    if not title or title.casefold() == name.casefold():
        return name or item.paper.id, ""
    says_name = title_says(title, name)
    if not name or says_name:
        return title, ""
    return name, title


def has_comment(inline: Token) -> bool:
    return any(t.type == "html_inline" for t in inline.children or [])


def shown_name(item: ExportItem) -> str:
    return shown_heading(item)[0]


def expected_item_line(case: Case) -> str:
    """The exact text of an item line as a viewer shows it (the comment is kept as HTML)."""
    paper, entry = case.item.paper, case.item.entry
    text = ("[x]" if entry.status == "read" else "[ ]") + (" ★" if entry.starred else "")
    text += f" {shown_name(case.item)}"
    if clean_inline(paper.venue or ""):
        text += f" — {clean_inline(paper.venue or '')}"
    links = [u for u in case.urls if u.link]
    for number, _ in enumerate(links, start=1):
        text += " · " + ("code" if number == 1 else f"code {number}")
    for tag in sorted(entry.tags):
        text += f" #{tag}"
    return text + f" <!-- papershelf:{paper.id} {tag_record(entry.tags)} -->"


def expected_details(item: ExportItem) -> tuple[str, bool]:
    """The text of the paragraph under an item line, and whether it starts with the title."""
    paper, entry = item.paper, item.entry
    lines = []
    title = shown_heading(item)[1]
    title_shown = bool(title)
    authors = clean_inline(authors_short(paper.authors))
    if title_shown:
        lines.append(f"{title} — {authors}" if authors else title)
    elif authors:
        lines.append(authors)
    sentence = first_sentence(export.display(paper.abstract))
    if sentence:
        lines.append(sentence)
    if clean_inline(entry.note):
        lines.append(f"Note: {clean_inline(entry.note)}")
    return "\n".join(lines), title_shown


def list_items(tokens: list[Token]) -> list[list[Token]]:
    """The inline tokens of each top-level list item, in order."""
    items: list[list[Token]] = []
    for token in tokens:
        if token.type == "list_item_open":
            items.append([])
        elif token.type == "inline" and items and token.level >= 3:
            items[-1].append(token)
    return items


# --- properties ---------------------------------------------------------------------------


def test_the_parser_really_has_the_extensions() -> None:
    """Guards the properties below: a parser without these would make them pass trivially."""
    kinds = {t.type for t in walk(MD.parse("www.x.com ~~s~~ $m$\n\n| a |\n| - |\n"))}
    assert {"table_open", "s_open"} <= kinds
    if "linkify" in MD.get_active_rules()["core"]:
        assert "link_open" in kinds
    if "math_inline" in MD.get_active_rules()["inline"]:
        assert "math_inline" in kinds


# (before, after, what a reader sees of them, block tokens allowed around the text)
CONTEXTS_ANYWHERE = [
    ("x ", " y", "x ", " y", {"paragraph"}),
    ("x **", "** y", "x ", " y", {"paragraph"}),
    ("*", "*\\\nz", "", "\nz", {"paragraph"}),
]
CONTEXTS_LINE_START = [
    ("", "", "", "", {"paragraph"}),
    ("  ", "", "", "", {"paragraph"}),
    ("x\n", "", "x\n", "", {"paragraph"}),
    ("a | b\n", "", "a | b\n", "", {"paragraph"}),
    ("# ", "", "", "", {"heading"}),
    ("- ", "", "", "", {"bullet_list", "list_item", "paragraph"}),
    ("> ", "", "", "", {"blockquote", "paragraph"}),
]


@pytest.mark.parametrize("line_start", [True, False])
@given(text=nasty_text)
def test_escaped_text_is_plain_text_that_reads_back(text: str, line_start: bool) -> None:
    escaped = markdown_escape(text, line_start=line_start)
    expected = clean_inline(text)
    assume(expected)
    contexts = CONTEXTS_ANYWHERE + (CONTEXTS_LINE_START if line_start else [])
    for before, after, shown_before, shown_after, blocks in contexts:
        tokens = MD.parse(before + escaped + after)
        assert {t.type.removesuffix("_open").removesuffix("_close") for t in tokens} == {
            "inline",
            *blocks,
        }, (before, escaped, after)
        (inline,) = [t for t in tokens if t.type == "inline"]
        kinds = {t.type for t in walk(inline.children or [])}
        markers = {"**": {"strong_open", "strong_close"}, "*": {"em_open", "em_close"}}
        wanted = markers.get(before.split(" ")[-1], set())
        assert kinds - {"text", "softbreak", "hardbreak"} == wanted
        assert inline_text(inline) == shown_before + expected + shown_after


@given(text=st.text())
def test_clean_inline_is_one_clean_line(text: str) -> None:
    clean = clean_inline(text)
    assert clean == clean.strip() and "  " not in clean
    assert not any(ch.isspace() and ch != " " for ch in clean)
    assert not any(unicodedata.category(ch) in ("Cc", "Cs") for ch in clean)
    assert "\u202e" not in clean and clean_inline(clean) == clean


@given(url=urls)
def test_link_destination_is_safe_and_points_to_the_same_place(url: Url) -> None:
    destination = link_destination(url.url)
    assert (destination is not None) == url.link
    if destination is None:
        return
    assert not re.search(r"[\s()<>`|]", destination)
    assert destination.lower().startswith(("http://", "https://"))
    assert unquote(destination.replace("\\&", "&")) == unquote(url.url.strip())


@given(cases_=exports(), grouped=st.booleans(), title=nasty_text)
def test_rendered_export_has_only_intended_markup_and_reads_back(
    cases_: list[Case], grouped: bool, title: str
) -> None:
    text = to_markdown(
        [c.item for c in cases_], title=title, group_by_tag=grouped, today=date(2025, 6, 1)
    )
    assert not any(unicodedata.category(ch) in ("Cc", "Cs") and ch != "\n" for ch in text), (
        "control characters in the file"
    )
    tokens = MD.parse(text)
    kinds = [t.type for t in tokens]
    assert set(kinds) <= BLOCK_TYPES, set(kinds) - BLOCK_TYPES
    inline_kinds = {t.type for t in walk(tokens)} - set(kinds)
    assert inline_kinds <= INLINE_TYPES, inline_kinds - INLINE_TYPES

    headings = [t for t in tokens if t.type == "heading_open"]
    assert headings[0].tag == "h1" and all(h.tag == "h2" for h in headings[1:])
    inlines = [t for t in tokens if t.type == "inline"]
    assert inline_text(inlines[0]) == (clean_inline(title) or "Reading list")
    count = len(cases_)
    assert inline_text(inlines[1]).startswith(
        f"Exported 2025-06-01 · {count} {'paper' if count == 1 else 'papers'}"
    )
    shown_sections = [inline_text(t) for t in inlines if t.level == 1][2:]
    every_tag = {tag for c in cases_ for tag in c.item.entry.tags}
    assert set(shown_sections) <= every_tag | {"untagged", "untagged (no tags)"}
    if not grouped:
        assert len(headings) == 1
    lists = kinds.count("bullet_list_open")
    assert lists == (len(headings) - 1 if grouped else min(1, len(cases_)))
    # No list inside a list item: a paper is exactly one top-level item.
    assert all(t.level == 0 for t in tokens if t.type == "bullet_list_open")

    every = list_items(tokens)
    # A paper of several tags is an item under its first and a pointer under the others.
    items = [found for found in every if has_comment(found[0])]
    pointers = [found for found in every if not has_comment(found[0])]
    assert len(items) == len(cases_)
    by_name = {shown_name(c.item) for c in cases_}
    for (pointer,) in pointers:
        assert grouped
        match = re.fullmatch(r"(.*) — see (.+) above", inline_text(pointer), re.DOTALL)
        assert match and match[1] in by_name and match[2] in every_tag
    by_id = {c.item.paper.id: c for c in cases_}
    for inlines in items:
        head = inlines[0]
        comments = [t.content for t in head.children or [] if t.type == "html_inline"]
        assert len(comments) == 1
        case = by_id[re.fullmatch(r"<!-- papershelf:(\w+) tags=\S* -->", comments[0])[1]]
        assert inline_text(head) == expected_item_line(case)
        children = head.children or []
        assert sum(t.type == "strong_open" for t in children) == 1
        assert not any(t.type.startswith("em_") for t in children)
        hrefs = [t.attrs["href"] for t in children if t.type == "link_open"]
        assert all(str(h).lower().startswith(("http://", "https://")) for h in hrefs)
        wanted = [unquote(MD.normalizeLink(u.url.strip())) for u in case.urls if u.link]
        assert [unquote(str(h)) for h in hrefs] == wanted
        details, title_shown = expected_details(case.item)
        assert len(inlines) == (2 if details else 1)
        if details:
            body = inlines[1].children or []
            assert inline_text(inlines[1]) == details
            assert not any(t.type in ("strong_open", "link_open", "html_inline") for t in body)
            assert sum(t.type == "em_open" for t in body) == title_shown


@given(
    cases_=exports(),
    grouped=st.booleans(),
    crlf=st.booleans(),
    indent=st.integers(0, 3),
    data=st.data(),
)
def test_parse_reads_back_every_exported_item(
    cases_: list[Case], grouped: bool, crlf: bool, indent: int, data: st.DataObject
) -> None:
    every_tag = sorted({tag for c in cases_ for tag in c.item.entry.tags})
    only = data.draw(st.none() | st.sets(st.sampled_from(every_tag)) if every_tag else st.none())
    exported = [c for c in cases_ if not only or only & c.item.entry.tags]
    text = to_markdown([c.item for c in cases_], title="t", group_by_tag=grouped, only_tags=only)
    edited = ("\r\n" if crlf else "\n").join(" " * indent + line for line in text.split("\n"))
    found = parse_markdown_list(edited)
    in_file_order = sorted(exported, key=lambda c: text.index(f"papershelf:{c.item.paper.id}"))
    assert [f.paper_id for f in found] == [c.item.paper.id for c in in_file_order]
    for listed, case in zip(found, in_file_order, strict=True):
        assert listed.checked == (case.item.entry.status == "read")
        assert listed.tags == case.item.entry.tags
        assert listed.exported_tags == case.item.entry.tags
        assert f"papershelf:{listed.paper_id}" in edited.splitlines()[listed.line - 1]


@given(tag_set=tags)
def test_tags_read_back_even_when_a_person_adds_punctuation_after_them(
    tag_set: frozenset[str],
) -> None:
    assume(tag_set)
    paper = Paper("aaaaaaaaaaaa", "N", None, "", None, ("s",))
    text = to_markdown([ExportItem(paper, Entry(tags=tag_set))], title="t")
    lines = [line + "." if "papershelf:" in line else line for line in text.split("\n")]
    lines = [re.sub(r" <!--", ", <!--", line) for line in lines]
    (found,) = parse_markdown_list("\n".join(lines))
    assert found.tags == tag_set
