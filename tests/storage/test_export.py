"""Markdown export: layout, file name, writing rules and reading a ticked list back (unit tests)."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import papershelf.storage.export.markdown as export
import papershelf.storage.export.writing as writing
from papershelf.storage.errors import PapershelfError
from papershelf.storage.export.markdown import (
    ExportError,
    ExportExists,
    ExportItem,
    ListedItem,
    default_export_name,
    first_sentence,
    parse_markdown_list,
    scan_markdown_list,
    to_markdown,
    write_export,
)
from papershelf.storage.export.markdown_read import read_tag_record, tag_record
from papershelf.storage.model import Entry, Paper
from papershelf.storage.names.derive import derive_name

TODAY = date(2025, 6, 1)


def paper(
    pid: str,
    name: str,
    *,
    title: str | None = None,
    abstract: str = "An abstract. With two sentences.",
    venue: str | None = "ICML 2025",
    code_urls: tuple[str, ...] = (),
) -> Paper:
    return Paper(
        id=pid,
        name=name,
        title=title,
        abstract=abstract,
        venue=venue,
        sources=("a.txt",),
        code_urls=code_urls,
    )


def item(p: Paper, *tags: str, status: str = "unread", starred: bool = False, note: str = ""):
    return ExportItem(p, Entry(tags=frozenset(tags), status=status, starred=starred, note=note))


def item_line(text: str, pid: str) -> str:
    """The one line of `text` that carries the id comment of `pid`."""
    (line,) = [line for line in text.splitlines() if f"<!-- papershelf:{pid} " in line]
    return line


def headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("#")]


# --- layout -------------------------------------------------------------------------------


def test_header_has_title_date_and_count() -> None:
    items = [item(paper("aaaaaaaaaaaa", "A")), item(paper("bbbbbbbbbbbb", "B"), status="read")]
    text = to_markdown(items, title="My list", today=TODAY)
    lines = text.splitlines()
    assert lines[0] == "# My list"
    assert lines[2] == "Exported 2025-06-01 · 2 papers · 1 read"
    assert text.endswith("\n") and not text.endswith("\n\n")


def test_count_is_singular_for_one_paper_and_title_has_a_default() -> None:
    text = to_markdown([item(paper("aaaaaaaaaaaa", "A"))], title="  ", today=TODAY)
    assert text.splitlines()[0] == "# Reading list"
    assert text.splitlines()[2] == "Exported 2025-06-01 · 1 paper"


def test_empty_export_is_header_only() -> None:
    text = to_markdown([], title="Nothing", today=TODAY)
    assert text == "# Nothing\n\nExported 2025-06-01 · 0 papers\n"


def test_item_line_layout() -> None:
    p = paper("0123456789ab", "RelGNN", code_urls=("https://github.com/o/relgnn",))
    text = to_markdown([item(p, "gnn")], title="t", today=TODAY)
    assert item_line(text, p.id) == (
        "- [ ] **RelGNN** — ICML 2025 · [code](https://github.com/o/relgnn) #gnn "
        "<!-- papershelf:0123456789ab tags=gnn -->"
    )


def test_read_is_ticked_and_star_is_shown() -> None:
    p, q = paper("aaaaaaaaaaaa", "Read"), paper("bbbbbbbbbbbb", "Starred")
    text = to_markdown(
        [item(p, status="read"), item(q, status="reading", starred=True)], title="t", today=TODAY
    )
    assert item_line(text, p.id).startswith("- [x] **Read**")
    assert item_line(text, q.id).startswith("- [ ] ★ **Starred**")


def test_every_web_code_url_is_a_link_and_nothing_else_is() -> None:
    urls = ("https://github.com/o/a", "javascript:alert(1)", "http://gitlab.com/o/b(c) d", "x")
    p = paper("aaaaaaaaaaaa", "N", code_urls=urls)
    line = item_line(to_markdown([item(p)], title="t", today=TODAY), p.id)
    assert re.findall(r"\[([^\]]*)\]\(([^)]*)\)", line) == [
        ("code", "https://github.com/o/a"),
        ("code 2", "http://gitlab.com/o/b%28c%29%20d"),
    ]
    assert "javascript" not in line


def test_venue_is_left_out_when_unknown() -> None:
    p = paper("aaaaaaaaaaaa", "N", venue=None)
    assert item_line(to_markdown([item(p)], title="t", today=TODAY), p.id).startswith(
        "- [ ] **N** <!--"
    )


def test_details_paragraph_has_title_first_sentence_and_note() -> None:
    p = paper(
        "aaaaaaaaaaaa",
        "RelGNN",
        title="Composite Message Passing",
        abstract="Graphs matter, e.g. in databases. We introduce RelGNN. It works.",
    )
    text = to_markdown([item(p, note="re-read §3\nlater")], title="t", today=TODAY)
    lines = text.splitlines()
    at = lines.index(item_line(text, p.id))
    assert lines[at + 1] == ""
    assert lines[at + 2] == "  *Composite Message Passing*\\"
    assert lines[at + 3] == "  Graphs matter, e\\.g. in databases.\\"
    assert lines[at + 4] == "  Note: re-read §3 later"


def test_title_equal_to_name_is_not_repeated_and_empty_parts_are_left_out() -> None:
    p = paper("aaaaaaaaaaaa", "Same Title", title="same title", abstract="")
    text = to_markdown([item(p)], title="t", today=TODAY)
    assert "*same title*" not in text
    assert text.splitlines()[-1] == item_line(text, p.id)


def test_empty_name_falls_back_to_the_id() -> None:
    p = paper("aaaaaaaaaaaa", " \n ")
    assert "**aaaaaaaaaaaa**" in to_markdown([item(p)], title="t", today=TODAY)


# --- grouping -----------------------------------------------------------------------------


def test_each_paper_once_under_its_first_tag_with_all_tags_listed_untagged_last() -> None:
    a = paper("aaaaaaaaaaaa", "A")
    b = paper("bbbbbbbbbbbb", "B")
    c = paper("cccccccccccc", "C")
    d = paper("dddddddddddd", "D")
    items = [item(a, "to-read", "gnn"), item(b), item(c, "diffusion"), item(d, "to-read")]
    text = to_markdown(items, title="t", today=TODAY)
    assert headings(text) == ["# t", "## diffusion", "## gnn", "## to-read", "## untagged"]
    assert text.count("papershelf:aaaaaaaaaaaa") == 1
    assert item_line(text, a.id).endswith(
        "#gnn #to-read <!-- papershelf:aaaaaaaaaaaa tags=gnn,to-read -->"
    )
    order = [text.index(f"papershelf:{p.id}") for p in (c, a, d, b)]
    assert order == sorted(order)


def test_items_keep_their_given_order_within_a_section() -> None:
    ps = [paper(f"{i:012x}", f"P{i}") for i in (3, 1, 2)]
    text = to_markdown([item(p, "x") for p in ps], title="t", today=TODAY)
    found = re.findall(r"\*\*(P\d)\*\*", text)
    assert found == ["P3", "P1", "P2"]


def test_flat_list_without_sections() -> None:
    items = [item(paper("aaaaaaaaaaaa", "A"), "x"), item(paper("bbbbbbbbbbbb", "B"))]
    text = to_markdown(items, title="t", group_by_tag=False, today=TODAY)
    assert headings(text) == ["# t"]
    assert text.count("- [ ]") == 2


def test_a_tags_export_is_one_section_holding_every_paper_of_the_tag() -> None:
    a = paper("aaaaaaaaaaaa", "A")
    b = paper("bbbbbbbbbbbb", "B")
    c = paper("cccccccccccc", "C")
    d = paper("dddddddddddd", "D")
    items = [item(a, "gnn", "to-read"), item(b, "gnn"), item(c), item(d, "to-read", "zeta")]
    text = to_markdown(items, title="t", today=TODAY, only_tags={"#To Read"})
    assert headings(text) == ["# t", "## to-read"]
    assert text.index("## to-read") < text.index("papershelf:aaaaaaaaaaaa")
    assert text.index("papershelf:aaaaaaaaaaaa") < text.index("papershelf:dddddddddddd")
    assert "papershelf:bbbbbbbbbbbb" not in text and "papershelf:cccccccccccc" not in text
    assert "2 papers" in text
    assert item_line(text, a.id).endswith(
        "#gnn #to-read <!-- papershelf:aaaaaaaaaaaa tags=gnn,to-read -->"
    )
    # A lone string is one tag, not a collection of one-letter tags.
    assert to_markdown(items, title="t", today=TODAY, only_tags="to-read") == text


def test_an_export_of_several_tags_has_a_section_for_each_and_names_shared_papers_in_both() -> None:
    a = paper("aaaaaaaaaaaa", "A")
    b = paper("bbbbbbbbbbbb", "B")
    c = paper("cccccccccccc", "C")
    items = [item(a, "rl"), item(b, "gnn", "rl", "zeta"), item(c, "llm")]
    text = to_markdown(items, title="t", today=TODAY, only_tags=["rl", "gnn"])
    assert headings(text) == ["# t", "## gnn", "## rl"]
    assert "papershelf:cccccccccccc" not in text
    rl = text[text.index("## rl") :]
    assert "papershelf:aaaaaaaaaaaa" in rl and "- **B** — see *gnn* above" in rl
    assert text.count("papershelf:bbbbbbbbbbbb") == 1


def test_every_tag_section_lists_each_of_its_papers_and_each_paper_has_one_box() -> None:
    a = paper("aaaaaaaaaaaa", "A")
    b = paper("bbbbbbbbbbbb", "B")
    items = [item(a, "gnn", "to-read"), item(b, "to-read")]
    text = to_markdown(items, title="t", today=TODAY)
    sections = dict((part.split("\n", 1)[0], part) for part in text.split("\n## ")[1:])
    assert set(sections) == {"gnn", "to-read"}
    assert "**A**" in sections["gnn"] and "**A**" in sections["to-read"]
    assert "**B**" in sections["to-read"]
    assert text.count("- [ ]") == 2
    # Reading the list back finds each paper once, as the item with its box.
    assert [found.paper_id for found in parse_markdown_list(text)] == [a.id, b.id]
    assert scan_markdown_list(text).unmatched == ()


@pytest.mark.parametrize(
    ("name", "title", "head", "below"),
    [
        ("PANDAS", "PANDAS: Improving Many-shot Jailbreaking", None, None),
        (
            derive_name("", "Scaling Laws for Sparse Mixtures of Experts Trained on a Web Crawl"),
            "Scaling Laws for Sparse Mixtures of Experts Trained on a Web Crawl",
            None,
            None,
        ),
        ("RelGNN", "Composite Message Passing for Relational Deep Learning", "RelGNN", True),
        ("K²IE", "K$^2$IE: Kernel Method-based Kernel Intensity Estimators", None, None),
    ],
)
def test_an_item_shows_the_whole_name_or_title_once(
    name: str, title: str, head: str | None, below: bool | None
) -> None:
    from papershelf.storage.text.latex import latex_to_unicode

    text = to_markdown([item(paper("aaaaaaaaaaaa", name, title=title))], title="t", today=TODAY)
    shown = latex_to_unicode(title)
    line = item_line(text, "aaaaaaaaaaaa")
    if head is None:
        assert f"**{export.markdown_escape(shown)}**" in line
        assert text.count(shown.split(":")[0]) == 1
    else:
        assert f"**{head}**" in line
        assert f"*{shown}*" in text


def test_empty_only_tags_means_every_paper() -> None:
    items = [item(paper("aaaaaaaaaaaa", "A"), "x"), item(paper("bbbbbbbbbbbb", "B"))]
    assert to_markdown(items, title="t", today=TODAY, only_tags=()) == to_markdown(
        items, title="t", today=TODAY
    )


def test_unusable_only_tag_is_a_user_error() -> None:
    with pytest.raises(ExportError, match="not a usable tag"):
        to_markdown([], title="t", today=TODAY, only_tags=["#"])


def test_a_paper_given_twice_is_exported_once() -> None:
    p = paper("aaaaaaaaaaaa", "A")
    text = to_markdown([item(p, "x"), item(p, "y")], title="t", today=TODAY)
    assert text.count("papershelf:aaaaaaaaaaaa") == 1
    assert "1 paper" in text


def test_real_tag_called_untagged_does_not_merge_with_untagged_papers() -> None:
    items = [item(paper("aaaaaaaaaaaa", "A"), "untagged"), item(paper("bbbbbbbbbbbb", "B"))]
    text = to_markdown(items, title="t", today=TODAY)
    assert headings(text) == ["# t", "## untagged", "## untagged (no tags)"]


def test_an_id_unsafe_in_a_comment_gets_no_comment() -> None:
    p = paper("a--><b", "A")
    text = to_markdown([item(p)], title="t", today=TODAY)
    assert "<!--" not in text and "-->" not in text


def test_display_text_is_used_for_paper_text_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export, "display", lambda text: text.upper())
    p = paper("aaaaaaaaaaaa", "name", title="title", abstract="abstract.", venue="venue")
    text = to_markdown([item(p, "tag", note="note")], title="t", today=TODAY)
    assert item_line(text, p.id).startswith("- [ ] **NAME** — venue #tag")
    assert "  *TITLE*\\\n  ABSTRACT.\\\n  Note: note\n" in text


def test_latex_in_paper_text_is_shown_as_unicode() -> None:
    pytest.importorskip("papershelf.storage.text.latex")
    p = paper("aaaaaaaaaaaa", "$K^2$IE", title="On $\\ell^{1}$", abstract="We use $\\mathcal{C}$.")
    text = to_markdown([item(p)], title="t", today=TODAY)
    assert "**K²IE**" in text
    assert "*On ℓ¹*" in text
    assert "We use \N{MATHEMATICAL SCRIPT CAPITAL C}." in text


# --- first sentence -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("One. Two.", "One."),
        ("Models, e.g. GPT, fail. Then.", "Models, e.g. GPT, fail."),
        ("As Smith et al. show, x holds. Next.", "As Smith et al. show, x holds."),
        ("J. Smith wrote it. Next.", "J. Smith wrote it."),
        ("Is it? Yes.", "Is it?"),
        ("It is 3.5 times faster. Next.", "It is 3.5 times faster."),
        ('He said "stop." Then left.', 'He said "stop."'),
        ("a. b continues. C.", "a. b continues."),
        ("我们提出了方法。它很好。", "我们提出了方法。"),
        ("No end at all", "No end at all"),
        ("  Spread\nover\tlines.  Two.", "Spread over lines."),
        ("", ""),
    ],
)
def test_first_sentence(text: str, sentence: str) -> None:
    assert first_sentence(text) == sentence


def test_first_sentence_is_cut_at_a_word_boundary() -> None:
    text = "word " * 200
    cut = first_sentence(text, limit=50)
    assert cut.endswith("…") and len(cut) <= 51
    assert cut[:-1] == cut[:-1].rstrip() and text.startswith(cut[:-1])


def test_long_abstracts_give_their_first_sentence() -> None:
    first = "We study $\\mathcal{O}(n)$ sorting."
    p = paper("aaaaaaaaaaaa", "N", abstract=first + " More words follow here." * 400)
    text = to_markdown([item(p)], title="t", today=TODAY)
    expected = export.markdown_escape(first_sentence(export.display(first)))
    assert text.splitlines()[-1] == f"  {expected}"
    q = paper("bbbbbbbbbbbb", "M", abstract="word " * 2000)
    last = to_markdown([item(q)], title="t", today=TODAY).splitlines()[-1]
    assert last.endswith("word…") and len(last) <= 2 + export.SENTENCE_MAX + 1


# --- file name ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scope", "name"),
    [
        ("to-read", "reading-list-to-read-2025-06-01.md"),
        ("#To Read", "reading-list-to-read-2025-06-01.md"),
        ("../../etc/passwd", "reading-list-etc-passwd-2025-06-01.md"),
        ("a/b\\c:d*e?", "reading-list-a-b-c-d-e-2025-06-01.md"),
        ("论文", "reading-list-论文-2025-06-01.md"),
        ("", "reading-list-2025-06-01.md"),
        ("///", "reading-list-2025-06-01.md"),
    ],
)
def test_default_export_name(scope: str, name: str) -> None:
    assert default_export_name(scope, TODAY) == name


def test_default_export_name_defaults_to_today() -> None:
    assert default_export_name("x") == f"reading-list-x-{date.today().isoformat()}.md"


@given(st.text())
def test_default_export_name_is_always_a_plain_file_name(scope: str) -> None:
    name = default_export_name(scope, TODAY)
    assert re.fullmatch(r"reading-list-(?:[\w-]{1,48}-)?2025-06-01\.md", name)
    assert "--" not in name and len(name) <= 80
    assert Path(name).name == name


# --- writing ------------------------------------------------------------------------------


def test_write_export_writes_exactly_the_text(tmp_path: Path) -> None:
    target = tmp_path / "list.md"
    assert write_export(target, "# ünïcode\n") == target
    assert target.read_bytes() == "# ünïcode\n".encode()
    assert os.listdir(tmp_path) == ["list.md"]  # no temp file left behind


def test_write_export_file_mode_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_export(tmp_path / "list.md", "x\n")
    finally:
        os.umask(old)
    assert (tmp_path / "list.md").stat().st_mode & 0o777 == 0o644


def test_write_export_refuses_to_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "list.md"
    target.write_text("keep me")
    with pytest.raises(ExportExists) as caught:
        write_export(target, "new")
    assert isinstance(caught.value, PapershelfError)
    assert "already exists" in str(caught.value) and "\n" not in str(caught.value)
    assert target.read_text() == "keep me"
    assert os.listdir(tmp_path) == ["list.md"]


def test_write_export_overwrites_when_asked(tmp_path: Path) -> None:
    target = tmp_path / "list.md"
    target.write_text("old")
    write_export(target, "new", overwrite=True)
    assert target.read_text() == "new"
    assert os.listdir(tmp_path) == ["list.md"]


def test_write_export_without_hard_links_still_refuses_to_overwrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(src: object, dst: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(writing.os, "link", no_links)
    target = tmp_path / "list.md"
    write_export(target, "first")
    assert target.read_text() == "first"
    with pytest.raises(ExportExists):
        write_export(target, "second")
    assert target.read_text() == "first"
    assert os.listdir(tmp_path) == ["list.md"]


def test_write_export_to_a_missing_folder_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="does not exist"):
        write_export(tmp_path / "nope" / "list.md", "x")


def test_write_export_onto_a_folder_is_a_user_error(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    with pytest.raises(ExportError, match="is a directory; papershelf writes only"):
        write_export(tmp_path / "dir", "x")
    with pytest.raises(ExportError) as caught:
        write_export(tmp_path / "dir", "x", overwrite=True)
    assert "\n" not in str(caught.value)
    assert sorted(os.listdir(tmp_path)) == ["dir"]


# --- reading a ticked list back -----------------------------------------------------------


def four_items() -> list[ExportItem]:
    return [
        item(paper("aaaaaaaaaaaa", "Alpha", code_urls=("https://github.com/o/a#readme",)), "gnn"),
        item(paper("bbbbbbbbbbbb", "Beta"), "gnn", "to-read", status="read"),
        item(paper("cccccccccccc", "Gamma #notatag"), note="x #alsonot"),
        item(paper("dddddddddddd", "Delta"), "diffusion"),
    ]


def edit_item_line(text: str, pid: str, edit) -> str:
    return "\n".join(
        edit(line) if f"papershelf:{pid}" in line else line for line in text.split("\n")
    )


def line_of(text: str, pid: str) -> int:
    """1-based number of the line carrying the comment of `pid`."""
    return 1 + next(i for i, line in enumerate(text.split("\n")) if f"papershelf:{pid}" in line)


def remove_item(text: str, pid: str) -> str:
    """Delete an item as a person would: its line and its indented paragraph."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if f"papershelf:{pid}" in line)
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end].startswith("  ")):
        end += 1
    return "\n".join(lines[:start] + lines[end:])


def test_round_trip_of_a_ticked_and_edited_list() -> None:
    text = to_markdown(four_items(), title="t", today=TODAY)
    text = edit_item_line(text, "aaaaaaaaaaaa", lambda s: s.replace("- [ ]", "- [x]"))
    text = edit_item_line(text, "cccccccccccc", lambda s: s.replace("- [ ]", "- [X]"))
    text = edit_item_line(text, "bbbbbbbbbbbb", lambda s: s + " #new")
    text = remove_item(text, "dddddddddddd")
    gnn, both = frozenset({"gnn"}), frozenset({"gnn", "to-read"})
    assert parse_markdown_list(text) == [
        ListedItem("aaaaaaaaaaaa", True, gnn, line_of(text, "aaaaaaaaaaaa"), gnn),
        ListedItem("bbbbbbbbbbbb", True, both | {"new"}, line_of(text, "b" * 12), both),
        ListedItem("cccccccccccc", True, frozenset(), line_of(text, "c" * 12), frozenset()),
    ]


def test_round_trip_without_edits_gives_every_item_in_file_order() -> None:
    items = four_items()
    found = parse_markdown_list(to_markdown(items, title="t", today=TODAY))
    by_id = {f.paper_id: f for f in found}
    assert [f.paper_id for f in found] == [
        "dddddddddddd",
        "aaaaaaaaaaaa",
        "bbbbbbbbbbbb",
        "ccc" * 4,
    ]
    for it in items:
        assert by_id[it.paper.id].checked == (it.entry.status == "read")
        assert by_id[it.paper.id].tags == it.entry.tags


def test_unticking_and_removing_a_tag_are_read_back() -> None:
    text = to_markdown(four_items(), title="t", today=TODAY)
    text = edit_item_line(
        text, "bbbbbbbbbbbb", lambda s: s.replace("[x]", "[ ]").replace(" #to-read", "")
    )
    (beta,) = [f for f in parse_markdown_list(text) if f.paper_id == "bbbbbbbbbbbb"]
    assert not beta.checked and beta.tags == {"gnn"}


def test_changed_text_is_ignored_and_added_tags_are_normalised() -> None:
    text = to_markdown(four_items(), title="t", today=TODAY)
    text = edit_item_line(
        text,
        "aaaaaaaaaaaa",
        lambda s: s.replace("**Alpha**", "**Renamed** (see below)") + " and #New\\_One.",
    )
    (alpha,) = [f for f in parse_markdown_list(text) if f.paper_id == "aaaaaaaaaaaa"]
    assert alpha.tags == {"gnn", "new_one"}


def test_tags_ending_in_punctuation_survive_the_round_trip() -> None:
    tags = {"c++", "v1.", "-", "a\\", "x:", "q?", "\\-", "\\\\.", "#", "#+x", "+#"}
    text = to_markdown([item(paper("aaaaaaaaaaaa", "A"), *tags)], title="t", today=TODAY)
    (found,) = parse_markdown_list(text)
    assert found.tags == tags


def test_crlf_bom_and_changed_indentation_are_tolerated() -> None:
    text = to_markdown(four_items(), title="t", today=TODAY)
    expected = parse_markdown_list(text)
    edited = "\ufeff" + "\r\n".join("    " + line for line in text.split("\n"))
    assert parse_markdown_list(edited) == expected
    assert parse_markdown_list(text.replace("\n", "\r")) == expected


def test_an_item_without_its_comment_is_skipped_and_counted() -> None:
    text = to_markdown(four_items(), title="t", today=TODAY)
    text = edit_item_line(text, "bbbbbbbbbbbb", lambda s: re.sub(r" <!--.*-->", "", s))
    beta_line = next(i for i, s in enumerate(text.split("\n"), 1) if "**Beta**" in s)
    scan = scan_markdown_list(text)
    assert [f.paper_id for f in scan.items] == ["dddddddddddd", "aaaaaaaaaaaa", "ccc" * 4]
    assert scan.unmatched == (beta_line,)
    assert scan_markdown_list(to_markdown(four_items(), title="t", today=TODAY)).unmatched == ()


def test_escaped_comments_in_paper_text_are_not_items() -> None:
    fake = "<!-- papershelf:ffffffffffff -->"
    p = paper("aaaaaaaaaaaa", fake, title=fake, abstract=fake + " text.")
    text = to_markdown([item(p, note=fake)], title=fake, today=TODAY)
    assert [f.paper_id for f in parse_markdown_list(text)] == ["aaaaaaaaaaaa"]


def test_a_paper_listed_twice_by_hand_is_one_item() -> None:
    text = "- [ ] a #x <!-- papershelf:abc -->\n\n* [x] a copy #y <!-- papershelf:abc -->\n"
    assert parse_markdown_list(text) == [ListedItem("abc", True, frozenset({"x", "y"}), 1)]


def test_hand_written_lines_parse_leniently() -> None:
    text = (
        "1. [X] ordered <!--papershelf:abc-->\n"
        "> - [x] quoted <!-- papershelf:def -->\n"
        "no checkbox #t <!-- papershelf:ghi --> #u\n"
        "- [ ] a new to-do of my own\n"
        "- [x] # #\u0000 <!-- papershelf:jkl -->\n"
    )
    scan = scan_markdown_list(text)
    assert scan.items == (
        ListedItem("abc", True, frozenset(), 1),
        ListedItem("def", True, frozenset(), 2),
        ListedItem("ghi", False, frozenset({"t", "u"}), 3),
        ListedItem("jkl", True, frozenset(), 5),
    )
    assert scan.unmatched == (4,)


# --- the record of exported tags in the id comment ------------------------------------------


def test_the_id_comment_records_the_tags_and_hostile_tags_cannot_end_it() -> None:
    tags = {"a-->b", "c--d", "x,y", "50%", "<!--", "über", "t>", "-", "--"}
    text = to_markdown([item(paper("aaaaaaaaaaaa", "A"), *tags)], title="t", today=TODAY)
    line = item_line(text, "aaaaaaaaaaaa")
    comment = line[line.index("<!--") :]
    assert comment.startswith("<!-- papershelf:aaaaaaaaaaaa tags=") and comment.endswith(" -->")
    body = comment[len("<!--") : -len("-->")]
    assert "--" not in body and ">" not in body and "<" not in body
    (found,) = parse_markdown_list(text)
    assert found.tags == found.exported_tags == tags


@given(tag_set=st.frozensets(st.text(min_size=1, max_size=8), max_size=5))
def test_a_tag_record_reads_back_as_written(tag_set: frozenset[str]) -> None:
    record = tag_record(tag_set)
    assert not any(ch.isspace() for ch in record) and "--" not in record and ">" not in record
    assert read_tag_record(f" {record} ") == tag_set


def test_an_id_comment_without_a_usable_record_has_none() -> None:
    text = (
        "- [ ] a <!-- papershelf:abc -->\n"
        "- [ ] b <!--papershelf:def-->\n"
        "- [ ] c <!-- papershelf:ghi tags=x y -->\n"
        "- [ ] d <!-- papershelf:jkl tags= -->\n"
    )
    found = {f.paper_id: f.exported_tags for f in parse_markdown_list(text)}
    assert found == {"abc": None, "def": None, "ghi": None, "jkl": frozenset()}


# --- only a new path or a regular file is ever replaced ----------------------------------------


def char_device(tmp_path: Path) -> Path:
    """A character device of our own (like /dev/null) where allowed, else /dev/null itself."""
    device = tmp_path / "null-device"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        return Path("/dev/null")
    return device


def special_files(tmp_path: Path) -> dict[str, tuple[Path, Callable[[os.stat_result], bool]]]:
    """Each kind of file that is not a regular one, with the test that it is still that kind."""
    target = tmp_path / "target.md"
    target.write_text("the link's target")
    fifo, link, dangling = tmp_path / "fifo", tmp_path / "link.md", tmp_path / "dangling.md"
    os.mkfifo(fifo)
    link.symlink_to(target)
    dangling.symlink_to(tmp_path / "nowhere.md")
    return {
        "a FIFO (named pipe)": (fifo, lambda info: stat.S_ISFIFO(info.st_mode)),
        "a symbolic link": (link, lambda info: stat.S_ISLNK(info.st_mode)),
        "a symbolic link ": (dangling, lambda info: stat.S_ISLNK(info.st_mode)),
        "a character device": (char_device(tmp_path), lambda info: stat.S_ISCHR(info.st_mode)),
    }


@pytest.mark.parametrize("overwrite", [True, False])
def test_write_export_never_replaces_a_device_a_fifo_or_a_symlink(
    tmp_path: Path, overwrite: bool
) -> None:
    for kind, (path, still) in special_files(tmp_path).items():
        with pytest.raises(ExportError) as caught:
            write_export(path, "x", overwrite=overwrite)
        assert str(caught.value) == (
            f"{path} is {kind.strip()}; papershelf writes only to a new or a regular file"
        )
        assert still(os.lstat(path)), kind
    assert (tmp_path / "target.md").read_text() == "the link's target"
    assert not list(tmp_path.glob(".*.tmp"))
