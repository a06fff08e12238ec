"""ExportDialog: choose what to export (results, a tag, the marked papers), where to, and in
which format (Markdown, BibTeX, CSV, JSON)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from papershelf.storage.export.formats import FORMATS, LABELS, SUFFIXES, Format, format_of_path
from papershelf.tui.screens.confirm import Confirm
from papershelf.tui.screens.dialogs_base import DialogScreen, clean_line, key_hints
from papershelf.tui.widgets.safe_input import PathInput

Scope = Literal["results", "tag", "marked"]


@dataclass(frozen=True, slots=True)
class ExportRequest:
    """What the user asked to export: a scope (with its tag for "tag"), the file to write and
    its format."""

    scope: Scope
    tag: str | None
    path: Path
    format: Format = "markdown"


def export_file_name(scope_or_tag: str, today: date, fmt: Format = "markdown") -> str:
    """The default file name, e.g. `reading-list-to-read-2025-07-14.md` (the exporter's rule),
    with the format's suffix (`.bib`, `.csv`, `.json`)."""
    # Imported here: the exporter's writing module loads only when exporting.
    from papershelf.storage.export.writing import default_export_name

    return default_export_name(scope_or_tag, today, SUFFIXES[fmt])


@dataclass(frozen=True, slots=True)
class _Choice:
    scope: Scope
    tag: str | None
    label: str
    disabled: bool = False


class ExportDialog(DialogScreen[ExportRequest]):
    """Ask for a scope, a path and a format; dismisses an ExportRequest or None.

    The path follows the chosen scope and format until the user edits it; after that, a
    new format changes only an export suffix it ends in (`mine.md` → `mine.bib`). A relative
    path is taken under `default_dir`. An existing file is only replaced after a Confirm.
    """

    FOCUS = "#scope"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "export", "Export", id="export.run"),
    ]

    def __init__(
        self,
        default_dir: Path,
        tags: Sequence[str],
        result_count: int,
        marked_count: int,
        current_tag: str | None,
        today: date,
    ) -> None:
        super().__init__()
        self.default_dir = default_dir
        self.today = today
        tag_list = list(dict.fromkeys(tags))
        if current_tag is not None and current_tag not in tag_list:
            tag_list.insert(0, current_tag)
        self.choices = [
            _Choice("results", None, f"Current results ({_papers(result_count)})"),
            _Choice("marked", None, f"Marked papers ({marked_count})", marked_count == 0),
            *(_Choice("tag", tag, f"Tag #{clean_line(tag)}") for tag in tag_list),
        ]
        if marked_count:
            self.chosen = 1
        elif current_tag is not None:
            self.chosen = 2 + tag_list.index(current_tag)
        else:
            self.chosen = 0
        self.fmt: Format = "markdown"
        self._auto_path = str(self._default_path(self.choices[self.chosen]))

    def compose(self) -> ComposeResult:
        """Scope list, path input, format list, error line and key hints."""
        with Vertical(id="dialog", classes="-export") as dialog:
            dialog.border_title = "Export papers"
            yield Label("What to export")
            options: list[Option | None] = []
            for index, choice in enumerate(self.choices):
                if choice.scope == "tag" and self.choices[index - 1].scope != "tag":
                    options.append(None)  # a rule between the fixed scopes and the tags
                options.append(Option(self._prompt(index), disabled=choice.disabled))
            yield OptionList(*options, id="scope")
            yield Label("Save to")
            # The path stays exact (a folder name may hold an escape); PathInput draws it safely.
            path = PathInput(self._auto_path, id="path", select_on_focus=False)
            yield path
            yield Label("Format")
            yield OptionList(*(self._format_prompt(fmt) for fmt in FORMATS), id="format")
            yield Static("", id="error", markup=False)
            yield key_hints(
                ("↑↓", "choose"),
                ("tab", "path, format"),
                ("enter", "export"),
                # Named only when it works in the path field too (a letter is typed there).
                (self.hint_key("dialog.cancel", path), "cancel"),
            )

    def on_mount(self) -> None:
        """Start in the scope list on the preselected scope."""
        scope = self.query_one("#scope", OptionList)
        scope.highlighted = self.chosen
        self.query_one("#format", OptionList).highlighted = FORMATS.index(self.fmt)
        self._set_error("")

    def _prompt(self, index: int) -> Content:
        choice = self.choices[index]
        mark = "● " if index == self.chosen else "○ "
        return Content.assemble((mark, "bold"), choice.label)

    def _format_prompt(self, fmt: Format) -> Content:
        mark = "● " if fmt == self.fmt else "○ "
        return Content.assemble((mark, "bold"), f"{LABELS[fmt]} ({SUFFIXES[fmt]})")

    def _default_path(self, choice: _Choice) -> Path:
        name = choice.tag if choice.scope == "tag" and choice.tag else choice.scope
        return self.default_dir / export_file_name(name, self.today, self.fmt)

    def _set_error(self, message: str) -> None:
        error = self.query_one("#error", Static)
        error.update(Content.assemble(("✗ ", "bold"), clean_line(message)) if message else "")
        error.display = bool(message)

    @on(OptionList.OptionHighlighted, "#scope")
    def _scope_moved(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        previous, self.chosen = self.chosen, event.option_index
        scope = self.query_one("#scope", OptionList)
        scope.replace_option_prompt_at_index(previous, self._prompt(previous))
        scope.replace_option_prompt_at_index(self.chosen, self._prompt(self.chosen))
        path = self.query_one("#path", Input)
        # The path follows the scope for as long as it holds what we last put there.
        if path.value == self._auto_path:
            self._auto_path = str(self._default_path(self.choices[self.chosen]))
            self._set_path(self._auto_path)

    def _set_path(self, value: str) -> None:
        """Put `value` in the path field with the cursor at its end (the cursor would stay
        where it was, and ctrl+u would then leave the end of a longer name behind)."""
        path = self.query_one("#path", Input)
        path.value = value
        path.cursor_position = len(value)

    @on(OptionList.OptionHighlighted, "#format")
    def _format_moved(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        previous, self.fmt = self.fmt, FORMATS[event.option_index]
        formats = self.query_one("#format", OptionList)
        for fmt in (previous, self.fmt):
            formats.replace_option_prompt_at_index(FORMATS.index(fmt), self._format_prompt(fmt))
        path = self.query_one("#path", Input)
        if path.value == self._auto_path:
            self._auto_path = str(self._default_path(self.choices[self.chosen]))
            self._set_path(self._auto_path)
        elif format_of_path(path.value.strip()) is not None:
            # A name the user typed keeps its stem and takes the format's suffix.
            typed = Path(path.value.strip())
            self._set_path(str(typed.with_suffix(SUFFIXES[self.fmt])))

    @on(Input.Changed, "#path")
    def _path_changed(self) -> None:
        self._set_error("")

    @on(Input.Submitted, "#path")
    @on(OptionList.OptionSelected, "#scope")
    @on(OptionList.OptionSelected, "#format")
    def _enter(self, event: Input.Submitted | OptionList.OptionSelected) -> None:
        event.stop()
        self.action_export()

    def _target(self) -> Path | None:
        """The path to write, or None after showing why it cannot be used."""
        raw = self.query_one("#path", Input).value.strip()
        if not raw:
            self._set_error("Type the name of the file to write")
            return None
        path = Path(raw).expanduser()
        if not path.is_absolute():
            path = self.default_dir / path
        folder = path.parent
        if path.is_dir():
            self._set_error(f"{path} is a folder: add a file name")
        elif not folder.exists():
            self._set_error(f"Folder does not exist: {folder}")
        elif not folder.is_dir():
            self._set_error(f"Not a folder: {folder}")
        elif not os.access(folder, os.W_OK | os.X_OK):
            self._set_error(f"Cannot write to folder: {folder}")
        else:
            return path
        return None

    def action_export(self) -> None:
        """Check the path; confirm an overwrite; dismiss the request."""
        path = self._target()
        if path is None:
            return
        choice = self.choices[self.chosen]
        request = ExportRequest(choice.scope, choice.tag, path, self.fmt)
        if not path.exists():
            self.dismiss(request)
            return

        def overwrite(yes: bool | None) -> None:
            if yes:
                self.dismiss(request)
            else:
                self.query_one("#path", Input).focus()

        question = f"{path.name} already exists in {path.parent}.\nReplace it with this export?"
        self.app.push_screen(Confirm(question, yes="Replace", no="Keep it"), overwrite)


def _papers(count: int) -> str:
    return f"{count} paper" if count == 1 else f"{count} papers"
