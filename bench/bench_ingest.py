"""Benchmark: CPU time of `storage.ingest.parse.read_file` on the corpus, in total and by stage.

Run by hand: `/work/venv/bin/python bench/bench_ingest.py [FILE] [--repeat N] [--profile]`
(default file: /work/shared/corpus/ml-abstracts.jsonl). Times are CPU seconds
(`time.process_time`), best of N (default 3), because the machine is shared and noisy; every
memo cache in `storage` is cleared before each run, so a run costs what a fresh process pays.

The stages are timed separately, each over the whole file, on the same inputs ingest gives them:
decode/split (bytes to text to records or paragraphs), clean_text (of the file and of every
record field), urls (`split_urls`), names (`derive_name`) and ids (`paper_id`). Their sum is
close to, not exactly, the total. `--profile` prints the cProfile hot spots of one total run.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import papershelf.storage.ingest.paragraphs
import papershelf.storage.ingest.parse
import papershelf.storage.names.cues
import papershelf.storage.names.derive
import papershelf.storage.names.words
import papershelf.storage.text.clean
import papershelf.storage.text.latex
import papershelf.storage.text.latex_math
import papershelf.storage.text.urls
from papershelf.storage.ingest.decode import decode, read_bytes
from papershelf.storage.ingest.paragraphs import paper_id, paragraphs
from papershelf.storage.ingest.parse import read_file
from papershelf.storage.names.derive import derive_name
from papershelf.storage.text.clean import clean_text, squash_spaces
from papershelf.storage.text.urls import canonical, is_code_url, split_urls

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")
_MODULES = (
    papershelf.storage.ingest.parse,
    papershelf.storage.ingest.paragraphs,
    papershelf.storage.text.latex,
    papershelf.storage.text.latex_math,
    papershelf.storage.names.derive,
    papershelf.storage.names.cues,
    papershelf.storage.names.words,
    papershelf.storage.text.urls,
    papershelf.storage.text.clean,
)


def clear_caches() -> None:
    """Empty every functools cache in the ingest modules, so no run profits from an earlier one."""
    for module in _MODULES:
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def best_cpu(action: Callable[[], Any], repeat: int) -> float:
    """The least CPU time of `repeat` runs of `action`, caches cleared before each."""
    times = []
    for _ in range(repeat):
        clear_caches()
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return min(times)


def _split(text: str, source: str) -> list[dict[str, Any]]:
    """Records as ingest sees them: JSON records, or paragraphs as {'abstract': text}."""
    if text.lstrip()[:1] in ("[", "{"):
        return [record for _, record in papershelf.storage.ingest.parse._records(text, source)]
    return [
        {"abstract": paragraph.text} for paragraph in paragraphs(text) if not paragraph.is_header
    ]


def _field(record: dict[str, Any], key: str) -> str | None:
    value = record.get(key)
    return squash_spaces(clean_text(value)) or None if isinstance(value, str) else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="print cProfile hot spots")
    args = parser.parse_args()
    path: Path = args.file
    data = read_bytes(path)

    result = read_file(path)
    total = best_cpu(lambda: read_file(path), args.repeat)

    # Inputs of each stage, computed once, outside the timings.
    text = clean_text(decode(data, path.name))
    records = _split(text, path.name)
    titled = [(_field(r, "abstract"), _field(r, "title"), _field(r, "url")) for r in records]
    titled = [(abstract, title, url) for abstract, title, url in titled if abstract]
    abstracts = [abstract for abstract, _, _ in titled]
    found = {abstract: split_urls(abstract)[0] for abstract in abstracts}

    def stage_clean() -> None:
        clean_text(decode(data, path.name))
        for record in records:
            for key in ("abstract", "title", "venue", "url"):
                _field(record, key)

    def stage_urls() -> None:
        for abstract, _, url in titled:
            split_urls(abstract)
            if url and (url := canonical(url)):
                is_code_url(url)

    def stage_names() -> None:
        for abstract, title, _ in titled:
            derive_name(abstract, title=title, code_urls=found[abstract])

    stages = {
        "decode/split": lambda: _split(decode(data, path.name), path.name),
        "clean_text": stage_clean,
        "urls": stage_urls,
        "names": stage_names,
        "ids": lambda: [paper_id(abstract) for abstract in abstracts],
    }
    count = len(result.papers)
    print(f"file:       {path} ({len(data) / 1e6:.1f} MB, {len(records):,} records)")
    print(
        f"read_file:  {total:.3f} s CPU, best of {args.repeat} "
        f"({total / max(count, 1) * 1000:.3f} ms a paper; {count:,} papers, "
        f"{result.duplicates} duplicates, {result.skipped} skipped)"
    )
    for name, action in stages.items():
        seconds = best_cpu(action, args.repeat)
        print(f"  {name:<13} {seconds:.3f} s  ({seconds / max(total, 1e-9):.0%})")

    if args.profile:
        clear_caches()
        profiler = cProfile.Profile()
        profiler.runcall(read_file, path)
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
