"""How surely an acronym in a cue's window names the method (for names.cues).

An acronym right after "we propose" whose letters the words before it spell names the method;
one further on abbreviates a topic. A long name an acronym then abbreviates is named by the
acronym ("Gated Spectral Token Mixer (GSTM)" is GSTM), a coined word keeps its own name.
"""

from __future__ import annotations

import re

from papershelf.storage.names.words import namelike, strip_token, two_capitals

_PUNCTUATION = re.compile(r"[,;:.]")
# What ends the words between a cue and a long name set off from them: "a new strategy, X",
# "a new approach - X (ACR) -", "a new approach: X".
_SET_OFF_ENDS = ",:-\u2013\u2014"


def acronym_score(text: str, window_start: int, start: int | None, match: re.Match[str]) -> int:
    """How surely an acronym in a cue's window names the method.

    With its expansion right after the cue ("we propose [a novel] Expansion Words (ACR)", or
    set off: "a new strategy, Expansion Words (ACR)") it does; an acronym further on ("...first
    study on adapting visual in-context learning (V-ICL)") is a topic's. One whose letters are
    not the words' ("the normalized Transformer (nGPT)") names it when close to the cue.
    """
    if start is not None:
        if start > 0 and text[start - 1] == "-" and "-" in match.group(1):
            # "direct-RLAIF (d-RLAIF)": the capitals begin inside a hyphenated word; read it whole.
            start = text.rfind(" ", 0, start) + 1
        word = strip_token(text[start : match.start()].strip())
        if (
            " " not in word
            and namelike(word)
            and not marks_letters(word, match.group(1))
            and not contracts(word, match.group(1))
        ):
            return 3  # "Prompting4Debugging (P4D)": the coined word is the name, not its short
        gap = text[window_start:start].split() if start >= window_start else None
        if gap is not None and (len(gap) <= 3 or (len(gap) <= 10 and gap[-1][-1] in _SET_OFF_ENDS)):
            return 5
        if gap is None and text[max(0, start - 4) : start].lower() == "our ":
            # "Our Dynamic Scene Transformer (DyST) model": the cue ("our ... transformer")
            # took in the long name itself.
            return 5
        return 2
    between = text[window_start : match.start()]
    if _PUNCTUATION.search(between):
        return 0
    words = between.split()
    if len(words) <= 12 and _DESCRIBED_AFTER.match(text, match.end()) and _begins(words, match):
        # "we propose the Instruct Time Transformer (ITFormer), a novel framework": the words
        # do not spell it, but the name the cue introduces and then describes is its short form.
        return 5
    return 4 if len(words) <= 6 else 0


# What follows a name the cue introduces: its description ("(ACR), a ...", "(ACR), which").
_DESCRIBED_AFTER = re.compile(r"\s*(?:,|--|\u2014)\s*(?:an?|the|which|that)\s")


def _begins(words: list[str], match: re.Match[str]) -> bool:
    """Whether a capitalised word of the long name begins with the acronym's first letter."""
    first = match.group(1)[:1].lower()
    return any(word[:1].isupper() and word[:1].lower() == first for word in words)


def spelled_out(
    text: str, start: int, name: str, acronyms: list[tuple[re.Match[str], int | None]]
) -> bool:
    """Whether the name at `start` begins a long name an acronym then abbreviates.

    "we introduce Pior-Informed Preference Alignment (PIPA)": the acronym names it; a coined
    word with its own abbreviation ("Cell2Sentence (C2S)") stays the name.
    """
    for match, expanded_at in acronyms:
        if expanded_at is None or match.start() <= start or two_capitals(match.group(1)):
            continue  # (a two-capital short form, "(PP)", names nothing: the words name it)
        between = text[start : match.start()]
        if len(between.split()) <= 8 and not _PUNCTUATION.search(between):
            word = strip_token(between.strip())
            return (
                " " in between.strip()
                or " " in name
                or marks_letters(word, match.group(1))
                or contracts(word, match.group(1))
            )
    return False


# A word part whose capitals mark letters of an English word: "PRInciples", "reSolution".
_MARKED_PART = re.compile(r"[A-Z]{2,}[a-z]{3,}|[a-z]+[A-Z]+[a-z]{2,}")


def marks_letters(word: str, acronym: str) -> bool:
    """Whether one hyphenated word is a long form that marks its acronym's letters by capitals
    inside its parts ("Situated-PRInciples (SPRI)"): the acronym names it, as it names a long
    name of several words; a coined word ("Cell2Sentence (C2S)", "GitHub") does not."""
    parts = word.split("-")
    if len(parts) < 2 or not any(_MARKED_PART.fullmatch(part) for part in parts):
        return False
    capitals = "".join(ch for ch in word if ch.isupper()).casefold()
    return capitals == "".join(ch for ch in acronym if ch.isalnum()).casefold()


def contracts(word: str, acronym: str) -> bool:
    """Whether the acronym shortens the hyphenated word's leading parts and keeps its last
    ("Controlled-GAIL (C-GAIL)", "Multi-Scale-ViT (MS-ViT)"): a short form the paper then
    uses, the name as for a long name of several words; a coined word with an abbreviation
    of its own ("Text-to-LoRA (T2L)") keeps its name."""
    parts, short = word.split("-"), acronym.split("-")
    if len(parts) < 2 or len(short) < 2 or parts[-1] != short[-1] or len(parts[-1]) < 2:
        return False
    if any(len(part) < 2 for part in parts[:-1]):
        return False  # each leading part a word, longer than its initial
    # The leading parts' initials, run together or one a part: "MS" or "M-S" for "Multi-Scale".
    initials = "".join(part[:1] for part in parts[:-1])
    return "".join(short[:-1]).casefold() == initials.casefold()
