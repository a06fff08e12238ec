"""CSV and JSON of papers: every value comes back, and no CSV cell starts a formula."""

from __future__ import annotations

import csv
import io
import json

from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.export.table import COLUMNS, rows, to_csv, to_json
from papershelf.storage.model import STATUSES, Entry, Paper

texts = st.text(
    alphabet=st.one_of(st.characters(), st.sampled_from("=+-@\t\r\n,;\"'\u2028\x85\ud800")),
    max_size=20,
)


@st.composite
def items(draw: st.DrawFn) -> list[tuple[Paper, Entry]]:
    made = []
    for index in range(draw(st.integers(0, 4))):
        paper = Paper(
            id=f"{index:012x}",
            name=draw(texts),
            title=draw(st.none() | texts),
            abstract="x",
            venue=draw(st.none() | texts),
            sources=(),
            authors=tuple(draw(st.lists(texts, max_size=3))),
            year=draw(st.none() | st.integers(1900, 2100)),
            url=draw(st.none() | texts),
            code_urls=tuple(draw(st.lists(texts, max_size=2))),
        )
        entry = Entry(
            tags=frozenset(draw(st.sets(st.sampled_from(["gnn", "to-read", "=x"])))),
            status=draw(st.sampled_from(STATUSES)),
            starred=draw(st.booleans()),
            note=draw(texts),
        )
        made.append((paper, entry))
    return made


def unguarded(cell: str) -> str:
    return cell[1:] if cell[:1] == "'" and cell[1:2] in ("=", "+", "-", "@", "\t") else cell


def utf8(text: str) -> str:
    """A cell's text as written: valid UTF-8, line breaks as `\n`."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


@given(items())
def test_json_holds_every_value(chosen: list[tuple[Paper, Entry]]) -> None:
    text = to_json(chosen)
    text.encode("utf-8")  # writable as UTF-8: lone surrogates are escaped
    assert not any(ch in text for ch in "\x85\u2028\u202e")
    papers = {paper.id: paper for paper, _ in chosen}
    got = json.loads(text)
    assert [{key: record[key] for key in COLUMNS} for record in got] == rows(chosen)
    for record in got:
        paper = papers[record["id"]]
        assert record["abstract"] == paper.abstract and record["title_as_imported"] == paper.title
        assert record["links"] == list(paper.links_with_page)


@given(items())
def test_csv_reads_back_and_no_cell_starts_a_formula(chosen: list[tuple[Paper, Entry]]) -> None:
    text = to_csv(chosen)
    text.encode("utf-8")
    table = list(csv.reader(io.StringIO(text, newline="")))
    assert table[0] == list(COLUMNS)
    assert len(table) == len(chosen) + 1
    for cells in table[1:]:
        assert not any(cell[:1] in ("=", "+", "-", "@", "\t", "\r") for cell in cells)
        assert not any("\r" in cell for cell in cells)
    for cells, row in zip(table[1:], rows(chosen), strict=True):
        assert unguarded(cells[COLUMNS.index("note")]) == utf8(str(row["note"]))
        assert unguarded(cells[COLUMNS.index("name")]) == utf8(str(row["name"]))
        year = row["year"]
        assert cells[COLUMNS.index("year")] == ("" if year is None else str(year))
        assert cells[COLUMNS.index("starred")] == ("yes" if row["starred"] else "no")


def test_lists_are_joined_and_a_formula_is_shown_as_text() -> None:
    paper = Paper(
        id="a" * 12,
        name="+1 net",
        title="Net",
        abstract="x",
        venue=None,
        sources=(),
        authors=("Lee, Ann", "Bo Chen"),
        code_urls=("https://github.com/a/b", "https://gitlab.com/c/d"),
    )
    text = to_csv([(paper, Entry(tags=frozenset({"b", "a"}), note="-5 stars"))])
    assert text.splitlines()[1] == (
        'aaaaaaaaaaaa,\'+1 net,Net,"Lee, Ann; Bo Chen",,,,,,,'
        "https://github.com/a/b https://gitlab.com/c/d,a; b,unread,no,'-5 stars"
    )
    assert rows([(paper, Entry()), (paper, Entry())]) == rows([(paper, Entry())])
