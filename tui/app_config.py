"""The user's config file in the app: the key remapping, and one notice per problem found.

`storage.library.config` reads the file and checks what pure Python can; here the app checks
the rest against what it really has: a `[keys]` binding id must be one of its bindings' ids
(`app_bindings.py` and the widgets' and dialogs' `BINDINGS`), and the keymap goes to Textual's
`App.set_keymap`, so a remapped key runs the action and the help screen, the footer and the
palette show it. The theme is checked by `app_theme.ThemeMemory`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType
from textual.keys import key_to_character

if TYPE_CHECKING:
    from papershelf.tui.app import PapershelfApp

MAX_PROBLEMS_SHOWN = 5
"""Config problems shown one by one; the rest are counted in one more line. Each is a toast
for 20 s: thousands of them (a config of 3,000 unknown ids) kept the app busy for minutes."""
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


def start_config(app: PapershelfApp) -> None:
    """At start: the keymap, the export directory and the theme; then one notice per problem."""
    from papershelf.tui.app_theme import ThemeMemory

    problems = [*app.config.problems, *apply_keymap(app), *check_export_dir(app)]
    problems += ThemeMemory(app).start()
    show_problems(app, problems)


def _id_bindings(app: PapershelfApp) -> list[Binding]:
    """Every binding that has an id: the app's, its widgets', the dialogs'."""
    main = [action.binding for action in app.bound_actions()]
    every = [*app.BINDINGS, *main, *dialog_bindings()]
    return [binding for binding in every if isinstance(binding, Binding) and binding.id]


def known_bindings(app: PapershelfApp) -> dict[str, list[str]]:
    """Every binding id a `[keys]` entry may name, with its default keys."""
    known: dict[str, list[str]] = {}
    for binding in _id_bindings(app):
        keys = known.setdefault(binding.id or "", [])
        keys += [key.strip() for key in binding.key.split(",") if key.strip()]
    return known


def _same_key(key: str) -> str:
    """`*` and `asterisk` are one key: compare keys by the character they type, if any."""
    return key_to_character(key) or key


def apply_keymap(app: PapershelfApp) -> list[str]:
    """Give Textual the config's keymap, less unknown binding ids and remaps onto a key that a
    binding live in the same place keeps (Textual would take it from that one): one line each."""
    config = app.config
    if not config.keys:
        return []
    known = known_bindings(app)
    refused: dict[str, str] = {}
    keymap = {binding_id: keys for binding_id, keys in config.keys.items() if binding_id in known}
    priority = {binding.id for binding in _id_bindings(app) if binding.priority}
    for binding_id, keys in list(keymap.items()):
        typed = _field_takes(binding_id, keys, known[binding_id], binding_id in priority)
        if typed is not None:
            refused[binding_id] = typed
            del keymap[binding_id]
    # A refused remap leaves its binding on its default keys, which another remap may want:
    # check again until no remap is refused (a swap of j and k stays fine).
    clash = True
    while clash:
        clash = False
        for binding_id, keys in list(keymap.items()):
            taken = _taken(binding_id, keys, known, keymap)
            if taken is not None:
                key, other = taken
                refused[binding_id] = f"{key!r} is already {other}'s key (remap {other} too)"
                del keymap[binding_id]
                clash = True
    problems: list[str] = []
    for binding_id in config.keys:
        where = f"{config.path.name}: keys.{binding_id}"
        if binding_id not in known:
            near = difflib.get_close_matches(binding_id, sorted(known), n=3, cutoff=0.6)
            hint = f"did you mean {' or '.join(near)}?" if near else "the README lists the ids"
            problems.append(f"{where}: no binding has this id ({hint}); ignored")
        elif binding_id in refused:
            problems.append(f"{where}: {refused[binding_id]}; ignored")
    app.applied_keymap = keymap
    app.set_keymap(keymap)
    return problems


_WIDGET_PLACES = frozenset({"list", "reader", "tag-pane", "filter"})
"""Places whose bindings are live together with the app's (`app.`): the focused widget's."""


def _live_together(place: str, other: str) -> bool:
    """Whether bindings of the two places can meet one key press: the same place, the app and
    a widget of the main screen, or `dialog.` (every dialog's) and one dialog's own."""
    if place == other:
        return True
    pair = {place, other}
    if "app" in pair:
        return bool(pair & _WIDGET_PLACES)
    if "dialog" in pair:
        return not pair & _WIDGET_PLACES
    return False


def _taken(
    binding_id: str, keys: str, known: dict[str, list[str]], remapped: Mapping[str, str]
) -> tuple[str, str] | None:
    """A key of `keys` that a binding live in the same place keeps (`remapped`, else its
    defaults), as (key, its id); None when every key is free there. Two bindings that share a
    key by default (`dialog.cancel` and `help.close`: esc) may go on sharing it."""
    place = binding_id.split(".")[0]
    wanted = {_same_key(key): key for key in keys.split(",")}
    shared_by_default = {_same_key(key) for key in known[binding_id]}
    for other, defaults in known.items():
        if other == binding_id or not _live_together(place, other.split(".")[0]):
            continue
        shared = shared_by_default & {_same_key(key) for key in defaults}
        for key in remapped[other].split(",") if other in remapped else defaults:
            if _same_key(key) in wanted and _same_key(key) not in shared:
                return wanted[_same_key(key)], other
    return None


def _field_keys(widget: type) -> frozenset[str]:
    """The keys a text widget binds itself (its class's and its bases' BINDINGS)."""
    found: set[str] = set()
    for klass in widget.__mro__:
        for binding in Binding.make_bindings(klass.__dict__.get("BINDINGS", [])):
            found.update(_same_key(key.strip()) for key in binding.key.split(","))
    return frozenset(found)


def _text_field_keys() -> dict[str, frozenset[str]]:
    """The places whose keys arrive in a text field (a dialog's, the filter), with the keys the
    field binds (`dialog.` is every dialog's, the note's text area among them)."""
    from textual.widgets import Input, TextArea

    area, line = _field_keys(TextArea), _field_keys(Input)
    return {"note": area, "tags": line, "add": line, "filter": line, "dialog": area | line}


def _field_takes(binding_id: str, keys: str, defaults: list[str], priority: bool) -> str | None:
    """Why a dialog's text field would take a key of `keys` before the binding (a printable
    key is typed; a key the field binds is the field's unless the binding has priority), or
    None. A key the binding has by default is never questioned."""
    fields = _text_field_keys()
    place = binding_id.split(".")[0]
    if place not in fields:
        return None
    own = {_same_key(key) for key in defaults}
    for key in keys.split(","):
        if _same_key(key) in own:
            continue
        character = key_to_character(key)
        if character is not None and character.isprintable():
            return (
                f"{key!r} goes into the dialog's text field there "
                "(use a key with ctrl, or a function key)"
            )
        if not priority and _same_key(key) in fields[place]:
            return f"{key!r} is a key the dialog's text field uses itself"
    return None


def check_export_dir(app: PapershelfApp) -> list[str]:
    """The config's export_dir must be a directory now; else `e` proposes the current one."""
    config = app.config
    if config.export_dir is None or config.export_dir.is_dir():
        return []
    app.config = replace(config, export_dir=None)
    return [f"{config.path.name}: export_dir: {config.export_dir} is not a directory; ignored"]


def show_problems(app: PapershelfApp, problems: Iterable[str]) -> None:
    """Each problem as a warning that stays long enough to read (markup never parsed); past
    MAX_PROBLEMS_SHOWN, one line counts the rest."""
    from papershelf.tui.text import one_line_notice

    problems = list(problems)
    shown = problems
    if len(problems) > MAX_PROBLEMS_SHOWN + 1:  # a line counting one more would say no less
        shown = problems[:MAX_PROBLEMS_SHOWN]
        more = len(problems) - MAX_PROBLEMS_SHOWN
        shown.append(
            f"{app.config.path.name}: {more:,} more problems like these; fix the ones above first"
        )
    for problem in shown:
        app.notify(
            one_line_notice(problem, 300), severity="warning", markup=False, timeout=NOTICE_SECONDS
        )
