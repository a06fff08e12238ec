"""Hostile files for the import tests: each kind of file with its exact expected outcome.

Shared by tests/storage/test_hostile_imports.py (through `Library.import_files`) and
tests/test_cli_hostile.py (through `papershelf import`), so both check the same table.
"""

from __future__ import annotations

import os
import threading
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

from papershelf.storage.library.library import FileReport, Library

T = TypeVar("T")

NOW = "2025-07-01T00:00:00Z"
"""Fixed import time, so that two libraries given the same papers write the same bytes."""
MIB = 1024 * 1024
BASE_ABSTRACT = "We propose BaseNet, a network that is already in the library before the test."
GOOD_ABSTRACTS = (
    "We introduce GoodFormer, a transformer for good files. Code: https://github.com/ex/good.",
    "We present SecondFlow, a flow model that imports next to hostile files.",
)
GOOD_TEXT = "ICML 2025 Papers\n\n" + "\n\n".join(GOOD_ABSTRACTS) + "\n"
OTHER_ABSTRACTS = (
    "We propose Ünïcode-Net, a model trained on text that is not ASCII.",
    "Large models memorise [MASK] tokens; we study why and fix it.",
)
OTHER_TEXT = "ICML 2025 Papers\n\n" + "\n\n".join(OTHER_ABSTRACTS) + "\n"
LATIN1 = "Old list 2024\n\nA first abstract that is fine.\n\nCaf\u00e9 abstracts are not UTF-8.\n"
FILLER = "Results improve on standard benchmarks. "
CONTROL = {chr(code) for code in (*range(0x20), *range(0x7F, 0xA0))}


# -- the hostile files -------------------------------------------------------------------------


def write_bytes(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


def make_dir(path: Path) -> None:
    path.mkdir()
    (path / "inside.txt").write_text(GOOD_TEXT)


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_long_line(path: Path) -> None:
    """A 50 MiB file of one line: far over the abstract length limit."""
    path.write_bytes(b"word " * (10 * MIB))


def make_sparse(path: Path) -> None:
    path.write_bytes(b"[" + b" " * 8192)  # a JSON array: read whole, so refused from its size
    os.truncate(path, 500 * MIB)  # a hole: no disk used, but reading it would take 500 MiB


@dataclass(frozen=True)
class Hostile:
    """One hostile file and its exact outcome."""

    name: str
    make: Callable[[Path], None]
    error: str | None
    """The exact `FileReport.error`, or None when the file imports."""
    abstracts: tuple[str, ...] = ()
    """The abstracts it imports (when it imports)."""
    skipped: int = 0
    seconds: float = 5.0
    """The call must return within this time."""
    alone: bool = True
    """Also import it alone (the 50 MiB file is, in its own test: parsing it twice is slow)."""

    @property
    def report(self) -> FileReport:
        return FileReport(
            self.name, added=len(self.abstracts), skipped=self.skipped, error=self.error
        )


CASES = [
    Hostile(
        "latin1.txt",
        write_bytes(LATIN1.encode("latin-1")),
        "latin1.txt, line 5: not valid UTF-8 text (byte 0xE9); save the file as UTF-8",
    ),
    Hostile(
        "cp1252.txt",
        write_bytes("H\n\nShe said \u201chello\u201d.\n".encode("cp1252")),
        "cp1252.txt, line 3: not valid UTF-8 text (byte 0x93); save the file as UTF-8",
    ),
    Hostile(
        "utf16le-bom.txt",
        write_bytes(b"\xff\xfe" + OTHER_TEXT.encode("utf-16-le")),
        None,
        OTHER_ABSTRACTS,
    ),
    Hostile(
        "utf16be-bom.txt",
        write_bytes(b"\xfe\xff" + OTHER_TEXT.encode("utf-16-be")),
        None,
        OTHER_ABSTRACTS,
    ),
    Hostile(
        # Without a BOM UTF-16 cannot be told from binary: its ASCII half is NUL bytes.
        "utf16-no-bom.txt",
        write_bytes(OTHER_TEXT.encode("utf-16-le")),
        "utf16-no-bom.txt: is a binary file (it contains NUL bytes), not a text file",
    ),
    Hostile(
        "utf16-odd.txt",
        write_bytes(b"\xff\xfe" + OTHER_TEXT.encode("utf-16-le") + b"!"),
        "utf16-odd.txt, line 6: not valid UTF-16-LE text (byte 0x21); save the file as UTF-8",
    ),
    Hostile(
        "utf8-bom.txt",
        write_bytes(b"\xef\xbb\xbf" + OTHER_TEXT.replace("\n", "\r\n").encode()),
        None,
        OTHER_ABSTRACTS,
    ),
    Hostile("bom-only.txt", write_bytes(b"\xef\xbb\xbf"), "bom-only.txt: empty file"),
    Hostile(
        "nul.txt",
        write_bytes(OTHER_TEXT.encode().replace(b"ASCII", b"AS\x00CII")),
        "nul.txt: is a binary file (it contains NUL bytes), not a text file",
    ),
    Hostile(
        # Only the first 8 KiB are sniffed for NULs; a later stray NUL is a control character
        # like any other and is stripped: the abstracts import without it.
        "late-nul.txt",
        write_bytes(b"ICML 2025 Papers\n\n" + FILLER.encode() * 230 + b"\n\nWe strip N\x00UL.\n"),
        None,
        ((FILLER * 230).strip(), "We strip NUL."),
    ),
    Hostile(
        "paper.pdf",
        write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj"),
        "paper.pdf: is a PDF, not a text file",
    ),
    Hostile(
        "abstracts.txt.gz",
        write_bytes(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + bytes(range(256))),
        "abstracts.txt.gz: is a gzip archive, not a text file",
    ),
    Hostile("abstracts.d", make_dir, "abstracts.d: is a directory, not a file"),
    Hostile("pipe.txt", make_fifo, "pipe.txt: is a FIFO (named pipe), not a file", seconds=1.0),
    Hostile(
        "huge.txt",
        make_sparse,
        "huge.txt: file too large (500.0 MiB; the limit for a JSON array or object is 64.0 MiB: "
        "only JSON Lines and abstract lists import at any size)",
        seconds=1.0,
    ),
    Hostile(
        "long.txt",
        make_long_line,
        "long.txt, line 1: paragraph of 52,428,799 characters is too long for an abstract "
        "(the limit is 20,000)",
        alone=False,
    ),
    Hostile("empty.txt", write_bytes(b""), "empty.txt: empty file"),
    Hostile("blank.txt", write_bytes(b" \r\n\t\n\x0c\n"), "blank.txt: empty file"),
    Hostile("header.txt", write_bytes(b"ICML 2025 Papers\n"), None),
    Hostile(
        "headers.txt",
        write_bytes(b"ICML 2025 Papers\n\n## Oral Session 1\n\nPoster Session 2\n"),
        None,
        skipped=2,
    ),
]
CASE = {case.name: case for case in CASES}


# -- helpers -----------------------------------------------------------------------------------


def make_library(root: Path) -> Library:
    """A library holding one paper with a tag, so that both library files exist."""
    base = root.parent / "base.txt"
    base.write_text("ICML 2025 Papers\n\n" + BASE_ABSTRACT + "\n")
    library = Library.open(root, seed=False)
    (report,) = library.import_files([base])
    assert report == FileReport("base.txt", added=1)
    library.tag([library.papers()[0].id], add=["keep"])
    return library


def unblock(path: Path) -> None:
    """Give EOF to a reader stuck opening a FIFO; never blocks (no reader: ENXIO)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return
    os.close(fd)


def finish_within(seconds: float, call: Callable[[], T], fifo: Path | None = None) -> T:
    """Run `call` in a thread and fail unless it returns within `seconds`; re-raise its error."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["value"] = call()
        except BaseException as error:  # handed to the test thread below
            box["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        if fifo is not None:
            unblock(fifo)
        thread.join(5)
        pytest.fail(f"the import did not return within {seconds:g} s")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


@contextmanager
def traced_peak() -> Iterator[list[int]]:
    """Peak bytes allocated by Python inside the block (appended to the yielded list)."""
    assert not tracemalloc.is_tracing()
    tracemalloc.start()
    peak: list[int] = []
    try:
        yield peak
    finally:
        peak.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
