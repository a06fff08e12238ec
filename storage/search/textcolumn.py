"""`TextColumn`: the folded text of many rows (one per paper, or per marked-up abstract), for
exact (`'`) and prefix (`^`) terms, held once and compactly.

A `str` per paper costs ~57 bytes besides its characters, and one character outside Latin-1
(a Greek letter of a converted formula) makes a whole string two or four bytes a character.
At 100,000 papers the folded names, titles, author lists and marked-up abstracts, and the
sorted copies of the first three that the prefix tables held (new strings, and lists of int
objects), were ~120 MB. Here:

- long rows (`compact=True`: the marked-up abstracts) are slices of one UTF-8 `bytes`;
- short rows (names, titles, author lists) stay one `str` each: a C-level `in` over a list of
  strings is 2-3x faster than `bytes.find` within each row's bounds (5 against 18 ms for
  100k titles), and an exact term scans them on every key;
- either way a row's forms are located by offsets, and a prefix table is an array of forms in
  sorted order, not a sorted copy of the text.

Searching the UTF-8 bytes answers as searching the text does: UTF-8 encodes each character
alone and no character's bytes occur inside another's, so `value in text` exactly when
`value`'s bytes are in `text`'s; and UTF-8 bytes sort as their characters do. Lone surrogates
(which a decoded `\\ud800` escape can leave) are kept with `surrogatepass`, which keeps both
properties. `tests/storage/test_search_textcolumn.py` checks every answer against plain lists.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import compress, repeat
from operator import contains

__all__ = ["TextColumn"]

_SEPARATOR = b"\n"
"""Between the forms of one row (as the engine joined them): no query value holds it."""


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


class TextColumn:
    """Rows of text, each one or more forms (`rows`: a list of forms per row, joined by a
    newline as the row's text); which rows contain a value, and which have a form starting
    with one. `compact`: one UTF-8 buffer (for long rows), else a string a row."""

    def __init__(self, rows: Iterable[Sequence[str]], compact: bool = False) -> None:
        # Grown in place, never joined from parts: a join held the text twice at its peak.
        blob = bytearray()
        texts: list[str] = []
        bounds = array("Q", [0])
        # Where each form lies: bytes in the buffer, or characters in its row's string.
        offset = "Q" if compact else "I"
        form_starts, form_ends, form_rows = array(offset), array(offset), array("I")
        at = 0
        for row, forms in enumerate(rows):
            if not compact:
                at = 0
            for number, form in enumerate(forms):
                if number:
                    at += 1  # the newline
                form_starts.append(at)
                if compact:
                    if number:
                        blob += _SEPARATOR
                    blob += _encode(form)
                    at = len(blob)
                else:
                    at += len(form)
                form_ends.append(at)
                form_rows.append(row)
            if compact:
                bounds.append(at)
            else:
                texts.append("\n".join(forms))
        self._compact = compact
        self._blob: bytes | bytearray = blob
        """The compact rows' UTF-8 text (never changed once made)."""
        self._texts = texts
        self._starts = bounds[:-1]
        self._ends = bounds[1:]
        self._form_starts = form_starts
        self._form_ends = form_ends
        self._form_rows = form_rows
        self._sorted: array[int] | None = None

    @classmethod
    def of_compact(cls, blob: bytes | bytearray, bounds: array[int]) -> TextColumn:
        """A compact column of one form a row, row `r` being `blob[bounds[r]:bounds[r + 1]]`
        (what `compact_parts` gave, e.g. read back from a cache): the buffer is kept, not
        copied. The caller has checked that `bounds` start at 0, never go down and end at
        `len(blob)`."""
        column = cls((), compact=True)
        column._blob = blob
        column._starts = bounds[:-1]
        column._ends = bounds[1:]
        column._form_starts = array("Q", column._starts)
        column._form_ends = array("Q", column._ends)
        column._form_rows = array("I", range(len(column._starts)))
        return column

    def compact_parts(self) -> tuple[bytes | bytearray, array[int]]:
        """A compact column of one form a row as its UTF-8 text and the rows' bounds (what
        `of_compact` takes)."""
        if not self._compact or len(self._form_rows) != len(self._starts):
            raise ValueError("only a compact column of one form a row has these parts")
        bounds = array("Q", self._starts)
        bounds.append(self._ends[-1] if self._ends else 0)
        return self._blob, bounds

    def __len__(self) -> int:
        return len(self._starts) if self._compact else len(self._texts)

    @property
    def nbytes(self) -> int:
        """About the bytes the column holds (text, offsets, the prefix table once made)."""
        arrays = (self._starts, self._ends, self._form_starts, self._form_ends, self._form_rows)
        held = len(self._blob) + sum(a.itemsize * len(a) for a in arrays)
        held += sum(map(sys.getsizeof, self._texts)) + 8 * len(self._texts)
        return held + (4 * len(self._sorted) if self._sorted is not None else 0)

    def row(self, row: int) -> str:
        """Row `row`'s forms, newline-joined (as the engine's plain list held them)."""
        if not self._compact:
            return self._texts[row]
        data = self._blob[self._starts[row] : self._ends[row]]
        return data.decode("utf-8", "surrogatepass")

    def containing(self, value: str, within: Sequence[int] | None = None) -> array[int]:
        """The rows (ascending when `within` is) whose text, any form or across the newline
        between two, contains `value`; `within`: look only at these rows."""
        if not self._compact:
            texts = self._texts
            # C-level loops (compress over map): a Python loop cost as much as the search
            # itself over 100k abstracts.
            if within is None:
                held = map(contains, texts, repeat(value))
                return array("I", compress(range(len(texts)), held))
            held = map(contains, map(texts.__getitem__, within), repeat(value))
            return array("I", compress(within, held))
        find, data = self._blob.find, _encode(value)
        # C-level loops (compress over map) with the row's bounds given to `find`: nothing is
        # copied, and no Python code runs per row.
        if within is None:
            rows: Iterable[int] = range(len(self._starts))
            starts: Iterable[int] = self._starts
            ends: Iterable[int] = self._ends
        else:
            rows = within
            starts = map(self._starts.__getitem__, within)
            ends = map(self._ends.__getitem__, within)
        found = map((-1).__ne__, map(find, repeat(data), starts, ends))
        return array("I", compress(rows, found))

    def starting(self, value: str) -> list[int]:
        """The rows with a form starting with `value`, ascending (bisect over the forms in
        sorted order, which is made on first use)."""
        order = self._sorted
        if order is None:
            order = self._sorted = self._sort_forms()
        if not order:
            return []
        if self._compact:
            data = _encode(value)
            lo = bisect_left(order, data, key=self._form_bytes)
            # b"\xff" occurs in no UTF-8: every form starting with `value` sorts below this.
            hi = bisect_left(order, data + b"\xff", lo, key=self._form_bytes)
        else:
            key = self._form_text
            lo = bisect_left(order, value, key=key)
            hi = bisect_left(order, value + "\U0010ffff", lo, key=key)
            # A form may start with `value` and go on with U+10FFFF itself: not below that.
            while hi < len(order) and key(order[hi]).startswith(value):
                hi += 1
        return sorted(set(map(self._form_rows.__getitem__, order[lo:hi])))

    @property
    def sorted_forms(self) -> array[int] | None:
        """The forms in sorted order (`starting`'s table), once made; None before."""
        return self._sorted

    def take_sorted_forms(self, order: array[int]) -> bool:
        """Use `order` as the forms in sorted order (what `sorted_forms` gave for the same rows,
        kept by `search.warm_cache`, which checks that it is a permutation): sorting 100k titles
        held the interpreter for 0.1-0.15 s. False, keeping nothing, when it does not fit this
        column (another number of forms, or one past them)."""
        if len(order) != len(self._form_starts) or (order and max(order) >= len(order)):
            return False
        self._sorted = order
        return True

    def _form_bytes(self, form: int) -> bytes:
        return bytes(self._blob[self._form_starts[form] : self._form_ends[form]])

    def _form_text(self, form: int) -> str:
        start, end = self._form_starts[form], self._form_ends[form]
        return self._texts[self._form_rows[form]][start:end]

    def _sort_forms(self) -> array[int]:
        forms = range(len(self._form_starts))
        if self._compact:
            return array("I", sorted(forms, key=self._form_bytes))
        return array("I", sorted(forms, key=self._form_text))
