"""Keys as a fast typist (or a paste without bracketed-paste mode) sends them: in bursts.

`Pilot.press` waits for the app to go idle after every key, so a test using it never sees what
happens when the next key arrives while the last one is still being handled, which is what a
real terminal delivers. `burst` hands every key to the app's driver at once, the way the
terminal's input thread does, and only then waits.
"""

from __future__ import annotations

from textual import events
from textual.pilot import Pilot

# The characters a key name stands for, as a terminal sends them (Textual's own table gives no
# character for several of these).
_NAMED: dict[str, str | None] = {
    "enter": "\r",
    "tab": "\t",
    "escape": "\x1b",
    "backspace": "\x7f",
    "space": " ",
    "delete": None,
    "up": None,
    "down": None,
    "left": None,
    "right": None,
    "home": None,
    "end": None,
    "pageup": None,
    "pagedown": None,
    "shift+tab": None,
}
_PUNCTUATION = {
    "*": "asterisk",
    "/": "slash",
    "?": "question_mark",
    "#": "number_sign",
    "'": "apostrophe",
    '"': "quotation_mark",
    "-": "minus",
    "+": "plus",
    "!": "exclamation_mark",
    ".": "full_stop",
    ",": "comma",
    "|": "vertical_line",
    "^": "circumflex_accent",
    ":": "colon",
    ";": "semicolon",
    "=": "equals_sign",
    "@": "at",
    "$": "dollar_sign",
    "%": "percent_sign",
    "&": "ampersand",
    "(": "left_parenthesis",
    ")": "right_parenthesis",
    "[": "left_square_bracket",
    "]": "right_square_bracket",
    "{": "left_curly_bracket",
    "}": "right_curly_bracket",
    "<": "less_than_sign",
    ">": "greater_than_sign",
    "_": "underscore",
    "~": "tilde",
    "`": "grave_accent",
    "\\": "backslash",
    " ": "space",
}


def key_event(key: str) -> events.Key:
    """The `Key` event a terminal produces for `key` (a character or a Textual key name)."""
    if len(key) == 1:
        name = key if key.isalnum() else _PUNCTUATION.get(key, key)
        return events.Key(name, key)
    if key in _NAMED:
        return events.Key(key, _NAMED[key])
    if key.startswith("ctrl+") and len(key) == 6 and key[-1].isalpha():
        return events.Key(key, chr(ord(key[-1].lower()) - 96))
    return events.Key(key, None)


def typed(text: str) -> list[str]:
    """The keys that type `text`."""
    return list(text)


async def burst(pilot: Pilot[object], *keys: str) -> None:
    """Send `keys` to the app with no pause between them, then wait until it has handled them."""
    app = pilot.app
    for key in keys:
        # The driver's input thread posts to the app's queue just like this (Pilot.press
        # goes through the driver too, but waits for idle after each key).
        event = key_event(key)
        event.set_sender(app)
        app.post_message(event)
    await pilot.pause()
    await pilot.pause()
