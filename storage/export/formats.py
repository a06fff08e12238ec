"""The export formats: their names, file suffixes, and which one a file name asks for.

`markdown` (a reading list to tick, `.md`), `bibtex` (citations, `.bib`), `csv` (a
spreadsheet, `.csv`) and `json` (for scripts, `.json`). `Selection.text(format, today)` writes
any of them; the CLI's `--format` and the app's export dialog offer the same list.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Literal, get_args

__all__ = ["FORMATS", "LABELS", "SUFFIXES", "Format", "format_of_path"]

Format = Literal["markdown", "bibtex", "csv", "json"]
FORMATS: tuple[Format, ...] = get_args(Format)
SUFFIXES: dict[Format, str] = {"markdown": ".md", "bibtex": ".bib", "csv": ".csv", "json": ".json"}
"""The suffix of each format's default file name."""
LABELS: dict[Format, str] = {
    "markdown": "Markdown reading list",
    "bibtex": "BibTeX citations",
    "csv": "CSV table",
    "json": "JSON",
}
"""How the app's dialog names each format."""
_BY_SUFFIX: dict[str, Format] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".csv": "csv",
    ".json": "json",
}


def format_of_path(path: PurePath | str) -> Format | None:
    """The format a file name's suffix names (any case), or None for any other suffix."""
    return _BY_SUFFIX.get(PurePath(path).suffix.casefold())
