"""Fit the name ranker's weights (storage/names/rank_weights.py) on the corpus's development part.

Run: `python bench/fit_names.py [FILE] [--check]` (default FILE:
/work/shared/corpus/ml-abstracts.jsonl).
The same corpus gives the same weights: the cases, their order and the optimiser are all fixed.

The cases are bench_names' (a paper whose title's short name the abstract states; the abstract
alone is the input). A case is fitted on only when it falls in the development half under both
seeds bench_names reports (11 and 7), so that neither seed's held-out half is ever fitted on:
both held-out figures stay honest. For each case, `derive.ranking_inputs` gives the candidates
the ranker chooses among, and a candidate is right when bench_names would count it right.

The model is a linear score per candidate, trained as a softmax over each case's candidates (the
log of the chance given to the right ones), with a little L2 to keep weights small, by Adam in
plain Python (no numpy: the fit is small, and papershelf has no numeric dependency). `--check`
fits and reports without writing the module.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_names import CORPUS, Case, Unnamed, load, load_unnamed, verdict

from papershelf.storage.names import rank
from papershelf.storage.names.derive import ranking_inputs
from papershelf.storage.names.rank import Ranking

SEEDS = (11, 7)
OUT = Path(__file__).resolve().parent.parent / "storage" / "names" / "rank_weights.py"
STEPS = 600
RATE = 0.05
L2 = 0.002
# Whether the gate may show a name where the hand-written rules show a headline. Off: measured,
# such guesses were right on 7 development cases for 37 false names on nameless papers, and a
# wrong name is worse than a headline; the gate only withdraws names (and the ranker chooses).
ADDS = True

Example = tuple[list[list[float]], list[bool]]


def _dev_everywhere(title: str, seeds: tuple[int, ...]) -> bool:
    """Whether the title falls in the development half under every seed (bench_names' hash)."""
    return all(hashlib.sha256(f"{seed}:{title}".encode()).digest()[0] % 2 == 0 for seed in seeds)


def training_cases(path: Path, seeds: tuple[int, ...] = SEEDS) -> tuple[list[Case], int]:
    """The cases in the development half under every seed, and how many cases there are."""
    halves = [load(path, seed)[0] for seed in seeds]
    dev_under = [{(c.label, c.abstract) for c in cases if c.dev} for cases in halves]
    both = [c for c in halves[0] if all((c.label, c.abstract) in dev for dev in dev_under)]
    return both, len(halves[0])


def training_unnamed(
    path: Path, seeds: tuple[int, ...] = SEEDS
) -> tuple[list[Unnamed], list[Unnamed]]:
    """bench_names' papers with no name (its --precision set): those in the development half
    under every seed (the gate learns from them not to name), and the others."""
    papers = load_unnamed(path)
    dev = [paper for paper in papers if _dev_everywhere(paper.title, seeds)]
    return dev, [paper for paper in papers if not _dev_everywhere(paper.title, seeds)]


def examples(rankings: list[tuple[Case, Ranking]]) -> list[Example]:
    """Each case's candidate features and which candidates are right (only cases with both a
    right and a wrong candidate teach the ranker anything)."""
    found: list[Example] = []
    for case, ranking in rankings:
        everyone, ctx = ranking.everyone, ranking.ctx
        right = [verdict(case, c.name) in ("exact", "acronym") for c in everyone]
        if any(right) and not all(right):
            found.append((rank.all_features(everyone, ctx), right))
    return found


def _loss_and_gradient(data: list[Example], weights: list[float]) -> tuple[float, list[float]]:
    total = 0.0
    gradient = [0.0] * len(weights)
    for rows, right in data:
        scores = [sum(v * w for v, w in zip(row, weights, strict=True)) for row in rows]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        whole = sum(exps)
        good = sum(e for e, ok in zip(exps, right, strict=True) if ok)
        total -= math.log(good / whole)
        for row, e, ok in zip(rows, exps, right, strict=True):
            # d(-log good/whole)/d score = p_all - p_within_good (for the right ones)
            coefficient = e / whole - (e / good if ok else 0.0)
            if coefficient:
                for index, value in enumerate(row):
                    if value:
                        gradient[index] += coefficient * value
    count = max(len(data), 1)
    loss = total / count + L2 * sum(w * w for w in weights)
    return loss, [g / count + 2 * L2 * w for g, w in zip(gradient, weights, strict=True)]


def fit(data: list[Example], size: int) -> tuple[float, ...]:
    """Adam on the mean softmax loss, from zero weights, a fixed number of steps."""
    weights = [0.0] * size
    first = [0.0] * size
    second = [0.0] * size
    for step in range(1, STEPS + 1):
        loss, gradient = _loss_and_gradient(data, weights)
        for i, g in enumerate(gradient):
            first[i] = 0.9 * first[i] + 0.1 * g
            second[i] = 0.999 * second[i] + 0.001 * g * g
            corrected = first[i] / (1 - 0.9**step)
            scale = math.sqrt(second[i] / (1 - 0.999**step)) + 1e-8
            weights[i] -= RATE * corrected / scale
        if step % 200 == 0:
            print(f"    step {step}: loss {loss:.4f}", file=sys.stderr)
    return tuple(round(w, 3) for w in weights)


def accuracy(data: list[Example], weights: tuple[float, ...]) -> float:
    """The share of examples whose top-scored candidate is right (first of equals)."""
    good = 0
    for rows, right in data:
        scores = [rank.score(row, weights) for row in rows]
        good += right[scores.index(max(scores))]
    return good / max(len(data), 1)


# (gate score, whether the hand-written rules name it, whether the ranker's choice is right)
Gated = tuple[float, bool, bool]


def thresholds(named: list[Gated], unnamed: list[Gated]) -> tuple[float, float, int, int]:
    """KEEP and ADD, the gate's thresholds for papers the hand-written rules name and do not:
    the pair that shows the most right names on the named cases while showing no more names on
    the unnamed papers than the hand-written rules do (a wrong name is worse than a headline).
    Returns (KEEP, ADD, right names, false names)."""
    allowed = sum(1 for _, old, _ in unnamed if old)
    scores = sorted({round(g, 3) for g, _, _ in named + unnamed if not math.isinf(g)})
    grid = [scores[int(q * (len(scores) - 1) / 80)] for q in range(81)] + [math.inf]
    best: tuple[int, int, float, float] | None = None
    for keep in grid:
        for add in grid if ADDS else [math.inf]:
            false = sum(1 for g, old, _ in unnamed if g >= (keep if old else add))
            if false > allowed:
                continue
            right = sum(1 for g, old, ok in named if ok and g >= (keep if old else add))
            # The most right names; then the fewest false; then the higher thresholds.
            ranked = (right, -false, keep, add)
            if best is None or ranked > best:
                best = ranked
    assert best is not None  # keep == add == inf shows nothing: always allowed
    return best[2], best[3], best[0], -best[1]


def write(
    weights: tuple[float, ...], gate: tuple[float, ...], keep: float, add: float, note: str
) -> None:
    def rows(names: tuple[str, ...], values: tuple[float, ...]) -> list[str]:
        return [f"    {value!r},  # {name}" for name, value in zip(names, values, strict=True)]

    lines = [
        '"""The name ranker\'s and gate\'s weights (`names.rank.FEATURES`, `GATE_FEATURES`).',
        "",
        "Written by `python bench/fit_names.py` (do not edit by hand); fitted on",
        note + ".",
        '"""',
        "",
        "WEIGHTS: tuple[float, ...] = (",
        *rows(rank.FEATURES, weights),
        ")",
        "GATE: tuple[float, ...] = (",
        *rows(rank.GATE_FEATURES, gate),
        ")",
        "# The gate's least score to show a name the hand-written rules give, and one they do not.",
        f"KEEP = {keep!r}",
        "ADD = " + ('float("inf")' if math.isinf(add) else repr(add)),
    ]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _print_weights(names: tuple[str, ...], weights: tuple[float, ...]) -> None:
    ordered = sorted(zip(names, weights, strict=True), key=lambda item: -abs(item[1]))
    print("    " + ", ".join(f"{name} {weight:+.2f}" for name, weight in ordered))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--check", action="store_true", help="fit and report, write nothing")
    parser.add_argument(
        "--seeds",
        type=int,
        nargs="+",
        default=list(SEEDS),
        help="fit on the development half under each of these seeds (default: 11 7)",
    )
    args = parser.parse_args()
    seeds = tuple(args.seeds)
    cases, total = training_cases(args.file, seeds)
    unnamed, _ = training_unnamed(args.file, seeds)
    named_rankings = [(c, ranking_inputs(c.abstract, c.code_urls)) for c in cases]
    data = examples(named_rankings)
    print(f"{total} named cases; {len(cases)} in both seeds' development halves; {len(data)} teach")
    chosen = rank.FEATURES.index("chosen")
    baseline = tuple(1.0 if i == chosen else 0.0 for i in range(len(rank.FEATURES)))
    print(f"ranker: the hand-written choice is right on {accuracy(data, baseline):.1%} of them")
    weights = fit(data, len(rank.FEATURES))
    print(f"ranker: the fitted choice is right on {accuracy(data, weights):.1%} of them")
    _print_weights(rank.FEATURES, weights)

    # The gate: logistic regression (a softmax between showing and not) on the ranker's best.
    gate_data: list[Example] = []
    named: list[tuple[list[float], bool, bool]] = []
    for case, ranking in named_rankings:
        values = ranking.gate_features(weights)
        if values is not None:
            ok = verdict(case, ranking.scored(weights)[0][2]) in ("exact", "acronym")
            named.append((values, ranking.ctx.chosen is not None, ok))
    others: list[tuple[list[float], bool, bool]] = []
    for paper in unnamed:
        ranking = ranking_inputs(paper.abstract, paper.code_urls)
        if (values := ranking.gate_features(weights)) is not None:
            others.append((values, ranking.ctx.chosen is not None, False))
    zeros = [0.0] * len(rank.GATE_FEATURES)
    gate_data = [([values, zeros], [ok, not ok]) for values, _, ok in named + others]
    print(f"gate: {len(named)} named cases with a candidate, {len(others)} unnamed papers")
    gate = fit(gate_data, len(rank.GATE_FEATURES))
    _print_weights(rank.GATE_FEATURES, gate)
    keep, add, right, false = thresholds(
        [(rank.gate_score(v, old, gate), old, ok) for v, old, ok in named],
        [(rank.gate_score(v, old, gate), old, ok) for v, old, ok in others],
    )
    print(
        f"gate: KEEP {keep}, ADD {add}: right names on {right}/{len(cases)} named cases, "
        f"false names on {false}/{len(unnamed)} unnamed papers "
        f"(hand-written: {sum(old for _, old, _ in others)})"
    )
    note = (
        f"the {len(cases)} of {total} bench_names cases and the {len(unnamed)} --precision "
        f"papers that are\nin the development half under seeds {seeds}"
    )
    if not args.check:
        write(weights, gate, keep, add, note)
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
