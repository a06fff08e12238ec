"""Guard: the names import derives for every corpus record, written out or compared.

Run by hand, before and after a change that must not change any name (a faster path, a merged
regex): `python bench/names_same.py --write /tmp/names-before.json [CORPUS]` on the old code,
then `python bench/names_same.py --check /tmp/names-before.json [CORPUS]` on the new. Each record
gives `derive_name` as the import calls it (abstract, title, code URLs) and `method_name` of the
abstract alone; `--check` lists every record whose names differ and exits 1 if any does. The
corpus is read in place (default /work/shared/corpus/ml-abstracts.jsonl).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from papershelf.storage.ingest.limits import capped_title
from papershelf.storage.names.derive import derive_name, method_name
from papershelf.storage.text.clean import clean_line
from papershelf.storage.text.urls import split_urls

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")


def names_of(corpus: Path) -> list[list[str | None]]:
    """[derive_name, method_name] of each record, in file order."""
    found: list[list[str | None]] = []
    with corpus.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            record = json.loads(line)
            abstract = clean_line(record.get("abstract") or "")
            title = capped_title(clean_line(record.get("title") or "") or None)
            code_urls = split_urls(abstract)[0]
            found.append(
                [derive_name(abstract, title=title, code_urls=code_urls), method_name(abstract)]
            )
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, help="write the names to this file")
    group.add_argument("--check", type=Path, help="compare the names with this file")
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    args = parser.parse_args()
    start = time.process_time()
    names = names_of(args.corpus)
    print(f"{len(names)} records named in {time.process_time() - start:.2f} s CPU")
    if args.write:
        args.write.write_text(json.dumps(names, ensure_ascii=False), encoding="utf-8")
        return 0
    before = json.loads(args.check.read_text(encoding="utf-8"))
    differ = [i for i, (old, new) in enumerate(zip(before, names, strict=True)) if old != new]
    for i in differ[:50]:
        print(f"record {i + 1}: {before[i]} -> {names[i]}")
    print(f"{len(differ)} of {len(names)} records differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
