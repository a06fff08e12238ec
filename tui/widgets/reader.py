"""The reader: one paper in full, with math as Unicode and the filter's matches highlighted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content, Span
from textual.widgets import Static

from storage.latex import display_text
from storage.model import Entry, Paper
from storage.query import highlight_spans, snippet
from tui.text import highlighted, plain, safe

if TYPE_CHECKING:
    from storage.query import Hit

STATUS_LABELS = {"unread": "unread", "reading": "◐ reading", "read": "✓ read"}

# Display styles from storage.latex map to component classes, so the theme decides the look.
_DISPLAY_STYLES = {"bold": "bold", "italic": "italic", "code": ".reader--code"}
_MATCH = ".reader--match"


class Reader(VerticalScroll, can_focus=True):
    """Shows the paper under the list's cursor; scrolls by keyboard when focused."""

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
        self._body_content: Content | None = None

    def compose(self) -> ComposeResult:
        """A single Static holds the whole paper (it wraps to the pane's width)."""
        yield Static(Content(""), id="reader-body")

    @property
    def paper_id(self) -> str | None:
        """The id of the paper shown, if any."""
        return self._shown

    @property
    def text(self) -> str:
        """The plain text shown (for tests and copy)."""
        return str(self.query_one("#reader-body", Static).content)

    def show(self, paper: Paper | None, entry: Entry, hit: Hit | None = None) -> None:
        """Show `paper` (None: an empty-state message); scroll to the top for a new paper."""
        if paper is None:
            self._update_body(Content("No paper matches the filter."))
            self._shown = None
            return
        self._update_body(reader_content(paper, entry, hit))
        if paper.id != self._shown:
            self.scroll_home(animate=False)
        self._shown = paper.id

    def _update_body(self, content: Content) -> None:
        """Show `content`, laying the screen out only when the body's height changes.

        A layout arranges and redraws the whole screen (tens of ms beside a long list), and the
        reader updates after every search. Content of as many wrapped lines at the body's width
        (always so for the same paper with other highlights) fits without one.
        """
        body = self.query_one("#reader-body", Static)
        old = self._body_content
        width = body.content_size.width
        same_height = (
            old is not None
            and width > 0
            and (
                old.plain == content.plain  # other highlights only: no need to wrap it again
                or old.get_height(body.styles, width) == content.get_height(body.styles, width)
            )
        )
        self._body_content = content
        body.update(content, layout=not same_height)


def reader_content(paper: Paper, entry: Entry, hit: Hit | None) -> Content:
    """Everything the reader shows for one paper, as safe Content."""
    spans: Mapping[str, Sequence[tuple[int, int]]] = (hit.spans or {}) if hit else {}
    terms: Sequence[str] = hit.terms if hit else ()
    lines: list[Content] = [
        highlighted(paper.name, spans.get("name", ()), _MATCH, ".reader--name", one_line=True)
    ]
    if paper.title and paper.title != paper.name:
        lines.append(
            highlighted(
                paper.title, spans.get("title", ()), _MATCH, ".reader--title", one_line=True
            )
        )
    lines.append(Content(""))
    lines.extend(_meta_lines(paper, entry, terms))
    display = display_text(paper.abstract)
    abstract_matches = highlight_spans(display.text, terms) if terms else []
    why = _why_matched(paper, entry, hit, abstract_matches)
    if why is not None:
        lines.extend([Content(""), why])
    lines.extend([Content(""), _abstract(display.text, display.styles, abstract_matches)])
    return Content("\n").join(lines)


def _label(text: str) -> Content:
    return plain(f"{text:<7}", ".reader--label")


def _meta_lines(paper: Paper, entry: Entry, terms: Sequence[str]) -> list[Content]:
    lines: list[Content] = []
    venue = paper.venue or "unknown venue"
    lines.append(Content.assemble(_label("venue"), plain(venue, ".reader--meta", one_line=True)))
    if paper.sources:
        sources = ", ".join(paper.sources)
        lines.append(
            Content.assemble(_label("from"), plain(sources, ".reader--meta", one_line=True))
        )
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
    if paper.url:
        page = plain(paper.url, ".reader--url", one_line=True)
        lines.append(Content.assemble(_label("page"), page))
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
        detail = _context(paper.abstract, spans.get("abstract", ()), hit.terms)
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
    return snippet(text, tuple(found[0]))


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
