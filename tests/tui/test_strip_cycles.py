"""`tui.strip_cycles`: a drawn line is freed when dropped, not left to the cyclic collector,
and Strip's `divide` and `crop_extend` answer exactly as Textual's own."""

from __future__ import annotations

import gc

from hypothesis import given
from hypothesis import strategies as st
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from papershelf.tui import strip_cycles

STYLES = [None, Style(bold=True), Style(color="red"), Style(italic=True, bgcolor="blue")]
SEGMENTS = st.lists(
    st.tuples(st.text(alphabet="ab 漢", min_size=1, max_size=6), st.sampled_from(STYLES)),
    max_size=5,
).map(lambda parts: [Segment(text, style) for text, style in parts])


def cyclic_strips_after(work) -> int:
    """How many Strips only the cyclic collector frees after `work(strip)` on a fresh strip."""
    gc.collect()
    gc.disable()
    try:
        strip = Strip([Segment("hello ", Style(bold=True)), Segment("world")])
        work(strip)
        del strip
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found = sum(isinstance(thing, Strip) for thing in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    return found


def draw_like_the_compositor(strip: Strip) -> None:
    strip.divide([strip.cell_length])
    strip.crop_extend(0, strip.cell_length, None)


def test_a_line_drawn_whole_is_freed_without_the_cyclic_collector() -> None:
    strip_cycles.apply()
    assert strip_cycles.applied()
    assert cyclic_strips_after(draw_like_the_compositor) == 0


def test_textuals_own_methods_leave_the_line_in_a_cycle() -> None:
    """What `apply` is for (should Textual stop caching a strip in itself, drop the module)."""
    divide, crop_extend = Strip.divide, Strip.crop_extend
    try:
        Strip.divide = strip_cycles._ORIGINAL_DIVIDE  # type: ignore[method-assign]
        Strip.crop_extend = strip_cycles._ORIGINAL_CROP_EXTEND  # type: ignore[method-assign]
        assert cyclic_strips_after(draw_like_the_compositor) >= 1
    finally:
        Strip.divide, Strip.crop_extend = divide, crop_extend  # type: ignore[method-assign]


@given(
    segments=SEGMENTS,
    cuts=st.lists(st.integers(min_value=0, max_value=30), max_size=4),
    span=st.tuples(st.integers(0, 30), st.integers(0, 30)),
    style=st.sampled_from(STYLES),
)
def test_the_methods_answer_as_textuals_own(segments, cuts, span, style) -> None:
    strip_cycles.apply()
    cuts = sorted(cuts)
    mine, theirs = Strip(list(segments)), Strip(list(segments))
    for _ in range(2):  # the second time from the caches
        assert list(mine.divide(cuts)) == list(strip_cycles._ORIGINAL_DIVIDE(theirs, cuts))
        whole = [mine.cell_length]
        assert list(mine.divide(whole)) == [mine]
        start, end = min(span), max(span)
        assert mine.crop_extend(start, end, style) == strip_cycles._ORIGINAL_CROP_EXTEND(
            theirs, start, end, style
        )
