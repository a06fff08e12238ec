"""`caches.places`: the abstracts read back from papers.json answer exactly like the JSON, and
`files.jsonstore.dump_chunks` writes exactly `dumps`' bytes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.caches import places as places_module
from papershelf.storage.caches.places import PlaceFinder, Places, locate, read_abstracts
from papershelf.storage.files.jsonstore import dump_chunks, dumps, stat_key

# Any code point (surrogates cannot be stored as UTF-8, so papershelf never holds them),
# with quotes, backslashes, controls and the key's own spelling among them.
PIECE = st.text(st.characters(blacklist_categories=["Cs"]) | st.sampled_from(['"', "\\"]))
TEXT = st.lists(PIECE | st.just('"abstract":'), max_size=4).map("".join)
RECORD = st.fixed_dictionaries(
    {"id": st.text("0123456789abcdef", min_size=12, max_size=12), "abstract": TEXT},
    optional={"title": TEXT, "extra": st.lists(st.tuples(TEXT, TEXT).map(list), max_size=2)},
)


def tinydb(records: list[dict[str, object]]) -> dict[str, object]:
    return {
        "meta": {"1": {"schema": 2}},
        "papers": {str(n): record for n, record in enumerate(records, 1)},
        "removed": {"1": {"abstract": "a removed paper"}},
    }


@given(st.lists(RECORD, max_size=6))
def test_chunks_are_the_bytes_of_dumps_and_the_places_hold_the_abstracts(
    tmp_path_factory: pytest.TempPathFactory, records: list[dict[str, object]]
) -> None:
    data = tinydb(records)
    finder = PlaceFinder("papers", [record["abstract"] for record in records])
    written = b"".join(dump_chunks(data, finder.document))
    assert written == dumps(data)
    places = finder.finished()
    assert places is not None and len(places) == len(records)
    path = tmp_path_factory.mktemp("places") / "papers.json"
    path.write_bytes(written)
    key = stat_key(os.stat(path))
    assert read_abstracts(path, key, places) == [record["abstract"] for record in records]
    # Found again in the bytes read, the same places.
    assert locate(written, [record["abstract"] for record in records]) == places


# Any JSON value but floats (no document papershelf writes holds one): integers past 64 bits
# and nesting orjson refuses go through the standard library's encoder.
VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=12,
)


@given(st.lists(st.dictionaries(TEXT, VALUE, max_size=4), max_size=4))
def test_documents_of_any_value_are_the_bytes_of_dumps(records: list[dict[str, object]]) -> None:
    data = tinydb(records)
    assert b"".join(dump_chunks(data)) == dumps(data)


def test_what_orjson_refuses_is_written_as_the_standard_library_writes_it() -> None:
    deep: object = "bottom"
    for _ in range(300):
        deep = [deep]
    data = tinydb([{"big": 2**70, "deep": deep}])
    assert b"".join(dump_chunks(data)) == dumps(data)
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate cannot be UTF-8, as before
        b"".join(dump_chunks(tinydb([{"abstract": "\ud800"}])))


WRITERS = {
    "papershelf": lambda data: dumps(data),
    "json.dumps": lambda data: json.dumps(data).encode(),  # TinyDB's own: ASCII, ", " and ": "
    "indented": lambda data: json.dumps(data, indent=2, ensure_ascii=False).encode(),
}


@pytest.mark.parametrize("writer", WRITERS)
@given(records=st.lists(RECORD, max_size=6))
def test_a_papers_json_any_writer_made_is_located_exactly(
    tmp_path_factory: pytest.TempPathFactory, writer: str, records: list[dict[str, object]]
) -> None:
    raw = WRITERS[writer](tinydb(records))
    abstracts = [record["abstract"] for record in json.loads(raw)["papers"].values()]
    places = locate(raw, abstracts)
    assert places is not None
    path = tmp_path_factory.mktemp("places") / "papers.json"
    path.write_bytes(raw)
    assert read_abstracts(path, stat_key(os.stat(path)), places) == abstracts


def test_an_abstract_not_in_the_file_gives_no_places() -> None:
    raw = dumps(tinydb([{"id": "a" * 12, "abstract": "We propose A."}]))
    assert locate(raw, ["We propose B."]) is None
    assert locate(raw, [None]) is None
    finder = PlaceFinder("papers", ["We propose A.", "one more"])
    b"".join(dump_chunks(tinydb([{"id": "a" * 12, "abstract": "We propose A."}]), finder.document))
    assert finder.finished() is None  # an abstract expected was never written


def test_reads_span_windows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """papers.json is read in windows, never whole: a window smaller than the file still
    reads every abstract, including one longer than the window."""
    monkeypatch.setattr(places_module, "READ_CHUNK", 64)
    records = [
        {"id": f"{n:012x}", "abstract": f"We propose method {n}. " * (n + 1)} for n in range(9)
    ]
    finder = PlaceFinder("papers", [record["abstract"] for record in records])
    path = tmp_path / "papers.json"
    path.write_bytes(b"".join(dump_chunks(tinydb(records), finder.document)))
    places = finder.finished()
    assert places is not None
    assert read_abstracts(path, stat_key(os.stat(path)), places) == [
        record["abstract"] for record in records
    ]


def test_places_round_trip_and_refuse_a_wrong_size() -> None:
    places = locate(b'{"papers":{"1":{"abstract":"x"}}}', ["x"])
    assert places is not None
    assert Places.from_bytes(places.to_bytes(), 1) == places
    assert Places.from_bytes(places.to_bytes(), 2) is None
    assert Places.from_bytes(places.to_bytes()[:-1], 1) is None


def test_a_fifo_or_a_missing_file_is_not_read(tmp_path: Path) -> None:
    raw = b'{"papers":{"1":{"abstract":"x"}}}'
    places = locate(raw, ["x"])
    assert places is not None
    fifo = tmp_path / "papers.json"
    os.mkfifo(fifo)
    assert read_abstracts(fifo, stat_key(os.stat(fifo)), places) is None
    assert read_abstracts(tmp_path / "none.json", (0, 0, 0), places) is None
