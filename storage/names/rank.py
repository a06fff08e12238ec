"""A learned ranker over the names an abstract may state (for names.derive).

The hand-written cues (`names.cues`) find where a text may name its method and score each place;
choosing among their finds by those scores alone picks the wrong one for one failure in two
(measured: bench/bench_names.py). `pool` gathers every candidate - each cue's find, every coined
word, acronym and weak guess of the text - and `features` describes each by what a reader
weighs: how it is stated (the cue's score, "X, a ...", "our X"), how often and where the text
says it, its shape, whether the repository carries it, and whether the hand-written choice made
it. `choose` scores each candidate by a linear model whose weights `bench/fit_names.py` fits on
a development part of the corpus (`names.rank_weights`) and keeps the best.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from papershelf.storage.names.rank_weights import ADD, GATE, KEEP, WEIGHTS
from papershelf.storage.names.words import (
    MAX_NAME,
    TOKEN,
    expansion_start,
    is_generic,
    namelike,
    plain_letters,
    strip_token,
    two_capitals,
    word_count,
)

_MAX_POOL = 40  # distinct names looked at: bounded work on a text made of names
_SENTENCE_BREAKS = (". ", "! ", "? ", ".\n")
_DESCRIBED = re.compile(r"\s*(?:,|:|--|\u2013|\u2014| is| are)\s*(?:an?|the)\s", re.IGNORECASE)
_OURS_BEFORE = re.compile(r"\b(?:our|the proposed|our proposed|ours)\s+$", re.IGNORECASE)
_PREPOSITION_BEFORE = re.compile(
    r"\b(?:on|of|with|using|from|to|in|by|via|than|over|like|and|as|under)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
# "X achieves", "X outperforms": the text's subject doing things (a verb's third person).
_ACTS_AFTER = re.compile(r"\s+(?:also\s+|further\s+|then\s+|not\s+only\s+)?[a-z]{3,}s\b")
_PAREN_AFTER = re.compile(r"\s*\(([^()\s]{2,25})\)")
_KEY_PARTS = re.compile(r"[^\W_]+")


def _key(name: str) -> str:
    return "".join(_KEY_PARTS.findall(name)).casefold()


@dataclass
class Candidate:
    """A name the text may state, and what the cues and guesses said of it."""

    name: str
    position: int
    cue_scores: list[int] = field(default_factory=list)
    sources: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Context:
    """What features need of the whole text, computed once."""

    text: str
    repo: str  # the repository's name folded to letters and digits ("" when none)
    url_keys: tuple[str, ...]  # folded project names from the code URLs and pages
    tokens: Counter[str]
    chosen: str | None  # the hand-written choice


def pool(
    text: str,
    cue_found: list[tuple[int, int, str]],
    guesses: dict[str, str | None],
) -> list[Candidate]:
    """Every candidate name: the cues' finds, the weak guesses, the text's coined words."""
    found: dict[str, Candidate] = {}

    def add(name: str, position: int) -> Candidate | None:
        name = plain_letters(name)
        if name in found:
            candidate = found[name]
            candidate.position = min(candidate.position, position)
            return candidate
        if (
            len(found) >= _MAX_POOL
            or not name
            or len(name) > MAX_NAME
            or not name.isprintable()
            or is_generic(name)
            or two_capitals(name)
        ):
            return None  # the guards the hand-written choice keeps: never "LLM", never "CF"
        found[name] = Candidate(name, position)
        return found[name]

    for score, position, name in sorted(cue_found, key=lambda item: item[1]):
        if candidate := add(name, position):
            candidate.cue_scores.append(score)
    for source, name in guesses.items():
        if name and (candidate := add(name, max(0, text.find(name)))):
            candidate.sources.add(source)
    for match in TOKEN.finditer(text):
        if match.group().islower():
            continue  # most words: no capital, no coined name
        word = strip_token(match.group())
        if namelike(word) and word not in found and (candidate := add(word, match.start())):
            candidate.sources.add("word")
    return list(found.values())


def context(text: str, repo: str | None, url_keys: tuple[str, ...], chosen: str | None) -> Context:
    tokens = Counter(strip_token(token) for token in TOKEN.findall(text))
    return Context(text, _key(repo or ""), url_keys, tokens, chosen)


FEATURES = (
    "chosen",
    "cue6",
    "cue5",
    "cue4",
    "cue3",
    "cue_weak",
    "no_cue",
    "cue_hits",
    "guess_made",
    "guess_defined",
    "guess_repeated",
    "guess_project",
    "word_only",
    "log_count",
    "said_once",
    "first_at",
    "first_in_pool",
    "last_cue",
    "starts_sentence",
    "described",
    "ours",
    "after_preposition",
    "acts",
    "in_parens",
    "expands",
    "has_short_form",
    "short_of_other",
    "words_2",
    "words_3",
    "all_upper",
    "has_digit",
    "has_hyphen",
    "short",
    "coined",
    "lower",
    "repo_same",
    "repo_part",
    "url_same",
    "inside_other",
    "holds_other",
)


def features(candidate: Candidate, everyone: list[Candidate], ctx: Context) -> list[float]:
    """The candidate's feature values, in the order of FEATURES."""
    text, name = ctx.text, candidate.name
    scores = candidate.cue_scores
    best = max(scores, default=0)
    count = ctx.tokens[name] if " " not in name else word_count(text, name)
    count = max(count, 1)
    places = _places(text, name)
    starts = sum(1 for at in places if at == 0 or text.startswith(_SENTENCE_BREAKS, at - 2))
    described = sum(1 for at in places if _DESCRIBED.match(text, at + len(name)))
    ours = sum(1 for at in places if _OURS_BEFORE.search(text, max(0, at - 20), at))
    prepositions = sum(1 for at in places if _PREPOSITION_BEFORE.search(text, max(0, at - 16), at))
    acts = sum(1 for at in places if _ACTS_AFTER.match(text, at + len(name)))
    in_parens = any(
        text.startswith(")", at + len(name)) and text[at - 1 : at] == "(" for at in places
    )
    expands = in_parens and any(
        expansion_start(name, text, at - 1) is not None for at in places if text[at - 1 : at] == "("
    )
    short_after = None
    for at in places:
        match = _PAREN_AFTER.match(text, at + len(name))
        if match:
            short_after = strip_token(match.group(1))
            break
    others = [other.name for other in everyone if other is not candidate]
    folded = name.casefold()
    key = _key(name)
    words = len(name.split())
    cue_positions = [other.position for other in everyone if other.cue_scores]
    return [
        float(ctx.chosen == name),
        float(best >= 6),
        float(best == 5),
        float(best == 4),
        float(best == 3),
        float(0 < best < 3),
        float(not scores),
        min(len(scores), 3) / 3,
        float("made" in candidate.sources),
        float("defined" in candidate.sources),
        float("repeated" in candidate.sources),
        float("project" in candidate.sources),
        float(candidate.sources == {"word"} and not scores),
        math.log(count),
        float(count == 1),
        candidate.position / max(len(text), 1),
        float(candidate.position == min(other.position for other in everyone)),
        float(bool(scores) and candidate.position == max(cue_positions, default=-1)),
        min(starts, 2) / 2,
        float(described > 0),
        float(ours > 0),
        prepositions / max(len(places), 1),
        min(acts, 2) / 2,
        float(in_parens),
        float(expands),
        float(short_after is not None and short_after in others),
        float(any(_short_form(text, other) == name for other in others)),
        float(words == 2),
        float(words >= 3),
        float(name.isupper()),
        float(any(ch.isdigit() for ch in name)),
        float("-" in name),
        float(len(name) <= 3),
        float(namelike(name)),
        float(name.islower()),
        float(bool(ctx.repo) and key == ctx.repo),
        float(bool(ctx.repo) and len(key) >= 3 and key != ctx.repo and key in ctx.repo),
        float(key in ctx.url_keys),
        float(any(folded in other.casefold() and folded != other.casefold() for other in others)),
        float(any(other.casefold() in folded and other.casefold() != folded for other in others)),
    ]


def _short_form(text: str, name: str) -> str | None:
    """The "(ACR)" right after the name's first occurrence, or None."""
    places = _places(text, name, 1)
    match = _PAREN_AFTER.match(text, places[0] + len(name)) if places else None
    return strip_token(match.group(1)) if match else None


def _places(text: str, name: str, most: int = 20) -> list[int]:
    """Where the name occurs as a whole word (the first `most` places)."""
    found: list[int] = []
    index = text.find(name)
    while index >= 0 and len(found) < most:
        end = index + len(name)
        if (index == 0 or not text[index - 1].isalnum()) and (
            end == len(text) or not text[end].isalnum()
        ):
            found.append(index)
        index = text.find(name, index + 1)
    return found


def score(values: list[float], weights: tuple[float, ...]) -> float:
    return sum(value * weight for value, weight in zip(values, weights, strict=True))


GATE_FEATURES = ("bias", "stated", "fallback", "top_chosen", "margin", "top_score", *FEATURES)
Scored = tuple[float, int, str, list[float]]


@dataclass
class Ranking:
    """An abstract's candidates ranked: the best one, and whether to show it."""

    everyone: list[Candidate]
    ctx: Context
    stated: bool  # whether the hand-written rules find a name the text states
    _scored: list[Scored] | None = None

    def scored(self, weights: tuple[float, ...] | None = None) -> list[Scored]:
        """(score, -position, name, features) of every candidate, best first (by the fitted
        weights unless others are given; the earliest of equals first)."""
        if weights is None and self._scored is not None:
            return self._scored
        scored: list[Scored] = []
        for candidate in self.everyone:
            values = features(candidate, self.everyone, self.ctx)
            value = score(values, WEIGHTS if weights is None else weights)
            scored.append((value, -candidate.position, candidate.name, values))
        scored.sort(key=lambda item: item[:3], reverse=True)
        if weights is None:
            self._scored = scored
        return scored

    def choice(self) -> str | None:
        """The best candidate (the hand-written choice until weights are fitted)."""
        if not WEIGHTS:
            return self.ctx.chosen
        scored = self.scored()
        return scored[0][2] if scored else None

    def gate_features(self, weights: tuple[float, ...] | None = None) -> list[float] | None:
        """What the gate weighs: how sure the rules and the ranker are of the best candidate."""
        scored = self.scored(weights)
        if not scored:
            return None
        top, values = scored[0][0], scored[0][3]
        margin = top - scored[1][0] if len(scored) > 1 else 5.0
        return [
            1.0,
            float(self.stated),
            float(not self.stated and self.ctx.chosen is not None),
            float(scored[0][2] == self.ctx.chosen),
            min(margin, 5.0) / 5,
            max(-5.0, min(top, 10.0)) / 5,
            *values,
        ]

    def shown(self) -> str | None:
        """The best candidate when the gate deems it likely right, else None (a headline)."""
        if not WEIGHTS or not GATE:
            return self.ctx.chosen
        values = self.gate_features()
        if values is None:
            return None
        sure = score(values, GATE)
        named = self.ctx.chosen is not None
        return self.scored()[0][2] if sure >= (KEEP if named else ADD) else None
