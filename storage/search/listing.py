"""`listing.cache`: what `papershelf list` searches and prints, readable without the Library.

A full open reads every paper (papers.cache, ~17 MB with the abstracts), imports TinyDB and
filelock, and then the search index is loaded and checked against a hash of every paper. `list`
prints only ids, names, titles and venues, so the listing cache holds just those columns (plus
the code and link URLs the `has:` filters need, and the authors and year `author:` and `year:`
read) and the search index, and is trusted under the same terms as
`papershelf.storage.library.papers_cache`:

- a `storage.caches.frame` header first: a tag, `FORMAT`, the `StatKey` `(st_mtime_ns, st_size,
  st_ino)` of the papers.json it was made from, and the length and CRC-32 of each of its three
  sections; a header that does not match papers.json as it is now, or the file's length, makes
  the whole file unused (one small read);
- the main section, `(FIELDS, columns, index parts, postings layout, block checksums)` in
  marshal, used only when its checksum matches, the names are `FIELDS`, every value has its
  column's type and the index parts are whole (`SearchIndex.from_parts`);
- the postings: each field's `FieldPostings` buffers (offsets, then data), left in the file and
  read with `os.pread` as a search asks for them (`search.filepostings`): a query touches a few
  hundred of 70,000 postings, and reading all 3 MB into a fresh process costs more than the
  search (page faults). So that `list` still never reads a damaged byte as data, the section
  is read in blocks of `BLOCK` bytes, each checked against its CRC-32 in the main section's
  table (and kept, so a block is read and checked once); offsets and ids are still checked to
  lie inside the data and the papers, so that damage a checksum missed by chance cannot crash
  a search;
- the abstracts as an exact `'word` compares them (as shown, `storage.text.titles.shown_text`, and
  folded, `query_parse.fold_text`), read (whole, checked against their CRC-32) only if a search
  asks for one: kept so, `list` never converts 3,000 abstracts with math.

Everything is read from the one open file, so a listing is always one version, whatever
replaces the file meanwhile. `load` never raises for a stale, damaged or foreign file: it
returns None and the caller takes the full path (`Library.open`), whose results are the same;
a part found damaged later raises `ListingUnusable` before anything is printed, and the caller
starts again on the full path. `save` writes atomically without fsync (a lost cache is rebuilt
by the next full `list`) and never raises. The Library never writes this file; the CLI writes
it after a full open (`open_engine`), keyed by the papers.json the Library read, so it can never
describe papers the Library did not hold.
"""

from __future__ import annotations

import marshal
import os
from array import array
from collections.abc import Sequence
from itertools import repeat
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papershelf.storage.caches.columns import (
    is_optional_int,
    is_optional_str,
    is_str,
    is_str_tuples,
    valid_columns,
)
from papershelf.storage.caches.frame import (
    MARSHAL_VERSION,
    CacheFile,
    Section,
    checksum,
    stat_key_bytes,
)
from papershelf.storage.files.layout import (
    LISTING_FILE,
    PAPERS_FILE,
    SEARCH_CACHE,
    StatKey,
    stat_key,
)
from papershelf.storage.search.filepostings import (
    BLOCK,
    CheckedPostings,
    FilePostings,
    ListingFile,
    ListingUnusable,
)
from papershelf.storage.search.index import INDEXED_FIELDS, PARTS, SearchIndex
from papershelf.storage.search.parse import fold_text
from papershelf.storage.search.postings import (
    FieldPostings,
    Postings,
)
from papershelf.storage.text.titles import shown_text

if TYPE_CHECKING:
    from types import TracebackType

    from papershelf.storage.model import Paper
    from papershelf.storage.search.engine import SearchEngine

__all__ = [
    "BLOCK",
    "FIELDS",
    "FORMAT",
    "LISTING_FILE",
    "SEARCH_CACHE",
    "FilePostings",
    "ListedPaper",
    "Listing",
    "ListingUnusable",
    "load",
    "open_engine",
    "save",
]

FORMAT = 5
"""Bump when the layout changes (the index's own FORMAT is checked by `SearchIndex.from_parts`).
2: the `storage.caches.frame` frame, with checksums of the sections and of the postings' blocks.
3: `links_with_page` (the paper's own page counts for `has:links`) instead of `links`, and the
   abstracts as shown and folded (a format-2 file holds them as written).
4: the authors and the year (`author:'x`, `author:^x` and `year:` read them).
5: abstracts folded with `æ`, `œ`, `þ` as `ae`, `oe`, `th` (`text.fold`)."""
MAGIC = b"PSLISTNG"
_FILE = CacheFile(MAGIC, FORMAT, key_size=24, sections=3)
"""main, postings, abstracts."""
FIELDS = ("id", "name", "title", "venue", "code_urls", "links_with_page", "authors", "year")
"""The `Paper` fields a listing holds for every paper (the abstract is loaded on demand)."""


class ListedPaper(tuple):  # type: ignore[type-arg]
    """The fields of one `Paper` that `list` prints and the search engine reads, by name.

    A tuple `(*FIELDS, listing, position)`: 10k of them are made with one C-level `map` each
    (a third of the time of setting slots one by one). `abstract` comes from the listing's
    last section, read for every paper the first time any paper's is asked for.
    """

    __slots__ = ()

    id: str = property(itemgetter(0))  # type: ignore[assignment]
    name: str = property(itemgetter(1))  # type: ignore[assignment]
    title: str | None = property(itemgetter(2))  # type: ignore[assignment]
    venue: str | None = property(itemgetter(3))  # type: ignore[assignment]
    code_urls: tuple[str, ...] = property(itemgetter(4))  # type: ignore[assignment]
    links_with_page: tuple[str, ...] = property(itemgetter(5))  # type: ignore[assignment]
    authors: tuple[str, ...] = property(itemgetter(6))  # type: ignore[assignment]
    year: int | None = property(itemgetter(7))  # type: ignore[assignment]

    @property
    def abstract(self) -> str:
        """The paper's abstract as shown and folded, as exact terms compare it (the first one
        asked for reads them all)."""
        listing: Listing = self[8]
        return listing.abstract(self[9])

    folded_abstract = abstract
    """What the search engine asks first for `'exact` terms (see `SearchEngine._forms`)."""

    def __repr__(self) -> str:
        return f"ListedPaper({self[0]!r}, {self[1]!r})"


_CHECKS = (
    is_str,
    is_str,
    is_optional_str,
    is_optional_str,
    is_str_tuples,
    is_str_tuples,
    is_str_tuples,
    is_optional_int,
)
"""One per field of `FIELDS`."""


class Listing:
    """A loaded listing: the papers (as `ListedPaper`s, library order) and the search index.

    Holds the cache file open until `close()` (or the end of a `with` block): postings and
    abstracts asked for later come from the same version of the file.
    """

    def __init__(self, file: ListingFile, abstracts: Section) -> None:
        self.papers: list[ListedPaper] = []
        self.index: SearchIndex | None = None
        self.abstracts: tuple[str, ...] | None = None
        """Every paper's abstract, in order, once one was asked for (see `abstract`)."""
        self._file = file
        self._abstracts_place = abstracts

    def engine(self) -> SearchEngine:
        """A search engine over the listed papers, using the listing's index."""
        from typing import cast

        from papershelf.storage.search.engine import SearchEngine

        # The engine reads only FIELDS and `abstract` of its papers, which ListedPaper has.
        return SearchEngine(cast("Sequence[Paper]", self.papers), self.index)

    def abstract(self, position: int) -> str:
        """The abstract of paper `position`; the first call reads them all (`ListingUnusable`
        when they cannot be read whole, undamaged and valid)."""
        abstracts = self.abstracts
        if abstracts is None:
            abstracts = self.abstracts = self._read_abstracts()
        return abstracts[position]

    def _read_abstracts(self) -> tuple[str, ...]:
        place = self._abstracts_place
        raw = self._file.read(place.length, place.at)
        if not place.holds(raw):
            raise ListingUnusable("the abstracts of the listing are damaged")
        try:
            abstracts = marshal.loads(raw)
        except (ValueError, EOFError, TypeError):
            abstracts = None
        if (
            type(abstracts) is not tuple
            or len(abstracts) != len(self.papers)
            or not is_str(abstracts)
        ):
            raise ListingUnusable("the abstracts of the listing cannot be read")
        return abstracts

    def close(self) -> None:
        """Close the cache file (postings and abstracts not read by now cannot be any more)."""
        self._file.close()

    def __enter__(self) -> Listing:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _papers_key(root: Path) -> StatKey | None:
    try:
        return stat_key(os.stat(root / PAPERS_FILE))
    except OSError:
        return None


def load(root: Path) -> Listing | None:
    """The listing of the library in `root` when its cache matches papers.json as it is now.

    None when papers.json or the cache is missing, the cache is stale, of another format, of
    another length than its header says, its main section fails its checksum, or it holds a
    value of the wrong type. Close the listing
    (or use `with`) when done.
    """
    key = _papers_key(root)
    if key is None:
        return None
    opened = _FILE.open(root / LISTING_FILE, stat_key_bytes(key))
    if opened is None:
        return None
    file = ListingFile(opened)
    listing = None
    try:
        listing = _read(file)
    except MemoryError:
        listing = None
    finally:
        if listing is None:
            file.close()
    return listing


def _read(file: ListingFile) -> Listing | None:
    _, postings_place, abstracts_place = file.opened.sections
    payload = file.opened.section(0)
    if payload is None:
        return None  # cannot be read, or damaged
    try:
        fields, columns, parts, layout, table = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if fields != FIELDS or not valid_columns(columns, _CHECKS):
        return None
    section = CheckedPostings.of(file, postings_place, table)
    if section is None:
        return None
    size = len(columns[0])
    good = type(parts) is tuple and len(parts) == len(PARTS) and type(parts[2]) is list
    vocab_size = len(parts[2]) if good else -1
    postings = _postings(section, layout, vocab_size, size)
    index = SearchIndex.from_parts(parts, postings, "") if postings is not None else None
    if index is None or index.size != size:
        return None
    listing = Listing(file, abstracts_place)
    listing.index = index
    listing.papers = _build(columns, listing)
    return listing


def _postings(
    section: CheckedPostings, layout: object, vocab_size: int, size: int
) -> dict[str, Postings] | None:
    """The fields' `FilePostings` from `layout` (per field: where its offsets and data start
    in the postings section, and the data's length in words), or None if it does not fit."""
    if type(layout) is not tuple or len(layout) != len(INDEXED_FIELDS) or vocab_size < 0:
        return None
    postings: dict[str, Postings] = {}
    for field, place in zip(INDEXED_FIELDS, layout, strict=True):
        if type(place) is not tuple or len(place) != 3 or {type(n) for n in place} != {int}:
            return None
        offsets_at, data_at, data_words = place
        if min(place) < 0 or offsets_at + 4 * (vocab_size + 1) > section.length:
            return None
        if data_at + 4 * data_words > section.length:
            return None
        postings[field] = FilePostings(section, offsets_at, data_at, data_words, size)
    return postings


def _build(columns: Sequence[tuple[object, ...]], listing: Listing) -> list[ListedPaper]:
    """One `ListedPaper` per row: zip's row tuples, copied into the subclass in C."""
    count = len(columns[0])
    rows = zip(*columns, repeat(listing, count), range(count), strict=True)
    return list(map(tuple.__new__, repeat(ListedPaper, count), rows))


def save(root: Path, key: StatKey, papers: Sequence[Paper], index: SearchIndex) -> bool:
    """Write the listing of `papers` (read from the papers.json with `key`) and their `index`.

    Returns False when it could not be written (or the index is not one held in memory); a
    missing listing only makes `list` slower.
    """
    # Equal values as one object: marshal then writes a repeat (a venue, mostly) as a
    # reference, and loading makes one string instead of thousands.
    # Any: marshal takes these values (str, tuples of str, None) as they are.
    shared: dict[Any, Any] = {}
    columns = tuple(
        tuple(shared.setdefault(value, value) for value in map(attrgetter(name), papers))
        for name in FIELDS
    )
    buffers: list[bytes] = []
    layout: list[tuple[int, int, int]] = []
    position = 0
    for field in INDEXED_FIELDS:
        column = index.postings[field]
        if not isinstance(column, FieldPostings) or index.size != len(papers):
            return False
        offsets = column.offsets.tobytes()
        layout.append((position, position + len(offsets), len(column.data) >> 2))
        buffers += [offsets, column.data]
        position += len(offsets) + len(column.data)
    postings = b"".join(buffers)
    view = memoryview(postings)
    table = array("I", [checksum(view[at : at + BLOCK]) for at in range(0, position, BLOCK)])
    try:
        main = marshal.dumps(
            (FIELDS, columns, index.parts(), tuple(layout), table.tobytes()), MARSHAL_VERSION
        )
        shown = tuple(fold_text(shown_text(paper.abstract)) for paper in papers)  # see the top
        abstracts = marshal.dumps(shown, MARSHAL_VERSION)
    except (ValueError, MemoryError):
        return False
    return _FILE.save(root / LISTING_FILE, stat_key_bytes(key), [main, postings, abstracts])


def open_engine(
    root: Path, key: StatKey | None, papers: Sequence[Paper], *, listing_failed: bool = False
) -> SearchEngine:
    """The search engine over a Library's papers, for a process that opened the Library.

    The index comes from `search-index.bin` when it was built from these papers and is whole
    (else it is built and saved there); the listing is then written for the next `list`, when
    `key` says which papers.json the papers are (None: they are not on disk as they are, write
    nothing), unless one for that papers.json is already there: rewriting 20 MB cost every
    `list --json` ~60 ms. A `list` that could not use the listing passes `listing_failed` (it
    may be damaged past its header), and the listing is rewritten.
    """
    from papershelf.storage.search.engine import SearchEngine

    index, _ = SearchIndex.load_or_build(root / SEARCH_CACHE, papers)
    if key is not None and (listing_failed or not _is_current(root, key)):
        save(root, key, papers, index)
    return SearchEngine(papers, index)


def _is_current(root: Path, key: StatKey) -> bool:
    """Whether listing.cache has the header this code writes for papers.json as `key` (its
    sections are checked when they are read, as always)."""
    opened = _FILE.open(root / LISTING_FILE, stat_key_bytes(key))
    if opened is None:
        return False
    opened.close()
    return True
