"""App-wide messages: results of background work, posted from worker threads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from collections.abc import Sequence

    from papershelf.storage.search.engine import Hit, SearchEngine


@dataclass
class IndexReady(Message):
    """The search index is built; searches can run."""

    engine: SearchEngine
    seconds: float


@dataclass
class TablesReady(Message):
    """The search engine's warm tables are built (`SearchEngine.warm_tables`, in the worker)."""


@dataclass
class SearchFinished(Message):
    """Results of search number `serial` for `query` (stale when a newer search started)."""

    serial: int
    query: str
    hits: Sequence[Hit]
    keep: str | None
    seconds: float


@dataclass
class SearchFailed(Message):
    """Search number `serial` could not run; `message` is one line for the user."""

    serial: int
    query: str
    message: str
