"""Hostile text in every widget that shows it: shown literally, never markup, never an escape.

Hypothesis drives the pure content builders (list row, reader, tag pane, status line, dialog
rows); a few full-app runs push the known payloads through the real screens, dialogs and
notifications and inspect every Segment the compositor would send to the terminal.
"""

from __future__ import annotations

import tempfile
import unicodedata
from collections.abc import Iterable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pilot_helpers import settle
from rich.cells import cell_len
from rich.segment import Segment
from textual import events
from textual.content import Content
from textual.geometry import Region
from textual.style import Style
from textual.widget import Widget
from textual.widgets import Input, OptionList, TextArea

from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import Hit
from papershelf.storage.text.clean import clean_name
from papershelf.storage.text.headings import heading_fields, name_split
from papershelf.storage.text.latex import display_text
from papershelf.storage.text.titles import display_title
from papershelf.tui.app import PapershelfApp
from papershelf.tui.screens.export_dialog import ExportDialog
from papershelf.tui.screens.link_chooser import LinkChooser
from papershelf.tui.screens.note_editor import NoteEditor
from papershelf.tui.screens.tag_editor import TagEditor
from papershelf.tui.widgets.list_rows import ListRows
from papershelf.tui.widgets.reader import Reader, reader_content
from papershelf.tui.widgets.status_line import StatusLine, status_content
from papershelf.tui.widgets.tag_pane import TagPane, _prompt

# -- payloads -----------------------------------------------------------------------------------

CLEAR = "\x1b[2J"
OSC52 = "\x1b]52;c;aGk=\x07"
OSC8 = "\x1b]8;;http://evil\x1b\\"
C1_CSI = "\x9b2J"
RLO = "\u202e"
NUL = "\x00"
CLICK = "[@click=app.quit]"
LINK = "[link=http://evil]x[/link]"

PAYLOADS = (
    "[MASK]",
    "[/]",
    LINK,
    CLICK,
    f"{CLICK}q[/]",
    "[@mouse.down=app.quit]",
    CLEAR,
    OSC52,
    OSC8,
    C1_CSI,
    RLO,
    "\u2066",
    NUL,
    "\x7f",
    "\r\n",
    "\t",
    "\u2028",
    "[b]",
    "\\[",
    "$x^2$",
    "**b**",
)

hostile_text = st.lists(st.one_of(st.sampled_from(PAYLOADS), st.text(max_size=8)), max_size=6).map(
    "".join
)
hostile_line = hostile_text.filter(lambda text: bool(text.strip()))

# Embeddings, overrides and isolates: what `papershelf.tui.text.safe` replaces (Trojan Source).
BIDI = frozenset(chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
# Dialogs (`clean_line`) also drop the marks.
DIALOG_BIDI = BIDI | {"\u061c", "\u200e", "\u200f"}


def shown(text: str, one_line: bool = False) -> str:
    """What `papershelf.tui.text.safe` documents, written out char by char as the test's oracle."""
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if ch in "\n\u2028\u2029":
            out.append(" " if one_line else "\n")
        elif ch == "\t":
            out.append(" ")
        elif code < 0x20:
            out.append(chr(0x2400 + code))  # the control pictures block
        elif code == 0x7F:
            out.append("\u2421")
        elif 0x80 <= code < 0xA0 or ch in BIDI:
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


def dialog_line(text: str) -> str:
    """What `dialogs_base.clean_line` documents: breaks and tabs become spaces, controls go."""
    out: list[str] = []
    for ch in text:
        if ch in "\n\r\t\v\f\x85\u2028\u2029":
            out.append(" ")
        elif ch not in DIALOG_BIDI and unicodedata.category(ch) != "Cc":
            out.append(ch)
    return "".join(out)


def dialog_text(text: str) -> str:
    """What `dialogs_base.clean_text` documents: newlines and tabs kept, other controls go."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "".join(
        ch
        for ch in text
        if ch in "\n\t" or (ch not in DIALOG_BIDI and unicodedata.category(ch) != "Cc")
    )


# Textual's own scrollbars carry these; anything else starting with `@` is an action.
SCROLLBAR_META = frozenset(
    {("@mouse.down", "grab"), ("@mouse.down", "scroll_up"), ("@mouse.down", "scroll_down")}
)


def dangerous(text: str) -> list[str]:
    """Characters a terminal could act on: any C0/C1 control or DEL (newline aside), bidi."""
    return [ch for ch in text if ch != "\n" and (ch in BIDI or unicodedata.category(ch) == "Cc")]


def assert_inert(segments: Iterable[Segment], where: str = "") -> None:
    """No escape or bidi character, no link, no action meta (`@click`) in any segment."""
    for segment in segments:
        assert not dangerous(segment.text), f"{where}: control in {segment.text!r}"
        style = segment.style
        if style is None:
            continue
        assert style.link is None, f"{where}: link {style.link!r} on {segment.text!r}"
        actions = [
            (key, value)
            for key, value in (style.meta or {}).items()
            if str(key).startswith("@") and (key, value) not in SCROLLBAR_META
        ]
        assert not actions, f"{where}: action meta {actions} on {segment.text!r}"


def content_segments(content: Content) -> list[Segment]:
    return list(content.render_segments(Style()))


# -- the list row ------------------------------------------------------------------------------


def library_of(paper: Paper, entry: Entry, root: Path) -> Library:
    """A real library in `root` holding `paper` as given, with `entry` stored as is (a
    hand-edited state.json is not normalised: the row must defend itself)."""
    library = Library.open(root, seed=False)
    library.import_papers([paper], "hostile.txt")
    library.restore({paper.id: entry})
    return library


def make_paper(
    name: str = "Plain",
    title: str | None = None,
    abstract: str = "An abstract.",
    venue: str | None = "Test 2025",
    sources: tuple[str, ...] = ("plain.txt",),
    code_urls: tuple[str, ...] = (),
    links: tuple[str, ...] = (),
    url: str | None = None,
) -> Paper:
    return Paper(
        id="0123456789ab",
        name=name,
        title=title,
        abstract=abstract,
        venue=venue,
        sources=sources,
        code_urls=code_urls,
        links=links,
        url=url,
    )


def row_of(paper: Paper, entry: Entry, width: int | None = None) -> tuple[Content, int]:
    content, width, _ = row_parts(paper, entry, width)
    return content, width


def row_parts(
    paper: Paper, entry: Entry, width: int | None = None
) -> tuple[Content, int, list[tuple[str, tuple[str, ...]]]]:
    """The row as Content, its width and its (text, style parts) pieces."""
    # Component styles need a mounted widget; the text under test does not depend on them.
    with tempfile.TemporaryDirectory(prefix="papershelf-hostile-") as directory:
        library = library_of(paper, entry, Path(directory))
        assert library.get(paper.id) == paper and library.entry(paper.id) == entry
        rows = ListRows(library, lambda *_, **__: Style(bold=True))
        described = shown(paper.name, True) + (
            "  " + shown(paper.title, True) if paper.title and paper.title != paper.name else ""
        )
        if width is None:
            # Wide enough that the name and title are never cut (the venue and tags columns
            # take at most 13 and 25 cells).
            width = 60 + 3 * (cell_len(described) + cell_len(annotations_of(paper, entry)))
        hit = Hit(paper.id, 0.0, "")
        return rows.content(hit, width, False), width, rows.pieces(hit, width, False)


def annotations_of(paper: Paper, entry: Entry) -> str:
    parts = [shown(paper.venue, True)] if paper.venue else []
    parts += [shown(f"#{tag}", True) for tag in sorted(entry.tags)]
    return " ".join(parts)


def cut_or_whole(shown_text: str, drawn: str) -> bool:
    """Whether `drawn` is `shown_text` whole, or its start cut with `…` (a fixed column)."""
    # A wide character that does not fit before the `…` leaves a space in its place.
    kept = drawn[:-1].rstrip(" ") if drawn.endswith("…") else None
    return drawn == shown_text or (kept is not None and shown_text.startswith(kept))


@settings(max_examples=40, deadline=None)
@given(
    name=hostile_text,
    title=st.none() | hostile_text,
    venue=st.none() | hostile_text,
    tags=st.frozensets(hostile_line, max_size=3),
)
def test_list_row_shows_the_text_exactly(
    name: str, title: str | None, venue: str | None, tags: frozenset[str]
) -> None:
    paper = make_paper(name=name, title=title, venue=venue)
    # Raw tags (a hand-edited state.json is not normalised): the row must defend itself.
    entry = Entry(tags=tags)
    row, width, pieces = row_parts(paper, entry)
    title = display_title(title)  # the title as shown: LaTeX as Unicode (issue 11)
    # Each word once: which fields head the row is storage.text.headings' rule (tested there);
    # a title heading alone that begins with the name shows the name, then its other words.
    fields = dict(name=name, title=title)
    head, below = heading_fields(name, title or None)
    split = name_split(name, title) if head == "title" and title else None
    if split is not None:
        head_text, below_text = title[: split[0]], title[split[1] :]
    else:
        head_text, below_text = fields[head], fields[below] if below else None

    def drawn(part: str) -> str:
        return "".join(text for text, parts in pieces if part in parts)

    assert row.cell_length == width
    assert row.plain == "".join(text for text, _ in pieces)
    assert drawn("name") == shown(head_text, True)
    assert drawn("title") == (shown(below_text, True) if below_text else "")
    # Nothing is marked: no box; status, star and code marks, then the heading.
    assert row.plain.startswith("     " + drawn("name"))
    if venue:
        assert cut_or_whole(shown(venue, True), drawn("venue"))
    else:
        assert drawn("venue") == ""
    tag_text = " ".join(text for text, parts in pieces if "tag" in parts)
    assert cut_or_whole(" ".join(shown(f"#{tag}", True) for tag in sorted(tags)), tag_text) or (
        not tags and tag_text == ""
    )
    assert_inert(content_segments(row), "list row")


def test_list_row_shows_a_short_tag_when_there_is_room() -> None:
    # A paper with no venue and the tag `rl`: `#rl` is 3 cells and fits, so it is shown.
    row, _ = row_of(make_paper(venue=None), Entry(tags=frozenset({"rl"})), width=160)
    assert row.plain.rstrip().endswith("#rl")


# -- the reader --------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=hostile_text,
    title=st.none() | hostile_text,
    venue=st.none() | hostile_text,
    sources=st.lists(hostile_line, max_size=2).map(tuple),
    code_urls=st.lists(hostile_line, max_size=2).map(tuple),
    links=st.lists(hostile_line, max_size=2).map(tuple),
    url=st.none() | hostile_line,
    abstract=hostile_text,
    tags=st.frozensets(hostile_line, max_size=3),
    note=hostile_text,
)
def test_reader_shows_every_field_exactly(
    name: str,
    title: str | None,
    venue: str | None,
    sources: tuple[str, ...],
    code_urls: tuple[str, ...],
    links: tuple[str, ...],
    url: str | None,
    abstract: str,
    tags: frozenset[str],
    note: str,
) -> None:
    paper = make_paper(name, title, abstract, venue, sources, code_urls, links, url)
    entry = Entry(tags=tags, note=note)  # raw, as a hand-edited state.json could hold
    content = reader_content(paper, entry, None)
    text = content.plain
    lines = text.split("\n")
    title = display_title(title)  # the title as shown: LaTeX as Unicode (issue 11)
    fields = dict(name=name, title=title)
    head, below = heading_fields(name, title or None)
    assert lines[0] == shown(fields[head], True)
    if below:
        assert lines[1] == shown(fields[below], True)
    assert f"\nvenue  {shown(venue or 'unknown venue', True)}\n" in text
    if sources:
        assert f"\nfrom   {shown(', '.join(sources), True)}\n" in text
    if tags:
        assert f"\ntags   {shown(' '.join(f'#{t}' for t in sorted(tags)), True)}\n" in text
    if note:
        assert f"\nnote   {shown(note)}\n" in text
    for code in code_urls:
        assert f"\ncode   {shown(code, True)}\n" in text
    for link in links:
        assert f"\nlink   {shown(link, True)}\n" in text
    if paper.separate_page:  # a page that is also a link or code URL is listed once
        assert f"\npage   {shown(url, True)}\n" in text
    assert text.endswith("\n\n" + shown(display_text(abstract).text))
    assert dangerous(text) == []
    assert_inert(content_segments(content), "reader")


@settings(max_examples=25, deadline=None)
@given(
    text=hostile_text,
    terms=st.lists(hostile_line, max_size=2),
    spans=st.lists(st.tuples(st.integers(-3, 40), st.integers(-3, 40)), max_size=3),
    hit_field=st.sampled_from(["name", "title", "tags", "note", "abstract", ""]),
)
def test_reader_with_any_match_stays_inert(
    text: str, terms: list[str], spans: list[tuple[int, int]], hit_field: str
) -> None:
    paper = make_paper(name=text, title=text[::-1], abstract=text)
    entry = Entry(tags=frozenset({"tag"}), note=text)
    per_field = {name: tuple(spans) for name in ("name", "title", "note", "abstract")}
    hit = Hit(paper.id, 1.0, hit_field, tuple(terms), per_field)
    content = reader_content(paper, entry, hit)
    title = display_title(text[::-1])
    head, _ = heading_fields(text, title or None)
    assert content.plain.startswith(shown(text if head == "name" else title, True))
    assert dangerous(content.plain) == []
    assert_inert(content_segments(content), "reader with a hit")


# -- tag pane, status line ---------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(tag=hostile_text, count=st.integers(1, 10_000))
def test_tag_pane_prompt_shows_the_tag_exactly(tag: str, count: int) -> None:
    prompt = _prompt(tag, count, 5)
    assert prompt.plain == f"{count:>5} " + shown(f"#{tag}", True)
    assert_inert(content_segments(prompt), "tag pane")


@settings(max_examples=40, deadline=None)
@given(query=hostile_line, error=st.none() | hostile_line)
def test_status_line_shows_the_filter_exactly(query: str, error: str | None) -> None:
    line = status_content(shown=3, total=10, query=query, marked=2, sort="relevance", error=error)
    text = line.plain
    assert text.startswith(f"3 of 10 papers  filter: {shown(query, True)}  sort: relevance")
    if error:
        assert text.endswith("  " + shown(error, True))
    assert_inert(content_segments(line), "status line")


# -- dialogs' row builders (their documented rule: controls dropped) ---------------------------


@settings(max_examples=30, deadline=None)
@given(name=hostile_text, tag=hostile_line, other=hostile_line)
def test_tag_editor_rows_show_names_and_tags(name: str, tag: str, other: str) -> None:
    editor = TagEditor([name], frozenset({tag}), {tag: 1, other: 2})
    rows = [editor._row(tag), editor._suggestion_prompt("remove", tag)]
    assert rows[0].plain == "  " + dialog_line(tag)
    assert rows[1].plain == "remove " + dialog_line(tag)
    if other != tag:
        editor.edits.add(other)
        added = editor._row(other)
        assert added.plain == f"+ {dialog_line(other)}  added"
        rows.append(added)
        editor.edits.remove(tag)
        removed = editor._row(tag)
        assert removed.plain == f"\u2212 {dialog_line(tag)}  removed"
        rows.append(removed)
    suggestion = editor._suggestion_prompt("add", other)
    assert suggestion.plain == dialog_line(other) + "  2 papers"
    cleaned = dialog_line(name)
    title = editor._paper_name(0, 60)
    assert title == cleaned if len(cleaned) <= 60 else cleaned.startswith(title[:-1].rstrip())
    for row in [*rows, suggestion, Content(title)]:
        assert_inert(content_segments(row), "tag editor")


@settings(max_examples=30, deadline=None)
@given(urls=st.lists(hostile_line, min_size=1, max_size=3), note=hostile_text)
def test_link_chooser_and_note_editor_text(urls: list[str], note: str) -> None:
    for index, url in enumerate(urls):
        prompt = LinkChooser._prompt(str(index + 1), url)
        assert prompt.plain == f"{index + 1} {dialog_line(url)}"
        assert_inert(content_segments(prompt), "link chooser")
    assert NoteEditor("name", note).note == dialog_text(note)


@settings(max_examples=30, deadline=None)
@given(tags=st.lists(hostile_line, min_size=1, max_size=3, unique=True))
def test_export_dialog_lists_tags_exactly(tags: list[str]) -> None:
    dialog = ExportDialog(Path("/tmp/out"), tags, 3, 0, None, date(2025, 7, 14))
    prompts = [dialog._prompt(index) for index in range(len(dialog.choices))]
    assert [p.plain for p in prompts[2:]] == [f"○ Tag #{dialog_line(tag)}" for tag in tags]
    for prompt in prompts:
        assert_inert(content_segments(prompt), "export dialog")


# -- full app runs with the known payloads -----------------------------------------------------

HOSTILE_NAME = f"Mask[MASK]Net [/] {CLICK}Q[/] {CLEAR}{RLO}evil{NUL}"
HOSTILE_TITLE = f"{LINK} {OSC8}title{C1_CSI}"
HOSTILE_ABSTRACT = (
    f"We replace tokens by [MASK] and [/] and {CLICK}quit[/] and {LINK}. "
    f"Escapes {CLEAR} {OSC52} {OSC8} {C1_CSI} {RLO}reversed{NUL} stay inert; $\\alpha$ too."
)
HOSTILE_VENUE = f"[b]Venue[/b] {OSC52}"
HOSTILE_SOURCE = f"[MASK]{CLICK}x[link=http:evil]{CLEAR}{RLO}.jsonl"
HOSTILE_CODE = (f"https://github.com/evil/[/]x{CLEAR}", f"https://github.com/evil/{CLICK}y{OSC52}")
HOSTILE_LINK = f"http://evil/{OSC8}"
HOSTILE_URL = f"https://evil.example/{LINK}"
RAW_TAGS = frozenset({f"{CLICK}x", f"t{CLEAR}{RLO}", "[/]"})
RAW_NOTE = f"see {LINK} and [/] {CLEAR} {OSC52}\nline two {C1_CSI}{RLO}{NUL}"
# A file name may hold every payload character but `/` and NUL.
FILE_NAME = f"[MASK]{CLICK}x[link=http:evil]{CLEAR}{OSC52}{RLO}{C1_CSI}.txt"
FILE_ABSTRACT = (
    "FileNet studies kelp forests [MASK] [/] with a long enough abstract to be a paper, "
    f"and {CLICK}nothing happens{CLEAR}."
)

HOSTILE = Paper(
    id="badc0ffee001",
    name=HOSTILE_NAME,
    title=HOSTILE_TITLE,
    abstract=HOSTILE_ABSTRACT,
    venue=HOSTILE_VENUE,
    sources=(HOSTILE_SOURCE,),
    code_urls=HOSTILE_CODE,
    links=(HOSTILE_LINK,),
    url=HOSTILE_URL,
)
PLAIN = make_paper(name="Quiet", abstract="A quiet paper about otters.")


@pytest.fixture
def hostile_library(tmp_path: Path) -> Library:
    """A library whose papers, file name, tags and note hold the payloads, stored raw."""
    (tmp_path / FILE_NAME).write_text(f"Hostile 2025 Papers\n\n{FILE_ABSTRACT}\n", "utf-8")
    root = tmp_path / "library"
    library = Library.open(root, seed=False)
    (report,) = library.import_files([tmp_path / FILE_NAME])
    assert report.error is None and report.added == 1
    library.import_papers([PLAIN, HOSTILE], "hostile.jsonl")
    # `restore` writes entries exactly as given: the TUI's own defences are under test.
    library.restore({HOSTILE.id: Entry(tags=RAW_TAGS, note=RAW_NOTE)})
    library.tag([HOSTILE.id], add=[f"{CLICK}n", "[link=http://evil]y"])  # normalised tags
    return Library.open(root, seed=False)


async def show_paper(app: PapershelfApp, pilot: Any, paper_id: str) -> None:
    await settle(app, pilot)
    papers = app.paper_list
    papers.move_to([hit.paper_id for hit in papers.hits].index(paper_id))
    await settle(app, pilot)


def screen_strips(app: Any) -> list[list[Segment]]:
    return [list(strip) for strip in app.screen._compositor.render_strips()]


def screen_lines(app: Any) -> list[str]:
    return ["".join(segment.text for segment in strip) for strip in screen_strips(app)]


def assert_screen_inert(app: Any, where: str) -> None:
    for strip in screen_strips(app):
        assert_inert(strip, where)


def widget_segments(widget: Widget) -> Iterator[Segment]:
    width, height = widget.outer_size
    for strip in widget.render_lines(Region(0, 0, width, height)):
        yield from strip


def option_texts(options: OptionList) -> list[str]:
    return [str(options.get_option_at_index(index).prompt) for index in range(options.option_count)]


async def test_main_screen_shows_hostile_paper_literally(hostile_library: Library) -> None:
    app = PapershelfApp(hostile_library)
    async with app.run_test(size=(160, 48)) as pilot:
        await show_paper(app, pilot, HOSTILE.id)
        reader_text = app.query_one(Reader).text
        entry = hostile_library.entry(HOSTILE.id)
        expected = [
            shown(HOSTILE_NAME, True),
            shown(HOSTILE_TITLE, True),
            f"venue  {shown(HOSTILE_VENUE, True)}",
            f"from   {shown(HOSTILE_SOURCE, True)}",
            f"tags   {shown(' '.join(f'#{t}' for t in sorted(entry.tags)), True)}",
            f"note   {shown(RAW_NOTE)}",
            *(f"code   {shown(url, True)}" for url in HOSTILE_CODE),
            f"link   {shown(HOSTILE_LINK, True)}",
            f"page   {shown(HOSTILE_URL, True)}",
            shown(display_text(HOSTILE_ABSTRACT).text),
        ]
        for piece in expected:
            assert piece in reader_text
        assert (
            "[@click=app.quit]quit[/]" in reader_text
            and "[link=http://evil]x[/link]" in reader_text
        )
        lines = screen_lines(app)
        # The list row and the status line, on screen.
        assert any(shown(HOSTILE_NAME, True)[:40] in line for line in lines)
        tags = app.query_one(TagPane)
        assert f"#{CLICK}x" in " ".join(option_texts(tags))
        assert_screen_inert(app, "main screen")

        # Click where `[@click=app.quit]` is drawn (list row and reader): nothing may fire.
        # (Not in the tag pane: clicking a tag there rightly filters by it.)
        areas = [app.paper_list.region, app.query_one(Reader).region]
        clicks = [
            (x, y)
            for y, line in enumerate(lines)
            if CLICK in line
            for x in [line.index(CLICK) + 3]
            if any(area.contains(x, y) for area in areas)
        ]
        assert len(clicks) >= 2
        for offset in clicks:
            await pilot.click(offset=offset)
            await pilot.hover(offset=offset)
        await settle(app, pilot)
        assert app.is_running and app.return_code is None

        # The paper imported from the file with the hostile name shows that name as its source.
        # Ingest stores the file name cleaned (controls dropped): the reader shows that.
        file_paper = next(
            p for p in hostile_library.papers() if p.sources == (clean_name(FILE_NAME),)
        )
        await show_paper(app, pilot, file_paper.id)
        reader_text = app.query_one(Reader).text
        assert f"\nfrom   {shown(clean_name(FILE_NAME), True)}\n" in reader_text
        assert_screen_inert(app, "main screen, file paper")

        # Markup typed into the filter shows literally in the status line.
        await pilot.press("slash", *"[@click=app.quit] [link=x]", "enter")
        await settle(app, pilot)
        assert "filter: [@click=app.quit] [link=x]" in app.query_one(StatusLine).text
        assert_screen_inert(app, "filtered")
        assert app.is_running and app.return_code is None


async def test_dialogs_and_notifications_show_hostile_text_literally(
    hostile_library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the export dialog offers a path under the working directory
    app = PapershelfApp(hostile_library)
    async with app.run_test(size=(160, 48)) as pilot:
        await show_paper(app, pilot, HOSTILE.id)
        entry = hostile_library.entry(HOSTILE.id)

        await pilot.press("t")
        await settle(app, pilot)
        assert isinstance(app.screen, TagEditor)
        current = option_texts(app.screen.query_one("#current", OptionList))
        assert current == [f"  {dialog_line(tag)}" for tag in sorted(entry.tags)]
        # The border title, as drawn (the attribute itself reads back as escaped markup).
        title = "Tags · " + dialog_line(HOSTILE_NAME)
        assert any(title in line for line in screen_lines(app))
        assert_screen_inert(app, "tag editor")
        await pilot.press(*"[/]x", "enter", "ctrl+s")  # a tag with brackets, typed
        await settle(app, pilot)
        assert "[/]x" in hostile_library.entry(HOSTILE.id).tags

        await pilot.press("n")
        await settle(app, pilot)
        assert isinstance(app.screen, NoteEditor)
        assert app.screen.query_one(TextArea).text == dialog_text(RAW_NOTE)
        assert_screen_inert(app, "note editor")
        await pilot.press("escape")

        await pilot.press("y")  # two code URLs: the chooser
        await settle(app, pilot)
        assert isinstance(app.screen, LinkChooser)
        links = option_texts(app.screen.query_one("#links", OptionList))
        assert links == [f"{i + 1} {dialog_line(url)}" for i, url in enumerate(HOSTILE_CODE)]
        assert_screen_inert(app, "link chooser")
        await pilot.press("escape")

        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, ExportDialog)
        scopes = " | ".join(option_texts(app.screen.query_one("#scope", OptionList)))
        for tag in sorted(hostile_library.tag_counts()):
            assert f"Tag #{dialog_line(tag)}" in scopes
        assert_screen_inert(app, "export dialog")
        await pilot.press("escape")
        await settle(app, pilot)

        await pilot.press("asterisk")  # "Starred: <name>" names the hostile paper
        await settle(app, pilot)
        messages = [n.message for n in app._notifications]
        assert f"Starred: {' '.join(shown(HOSTILE_NAME, True).split())}" in messages
        assert all(not n.markup for n in app._notifications)
        assert all(dangerous(m) == [] for m in messages)
        assert_screen_inert(app, "notifications")
        toasts = " ".join(screen_lines(app))
        assert "Mask[MASK]Net [/] [@click=app.quit]Q[/]" in toasts
        assert app.is_running and app.return_code is None


# -- known defects: pasted text and the working directory reach the terminal raw ----------------

# What a real paste can carry: Textual's parser turns an ESC inside a bracketed paste into `^`
# and drops NUL, but passes C1 controls, bidi overrides and other C0 controls (ENQ, SUB).
PASTE = f"p{C1_CSI}{RLO}\x05\x1aq"


def assert_widget_inert(widget: Widget, where: str) -> None:
    assert_inert(widget_segments(widget), where)


async def test_pasted_controls_in_the_filter_are_not_drawn_raw(hostile_library: Library) -> None:
    app = PapershelfApp(hostile_library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        app.post_message(events.Paste(PASTE))
        await settle(app, pilot)
        assert app.query_one("#filter", Input).value  # the paste arrived
        assert_widget_inert(app.query_one("#status", StatusLine), "status line")
        assert_widget_inert(app.query_one("#filter", Input), "filter bar")


async def test_pasted_controls_in_the_tag_editor_are_not_drawn_raw(
    hostile_library: Library,
) -> None:
    app = PapershelfApp(hostile_library)
    async with app.run_test(size=(120, 40)) as pilot:
        await show_paper(app, pilot, PLAIN.id)
        await pilot.press("t")
        await settle(app, pilot)
        app.post_message(events.Paste(PASTE))
        await settle(app, pilot)
        tag_input = app.screen.query_one("#tag-input", Input)
        assert tag_input.value
        assert_widget_inert(tag_input, "tag editor input")


async def test_pasted_controls_in_the_note_editor_are_not_drawn_raw(
    hostile_library: Library,
) -> None:
    app = PapershelfApp(hostile_library)
    async with app.run_test(size=(120, 40)) as pilot:
        await show_paper(app, pilot, PLAIN.id)
        await pilot.press("n")
        await settle(app, pilot)
        app.post_message(events.Paste(PASTE))
        await settle(app, pilot)
        area = app.screen.query_one(TextArea)
        assert area.text
        assert_widget_inert(area, "note editor")


async def test_export_path_from_a_hostile_directory_is_not_drawn_raw(
    hostile_library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / f"dir{CLEAR}{OSC52}{RLO}"
    folder.mkdir()
    monkeypatch.chdir(folder)
    app = PapershelfApp(hostile_library)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("e")
        await settle(app, pilot)
        path_input = app.screen.query_one("#path", Input)
        assert CLEAR in path_input.value  # the default path is under the working directory
        assert_widget_inert(path_input, "export path")
