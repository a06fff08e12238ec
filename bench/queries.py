"""The fixed query list of every bench (`queries.txt`: one query a line, `# ` starts a comment)."""

from __future__ import annotations

from pathlib import Path

QUERIES_FILE = Path(__file__).resolve().parent / "queries.txt"


def read_queries(path: Path = QUERIES_FILE) -> list[str]:
    """The queries in `path`, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("# ")]
