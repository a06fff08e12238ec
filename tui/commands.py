"""Command palette: every key binding as a command that runs the same `action_*` method.

The app lists its bound actions once (`BoundAction`s); the palette and the help screen are
both generated from that list, so neither can drift from the real bindings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.dom import DOMNode

from papershelf.tui.screens.help import HelpSection, KeyHelp

if TYPE_CHECKING:
    from textual.app import App


@dataclass(frozen=True)
class BoundAction:
    """A binding, the area it belongs to, and the node whose `action_*` it runs."""

    section: str
    binding: Binding
    target: DOMNode

    @property
    def title(self) -> str:
        """The command's name in the palette."""
        return f"{self.section}: {self.binding.description}"


@runtime_checkable
class HasBoundActions(Protocol):
    """What the palette needs from the app."""

    def bound_actions(self) -> Sequence[BoundAction]:
        """Every binding of the app and its widgets, by area."""
        ...


def key_display(app: App[Any], binding: Binding) -> str:
    """How the keys of `binding` are written for people (`j/↓`), keymap included."""
    # The keymap the app gave `App.set_keymap` (the config's [keys]) replaces a binding's keys.
    keymap: Mapping[str, str] = getattr(app, "applied_keymap", None) or {}
    remapped = keymap.get(binding.id) if binding.id else None
    keys = [key.strip() for key in (remapped or binding.key).split(",") if key.strip()]
    shown = [app.get_key_display(Binding(key, binding.action)) for key in keys]
    return " / ".join(dict.fromkeys(shown))


def help_sections(app: App[Any], actions: Iterable[BoundAction]) -> list[HelpSection]:
    """Group the bound actions by area, in first-seen order, for the help screen."""
    grouped: dict[str, list[KeyHelp]] = {}
    for action in actions:
        keys = key_display(app, action.binding)
        grouped.setdefault(action.section, []).append(KeyHelp(keys, action.binding.description))
    return [HelpSection(title, tuple(keys)) for title, keys in grouped.items()]


class PapershelfCommands(Provider):
    """Offers every bound action by name (`ctrl+p`)."""

    def _actions(self) -> Sequence[BoundAction]:
        app = self.app
        if not isinstance(app, HasBoundActions):
            return ()
        # The palette itself is a screen of its own: drop actions that only make sense there.
        return [action for action in app.bound_actions() if action.section != "Help"]

    def _runner(self, action: BoundAction) -> object:
        async def run() -> None:
            await self.app.run_action(action.binding.action, action.target)

        return run

    async def discover(self) -> Hits:
        """All commands, in binding order, before anything is typed."""
        for action in self._actions():
            yield DiscoveryHit(
                action.title,
                self._runner(action),  # type: ignore[arg-type]
                help=f"key: {key_display(self.app, action.binding)}",
            )

    async def search(self, query: str) -> Hits:
        """Commands whose name matches `query` fuzzily."""
        matcher = self.matcher(query)
        for action in self._actions():
            score = matcher.match(action.title)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(action.title),
                    self._runner(action),  # type: ignore[arg-type]
                    text=action.title,
                    help=f"key: {key_display(self.app, action.binding)}",
                )
