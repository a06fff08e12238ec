"""Stand-in for `papershelf list QUERY` as a whole process (until the CLI uses the index cache).

Usage: python bench/bench_search_process.py DIR QUERY...
DIR holds `papers.json` (a JSON array of Paper.to_dict() records, like the library's corpus file);
the index is cached next to it in `search-index.bin` and rebuilt when the papers change.
Prints one line per hit: id, name, title.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from papershelf.storage.model import Paper
from papershelf.storage.search.engine import SearchEngine


def main(argv: list[str]) -> int:
    root = Path(argv[0])
    query = " ".join(argv[1:])
    records = json.loads((root / "papers.json").read_bytes())
    papers = [Paper.from_dict(record) for record in records]
    engine = SearchEngine.load(root / "search-index.bin", papers)
    by_id = {paper.id: paper for paper in papers}
    out = []
    for hit in engine.search(query, {}):
        paper = by_id[hit.paper_id]
        out.append(f"{paper.id}\t{paper.name}\t{paper.title or ''}")
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
