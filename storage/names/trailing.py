"""A name set off by commas after a lead cue's whole description (for names.cues).

"We present a novel multi-agent framework for issue resolution, MAGIS, consisting of ...",
"we propose a unified model with a single set of parameters, Spider, which ...": the cue
introduces a thing by its kind ("framework", "model") and a few words about it, then names
it between commas. The kind need not stand right before the name (`cues._APPOSITIVE` finds
"a new optimizer, Lion, ..."), so this looks past the description to its first comma.
"""

from __future__ import annotations

import re

from papershelf.storage.names.words import (
    ACRONYM,
    NOUNS,
    TOKEN,
    Candidate,
    capitalised,
    expansion_start,
    is_generic,
    namelike,
    strip_token,
)

TRAILING_SCORE = 4  # good evidence, below a name the cue itself sets off (5)
_MAX_WORDS = 14  # words of a description before its name; longer runs are a sentence's own
# The description: an indefinite or definite noun phrase right after the cue.
_ARTICLE = re.compile(r"\s*(?:an?|the)\s", re.IGNORECASE)
_KIND = re.compile(r"\b(?:" + NOUNS + r")s?\b", re.IGNORECASE)
# What follows a name set off at the description's end: a comma, an acronym or a relative
# clause ("MAGIS, consisting", "Spider, which", "Atlas (ours)", "Kite that ...").
_CLOSES = re.compile(r",\s|\s\(|\s+(?:which|that|whose)\s|\.(?:\s|$)")
# Descriptions that open a list of examples or compared systems, not a name.
_LISTS = re.compile(
    r"\b(?:such as|including|e\.g\.|i\.e\.|for example|for instance|namely|between|versus|vs)\b"
    r"|\blike$"
)
# A list going on after the name: ", Llama, and ..." or ", GPT-4, ...", ", and Mistral".
_LIST_GOES_ON = re.compile(r",\s+(?:(?:and|or)\s+[^\W_a-z]|[^\W_a-z][^\s,]*(?:,|\s+and\s|\s+or\s))")


def trailing_name(text: str, start: int, stop: int) -> Candidate | None:
    """The name set off by commas after the description a lead cue begins at `start`."""
    if _ARTICLE.match(text, start) is None:
        return None
    comma = text.find(", ", start, stop)
    if comma < 0:
        return None
    # The name first (cheap, and most commas have none after them), then the description.
    token = TOKEN.match(text, comma + 2)
    if token is None or token.group().islower():
        return None
    name = strip_token(token.group())
    if not name or is_generic(name) or not (namelike(name) or capitalised(name)):
        return None
    end = comma + 2 + token.group().find(name) + len(name)
    if _CLOSES.match(text, end) is None or _LIST_GOES_ON.match(text, end):
        return None
    description = text[start:comma]
    if (
        len(description.split()) > _MAX_WORDS
        or any(mark in description for mark in ";:()")
        or _LISTS.search(description.rstrip().lower())
        or _KIND.search(description) is None
    ):
        return None
    # "a novel loss function, Uncertainty-Focal-Cross-Entropy (UFCE), ...": the acronym its
    # letters spell is the name (the issue's `Long Name (ACR)` rule).
    short = ACRONYM.match(text, end + 1) if text.startswith(" (", end) else None
    if short:
        acronym = strip_token(short.group(1))
        spelled = expansion_start(acronym, text, short.start())
        if namelike(acronym) and spelled is not None and spelled >= comma + 2:
            return TRAILING_SCORE, short.start(1), acronym
    return TRAILING_SCORE, comma + 2, name
