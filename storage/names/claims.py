"""A coined name the abstract's results claim speaks of (for names.derive's guesses).

"Extensive evaluations demonstrate that PF3plat sets a new state-of-the-art", "our LLM-CXR
trained in this approach shows better alignment", "Experiments show our StreamVAE outperforms
...": papers that never introduce their method with a cue still say what wins. A coined word
(namelike: PF3plat, LLM-CXR) as the subject of a winning verb, after "that", "our" or a
sentence start, is the method's name when no cue states one; a plain word never is.
"""

from __future__ import annotations

import re

from papershelf.storage.names.words import is_generic, namelike, strip_token, two_capitals
from papershelf.storage.text.scan import finditer_at, literal_starts

# "that PF3plat sets", "our LLM-CXR trained ... shows", ". SlimNet achieves": what begins the
# subject, the coined word, then (after at most a few words) a verb of winning.
_CLAIM = re.compile(
    r"(?:\bthat\s+(?:our\s+)?|\b[Oo]ur\s+(?:proposed\s+|new\s+)?|(?:^|[.!?]\s+))"
    r"(?P<name>[^\s,;:()]+)"
    r"(?:\s+[a-z][\w-]*){0,5}?\s+"
    r"(?:consistently\s+|significantly\s+|substantially\s+|also\s+|not only\s+)?"
    r"(?:achiev|outperform|surpass|set|sets|establish|attain|reach|improv|beat|exceed|"
    r"deliver|yield|show|demonstrat|match|rival|obtain)\w*\b"
)
_WORDS = ("achiev", "outperform", "surpass", " sets ", "establish", "attain", "improv", "exceed")


# Every _CLAIM match begins at one of these (or at 0): tried only there, not at every position.
_CLAIM_STARTS = ("that ", "our ", "Our ", ". ", "! ", "? ")


def claimed_name(text: str) -> str | None:
    """The first coined word a results claim makes its subject, or None."""
    lowered = text.lower()
    if not any(word in lowered for word in _WORDS) and " show" not in lowered:
        return None  # no claim of winning at all (no scan)
    starts = [0, *literal_starts(text, _CLAIM_STARTS)]
    for match in finditer_at(_CLAIM, text, starts):
        name = strip_token(match.group("name"))
        if namelike(name) and not is_generic(name) and not two_capitals(name):
            return name
    return None
