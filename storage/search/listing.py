"""`listing.cache`: what `papershelf list` needs beyond papers.cache and search-index.bin, so
that it answers without the Library.

A full open reads every paper (papers.cache, every column), imports TinyDB and filelock, and
then the search index is loaded whole and checked against a hash of every paper. `list` prints
only ids, names, titles and venues and searches a few postings, so it reads instead:

- from `papers.cache` (`library.papers_cache.listed`), its first section alone: the columns it
  prints and searches (`papers_layout.LISTED_FIELDS`: ids, names, titles, venues, code URLs,
  links and page, authors, year), and the abstracts' places in papers.json;
- from `search-index.bin` (`search.index_file.open_lazy`), its main section (the vocabulary,
  the prefix groups) with the postings left in the file, read with `os.pread` as a query asks
  for them and checked block by block;
- from this file, a `storage.caches.frame` keyed like papers.cache (the `StatKey`
  `(st_mtime_ns, st_size, st_ino)` of the papers.json it was made from), two sections: the
  search index's fingerprint (which search-index.bin holds these papers' index), and the
  abstracts as an exact `'word` compares them (as shown, `storage.text.titles.shown_text`, and
  folded, `query_parse.fold_text`), read only if a search asks for one: most abstracts (7 in 10
  of the real corpus) read so are just the abstract in lower case, read from papers.json at
  papers.cache's places (each checked against its CRC-32); the section holds only the others'
  folded text, compressed, so that `list` never converts thousands of abstracts with math.

Before format 7 this file held the printed columns and the postings again (76.6 MB at 100,000
papers, beside 24.5 MB of papers.cache and 42.9 MB of search-index.bin); now it holds ~23 MB.

Each file is trusted under its own key and checksums; together they describe one papers.json,
because papers.cache and this file are keyed by its `StatKey` and this file names the index
built from the very papers the Library read for that key. Every file is held open while the
listing is used, so each is one version whatever replaces it meanwhile. `load` never raises for
a stale, damaged or foreign file: it returns None and the caller takes the full path
(`Library.open`), whose results are the same; a part found damaged later raises
`ListingUnusable` before anything is printed, and the caller starts again on the full path.
`save` writes atomically without fsync (a lost cache is rebuilt by the next full `list`) and
never raises. The Library never writes this file; the CLI writes it after a full open
(`open_engine`), keyed by the papers.json the Library read, so it can never describe papers the
Library did not hold.
"""

from __future__ import annotations

import marshal
import os
import zlib
from collections.abc import Sequence
from itertools import repeat
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf.storage.caches import papers_layout
from papershelf.storage.caches.columns import is_str
from papershelf.storage.caches.frame import (
    MARSHAL_VERSION,
    CacheFile,
    Opened,
    stat_key_bytes,
    unmarshal,
)
from papershelf.storage.caches.places import Places, read_abstracts
from papershelf.storage.files.layout import (
    LISTING_FILE,
    PAPERS_CACHE,
    PAPERS_FILE,
    SEARCH_CACHE,
    StatKey,
    stat_key,
)
from papershelf.storage.search.filepostings import BLOCK, FilePostings, ListingUnusable
from papershelf.storage.search.index import SearchIndex
from papershelf.storage.search.index_file import LazyIndex, open_lazy
from papershelf.storage.search.parse import fold_text
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

FORMAT = 8
"""Bump when the layout changes (the index's own format is checked by `search.index_file`).
2: the `storage.caches.frame` frame, with checksums of the sections and of the postings' blocks.
3: `links_with_page` (the paper's own page counts for `has:links`) instead of `links`, and the
   abstracts as shown and folded (a format-2 file holds them as written).
4: the authors and the year (`author:'x`, `author:^x` and `year:` read them).
5: abstracts folded with `æ`, `œ`, `þ` as `ae`, `oe`, `th` (`text.fold`).
6: the abstracts' places in papers.json, and the folded text only where it is not the lower case,
   compressed (zlib).
7: no columns, postings or places of its own: they are read from papers.cache and
   search-index.bin; the index's fingerprint names which.
8: the abstracts as shown with single-`*` emphasis read by CommonMark's flanking rules
   (`ToolChain*, an A* method` keeps its stars)."""
MAGIC = b"PSLISTNG"
_FILE = CacheFile(MAGIC, FORMAT, key_size=24, sections=2)
"""main (the index's fingerprint), abstracts."""
FIELDS = papers_layout.LISTED_FIELDS
"""The `Paper` fields a listing holds for every paper (the abstract is loaded on demand)."""
_ID, _NAME, _TITLE, _VENUE, _CODE, _LINKS, _URL, _AUTHORS, _YEAR = range(len(FIELDS))
_LISTING, _POSITION = len(FIELDS), len(FIELDS) + 1


class ListedPaper(tuple):  # type: ignore[type-arg]
    """The fields of one `Paper` that `list` prints and the search engine reads, by name.

    A tuple `(*FIELDS, listing, position)`: 100k of them are made with one C-level `map` each
    (a third of the time of setting slots one by one). `abstract` comes from the listing's
    last section, read for every paper the first time any paper's is asked for.
    """

    __slots__ = ()

    id: str = property(itemgetter(_ID))  # type: ignore[assignment]
    name: str = property(itemgetter(_NAME))  # type: ignore[assignment]
    title: str | None = property(itemgetter(_TITLE))  # type: ignore[assignment]
    venue: str | None = property(itemgetter(_VENUE))  # type: ignore[assignment]
    code_urls: tuple[str, ...] = property(itemgetter(_CODE))  # type: ignore[assignment]
    links: tuple[str, ...] = property(itemgetter(_LINKS))  # type: ignore[assignment]
    url: str | None = property(itemgetter(_URL))  # type: ignore[assignment]
    authors: tuple[str, ...] = property(itemgetter(_AUTHORS))  # type: ignore[assignment]
    year: int | None = property(itemgetter(_YEAR))  # type: ignore[assignment]

    @property
    def links_with_page(self) -> tuple[str, ...]:
        """`Paper.links_with_page`: the links, then the paper's own page unless listed."""
        url, links = self[_URL], self[_LINKS]
        if url is None or url in self[_CODE] or url in links:
            return links
        return (*links, url)

    @property
    def abstract(self) -> str:
        """The paper's abstract as shown and folded, as exact terms compare it (the first one
        asked for reads them all)."""
        listing: Listing = self[_LISTING]
        return listing.abstract(self[_POSITION])

    folded_abstract = abstract
    """What the search engine asks first for `'exact` terms (see `SearchEngine._forms`)."""

    def __repr__(self) -> str:
        return f"ListedPaper({self[0]!r}, {self[1]!r})"


class Listing:
    """A loaded listing: the papers (as `ListedPaper`s, library order) and the search index.

    Holds its files open until `close()` (or the end of a `with` block): postings and
    abstracts asked for later come from the same versions of the files.
    """

    def __init__(
        self, opened: Opened, lazy: LazyIndex, places: Places, papers_json: Path, key: StatKey
    ) -> None:
        self.papers: list[ListedPaper] = []
        self.index: SearchIndex = lazy.index
        self.abstracts: Sequence[str] | None = None
        """Every paper's abstract, in order, once one was asked for (see `abstract`)."""
        self._opened = opened
        self._lazy = lazy
        self._places = places
        self._papers_json = papers_json
        self._key = key

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

    def _read_abstracts(self) -> Sequence[str]:
        raw = self._opened.section(1)
        if raw is None:
            raise ListingUnusable("the abstracts of the listing are damaged")
        try:
            value = marshal.loads(zlib.decompress(raw))
        except (ValueError, EOFError, TypeError, zlib.error, MemoryError):
            value = None
        abstracts = self._abstracts_of(value) if type(value) is dict else None
        if abstracts is None:
            raise ListingUnusable("the abstracts of the listing cannot be read")
        return abstracts

    def _abstracts_of(self, folded: dict[object, object]) -> Sequence[str] | None:
        """Every folded abstract: each read from papers.json and lower-cased, but for those
        `folded` holds by position."""
        count = len(self.papers)
        if not is_str(tuple(folded.values())):
            return None
        if not all(type(at) is int and 0 <= at < count for at in folded):  # type: ignore[operator]
            return None
        texts = read_abstracts(self._papers_json, self._key, self._places)
        if texts is None:
            return None
        lowered = [text.lower() for text in texts]
        for at, text in folded.items():
            lowered[at] = text  # type: ignore[index,assignment]
        return lowered

    def close(self) -> None:
        """Close the files (postings and abstracts not read by now cannot be any more)."""
        self._opened.close()
        self._lazy.close()

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
    """The listing of the library in `root` when its caches match papers.json as it is now.

    None when papers.json, papers.cache, search-index.bin or this cache is missing, stale, of
    another format, of another length than its header says, a section read here fails its
    checksum, or holds a value of the wrong type. Close the listing (or use `with`) when done.
    """
    key = _papers_key(root)
    if key is None:
        return None
    opened = _FILE.open(root / LISTING_FILE, stat_key_bytes(key))
    if opened is None:
        return None
    listing = None
    try:
        listing = _read(opened, root, key)
    except MemoryError:
        listing = None
    finally:
        if listing is None:
            opened.close()
    return listing


def _read(opened: Opened, root: Path, key: StatKey) -> Listing | None:
    raw = opened.section(0)
    if raw is None:
        return None  # cannot be read, or damaged
    fingerprint = unmarshal(raw)
    if type(fingerprint) is not str:
        return None
    listed = papers_layout.listed(root / PAPERS_CACHE, key)
    if listed is None:
        return None
    lazy = open_lazy(root / SEARCH_CACHE, fingerprint)
    if lazy is None:
        return None
    size = len(listed.columns[0])
    if lazy.index.size != size:
        lazy.close()
        return None
    listing = Listing(opened, lazy, listed.places, root / PAPERS_FILE, key)
    listing.papers = _build(listed.columns, listing)
    return listing


def _build(columns: Sequence[tuple[object, ...]], listing: Listing) -> list[ListedPaper]:
    """One `ListedPaper` per row: zip's row tuples, copied into the subclass in C."""
    count = len(columns[0])
    rows = zip(*columns, repeat(listing, count), range(count), strict=True)
    return list(map(tuple.__new__, repeat(ListedPaper, count), rows))


def save(
    root: Path,
    key: StatKey,
    papers: Sequence[Paper],
    index: SearchIndex,
    places: Places | None = None,
) -> bool:
    """Write the listing of `papers` (read from the papers.json with `key`, their abstracts at
    `places` in it) and of their `index` (saved in search-index.bin).

    Returns False, writing nothing, when it could not be written or the places are unknown
    (then papers.cache, which this listing reads, is not written either); a missing listing
    only makes `list` slower.
    """
    if places is None or len(places) != len(papers) or index.size != len(papers):
        return False
    try:
        main = marshal.dumps(index.fingerprint, MARSHAL_VERSION)
        # zlib's fastest level: 55 MB of folded text in 18 at 100,000 papers, read back (and
        # inflated, ~0.1 s) only by a search with an exact term.
        abstracts = zlib.compress(marshal.dumps(_folded_abstracts(papers), MARSHAL_VERSION), 1)
    except (ValueError, MemoryError):
        return False
    return _FILE.save(root / LISTING_FILE, stat_key_bytes(key), [main, abstracts])


def _folded_abstracts(papers: Sequence[Paper]) -> dict[int, str]:
    """The abstracts section's value (see the top): the folded text of the papers whose folded
    abstract is not their abstract in lower case, by position."""
    differ: dict[int, str] = {}
    for at, paper in enumerate(papers):
        abstract = paper.abstract
        text = fold_text(shown_text(abstract))
        if text != abstract.lower():
            differ[at] = text
    return differ


def open_engine(
    root: Path,
    key: StatKey | None,
    papers: Sequence[Paper],
    *,
    listing_failed: bool = False,
    places: Places | None = None,
) -> SearchEngine:
    """The search engine over a Library's papers, for a process that opened the Library.

    The index comes from `search-index.bin` when it was built from these papers and is whole
    (else it is built and saved there); the listing is then written for the next `list`, when
    `key` says which papers.json the papers are (None: they are not on disk as they are, write
    nothing), unless one for that papers.json is already there: rewriting 20 MB cost every
    `list --json` ~60 ms. A `list` that could not use the listing passes `listing_failed` (it
    may be damaged past its header), and the listing is rewritten. `places`: where the papers'
    abstracts lie in that papers.json (`Library.abstract_places`), so the listing need not copy
    them.
    """
    from papershelf.storage.search.engine import SearchEngine

    index, _ = SearchIndex.load_or_build(root / SEARCH_CACHE, papers)
    if key is not None and (listing_failed or not _is_current(root, key)):
        save(root, key, papers, index, places)
    return SearchEngine(papers, index)


def _is_current(root: Path, key: StatKey) -> bool:
    """Whether listing.cache has the header this code writes for papers.json as `key` (its
    sections are checked when they are read, as always)."""
    opened = _FILE.open(root / LISTING_FILE, stat_key_bytes(key))
    if opened is None:
        return False
    opened.close()
    return True
