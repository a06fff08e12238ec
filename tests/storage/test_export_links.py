"""The paper's own page in the Markdown export (issue 11), and the round trip that reads it back."""

from __future__ import annotations

import re
import textwrap
from dataclasses import replace
from datetime import date
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from synthetic import make_papers

from papershelf.storage.export.markdown import ExportItem, parse_markdown_list, to_markdown
from papershelf.storage.export.roundtrip import import_reading_list
from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry, Paper

TODAY = date(2025, 6, 1)
LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")


def paper(url: str | None, code_urls: tuple[str, ...] = ()) -> Paper:
    return Paper(
        id="aaaaaaaaaaaa",
        name="Wombat",
        title=None,
        abstract="We count wombats. Then we stop.",
        venue="Test 2025",
        sources=("a.jsonl",),
        code_urls=code_urls,
        url=url,
    )


def item_line(text: str, paper_id: str) -> str:
    (line,) = [line for line in text.splitlines() if f"<!-- papershelf:{paper_id} " in line]
    return line


def exported_links(p: Paper, entry: Entry | None = None) -> list[tuple[str, str]]:
    text = to_markdown([ExportItem(p, entry or Entry())], title="t", today=TODAY)
    return LINK.findall(item_line(text, p.id))


def test_the_page_is_a_link_on_the_item_line_after_the_code() -> None:
    p = paper("https://wombat.example.org/paper", ("https://github.com/w/wombat",))
    assert exported_links(p) == [
        ("code", "https://github.com/w/wombat"),
        ("page", "https://wombat.example.org/paper"),
    ]


def test_a_page_alone_is_a_link_too() -> None:
    assert exported_links(paper("https://wombat.example.org/p")) == [
        ("page", "https://wombat.example.org/p")
    ]


def test_a_page_that_is_the_repository_is_written_once() -> None:
    repo = "https://github.com/w/wombat"
    assert exported_links(paper(repo, (repo,))) == [("code", repo)]


def test_a_page_is_escaped_and_only_web_pages_are_links() -> None:
    assert exported_links(paper("https://x.example.org/a b) #t <!--")) == [
        ("page", "https://x.example.org/a%20b%29%20#t%20%3C!--")
    ]
    assert exported_links(paper("javascript:alert(1)")) == []
    assert exported_links(paper(None)) == []


# --- the round trip -----------------------------------------------------------------------

# URL paths made of the characters and pieces that mean something on an item line.
_PATH = st.lists(
    st.sampled_from([*"ab-_/#?=&%.()[]<>!`\\ \t*~xX", "-->", "<!--", " #t", "[x]"]),
    max_size=12,
).map("".join)
_ENTRY = st.builds(
    Entry,
    tags=st.frozensets(st.sampled_from(["a", "b", "to-read", "x-y"]), max_size=3),
    status=st.sampled_from(["unread", "reading", "read"]),
    starred=st.booleans(),
)


def rewrap(text: str, width: int) -> str:
    """Every item line re-wrapped by an editor at `width` (its id comment kept whole)."""
    lines = []
    for line in text.split("\n"):
        if "<!--" in line and line.startswith("- ["):
            at = line.index("<!-- papershelf:")
            head = line[:at] + line[at:].replace(" ", "\0")
            line = textwrap.fill(
                head, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
            ).replace("\0", " ")
        lines.append(line)
    return "\n".join(lines)


@given(
    st.lists(st.tuples(_PATH, _ENTRY), min_size=1, max_size=4),
    st.none() | st.integers(10, 90),
)
def test_pages_do_not_change_what_a_list_reads_back(
    cases: list[tuple[str, Entry]], width: int | None
) -> None:
    papers = make_papers(len(cases))
    with_pages = [
        ExportItem(replace(p, url=f"https://page.example.org/{path}"), entry)
        for p, (path, entry) in zip(papers, cases, strict=True)
    ]
    without = [ExportItem(p, entry) for p, (_, entry) in zip(papers, cases, strict=True)]

    def read(items: list[ExportItem]) -> list[tuple[object, ...]]:
        text = to_markdown(items, title="t", today=TODAY)
        if width is not None:
            text = rewrap(text, width)
        found = parse_markdown_list(text)
        return [(i.paper_id, i.checked, i.tags, i.exported_tags) for i in found]

    assert read(with_pages) == read(without)


def test_a_list_with_pages_imports_exactly_the_edits(tmp_path: Path) -> None:
    papers = [
        replace(p, url=f"https://page.example.org/{i}#top") for i, p in enumerate(make_papers(3))
    ]
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers(papers, "synthetic.txt")
    first, second, third = (p.id for p in papers)
    library.tag([first, second], add=["gnn"])
    items = [ExportItem(p, library.entry(p.id)) for p in library.papers()]
    text = to_markdown(items, title="t", today=date.today())
    assert "[page](https://page.example.org/0#top)" in item_line(text, first)
    text = text.replace(item_line(text, first), item_line(text, first).replace("[ ]", "[x]", 1))
    text = text.replace(item_line(text, second), item_line(text, second).replace(" #gnn", ""))
    path = tmp_path / "list.md"
    path.write_text(text, encoding="utf-8")

    report = import_reading_list(library, path)

    assert library.entry(first).status == "read" and library.entry(first).tags == {"gnn"}
    assert library.entry(second).tags == frozenset()
    assert library.entry(third) == Entry()
    assert report is not None


def test_without_a_url_the_page_is_the_arxiv_abstract_or_the_doi() -> None:
    arxiv = replace(paper(None), arxiv_id="1706.03762", doi="10.5555/3295222")
    assert exported_links(arxiv) == [("page", "https://arxiv.org/abs/1706.03762")]
    assert exported_links(replace(paper(None), doi="10.5555/3295222")) == [
        ("page", "https://doi.org/10.5555/3295222")
    ]
    # A url that is also one of the paper's links is still its page.
    linked = replace(paper("https://w.example.org/p"), links=("https://w.example.org/p",))
    assert exported_links(linked) == [("page", "https://w.example.org/p")]


def test_the_authors_follow_the_title_shortened() -> None:
    many = replace(
        paper(None),
        title="Counting Wombats",
        authors=("Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit"),
    )
    text = to_markdown([ExportItem(many, Entry())], title="t", today=TODAY)
    assert "  *Counting Wombats* — Vaswani, Shazeer, … +2\\\n" in text
    untitled = replace(paper(None), authors=("Lee, Ann",))
    text = to_markdown([ExportItem(untitled, Entry())], title="t", today=TODAY)
    assert "\n  Lee\\\n  We count wombats.\n" in text
    assert [found.paper_id for found in parse_markdown_list(text)] == [untitled.id]
