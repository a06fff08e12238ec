"""Build a 100,000-paper JSON Lines corpus for the scale benchmarks (issue #14).

Run by hand: `python bench/build_100k.py [OUT] [--papers N] [--seed S]`
(default OUT: /tmp/papershelf-100k.jsonl, N = 100,000, S = 14). The output is never committed.

The first 10,815 records are the real corpus as it is. Every further record is spliced from
real ones, so that the vocabulary, the sentence lengths and the mix of LaTeX, URLs and names
stay those of real abstracts: its title is the head of one real title (a `Name:` head is
kept, and gets a numeric suffix so that names stay distinct) joined to the tail of another,
and its abstract is a run of sentences taken in order from two to four real abstracts, about
as long as the first of them. Venues and URLs come from the donors. The build is
deterministic for a given seed, and every abstract is distinct (import dedupes by abstract).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def sentences(abstract: str) -> list[str]:
    """The sentences of an abstract, split where a full stop meets a capital."""
    return [part for part in _SENTENCE_END.split(abstract) if part]


def spliced(records: list[dict], rng: random.Random, number: int) -> dict:
    """One new record made of pieces of two to four real ones."""
    donors = rng.sample(records, rng.randint(2, 4))
    first = donors[0]
    target = len(first["abstract"])
    parts: list[str] = []
    length = 0
    for donor in donors:
        pieces = sentences(donor["abstract"])
        start = rng.randrange(len(pieces)) if pieces else 0
        for piece in pieces[start:]:
            parts.append(piece)
            length += len(piece) + 1
            if length >= target:
                break
        if length >= target:
            break
    head, _, _ = first["title"].partition(": ")
    tail_words = donors[1]["title"].split()
    tail = " ".join(tail_words[len(tail_words) // 2 :])
    if ": " in first["title"]:
        title = f"{head}{number}: {tail}"
    else:
        words = first["title"].split()
        title = " ".join([*words[: max(1, len(words) // 2)], tail])
    record = {"title": title, "abstract": " ".join(parts), "venue": first.get("venue", "")}
    if first.get("url"):
        record["url"] = first["url"]
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("/tmp/papershelf-100k.jsonl"))
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args(argv)
    with args.corpus.open(encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    rng = random.Random(args.seed)
    seen = {record["abstract"] for record in records}
    temporary = args.out.with_name(args.out.name + ".part")
    with temporary.open("w", encoding="utf-8") as out:
        for record in records[: args.papers]:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        for number in range(len(records), args.papers):
            # Import dedupes by abstract: draw again until this one is new.
            record = spliced(records, rng, number)
            while record["abstract"] in seen:
                record = spliced(records, rng, number)
            seen.add(record["abstract"])
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    temporary.replace(args.out)
    print(f"wrote {max(args.papers, 0):,} papers to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
