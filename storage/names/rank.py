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
    NOUNS,
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
_KIND_AFTER = re.compile(r"\s+(?:" + NOUNS + r")s?\b", re.IGNORECASE)
# The paper's own contribution: what follows "we propose" in its sentence.
_LEAD_BEFORE = re.compile(
    r"\b(?:we|this (?:paper|work)|our (?:paper|work))\s+(?:\w+\s+){0,2}?"
    r"(?:propos|introduc|present|develop|design|build|creat|releas|construct|obtain)\w*\b[^.;]*$",
    re.IGNORECASE,
)
# "X is proposed", "Long Name (X) is presented", "X (ours) is introduced".
_PASSIVE_AFTER = re.compile(
    r"\)?(?:\s*\([^()]{1,30}\))?\s+(?:is|are)\s+(?:then\s+|thus\s+|further\s+)?"
    r"(?:proposed|presented|introduced|developed|designed|built|created|released)\b"
)
# "ROI maximization", "the GAIL objective": a name used as a noun's modifier (often a topic's).
_MODIFIES = re.compile(
    r"\s+(?!(?:is|are|was|and|or|to|of|in|on|for|with|by|as|that|which|can|has|have|also|"
    r"not|only|the|a|an)\b)[a-z]{3,}(?<!s)\b"
)
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
    words: Counter[str],
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
    for word in words:
        if word not in found and namelike(word) and (candidate := add(word, text.find(word))):
            candidate.sources.add("word")
    return list(found.values())


def capitalised_words(text: str) -> Counter[str]:
    """How often each word with a capital past its first letter, or a digit and a capital,
    occurs (punctuation around it stripped), in the order of first occurrence."""
    # Whitespace-split words with no capital hold no token with one (most words: skipped in C);
    # a capitalised word ("The", "Falcon") is no coined name (`features` counts those it needs).
    return Counter(
        strip_token(token)
        for word in text.split()
        if not word.islower()
        for token in TOKEN.findall(word)
        if not token.islower() and not (token[0].isupper() and token[1:].islower())
    )


def context(
    text: str,
    repo: str | None,
    url_keys: tuple[str, ...],
    chosen: str | None,
    words: Counter[str],
) -> Context:
    """The whole text's facts for `features`; `words` is `capitalised_words(text)`."""
    return Context(text, _key(repo or ""), url_keys, words, chosen)


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
    "kind_after",
    "after_lead",
    "passive",
    "modifies",
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


@dataclass(frozen=True)
class _Pool:
    """What features compare a candidate with, computed once for all candidates."""

    names: frozenset[str]
    folded: tuple[str, ...]
    short_forms: frozenset[str]  # every "(ACR)" right after a candidate's first occurrence
    first: int  # the earliest candidate's position
    last_cue: int  # the latest position a cue names


def _pool_facts(everyone: list[Candidate], text: str) -> _Pool:
    return _Pool(
        names=frozenset(c.name for c in everyone),
        folded=tuple(c.name.casefold() for c in everyone),
        short_forms=frozenset(
            short for c in everyone if (short := _short_form(text, c.name)) is not None
        ),
        first=min((c.position for c in everyone), default=0),
        last_cue=max((c.position for c in everyone if c.cue_scores), default=-1),
    )


def all_features(everyone: list[Candidate], ctx: Context) -> list[list[float]]:
    """Each candidate's feature values, in the order of FEATURES."""
    facts = _pool_facts(everyone, ctx.text)
    return [features(candidate, facts, ctx) for candidate in everyone]


def features(candidate: Candidate, facts: _Pool, ctx: Context) -> list[float]:
    """The candidate's feature values, in the order of FEATURES."""
    text, name = ctx.text, candidate.name
    scores = candidate.cue_scores
    best = max(scores, default=0)
    count = ctx.tokens[name] if name in ctx.tokens else word_count(text, name)
    count = max(count, 1)
    places = _places(text, name)
    starts = sum(1 for at in places if at == 0 or text.startswith(_SENTENCE_BREAKS, at - 2))
    described = sum(1 for at in places if _DESCRIBED.match(text, at + len(name)))
    ours = sum(1 for at in places if _OURS_BEFORE.search(text, max(0, at - 20), at))
    prepositions = sum(1 for at in places if _PREPOSITION_BEFORE.search(text, max(0, at - 16), at))
    acts = sum(1 for at in places if _ACTS_AFTER.match(text, at + len(name)))
    kinds = sum(1 for at in places if _KIND_AFTER.match(text, at + len(name)))
    after_lead = any(_LEAD_BEFORE.search(text, max(0, at - 120), at) for at in places[:3])
    passive = any(_PASSIVE_AFTER.match(text, at + len(name)) for at in places)
    modifies = sum(1 for at in places if _MODIFIES.match(text, at + len(name)))
    parens = [
        at for at in places if text[at - 1 : at] == "(" and text.startswith(")", at + len(name))
    ]
    # Whether the words before "(NAME)" spell it: an acronym the text defines.
    expands = bool(parens) and expansion_start(name, text, parens[0] - 1) is not None
    short_after = _short_form(text, name)
    folded = name.casefold()
    key = _key(name)
    words = len(name.split())
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
        float(kinds > 0),
        float(after_lead),
        float(passive),
        modifies / max(len(places), 1),
        float("project" in candidate.sources),
        float(candidate.sources == {"word"} and not scores),
        math.log(count),
        float(count == 1),
        candidate.position / max(len(text), 1),
        float(candidate.position == facts.first),
        float(bool(scores) and candidate.position == facts.last_cue),
        min(starts, 2) / 2,
        float(described > 0),
        float(ours > 0),
        prepositions / max(len(places), 1),
        min(acts, 2) / 2,
        float(bool(parens)),
        float(expands),
        float(short_after is not None and short_after != name and short_after in facts.names),
        float(name in facts.short_forms),
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
        float(any(folded in other and folded != other for other in facts.folded)),
        float(any(other in folded and other != folded for other in facts.folded)),
    ]


def _short_form(text: str, name: str) -> str | None:
    """The "(ACR)" right after the name's first occurrence, or None."""
    places = _places(text, name, 1)
    match = _PAREN_AFTER.match(text, places[0] + len(name)) if places else None
    return strip_token(match.group(1)) if match else None


def _places(text: str, name: str, most: int = 8) -> list[int]:
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
        rows = all_features(self.everyone, self.ctx)
        for candidate, values in zip(self.everyone, rows, strict=True):
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
        sure = gate_score(values, self.ctx.chosen is not None)
        return (
            self.scored()[0][2] if sure >= (KEEP if self.ctx.chosen is not None else ADD) else None
        )


_GUESSED = (GATE_FEATURES.index("in_parens"), GATE_FEATURES.index("guess_defined"))


def gate_score(values: list[float], named: bool, gate: tuple[float, ...] = GATE) -> float:
    """The gate's score; where the hand-written rules name nothing, an acronym in parentheses
    is never added (the rules' own test of whether the paper makes it, `weak.made_acronym`,
    has said no: "a sampler for Monte Carlo (MCX)" is a topic's)."""
    if not named and any(values[index] for index in _GUESSED):
        return -math.inf
    return score(values, gate)
