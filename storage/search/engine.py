"""One search engine for the TUI's filter and `papershelf list`: query -> ranked `Hit`s.

The query language is parsed by `storage.search.parse`; name, title and abstract are searched
through the inverted index of `storage.search.index`; tags, notes and statuses come from the
entries passed to each search (they change all the time and are few). Ranking, best first:
the sum over query words of each word's best field weight x match quality (name > title > tags >
note > abstract; exact > prefix > infix > typo), then library order. A hit's `terms` and
`spans` are worked out only when read, so a search that matches every paper stays cheap. One
search (its terms, ranking and explanations) is a `storage.search.run.SearchRun`.
"""

from __future__ import annotations

import contextlib
import re
from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.abstract_scan import AbstractScan, Pause
from papershelf.storage.search.highlight import (
    AUTHOR_SEPARATOR,
    FIELDS,
    author_spans,
    field_text,
    highlight_spans,
    snippet,
)
from papershelf.storage.search.hits import NO_DETAILS, Hit, Results
from papershelf.storage.search.index import Progress, SearchIndex
from papershelf.storage.search.lru import Lru, bitset_weight
from papershelf.storage.search.parse import (
    MAX_QUERY_TERMS,
    TOKEN_RE,
    Query,
    fold_text,
    parse_query,
)
from papershelf.storage.search.postings import bits_to_ids, ids_to_bits
from papershelf.storage.search.run import Cancelled, EntryData, SearchCancelled, SearchRun
from papershelf.storage.search.textcolumn import TextColumn
from papershelf.storage.search.warm_cache import WarmParts
from papershelf.storage.text.authors import authors_text
from papershelf.storage.text.titles import display_title, marked_up, shown_text

__all__ = [
    "AUTHOR_SEPARATOR",
    "FIELDS",
    "MAX_QUERY_TERMS",
    "Hit",
    "Query",
    "Results",
    "SearchCancelled",
    "SearchEngine",
    "author_spans",
    "field_text",
    "highlight_spans",
    "paper_year",
    "parse_query",
    "snippet",
]

_SUBSTRING_CACHE_SIZE = 256
_SUBSTRING_CACHE_BYTES = 8 << 20
"""Exact terms' papers kept for the next keys (`substring_ids`): 4 bytes a paper."""
_FROM_INDEX_CHARS = 3
"""An exact term this long or longer is answered from the index. `'d` and `'di` are in most
tokens: ORing their postings took 2 s and 150 ms at 100k papers, scanning the abstracts 70 and
130 ms (and each is then looked for within the previous key's papers)."""
_READ_AT_MOST = 2000
"""Candidates of an exact phrase read one by one (each abstract converted as shown); above
this, the folded abstracts are scanned (`substring_ids`, made once)."""
_HEAD_FIELDS = ("name", "title")
"""The fields whose exact terms of one word's letters come from the index (`_word_part_bits`)."""
_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789"
"""The one-character values whose papers the warm-up finds (`_letters`)."""
_LETTER_FIELDS = ("name", "title", "abstract")
"""The fields whose letters' papers the warm-up finds (`_warm_letters`)."""
_ORDERED_FIELDS = ("name", "title", "authors")
"""The fields whose prefix tables the warm-up makes (`warm_tables`) and a cache keeps."""
_PAUSE_EVERY = 1024
"""Papers a warm-up step reads between two calls of its `pause`."""
_RESULT_CACHE_SIZE = 16
_RESULT_CACHE_BYTES = 24 << 20
"""Recent searches' results kept (`Results.nbytes`): at 100k papers one that matches every
paper is ~0.4 MB listed, so the 16 fit; a cache bounded by entries alone held hundreds of MB
once their bitsets and explanations were counted."""


_VENUE_YEAR = re.compile(r"(?<!\d)(?:1[89]|20)\d\d(?!\d)")
"""A year in a venue's name (`ICML 2024`, `NeurIPS'2023` ...): 1800 to 2099."""


def paper_year(paper: Paper) -> int | None:
    """The year `year:` compares: the paper's own, else the last year named in its venue."""
    if paper.year is not None:
        return paper.year
    found = _VENUE_YEAR.findall(paper.venue) if paper.venue else ()
    return int(found[-1]) if found else None


@dataclass(frozen=True)
class _PaperFlags:
    """Per-paper facts the filters test, as bitsets over the papers' positions."""

    venues: dict[str, int]
    """Venue without spaces, lower-cased (`icml2025`) -> its papers."""
    code: int
    links: int
    years: dict[int, int]
    """Year (`paper_year`) -> its papers."""

    @classmethod
    def of(cls, papers: Sequence[Paper], pause: Pause | None = None) -> _PaperFlags:
        venues: dict[str, list[int]] = {}
        code: list[int] = []
        links: list[int] = []
        years: dict[int, list[int]] = {}
        year_of_venue: dict[str | None, int | None] = {}
        for i, paper in enumerate(_paced(papers, pause)):
            if paper.venue:
                venues.setdefault("".join(paper.venue.lower().split()), []).append(i)
            if paper.code_urls:
                code.append(i)
            if paper.links_with_page:  # the paper's own page is a link too
                links.append(i)
            year = paper.year
            if year is None:
                # A few venues among 10k papers: each one's year is looked for once.
                venue = paper.venue
                if venue not in year_of_venue:
                    year_of_venue[venue] = paper_year(paper)
                year = year_of_venue[venue]
            if year is not None:
                years.setdefault(year, []).append(i)
        size = len(papers)
        return cls(
            {venue: ids_to_bits(ids, size) for venue, ids in venues.items()},
            ids_to_bits(code, size),
            ids_to_bits(links, size),
            {year: ids_to_bits(ids, size) for year, ids in years.items()},
        )


class SearchEngine:
    """Searches one library's papers; build once, `update` after an import."""

    def __init__(
        self,
        papers: Sequence[Paper],
        index: SearchIndex | None = None,
        progress: Progress | None = None,
    ) -> None:
        """`progress(done, total)` hears how a build goes (none when `index` is given)."""
        if index is None:
            index = SearchIndex.build(papers, progress)
        self._set_papers(papers, index)

    @classmethod
    def load(
        cls, path: Path, papers: Sequence[Paper], progress: Progress | None = None
    ) -> SearchEngine:
        """An engine using the index cached at `path` when it matches `papers`.

        Otherwise builds the index (telling `progress`) and tries to save it there for the
        next process (a cache that cannot be written is not an error).
        """
        index = SearchIndex.load(path, papers)
        engine = cls(papers, index, progress)
        if index is None:
            with contextlib.suppress(OSError):
                engine.save(path)
        return engine

    def save(self, path: Path) -> None:
        """Cache the index at `path` (keyed by the papers' ids, names and titles)."""
        self._index.save(path)

    def update(self, papers: Sequence[Paper]) -> None:
        """Re-index after an import: only the new papers when the old ones are unchanged."""
        old = self._papers
        index = self._index
        if len(papers) >= len(old) and all(
            a.id == b.id
            and a.name == b.name
            and a.title == b.title
            and a.abstract == b.abstract
            and a.authors == b.authors
            for a, b in zip(old, papers, strict=False)
        ):
            index = index.extended(papers) if len(papers) > len(old) else index
        else:
            index = SearchIndex.build(papers)
        self._set_papers(papers, index)

    def _set_papers(self, papers: Sequence[Paper], index: SearchIndex) -> None:
        self._papers = tuple(papers)
        self._index = index
        self._ids = tuple(paper.id for paper in self._papers)
        self._position = {paper_id: i for i, paper_id in enumerate(self._ids)}
        self._all_hits: Results | None = None
        self._entries_cache: EntryData | None = None
        self._results: Lru[str, Results] = Lru(
            _RESULT_CACHE_BYTES, _RESULT_CACHE_SIZE, Results.nbytes
        )
        self._texts: dict[str, TextColumn] = {}
        self._substrings: Lru[tuple[str, str], Sequence[int]] = Lru(
            _SUBSTRING_CACHE_BYTES, _SUBSTRING_CACHE_SIZE, _ids_weight
        )
        self._scanned: Lru[str, int] = Lru(
            _SUBSTRING_CACHE_BYTES, _SUBSTRING_CACHE_SIZE, bitset_weight
        )
        """Exact terms' papers found by the `AbstractScan`, as bitsets (`'d` at 100k papers:
        12.5 KB, where its positions took 400)."""
        self._flags: _PaperFlags | None = None
        self._scan: AbstractScan | None = None
        self._word_parts: Lru[tuple[str, str], int] = Lru(
            _SUBSTRING_CACHE_BYTES, _SUBSTRING_CACHE_SIZE, bitset_weight
        )
        """Names' and titles' papers of one word's letters (`_word_part_bits`)."""
        self._titles_marked: int | None = None
        self._orders: dict[str, array[int]] = {}
        """Prefix tables taken from a cache (`adopt_warm`) for columns not made yet."""
        self._letters: dict[tuple[str, str], int] = {}
        """(field, letter or digit) -> the papers whose `field` (folded, as an exact term reads
        it) holds it, made by `warm_tables` and stored whole: the first key of an exact term
        (`'d`) was the slowest of all at 100k papers (every title, name and abstract read)."""

    @property
    def flags(self) -> _PaperFlags:
        """Venues, years, `has:code` and `has:links` as bitsets, made when a query first needs
        them.

        A `papershelf list` without such a filter never pays the pass over every paper.
        """
        return self._paper_flags()

    def _paper_flags(self, pause: Pause | None = None) -> _PaperFlags:
        """`flags`, made now if not yet (`pause`: see `warm_tables`)."""
        if self._flags is None:
            self._flags = _PaperFlags.of(self._papers, pause)
        return self._flags

    def _entry_data(self, entries: Mapping[str, Entry]) -> EntryData:
        """What the searches need from `entries`, kept while the entries stay the same."""
        cached = self._entries_cache
        if cached is not None and cached.snapshot == entries:
            return cached
        data = self._entries_cache = EntryData(dict(entries), self._position)
        self._results.clear()  # results depend on the entries
        return data

    @property
    def papers(self) -> tuple[Paper, ...]:
        """The indexed papers, in library order."""
        return self._papers

    def _forms(self, field: str, paper: Paper) -> list[str]:
        """The folded forms of a paper's `field` an exact or `^` query looks in: the text as
        shown (`'k2ie` finds `K$^2$IE`, `'"lifting method"` finds `_lifting_ method`); a title
        also as written. An abstract only as shown: a second copy of 15 MB of abstracts would
        slow every `'` keystroke by a third, for LaTeX source nobody reads."""
        if field == "abstract":
            # A listing (`storage.search.listing`) holds its abstracts converted and folded already.
            folded = getattr(paper, "folded_abstract", None)
            return [folded if folded is not None else fold_text(shown_text(paper.abstract))]
        if field == "authors":
            return [fold_text(authors_text(paper.authors))]
        text = getattr(paper, field) or ""
        if field == "name" or not marked_up(text):
            return [fold_text(text)]
        forms = [fold_text(display_title(text)), fold_text(text)]
        return forms if forms[0] != forms[1] else forms[:1]

    def _lower(self, field: str, pause: Pause | None = None) -> TextColumn:
        """The folded forms of `field` of every paper (`_forms`; a row's joined by a newline,
        which no query value holds), built once for exact and `^` terms, kept compact;
        `pause()` is called every thousand papers or so (see `warm_tables`)."""
        texts = self._texts.get(field)
        if texts is None:
            forms = self._forms
            rows = (forms(field, paper) for paper in _paced(self._papers, pause))
            texts = TextColumn(rows)
            self._take_order(field, texts)  # before it is shared: no sort on first use
            self._texts[field] = texts
        return texts

    def substring_bits(self, field: str, value: str) -> int:
        """`substring_ids` as a bitset: a letter's from the table `warm_tables` made, one
        word's letters in a name or title from the index (`_word_part_bits`)."""
        bits = self._letters.get((field, value))
        if bits is not None:
            return bits
        # A listing's papers (`storage.search.listing`) are not indexed here.
        library = all(type(p) is Paper for p in self._papers[:1])
        if library and field in _HEAD_FIELDS and len(value) > 1 and TOKEN_RE.fullmatch(value):
            return self._word_part_bits(field, value)
        return ids_to_bits(self.substring_ids(field, value), len(self._papers))

    def _word_part_bits(self, field: str, value: str) -> int:
        """Papers whose name or title, folded as an exact term reads it, contains `value`,
        one run of letters and digits: those whose `field` column holds a token containing
        it, as a token is a maximal such run and the index holds exactly the tokens of a
        name, and of a title that is not marked up; a marked-up title (its text as shown
        too, `_forms`) is read. Scanning every title took 14 ms of `'di` at 100k papers."""
        key = (field, value)
        bits = self._word_parts.get(key)
        if bits is not None:
            return bits
        index = self._index
        bits = index.tids_bits(field, index.vocabulary.containing(value))
        if field == "title":
            marked = self._marked_titles()
            if marked:
                read = self._lower("title").containing(value, bits_to_ids(marked))
                bits = bits & ~marked | ids_to_bits(read, len(self._papers))
        return self._word_parts.put(key, bits)

    def _marked_titles(self) -> int:
        """The papers whose title is marked up (`_forms` reads it as shown and as written)."""
        marked = self._titles_marked
        if marked is None:
            found = [i for i, paper in enumerate(self._papers) if marked_up(paper.title or "")]
            marked = self._titles_marked = ids_to_bits(found, len(self._papers))
        return marked

    def substring_ids(self, field: str, value: str) -> Sequence[int]:
        """Papers whose lower-case `field` contains `value` (cached per value).

        Typing `'diffusion` one key at a time asks for `'d`, `'di`, ...: each answer is found
        among the papers of the previous one (any cached shorter piece of `value`), so later
        keys scan a few papers, not 15 MB. A scan stops at a paper's first occurrence.
        """
        key = (field, value)
        ids = self._substrings.get(key)
        if ids is not None:
            return ids
        within = self._substrings.get((field, value[:-1])) if len(value) > 1 else None
        if within is None and len(value) > 1:
            within = self._substrings.get((field, value[1:]))
        if field == "abstract" and self._scans_abstracts():
            found = array("I", bits_to_ids(self._scanned_bits(value)))
            return self._substrings.put(key, found)
        # Kept as 4 bytes a paper, not a list of int objects (~36).
        return self._substrings.put(key, self._lower(field).containing(value, within))

    def _scanned_bits(self, value: str) -> int:
        """Papers whose abstract as shown contains `value`, from the `AbstractScan` (kept per
        value, as bitsets; each is looked for among the papers of a shorter value kept)."""
        found = self._scanned.get(value)
        if found is not None:
            return found
        within = self._scanned.get(value[:-1]) if len(value) > 1 else None
        if within is None and len(value) > 1:
            within = self._scanned.get(value[1:])
        return self._scanned.put(value, self.abstract_scan().bits(value, within))

    def _scans_abstracts(self) -> bool:
        """Whether exact terms find abstracts through the index (`AbstractScan`) instead of a
        folded copy of every abstract: for the library's papers, whose abstracts stay in
        papers.json. A listing's papers (`storage.search.listing`) hold theirs folded already."""
        return "abstract" not in self._texts and all(type(p) is Paper for p in self._papers[:1])

    def abstract_scan(self, pause: Pause | None = None) -> AbstractScan:
        """The exact-term scan of the abstracts (made on first use: it reads every abstract;
        `pause`: see `warm_tables`)."""
        scan = self._scan
        if scan is None:
            scan = self._scan = AbstractScan(self._papers, self._index, pause)
        return scan

    def abstract_bits(self, value: str) -> int:
        """Papers whose abstract, as shown and folded, contains `value` (an exact term), from
        the index (from 3 characters, `_FROM_INDEX_CHARS`): one word's letters are the papers
        of the tokens containing it, less those where only the LaTeX source has it; a phrase
        (or a value with punctuation), the papers holding each of its words, whose text is
        then read, unless there are too many of them (`'of the`), when every abstract is."""
        letter = self._letters.get(("abstract", value))
        if letter is not None:
            return letter
        pieces = TOKEN_RE.findall(value)
        if not pieces or len(value) < _FROM_INDEX_CHARS:
            return self._scanned_abstracts(value)
        index = self._index
        if pieces == [value]:
            bits, source = index.containing_bits(value)
            doubtful = bits & source
            scan = self._scan
            if scan is not None and self._scans_abstracts():
                # Only abstracts with LaTeX have source tokens: the scan holds their text as
                # shown (converting each again took 16 ms of `'dif` at 100k papers).
                return bits & ~doubtful | scan.marked_bits(value, doubtful)
            return bits & ~doubtful | self._verified(doubtful, value)
        # The first piece may end a word and the last start one; those between are words.
        bits, _ = index.containing_bits(pieces[0])
        for piece in pieces[1:-1]:
            bits &= index.token_bits("abstract", piece)
        if len(pieces) > 1:
            lo, hi = index.vocabulary.prefix_range(pieces[-1])
            bits &= index.range_bits("abstract", lo, hi) if lo < hi else 0
        if bits.bit_count() > _READ_AT_MOST:
            return bits & self._scanned_abstracts(value)
        return self._verified(bits, value)

    def _scanned_abstracts(self, value: str) -> int:
        """Papers whose abstract as shown contains `value`, scanned (not from the index)."""
        if self._scans_abstracts():
            return self._scanned_bits(value)
        return ids_to_bits(self.substring_ids("abstract", value), len(self._papers))

    def _verified(self, bits: int, value: str) -> int:
        """The papers of `bits` whose abstract (as an exact term reads it) contains `value`."""
        if not bits:
            return 0
        papers, forms = self._papers, self._forms
        found = [i for i in bits_to_ids(bits) if value in forms("abstract", papers[i])[0]]
        return ids_to_bits(found, len(papers))

    def prefix_ids(self, field: str, value: str) -> list[int]:
        """Papers with a folded form of `field` starting with `value` (bisect over the forms
        sorted, made on first use; the abstracts' are the ones `'` terms read)."""
        return self._lower(field).starting(value)

    def warm(self, abstracts: bool = True) -> None:
        """Build every lazily built table now (call it from the worker that built the engine):
        `warm_words`, then `warm_tables(abstracts)`."""
        self.warm_words()
        self.warm_tables(abstracts)

    def warm_words(self) -> None:
        """The tables every word search needs from its first key (the vocabulary's, each first
        letter's papers). Not safe while another thread searches: before the engine is shared,
        or under the lock searches take."""
        self._index.warm()
        # The LaTeX converter, imported on first use (~50 ms at 100k papers, on the first key):
        # a hit's title is shown converted, and the first screen's are drawn with the first key.
        display_title("$x$")

    def warm_tables(self, abstracts: bool = True, pause: Pause | None = None) -> None:
        """The tables only some terms need: names, titles and authors for exact and `^` terms,
        the filters' venues and years, and (`abstracts`) the abstracts as shown for exact terms
        (~0.5 s at 10k papers: each abstract with math is converted as shown) with each
        letter's papers (`_warm_letters`).

        Safe while another thread searches (seconds at 100k papers, so the app runs it after
        the engine is shared, without holding up searches): each table is made whole and then
        stored in one step, and a search that needs one first makes its own. `pause()` is
        called between small steps (a thousand papers or so): the app's waits while keys come,
        so that the warm-up does not take the interpreter from their searches.
        """
        fields = _ORDERED_FIELDS
        for field in fields:
            self._lower(field, pause)
        if abstracts and self._scans_abstracts():
            self.abstract_scan(pause)
        elif abstracts:
            self._lower("abstract", pause)
        for field in fields:
            if pause is not None:
                pause()
            self.prefix_ids(field, "\x00")
        if pause is not None:
            pause()
        # Venues, years, code and links: a pass over every paper, paced (it was one 170 ms step
        # at 100k papers).
        self._paper_flags(pause)
        if pause is not None:
            pause()
        self._marked_titles()
        if abstracts and not self._letters:  # not when taken from a cache (`adopt_warm`)
            self._warm_letters(pause)

    @property
    def fingerprint(self) -> str:
        """The index's hash of the papers it was built from (`search.warm_cache` keys by it)."""
        return self._index.fingerprint

    def warm_parts(self) -> WarmParts | None:
        """The costly tables `warm_tables` made (the abstract scan, each letter's papers and
        the name, title and author prefix tables), for `search.warm_cache` to keep; None before
        they are made, or for a listing's papers (which need no scan)."""
        scan, letters = self._scan, self._letters
        if scan is None or not letters or not self._scans_abstracts():
            return None
        orders: dict[str, array[int]] = {}
        for field in _ORDERED_FIELDS:
            column = self._texts.get(field)
            order = None if column is None else column.sorted_forms
            if order is not None:
                orders[field] = order
        return WarmParts(len(self._papers), scan.parts(), dict(letters), orders)

    def adopt_warm(self, parts: WarmParts) -> bool:
        """Take the tables `warm_parts` gave (in an earlier process, for these same papers:
        `search.warm_cache` keys them so) instead of making them; `warm_tables` then skips
        them. False, taking nothing, when they do not fit these papers. Safe while another
        thread searches: each table is stored in one step, as `warm_tables` does."""
        size = len(self._papers)
        expected = {(field, letter) for letter in _LETTERS for field in _LETTER_FIELDS}
        if parts.size != size or set(parts.letters) != expected or not self._scans_abstracts():
            return False
        if any(bits >> size for bits in parts.letters.values()):
            return False
        self._orders = {f: o for f, o in parts.orders.items() if f in _ORDERED_FIELDS}
        for field, column in list(self._texts.items()):  # made by a search meanwhile
            self._take_order(field, column)
        self._scan = AbstractScan.restored(self._papers, self._index, parts.scan)
        # As `_warm_letters` leaves them: the abstracts' `'dx` is looked for among `'d`'s.
        for (field, letter), bits in parts.letters.items():
            if field == "abstract":
                self._scanned.put(letter, bits)
        self._letters = dict(parts.letters)
        return True

    def _take_order(self, field: str, column: TextColumn) -> None:
        """Give `column` the prefix table `adopt_warm` took for `field`, if any (once)."""
        order = self._orders.pop(field, None)
        if order is not None and column.sorted_forms is None:
            column.take_sorted_forms(order)

    def _warm_letters(self, pause: Pause | None) -> None:
        """Each letter's and digit's papers in the fields an exact term without a field key
        reads (`_letters`), made apart and stored whole at the end (a search may be running)."""
        size = len(self._papers)
        letters: dict[tuple[str, str], int] = {}
        for letter in _LETTERS:
            for field in ("name", "title"):
                if pause is not None:
                    pause()
                letters[field, letter] = ids_to_bits(self._lower(field).containing(letter), size)
            if pause is not None:
                pause()
            letters["abstract", letter] = self._scanned_abstracts(letter)
        self._letters = letters

    def clear_caches(self) -> None:
        """Forget every cached table and result (for benchmarks of cold searches)."""
        self._index.clear_caches()
        self._texts.clear()
        self._substrings.clear()
        self._scanned.clear()
        self._scan = None
        self._letters = {}
        self._orders = {}
        self._word_parts.clear()
        self._titles_marked = None
        self._all_hits = None
        self._results.clear()

    def may_take_long(self, query: str | Query) -> bool:
        """Whether searching `query` may take long however quick the last search was: it has
        an exact term that looks in the abstracts and the query is not answered yet. Such a
        term's first search ORs the postings of every token holding its value or reads
        abstracts (`'d` after `'`: 0.3-0.4 s of CPU at 100k papers, where `'` took 2 ms)."""
        parsed = parse_query(query) if isinstance(query, str) else query
        if parsed.text in self._results:
            return False
        return any(
            term.kind == "exact" and term.value and (not term.fields or "abstract" in term.fields)
            for clause in parsed.clauses
            for term in clause
        )

    def search(self, query: str | Query, entries: Mapping[str, Entry]) -> list[Hit]:
        """Every paper matching `query`, best first; an empty query lists all in library order."""
        return list(self.results(query, entries))

    def results(
        self,
        query: str | Query,
        entries: Mapping[str, Entry],
        cancelled: Cancelled | None = None,
    ) -> Results:
        """Like `search`, as compact `Results` (hits are made only when read): for the app,
        whose list reads 40 of 10k hits per keystroke. Results are immutable and may be shared.

        `cancelled()` is asked between the search's steps: when it says True the search stops
        there with `SearchCancelled` (the app's newest key waits for the engine), keeping no
        result; the tables it finished stay.
        """
        parsed = parse_query(query) if isinstance(query, str) else query
        if parsed.is_empty:
            if self._all_hits is None:
                self._all_hits = Results(self._ids, self._position, NO_DETAILS)
                self._all_hits.add(range(len(self._ids)), 0.0, "")
            return self._all_hits
        # Recent results are kept: every new query starts with the same few one-letter searches,
        # and backspacing repeats earlier ones.
        self._entry_data(entries)  # clears the kept results when the entries changed
        hits = self._results.get(parsed.text)
        if hits is None:
            run = SearchRun(self, parsed, entries, cancelled)
            hits = self._results.put(parsed.text, run.run())
        return hits


def _paced(papers: Sequence[Paper], pause: Pause | None) -> Iterator[Paper]:
    """`papers`, calling `pause()` before every thousandth or so (when there is one)."""
    if pause is None:
        yield from papers
        return
    for start in range(0, len(papers), _PAUSE_EVERY):
        pause()
        yield from papers[start : start + _PAUSE_EVERY]


def _ids_weight(ids: Sequence[int]) -> int:
    """The bytes of a kept list of paper positions (an `array('I')`)."""
    return 64 + 4 * len(ids)
