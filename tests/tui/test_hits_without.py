"""`Without`: results less a few rows, answering like the list they stand for (Hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.model import Paper
from papershelf.storage.search.engine import Hit
from papershelf.tui.widgets.hits import AllPapers, Without, position


def _papers(count: int) -> list[Paper]:
    return [
        Paper(id=f"{i:012x}", name=f"P{i}", title=None, abstract="", venue="", sources=())
        for i in range(count)
    ]


@st.composite
def hidden_rows(draw: st.DrawFn) -> tuple[int, list[int]]:
    count = draw(st.integers(0, 40))
    rows = draw(st.lists(st.integers(0, max(count - 1, 0)), max_size=10)) if count else []
    return count, rows


@given(hidden_rows())
def test_without_is_the_list_less_the_hidden_rows(case: tuple[int, list[int]]) -> None:
    count, rows = case
    base = AllPapers(_papers(count))
    without = Without(base, rows)
    expected: list[Hit] = [hit for row, hit in enumerate(base) if row not in set(rows)]
    assert len(without) == len(expected)
    assert list(without) == expected
    assert without[:] == expected
    assert without[1:5] == expected[1:5]
    if expected:
        assert without[-1] == expected[-1]
    assert without.hidden_ids == {base[row].paper_id for row in rows}
    for row, hit in enumerate(base):
        found = position(without, hit.paper_id)
        if row in set(rows):
            assert found is None
        else:
            assert found is not None and without[found] == hit
    assert position(without, "not-a-paper") is None
