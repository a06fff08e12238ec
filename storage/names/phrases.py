"""Phrases a cue may introduce as a name (for names.cues): lower-case names ("we introduce
einspace, a ..."), capitalised words with their kind ("the Connect Later framework") or said
again ("we propose Beam Enumeration to ..."), and quoted phrases ('a novel "Relax and Merge"
framework'). Each returns the name, or None.
"""

from __future__ import annotations

import re

from papershelf.storage.names.words import (
    DESCRIBED,
    LOWER_PHRASE,
    MAX_NAME,
    PHRASE_STOP,
    SET_OFF,
    Candidate,
    capitalised,
    namelike,
)
from papershelf.storage.names.words import NOUNS as _NOUNS

# "we propose the Connect Later framework": one to four capitalised words and their kind.
_TYPED_PHRASE = re.compile(
    r"(?:the\s+)?((?:[A-Z][\w-]*\s+){0,3}[A-Z][\w-]*)\s+(?:" + _NOUNS + r")s?\b(?!\s*\()"
)


# Two to four capitalised words, then a lower-case word: "Beam Enumeration to enumerate".
_CAPITAL_RUN = re.compile(r"((?:[A-Z][\w-]*\s+){1,3}[A-Z][\w-]*)\s+[a-z]")


def said_again(text: str, start: int) -> str | None:
    """Capitalised words a lead cue introduces, not set off, that the text says again: "we
    propose Beam Enumeration to enumerate ... Beam Enumeration is general" (said once, they
    may be another's method the paper builds on)."""
    run = _CAPITAL_RUN.match(text, start)
    if not run or not all(capitalised(word) for word in run.group(1).split()):
        return None
    phrase = run.group(1)
    return phrase if text.find(phrase, run.end()) >= 0 else None


# One capitalised word, then a word that begins what the paper does with it: "we propose Zebra
# to sort", "we introduce Zebra that ...". (A content word after it, "Gaussian process", makes
# the capitalised word an adjective of a known thing.)
_WORD_THEN_CLAUSE = re.compile(
    r"([A-Z][a-z]+)\s+(?:to|for|that|which|by|via|with|on|in|as|using|where|whose)\s"
)


def said_again_word(text: str, start: int) -> str | None:
    """One capitalised word a lead cue introduces, then a clause, that the text says again as
    a word: "we propose Zebra to sort ... Zebra is fast" (said once it may be a known
    thing the paper proposes to use)."""
    match = _WORD_THEN_CLAUSE.match(text, start)
    if not match or not capitalised(word := match.group(1)):
        return None
    index = text.find(word, match.end())
    while index >= 0:
        end = index + len(word)
        if not text[index - 1].isalnum() and (end == len(text) or not text[end].isalnum()):
            return word
        index = text.find(word, end)
    return None


def typed_phrase(text: str, start: int) -> str | None:
    """A capitalised phrase a lead cue introduces as a kind of thing: "we propose the Adaptive
    Rank Allocation framework" (what "the FedLMT framework" is for a coined word)."""
    typed = _TYPED_PHRASE.match(text, start)
    if not typed:
        return None
    words = typed.group(1).split()
    if not all(capitalised(word) for word in words):
        return None  # "the The ...", "a New ...": common capitals are no name's words
    if len(words) == 1 and text.find(words[0], typed.end()) < 0:
        return None  # one word said once ("we present the Bellman operator"): not shown its
    return typed.group(1)


# A quoted phrase and its kind right after a cue: 'a novel ``Relax and Merge'' framework',
# 'the "shadow cones" framework' (a few lower-case words may come first).
_QUOTED_KIND = re.compile(
    r"\s+(?:[a-z-]+\s+){0,3}?(?:``|\"|\u201c)([^`\"\u201c\u201d']{2,40}?)(?:''|\"|\u201d)(?:\s+(?:"
    + _NOUNS
    # or set off and described: 'we propose "flexible gates", a gated network'
    + r")s?\b|(?=\s*(?:,|:|--|\u2014)\s*(?:an?|the)\s))"
)


def quoted_name(text: str, window_start: int) -> Candidate | None:
    """'we propose a novel ``Relax and Merge'' framework': the quotes make the words a name."""
    if text[window_start : window_start + 40].find("`") < 0 and not any(
        quote in text[window_start : window_start + 40] for quote in ('"', "\u201c")
    ):
        return None  # no quote close after the cue (most cues): no scan
    quoted = _QUOTED_KIND.match(text, window_start)
    phrase = quoted.group(1).strip() if quoted else ""
    if not quoted or not 1 <= len(phrase.split()) <= 4:
        return None
    if " " not in phrase and not namelike(phrase):
        return None  # 'a new "best" method': a word in quotes, not a coined one
    return (5, quoted.start(1), phrase[0].upper() + phrase[1:])


def lower_name(text: str, start: int, naming: bool) -> str | None:
    """A lower-case name right after a cue: "we introduce einspace, a ...", "we propose
    position coupling, a ...", "a phenomenon we call catastrophic Goodhart."

    After "we propose" it must be set off by a comma, colon or dash and a description ("a",
    "an", "the"), or by a description without one when said again; after a naming cue, by
    any punctuation. A phrase begins with a capital. `start` is where the name may begin.
    """
    if start >= len(text):
        return None
    if naming and text[start].isupper():
        # "called SGD jittering, which ...", "an approach we call AI control.": a field's
        # acronym and lower-case words, named as one.
        caps = _CAPS_PHRASE.match(text, start)
        if caps and SET_OFF.match(text, caps.end(1)):
            words = caps.group(1).split()[1:]
            return None if any(word in PHRASE_STOP for word in words) else caps.group(1)
        return None
    if not text[start].islower():
        return None
    space = text.find(" ", start, start + 20)
    if text[start : space if space > 0 else start + 20] in PHRASE_STOP:
        return None  # "we propose a ...", "we introduce novel ...": most cues, at once
    phrase = LOWER_PHRASE.match(text, start)
    if not phrase:
        return None
    name, end = phrase.group(1), phrase.end(1)
    # "``flexible gates'' -- a ...", "we call ``neural phishing''.": the closing quote is not
    # the name's (what follows it is read after it, as before).
    name = name.rstrip("'")
    words = name.split()
    if any(word.lower() in PHRASE_STOP for word in words) or len(name) > MAX_NAME:
        return None
    if len(words) == 1 and (len(name) < 4 or not name.isalpha() or naming):
        return None  # "we call this superposition": a word, not a coined name
    if not (
        DESCRIBED.match(text, end)
        or (naming and SET_OFF.match(text, end))
        or (len(words) >= 2 and _APPOSED.match(text, end) and text.find(name, end) >= 0)
    ):
        return None
    return name if len(words) == 1 else name[0].upper() + name[1:]


# "called SGD jittering,": an acronym and one to three lower-case words.
_CAPS_PHRASE = re.compile(r"([A-Z]{2,5}(?: [a-z][\w'-]*){1,3}?)(?=\s*(?:[,:;.(]|--|\u2014|$))")
# "we introduce learning diagrams, graphical depictions of ...": a description without an
# article; the phrase must be said again (a name the paper keeps using).
_APPOSED = re.compile(r"\s*(?:,|:|--|\u2014)\s*[a-z]")
