"""Errors that carry a one-line message meant for the user (CLI stderr, TUI notification)."""

from __future__ import annotations


class PapershelfError(Exception):
    """Base class: `str(error)` is a complete one-line message for the user."""


class IngestError(PapershelfError):
    """A file could not be imported; it imported nothing."""

    def __init__(self, source: str, reason: str, line: int | None = None) -> None:
        self.source = source
        self.reason = reason
        self.line = line
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {reason}")


class NotFound(PapershelfError):
    """No paper matches the given id or name."""


class Ambiguous(PapershelfError):
    """More than one paper matches the given id prefix or name."""


class LibraryError(PapershelfError):
    """The library on disk cannot be used as it is (corrupt, newer schema, locked, unwritable)."""


class SaveError(LibraryError):
    """A change could not be written: the file on disk is unchanged; the change can be retried."""


class QueryError(PapershelfError):
    """A query could not be understood (e.g. an unknown `is:` value)."""
