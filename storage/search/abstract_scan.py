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
  letter made a whole string two bytes a character).

The answer is the same set of papers the full copy gave; `tests/storage/test_abstract_scan.py`
compares them on every value of a corpus.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Sequence
from itertools import accumulate

from papershelf.storage.model import Paper
from papershelf.storage.search.index import SearchIndex
from papershelf.storage.search.parse import TOKEN_RE, fold_text
from papershelf.storage.search.postings import bits_to_ids, ids_to_bits
from papershelf.storage.search.textcolumn import TextColumn
from papershelf.storage.text.titles import marked_up, shown_text

__all__ = ["AbstractScan"]

_PIECE_CACHE_SIZE = 64


class AbstractScan:
    """Which papers' abstracts (as shown, folded) contain a value; see the module."""

    def __init__(self, papers: Sequence[Paper], index: SearchIndex) -> None:
        """Reads every abstract once (the marked-up ones are kept folded)."""
        self._papers = papers
        self._index = index
        plain: list[int] = []
        marked = array("I")
        for position, paper in enumerate(papers):
            (marked if marked_up(paper.abstract) else plain).append(position)
        self._marked = marked
        """The positions of the marked-up abstracts, ascending."""
        self._marked_text = TextColumn(
            ([fold_text(shown_text(papers[position].abstract))] for position in marked),
            compact=True,
        )
        """Their folded text as shown, row by row in `_marked`'s order."""
        self._marked_bits = ids_to_bits(marked, len(papers))
        self._plain = plain
        self._plain_bits = ids_to_bits(plain, len(papers))
        self._vocabulary: tuple[str, list[int]] | None = None
        self._pieces: OrderedDict[str, int] = OrderedDict()

    def ids(self, value: str, within: Sequence[int] | None = None) -> list[int]:
        """Positions of the papers whose abstract contains `value` (folded), ascending;
        `within`: the answer is known to lie among these (a shorter value's papers)."""
        if not value:
            return list(range(len(self._papers)))
        pieces = TOKEN_RE.findall(value)
        if not pieces:
            candidates = self._plain if within is None else _among(self._plain_bits, within)
            found = self._compared(candidates, value)
        else:
            bits = self._plain_bits
            for piece in sorted(set(pieces), key=len, reverse=True):
                bits &= self._containing(piece)
                if not bits:
                    break
            if within is not None:
                bits &= ids_to_bits(within, len(self._papers))
            found = bits_to_ids(bits)
            if len(pieces) != 1 or pieces[0] != value:
                found = self._compared(found, value)
        found += self._marked_ids(value, within)
        return sorted(found)

    def is_marked(self, position: int) -> bool:
        """Whether paper `position`'s abstract is marked up (its folded text kept here)."""
        return bool(self._marked_bits >> position & 1)

    def _marked_ids(self, value: str, within: Sequence[int] | None) -> list[int]:
        """The marked-up abstracts (of `within`) containing `value`, as paper positions."""
        marked = self._marked
        rows = None
        if within is not None:
            among = bits_to_ids(ids_to_bits(within, len(self._papers)) & self._marked_bits)
            rows = [bisect_left(marked, position) for position in among]
        return list(map(marked.__getitem__, self._marked_text.containing(value, rows)))

    def _compared(self, positions: Sequence[int], value: str) -> list[int]:
        """Those of the plain `positions` whose abstract (read now) contains `value`."""
        papers = self._papers
        return [i for i in positions if value in fold_text(papers[i].abstract)]

    def _containing(self, piece: str) -> int:
        """Papers whose abstract column holds a token containing `piece` (a run of letters and
        digits), as a bitset."""
        bits = self._pieces.get(piece)
        if bits is not None:
            self._pieces.move_to_end(piece)
            return bits
        joined, starts = self._joined()
        tids: list[int] = []
        position = joined.find(piece)
        while position != -1:
            tid = bisect_left(starts, position + 1) - 1
            tids.append(tid)
            # On to the next token: one hit per token is enough.
            following = starts[tid + 1] if tid + 1 < len(starts) else len(joined)
            position = joined.find(piece, following)
        bits = self._index.tids_bits("abstract", tids) if tids else 0
        self._pieces[piece] = bits
        if len(self._pieces) > _PIECE_CACHE_SIZE:
            self._pieces.popitem(last=False)
        return bits

    def _joined(self) -> tuple[str, list[int]]:
        """Every vocabulary token, newline-joined, and where token id `i` starts."""
        if self._vocabulary is None:
            tokens = self._index.vocabulary.tokens
            joined = "\n" + "\n".join(tokens) + "\n"
            starts = list(accumulate(map((1).__add__, map(len, tokens)), initial=1))
            starts.pop()
            self._vocabulary = (joined, starts)
        return self._vocabulary


def _among(bits: int, within: Sequence[int]) -> list[int]:
    """The positions of `within` set in `bits`, ascending."""
    return [i for i in sorted(within) if bits >> i & 1]
