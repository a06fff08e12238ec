"""The reader: one paper in full, with math as Unicode and the filter's matches highlighted."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.content import Content, Span
from textual.geometry import Region, Size
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual

from papershelf.storage.errors import PapershelfError
from papershelf.storage.library.source_titles import source_title
from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import field_text, highlight_spans, snippet
from papershelf.storage.text.authors import authors_text
from papershelf.storage.text.headings import heading_fields
from papershelf.storage.text.latex import display_text
from papershelf.tui.text import highlighted, plain, safe
from papershelf.tui.widgets.position_bar import (
    THUMB,
    BarScrollView,
    bar_part,
    row_for_bar,
    row_regions,
)
from papershelf.tui.widgets.reactives import VIRTUAL_SIZE
from papershelf.tui.widgets.reader_wrap import hang

if TYPE_CHECKING:
    from papershelf.storage.search.engine import Hit

STATUS_LABELS = {"unread": "unread", "reading": "◐ reading", "read": "✓ read"}

# Display styles from storage.text.latex map to component classes, so the theme decides the look.
_DISPLAY_STYLES = {"bold": "bold", "italic": "italic", "code": ".reader--code"}
_MATCH = ".reader--match"
RECENT_PAPERS = 32
"""Papers whose text and lines the reader keeps: typing often comes back to a paper shown a
few keys before, with the same matches."""
_EMPTY = Content("No paper matches the filter.")
_EMPTY_KEY: Hashable = ("no paper",)
SOURCE_FILES = "papershelf-source-files"
"""The meta key of the `from` line's value: the paper's source file names, for the tooltip."""


class Reader(BarScrollView, can_focus=True):
    """Shows the paper under the list's cursor; scrolls by keyboard when focused.

    A Line-API widget: the paper's text is wrapped to the pane's width once per paper (or
    width) and drawn a line at a time, with its own position bar in the last column. Showing
    another paper never lays out the screen, whatever its length (a Static in a scrolling
    container needed a layout of the whole screen each time its height changed, which landed
    in the next keystroke's frame).
    """

    # Colours of the parts of the text (component classes).
    DEFAULT_CSS = """
    Reader > .reader--name {
        text-style: bold;
        color: $text-primary;
    }

    Reader > .reader--title {
        text-style: italic;
    }

    Reader > .reader--label {
        color: $text-muted;
    }

    Reader > .reader--meta {
        color: $text-muted;
    }

    Reader > .reader--authors {
        color: $text;
    }

    Reader > .reader--tag {
        color: $text-accent;
    }

    Reader > .reader--star {
        color: $text-warning;
    }

    Reader > .reader--url {
        color: $text-secondary;
        text-style: underline;
    }

    Reader > .reader--match {
        background: $warning 35%;
        text-style: bold;
    }

    Reader > .reader--code {
        color: $text-success;
    }

    Reader > .reader--why {
        color: $text-warning;
        text-style: italic;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "scroll_down", "Scroll down", id="reader.down", show=False),
        Binding("k,up", "scroll_up", "Scroll up", id="reader.up", show=False),
        Binding("pagedown,space", "page_down", "Page down", id="reader.page-down", show=False),
        Binding("pageup", "page_up", "Page up", id="reader.page-up", show=False),
        Binding("g,home", "scroll_home", "Top", id="reader.top", show=False),
        Binding("G,end", "scroll_end", "Bottom", id="reader.bottom", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "reader--name",
        "reader--title",
        "reader--label",
        "reader--meta",
        "reader--authors",
        "reader--tag",
        "reader--star",
        "reader--url",
        "reader--match",
        "reader--code",
        "reader--why",
    }

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._shown: str | None = None
        self._content = Content("")
        self._content_key: Hashable = ("nothing yet",)
        """What `_content` was made from (`content_key`): Content compares by its plain text
        only, so new matches on the same text would look equal."""
        self._recent: LRUCache[Hashable, tuple[Paper, Content]] = LRUCache(RECENT_PAPERS)
        """The content of the papers shown last, by `content_key` (with the paper it is of)."""
        self._wrapped: LRUCache[Hashable, tuple[Content, Content, list[Strip]]]
        self._wrapped = LRUCache(RECENT_PAPERS)
        """Their lines as wrapped (with the content they are of), by content key, width and
        look (`_wrap`)."""
        self._lines: list[Strip] = []
        self._shown_content = self._content
        """The content as wrapped for the width (`reader_wrap.hang`): what the lines show."""
        self._lines_key: tuple[object, ...] | None = None
        """What `_lines` were wrapped for: the content, the width and the styles' state."""
        self._frame: _Frame | None = None
        """The state the lines being drawn share (`render_lines`), read once for all."""

    @property
    def paper_id(self) -> str | None:
        """The id of the paper shown, if any."""
        return self._shown

    @property
    def content(self) -> Content:
        """What is shown, as Content (its spans name the styles: `.reader--match`, ...)."""
        return self._content

    @property
    def text(self) -> str:
        """The plain text shown (for tests and copy)."""
        return self._content.plain

    def show(self, paper: Paper | None, entry: Entry, hit: Hit | None = None) -> None:
        """Show `paper` (None: an empty-state message); scroll to the top for a new paper.

        Typing a query often keeps the paper under the cursor with the same matches
        (`diffusio` -> `diffusion`), or comes back to one shown a few keys before: the text
        is then neither made nor wrapped again (4-5 ms a key at 100,000 papers).
        """
        if paper is None:
            self._set_content(_EMPTY_KEY, lambda: _EMPTY)
            self._shown = None
            return
        abstract = _abstract_of(paper)  # read again: papers.json may have lost it since
        key = content_key(paper, entry, hit, abstract)
        self._set_content(key, lambda: self._made(key, paper, entry, hit, abstract))
        if paper.id != self._shown:
            self.scroll_to(y=0, animate=False)
        self._shown = paper.id

    def _made(
        self, key: Hashable, paper: Paper, entry: Entry, hit: Hit | None, abstract: str
    ) -> Content:
        """The content of `key`: kept from a recent show of the same paper, else made."""
        recent = self._recent.get(key)
        if recent is not None and recent[0] is paper:
            return recent[1]
        content = reader_content(paper, entry, hit, abstract=abstract)
        self._recent[key] = (paper, content)
        return content

    def _set_content(self, key: Hashable, make: Callable[[], Content]) -> None:
        if key == self._content_key:
            return  # the same text and matches: nothing to draw again
        before, top = self._lines, round(self.scroll_offset.y)
        self._content = make()
        self._content_key = key
        lines = self._wrap()
        if len(lines) != len(before) or round(self.scroll_offset.y) != top:
            self.refresh()  # another height or place: the bar may move too
            return
        # The same paper under a new query changes its highlighted lines only; each line
        # redrawn costs the frame (styles, filters, the terminal's bytes), so only those are.
        region = self.scrollable_content_region
        changed = [
            y
            for y in range(min(region.height, len(lines) - top))
            if lines[top + y] is not before[top + y] != lines[top + y]
        ]
        if changed:
            self.refresh(*row_regions(changed, region.width))

    def on_resize(self, event: events.Resize) -> None:
        """A new width wraps the text again."""
        self._wrap()

    def notify_style_update(self) -> None:
        """The theme or CSS changed: draw the lines again in the new styles."""
        super().notify_style_update()
        self._lines_key = None
        self._wrapped.clear()

    def _wrap(self) -> list[Strip]:
        """The text's lines at the pane's width (one cell left of the bar), made when needed.

        The height is stored without a layout pass (`set_reactive`): this widget's size never
        depends on its text; only what scrolling can reach does.
        """
        width = max(0, self.scrollable_content_region.width - _BAR_COLUMNS)
        selection = self.text_selection
        key = (self._content_key, width, self.look_key, selection)
        if key != self._lines_key:
            self._lines_key = key
            # A selection's lines are not kept: they change with every move of the mouse.
            kept = self._wrapped.get(key) if selection is None else None
            if kept is None or kept[0] is not self._content:  # kept for this very text only
                # Labelled fields wrapped with a hanging indent, URLs between their parts
                # (`reader_wrap`); the abstract is left to Textual.
                shown = hang(self._content, width)
                strips = (
                    Visual.to_strips(self, shown, width, None, self.visual_style, pad=True)
                    if width
                    else []
                )
                kept = (self._content, shown, strips)
                if selection is None:
                    self._wrapped[key] = kept
            _, self._shown_content, self._lines = kept
            self.set_reactive(VIRTUAL_SIZE, Size(width, len(self._lines)))
            if self.scroll_y > self.max_scroll_y:
                self.scroll_to(y=self.max_scroll_y, animate=False)
        return self._lines

    def render_lines(self, crop: Region) -> list[Strip]:
        """Draw the lines in `crop` with one `_Frame` for all of them: what every line needs
        (the wrapped text, the geometry, the bar's styles) read once, not once a line."""
        self._frame = self._frame_state()
        try:
            return super().render_lines(crop)
        finally:
            self._frame = None

    def _frame_state(self) -> _Frame:
        lines = self._wrap()
        thumb = self.thumb(len(lines))
        return _Frame(
            lines,
            self.scrollable_content_region.width,
            round(self.scroll_offset.y),
            self.visual_style.rich_style,
            thumb,
            {}
            if thumb is None
            else {part: self.get_visual_style(f"bar--{part}").rich_style for part in _BAR_PARTS},
        )

    def render_line(self, y: int) -> Strip:
        """Line `y` of the pane: the text's line there, a gap, the position bar (Line API)."""
        frame = self._frame or self._frame_state()
        lines, width, style = frame.lines, frame.width, frame.style
        if width < _BAR_COLUMNS:
            return Strip.blank(width, style)
        index = frame.top + y
        text_width = width - _BAR_COLUMNS
        line = lines[index] if index < len(lines) else Strip.blank(text_width, style)
        part = bar_part(frame.thumb, y)
        bar_style = frame.bar_styles[part] if part else style
        cells = [Segment(" ", style), Segment(THUMB if part == "thumb" else " ", bar_style)]
        return Strip([*line.crop_extend(0, text_width, style), *cells], width)

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        """The text under a mouse selection (the lines carry offsets into the paper's text)."""
        return selection.extract(self._shown_content.plain), "\n"

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Over the `from` line, a tooltip names the source files (the line shows a seed list's
        header, `ICML 2025 Papers`); anywhere else, no tooltip."""
        self.tooltip = source_files_tooltip(event.style.meta.get(SOURCE_FILES))

    def on_leave(self, event: events.Leave) -> None:
        """No tooltip once the mouse has left."""
        self.tooltip = None

    def bar_moved(self, y: int) -> None:
        """Scroll so that the part of the text that bar cell `y` stands for is in view."""
        height = self.scrollable_content_region.height
        row = row_for_bar(y, height, len(self._lines))
        self.scroll_to(y=min(self.max_scroll_y, max(0, row - height // 2)), animate=False)


_BAR_COLUMNS = 2
"""A blank column, then the position bar, right of the text."""
_BAR_PARTS = ("thumb", "track")


@dataclass(slots=True)
class _Frame:
    """What every line of one frame is drawn with (`Reader.render_lines`)."""

    lines: list[Strip]
    width: int
    top: int
    style: RichStyle
    thumb: tuple[int, int] | None
    bar_styles: dict[str, RichStyle]


def source_files_tooltip(names: object) -> Content | None:
    """The tooltip over the `from` line: each source file's name (and the header shown for it,
    when that differs), as safe text; None when `names` is not a list of names."""
    if not isinstance(names, list) or not names:
        return None
    rows: list[str] = []
    for name in map(str, names):
        title = source_title(name)
        rows.append(safe(name if title == name else f"{name} ({title})", one_line=True))
    label = "source file" if len(rows) == 1 else "source files"
    return plain(f"{label}:\n" + "\n".join(rows))


def content_key(paper: Paper, entry: Entry, hit: Hit | None, abstract: str) -> Hashable:
    """What `reader_content` makes the reader's text from: equal keys, equal text and styles.

    The paper by identity (a re-imported paper is another object) and the abstract as read
    now; the hit's field, matched words and spans (a new query often finds the same ones).
    """
    found = None if hit is None else (hit.field, hit.terms, tuple(sorted(hit.spans.items())))
    return (id(paper), paper.id, entry, abstract, found)


def reader_content(
    paper: Paper, entry: Entry, hit: Hit | None, *, abstract: str | None = None
) -> Content:
    """Everything the reader shows for one paper, as safe Content (`abstract`: the paper's,
    read already)."""
    spans: Mapping[str, Sequence[tuple[int, int]]] = (hit.spans or {}) if hit else {}
    terms: Sequence[str] = hit.terms if hit else ()
    head, below = heading_fields(paper.name, field_text(paper, entry, "title") or None)
    lines = [_heading_line(paper, entry, head, spans, ".reader--name")]
    if below is not None:
        lines.append(_heading_line(paper, entry, below, spans, ".reader--title"))
    lines.append(Content(""))
    lines.extend(_record_lines(paper, spans))
    lines.extend(_meta_lines(paper, entry, terms))
    display = display_text(_abstract_of(paper) if abstract is None else abstract)
    abstract_matches = highlight_spans(display.text, terms) if terms else []
    why = _why_matched(paper, entry, hit, abstract_matches)
    if why is not None:
        lines.extend([Content(""), why])
    lines.extend([Content(""), _abstract(display.text, display.styles, abstract_matches)])
    return Content("\n").join(lines)


def _abstract_of(paper: Paper) -> str:
    """The paper's abstract, or the one line that says why it cannot be read (papers.json
    changed behind papershelf's back and lost the paper: the next refresh reloads it)."""
    try:
        return paper.abstract
    except PapershelfError as error:
        return f"({error})"


def _heading_line(
    paper: Paper,
    entry: Entry,
    field: str,
    spans: Mapping[str, Sequence[tuple[int, int]]],
    style: str,
) -> Content:
    """The paper's name or title (as shown: LaTeX as Unicode) on a line of its own, with the
    filter's matches (whose spans index into that shown text)."""
    text = field_text(paper, entry, field)
    return highlighted(text, spans.get(field, ()), _MATCH, style, one_line=True)


def _label(text: str) -> Content:
    return plain(f"{text:<7}", ".reader--label")


def _record_lines(paper: Paper, spans: Mapping[str, Sequence[tuple[int, int]]]) -> list[Content]:
    """Who wrote it, where and when it appeared, and its identifiers."""
    lines: list[Content] = []
    if paper.authors:
        # Every author, wrapped with the pane. A search that matches authors gives its spans
        # under "authors", as offsets into `authors_text` (the line as shown).
        names = authors_text(paper.authors)
        by = highlighted(names, spans.get("authors", ()), _MATCH, ".reader--authors", one_line=True)
        lines.append(Content.assemble(_label("by"), by))
    venue = paper.venue or "unknown venue"
    lines.append(Content.assemble(_label("venue"), plain(venue, ".reader--meta", one_line=True)))
    if paper.year is not None:
        lines.append(Content.assemble(_label("year"), plain(str(paper.year), ".reader--meta")))
    if paper.identifiers:  # as `papershelf add` takes them: doi:…, arxiv:…, openreview:…
        ids = plain("  ".join(paper.identifiers), ".reader--meta", one_line=True)
        lines.append(Content.assemble(_label("ids"), ids))
    return lines


def _meta_lines(paper: Paper, entry: Entry, terms: Sequence[str]) -> list[Content]:
    lines: list[Content] = []
    if paper.sources:
        # The bundled seeds by their header, not their hashed names (`show` keeps the names);
        # the names ride in the line's style, for the tooltip on hover (`on_mouse_move`).
        sources = ", ".join(source_title(source) for source in paper.sources)
        value = plain(sources, ".reader--meta", one_line=True)
        files = Style.from_meta({SOURCE_FILES: list(paper.sources)})
        lines.append(Content.assemble(_label("from"), value).stylize(files))
    state: list[Content | str] = [plain(STATUS_LABELS.get(entry.status, entry.status))]
    if entry.starred:
        state += ["  ", plain("★ starred", ".reader--star")]
    lines.append(Content.assemble(_label("status"), *state))
    if entry.tags:
        tags = " ".join(f"#{tag}" for tag in sorted(entry.tags))
        lines.append(Content.assemble(_label("tags"), plain(tags, ".reader--tag", one_line=True)))
    if entry.note:
        note_spans = highlight_spans(entry.note, terms) if terms else []
        note = highlighted(entry.note, note_spans, _MATCH)
        lines.append(Content.assemble(_label("note"), note))
    for url in paper.code_urls:
        lines.append(Content.assemble(_label("code"), plain(url, ".reader--url", one_line=True)))
    for url in paper.links:
        lines.append(Content.assemble(_label("link"), plain(url, ".reader--url", one_line=True)))
    if paper.separate_page:  # not when it is shown above as a code URL or link
        page = plain(paper.separate_page, ".reader--url", one_line=True)
        lines.append(Content.assemble(_label("page"), page))
    if paper.separate_pdf:  # not when it is shown above as a code URL, link or the page
        pdf = plain(paper.separate_pdf, ".reader--url", one_line=True)
        lines.append(Content.assemble(_label("pdf"), pdf))
    return lines


def _why_matched(
    paper: Paper, entry: Entry, hit: Hit | None, abstract_matches: Sequence[tuple[int, int]]
) -> Content | None:
    """Say where the filter matched when no highlight shows it (a note, the tags, raw LaTeX)."""
    if hit is None or not hit.terms or abstract_matches:
        return None
    spans = hit.spans or {}
    if spans.get("name") or spans.get("title"):
        return None
    field = hit.field
    if field == "tags":
        detail = " ".join(f"#{tag}" for tag in sorted(entry.tags))
    elif field == "note":
        detail = _context(entry.note, spans.get("note", ()), hit.terms)
    elif field == "abstract":
        shown = field_text(paper, entry, "abstract")  # what the abstract spans index into
        detail = _context(shown, spans.get("abstract", ()), hit.terms)
    elif field:
        detail = ", ".join(hit.terms)
    else:
        return None
    message = f"matched in {field or 'text'}: {detail}"
    return plain(message, ".reader--why", one_line=True)


def _context(text: str, spans: Sequence[tuple[int, int]], terms: Sequence[str]) -> str:
    found = list(spans) or highlight_spans(text, terms)
    if not found:
        return ", ".join(terms)
    start, end = found[0]
    return snippet(text, (start, end))


def _abstract(
    text: str,
    styles: Sequence[tuple[int, int, str]],
    matches: Sequence[tuple[int, int]],
) -> Content:
    shown = safe(text)
    spans = [
        Span(start, end, _DISPLAY_STYLES.get(style, ""))
        for start, end, style in styles
        if start < end and _DISPLAY_STYLES.get(style)
    ]
    spans += [Span(start, end, _MATCH) for start, end in matches if start < end]
    return Content(shown, spans, strip_control_codes=False)
