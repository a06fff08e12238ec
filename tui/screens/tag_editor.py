"""TagEditor: add and remove tags on one or several papers, completing from the known tags."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from papershelf.tui.screens.dialogs_base import DialogScreen, clean_line, key_hints, shorten
from papershelf.tui.screens.tag_editor_logic import (
    Op,
    TagChange,
    TagEdits,
    TagSuggester,
    parse_tag_input,
)
from papershelf.tui.widgets.safe_input import SafeInput

__all__ = ["TagChange", "TagEditor", "TagEdits", "TagSuggester", "parse_tag_input"]

_SUGGESTION_LIMIT = 100


class _Suggestions(OptionList, can_focus=False):
    """Known tags matching the input; driven by ↑/↓ from the input, so never focused."""


class TagEditor(DialogScreen[TagChange]):
    """Edit the tags of the papers named `paper_names`; dismisses a TagChange or None.

    `current` is the union of their tags, `known` maps every tag in the library to its paper
    count (for completion); `counts`, when given, says how many of these papers carry each
    current tag, shown as `to-read (3/5)`.
    """

    FOCUS = "#tag-input"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Apply", id="tags.apply"),
        Binding("down", "suggestion(1)", "Next known tag", show=False, id="tags.next"),
        Binding("up", "suggestion(-1)", "Previous known tag", show=False, id="tags.previous"),
        Binding(
            "delete,backspace",
            "toggle_selected",
            "Remove/restore tag",
            show=False,
            id="tags.toggle",
        ),
    ]

    def __init__(
        self,
        paper_names: list[str],
        current: frozenset[str],
        known: Mapping[str, int],
        *,
        counts: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__()
        self.paper_names = list(paper_names)
        self.known = dict(known)
        self.edits = TagEdits(len(self.paper_names), current, counts or {})
        self.show_counts = len(self.paper_names) > 1 and counts is not None
        # Most used first, so completion offers the likeliest tag.
        self._by_use = sorted(self.known, key=lambda tag: (-self.known[tag], tag))
        self._suggested: list[tuple[Op, str]] = []

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Current tags, the input, its error line, the known-tag list and the key hints."""
        several = len(self.paper_names) > 1
        with Vertical(id="dialog", classes="-tags") as dialog:
            what = f"{len(self.paper_names)} papers" if several else self._paper_name(0, 60)
            dialog.border_title = Content("Tags · " + what)
            if several:
                yield Static(Content(self._names_line()), id="names", markup=False)
            yield Label("Tags on these papers" if several else "Tags on this paper")
            current = OptionList(id="current")
            yield current
            field = SafeInput(
                placeholder="add a tag (a, b, -c) · -tag removes",
                id="tag-input",
                suggester=TagSuggester(self._by_use, self._removable),
            )
            yield field
            yield Static("", id="error", markup=False)
            yield Label("Known tags", id="known-label")
            yield _Suggestions(id="known")
            # The keys as remapped in the config; the input keeps its own (a letter, ctrl+w).
            up_down = [self.hint_key("tags.previous", field), self.hint_key("tags.next", field)]
            yield key_hints(
                ("enter", "add"),
                ("-tag", "remove"),
                ("→", "complete"),
                (_pair(*up_down), "known tags"),
                None,
                ("tab", "current tags"),
                (self.hint_key("tags.toggle", current), "remove/restore"),
                (self.hint_key("tags.apply", field), "apply"),
                (self.hint_key("dialog.cancel", field), "cancel"),
            )

    def on_mount(self) -> None:
        """Fill both lists (the base focuses the input)."""
        self._show_current()
        self._show_suggestions("")
        self._set_error("")

    def _paper_name(self, index: int, limit: int) -> str:
        return shorten(clean_line(self.paper_names[index]), limit)

    def _names_line(self) -> str:
        shown = [self._paper_name(index, 30) for index in range(min(3, len(self.paper_names)))]
        more = len(self.paper_names) - len(shown)
        return ", ".join(shown) + (f" and {more} more" if more else "")

    def _removable(self) -> list[str]:
        return [tag for tag in self.edits.rows() if self.edits.effective(tag)]

    def _row(self, tag: str) -> Content:
        edits = self.edits
        count = edits.counts.get(tag)
        share = f"{count}/{edits.paper_count}" if self.show_counts and count else ""
        shown = clean_line(tag)
        if tag in edits.removed:
            minus = "\u2212 "  # a real minus sign, wider and clearer than "-"
            return Content.assemble((minus, "bold red"), (shown, "strike"), ("  removed", "dim"))
        if tag in edits.added:
            note = f"{share} → all" if share else "added"
            return Content.assemble(("+ ", "bold green"), (shown, "bold"), (f"  {note}", "dim"))
        return Content.assemble("  ", shown, (f"  ({share})" if share else "", "dim"))

    def _show_current(self, focus_tag: str | None = None) -> None:
        """Rebuild the current-tag list, keeping (or moving) the highlight."""
        current = self.query_one("#current", OptionList)
        previous = current.highlighted
        rows = self.edits.rows()
        current.set_options([Option(self._row(tag)) for tag in rows])
        if not rows:
            current.add_option(Option(Content("(no tags yet: type one below)"), disabled=True))
        elif focus_tag in rows:
            current.highlighted = rows.index(focus_tag)
        else:
            # Start on the first row, so `tab` then `delete` works at once.
            current.highlighted = 0 if previous is None else min(previous, len(rows) - 1)

    def _show_suggestions(self, text: str) -> None:
        """List the known tags matching the last part of `text` (removable ones for `-x`)."""
        last = text.rpartition(",")[2].strip()
        if last.startswith("-"):
            stem = "-".join(last[1:].casefold().split())
            pool = [tag for tag in self._removable() if stem in tag]
            op: Op = "remove"
        else:
            stem = "-".join(last.lstrip("#+").casefold().split())
            pool = [tag for tag in self._by_use if stem in tag and not self._fully_there(tag)]
            op = "add"
        # Prefix matches first, each group keeping its order (most used first for known tags).
        pool.sort(key=lambda tag: not tag.startswith(stem))
        self._suggested = [(op, tag) for tag in pool[:_SUGGESTION_LIMIT]]
        known = self.query_one("#known", OptionList)
        known.set_options([Option(self._suggestion_prompt(op, tag)) for op, tag in self._suggested])
        label = "Remove which tag" if op == "remove" else "Known tags"
        self.query_one("#known-label", Label).update(
            Content(f"{label} ({len(pool)})" if pool else f"{label}: none match")
        )

    def _fully_there(self, tag: str) -> bool:
        edits = self.edits
        return (edits.on_all(tag) or tag in edits.added) and tag not in edits.removed

    def _suggestion_prompt(self, op: Op, tag: str) -> Content:
        if op == "remove":
            return Content.assemble(("remove ", "dim"), clean_line(tag))
        count = self.known.get(tag, 0)
        return Content.assemble(
            clean_line(tag), (f"  {count} paper{'s' if count != 1 else ''}", "dim")
        )

    def _set_error(self, message: str) -> None:
        error = self.query_one("#error", Static)
        error.update(Content.assemble(("✗ ", "bold"), clean_line(message)) if message else "")
        error.display = bool(message)

    # -- editing ----------------------------------------------------------------------------

    def _apply_edits(self, edits: list[tuple[Op, str]]) -> bool:
        """Apply typed or picked edits; on a tag that cannot be removed, show why and stop."""
        touched: str | None = None
        for op, tag in edits:
            if op == "add":
                self.edits.add(tag)
            elif not self.edits.remove(tag):
                self._set_error(f"No tag '{tag}' on {self._whom()} to remove")
                self._show_current(touched)
                return False
            touched = tag
        self._set_error("")
        self._show_current(touched)
        return True

    def _whom(self) -> str:
        return "these papers" if len(self.paper_names) > 1 else "this paper"

    def _take_input(self) -> bool:
        """Use the highlighted known tag or the typed text; True when it all went in."""
        tag_input = self.query_one("#tag-input", Input)
        known = self.query_one("#known", OptionList)
        text = tag_input.value
        picked: list[tuple[Op, str]] = []
        if known.highlighted is not None and self._suggested:
            # The pick replaces the part being typed; parts before the last comma still count.
            picked = [self._suggested[known.highlighted]]
            text = text.rpartition(",")[0]
        try:
            edits = [*parse_tag_input(text), *picked]
        except ValueError as error:
            self._set_error(str(error).capitalize())
            return False
        if not self._apply_edits(edits):
            return False
        tag_input.value = ""
        # Explicitly: when the input was already empty no Changed event follows.
        self._show_suggestions("")
        return True

    @on(Input.Changed, "#tag-input")
    def _typed(self, event: Input.Changed) -> None:
        self._set_error("")
        self._show_suggestions(event.value)

    @on(Input.Submitted, "#tag-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        known = self.query_one("#known", OptionList)
        if not event.value.strip() and known.highlighted is None:
            self.action_apply()
        else:
            self._take_input()

    @on(OptionList.OptionSelected, "#known")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        # Reached by a mouse click; the keyboard picks through the input's enter.
        event.stop()
        self._take_input()

    @on(OptionList.OptionSelected, "#current")
    def _enter_on_current(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_apply()

    def action_suggestion(self, step: int) -> None:
        """Move the highlight through the known-tag list (from the input)."""
        known = self.query_one("#known", OptionList)
        if isinstance(self.focused, Input) and known.option_count:
            if step > 0:
                known.action_cursor_down()
            else:
                known.action_cursor_up()

    def action_toggle_selected(self) -> None:
        """Remove the highlighted current tag, or restore it when it is already removed."""
        current = self.query_one("#current", OptionList)
        rows = self.edits.rows()
        if self.focused is not current or current.highlighted is None or not rows:
            return
        tag = rows[current.highlighted]
        self.edits.toggle(tag)
        self._show_current(tag)
        self._show_suggestions(self.query_one("#tag-input", Input).value)

    def action_apply(self) -> None:
        """Take what is still typed, then dismiss the change (None when nothing changed)."""
        tag_input = self.query_one("#tag-input", Input)
        known = self.query_one("#known", OptionList)
        pending = tag_input.value.strip() or known.highlighted is not None
        if pending and not self._take_input():
            return
        self.dismiss(self.edits.change())


def _pair(first: str | None, second: str | None) -> str | None:
    """Two keys named as one hint (`↑↓`, as the default keys read); either may be missing."""
    if first is None or second is None:
        return first or second
    return first + second if len(first) == len(second) == 1 else f"{first} {second}"
