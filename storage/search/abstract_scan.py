"""Exact (`'`) terms in the abstracts without a folded copy of every abstract in memory.

An exact term looks for its folded value in each abstract as shown and folded
(`fold_text(shown_text(abstract))`). Holding that text for every paper was a second copy of
the corpus (~130 MB at 100,000 papers) once the abstracts themselves stayed in papers.json
(`caches.abstracts`). It splits the papers in two:

- a *plain* abstract (no math, LaTeX command or Markdown emphasis: `titles.marked_up` is
  false, 7 in 10 of the real corpus) is shown as written, so its folded text is
  `fold_text(abstract)`, and the search index's abstract column holds exactly the tokens
  (`TOKEN_RE`, maximal runs of letters and digits) of that text. A value made of one such run
  lies inside one of those tokens wherever it occurs: the papers holding it are those whose
  abstract has a vocabulary token containing it, answered from the index without reading an
  abstract. A value of several runs (`'"diffusion model"`) is looked for among the papers
  holding every run, each abstract read (from papers.json) and compared whole; a value with no
  run at all (`'-`) reads every plain abstract.
- a *marked-up* abstract's folded text is kept, as before, and compared directly; all of
  them as one compact `TextColumn` (UTF-8, not a string each: a converted formula's Greek
  letter made a whole string two bytes a character). Those with math or a LaTeX command
  (`$`, `\\`) have the words of their text as shown in the index too, and the `source` column
  says which of their words only the source holds: a value of one run of two characters or
  more is answered for them from the index, reading only the text of those whose every
  matching word may be source alone (`_latex`).

Everything here is a bitset over the papers (`bits`); `SearchEngine` keeps each value's and
makes each letter's at its warm-up. The common tokens' postings (bitsets) are ORed before the
rare ones (`_made`): for a letter they leave a handful of plain papers, which are read.

The answer is the same set of papers the full copy gave; `tests/storage/test_abstract_scan.py`
compares them on every value of a corpus.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import contains

from papershelf.storage.model import Paper
from papershelf.storage.search.index import SearchIndex
from papershelf.storage.search.lru import Lru, bitset_weight
from papershelf.storage.search.parse import TOKEN_RE, fold_text
from papershelf.storage.search.postings import bits_to_ids, ids_to_bits
from papershelf.storage.search.textcolumn import TextColumn
from papershelf.storage.text.titles import marked_up, shown_text

__all__ = ["AbstractScan", "ScanParts"]

_PIECE_CACHE_SIZE = 64
_PIECE_CACHE_BYTES = 4 << 20
"""Pieces' papers kept (bitsets: 12.5 KB each at 100k papers)."""
_READ_LEFT = 256
"""A letter's plain papers no common token covers are read one by one up to this many (a
read, folded and searched abstract ~10 us; ORing the rare tokens' ids ~60 ns an id)."""
_LATEX_FROM_CHARS = 2
"""A value of one run this long or longer finds the abstracts with LaTeX from the index
(`_latex`); one character (`'d`, in nearly every token) reads them, once, at the warm-up."""
_PAUSE_EVERY = 1024
"""Papers read between two calls of the warm-up's `pause`."""
_PAUSE_EVERY_SHOWN = 32
"""Abstracts converted as shown between two calls of `pause` (each LaTeX abstract takes ~0.15 ms
at 100k papers: a thousand were a 150 ms step, and a key typed meanwhile shared the interpreter
with it for that long)."""

Pause = Callable[[], None]
"""Called between steps of a long warm-up; returns when it may go on."""


@dataclass(frozen=True, slots=True)
class ScanParts:
    """What an `AbstractScan` read from the abstracts, as compact buffers (no object per
    paper): what `search.warm_cache` keeps so that the next start reads no abstract."""

    marked: array[int]
    """The positions of the marked-up abstracts, ascending (uint32)."""
    latex: array[int]
    """Those of them with math or a LaTeX command, ascending (uint32)."""
    other_rows: array[int]
    """The rows (in `marked`) of the others, ascending (uint32)."""
    text: bytes | bytearray
    """The marked-up abstracts' text as shown, folded, in UTF-8, back to back."""
    bounds: array[int]
    """Where each one's text starts in `text`, then where the last one ends (uint64)."""


class AbstractScan:
    """Which papers' abstracts (as shown, folded) contain a value; see the module."""

    def __init__(
        self, papers: Sequence[Paper], index: SearchIndex, pause: Pause | None = None
    ) -> None:
        """Reads every abstract once (the marked-up ones are kept folded); `pause()` is called
        every thousand papers or so (a warm-up that gives way to searches, see `SearchEngine`)."""
        self._papers = papers
        self._index = index
        self._size = len(papers)
        marked = array("I")
        latex: list[int] = []
        other_rows = array("I")
        for start in range(0, len(papers), _PAUSE_EVERY):
            if pause is not None:
                pause()
            for position in range(start, min(start + _PAUSE_EVERY, len(papers))):
                abstract = papers[position].abstract
                if not marked_up(abstract):
                    continue
                marked.append(position)
                if "$" in abstract or "\\" in abstract:
                    latex.append(position)
                else:
                    other_rows.append(len(marked) - 1)
        text = TextColumn(_folded_shown(papers, marked, pause), compact=True)
        self._hold(marked, array("I", latex), other_rows, text)

    @classmethod
    def restored(
        cls, papers: Sequence[Paper], index: SearchIndex, parts: ScanParts
    ) -> AbstractScan:
        """The scan whose `parts` these are (kept by `search.warm_cache`), without reading an
        abstract. The caller has checked the parts (positions ascending and in range, the
        text's bounds in order)."""
        scan = cls.__new__(cls)
        scan._papers = papers
        scan._index = index
        scan._size = len(papers)
        text = TextColumn.of_compact(parts.text, parts.bounds)
        scan._hold(parts.marked, parts.latex, parts.other_rows, text)
        return scan

    def parts(self) -> ScanParts:
        """What this scan read from the abstracts (see `ScanParts`)."""
        text, bounds = self._marked_text.compact_parts()
        return ScanParts(self._marked, self._latex_positions, self._other_rows, text, bounds)

    def _hold(
        self, marked: array[int], latex: array[int], other_rows: array[int], text: TextColumn
    ) -> None:
        size = self._size
        self._marked = marked
        """The positions of the marked-up abstracts, ascending."""
        self._marked_text = text
        """Their folded text as shown, row by row in `_marked`'s order."""
        self._marked_bits = ids_to_bits(marked, size)
        # Every paper that is not marked up is plain.
        self._plain_bits = ((1 << size) - 1) & ~self._marked_bits
        self._latex_positions = latex
        self._latex_bits = ids_to_bits(latex, size)
        """The marked-up abstracts with math or a LaTeX command: the index holds the words of
        their text as shown too, and those only their source has (`source`), see `_latex`."""
        self._other_rows = other_rows
        """The rows of `_marked_text` of the other marked-up abstracts (emphasis, `---`)."""
        self._dense: tuple[array[int], list[str]] | None = None
        self._pieces: Lru[str, int] = Lru(_PIECE_CACHE_BYTES, _PIECE_CACHE_SIZE, bitset_weight)

    def ids(self, value: str, within: Sequence[int] | None = None) -> list[int]:
        """Positions of the papers whose abstract contains `value` (folded), ascending;
        `within`: the answer is known to lie among these (a shorter value's papers)."""
        among = None if within is None else ids_to_bits(within, self._size)
        return bits_to_ids(self.bits(value, among))

    def bits(self, value: str, within: int | None = None) -> int:
        """`ids` as a bitset, `within` too: a key's papers stay bitsets from the index to the
        ranking (a list of 100k positions, sorted, packed and made a bitset again, cost more
        than the search itself for `'d`)."""
        size = self._size
        if not value:
            return (1 << size) - 1
        plain = self._plain_bits if within is None else self._plain_bits & within
        pieces = TOKEN_RE.findall(value)
        if not pieces:
            found = self._compared(plain, value)
        else:
            found = plain
            for piece in sorted(set(pieces), key=len, reverse=True):
                found &= self._containing(piece)
                if not found:
                    break
            if len(pieces) != 1 or pieces[0] != value:
                found = self._compared(found, value)
        if len(value) < _LATEX_FROM_CHARS or pieces != [value]:
            return found | self._marked_found(value, within, self._marked_bits)
        # One word's letters: the abstracts with LaTeX from the index, the rest read.
        marked = self._marked
        rows = self._marked_text.containing(value, self._other_rows)
        found |= self._latex(value) | ids_to_bits(map(marked.__getitem__, rows), self._size)
        return found if within is None else found & within

    def marked_bits(self, value: str, within: int) -> int:
        """Those of the papers `within` whose abstract is marked up and, as shown and folded,
        contains `value` (its text as kept here, not converted again)."""
        return self._marked_found(value, within, self._marked_bits) if within else 0

    def is_marked(self, position: int) -> bool:
        """Whether paper `position`'s abstract is marked up (its folded text kept here)."""
        return bool(self._marked_bits >> position & 1)

    def _latex(self, piece: str) -> int:
        """The abstracts with LaTeX (`_latex_bits`) whose text as shown, folded, contains
        `piece` (a run of letters and digits): those whose abstract column holds a token
        containing it, less those where each such token may be only in the source (`source`:
        their text is read, a few hundred for `'di` at 100k papers, where every one of the
        33,000 was). The index holds exactly the tokens of the text as written and as shown
        of these abstracts, and `source` those of the first not in the second."""
        key = "\x00" + piece  # no piece holds a NUL: apart from `_containing`'s
        bits = self._pieces.get(key)
        if bits is None:
            index = self._index
            held = self._column(piece) & self._latex_bits
            doubtful = held & index.tids_bits("source", index.vocabulary.containing(piece))
            read = self._marked_found(piece, doubtful, self._marked_bits) if doubtful else 0
            bits = self._pieces.put(key, held & ~doubtful | read)
        return bits

    def _marked_found(self, value: str, within: int | None, rows_of: int) -> int:
        """The marked-up abstracts of `rows_of` (and `within`) containing `value`, as a bitset
        of papers."""
        marked = self._marked
        rows = None
        among = rows_of if within is None else within & rows_of
        if among != self._marked_bits:
            positions = bits_to_ids(among)
            if len(positions) * 2 < len(marked):
                rows = [bisect_left(marked, position) for position in positions]
            # else: read every row (one C-level pass) and keep those of `within` below: a
            # Python step per row (bisect) cost more than the rows it spared.
        found = self._marked_text.containing(value, rows)
        bits = ids_to_bits(map(marked.__getitem__, found), self._size)
        return bits if rows is not None else bits & among

    def _compared(self, bits: int, value: str) -> int:
        """Those of the plain papers `bits` whose abstract (read now) contains `value`."""
        papers = self._papers
        found = [i for i in bits_to_ids(bits) if value in fold_text(papers[i].abstract)]
        return ids_to_bits(found, self._size)

    def _containing(self, piece: str) -> int:
        """The plain papers whose abstract column holds a token containing `piece` (a run of
        letters and digits), as a bitset: the same as those whose abstract (folded) contains
        `piece`, as a token is a maximal run of letters and digits.

        The tokens common enough to be kept as bitsets (a few thousand) are ORed first; the
        plain papers none of them covers are, for `'d` or `'e`, a handful, read one by one
        (`_READ_LEFT`), instead of ORing a million ids of the rare tokens holding the letter.
        """
        bits = self._pieces.get(piece)
        if bits is None:
            bits = self._pieces.put(piece, self._made(piece))
        return bits

    def _made(self, piece: str) -> int:
        """`_containing(piece)` worked out."""
        index, plain = self._index, self._plain_bits
        tids, tokens = self._dense_tokens()
        common = compress(tids, map(contains, tokens, repeat(piece)))
        bits = index.tids_bits("abstract", common) & plain
        left = plain & ~bits
        if left.bit_count() <= _READ_LEFT:
            return bits | self._compared(left, piece)
        return self._column(piece) & plain

    def _column(self, piece: str) -> int:
        """Every paper whose abstract column holds a token containing `piece` (kept: the
        plain and the LaTeX abstracts both ask)."""
        key = "\x01" + piece
        bits = self._pieces.get(key)
        if bits is None:
            index = self._index
            bits = index.tids_bits("abstract", index.vocabulary.containing(piece))
            self._pieces.put(key, bits)
        return bits

    def _dense_tokens(self) -> tuple[array[int], list[str]]:
        """The ids of the tokens whose abstract postings are bitsets (the common ones), and
        those tokens."""
        if self._dense is None:
            index = self._index
            tids = array("I", index.postings["abstract"].dense_tids())
            self._dense = (tids, list(map(index.vocab.__getitem__, tids)))
        return self._dense


def _folded_shown(
    papers: Sequence[Paper], positions: Sequence[int], pause: Pause | None
) -> Iterator[list[str]]:
    """Each of the papers at `positions`' abstract as shown, folded (one form a row)."""
    for number, position in enumerate(positions):
        if pause is not None and not number % _PAUSE_EVERY_SHOWN:
            pause()
        yield [fold_text(shown_text(papers[position].abstract))]
