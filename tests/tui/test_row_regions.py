"""`row_regions`: the rows a list or the reader redraws, as few regions as cover exactly them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from papershelf.tui.widgets.position_bar import row_regions


@given(st.sets(st.integers(0, 60)), st.integers(1, 120))
def test_the_regions_cover_exactly_the_rows_one_region_a_run(rows: set[int], width: int) -> None:
    regions = row_regions(sorted(rows), width)
    covered = [y for region in regions for y in range(region.y, region.y + region.height)]
    assert covered == sorted(rows)
    assert all(region.x == 0 and region.width == width for region in regions)
    runs = sum(1 for y in rows if y - 1 not in rows)
    assert len(regions) == runs
