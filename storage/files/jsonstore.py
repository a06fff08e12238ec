"""A TinyDB storage that writes atomically and caches reads by file identity.

TinyDB's own `JSONStorage` rewrites its file in place (a kill mid-write leaves half a file) and its
`CachingMiddleware` loses writes when the process ends without `close()`. `AtomicJSONStorage`
instead writes every version to a temp file in the same directory, fsyncs it, `os.replace`s it over
the old file and fsyncs the directory, so the file on disk is always one whole version. Reads are
cached while the file's `(st_mtime_ns, st_size, st_ino)` are unchanged, so re-reading a large
unchanged file is free and a replacement by another process is noticed. A file that cannot be
parsed raises `CorruptFileError`; it is never treated as empty.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from papershelf.storage.errors import LibraryError, SaveError
from papershelf.storage.files.layout import StatKey, stat_key
from papershelf.storage.files.readfile import read_regular

__all__ = [
    "TEMP_SUFFIX",
    "AtomicJSONStorage",
    "CorruptFileError",
    "StatKey",
    "atomic_write",
    "dump_chunks",
    "dumps",
    "fsync_directory",
    "keep_aside",
    "move_aside",
    "parse_object",
    "real_target",
    "stale_temp_files",
    "stat_key",
    "temp_path_for",
]

TEMP_SUFFIX = ".tmp"


class CorruptFileError(LibraryError):
    """A library file exists but is not a readable JSON object (truncated, empty, garbage)."""

    def __init__(self, path: Path, reason: str, key: StatKey | None) -> None:
        self.path = path
        self.reason = reason
        self.key = key
        super().__init__(f"{path} is damaged ({reason})")


def _aside_name(path: Path, suffix: str) -> Path:
    target = path.with_name(f"{path.name}.corrupt-{suffix}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.corrupt-{suffix}-{counter}")
    return target


def _still_seen(path: Path, key: StatKey) -> Path | None:
    """The file behind `path` (through a symbolic link) when it is still the version seen
    (`key`); None when it has been replaced or removed since."""
    path = real_target(path)
    try:
        return path if stat_key(os.stat(path)) == key else None
    except FileNotFoundError:
        return None


def keep_aside(path: Path, key: StatKey, suffix: str) -> Path | None:
    """Keep the damaged file `path` as `<name>.corrupt-<suffix>` too, leaving it in place.

    A hard link: no copy, no space needed, and `path` stays until a good version replaces
    it, so a failure (or a kill) before that never leaves the library without the file. Where
    hard links are not possible the file is moved aside instead. None when the file was
    replaced meanwhile (see `move_aside`).
    """
    seen = _still_seen(path, key)
    if seen is None:
        return None
    target = _aside_name(seen, suffix)
    try:
        os.link(seen, target, follow_symlinks=False)
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EMLINK):
            raise
        os.replace(seen, target)
    return target


def move_aside(path: Path, key: StatKey, suffix: str) -> Path | None:
    """Rename the damaged file `path` to `<name>.corrupt-<suffix>` (never over another one).

    Only the version seen to be damaged (`key`) is moved: None when the file has meanwhile
    been replaced or removed, since what is there now was not seen to be bad. A symbolic link
    stays where it is and its target is moved (in the target's directory), so a library whose
    state.json lives elsewhere (a synced folder) keeps its link.
    """
    seen = _still_seen(path, key)
    if seen is None:
        return None
    target = _aside_name(seen, suffix)
    os.replace(seen, target)
    return target


def real_target(path: Path) -> Path:
    """`path` itself, or the file a symbolic link at `path` finally points to.

    papershelf writes through links: replacing the link by a regular file would leave its
    target (say, a copy in a synced folder) silently stale.
    """
    if not os.path.islink(path):
        return path
    return Path(os.path.realpath(path))


def temp_path_for(path: Path) -> Path:
    """A fresh, hidden temp-file name next to `path` (same directory, so os.replace is atomic)."""
    return path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}{TEMP_SUFFIX}")


def stale_temp_files(path: Path) -> Iterator[Path]:
    """Temp files a writer of `path` may have left behind when it was killed."""
    path = real_target(path)
    return path.parent.glob(f".{path.name}.*{TEMP_SUFFIX}")


def _describe(error: OSError) -> str:
    if error.errno == errno.ENOSPC or error.errno == errno.EFBIG:
        return "the disk is full"
    if error.errno == errno.EROFS:
        return "the file system is read-only"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return error.strerror or str(error)


def fsync_directory(directory: Path) -> None:
    """Make a rename inside `directory` durable; best effort where directories cannot be synced."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        # The rename has happened; a filesystem that cannot sync directories only weakens
        # power-loss durability, and reporting a failure here would wrongly claim nothing changed.
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, payload: bytes | Iterable[bytes], *, sync: bool = True) -> StatKey:
    """Replace `path` with `payload` (bytes, or chunks of them written as they come)
    atomically and return the new file's `StatKey`.

    On any failure the temp file is removed, `path` is left exactly as it was, and `SaveError`
    is raised with a one-line message. A symbolic link at `path` is written through: its
    target is replaced (atomically, in the target's directory) and the link stays.
    """
    path = real_target(path)
    tmp = temp_path_for(path)
    try:
        found = os.stat(path).st_mode
    except OSError:
        mode = None
    else:
        if not stat.S_ISREG(found):
            # Renaming over it would turn a FIFO or a device (even /dev/zero, as root) into a
            # regular file: refuse, as reading it was refused.
            raise SaveError(f"could not save {path}: it is not a regular file; nothing was changed")
        mode = found & 0o7777
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    except OSError as error:
        raise SaveError(
            f"could not save {path}: {_describe(error)}; nothing was changed"
        ) from error
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            for chunk in [payload] if isinstance(payload, bytes) else payload:
                view = memoryview(chunk)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
            if sync:
                os.fsync(fd)
            key = stat_key(os.fstat(fd))
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise SaveError(
            f"could not save {path}: {_describe(error)}; the file on disk is unchanged"
        ) from error
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if sync:
        fsync_directory(path.parent)
    return key


def read_keyed(path: Path) -> tuple[StatKey, bytes] | None:
    """The file's bytes with the `StatKey` of exactly those bytes; None when there is no file.

    The key comes from the open descriptor, so it describes the bytes read even if another
    process replaces the file in between. Other `OSError`s are the caller's to report.
    """
    try:
        return read_regular(path)
    except FileNotFoundError:
        return None


def parse_object(raw: bytes, path: Path, key: StatKey | None) -> dict[str, Any]:
    """The JSON object in `raw` (the bytes of the file at `path`, version `key`).

    Raises `CorruptFileError` with a short reason for anything else: empty, not UTF-8, not
    JSON, nested too deeply, a number too long for Python to read (over 4,300 digits raise
    ValueError, not a JSON error), or not an object.
    """
    if not raw.strip():
        raise CorruptFileError(path, "the file is empty", key)
    try:
        data = loads_in_steps(raw) if len(raw) >= STEPS_FROM else json.loads(raw)
    except RecursionError:
        raise CorruptFileError(path, "not valid JSON: nested too deeply", key) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CorruptFileError(path, f"not valid JSON: {error}", key) from None
    except ValueError:
        raise CorruptFileError(path, "not valid JSON: a number is too long", key) from None
    if not isinstance(data, dict):
        raise CorruptFileError(path, "not a JSON object", key)
    return data


STEPS_FROM = 1024 * 1024
"""Files from this size on are parsed a document at a time (`loads_in_steps`)."""
STEP_WINDOW = 1024 * 1024
"""Bytes of the file decoded to text at a time by `loads_in_steps`."""

_DECODER = json.JSONDecoder()
_WHITESPACE = re.compile(r"[ \t\n\r]*")  # JSON's own, as `json.decoder.WHITESPACE`
_LOOKAHEAD = 64
"""Characters a value must end before its window's end to be taken as whole (a number cut
by the window, `1.` of `1.5`, reads as `1`; its next characters decide)."""


class _Unexpected(Exception):
    """Text the steps do not parse: `json.loads` reads it whole (its result or its error)."""


class _Window:
    """UTF-8 bytes read as text a window at a time; `at` is the place in `text`."""

    def __init__(self, raw: bytes, size: int) -> None:
        self.raw = raw
        self.window = max(size, 8)  # a window must hold a character (up to 4 bytes)
        self.size = self.window
        self.start = 0  # the byte offset of text[0]
        self.text = ""
        self.at = 0
        self.final = False  # the window reaches the end of `raw`
        self.slide(grow=False)

    def slide(self, *, grow: bool) -> None:
        """Start the window at `at`: twice as long with `grow` (a value it cut), else of the
        usual size; `_Unexpected` when it holds the whole rest already."""
        if self.final and grow:
            raise _Unexpected
        self.start += len(self.text[: self.at].encode("utf-8", "surrogatepass"))
        self.size = self.size * 2 if grow else self.window
        end = min(self.start + self.size, len(self.raw))
        while end < len(self.raw) and self.raw[end] & 0xC0 == 0x80:
            end -= 1  # not inside a character's bytes
        self.text = self.raw[self.start : end].decode("utf-8", "surrogatepass")
        self.at = 0
        self.final = end == len(self.raw)

    def skip(self) -> None:
        """Past whitespace, into the next window as needed."""
        while True:
            self.at = _WHITESPACE.match(self.text, self.at).end()  # type: ignore[union-attr]
            if self.at < len(self.text) or self.final:
                return
            self.slide(grow=False)

    def char(self) -> str:
        """The character at `at` after whitespace ('' at the end of the file)."""
        self.skip()
        return self.text[self.at : self.at + 1]

    def value(self) -> Any:
        """The JSON value at `at`, whole (the window grows until it holds it)."""
        while True:
            try:
                value, end = _DECODER.raw_decode(self.text, self.at)
            except json.JSONDecodeError:
                if self.final:
                    raise
                self.slide(grow=True)
                continue
            if end + _LOOKAHEAD <= len(self.text) or self.final:
                self.at = end
                return value
            self.slide(grow=True)


def loads_in_steps(raw: bytes, levels: int = 2, window: int = STEP_WINDOW) -> Any:
    """`json.loads(raw)`, parsed a value at a time below the top `levels` objects (a TinyDB
    file: its tables, then each document) and decoded a `window` of bytes at a time. A thread
    parsing papers.json (177 MB at 100,000 papers) then lets the UI thread run between two
    documents: `json.loads` held the interpreter lock for 2.6 s in one call, and built the
    whole file as one string first (709 MB with one emoji in an abstract).

    The result is `json.loads(raw)`'s: every value is read by the same decoder, every
    separator is checked, and anything not shaped as expected (not UTF-8 without a BOM, not an
    object, a stray character, a value that does not parse) is left to `json.loads` whole, so
    its errors are the same too."""
    try:
        if json.detect_encoding(raw) != "utf-8":
            raise _Unexpected
        reader = _Window(raw, window)
        if reader.char() != "{":
            raise _Unexpected
        data = _object_in_steps(reader, levels)
        if reader.char() != "":
            raise _Unexpected  # more than one value
    except (_Unexpected, ValueError, RecursionError):
        return json.loads(raw)
    return data


def _object_in_steps(reader: _Window, levels: int) -> dict[str, Any]:
    """The object at the reader (past its `{`); its values one at a time, those that are
    objects themselves in steps too while `levels` > 1."""
    reader.at += 1
    result: dict[str, Any] = {}
    if reader.char() == "}":
        reader.at += 1
        return result
    while True:
        if reader.char() != '"':
            raise _Unexpected
        name = reader.value()
        if reader.char() != ":":
            raise _Unexpected
        reader.at += 1
        if levels > 1 and reader.char() == "{":
            value = _object_in_steps(reader, levels - 1)
        else:
            reader.skip()
            value = reader.value()
        result[name] = value  # a name given twice: the last wins, as in json.loads
        separator = reader.char()
        reader.at += 1
        if separator == "}":
            return result
        if separator != ",":
            raise _Unexpected


def dumps(data: Mapping[str, Any], *, indent: int | None = None) -> bytes:
    """Serialise a TinyDB document tree the way papershelf stores it (UTF-8, not ASCII-escaped)."""
    separators = (",", ": ") if indent is not None else (",", ":")
    return json.dumps(data, ensure_ascii=False, indent=indent, separators=separators).encode()


WRITE_CHUNK = 1024 * 1024
"""`dump_chunks` hands documents to the writer in pieces of about this size."""

DocumentSeen = Callable[[str, int, bytes], None]
"""Told of each document `dump_chunks` writes: its table, byte offset in the file, bytes."""


def dump_chunks(data: Mapping[str, Any], seen: DocumentSeen | None = None) -> Iterator[bytes]:
    """`dumps(data)` (no indent) as chunks of about `WRITE_CHUNK` bytes: a table's documents
    one at a time, so that writing papers.json never holds its whole text (170 MB at 100,000
    papers, four times that as a Python string with one non-Latin character). The bytes are
    exactly `dumps(data)`'s. `seen` is told where each document of each table lands.

    A table's documents are encoded by `_document_encoder` (orjson: the same bytes, faster)."""
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    document_bytes = _document_encoder()
    position = 0
    pending: list[bytes] = []
    pending_size = 0

    def put(part: bytes) -> None:
        nonlocal position, pending_size
        pending.append(part)
        position += len(part)
        pending_size += len(part)

    put(b"{")
    for number, (name, value) in enumerate(data.items()):
        put((b"," if number else b"") + encode(name).encode() + b":")
        if not _is_table(value):
            put(encode(value).encode())
            continue
        put(b"{")
        for index, (doc_id, document) in enumerate(value.items()):
            put((b"," if index else b"") + document_bytes(doc_id) + b":")
            raw = document_bytes(document)
            if seen is not None:
                seen(name, position, raw)
            put(raw)
            if pending_size >= WRITE_CHUNK:
                yield b"".join(pending)
                pending.clear()
                pending_size = 0
        put(b"}")
    put(b"}")
    yield b"".join(pending)


def _document_encoder() -> Callable[[object], bytes]:
    """`dumps(value)` of a document (or a document id), by orjson: byte for byte what the
    standard library's compact, UTF-8 encoder writes (`test_places` compares them on any
    text), in a third of the time; at 100,000 papers this is most of writing papers.json,
    which an import does on one CPU after its parallel part. A value orjson refuses (a lone
    surrogate, an integer past 64 bits, keys that are not text, nesting past 254) goes
    through the standard library as before. Floats are written by orjson's rules (still JSON;
    NaN becomes null): no document papershelf writes holds one."""
    import orjson  # here: the app's start writes no papers.json

    fast = orjson.dumps
    slow = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode

    def encode(value: object) -> bytes:
        try:
            return fast(value)
        except TypeError:
            return slow(value).encode()

    return encode


def _is_table(value: object) -> bool:
    """A TinyDB table: documents (objects) by string id."""
    return isinstance(value, dict) and all(
        isinstance(doc_id, str) and isinstance(document, dict) for doc_id, document in value.items()
    )


class AtomicJSONStorage(Storage):
    """TinyDB storage: atomic whole-file writes, stat-validated read cache, no in-place edits.

    `read()` returns the same dict object for as long as the file is unchanged; callers that
    mutate it must pass it to `write()` (as TinyDB's tables do), which makes it the cached value.
    A failed write drops the cache, so the next read sees the file as it really is.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        indent: int | None = None,
        sync: bool = True,
        keep_raw: bool = False,
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self.indent = indent
        self.sync = sync
        self._cache: tuple[StatKey, dict[str, Any]] | None = None
        self.keep_raw = keep_raw
        self.raw: bytes | None = None
        """With `keep_raw`: the bytes of the version last read or written (for a small file
        whose exact bytes are kept elsewhere too, like state.json's backups)."""

    def current_key(self) -> StatKey | None:
        """The `StatKey` of the file on disk now, or None when it does not exist."""
        try:
            return stat_key(os.stat(self.path))
        except FileNotFoundError:
            return None

    @property
    def loaded_key(self) -> StatKey | None:
        """The `StatKey` of the version `read()` last returned or `write()` wrote (None: none)."""
        return self._cache[0] if self._cache is not None else None

    def read(self) -> dict[str, Any] | None:
        """The file's data (None when it does not exist); `CorruptFileError` if unreadable."""
        key = self.current_key()
        if key is None:
            self._cache = None
            return None
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        try:
            found = read_keyed(self.path)
        except OSError as error:
            raise LibraryError(f"cannot read {self.path}: {_describe(error)}") from error
        if found is None:
            self._cache = None
            return None
        key, raw = found
        data = self._parse(raw, key)
        self._cache = (key, data)
        self.raw = raw if self.keep_raw else None
        return data

    def _parse(self, raw: bytes, key: StatKey) -> dict[str, Any]:
        return parse_object(raw, self.path, key)

    def write(self, data: dict[str, Any]) -> None:
        """Replace the file with `data`; raises `SaveError` (file untouched) on failure."""
        self.write_payload(data)

    def write_chunks(self, data: dict[str, Any], seen: DocumentSeen | None = None) -> None:
        """`write`, a document at a time (`dump_chunks`, without indent): for a large file
        whose bytes are not kept (`keep_raw` off); `seen` learns where each document lies."""
        if self.keep_raw or self.indent is not None:
            raise ValueError("write_chunks writes unindented files whose bytes are not kept")
        try:
            key = atomic_write(self.path, dump_chunks(data, seen), sync=self.sync)
        except BaseException:
            self._cache = None
            raise
        self._cache = (key, data)
        self.raw = None

    def write_payload(self, data: dict[str, Any]) -> bytes:
        """`write`, returning the bytes written (what a backup of this version keeps)."""
        payload = dumps(data, indent=self.indent)
        try:
            key = atomic_write(self.path, payload, sync=self.sync)
        except BaseException:
            self._cache = None
            raise
        self._cache = (key, data)
        self.raw = payload if self.keep_raw else None
        return payload

    def quarantine(self, key: StatKey, suffix: str) -> Path | None:
        """Move the damaged file described by `key` aside to `<name>.corrupt-<suffix>`.

        Returns the new path, or None when the file was meanwhile replaced (it is not moved then:
        whatever is there now was not seen to be damaged). Callers hold the library lock.
        """
        target = move_aside(self.path, key, suffix)
        if target is not None:
            self._cache = None
        return target

    def keep_damaged(self, key: StatKey, suffix: str) -> Path | None:
        """Keep a copy of the damaged file described by `key` aside, leaving it in place until
        a good version replaces it (see `keep_aside`). Callers hold the library lock."""
        self._cache = None
        return keep_aside(self.path, key, suffix)

    def close(self) -> None:
        """Nothing is buffered, so there is nothing to flush."""
        self._cache = None
