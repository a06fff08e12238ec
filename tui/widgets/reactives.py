"""Textual reactive descriptors that widgets set quietly with `Widget.set_reactive`."""

from __future__ import annotations

from typing import cast

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widget import Widget

VIRTUAL_SIZE = cast("Reactive[Size]", Widget.virtual_size)
"""`Widget.virtual_size` as the descriptor it is when read on the class (Textual's typing gives
`Reactive[Size] | Size`, which `set_reactive` does not take)."""
