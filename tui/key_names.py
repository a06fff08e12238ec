"""Keys as hints name them, after the config's `[keys]` remapping.

A dialog's hint line, the remove dialog's "u undoes it", the first-run hint and the marking
notice name keys. Each names the keys its binding has now: the remap the app applied
(`app.applied_keymap`, what `app_config.apply_keymap` gave Textual's `set_keymap`), else the
binding's own. A key the dialog's text field takes for itself (a letter is typed, `ctrl+w`
deletes a word) never reaches a binding that is not a priority one, so it is left out: a hint
never names a key that does not do the thing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from textual.binding import Binding
from textual.keys import format_key, key_to_character
from textual.widgets import Input

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

# How hints write the keys whose Textual names are long (the rest as typed: `ctrl+s`, `y`).
_SHORT = {
    "escape": "esc",
    "delete": "del",
    "backspace": "⌫",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "pagedown": "pgdn",
    "pageup": "pgup",
    "space": "space",
    "tab": "tab",
    "enter": "enter",
}


_SCROLLING = ("scroll_", "page_")
"""Actions of Textual's scrollable containers, which skip themselves when nothing scrolls."""


def key_name(key: str) -> str:
    """One key as a hint writes it: `esc`, `↓`, `*` (for `asterisk`), `ctrl+s`."""
    key = key.strip()
    return _SHORT.get(key) or format_key(key)


def _character(key: str) -> str | None:
    """The character a key types, if any (`slash`: `/`, which `key_to_character` misses)."""
    character = key_to_character(key)
    # Textual writes `down` as `↓` too: the named keys of `_SHORT` type nothing.
    if character is None and key not in _SHORT and len(shown := format_key(key)) == 1:
        character = shown
    return character if character is not None and character.isprintable() else None


def split_keys(keys: str) -> list[str]:
    """`"j,down"` as `["j", "down"]`."""
    return [key.strip() for key in keys.split(",") if key.strip()]


def current_keys(app: App[Any], binding_id: str, default: str) -> list[str]:
    """The keys binding `binding_id` has now: the applied remap, else `default`."""
    keymap: Mapping[str, str] = getattr(app, "applied_keymap", None) or {}
    return split_keys(keymap.get(binding_id, default))


def taken_by(field: Widget, key: str) -> bool:
    """Whether `field`, focused, keeps `key` for itself: it types it, or binds it.

    A one-line Input inherits the scrolling keys of a scrollable container (`down`:
    `scroll_down`), but it never scrolls up or down: Textual then skips the binding
    (`SkipAction`) and the key goes on to the dialog's own, so those do not count.
    """
    if field.check_consume_key(key, _character(key)):
        return True
    one_line = isinstance(field, Input)
    own = (
        binding
        for cls in type(field).__mro__
        for binding in Binding.make_bindings(vars(cls).get("BINDINGS", ()))
        if not (one_line and binding.action.startswith(_SCROLLING))
    )
    return any(key in split_keys(binding.key) for binding in own)


def named(keys: Iterable[str]) -> str | None:
    """Keys as one hint (`esc / q / ?`), or None for no key."""
    shown = list(dict.fromkeys(key_name(key) for key in keys))
    return " / ".join(shown) if shown else None


def hint_keys(
    app: App[Any], binding_id: str, default: str, field: Widget | None = None
) -> str | None:
    """What a hint names for binding `binding_id` (default keys `default`): its current keys,
    less those `field` (the focused text field, for a non-priority binding) keeps; None when
    no key is left."""
    keys = current_keys(app, binding_id, default)
    if field is not None:
        keys = [key for key in keys if not taken_by(field, key)]
    return named(keys)
