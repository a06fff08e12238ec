"""Fast regex scans for ingest: a pattern tried only where a match can begin.

`pattern.finditer(text)` tries the pattern at every position; for patterns that begin with a
word boundary, a lookbehind or case-insensitive letters, Python's regex engine cannot skip ahead,
and a scan costs about a microsecond per 10 characters. When every match must begin with one of
a few literal strings, `str.find` locates those places far faster, and the pattern is tried
there alone, with the same result. Many literals are found in one pass (Aho-Corasick, by
`ahocorasick_rs`) rather than one `str.find` pass each.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from functools import lru_cache

from ahocorasick_rs import AhoCorasick, MatchKind

# The only non-ASCII characters that a case-insensitive regex matches to an ASCII letter
# (dotted and dotless I, long s, Kelvin sign); a test checks every code point.
_LOOKALIKES = {0x130: "i", 0x131: "i", 0x17F: "s", 0x212A: "k"}


def ascii_fold(text: str) -> str:
    """The text lower-cased, with the same length, for finding where a case-insensitive regex
    can match ASCII words: each position holds the ASCII letter a `re.IGNORECASE` pattern's
    letter would match there, and each other non-ASCII character is `?`."""
    if text.isascii():
        return text.lower()
    if any(chr(code) in text for code in _LOOKALIKES):
        text = text.translate(_LOOKALIKES)
    # str.lower() is not used on non-ASCII text: "İ".lower() is two characters.
    return text.encode("ascii", "replace").decode("ascii").lower()


def case_fold(text: str) -> str:
    """The text lower-cased with the same length, for a case-sensitive twin of an IGNORECASE
    pattern whose letters are all lower-case ASCII: each position holds the ASCII letter such
    a pattern's letter would match there (the look-alikes too), and every other character its
    lower case, which is never ASCII and is a word or space character as the original was (a
    test checks every code point). `ascii_fold` for ASCII text."""
    if text.isascii():
        return text.lower()
    if any(chr(code) in text for code in _LOOKALIKES):
        text = text.translate(_LOOKALIKES)  # "İ".lower() would be two characters
    return text.lower()


def literal_starts(text: str, literals: Iterable[str]) -> list[int]:
    """Every position where one of the literals begins (overlapping ones included), sorted."""
    key = literals if isinstance(literals, tuple) else tuple(literals)
    if len(key) >= _MANY_LITERALS and "" not in key:  # (the automaton refuses "")
        try:
            found = _automaton(key).find_matches_as_indexes(text, overlapping=True)
        except UnicodeEncodeError:  # a lone surrogate: no UTF-8 for the automaton
            pass
        else:
            starts = [start for _, start, _ in found]
            starts.sort()
            return starts
    return _found_starts(text, key)


_MANY_LITERALS = 4
"""From this many literals on, one Aho-Corasick pass finds them: each `str.find` is a pass of
its own over the text (~1.5 us over an abstract however rare the literal), so the 21 cue words
cost ~22 us an abstract by `str.find` and ~6 us in one pass. Fewer literals gain little."""


@lru_cache(maxsize=64)  # a handful of literal sets, each a module constant
def _automaton(literals: tuple[str, ...]) -> AhoCorasick:
    # Standard match kind: with overlapping=True it reports every occurrence of every
    # literal, as the `str.find` loop does (a literal twice in the set: its starts twice).
    return AhoCorasick(literals, matchkind=MatchKind.Standard)


def _found_starts(text: str, literals: tuple[str, ...]) -> list[int]:
    """`literal_starts` by one `str.find` pass a literal (any text, any literal, even "")."""
    starts: list[int] = []
    for literal in literals:
        index = text.find(literal)
        while index >= 0:
            starts.append(index)
            index = text.find(literal, index + 1)
    starts.sort()
    return starts


def finditer_at(
    pattern: re.Pattern[str], text: str, starts: list[int], pos: int = 0
) -> list[re.Match[str]]:
    """`list(pattern.finditer(text, pos))`, given every position where a match could begin.

    `starts` (sorted) must include each position where `pattern` can match: then this finds the
    same matches. The pattern is matched against the whole text, so lookbehinds and `\\b` see the
    characters before each start. Patterns that can match the empty string are not supported.
    """
    matches: list[re.Match[str]] = []
    end = pos
    for start in starts:
        # finditer's rule: the next match begins at or after the end of the previous one.
        if start >= end and (match := pattern.match(text, start)) is not None:
            matches.append(match)
            end = match.end()
    return matches


def paired_matches(
    pattern: re.Pattern[str], closers: dict[str, re.Pattern[str]], text: str
) -> list[re.Match[str]]:
    """`list(pattern.finditer(text))` for an emphasis pattern `M(?=...)(.+?)(?<=...)M`, in
    linear time.

    `closers` maps each opening marker M to a pattern that matches where the lazy `.+?` may
    stop: its lookbehind and the closing marker. Scanning for a closer that never comes makes
    the plain scan quadratic (`*a *a *a ...` takes seconds); here the pattern is tried only
    when a closer follows with no line break (which `.` does not cross) before it, and then
    the lazy scan stops at that closer, so each character is scanned about once.
    """
    starts = literal_starts(text, closers)
    ends = {
        marker: [start for start in starts if closer.match(text, start)]
        for marker, closer in closers.items()
    }
    matches: list[re.Match[str]] = []
    end = 0
    for start in starts:
        if start < end:
            continue
        marker = next(marker for marker in closers if text.startswith(marker, start))
        # The first closer after the marker and at least one character of content.
        candidates = ends[marker]
        index = bisect_left(candidates, start + len(marker) + 1)
        if index == len(candidates) or text.find("\n", start, candidates[index]) >= 0:
            continue
        match = pattern.match(text, start)
        if match is not None:
            matches.append(match)
            end = match.end()
    return matches


_TRIE_ALTERNATIVE = re.compile(r"(?:[a-z]\??|\[[a-z]+\])+")


def letter_trie(alternation: str) -> str | None:
    """The words of a regex alternation of lower-case words ("method|optimi[sz]er|m?llm") as
    one that branches a letter at a time ("m(?:ethod|llm)|optimi(?:ser|zer)|llm"), or None when
    an alternative holds anything but letters, a letter made optional ("m?") or a class of
    letters ("[sz]").

    Python's regex engine tries an alternation's branches in turn, each skipped at once when its
    first letter differs: 50 words are 50 tries at every word of a text, the trie about 15. It
    matches the same words; which of two words wins where both match ("tool", "toolkit") is
    the trie's order, not the alternation's, so use it where only one word can lead to a match
    (a word followed by what no letter may start).
    """
    words: set[str] = set()
    for alternative in alternation.split("|"):
        if not _TRIE_ALTERNATIVE.fullmatch(alternative):
            return None
        spelled = [""]
        for part in re.findall(r"\[[a-z]+\]|[a-z]\??", alternative):
            if part.startswith("["):
                choices = list(part[1:-1])
            elif part.endswith("?"):
                choices = ["", part[0]]
            else:
                choices = [part]
            spelled = [done + choice for done in spelled for choice in choices]
        words.update(spelled)
    if "" in words:
        return None  # an alternative that matches nothing is no word
    return _trie(sorted(words))


def _trie(words: list[str]) -> str:
    """Non-empty sorted words as an alternation branching on their first letters."""
    branches: list[str] = []
    for letter in sorted({word[0] for word in words}):
        rests = [word[1:] for word in words if word[0] == letter]
        if len(rests) == 1:
            branches.append(letter + rests[0])  # one word: no branch left to make
            continue
        inner = _trie([rest for rest in rests if rest])
        branches.append(letter + "(?:" + inner + ")" + ("?" if "" in rests else ""))
    return "|".join(branches)
