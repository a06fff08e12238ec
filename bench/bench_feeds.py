"""Benchmark of importing the corpus as an arXiv Atom feed and as an OpenReview notes page
(run by hand, not by pytest), beside the same records as JSON Lines.

    /work/venv/bin/python bench/bench_feeds.py [CORPUS]

Writes each record of CORPUS as an arXiv API entry (id, dates, title, summary, author, PDF link,
category) and as an OpenReview API v2 note into a temporary folder, then prints the parse time
(`read_file`, CPU seconds, best of 3) and the papers found for each of the three files.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from papershelf.storage.ingest.parse import read_file

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")
RUNS = 3


def atom_entry(index: int, record: dict[str, object]) -> str:
    arxiv = f"2501.{index:05d}"
    title = escape(str(record.get("title") or ""))
    return (
        f"<entry><id>http://arxiv.org/abs/{arxiv}v1</id>"
        "<published>2025-01-02T00:00:00Z</published>"
        f"<title>{title}</title><summary>{escape(str(record['abstract']))}</summary>"
        "<author><name>Ada Lovelace</name></author>"
        f'<link title="pdf" href="http://arxiv.org/pdf/{arxiv}v1" rel="related"/>'
        '<arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.LG"/>'
        "</entry>"
    )


def note(index: int, record: dict[str, object]) -> dict[str, object]:
    return {
        "id": f"N{index:09d}",
        "forum": f"N{index:09d}",
        "pdate": 1705017600000,
        "content": {
            "title": {"value": record.get("title") or ""},
            "abstract": {"value": record["abstract"]},
            "authors": {"value": ["Ada Lovelace"]},
            "venue": {"value": "ICLR 2024 poster"},
            "pdf": {"value": f"/pdf/{index}.pdf"},
        },
    }


def best_parse(path: Path) -> tuple[float, int]:
    times: list[float] = []
    found = 0
    for _ in range(RUNS):
        # CPU time: the shared machine's load changes wall time by half from run to run.
        started = time.process_time()
        found = len(read_file(path).papers)
        times.append(time.process_time() - started)
    return min(times), found


def main() -> None:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS
    lines = corpus.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    with tempfile.TemporaryDirectory() as folder:
        feed = Path(folder) / "corpus.xml"
        entries = "\n".join(atom_entry(i, record) for i, record in enumerate(records))
        feed.write_text(
            '<?xml version="1.0" encoding="UTF-8"?>'
            f'<feed xmlns="http://www.w3.org/2005/Atom">{entries}</feed>',
            encoding="utf-8",
        )
        notes = Path(folder) / "corpus-notes.json"
        page = {"notes": [note(i, r) for i, r in enumerate(records)], "count": len(records)}
        notes.write_text(json.dumps(page), encoding="utf-8")
        for label, path in (("JSON Lines", corpus), ("arXiv Atom", feed), ("OpenReview", notes)):
            seconds, found = best_parse(path)
            size = path.stat().st_size / 1e6
            print(f"{label:<11} {size:5.1f} MB  {found:>6} papers  {seconds:6.2f} s CPU")


if __name__ == "__main__":
    main()
