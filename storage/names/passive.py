"""A name the paper makes in the passive voice (for names.cues): "In this paper, FlexNet is
proposed to ...", "A novel network, FlexNet, is introduced", "Flexible Network (FlexNet) is
presented".

The subject right before "is/are [adverb] proposed|introduced|presented" is the name when
it is a coined word (or a capitalised word the text says again).
Another's work is said otherwise: "was proposed", "has been proposed", "is proposed by Smith",
"introduced in [12]" are not read.
"""

from __future__ import annotations

import re

from papershelf.storage.names.words import NOUNS, Candidate, capitalised, namelike, strip_token

# ("designed", "developed" are not read: what known things are for, "VQ-VAEs are designed to
# compress", and results, "bounds are developed".)
PARTICIPLES = ("proposed", "introduced", "presented")
# What stands before the participle: "is", "are", an adverb ("is thus proposed").
_BEFORE = re.compile(
    r"(?:^|\s)(?:is|are)\s+(?:(?:\w+ly|also|then|thus|hence|therefore|further|first|here|"
    r"herein|now)\s+)?$"
)
# Another's work: "is proposed by Smith", "introduced in [12]" (but "in this paper" is ours).
_ELSEWHERE = re.compile(r"\s+(?:by\b|in\s+(?!this\b|the present\b))", re.IGNORECASE)
_KIND = re.compile(r"(?:" + NOUNS + r")s?", re.IGNORECASE)
_WORD_END = re.compile(r"[a-z]+")
# Good evidence, below "we propose X": "a novel learner, VWA, is presented" may be a part.
_SCORE = 4


def passive_name(text: str, index: int) -> Candidate | None:
    """The name made in the passive voice by the participle at `index` ("proposed"), if any.

    Called where `names.cues` finds its cue words (each "proposed" is a bare cue), so no scan
    of its own."""
    if index == 0 or text[index - 1] != " ":
        return None  # inside a word ("unproposed"), or no subject before it
    before = _BEFORE.search(text, max(0, index - 24), index)
    if before is None:
        return None  # "the proposed", "we introduced": most participles
    end = _WORD_END.match(text, index)
    if end is None or end.group() not in PARTICIPLES or _ELSEWHERE.match(text, end.end()):
        return None
    low = max(0, before.start() - 80)
    subject = text[low : before.start()].rstrip().rstrip(",")
    words = subject.split()
    if len(words) >= 2 and _KIND.fullmatch(words[-1]) and not words[-1].endswith("s"):
        # "the FlexNet framework is proposed" ("ENAS methods are proposed": a class).
        words.pop()
    if not words:
        return None
    token = words[-1]
    name = strip_token(strip_token(token).strip("()[]"))  # "{\\sc ... (BNS)}"
    at = low + subject.rfind(token) + token.find(name)
    if namelike(name) or (capitalised(name) and text.find(name, index) >= 0):
        return (_SCORE, at, name)
    return None
