"""Text as searches and name lookups compare it: `K²IE` as `k2ie`, `Déjà` as `deja`, any case,
and the letters people type without their stroke or as two letters: `Łukasz` as `lukasz`,
`Søren` as `soren`, `Æsop` as `aesop`, `Œuvre` as `oeuvre`, `Straße` as `strasse`.

Compatibility forms are unfolded (NFKD), accents dropped, case folded (which already makes
`ß` `ss`), then the letters NFKD keeps whole are replaced (`_LETTERS`). The search index and
the listing cache store folded text: a change here must bump their formats
(`search.index._FILE_FORMAT`, `search.listing.FORMAT`) so old caches are rebuilt.

Pure Python; imports nothing of papershelf.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["fold"]

_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_LETTERS = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "æ": "ae", "œ": "oe", "þ": "th"}
)
"""Letters a person types without their stroke (`lukasz` for Łukasz, `soren` for Søren) or as
the two letters they join (`aesop` for Æsop), which NFKD keeps whole: they are letters of their
own there, not a base letter and an accent (case folded first, so only the lower case is
listed; `ß` is `ss` by case folding)."""
_STROKED = re.compile("[łøđðħæœþ]")
"""Any of `_LETTERS`' keys."""


def fold(text: str) -> str:
    """`text` folded as the module says; ASCII text is only lower-cased (same length)."""
    if text.isascii():
        return text.lower()
    folded = _COMBINING.sub("", unicodedata.normalize("NFKD", text)).casefold()
    # `translate` with a dict steps through the text in Python-level lookups (40 us for an
    # abstract, 1.5 s of the warm-up at 100k papers); most text has none of these letters.
    return folded.translate(_LETTERS) if _STROKED.search(folded) else folded
