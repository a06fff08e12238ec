"""What every papershelf dialog shares: the modal base class, safe text and the key-hint line.

Keys in a burst. Textual routes each key to the widget focused *when the key arrives* and
resolves bindings only when it bubbles back up, so keys typed right after the one that opens a
dialog would land on the screen below, on the dialog before its input has focus, or after the
dialog is gone. `DialogKeys` (mixed into the app) and `DialogScreen` make that orderly:

- keys arriving while the top dialog is still being built are held, and handed on in order
  once it has focused its input (`DialogScreen.on_mount` ends by releasing them);
- keys that were routed to a screen which is no longer on top come back to the app as new
  keys, in order, and go to whatever is on top now (the dialog, or after it the main screen);
- a dialog dismisses exactly once: a second `enter`/`ctrl+s` queued behind the first is
  ignored, and keys after it go to the screen below;
- keys behind a key bound to an action that opens a dialog (`DialogKeys.DIALOG_ACTIONS`: `a`,
  `t`, `n`, `D`, `e`, ...) are held until that key has run, so they reach the dialog: a priority
  binding (`/`, the filter) would otherwise run the moment its key arrives, before the dialog
  is up.
"""

from __future__ import annotations

import bisect
import unicodedata
from collections import OrderedDict
from pathlib import Path
from typing import ClassVar, TypeVar

from textual import events
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message_pump import MessagePump
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Input, Static, TextArea

from papershelf.tui.key_names import hint_keys

ResultT = TypeVar("ResultT")

# Direction overrides and isolates can reorder what the terminal shows (a "Trojan Source" style
# trick), so they are dropped along with the C0/C1 controls.
_BIDI_CONTROLS = frozenset(
    chr(code) for code in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
)


def clean_line(text: str) -> str:
    """`text` for one line of a dialog: controls dropped, line breaks and tabs made spaces."""
    kept: list[str] = []
    for char in text:
        if char in "\n\r\t\v\f\x85\u2028\u2029":
            kept.append(" ")
        elif char in _BIDI_CONTROLS or unicodedata.category(char) == "Cc":
            continue
        else:
            kept.append(char)
    return "".join(kept)


def clean_text(text: str) -> str:
    """Multi-line `text`: newlines and tabs kept, every other control character dropped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "".join(
        char
        for char in text
        if char in "\n\t" or (char not in _BIDI_CONTROLS and unicodedata.category(char) != "Cc")
    )


def shorten(text: str, limit: int) -> str:
    """Cut `text` to at most `limit` characters, marking the cut with an ellipsis."""
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"


def key_hints(*pairs: tuple[str | None, str] | None) -> Static:
    """The key-hint lines of a dialog: each key in bold, then what it does; None breaks the line.

    A pair whose key is None (a remapped binding left without a key that works here) is
    left out.
    """
    parts: list[str | tuple[str, str]] = []
    line_start = True
    for pair in pairs:
        if pair is None:
            parts.append("\n")
            line_start = True
            continue
        key, what = pair
        if key is None:
            continue
        if not line_start:
            parts.append((" · ", "dim"))
        parts.append((key, "bold"))
        parts.append(" " + what)
        line_start = False
    return Static(Content.assemble(*parts), classes="dialog-hints", markup=False)


class DialogScreen(ModalScreen[ResultT]):
    """A centred modal dialog: `esc` cancels (dismisses None), styling from dialogs.tcss.

    `FOCUS` selects the widget that takes the keys; it is focused when the dialog mounts,
    and only then are keys typed meanwhile handed on (see the module docstring).
    """

    # Absolute, so the sheet is found however a subclass's module is laid out.
    CSS_PATH: ClassVar[str | Path] = Path(__file__).with_name("dialogs.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="dialog.cancel"),
    ]

    # dialogs.tcss sizes lists in cells per class: relative max-heights are not honoured
    # inside an auto-height container, and a 24-row terminal needs smaller lists.
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-tiny"),
        (20, "-short"),
        (34, "-tall"),
    ]
    # Under 50 columns the confirm buttons are narrowed to fit side by side (dialogs.tcss).
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-slim"), (50, "-broad")]

    FOCUS: ClassVar[str | None] = None
    """CSS selector of the widget keys go to first (None: the first focusable one)."""

    AUTO_FOCUS = None  # focus is set in on_mount, synchronously, before keys are released

    def __init__(self) -> None:
        super().__init__()
        self.dialog_ready = False
        """True once the dialog has focused its input; keys are held until then."""
        self.dialog_closed = False
        """True once the dialog has dismissed (it never dismisses twice)."""

    def on_mount(self) -> None:
        """Runs after the subclass's on_mount: focus the key widget, then take held keys."""
        target: Widget | None = None
        if self.FOCUS is not None:
            target = self.query_one(self.FOCUS)
        elif self.focused is None:
            target = next(iter(self.focus_chain), None)
        if target is not None:
            # Screen.set_focus acts now; Widget.focus() would wait for the app's queue,
            # behind the very keys that should reach the widget.
            self.set_focus(target)
            # A dialog taller than the screen scrolls (dialogs.tcss, -tiny): once laid out,
            # bring the focused widget (the button to answer with) into view.
            self.call_after_refresh(target.scroll_visible, animate=False)
        self.dialog_ready = True
        if isinstance(self.app, DialogKeys):
            self.app.release_held_keys()

    def hint_key(self, binding_id: str, field: Widget | None = None) -> str | None:
        """The keys a hint names for this dialog's binding `binding_id`, remap included, less
        those `field` (the text field the keys go to) keeps for itself; None when none is left.
        """
        binding = next(
            binding
            for cls in type(self).__mro__
            for binding in Binding.make_bindings(vars(cls).get("BINDINGS", ()))
            if binding.id == binding_id
        )
        # A priority binding runs before the field sees the key.
        return hint_keys(self.app, binding_id, binding.key, None if binding.priority else field)

    def refuse_paste(self, text: str) -> bool:
        """True to drop a paste before it reaches the focused widget (say why yourself)."""
        return False

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        """Dismiss with `result` once; later calls (keys queued behind the first) do nothing."""
        if self.dialog_closed or not self.is_current:
            return AwaitComplete()
        self.dialog_closed = True
        return super().dismiss(result)

    def action_cancel(self) -> None:
        """Close the dialog without a result."""
        self.dismiss(None)


_ORIGIN_LIMIT = 1024


class DialogKeys(App[None]):
    """App mixin: keys typed ahead of a dialog reach it in order (see the module docstring).

    Every key gets a sequence number when it arrives. While a dialog is on top, keys are
    held and routed one at a time, oldest first: the next key goes only after the last one
    went through the focused widget, its parents and the app's bindings (a `call_later` hop
    through each, twice per node so messages the key caused are handled first). Before the
    first key goes into a new dialog, the same hop runs through the screen below, so keys
    already routed there bubble back (and are held in their place) first. Textual resolves
    bindings when a key bubbles back up, so without this a fast `ctrl+s` would save before
    the letters typed ahead of it reached the input, and a key after it would land in the
    closing dialog.
    """

    DIALOG_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """Actions that may open a dialog: the keys behind a key bound to one (in the app's own
    `BINDINGS`) wait until it has run, and then go to the dialog it opened."""

    def __init__(self) -> None:
        super().__init__()
        self._dialog_keys: frozenset[str] | None = None
        self._held_keys: list[tuple[int, events.Key | events.Paste]] = []
        self._key_serial = 0
        self._key_in_flight = False
        self._settled_dialog: Screen[object] | None = None
        # Which screen was on top when each recent key arrived, and its number (by id; the
        # event is kept so the id stays unique): keys that bubble up after the screen
        # changed go back in their place.
        self._key_origin: OrderedDict[int, tuple[events.Event, Screen[object], int]] = OrderedDict()

    def _dialog_waiting(self) -> bool:
        screen = self.screen
        return isinstance(screen, DialogScreen) and not screen.dialog_ready

    async def on_event(self, event: events.Event) -> None:
        """Queue keys while a dialog is on top (or keys are queued); route them one by one."""
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            self._key_serial += 1
            if self._held_keys or self._key_in_flight or isinstance(self.screen, DialogScreen):
                self._held_keys.append((self._key_serial, event))
                await self._deliver_held()
                return
            self._note_origin(event, self._key_serial)
            if self._opens_dialog(event):
                target: Widget = self.focused or self.screen
                await super().on_event(event)
                self._start_hops(target)  # the keys behind it wait for its dialog
                return
        await super().on_event(event)

    def _opens_dialog(self, event: events.Event) -> bool:
        """Whether `event` is a key the app binds to one of `DIALOG_ACTIONS`, arriving where
        it is no text (not in an input, not in a dialog)."""
        if not isinstance(event, events.Key) or isinstance(self.screen, ModalScreen):
            return False
        if isinstance(self.focused, (Input, TextArea)):
            return False
        if self._dialog_keys is None:
            self._dialog_keys = frozenset(
                binding.key
                for binding in Binding.make_bindings(self.BINDINGS)
                if binding.action in self.DIALOG_ACTIONS
            )
        return event.key in self._dialog_keys

    def _note_origin(self, event: events.Event, serial: int) -> None:
        self._key_origin[id(event)] = (event, self.screen, serial)
        while len(self._key_origin) > _ORIGIN_LIMIT:
            self._key_origin.popitem(last=False)

    async def _deliver_held(self) -> None:
        """Route held keys in order: one at a time into a dialog, at once elsewhere."""
        while self._held_keys and not self._key_in_flight and not self._dialog_waiting():
            screen = self.screen
            into_dialog = isinstance(screen, DialogScreen)
            if into_dialog and self._settled_dialog is not screen and len(self.screen_stack) > 1:
                # Let keys already routed to the screen below come back first.
                self._settled_dialog = screen
                below = self.screen_stack[-2]
                self._start_hops(below.focused or below)
                return
            serial, event = self._held_keys.pop(0)
            if into_dialog and isinstance(event, events.Paste) and screen.refuse_paste(event.text):
                continue
            target: Widget = self.focused or self.screen
            self._note_origin(event, serial)
            opens = not into_dialog and self._opens_dialog(event)
            await super().on_event(event)
            if into_dialog or opens:
                self._start_hops(target)

    def _start_hops(self, target: Widget) -> None:
        self._key_in_flight = True
        self._hop([target, *target.ancestors], 0, again=True)

    def _hop(self, chain: list[MessagePump], index: int, *, again: bool) -> None:
        """Follow a key up `chain` (widget, parents, screen, app) behind what it queued."""
        while index < len(chain):
            if again and chain[index].call_later(self._hop, chain, index, again=False):
                return
            index += 1
            again = True
            if index < len(chain) and chain[index].call_later(self._hop, chain, index, again=True):
                return
        # Past the app itself: the key is done; route the next one.
        self._key_in_flight = False
        self.call_later(self._deliver_held)

    def on_key(self, event: events.Key) -> None:
        """A key that bubbled up from a screen no longer on top goes to the one on top now."""
        origin = self._key_origin.pop(id(event), None)
        if origin is None or origin[1] is self.screen or not isinstance(self.screen, ModalScreen):
            return
        if origin[1] in self.screen_stack:
            # Routed to the screen below before the dialog opened: hold it again, in its place.
            event.prevent_default()
            event.stop()
            bisect.insort(self._held_keys, (origin[2], events.Key(event.key, event.character)))
            self.call_later(self._deliver_held)

    def release_held_keys(self) -> None:
        """The dialog on top is ready: route the keys held for it."""
        self.call_later(self._deliver_held)
