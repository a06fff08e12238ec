"""Acronyms whose letters the long form marks (for names.cues): the issue's `Long Form (ACR)`
rule where the author shows which letters make the short form.

"\\textbf{L}earnable \\textbf{I}n-Context \\textbf{Ve}ctor (LIVE)", "CoLiDE (**Co**ncomitant
**Li**near **D**AG **E**stimation)": bold or code fragments of words that spell an acronym
next to them say that the acronym is the name the paper coins, surely as "we propose X, a ...".
The fragments themselves ("Ve", "Co") name nothing.
"""

from __future__ import annotations

import re

from papershelf.storage.names.words import MAX_NAME, Candidate, strip_token

MARKED_SCORE = 6  # as sure as a name a lead cue sets off ("we propose X, a ...")
_MAX_GAP = 40  # characters between two marked fragments of one long form
_MAX_MARK = 4  # letters marked at once: "**Co**ncomitant", "vi**si**on"
_KEY_PARTS = re.compile(r"[^\W_]+")
# The acronym right after the long form's last word: "... Vector (LIVE)".
_AFTER = re.compile(r"[^\s(),;:]*\s?\(\s?([^()\s]{2,25})\s?\)")
# The acronym right before the long form: "CoLiDE (Concomitant ...".
_BEFORE = re.compile(r"([^()\s]{2,25})\s?\(\s?[^\s()]*$")


def _key(text: str) -> str:
    """Letters and digits only, case folded: "C-GAIL" and "cgail" are one key."""
    return "".join(_KEY_PARTS.findall(text)).casefold()


def _inside(text: str, start: int, end: int) -> bool:
    """Whether the span is part of a word ("**Ve**ctor"), not a whole one."""
    return (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum())


def _groups(text: str, styles: tuple[tuple[int, int, str], ...]) -> list[list[tuple[int, int]]]:
    """Runs of a few letters marked close together, with no sentence or bracket between, at
    least two of them inside words (a short word may be marked whole: "**In** **D**AGs")."""
    groups: list[list[tuple[int, int]]] = []
    for start, end, _ in styles:
        if not (0 < end - start <= _MAX_MARK and text[start:end].isalnum()):
            continue
        if groups:
            last = groups[-1][-1][1]
            gap = text[last:start]
            if start - last <= _MAX_GAP and not any(ch in gap for ch in "().;!?"):
                groups[-1].append((start, end))
                continue
        groups.append([(start, end)])
    return [group for group in groups if sum(_inside(text, *span) for span in group) >= 2]


def marked_acronyms(text: str, styles: tuple[tuple[int, int, str], ...]) -> list[Candidate]:
    """(score, position, acronym) for every acronym a long form next to it spells by marked
    letters, after it ("... Ve**ctor (LIVE)") or before it ("CoLiDE (**Co**ncomitant ...)")."""
    found: list[Candidate] = []
    for group in _groups(text, styles):
        spelled = "".join(text[start:end] for start, end in group)
        if spelled.islower():
            # "the **i**nexact **s**tochastic **p**roximal **p**oint **a**lgorithm (isPPA)":
            # lower-case words, a term in use (as `derive._term` has it), not a coined name.
            continue
        letters = _key(spelled)
        first, last = group[0][0], group[-1][1]
        after = _AFTER.match(text, last)
        word_start = text.rfind(" ", 0, first) + 1
        before = _BEFORE.search(text, max(0, word_start - 30), first)
        for match in (after, before):
            if match is None:
                continue
            acronym = strip_token(match.group(1))
            if _key(acronym) != letters or not 2 <= len(acronym) <= MAX_NAME:
                continue
            if not acronym[0].isalnum():
                # "(\norm)": a macro the abstract never defines; the marked letters, in their
                # own case, are the name it stands for ("**No**ise ... **R**eserved **M**ajority").
                acronym = spelled
            found.append((MARKED_SCORE, match.start(1), acronym))
            break
    return found
