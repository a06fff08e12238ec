"""`search.warm_cache`: the warm-up's costly tables saved by one process answer in the next
exactly as if made there; a file of other papers, another index or other code, or damaged
anywhere, is never used."""

from __future__ import annotations

import marshal
import random
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_abstract_scan import extra_papers

from papershelf.storage.caches.frame import MARSHAL_VERSION
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.storage.search import warm_cache
from papershelf.storage.search.engine import SearchEngine
from papershelf.storage.search.warm_cache import WarmParts

QUERIES = [
    "'d",
    "'di",
    "'dif",
    "'diffusion model",
    "'k2ie",
    "'alpha",
    "'-",
    "'s",
    "'e",
    "'7",
    "abstract:'divergence",
    "title:'x",
    "^dif",
    "diffusion 'bold",
]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    """The seeds and the extras of test_abstract_scan, opened again from disk."""
    root = tmp_path_factory.mktemp("warm") / "lib"
    Library.open(root).import_papers(extra_papers(), "extra.txt")
    return Library.open(root, seed=False, read_only=True)


@pytest.fixture(scope="module")
def papers(library: Library) -> list[Paper]:
    return list(library.papers())


@pytest.fixture(scope="module")
def warmed(papers: list[Paper]) -> SearchEngine:
    """An engine that made every table itself."""
    engine = SearchEngine(papers)
    engine.warm()
    return engine


@pytest.fixture
def saved(tmp_path: Path, library: Library, warmed: SearchEngine) -> tuple[Path, bytes]:
    """The warmed engine's tables saved, and the key they were saved under."""
    key = warm_cache.cache_key(library.papers_key, warmed.fingerprint)
    assert key is not None
    parts = warmed.warm_parts()
    assert parts is not None
    path = tmp_path / warm_cache.WARM_CACHE
    assert warm_cache.save(path, key, parts)
    return path, key


def loaded_engine(papers: list[Paper], path: Path, key: bytes) -> SearchEngine:
    """A new engine over `papers` that takes its warm tables from `path`."""
    engine = SearchEngine(papers)
    parts = warm_cache.load(path, key, len(papers))
    assert parts is not None
    assert engine.adopt_warm(parts)
    return engine


def test_a_loaded_cache_holds_what_the_warm_up_made(
    papers: list[Paper], warmed: SearchEngine, saved: tuple[Path, bytes]
) -> None:
    engine = loaded_engine(papers, *saved)
    made, found = warmed.warm_parts(), engine.warm_parts()
    assert made is not None and found is not None
    assert found.size == made.size == len(papers)
    assert dict(found.letters) == dict(made.letters)
    for name in ("marked", "latex", "other_rows", "bounds"):
        assert getattr(found.scan, name) == getattr(made.scan, name)
    assert bytes(found.scan.text) == bytes(made.scan.text)
    assert found.scan.marked  # the extras have marked-up abstracts


@pytest.mark.parametrize("query", QUERIES)
def test_an_engine_with_loaded_tables_searches_alike(
    papers: list[Paper], warmed: SearchEngine, saved: tuple[Path, bytes], query: str
) -> None:
    engine = loaded_engine(papers, *saved)
    engine.warm_tables()  # the rest; the loaded tables are kept, not made again
    assert [h.paper_id for h in engine.search(query, {})] == [
        h.paper_id for h in warmed.search(query, {})
    ]


def test_the_prefix_tables_are_taken_not_sorted_again(
    papers: list[Paper], warmed: SearchEngine, saved: tuple[Path, bytes]
) -> None:
    engine = loaded_engine(papers, *saved)
    for field in ("name", "title", "authors"):
        made = warmed._lower(field).sorted_forms
        assert made is not None and len(made) >= len(papers)
        assert engine._lower(field).sorted_forms == made  # before any `starting`
        assert engine.prefix_ids(field, "a") == warmed.prefix_ids(field, "a")


def test_a_prefix_table_that_does_not_fit_its_column_is_not_taken(
    papers: list[Paper], warmed: SearchEngine
) -> None:
    from array import array

    column = SearchEngine(papers)._lower("title")
    forms = len(warmed._lower("title").sorted_forms or ())
    assert not column.take_sorted_forms(array("I", range(forms - 1)))
    assert not column.take_sorted_forms(array("I", range(1, forms + 1)))  # one past them
    assert column.sorted_forms is None
    assert column.starting("a") == warmed._lower("title").starting("a")


def test_the_warm_up_skips_what_was_loaded(
    papers: list[Paper], saved: tuple[Path, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = loaded_engine(papers, *saved)
    scan, letters = engine._scan, engine._letters
    engine.warm_tables()
    assert engine._scan is scan and engine._letters is letters


def test_the_key_is_the_papers_file_the_index_and_the_code(
    library: Library, warmed: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    papers_key, fingerprint = library.papers_key, warmed.fingerprint
    assert papers_key is not None
    key = warm_cache.cache_key(papers_key, fingerprint)
    assert key is not None and key == warm_cache.cache_key(papers_key, fingerprint)
    mtime, size, inode = papers_key
    others = [
        warm_cache.cache_key((mtime + 1, size, inode), fingerprint),
        warm_cache.cache_key((mtime, size + 1, inode), fingerprint),
        warm_cache.cache_key((mtime, size, inode + 1), fingerprint),
        warm_cache.cache_key(papers_key, "0" * 40),
    ]
    monkeypatch.setattr(warm_cache, "code_digest", lambda: b"\x01" * 20)
    others.append(warm_cache.cache_key(papers_key, fingerprint))
    assert key not in others and len(set(others)) == len(others)
    # No key (no cache) for papers held in memory only, or code that cannot be read.
    assert warm_cache.cache_key(None, fingerprint) is None
    assert warm_cache.cache_key(papers_key, "not hex") is None
    monkeypatch.setattr(warm_cache, "code_digest", lambda: None)
    assert warm_cache.cache_key(papers_key, fingerprint) is None


def test_the_code_digest_covers_the_converter_and_the_scan() -> None:
    digest = warm_cache.code_digest()
    assert digest is not None and len(digest) == 20
    assert digest == warm_cache.code_digest()
    package = Path(warm_cache.__file__).resolve().parent.parent.parent
    for source in ("storage/text/latex.py", "storage/text/fold.py", "storage/search/engine.py"):
        assert (package / source).is_file()


def test_a_file_of_another_key_or_size_is_not_used(
    papers: list[Paper], saved: tuple[Path, bytes]
) -> None:
    path, key = saved
    assert warm_cache.load(path, key, len(papers)) is not None
    assert warm_cache.load(path, key[:-1] + bytes([key[-1] ^ 1]), len(papers)) is None
    assert warm_cache.load(path, key, len(papers) + 1) is None
    assert warm_cache.load(path.with_name("missing"), key, len(papers)) is None


def test_every_changed_byte_makes_the_file_unused(
    papers: list[Paper], saved: tuple[Path, bytes]
) -> None:
    """Header (tag, format, key, lengths, checksums: two bit flips each) and the marshal section
    byte by byte, the compressed text's ends and every 61st byte between: any byte changed, the
    file is unused."""
    path, key = saved
    data = path.read_bytes()
    opened = warm_cache._FILE.open(path, key)
    assert opened is not None
    with opened:
        text = opened.sections[1]
    places = [
        *range(text.at + 64),
        *range(text.at + 64, len(data) - 64, 61),
        *range(len(data) - 64, len(data)),
    ]
    assert text.length > 1000 and set(range(text.at)) <= set(places)
    for at in places:
        for change in (0x01, 0x80) if at < opened.sections[0].at else (0x5A,):
            path.write_bytes(data[:at] + bytes([data[at] ^ change]) + data[at + 1 :])
            assert warm_cache.load(path, key, len(papers)) is None, (at, change)
    for cut in (data[:-1], data[: len(data) // 2], data[:20], b"", data + b"\x00"):
        path.write_bytes(cut)
        assert warm_cache.load(path, key, len(papers)) is None
    path.write_bytes(data)
    assert warm_cache.load(path, key, len(papers)) is not None


def _meta(path: Path, key: bytes, size: int) -> tuple[list[Any], bytes]:
    """The saved file's section 0 values (a list, to change) and its compressed text."""
    sections = warm_cache._FILE.load(path, key)
    assert sections is not None
    return list(marshal.loads(sections[0])), bytes(sections[1])


def _ints(values: list[int], code: str = "I") -> bytes:
    from array import array

    return array(code, values).tobytes()


Change = Callable[[list[Any], bytes, int], tuple[list[Any], bytes]]


def _set(number: int, value: Callable[[list[Any], int], Any]) -> Change:
    def change(meta: list[Any], text: bytes, size: int) -> tuple[list[Any], bytes]:
        meta[number] = value(meta, size)
        return meta, text

    return change


def _unmarked(meta: list[Any], size: int) -> int:
    """A paper whose abstract is not marked up."""
    from array import array

    marked = array("I")
    marked.frombytes(meta[1])
    return min(set(range(size)) - set(marked))


def _first_two_swapped(raw: bytes, code: str = "I") -> bytes:
    from array import array

    values = array(code)
    values.frombytes(raw)
    values[0], values[1] = values[1], values[0]
    return values.tobytes()


SHAPES: dict[str, Change] = {
    "another size": _set(0, lambda meta, size: size + 1),
    "size not an int": _set(0, lambda meta, size: float(size)),
    "a marked position past the papers": _set(1, lambda meta, size: meta[1][:-4] + _ints([size])),
    "marked positions out of order": _set(1, lambda meta, size: _first_two_swapped(meta[1])),
    "marked cut mid-number": _set(1, lambda meta, size: meta[1][:-1]),
    "a latex position not marked": _set(2, lambda meta, size: _ints([_unmarked(meta, size)])),
    "other rows past the marked": _set(
        3, lambda meta, size: meta[3][:-4] + _ints([len(meta[1]) // 4])
    ),
    "bounds out of order": _set(4, lambda meta, size: _first_two_swapped(meta[4], "Q")),
    "bounds one short": _set(4, lambda meta, size: meta[4][:-8]),
    "a text length the bounds do not end at": _set(5, lambda meta, size: meta[5] + 1),
    "a letter twice": _set(6, lambda meta, size: [meta[6][0], *meta[6][:-1]]),
    "a letter key without a field": _set(6, lambda meta, size: ["d", *meta[6][1:]]),
    "a letter's bitset past the papers": _set(
        7, lambda meta, size: b"\xff" * len(meta[7]) if size % 8 else meta[7][:-1]
    ),
    "a value of another type": _set(6, lambda meta, size: tuple(meta[6])),
    "one value missing": lambda meta, text, size: (meta[:-1], text),
    "a prefix table with a form twice": _set(
        8, lambda meta, size: {**meta[8], "title": meta[8]["title"][4:] + meta[8]["title"][-4:]}
    ),
    "a prefix table past its forms": _set(
        8, lambda meta, size: {**meta[8], "name": meta[8]["name"] + _ints([10**6])}
    ),
    "a prefix table of another type": _set(8, lambda meta, size: list(meta[8].items())),
    "text that is not zlib's": lambda meta, text, size: (meta, b"not zlib" + text),
    "text longer than said": lambda meta, text, size: (
        meta,
        zlib.compress(zlib.decompress(text) + b"more"),
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_file_whose_checksums_hold_but_not_its_shape_is_not_used(
    papers: list[Paper], saved: tuple[Path, bytes], shape: str
) -> None:
    """Damage a checksum missed by chance (or a writer's bug): the checks of `load` catch it."""
    path, key = saved
    meta, text = _meta(path, key, len(papers))
    meta, text = SHAPES[shape](meta, text, len(papers))
    sections = [marshal.dumps(tuple(meta), MARSHAL_VERSION), text]
    assert warm_cache._FILE.save(path, key, sections)
    assert warm_cache.load(path, key, len(papers)) is None


def test_parts_that_do_not_fit_the_engine_are_refused(
    papers: list[Paper], warmed: SearchEngine
) -> None:
    parts = warmed.warm_parts()
    assert parts is not None
    engine = SearchEngine(papers)
    letters = dict(parts.letters)
    letters.pop(next(iter(letters)))
    for wrong in (
        WarmParts(parts.size + 1, parts.scan, parts.letters, parts.orders),
        WarmParts(parts.size, parts.scan, letters, parts.orders),
        WarmParts(
            parts.size,
            parts.scan,
            {**parts.letters, ("name", "d"): 1 << parts.size},
            parts.orders,
        ),
    ):
        assert not engine.adopt_warm(wrong)
    assert engine._scan is None and engine._letters == {}
    assert engine.adopt_warm(parts)


def test_no_parts_before_the_warm_up_or_for_a_listings_papers(papers: list[Paper]) -> None:
    engine = SearchEngine(papers)
    assert engine.warm_parts() is None
    engine.warm_tables(abstracts=False)
    assert engine.warm_parts() is None  # no scan, no letters
    folded = SearchEngine(papers)
    folded._lower("abstract")  # the listing's way: every abstract folded, no scan
    folded.warm()
    assert folded.warm_parts() is None


def test_a_save_that_cannot_write_leaves_nothing(
    tmp_path: Path, library: Library, warmed: SearchEngine
) -> None:
    key = warm_cache.cache_key(library.papers_key, warmed.fingerprint)
    parts = warmed.warm_parts()
    assert key is not None and parts is not None
    missing = tmp_path / "no such directory" / warm_cache.WARM_CACHE
    assert not warm_cache.save(missing, key, parts)
    assert not missing.parent.exists()


def test_the_text_is_inflated_a_piece_at_a_time() -> None:
    """The load gives way between pieces of 1 MB of compressed text (`pause`), and the text
    must inflate to exactly the length section 0 gives."""
    text = random.Random(7).randbytes(3 << 20)  # incompressible: 3 MB packed
    packed = zlib.compress(text, 6)
    calls: list[int] = []
    assert warm_cache._inflated(packed, len(text), lambda: calls.append(1)) == text
    assert len(calls) >= 3
    for length in (len(text) - 1, len(text) + 1, 0):
        assert warm_cache._inflated(packed, length, None) is None
    assert warm_cache._inflated(packed[:-1], len(text), None) is None
    assert warm_cache._inflated(packed + b"x", len(text), None) is None
