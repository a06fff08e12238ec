"""Textual's `Strip` without the reference cycles two of its caches make (Textual 8.2.8).

`Strip.divide` caches its result in the strip, and when there is nothing to cut the result is
`[self]`; `Strip.crop_extend` caches its result too, which is the strip itself when it already
has the length asked for. Either way the strip then holds itself: a reference cycle that only
the cyclic collector can free. The compositor calls `divide` on every line it draws, so every
line of every frame became cyclic garbage: a line lives for a frame, long enough to be
promoted to the oldest generation, where the app runs full collections only at the user's
pauses (`tui.collector`). Typing the 560 keys of `bench/queries.txt` without a pause left
~400,000 such objects (Strips, their Segments and caches: ~60 MB at 10,815 papers) until the
next pause.

`apply()` wraps the two methods so that a result which is the strip itself is returned as
before but not kept in the strip's own cache (other results are cached as Textual caches
them). What they return is unchanged; only a cache hit for the trivial case is lost, and that
case costs a comparison anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import wraps

from rich.style import Style
from textual.strip import Strip

__all__ = ["applied", "apply"]

_ORIGINAL_DIVIDE = Strip.divide
_ORIGINAL_CROP_EXTEND = Strip.crop_extend


def _divide(self: Strip, cuts: Iterable[int]) -> Sequence[Strip]:
    cuts = list(cuts)
    length = self.cell_length
    if [cut for cut in cuts if cut <= length] == [length]:
        return [self]  # what Textual returns here, without caching `[self]` in `self`
    return _ORIGINAL_DIVIDE(self, cuts)


def _crop_extend(self: Strip, start: int, end: int, style: Style | None) -> Strip:
    strip = _ORIGINAL_CROP_EXTEND(self, start, end, style)
    if strip is self:
        # Textual cached the strip in itself under this key: forget it (a dict pop, O(1)).
        self._crop_extend_cache._cache.pop((start, end, style), None)
    return strip


def _wrapped(original: Callable[..., object], replacement: Callable[..., object]) -> object:
    return wraps(original)(replacement)


def apply() -> None:
    """Replace the two methods on `Strip` (idempotent; for the whole process)."""
    Strip.divide = _wrapped(_ORIGINAL_DIVIDE, _divide)  # type: ignore[method-assign]
    Strip.crop_extend = _wrapped(_ORIGINAL_CROP_EXTEND, _crop_extend)  # type: ignore[method-assign]


def applied() -> bool:
    """Whether `apply` has replaced the methods."""
    return getattr(Strip.divide, "__wrapped__", None) is _ORIGINAL_DIVIDE
