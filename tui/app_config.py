"""The user's config file in the app: the key remapping, and one notice per problem found.

`storage.library.config` reads the file and checks what pure Python can; here the app checks
the rest against what it really has: a `[keys]` binding id must be one of its bindings' ids
(`app_bindings.py` and the widgets' and dialogs' `BINDINGS`), and the keymap goes to Textual's
`App.set_keymap`, so a remapped key runs the action and the help screen, the footer and the
palette show it. The theme is checked by `app_theme.ThemeMemory`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

if TYPE_CHECKING:
    from papershelf.tui.app import PapershelfApp

NOTICE_SECONDS = 20
"""How long a config problem stays on screen: long enough to read a path and a key."""


def dialog_bindings() -> list[BindingType]:
    """The bindings of every dialog (imported here: the app imports most of them late)."""
    from papershelf.tui.screens.add_dialog import AddDialog
    from papershelf.tui.screens.confirm import Confirm
    from papershelf.tui.screens.dialogs_base import DialogScreen
    from papershelf.tui.screens.export_dialog import ExportDialog
    from papershelf.tui.screens.help import HelpScreen
    from papershelf.tui.screens.link_chooser import LinkChooser
    from papershelf.tui.screens.note_editor import NoteEditor
    from papershelf.tui.screens.related import RelatedList
    from papershelf.tui.screens.tag_editor import TagEditor

    owners = (
        *(DialogScreen, AddDialog, Confirm, ExportDialog, HelpScreen, LinkChooser),
        *(NoteEditor, RelatedList, TagEditor),
    )
    return [binding for owner in owners for binding in owner.BINDINGS]


def binding_ids(bindings: Iterable[BindingType]) -> Iterator[str]:
    """The ids of `bindings` (those without one cannot be remapped)."""
    for binding in bindings:
        if isinstance(binding, Binding) and binding.id:
            yield binding.id


def known_binding_ids(app: PapershelfApp) -> set[str]:
    """Every binding id a `[keys]` entry may name."""
    main = [action.binding for action in app.bound_actions()]
    return set(binding_ids([*app.BINDINGS, *main, *dialog_bindings()]))


def apply_keymap(app: PapershelfApp) -> list[str]:
    """Give Textual the config's keymap, less unknown binding ids (one problem line each)."""
    config = app.config
    if not config.keys:
        return []
    known = known_binding_ids(app)
    problems: list[str] = []
    keymap: dict[str, str] = {}
    for binding_id, keys in config.keys.items():
        if binding_id in known:
            keymap[binding_id] = keys
            continue
        near = difflib.get_close_matches(binding_id, sorted(known), n=3, cutoff=0.6)
        hint = f"did you mean {' or '.join(near)}?" if near else "the README's Settings lists them"
        problems.append(
            f"{config.path.name}: keys.{binding_id}: no binding has this id ({hint}); ignored"
        )
    app.applied_keymap = keymap
    app.set_keymap(keymap)
    return problems


def show_problems(app: PapershelfApp, problems: Iterable[str]) -> None:
    """Each problem as a warning that stays long enough to read (markup never parsed)."""
    from papershelf.tui.text import one_line_notice

    for problem in problems:
        app.notify(
            one_line_notice(problem, 300), severity="warning", markup=False, timeout=NOTICE_SECONDS
        )
