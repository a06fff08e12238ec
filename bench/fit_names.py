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
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_names import CORPUS, Case, load, verdict

from papershelf.storage.names import rank
from papershelf.storage.names.derive import ranking_inputs

SEEDS = (11, 7)
OUT = Path(__file__).resolve().parent.parent / "storage" / "names" / "rank_weights.py"
STEPS = 600
RATE = 0.05
L2 = 0.002

Example = tuple[list[list[float]], list[bool]]


def training_cases(path: Path) -> tuple[list[Case], int]:
    """The cases in the development half under every seed, and how many cases there are."""
    halves = [load(path, seed)[0] for seed in SEEDS]
    dev_under = [{(c.label, c.abstract) for c in cases if c.dev} for cases in halves]
    both = [c for c in halves[0] if all((c.label, c.abstract) in dev for dev in dev_under)]
    return both, len(halves[0])


def examples(cases: list[Case]) -> list[Example]:
    """Each case's candidate features and which candidates are right (only cases with both a
    right and a wrong candidate teach the ranker anything)."""
    found: list[Example] = []
    for case in cases:
        ranking = ranking_inputs(case.abstract, case.code_urls)
        if ranking is None:
            continue
        everyone, ctx = ranking
        right = [verdict(case, c.name) in ("exact", "acronym") for c in everyone]
        if any(right) and not all(right):
            found.append(([rank.features(c, everyone, ctx) for c in everyone], right))
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


def fit(data: list[Example]) -> tuple[float, ...]:
    """Adam on the mean softmax loss, from zero weights, a fixed number of steps."""
    size = len(rank.FEATURES)
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
        if step % 100 == 0:
            print(f"step {step}: loss {loss:.4f}", file=sys.stderr)
    return tuple(round(w, 3) for w in weights)


def accuracy(data: list[Example], weights: tuple[float, ...]) -> float:
    """The share of examples whose top-scored candidate is right (first of equals)."""
    good = 0
    for rows, right in data:
        scores = [rank.score(row, weights) for row in rows]
        good += right[scores.index(max(scores))]
    return good / max(len(data), 1)


def write(weights: tuple[float, ...], cases: int, examples_used: int) -> None:
    lines = [
        '"""The name ranker\'s weights, one per feature of `names.rank.FEATURES`.',
        "",
        "Written by `python bench/fit_names.py` (do not edit by hand): fitted on "
        f"{examples_used} corpus",
        f"abstracts out of the {cases} development cases shared by bench_names' seeds 11 and 7.",
        '"""',
        "",
        "WEIGHTS: tuple[float, ...] = (",
    ]
    lines += [
        f"    {weight!r},  # {name}" for name, weight in zip(rank.FEATURES, weights, strict=True)
    ]
    lines.append(")")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--check", action="store_true", help="fit and report, write nothing")
    args = parser.parse_args()
    cases, total = training_cases(args.file)
    data = examples(cases)
    print(f"{total} cases; {len(cases)} in both seeds' development halves; {len(data)} teach")
    chosen = rank.FEATURES.index("chosen")
    baseline = tuple(1.0 if i == chosen else 0.0 for i in range(len(rank.FEATURES)))
    print(f"hand-written choice right on {accuracy(data, baseline):.1%} of them")
    weights = fit(data)
    print(f"fitted ranker right on {accuracy(data, weights):.1%} of them")
    for name, weight in sorted(zip(rank.FEATURES, weights, strict=True), key=lambda x: -abs(x[1])):
        print(f"    {name:<18} {weight:+.3f}")
    if not args.check:
        write(weights, len(cases), len(data))
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
