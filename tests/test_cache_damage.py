"""The cache-damage test (issue #10): a cache changed in place is never trusted.

For each of the four caches of a library (papers.cache, listing.cache, search-index.bin,
related-index.bin), bytes are changed in place (same size, mtime kept, so only the contents
can tell) at many positions: every field of the header, the start, middle and end of every
section, blocks of the search index's postings (which `list` reads in place), the listing's
abstracts, and single characters of the papers' text. Each change is a changed byte, a
flipped bit, or a changed character (still valid text, the case a reader without a checksum
takes for the paper's own). After each change, every command that reads that cache must
answer exactly as the same library with no caches at all (`Library.open(...).papers()` field
by field, `show --json`, `list` and `list --json` for a word, a prefix, a typo, an exact
'word, a tag and has:code, `related --json`, and the search engine the app's index worker
builds; `list` reads papers.cache, search-index.bin and listing.cache together, so its
queries check all three), must not crash, and must leave a whole, valid cache behind for the
next run. papers.json and state.json are never written.

The changes are chosen from the file's layout (no randomness), so every run checks the same
positions; `test_any_changed_byte_of_papers_cache_or_the_listing` adds hypothesis-chosen ones.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cache_damage import (
    CACHES,
    KEY_SIZES,
    LISTING,
    PAPERS_CACHE,
    RELATED,
    SEARCH,
    SECTION_NAMES,
    SECTIONS,
    Damage,
    at_fixed,
    change_in_place,
    flip_bit,
    in_block,
    in_neighbour_weight,
    in_posting,
    in_section,
    in_text,
    other_letter,
    write_in_place,
)
from cli_helpers import build_search_library
from cli_helpers import run_captured as run
from hypothesis import given, settings
from hypothesis import strategies as st

import papershelf.storage.library.papers_cache as papercache
import papershelf.storage.related.cache as related_cache
import papershelf.storage.search.listing as listing
from papershelf.storage.files.layout import stat_key
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.storage.search.engine import SearchEngine
from papershelf.storage.search.index import INDEXED_FIELDS, SearchIndex, tokenize
from papershelf.storage.search.listing import ListingUnusable

REPO = Path(__file__).resolve().parent.parent

QUERIES = (
    "diffusion",  # a word
    "transf",  # a prefix of words
    "difusion",  # a typo
    "^rel",  # a name or title prefix
    "'diffusion",  # an exact 'word (reads the abstracts)
    "#to-read",  # a tag
    "has:code",  # a filter
)


def sweep_query(root: Path) -> str:
    """A query that reads the whole listing: every token's postings in every field (one
    prefix alternative per first letter of the vocabulary, and again after `author:`, since
    plain words do not look in the authors) and the abstracts ('e)."""
    papers = Library.open(root, seed=False).papers()
    firsts = sorted(
        {
            token[0]
            for paper in papers
            for text in (paper.name, paper.title or "", paper.abstract)
            for token in tokenize(text)
        }
    )
    return "'e " + "|".join(firsts) + "|author:" + "|".join(firsts)


# -- the answers ------------------------------------------------------------------------------


def papers_answer(root: Path) -> list[dict[str, object]]:
    return [paper.to_dict() for paper in Library.open(root, seed=False).papers()]


def engine_answer(root: Path) -> list[list[tuple[str, float, str]]]:
    """What the app's index worker builds (`SearchEngine.load` of search-index.bin, which
    builds and saves the index when the file cannot be used), queried."""
    library = Library.open(root, seed=False)
    engine = SearchEngine.load(root / SEARCH, library.papers())
    entries = library.entries()
    return [
        [(hit.paper_id, hit.score, hit.field) for hit in engine.results(query, entries)]
        for query in QUERIES
    ]


Answer = Callable[[Path], object]


@dataclass(frozen=True)
class Check:
    """One command that reads a cache, as the user runs it."""

    name: str
    answer: Answer


def cli(*argv: str) -> Answer:
    return lambda root: run("--db", root, *argv)


def checks_for(cache: str, ids: list[str], sweep: str) -> list[Check]:
    """The commands that read `cache` (the others never open it)."""
    listings = [Check(f"list {q}", cli("list", *q.split())) for q in (*QUERIES, sweep)]
    if cache == PAPERS_CACHE:
        # The fast `list` reads only some sections: the last check opens the Library, which
        # rewrites the damaged cache.
        return [
            Check("papers", papers_answer),
            Check("list diffusion", cli("list", "diffusion")),
            Check("list sweep", cli("list", *sweep.split())),
            Check("show", cli("show", ids[0], "--json")),
            Check("list --json", cli("list", "--json", "diffusion")),
            Check("related", cli("related", ids[1], "--json")),
            Check("engine", engine_answer),
        ]
    if cache == LISTING:
        return listings
    if cache == SEARCH:
        return [
            *listings,
            Check("engine", engine_answer),
            Check("list --json", cli("list", "--json", "'diffusion", "#to-read", "difusion")),
        ]
    return [Check("related", cli("related", ids[1], "--json"))]


AGAIN = {PAPERS_CACHE: True, LISTING: False, SEARCH: False, RELATED: True}
"""Whether each check of a cache gets the damage anew. The listing and the search index's
postings are read lazily, so their queries run one after another on the damaged file as a
user's would: each that reads a damaged part rewrites it, one that does not answers from the
parts it read; the sweep reads every part, and the search index's checks end with the
engine, which reads it whole."""


# -- whole, valid caches ----------------------------------------------------------------------


def listing_is_whole(root: Path) -> bool:
    """Whether listing.cache is current and every part of it, and of what it reads in
    papers.cache and search-index.bin, reads without damage."""
    shelf = listing.load(root)
    if shelf is None:
        return False
    with shelf:
        try:
            assert shelf.index is not None
            for field in INDEXED_FIELDS:
                list(shelf.index.postings[field].many(range(len(shelf.index.vocab))))
            return bool(shelf.papers) and shelf.papers[0].abstract is not None
        except ListingUnusable:
            return False


def cache_is_valid(root: Path, cache: str) -> bool:
    """Whether `cache` is a whole cache of the library as it is (the next run uses it)."""
    key = stat_key(os.stat(root / "papers.json"))
    papers = Library.open(root, seed=False).papers()
    if cache == PAPERS_CACHE:
        cached = papercache.load(root / cache, key, root / "papers.json")
        return cached is not None and cached[0] == list(papers)
    if cache == LISTING:
        return listing_is_whole(root)
    if cache == SEARCH:
        return SearchIndex.load(root / cache, papers) is not None
    return related_cache.load(root, key, papers) is not None


# -- the library, its caches and the answers without them ----------------------------------------


class Shelf:
    """The damaged library's root and what the test knows about it (a plain class: its
    repr stays one line in hypothesis's reports)."""

    def __init__(
        self,
        root: Path,
        pristine: dict[str, bytes],
        expected: dict[tuple[str, str], object],
        checks: dict[str, list[Check]],
        untouched: dict[str, tuple[int, int, int]],
    ) -> None:
        self.root = root
        self.pristine = pristine
        """Each cache as written for the library, whole."""
        self.expected = expected
        """(cache, check name + index) -> the answer of the library without caches."""
        self.checks = checks
        self.untouched = untouched
        """papers.json's and state.json's StatKey: no check may write them."""

    def __repr__(self) -> str:
        return f"Shelf({str(self.root)!r})"

    def restore(self) -> None:
        for name, data in self.pristine.items():
            (self.root / name).write_bytes(data)


@pytest.fixture(scope="module")
def shelf(tmp_path_factory: pytest.TempPathFactory) -> Shelf:
    base = tmp_path_factory.mktemp("cache-damage")
    root = base / "lib"
    build_search_library(root)
    papers = Library.open(root, seed=False).papers()
    ids = [papers[0].id, papers[len(papers) // 2].id]
    sweep = sweep_query(root)
    checks = {cache: checks_for(cache, ids, sweep) for cache in CACHES}

    # The answers of the same library without any cache: every cache removed before each.
    bare = base / "bare"
    shutil.copytree(root, bare)
    expected: dict[tuple[str, str], object] = {}
    for cache, cache_checks in checks.items():
        for number, check in enumerate(cache_checks):
            for name in CACHES:
                (bare / name).unlink(missing_ok=True)
            expected[cache, f"{check.name} #{number}"] = check.answer(bare)

    # Every cache written and valid, for this papers.json.
    assert run("--db", root, "list", "warm")[0] == 0
    assert run("--db", root, "related", ids[0])[0] == 0
    for cache in CACHES:
        assert cache_is_valid(root, cache), cache
    pristine = {name: (root / name).read_bytes() for name in CACHES}
    untouched = {name: stat_key(os.stat(root / name)) for name in ("papers.json", "state.json")}

    # With the caches whole, every answer is already the one without them.
    for cache, cache_checks in checks.items():
        for number, check in enumerate(cache_checks):
            assert check.answer(root) == expected[cache, f"{check.name} #{number}"]
    for name in (PAPERS_CACHE, SEARCH, RELATED):  # (`list --json` always writes the listing)
        assert (root / name).read_bytes() == pristine[name], f"{name} rewritten though whole"
    for cache in CACHES:
        assert cache_is_valid(root, cache), cache
    return Shelf(root, pristine, expected, checks, untouched)


# -- the damage ----------------------------------------------------------------------------------


def damages(cache: str) -> Iterator[Damage]:
    """The positions to damage in `cache`, and how."""
    key_size = KEY_SIZES[cache]
    fields = [("tag", 0), ("tag", 7), ("format", 8), ("key", 12), ("key", 12 + key_size - 1)]
    for number in range(SECTIONS[cache]):
        at = 12 + key_size + 12 * number
        fields += [("length", at), ("crc", at + 8)]
    fields += [("length high", 12 + key_size + 5), ("crc high", 12 + key_size + 11)]
    for n, (where, at) in enumerate(fields):
        yield Damage(cache, f"header {where}+{at}", "bit" if n % 2 else "byte", at_fixed(at))
    for number, name in enumerate(SECTION_NAMES[cache]):
        for where, fraction in (("start", 0.0), ("middle", 0.5), ("end", 1.0)):
            yield Damage(cache, f"{name} {where}", "bit", in_section(cache, number, fraction))
        yield Damage(cache, f"{name} third", "byte", in_section(cache, number, 1 / 3))
    if cache == SEARCH:
        # Inside what a search reads: structure alone cannot tell, only the checksum.
        for what in ("data", "offsets"):
            locate = in_posting(cache, "diffusion", what)
            yield Damage(cache, f"posting of diffusion, {what}", "bit", locate)
        yield Damage(cache, "vocabulary text", "char", in_text(cache, 0, b"diffusion"))
        for fraction in (0.2, 0.4, 0.6, 0.8):
            yield Damage(cache, f"postings block {fraction:.0%}", "bit", in_block(cache, fraction))
    if cache == RELATED:
        yield Damage(cache, "a neighbour's weight", "byte", in_neighbour_weight)
    if cache == LISTING:
        yield Damage(cache, "abstracts", "bit", in_section(cache, 1, 0.5))
        yield Damage(cache, "the index's fingerprint", "char", in_section(cache, 0, 1.0))
    if cache == PAPERS_CACHE:
        yield Damage(cache, "abstract places", "bit", in_section(cache, 2, 0.5))
        yield Damage(cache, "text Diffusion", "char", in_text(cache, 0, b"Diffusion"))


DAMAGES = [
    pytest.param(damage, id=f"{damage.cache}:{damage.where}:{damage.kind}")
    for cache in CACHES
    for damage in damages(cache)
]


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_cache_gives_the_answers_of_no_cache(shelf: Shelf, damage: Damage) -> None:
    root = shelf.root
    shelf.restore()
    for number, check in enumerate(shelf.checks[damage.cache]):
        if number == 0 or AGAIN[damage.cache]:
            shelf.restore()
            damage.apply(root, shelf.pristine[damage.cache])
        label = f"{check.name} #{number}"
        assert check.answer(root) == shelf.expected[damage.cache, label], label
    # The last command read the damaged cache and wrote it anew: the next run can use it.
    assert cache_is_valid(root, damage.cache)
    for name, key in shelf.untouched.items():
        assert stat_key(os.stat(root / name)) == key, f"{name} was written"
    shelf.restore()


def test_the_damage_covers_every_cache_and_section() -> None:
    wheres = {(param.values[0].cache, param.values[0].where) for param in DAMAGES}
    for cache in CACHES:
        assert sum(1 for c, _ in wheres if c == cache) >= 10, cache
    for cache, names in SECTION_NAMES.items():
        for name in names:
            assert (cache, f"{name} middle") in wheres, (cache, name)
    assert any(c == SEARCH and w.startswith("postings block") for c, w in wheres)
    assert any(c == PAPERS_CACHE and w.startswith("text") for c, w in wheres)
    assert any(c == LISTING and w.endswith("fingerprint") for c, w in wheres)


@settings(max_examples=20)
@given(data=st.data())
def test_any_changed_byte_of_papers_cache_or_the_listing(shelf: Shelf, data: st.DataObject):
    """Positions and values chosen by hypothesis, for the three caches `list` reads."""
    cache = data.draw(st.sampled_from([PAPERS_CACHE, LISTING, SEARCH]))
    at = data.draw(st.integers(0, len(shelf.pristine[cache]) - 1))
    xor = data.draw(st.integers(1, 255))
    shelf.restore()
    change_in_place(shelf.root / cache, at, lambda old: old ^ xor)
    # papers.cache: the papers; listing.cache: the sweep; search-index.bin: its sweep.
    number = {PAPERS_CACHE: 0, LISTING: -1, SEARCH: len(QUERIES)}[cache] % len(shelf.checks[cache])
    check = shelf.checks[cache][number]
    label = f"{check.name} #{number}"
    assert check.answer(shelf.root) == shelf.expected[cache, label]
    assert cache_is_valid(shelf.root, cache)
    shelf.restore()


# -- an import after damage ---------------------------------------------------------------------


def records(root: Path) -> dict[str, object]:
    """papers.json's records by paper id (the file keys them by TinyDB document id)."""
    table = json.loads((root / "papers.json").read_text(encoding="utf-8"))["papers"]
    return {record["id"]: record for record in table.values()}


NEW_PAPERS = [
    Paper(
        id=f"{n:012x}",
        name=f"Newcomer{n}",
        title=None,
        abstract=f"A newcomer paper number {n} about diffusion of zebrafish.",
        venue="Later 2026",
        sources=("later.jsonl",),
        imported_at="2026-01-01T00:00:00Z",
    )
    for n in range(3)
]


@pytest.mark.parametrize("what", ["an id, colliding", "a name", "an abstract's place", "a bit"])
def test_an_import_after_damage_writes_no_damage_into_papers_json(
    tmp_path: Path, what: str
) -> None:
    """Issue #10: with papers.cache changed in place, the next import wrote the changed id
    into papers.json for good (tags orphaned; a colliding id made a paper vanish). The result
    must be what a twin library that never had caches writes."""
    root, twin = tmp_path / "lib", tmp_path / "twin"
    build_search_library(root)
    twin.mkdir()
    for name in ("papers.json", "state.json"):
        shutil.copy(root / name, twin / name)
    papers = Library.open(root, seed=False).papers()
    cache = root / PAPERS_CACHE
    data = cache.read_bytes()
    if what == "an id, colliding":
        write_in_place(cache, data.index(papers[1].id.encode()), papers[2].id.encode())
    elif what == "a name":
        change_in_place(cache, data.index(papers[4].name.encode()) + 1, other_letter)
    elif what == "an abstract's place":
        # The abstracts are read from papers.json; the cache's last sections say where each
        # lies and how long it is.
        change_in_place(cache, len(data) - 6, flip_bit(0))
    else:
        change_in_place(cache, len(data) // 2, flip_bit(3))

    Library.open(root, seed=False).import_papers(NEW_PAPERS, "later.jsonl")
    Library.open(twin, seed=False).import_papers(NEW_PAPERS, "later.jsonl")
    assert records(root) == records(twin)
    assert len(records(root)) == len(papers) + len(NEW_PAPERS)
    # Tags stay with their papers, and the CLI agrees with the twin.
    assert run("--db", root, "list", "--json", "#to-read") == run(
        "--db", twin, "list", "--json", "#to-read"
    )
    assert (root / "state.json").read_bytes() == (twin / "state.json").read_bytes()


def test_an_import_through_the_cli_after_damage_matches_the_twin(tmp_path: Path) -> None:
    root, twin = tmp_path / "lib", tmp_path / "twin"
    build_search_library(root)
    twin.mkdir()
    for name in ("papers.json", "state.json"):
        shutil.copy(root / name, twin / name)
    papers = Library.open(root, seed=False).papers()
    cache = root / PAPERS_CACHE
    at = cache.read_bytes().index(papers[0].id.encode())
    change_in_place(cache, at, other_letter)  # one character of an id
    extra = tmp_path / "extra.txt"
    extra.write_text("Extra Papers\n\nA brand new abstract about zebrafish swarms.\n")
    assert run("import", extra, "--db", root)[0] == 0
    assert run("import", extra, "--db", twin)[0] == 0

    def without_import_times(found: dict[str, object]) -> dict[str, object]:
        # The one new paper is stamped with its import's own time, in each library.
        return {
            pid: {k: v for k, v in record.items() if k != "imported_at"}  # type: ignore[union-attr]
            for pid, record in found.items()
        }

    ours, theirs = records(root), records(twin)
    assert set(ours) == set(theirs) and len(ours) == len(papers) + 1
    new = paper_id_of(extra)
    assert {pid: ours[pid] for pid in ours if pid != new} == {
        pid: theirs[pid] for pid in theirs if pid != new
    }
    # The new paper is stamped with its own import's time in each library.
    assert {**ours[new], "imported_at": ""} == {**theirs[new], "imported_at": ""}  # type: ignore[dict-item]


def paper_id_of(path: Path) -> str:
    from papershelf.storage.ingest.parse import read_file

    (paper,) = read_file(path).papers
    return paper.id


def test_real_processes_answer_as_without_caches(tmp_path: Path) -> None:
    """The issue's own steps in real `papershelf` processes: one character of papers.cache
    and one bit in the middle of the listing and of the search index changed in place; `show`,
    `list` and `list --json` print what a library without caches prints, no traceback."""
    import subprocess
    import sys

    root, bare = tmp_path / "lib", tmp_path / "bare"
    build_search_library(root)
    pid = Library.open(root, seed=False).papers()[0].id
    assert run("--db", root, "list", "warm")[0] == 0
    shutil.copytree(root, bare)
    for name in CACHES:
        (bare / name).unlink(missing_ok=True)
    # Found without the caches' layout, so the same steps run on any papershelf.
    cache = root / PAPERS_CACHE
    change_in_place(cache, cache.read_bytes().index(b"Diffusion") + 2, other_letter)
    for name in (LISTING, SEARCH):
        change_in_place(root / name, (root / name).stat().st_size // 2, flip_bit(4))

    def papershelf(library: Path, *argv: str) -> tuple[int, str, str]:
        done = subprocess.run(
            [sys.executable, "-m", "papershelf.cli.main", "--db", str(library), *argv],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )
        return done.returncode, done.stdout, done.stderr

    for argv in (("list", "diffusion"), ("show", pid, "--json"), ("list", "--json", "diffusion")):
        ours = papershelf(root, *argv)
        assert "Traceback" not in ours[2]
        assert ours == papershelf(bare, *argv), argv
