"""Reading and decoding import files safely: what is refused, and why, before any parsing."""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path
from typing import BinaryIO

from papershelf.storage.errors import IngestError
from papershelf.storage.text.clean import clean_name

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Files larger than this are refused from their size alone, without reading them."""

SNIFF_BYTES = 8192
_GROWN_CHUNK = 1024 * 1024
_MAGIC = {
    b"%PDF": "a PDF",
    b"\x1f\x8b": "a gzip archive",
    b"PK\x03\x04": "a zip archive",
    b"PK\x05\x06": "a zip archive",
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"7z\xbc\xaf": "a 7-zip archive",
    b"BZh": "a bzip2 archive",
    b"\xfd7zXZ\x00": "an xz archive",
}
# UTF-32 BOMs first: the UTF-32-LE BOM starts with the UTF-16-LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def _kind(mode: int) -> str | None:
    """What a non-regular file is, for the refusal message."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if not stat.S_ISREG(mode):
        return "not a regular file"
    return None


def _size_text(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


def check_size(size: int, source: str) -> None:
    """Refuse data over MAX_FILE_BYTES."""
    if size > MAX_FILE_BYTES:
        raise IngestError(
            source,
            f"file too large ({_size_text(size)}; the limit is {_size_text(MAX_FILE_BYTES)})",
        )


def source_name(path: Path) -> str:
    """The name a file is reported and recorded by: its base name as one clean line."""
    return clean_name(path.name or str(path))


def _read_capped(handle: BinaryIO, size: int) -> bytes:
    """The file's bytes, at most one past MAX_FILE_BYTES, given its size from fstat.

    `read(n)` allocates n bytes up front, so only the expected size (plus one byte, to notice
    growth) is asked for; a file that grew since (or that reports size 0, like /proc files) is
    read on in pieces, so that it is still refused when it passes the cap.
    """
    data = handle.read(min(size, MAX_FILE_BYTES) + 1)
    if len(data) <= size:
        return data
    parts = [data]
    total = len(data)
    while total <= MAX_FILE_BYTES:
        chunk = handle.read(min(_GROWN_CHUNK, MAX_FILE_BYTES + 1 - total))
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
    return b"".join(parts)


def open_regular(path: Path) -> BinaryIO:
    """Open a regular file for reading; directories, FIFOs, devices and sockets are refused
    (`IngestError`) before they are opened, or (swapped in meanwhile) right after."""
    source = source_name(path)
    try:
        # stat first: opening a FIFO for reading blocks until a writer appears.
        info = os.stat(path)
    except FileNotFoundError:
        raise IngestError(source, "no such file") from None
    except OSError as error:
        raise IngestError(source, f"cannot read: {error.strerror or error}") from None
    kind = _kind(info.st_mode)
    if kind is not None:
        raise IngestError(source, f"is {kind}, not a file")
    try:
        # O_NONBLOCK guards the race where the path is swapped for a FIFO after the stat.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise IngestError(source, f"cannot read: {error.strerror or error}") from None
    handle = os.fdopen(fd, "rb")
    if _kind(os.fstat(handle.fileno()).st_mode) is not None:
        handle.close()
        raise IngestError(source, "is not a regular file")
    return handle


def read_held(handle: BinaryIO, source: str) -> bytes:
    """The bytes of a file opened by `open_regular`, refused (`check_size`) when over
    MAX_FILE_BYTES, even if it grew after it was opened."""
    size = os.fstat(handle.fileno()).st_size
    check_size(size, source)
    # At most one byte past the cap, so a file that grew after the stat is still refused.
    data = _read_capped(handle, size)
    check_size(len(data), source)
    return data


def read_bytes(path: Path) -> bytes:
    """Read a regular file of acceptable size; everything else is refused before it is opened."""
    with open_regular(path) as handle:
        return read_held(handle, source_name(path))


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def check_head(head: bytes, source: str) -> tuple[str, int]:
    """The encoding of a file that starts with `head` (its first SNIFF_BYTES) and the length of
    its byte-order mark; archives, images, PDFs and binary files are refused."""
    for magic, what in _MAGIC.items():
        if head.startswith(magic):
            raise IngestError(source, f"is {what}, not a text file")
    encoding, skip = "utf-8", 0
    for bom, name in _BOMS:
        if head.startswith(bom):
            encoding, skip = name, len(bom)
            break
    if encoding == "utf-8" and b"\x00" in head:
        raise IngestError(source, "is a binary file (it contains NUL bytes), not a text file")
    return encoding, skip


def decode_error(error: UnicodeDecodeError, data: bytes, encoding: str, source: str) -> IngestError:
    """The one-line refusal of text that is not valid in its encoding, naming the line (counted
    in the part of `data` that did decode, so it is right for UTF-16 too)."""
    good = data[: error.start].decode(encoding, errors="replace")
    line = _line_of(good, len(good))
    bad = data[error.start : error.start + 1].hex().upper()
    label = "UTF-8" if encoding == "utf-8" else encoding.upper()
    return IngestError(
        source, f"not valid {label} text (byte 0x{bad}); save the file as UTF-8", line
    )


def decode(data: bytes, source: str) -> str:
    """UTF-8 (BOM stripped) or UTF-16/32 by BOM; binary and other encodings are refused."""
    check_size(len(data), source)
    encoding, bom = check_head(data[:SNIFF_BYTES], source)
    data = data[bom:] if bom else data
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise decode_error(error, data, encoding, source) from None
