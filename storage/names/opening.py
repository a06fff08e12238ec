"""A name an opening clause puts before "is a" (for names.cues): "To this end, Kraken is an
evolution of the Transformer ...", "In this work, RelGNN is a framework that ...".

`cues._lead_candidates` reads "X is a ..." where a sentence starts; papers often open the
sentence with a short clause first. The clause is short (two to eight words, no comma; of one
word, only "Here": "Intuitively, VC-dimension is a measure ..." explains a known concept), and
the name is coined, or a capitalised word the text says again: "In addition, this is a ..."
names nothing, and neither does a field's word said once ("In practice, Adam is an optimizer").
"""

from __future__ import annotations

import re

from papershelf.storage.names.words import capitalised, namelike, strip_token
from papershelf.storage.text.scan import literal_starts

Candidate = tuple[int, int, str]

_IS_A = (" is a ", " is an ")
_SENTENCE_END = re.compile(r"[.!?]\s*(?=[A-Z])")
_MAX_CLAUSE_WORDS = 8
_ONE_WORD_OPENINGS = frozenset(("Here", "Herein"))
_SCORE = 4  # as a name that starts its sentence ("Medusa is a ..."): good evidence


def opening_clause_names(text: str) -> list[Candidate]:
    """(score, position, name) for each "Opening clause, Name is a ..."."""
    found: list[Candidate] = []
    for index in literal_starts(text, _IS_A):
        head = text.rfind(" ", max(0, index - 41), index) + 1
        if head < 3 or text[head - 2 : head] != ", ":
            continue  # most "is a": no comma right before the name
        name = strip_token(text[head:index])
        if not name or not (namelike(name) or capitalised(name)):
            continue
        low = max(0, head - 120)
        # The last sentence end before it ("underutilized.Towards" lacks its space).
        start = max((m.end() for m in _SENTENCE_END.finditer(text, low, head)), default=low)
        clause = text[start : head - 2]
        words = clause.split()
        if not words or len(words) > _MAX_CLAUSE_WORDS or "," in clause:
            continue
        if len(words) == 1 and words[0] not in _ONE_WORD_OPENINGS:
            continue  # "Intuitively, VC-dimension is a measure ...": a known concept explained
        if not words[0][:1].isupper():
            continue  # the clause must open the sentence
        if namelike(name) or text.find(name, index) >= 0:
            found.append((_SCORE, head, name))
    return found
