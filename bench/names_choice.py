"""Benchmark: is `method_name` losing on its candidates or on its choice? (issue #11, Names).

Run by hand: `/work/venv-app/bin/python bench/names_choice.py [--seed S] [--folds K]`.

1. The oracle, on the DEV half of bench_names.py's selection only: how often the label is among
   the candidates `cues.candidates` (and the repository's text form) produce before `_best`
   chooses, or among the fallback guesses (`_unstated_name`'s), and how the failures split.
2. A scored choice: a linear score over candidate features (cue score, repeats, position,
   first sentence, acronym shape, coined shape, dataset/means/term marks, the repository's
   name, the hand ranking's own score), fitted by softmax regression over each paper's
   candidates, K-fold cross-validated on the DEV half (never the held-out half), against the
   hand ranking on the same folds. Pure Python: a few thousand candidates, twenty features.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bench_names as bench

import papershelf.storage.names.derive as derive
from papershelf.storage.names.weak import repo_key
from papershelf.storage.names.words import namelike, own_count, plain_letters
from papershelf.storage.text.latex import display_text

_RIGHT = ("exact", "acronym")
_FIRST_PERSON = re.compile(r"\b(?:we|our|this (?:paper|work))\b", re.IGNORECASE)


def _captured(case: bench.Case) -> tuple[str | None, list[tuple[int, int, str]], str, str]:
    """method_name's answer, the candidates `_best` saw, the text, and the repository key."""
    seen: list[tuple[list[tuple[int, int, str]], str]] = []
    original = derive._best

    def spy(text: str, found: list[tuple[int, int, str]], repo: str, counts: dict[str, int]):
        seen.append((list(found), repo))
        return original(text, found, repo, counts)

    derive._best = spy
    try:
        name = derive.method_name(case.abstract, case.code_urls)
    finally:
        derive._best = original
    found, repo = seen[0] if seen else ([], "")
    return name, found, display_text(case.abstract).text, repo


def _fallbacks(case: bench.Case, text: str) -> list[str]:
    plain = plain_letters(text)
    guesses = [
        derive._project_name(case.abstract, case.code_urls),
        derive.repo_name(case.code_urls),
        derive.defined_acronym(plain),
        derive.repeated_word(plain),
    ]
    return [guess for guess in guesses if guess]


FEATURES = (
    "hand",  # the hand ranking's score (cue score + repeats + repository - marks)
    "cue",  # best cue score
    "cues",  # how many cue findings
    "repeats",
    "early",  # 1 - first position / length
    "first_sentence",
    "in_parens",  # "(NAME)"
    "acronym_after",  # "NAME (ACR)": a long form
    "spaced",
    "inner_capital",
    "digit",
    "hyphen",
    "coined",  # namelike
    "repo",
    "data",
    "means",
    "term",
    "ours",  # the paper speaking of its own work in the name's sentence
    "fallback",  # a fallback guess only
    "chosen",  # what the hand ranking chose
)


def _features(
    text: str, name: str, found: list[tuple[int, int, str]], repo: str, chosen: str | None
) -> list[float]:
    mine = [(score, at) for score, at, other in found if other == name]
    cue = max((score for score, _ in mine), default=0)
    at = min((at for _, at in mine if at >= 0), default=max(text.find(name), 0))
    repeats = own_count(text, name)
    is_repo = bool(repo and repo_key(name) == repo)
    data, means, term = derive._data(text, at, name), derive._means(text, name), 0
    term = derive._term(text, at, name)
    hand = cue + min(max(repeats - 1, 0), 2) + 3 * is_repo - means - data - term
    sentence_end = text.find(". ")
    head = max(text.rfind(". ", 0, at), 0)
    return [
        hand / 5,
        cue / 5,
        math.log1p(len(mine)),
        math.log1p(repeats),
        1 - at / max(len(text), 1),
        float(sentence_end < 0 or at < sentence_end),
        float(f"({name})" in text),
        float(text.startswith(" (", at + len(name))),
        float(" " in name),
        float(any(ch.isupper() for ch in name[1:])),
        float(any(ch.isdigit() for ch in name)),
        float("-" in name),
        float(namelike(name.split()[0]) if name else 0),
        float(is_repo),
        float(data),
        float(means),
        float(term),
        float(_FIRST_PERSON.search(text, head, at) is not None),
        float(not mine),
        float(name == chosen),
    ]


def _dataset(cases: list[bench.Case]):
    rows = []  # (case, hand answer right, [(features, right)], oracle)
    stats = Counter()
    for case in cases:
        name, found, text, repo = _captured(case)
        hand_right = bench.verdict(case, name) in _RIGHT
        names = list(dict.fromkeys(plain_letters(n) for _, _, n in found))
        in_cues = any(bench.verdict(case, n) in _RIGHT for n in names)
        fallbacks = [n for n in _fallbacks(case, text) if n not in names]
        in_fallbacks = any(bench.verdict(case, n) in _RIGHT for n in fallbacks)
        stats[(hand_right, in_cues, in_fallbacks)] += 1
        candidates = [
            (_features(text, n, found, repo, name), bench.verdict(case, n) in _RIGHT)
            for n in names + fallbacks
        ]
        rows.append((case, hand_right, candidates))
    return rows, stats


def _fit(
    rows, epochs: int = 60, rate: float = 0.05, l2: float = 1e-3, drop: tuple[str, ...] = ()
) -> list[float]:
    """Softmax regression over each paper's candidates (papers with a right candidate);
    features in `drop` stay at weight 0 (to score without the hand ranking's own verdict)."""
    weights = [0.0] * len(FEATURES)
    if "chosen" not in drop:
        weights[FEATURES.index("chosen")] = 1.0  # start from the hand choice
    kept = [index for index, name in enumerate(FEATURES) if name not in drop]
    usable = [cands for _, _, cands in rows if any(right for _, right in cands)]
    order = random.Random(0)
    for _ in range(epochs):
        order.shuffle(usable)
        for cands in usable:
            scores = [sum(w * x for w, x in zip(weights, f, strict=True)) for f, _ in cands]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            rights = sum(e for e, (_, r) in zip(exps, cands, strict=True) if r)
            for index in kept:
                expected = sum(e * f[index] for e, (f, _) in zip(exps, cands, strict=True))
                good = sum(e * f[index] for e, (f, r) in zip(exps, cands, strict=True) if r)
                gradient = good / rights - expected / total
                weights[index] += rate * (gradient - l2 * weights[index])
    return weights


def _right(weights: list[float], cands) -> bool:
    if not cands:
        return False
    best = max(cands, key=lambda c: sum(w * x for w, x in zip(weights, c[0], strict=True)))
    return best[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args()
    cases, _ = bench.load(bench.CORPUS, args.seed)
    dev = [case for case in cases if case.dev]
    rows, stats = _dataset(dev)
    total = len(rows)
    print(f"dev half, seed {args.seed}: {total} papers")
    print("  (hand right, label a cue candidate, label a fallback guess only): papers")
    for key, count in sorted(stats.items()):
        print(f"  {key}: {count}")
    oracle = sum(1 for _, _, c in rows if any(r for _, r in c))
    print(f"  oracle (label among any candidate): {oracle}/{total} = {oracle / total:.1%}")
    hand = sum(1 for _, right, _ in rows if right)
    print(f"  hand ranking: {hand}/{total} = {hand / total:.1%}")

    shuffled = rows[:]
    random.Random(args.seed).shuffle(shuffled)
    folds = [shuffled[index :: args.folds] for index in range(args.folds)]
    for drop in ((), ("chosen",), ("chosen", "hand")):
        learned = hand_cv = 0
        for index, test in enumerate(folds):
            train = [row for other, fold in enumerate(folds) if other != index for row in fold]
            weights = _fit(train, drop=drop)
            learned += sum(_right(weights, cands) for _, _, cands in test)
            hand_cv += sum(right for _, right, _ in test)
        print(
            f"  {args.folds}-fold cross-validated scored choice without {drop or 'nothing'}: "
            f"{learned}/{total} (hand ranking {hand_cv})"
        )
    weights = _fit(rows)
    print("  weights fitted on all of dev:")
    for feature, weight in zip(FEATURES, weights, strict=True):
        print(f"    {feature:<15} {weight:+.3f}")


if __name__ == "__main__":
    main()
