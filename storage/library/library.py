"""The Library: one data directory holding the imported papers and the user's state.

Layout of the data directory (`default_root()` unless given):

- `papers.json` — the corpus, rewritten only by an import.
- `state.json` — the user's tags, statuses, stars and notes (only non-default entries), rewritten
  on every change. Both are TinyDB files (`{"meta": {...}, "<table>": {"<paper id>": {...}}}`)
  written by `AtomicJSONStorage`, each carrying a schema version in its `meta` table.
- `.lock` — the inter-process lock held around every read-modify-write (a read-only open,
  `Library.open(read_only=True)`, takes no lock and creates no lock file).
- `backups/state-<n>.json` — copies of the last versions of state.json, `state-1` being the
  one saved last; a damaged state.json is recovered from the newest readable one
  (`storage.library.state_backups`, `_recover_state`), and the user is told (`take_notices`).
- `journal.json` — the undo / redo history of the user's state (see `storage.library.journal`).
- `papers.cache` — a fast copy of papers.json, trusted only while papers.json is unchanged (see
  `papershelf.storage.library.papers_cache`).
- `listing.cache` — what `papershelf list` prints and searches, trusted on the same terms (see
  `papershelf.storage.search.listing`; written by the CLI, never by the Library).

Every change re-reads state.json under the lock, applies itself, writes the whole file atomically
and releases the lock, so two processes never lose each other's updates. A change returns only
once it is on disk; if the write fails the change stays in memory (`pending`, with its undo step)
and is written by the next change or by `save()`.

Nothing written to papers.json or state.json is ever taken from a cache: an import re-reads
papers.json itself, and a damaged papers.json is moved aside, never rebuilt from a copy.

Every change to entries is also one step of the undo journal, written right after state.json
under the same lock: `undo()` / `redo()` take it back (or forward) and survive a restart.
"""

from __future__ import annotations

import os
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime
from operator import attrgetter
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from papershelf.storage.caches.columns import is_optional_str, is_str, is_str_tuples, valid_columns
from papershelf.storage.errors import (
    Ambiguous,
    LibraryError,
    NotFound,
    PapershelfError,
    SaveError,
)
from papershelf.storage.files.jsonstore import (
    AtomicJSONStorage,
    CorruptFileError,
    StatKey,
    atomic_write,
    parse_object,
    stale_temp_files,
)
from papershelf.storage.files.layout import (
    LISTING_FILE,
    META_ID,
    PAPERS_FILE,
    RELATED_CACHE,
    SCHEMA_VERSION,
    SEARCH_CACHE,
    STATE_FILE,
    default_root,
    entries_from_records,
    meta_problem,
    resolve_root,
)
from papershelf.storage.library import journal, papers_cache, state_backups
from papershelf.storage.library.journal import JournalStore, Step, UndoOutcome
from papershelf.storage.model import (
    STATUSES,
    Entry,
    Paper,
    Status,
    file_stamp,
    normalise_tag,
    utc_now,
)
from papershelf.storage.text.clean import clean_name, clean_text

if TYPE_CHECKING:
    import filelock

    # Imported where used: `papershelf list` and the app's start never parse a file.
    from papershelf.storage.ingest import parse

__all__ = [
    "LOCK_TIMEOUT",
    "SCHEMA_VERSION",
    "FileReport",
    "InvalidInput",
    "Library",
    "LibraryBusy",
    "NoLibrary",
    "UndoOutcome",
    "bundled_seed_files",
    "default_root",
]

LOCK_FILE = ".lock"
LOCK_TIMEOUT = 5.0
"""Seconds to wait for another papershelf process to finish saving."""
NOTE_MAX_CHARS = 20_000
_DEFAULT_ENTRY = Entry()
_PAPER_FIELDS = tuple(field.name for field in fields(Paper))


class InvalidInput(PapershelfError):
    """A value the user gave cannot be stored (an unusable tag, an unknown status)."""


class LibraryBusy(LibraryError):
    """Another papershelf process held the library's lock for longer than the timeout."""


class NoLibrary(LibraryError):
    """The directory holds no library, and the command may not start one."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"no papershelf library in {path}; start one with papershelf import FILE, "
            "or run papershelf (it adds the bundled papers)"
        )
        self.path = path


def holds_library(path: Path) -> bool:
    """Whether `path` is (or was) a library: its papers or its state, or one of them moved
    aside as damaged. Nothing else counts: a `backups/` folder or a `journal.json` is a common
    name in any directory, and opening one as a library would write into it."""
    if not path.is_dir():
        return False
    names = (PAPERS_FILE, STATE_FILE)
    if any(os.path.lexists(path / name) for name in names):
        return True
    return any(any(path.glob(f"{name}.corrupt-*")) for name in names)


class _NeedsLock(Exception):
    """A read-only open met a damaged file: only a locked open may move it aside."""


@dataclass(frozen=True, slots=True)
class FileReport:
    """What importing one file did. `error` is a one-line message when the file imported nothing."""

    source: str
    added: int = 0
    duplicates: int = 0
    skipped: int = 0
    error: str | None = None


def bundled_seed_files() -> list[Path]:
    """The abstract lists a first start imports: the installed `papershelf.seeds` data package, or
    the checkout's `seeds/` directory when running from source or an editable install."""
    found: list[Path] = []
    try:
        from importlib.resources import files

        package = files("papershelf.seeds")
        found = sorted(Path(str(item)) for item in package.iterdir() if item.name.endswith(".txt"))
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):
        found = []
    if found and all(path.is_file() for path in found):
        return found
    checkout = Path(__file__).resolve().parents[2] / "seeds"  # storage/library/ -> the checkout
    return sorted(checkout.glob("*.txt"))


def _meta(kind: str) -> dict[str, dict[str, Any]]:
    return {META_ID: {"schema": SCHEMA_VERSION, "kind": kind, "app": "papershelf"}}


def _paper_from_record(record: Any) -> Paper:
    """Fast path for records papershelf wrote itself; `Paper.from_dict` for anything else.

    The list fields must be lists (a text would split into letters); the other fields' types
    are checked column by column afterwards (`_papers_from_records`).
    """
    try:
        sources, code_urls = record["sources"], record["code_urls"]
        links, authors = record["links"], record["authors"]
        lists = type(sources) is list and type(code_urls) is list
        if lists and type(links) is list and type(authors) is list:
            return Paper(
                record["id"],
                record["name"],
                record["title"],
                record["abstract"],
                record["venue"],
                tuple(sources),
                tuple(code_urls),
                tuple(links),
                record["imported_at"],
                tuple(authors),
                record["url"],
            )
    except (KeyError, TypeError):
        pass
    return Paper.from_dict(record)


_PAPER_CHECKS = (
    is_str,  # id
    is_str,  # name
    is_optional_str,  # title
    is_str,  # abstract
    is_optional_str,  # venue
    is_str_tuples,  # sources
    is_str_tuples,  # code_urls
    is_str_tuples,  # links
    is_str,  # imported_at
    is_str_tuples,  # authors
    is_optional_str,  # url
)


def _papers_from_records(records: dict[str, Any]) -> dict[str, Paper]:
    """papers.json's `papers` table as Papers by id; `ValueError` (naming the paper) when a
    record is not one papershelf could have written, or is filed under another paper's id."""
    try:
        papers = list(map(_paper_from_record, records.values()))
    except ValueError as error:
        raise ValueError(f"a paper record is invalid: {error}") from None
    # Types checked a column at a time, in C (a Python check per field would cost more than
    # building the papers).
    columns = [tuple(map(attrgetter(name), papers)) for name in _PAPER_FIELDS]
    if not valid_columns(tuple(columns), _PAPER_CHECKS):
        for paper in papers:
            Paper.from_dict(paper.to_dict())  # names the first bad field
        raise ValueError("a paper record is invalid")
    loaded = dict(zip(records, papers, strict=True))
    for key, paper in loaded.items():
        if key != paper.id:
            raise ValueError(f"the record filed as {key[:20]!r} is paper {paper.id[:20]!r}")
    return loaded


def fold_name(text: str) -> str:
    """A name as a person may type it: `K2IE` for `K²IE`, `deja` for `Déjà`, any case.
    (Compatibility forms are unfolded, accents dropped, then case folded.)"""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


class Library:
    """The papers and the user's entries of one data directory; see the module docstring."""

    def __init__(self, root: Path, *, lock_timeout: float = LOCK_TIMEOUT) -> None:
        """Use `Library.open`, which also loads the files and seeds an empty library."""
        self.root = root
        self.lock_timeout = lock_timeout
        self._papers_store = AtomicJSONStorage(root / PAPERS_FILE)
        self._state_store = AtomicJSONStorage(root / STATE_FILE, keep_raw=True)
        self._file_lock: filelock.FileLock | None = None
        """Made on first use: importing filelock costs a read-only `papershelf list` 20+ ms."""
        self._thread_lock = threading.RLock()
        self._lock_depth = 0
        """How deep this process is inside `_locked()`; damaged files are moved only under it."""
        self._papers: dict[str, Paper] = {}
        self._paper_list: tuple[Paper, ...] | None = None
        self._papers_raw: dict[str, Any] | None = None
        self._papers_key: StatKey | None = None
        """StatKey of the papers.json `_papers` holds (read from it, its cache, or written)."""
        self._papers_cache = root / papers_cache.CACHE_FILE
        self._entries: dict[str, Entry] = {}
        self._state_raw: dict[str, Any] | None = None
        self._pending_entries: set[str] = set()
        self._pending_steps: list[Step] = []
        """Undo steps of changes not saved yet (see `_commit`)."""
        self._state_rewrite = False
        """state.json must be written whole from memory: it was recovered (from a backup or
        from what this process held) but the write failed; `_handled_damage` is the damaged
        file's StatKey, so meeting it again does not recover (and report) it twice."""
        self._handled_damage: StatKey | None = None
        self._pending_papers: set[str] = set()
        self._revision = 0
        self._journal = JournalStore(root)
        self._notices: list[str] = []
        """One-line messages about what the library did on its own (see `take_notices`)."""
        self._papers_notice = False
        self._backup_problem: str | None = None
        """Why the last backup could not be kept (told once; see `_backup_failed`)."""
        """Whether a notice already told the user how to get damaged papers back."""

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        root: str | os.PathLike[str] | None = None,
        seed: bool = True,
        *,
        lock_timeout: float = LOCK_TIMEOUT,
        read_only: bool = False,
        create: bool = True,
    ) -> Library:
        """Open (creating if needed) the library in `root` (default: `default_root()`).

        Removes temp files left by a killed writer, loads both files and, when `seed` is true and
        the library holds no papers, imports the bundled seeds. Raises `LibraryError` when a file
        is damaged (it is moved aside first), written by a newer papershelf, or locked too long.

        `read_only` loads the files without the lock (every write replaces a whole file, so a
        reader sees one version or the other) and leaves temp files alone: for a process that
        only reads, like `papershelf list`. Anything that needs a write (seeding an empty
        library, moving a damaged file aside) falls back to the ordinary locked open; later
        changes through the library lock as always.

        Without `create`, a directory that holds no library (a mistyped `--db`) raises
        `NoLibrary` and nothing is written: only the app's first start and an import make one.
        """
        path = resolve_root(root)
        if not create and not holds_library(path):
            raise NoLibrary(path)
        if read_only:
            library = cls._open_unlocked(path, lock_timeout, seed)
            if library is not None:
                return library
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise LibraryError(f"cannot create the library directory {path}: {error}") from error
        if not path.is_dir():
            raise LibraryError(f"{path} is not a directory")
        library = cls(path, lock_timeout=lock_timeout)
        with library._locked():
            library._remove_stale_temp_files()
            library._reload_papers()
            library._reload_state()
            first_start = not library._papers and not library._has_history()
        if seed and first_start:
            library.import_files(bundled_seed_files())
        elif not library._papers and not first_start and not library._papers_notice:
            library._notices.append(
                f"the library in {path} has no papers (papers.json is missing): import your "
                "files (papershelf import FILE...); tags and notes already in state.json come "
                "back with their papers"
            )
        return library

    def _has_history(self) -> bool:
        """Whether this directory was ever a library: then it is never seeded again (the seeds
        would quietly join papers that were lost or moved aside)."""
        root = self.root
        if (root / STATE_FILE).exists():
            return True
        return any(root.glob(f"{PAPERS_FILE}.corrupt-*")) or self._journal.path.exists()

    @classmethod
    def _open_unlocked(cls, path: Path, lock_timeout: float, seed: bool) -> Library | None:
        """The library in `path` read without the lock, or None when only a locked open will do."""
        if not path.is_dir() or not (path / PAPERS_FILE).is_file():
            return None  # a first start: it creates the directory and may seed
        library = cls(path, lock_timeout=lock_timeout)
        try:
            library._reload_papers()
            library._reload_state()
        except _NeedsLock:
            return None
        if seed and not library._papers:
            return None
        return library

    def _remove_stale_temp_files(self) -> None:
        # Only called under the lock: no live writer can own a temp file now.
        for store in (self._papers_store, self._state_store):
            for temp in stale_temp_files(store.path):
                with suppress(OSError):
                    temp.unlink()
        for temp in self._journal.temp_files():
            with suppress(OSError):
                temp.unlink()
        for temp in papers_cache.temp_files(self._papers_cache):
            with suppress(OSError):
                temp.unlink()
        # The CLI's caches, written without the lock: a temp file lost to a concurrent `list`
        # only costs that run its cache.
        for name in (LISTING_FILE, SEARCH_CACHE, RELATED_CACHE):
            for temp in stale_temp_files(self.root / name):
                with suppress(OSError):
                    temp.unlink()
        for temp in (self.root / state_backups.BACKUP_DIR).glob(".*.tmp"):
            with suppress(OSError):
                temp.unlink()

    # -- locking and loading ---------------------------------------------------------------

    @contextmanager
    def _locked(self, timeout: float | None = None) -> Iterator[None]:
        import filelock

        wait = self.lock_timeout if timeout is None else timeout
        with self._thread_lock:
            if not self._lock_depth:
                self._check_lock_file()
            if self._file_lock is None:
                self._file_lock = filelock.FileLock(
                    self.root / LOCK_FILE,
                    thread_local=False,
                    poll_interval=0.002,
                    preserve_lock_file=True,
                )
            try:
                self._file_lock.acquire(timeout=wait)
            except filelock.Timeout:
                raise LibraryBusy(
                    f"library is busy: another papershelf is saving to {self.root} "
                    f"(waited {wait:g} s); try again"
                ) from None
            except OSError as error:
                raise LibraryError(f"cannot lock the library in {self.root}: {error}") from error
            self._lock_depth += 1
            try:
                yield
            finally:
                self._lock_depth -= 1
                self._file_lock.release()

    def _check_lock_file(self) -> None:
        """Fail at once, naming the reason, when the lock file cannot be opened: filelock would
        retry until the timeout and the user would be told another papershelf is busy."""
        path = self.root / LOCK_FILE
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise LibraryError(
                f"cannot use {self.root} as a library: cannot create its lock file {path} "
                f"({error.strerror or error})"
            ) from None
        os.close(fd)

    def _read(self, store: AtomicJSONStorage, kind: str) -> dict[str, Any] | None:
        """Read one file (None: there is none); `CorruptFileError` when it is damaged,
        `LibraryError` when it is another program's or a newer papershelf's."""
        data = store.read()
        if data is not None:
            self._check_meta(data, kind, store.path)
            table = data.get(kind if kind == "papers" else "entries", {})
            if not isinstance(table, dict):
                reason = f"its {kind} table is not an object"
                raise CorruptFileError(store.path, reason, store.loaded_key)
        return data

    @staticmethod
    def _check_meta(data: dict[str, Any], kind: str, path: Path) -> None:
        problem = meta_problem(data, kind)
        if problem == "foreign":
            raise LibraryError(
                f"{path} is not a papershelf {kind} file; it was left untouched "
                "(choose another data directory with --db, or move the file away)"
            )
        if problem == "newer":
            schema = data["meta"][META_ID]["schema"]
            raise LibraryError(
                f"{path} was written by a newer papershelf (schema {schema}; this version reads "
                f"up to {SCHEMA_VERSION}); it was left untouched: upgrade papershelf to open it"
            )

    def _move_aside(
        self, store: AtomicJSONStorage, error: CorruptFileError, *, keep_in_place: bool = False
    ) -> Path | None:
        """Move the damaged file aside (under the lock), or with `keep_in_place` keep a copy
        aside and leave it until a good version replaces it; None when it was replaced
        meanwhile by another process."""
        if not self._lock_depth:
            raise _NeedsLock  # a read-only open: the locked open moves the file aside
        if error.key is None:
            return None
        stamp = file_stamp()
        try:
            if keep_in_place:
                return store.keep_damaged(error.key, stamp)
            return store.quarantine(error.key, stamp)
        except OSError as move_error:
            raise LibraryError(
                f"{store.path} is damaged ({error.reason}) and could not be moved aside "
                f"({move_error.strerror}); move it away by hand, then start papershelf again"
            ) from None

    def _reload_papers(self, *, for_write: bool = False) -> bool:
        """Re-read papers.json if it changed on disk (under the lock); True when it did.

        papers.cache (`library.papers_cache`, checksummed) stands in for parsing a papers.json it
        was made from, except `for_write`: what is written to papers.json is only ever taken
        from papers.json itself (and the files being imported), never from a cache.
        """
        key = self._papers_store.current_key()
        from_file = self._papers_raw is not None or self._papers_key is None
        if key is not None and key == self._papers_key and (from_file or not for_write):
            return False
        cached = None
        if key is not None and not for_write:
            cached = papers_cache.load(self._papers_cache, key)
        if cached is not None:
            data = None  # raw records unread: a write re-reads papers.json first
            loaded = {paper.id: paper for paper in cached}
        else:
            try:
                data = self._read(self._papers_store, "papers")
                if data is self._papers_raw and (data is not None or self._papers_key is None):
                    return False
                loaded = self._papers_of(data)
            except CorruptFileError as error:
                self._papers_damaged(error)
                data, loaded = None, {}
            key = self._papers_store.loaded_key
            if data is not None and key is not None:
                papers_cache.save(self._papers_cache, key, loaded.values())
        if self._pending_papers:
            from papershelf.storage.ingest import parse

            # An import that failed to save is still wanted: lay it over what is on disk now.
            for paper_id in self._pending_papers:
                mine = self._papers[paper_id]
                old = loaded.get(paper_id)
                loaded[paper_id] = mine if old is None else parse.merge_papers(old, mine)
        self._papers = loaded
        self._papers_raw = data
        self._papers_key = key
        self._paper_list = None
        self._revision += 1
        return True

    def _papers_of(self, data: dict[str, Any] | None) -> dict[str, Paper]:
        try:
            return _papers_from_records((data or {}).get("papers", {}))
        except (TypeError, ValueError, AttributeError) as error:
            store = self._papers_store
            raise CorruptFileError(store.path, str(error), store.loaded_key) from None

    def _papers_damaged(self, error: CorruptFileError) -> None:
        """papers.json is damaged: move it aside and go on without papers, saying how to get
        them back. Nothing is written in its place: papers.json is rebuilt from the user's
        own files by importing them again (the ids come from the abstracts, so every tag
        finds its paper again), never from a copy held in memory or in a cache."""
        moved = self._move_aside(self._papers_store, error)
        if moved is None:
            raise LibraryError(
                f"{self._papers_store.path} changed while it was being read; try again"
            )
        self._papers_notice = True
        self._notices.append(
            f"{self._papers_store.path} was damaged ({error.reason}) and moved to {moved}; "
            "your tags and notes are safe in state.json: import your files again "
            "(papershelf import FILE...) to bring the papers back"
        )

    def _reload_state(self) -> bool:
        """Re-read state.json if it changed on disk (under the lock); True when it did.

        A damaged state.json is moved aside and recovered from the newest readable backup
        (see `_recover_state`); it is never overwritten in place or taken for an empty one.
        """
        try:
            data = self._read(self._state_store, "state")
            if data is self._state_raw:
                return False
            loaded = self._entries_of(data, self._state_store)
        except CorruptFileError as error:
            if error.key is not None and error.key == self._handled_damage:
                return False  # recovered into memory already; the next save replaces it
            data, loaded = self._recover_state(error)
        else:
            # A whole state.json (written by another process since) supersedes a recovery
            # this process could not write.
            self._state_rewrite = False
            self._handled_damage = None
            raw = self._state_store.raw
            if self._lock_depth and raw is not None:
                self._backup_failed(state_backups.keep_if_behind(self.root, raw))
        for paper_id in self._pending_entries:
            # Changes that failed to save win over the disk version of the same paper.
            mine = self._entries.get(paper_id)
            if mine is None:
                loaded.pop(paper_id, None)
            else:
                loaded[paper_id] = mine
        changed = loaded != self._entries
        self._entries = loaded
        self._state_raw = data
        if changed:
            self._revision += 1
        return changed

    @staticmethod
    def _entries_of(data: dict[str, Any] | None, store: AtomicJSONStorage) -> dict[str, Entry]:
        try:
            return entries_from_records((data or {}).get("entries", {}))
        except (TypeError, ValueError, AttributeError) as error:
            reason = f"an entry is invalid: {error}"
            raise CorruptFileError(store.path, reason, store.loaded_key) from None

    def _recover_state(
        self, error: CorruptFileError
    ) -> tuple[dict[str, Any] | None, dict[str, Entry]]:
        """state.json is damaged: keep it aside, put back the newest backup that reads as a
        whole (state-1 is a copy of the last version saved, so normally nothing is lost), and
        say so. Without a readable backup, the entries this process holds are saved again, or
        the library starts with none. The damaged file is always kept.

        Until a good version replaces it, the damaged file stays where it is (a hard link
        keeps the copy aside): a full disk or a kill mid-recovery must leave a file the next
        command recovers again, never a missing one it would take for an empty library.
        """
        store = self._state_store
        found = state_backups.newest_readable(self.root, self._parse_backup)
        held = self._entries
        kept = self._move_aside(store, error, keep_in_place=found is not None or bool(held))
        if kept is None:
            # Replaced by another process since it was read: that version was not seen to be
            # damaged, so read it again.
            data = self._read(store, "state")
            return data, self._entries_of(data, store)
        damaged = f"{store.path} was damaged ({error.reason}); it was kept as {kept}"
        if found is not None:
            path, raw, recovered = found
            when = datetime.fromtimestamp(path.stat().st_mtime, UTC).strftime("%Y-%m-%d %H:%M")
            told = f"{damaged}; your tags, statuses, stars and notes were recovered from {path} "
            told += f"(saved {when} UTC)"
            if path != state_backups.backup_path(self.root, 1):
                told += " (newer backups were damaged or missing: changes after that are lost)"
            try:
                atomic_write(store.path, raw)
            except SaveError as failed:
                # Never stop the library from opening: hold the recovered version as unsaved
                # (the next save writes it; the damaged file stays for the next command).
                self._notices.append(f"{told}, but it is not saved yet: {failed}")
                return None, self._unsaved_recovery(recovered, error.key)
            self._notices.append(told)
            data = self._read(store, "state")
            return data, self._entries_of(data, store)
        if held:
            # This process read the last good version, and no backup is readable (so nothing
            # newer exists): save it again rather than lose it.
            self._notices.append(
                f"{damaged}; no backup could be read, so the {len(held)} entries this "
                "papershelf holds were saved again"
            )
            return None, self._unsaved_recovery(held, error.key)
        self._notices.append(
            f"{damaged}; no backup could be read, so papershelf starts with no tags: the "
            "damaged file is kept, and a fixed copy of it can be put back with papershelf closed"
        )
        return None, {}

    def _unsaved_recovery(
        self, recovered: Mapping[str, Entry], damaged: StatKey | None
    ) -> dict[str, Entry]:
        """Make `recovered` (with this process's unsaved changes over it) the entries, to be
        written whole by the next save (tried at once)."""
        merged = dict(recovered)
        for paper_id in self._pending_entries:
            mine = self._entries.get(paper_id)
            if mine is None:
                merged.pop(paper_id, None)
            else:
                merged[paper_id] = mine
        self._entries = merged
        self._state_raw = None
        self._state_rewrite = True
        self._handled_damage = damaged
        with suppress(SaveError):
            self._save_state()
        return dict(merged)

    def _parse_backup(self, raw: bytes) -> dict[str, Entry]:
        """The entries of a backup of state.json; raises for one that cannot be used whole."""
        data = parse_object(raw, self._state_store.path, None)
        if meta_problem(data, "state") is not None or not isinstance(data.get("entries"), dict):
            raise ValueError("not a state file this papershelf reads")
        return entries_from_records(data["entries"])

    # -- reading ---------------------------------------------------------------------------

    @property
    def revision(self) -> int:
        """Grows whenever papers or entries change in memory (by this process or a refresh)."""
        return self._revision

    @property
    def papers_key(self) -> StatKey | None:
        """The `StatKey` of the papers.json that `papers()` holds, None when they differ from any
        file (no papers.json yet, or an import not saved): what a cache of the papers is keyed by.
        """
        return None if self._pending_papers else self._papers_key

    def take_notices(self) -> list[str]:
        """One-line messages the user must hear about, each returned once: what the library did
        on its own (a damaged file moved aside and your state recovered from a backup, ...)."""
        notices, self._notices = self._notices, []
        return notices

    @property
    def pending(self) -> bool:
        """Whether a change failed to save and is held in memory only (see `save`)."""
        return bool(self._pending_entries or self._pending_papers or self._state_rewrite)

    @property
    def unsaved_changes(self) -> int:
        """Papers whose tags, status, star or note are held in memory only (every paper with an
        entry while a recovered state.json waits to be written)."""
        if self._state_rewrite:
            return max(len(self._entries), 1)
        return len(self._pending_entries)

    @property
    def unsaved_papers(self) -> int:
        """Imported papers held in memory only (their import could not be saved)."""
        return len(self._pending_papers)

    def papers(self) -> Sequence[Paper]:
        """Every paper, in library (import) order."""
        if self._paper_list is None:
            self._paper_list = tuple(self._papers.values())
        return self._paper_list

    def get(self, paper_id: str) -> Paper:
        """The paper with exactly this id; raises `NotFound`."""
        try:
            return self._papers[paper_id]
        except KeyError:
            raise NotFound(f"no paper with id {paper_id!r}") from None

    def find(self, ref: str) -> Paper:
        """A paper by exact id, unique id prefix (>= 4 hex digits) or case-insensitive name.

        A ref that is one paper's id prefix and another paper's name (`DBAE` names a paper and
        begins another's id) is ambiguous: guessing would change the wrong paper.
        """
        ref = ref.strip()
        if not ref:
            raise NotFound("give a paper id or name")
        if ref in self._papers:
            return self._papers[ref]
        prefix = ref.lower()
        candidates: dict[str, Paper] = {}
        if len(prefix) >= 4 and all(ch in "0123456789abcdef" for ch in prefix):
            candidates = {
                pid: paper for pid, paper in self._papers.items() if pid.startswith(prefix)
            }
        folded = fold_name(ref)
        for paper in self._papers.values():
            if fold_name(paper.name) == folded:
                candidates[paper.id] = paper
        if len(candidates) == 1:
            return next(iter(candidates.values()))
        if candidates:
            found = list(candidates.values())
            shown = ", ".join(f"{paper.id} {paper.name!r}" for paper in found[:3])
            more = ", ..." if len(found) > 3 else ""
            raise Ambiguous(
                f"{ref!r} matches {len(found)} papers ({shown}{more}); give more of the id"
            )
        raise NotFound(f"no paper matches {ref!r} (give an id, an id prefix or a name)")

    def entry(self, paper_id: str) -> Entry:
        """The user's entry for a paper; a default `Entry()` when there is none."""
        return self._entries.get(paper_id, _DEFAULT_ENTRY)

    def entries(self) -> Mapping[str, Entry]:
        """The non-default entries by paper id: a read-only snapshot, replaced (never mutated)
        by each change, so ask again when `revision` changes. After a restored backup it may
        hold entries of papers not (yet) in the library."""
        return MappingProxyType(self._entries)

    def tag_counts(self, ids: Iterable[str] | None = None) -> Counter[str]:
        """How many papers carry each tag (among `ids`, or the whole library)."""
        counts: Counter[str] = Counter()
        if ids is None:
            papers = self._papers
            for paper_id, entry in self._entries.items():
                if paper_id in papers:  # a restored backup may hold papers not imported yet
                    counts.update(entry.tags)
        else:
            for paper_id in ids:
                entry = self._entries.get(paper_id)
                if entry is not None:
                    counts.update(entry.tags)
        return counts

    def refresh(self) -> bool:
        """Re-read files another process changed; True when anything in memory changed.

        Cheap when nothing changed (two stats). Never waits for a busy lock: it simply reports
        False and the next call tries again.
        """
        if (
            self._papers_store.current_key() == self._papers_key
            and self._state_store.current_key() == self._state_store.loaded_key
        ):
            return False
        try:
            with self._locked(timeout=0):
                papers_changed = self._reload_papers()
                state_changed = self._reload_state()
        except LibraryBusy:
            return False
        return papers_changed or state_changed

    # -- changing entries -------------------------------------------------------------------

    def _check_ids(self, ids: Iterable[str] | str) -> list[str]:
        if isinstance(ids, str):
            ids = [ids]
        unique = list(dict.fromkeys(ids))
        for paper_id in unique:
            if paper_id not in self._papers:
                raise NotFound(f"no paper with id {paper_id!r}")
        return unique

    def _change(
        self,
        ids: Iterable[str] | str,
        change: Callable[[Entry], Entry],
        describe: Callable[[str], str],
    ) -> int:
        """Apply `change` to each paper's entry in one locked read-modify-write of state.json.

        `describe(target)` words the journal step, `target` being `RelGNN` or `3 papers`.
        """
        unique = self._check_ids(ids)
        return self._commit(
            lambda entries: {pid: change(entries.get(pid, _DEFAULT_ENTRY)) for pid in unique},
            stamp=True,
            describe=lambda changed: describe(self._target(changed)),
        )

    def _target(self, ids: Sequence[str]) -> str:
        names = {pid: self._papers[pid].name for pid in ids[:1] if pid in self._papers}
        return journal.target_text(ids, names)

    def _commit(
        self,
        compute: Callable[[Mapping[str, Entry]], Mapping[str, Entry]],
        *,
        stamp: bool,
        describe: Callable[[list[str]], str] | None,
    ) -> int:
        """Under the lock: re-read state.json, compute the wanted entries from it, save.

        The entries dict is replaced, never mutated, so a view another thread holds stays whole.
        `stamp` sets `updated_at` on changed entries (a restore keeps the given one). When
        `describe` is given, the change is recorded as one journal step worded by
        `describe(changed ids)`; undo and redo pass None and keep the journal themselves.
        """
        with self._locked():
            self._reload_state()
            entries = dict(self._entries)
            now = utc_now()
            before: dict[str, Entry | None] = {}
            after: dict[str, Entry | None] = {}
            for paper_id, wanted in compute(self._entries).items():
                old = entries.get(paper_id, _DEFAULT_ENTRY)
                if stamp:
                    if replace(wanted, updated_at=old.updated_at) == old:
                        continue
                    wanted = replace(wanted, updated_at=now)
                elif wanted == old:
                    continue
                before[paper_id] = entries.get(paper_id)
                if wanted.is_default:
                    entries.pop(paper_id, None)
                    after[paper_id] = None
                else:
                    entries[paper_id] = wanted
                    after[paper_id] = wanted
                self._pending_entries.add(paper_id)
            if after:
                self._entries = entries
                self._revision += 1
                if describe is not None:
                    # Recorded once the change is on disk: a change that cannot be saved yet
                    # gets its undo step when a later save writes it.
                    self._pending_steps.append(Step(describe(list(after)), before, after, now))
            if self._pending_entries or self._state_rewrite:
                self._save_state()
        return len(after)

    def _save_state(self) -> None:
        """Write state.json from memory (under the lock); raises `SaveError`, keeping `pending`."""
        # Records of entries this process did not change are reused as they were read.
        previous = (self._state_raw or {}).get("entries", {})
        pending = self._pending_entries
        records = {}
        for paper_id in sorted(self._entries):
            record = None if paper_id in pending else previous.get(paper_id)
            records[paper_id] = record if record is not None else self._entries[paper_id].to_dict()
        data = {"meta": _meta("state"), "entries": records}
        payload = self._state_store.write_payload(data)
        self._state_raw = data
        self._pending_entries.clear()
        self._state_rewrite = False
        self._handled_damage = None
        self._backup_failed(state_backups.keep(self.root, payload))
        steps, self._pending_steps = self._pending_steps, []
        for step in steps:
            self._journal.push(step)

    def _backup_failed(self, reason: str | None) -> None:
        """Tell the user, once until backups work again, that a save could not be kept as a
        backup: the change is saved, but a later damaged state.json could not be recovered."""
        if reason is None:
            self._backup_problem = None
        elif self._backup_problem is None:
            self._backup_problem = reason
            self._notices.append(
                f"your change is saved, but no backup of it could be kept ({reason}): a damaged "
                "state.json could not be recovered from backups until this is fixed"
            )

    def tag(
        self, ids: Iterable[str] | str, add: Iterable[str] = (), remove: Iterable[str] = ()
    ) -> int:
        """Add and remove tags (normalised; removal wins) on papers; returns how many changed."""
        adding = frozenset(self._normalise_tags(add))
        removing = frozenset(self._normalise_tags(remove))
        words = [f"+{t}" for t in sorted(adding - removing)] + [f"-{t}" for t in sorted(removing)]
        return self._change(
            ids,
            lambda entry: replace(entry, tags=(entry.tags | adding) - removing),
            lambda target: f"tag {' '.join(words)} on {target}",
        )

    @staticmethod
    def _normalise_tags(raw: Iterable[str]) -> list[str]:
        if isinstance(raw, str):
            raw = [raw]
        try:
            return [normalise_tag(tag) for tag in raw]
        except ValueError as error:
            raise InvalidInput(str(error)) from None

    def set_status(self, ids: Iterable[str] | str, status: Status | str) -> int:
        """Set the reading status (`unread`, `reading`, `read`); returns how many changed."""
        if status not in STATUSES:
            raise InvalidInput(f"unknown status {status!r} (use {', '.join(STATUSES)})")
        return self._change(
            ids,
            lambda entry: replace(entry, status=status),  # type: ignore[arg-type]
            lambda target: f"status {status} on {target}",
        )

    def set_starred(self, ids: Iterable[str] | str, starred: bool) -> int:
        """Star or unstar papers; returns how many changed."""
        verb = "star" if starred else "unstar"
        return self._change(
            ids,
            lambda entry: replace(entry, starred=bool(starred)),
            lambda target: f"{verb} {target}",
        )

    def set_note(self, paper_id: str, note: str) -> int:
        """Replace a paper's note (control characters removed); returns 1 if it changed."""

        text = clean_text(note).strip()
        if len(text) > NOTE_MAX_CHARS:
            raise InvalidInput(f"note longer than {NOTE_MAX_CHARS} characters")
        verb = "edit note on" if text else "clear note on"
        return self._change(
            [paper_id], lambda entry: replace(entry, note=text), lambda target: f"{verb} {target}"
        )

    def edit(self, changes: Mapping[str, Callable[[Entry], Entry]], description: str) -> int:
        """Apply a different change to each paper, as one write and one undo step.

        `changes` maps paper ids to functions of the current entry; `description` words the
        undo step. Returns how many papers changed.
        """
        unique = self._check_ids(list(changes))
        return self._commit(
            lambda entries: {pid: changes[pid](entries.get(pid, _DEFAULT_ENTRY)) for pid in unique},
            stamp=True,
            describe=lambda _changed: description,
        )

    def restore(self, entries: Mapping[str, Entry], description: str | None = None) -> int:
        """Put entries back exactly as given (e.g. to undo a change); returns how many changed.

        One undo step (worded `description`, default `restore N papers`).
        """
        wanted = dict(entries)
        return self._commit(
            lambda _current: wanted,
            stamp=False,
            describe=lambda changed: description or f"restore {self._target(changed)}",
        )

    def replace_all_entries(
        self, entries: Mapping[str, Entry], description: str = "restore a backup"
    ) -> int:
        """Make the user's state exactly `entries` (a backup): every other paper's entry becomes
        the default. Ids of papers not in the library are kept in state.json, so their entries
        come back when the paper is imported again. One undo step; returns how many changed."""
        wanted = dict(entries)

        def compute(current: Mapping[str, Entry]) -> dict[str, Entry]:
            cleared = {pid: _DEFAULT_ENTRY for pid in current if pid not in wanted}
            return {**cleared, **wanted}

        return self._commit(compute, stamp=False, describe=lambda _changed: description)

    # -- undo and redo ----------------------------------------------------------------------

    def undo(self) -> str | None:
        """Take back the latest change (of any papershelf process on this library).

        Returns its description (with a note on papers changed elsewhere since, which are left
        as they are), or None when there is nothing to undo.
        """
        outcome = self.travel(back=True)
        return None if outcome is None else outcome.message

    def redo(self) -> str | None:
        """Do again the latest undone change; its description, or None when there is none."""
        outcome = self.travel(back=False)
        return None if outcome is None else outcome.message

    def travel(self, *, back: bool) -> UndoOutcome | None:
        """Undo (`back`) or redo one journal step, reporting papers in conflict; see `undo`."""
        with self._locked():
            self._reload_state()
            if self._pending_entries or self._state_rewrite:
                # Changes not saved yet come first (with their undo steps): undo must take
                # back the latest change, not the latest saved one. Raises SaveError if the
                # disk still refuses them.
                self._save_state()
            history = self._journal.load()
            stack, other = (history.undo, history.redo) if back else (history.redo, history.undo)
            if not stack:
                return None
            step = stack.pop()
            source, target = (step.after, step.before) if back else (step.before, step.after)
            plan: dict[str, list[str]] = {}

            def compute(current: Mapping[str, Entry]) -> Mapping[str, Entry]:
                wanted, plan["moved"], plan["conflicts"] = journal.plan_travel(
                    source, target, current
                )
                return wanted

            # An undo that cannot be saved is not kept half done (in memory, but not in the
            # journal, so a second `u` would go through the same step): it is taken back.
            held = (self._entries, set(self._pending_entries), self._state_raw)
            try:
                self._commit(compute, stamp=False, describe=None)
            except SaveError as error:
                self._entries, self._pending_entries, self._state_raw = held
                self._revision += 1
                verb = "undo" if back else "redo"
                raise SaveError(f"could not {verb} {step.description}: {error}") from None
            if plan["moved"]:
                other.append(step.only(plan["moved"]))
            self._journal.save(history)
        return UndoOutcome(step.description, len(plan["moved"]), tuple(plan["conflicts"]))

    @property
    def can_undo(self) -> bool:
        """Whether the journal holds a change to undo."""
        return bool(self._journal.peek().undo)

    @property
    def can_redo(self) -> bool:
        """Whether the journal holds an undone change to redo."""
        return bool(self._journal.peek().redo)

    @property
    def undo_description(self) -> str | None:
        """What `undo()` would take back (e.g. `tag +to-read on 3 papers`), or None."""
        steps = self._journal.peek().undo
        return steps[-1].description if steps else None

    @property
    def redo_description(self) -> str | None:
        """What `redo()` would do again, or None."""
        steps = self._journal.peek().redo
        return steps[-1].description if steps else None

    @property
    def journal_notice(self) -> str | None:
        """A one-line message when the undo history was lost or could not be saved."""
        return self._journal.notice

    def save(self) -> bool:
        """Write changes that failed to save earlier; True when something was written."""
        if not self.pending:
            return False
        with self._locked():
            self._reload_papers(for_write=bool(self._pending_papers))
            self._reload_state()
            if self._pending_papers:
                self._save_papers()
            if self._pending_entries or self._state_rewrite:
                self._save_state()
        return True

    # -- importing ---------------------------------------------------------------------------

    def import_files(
        self,
        paths: Iterable[str | os.PathLike[str]],
        venue: str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[FileReport]:
        """Import abstract lists; one report per file, in order. papers.json is written at most
        once, and only when something changed; state.json is never touched.

        A file that fails to parse imports nothing and gets `FileReport.error`; the others still
        import. `progress(done_files, total_files)` is called after each file is parsed.
        """
        from papershelf.storage.ingest import parse

        files = [Path(path) for path in paths]
        parsed: list[parse.ParseResult | FileReport] = []
        for done, path in enumerate(files, start=1):
            try:
                parsed.append(parse.read_file(path, venue))
            except PapershelfError as error:
                parsed.append(FileReport(parse.source_name(path), error=str(error)))
            except OSError as error:
                # Names are cleaned: a newline or ESC in one must not reach the terminal.
                where = clean_name(str(path))
                error_line = f"{where}: {error.strerror}"
                parsed.append(FileReport(parse.source_name(path), error=error_line))
            if progress is not None:
                progress(done, len(files))
        batches = [result.papers for result in parsed if not isinstance(result, FileReport)]
        counts = iter(self._import(batches))
        reports: list[FileReport] = []
        for result in parsed:
            if isinstance(result, FileReport):
                reports.append(result)
            else:
                added, seen = next(counts)
                reports.append(
                    FileReport(result.source, added, result.duplicates + seen, result.skipped)
                )
        return reports

    def import_papers(self, papers: Iterable[Paper], source: str = "") -> FileReport:
        """Import parsed papers (merged by id like a file's); one write if anything changed."""
        ((added, seen),) = self._import([list(papers)])
        return FileReport(source, added, seen, 0)

    def _import(self, batches: Sequence[Sequence[Paper]]) -> list[tuple[int, int]]:
        """Merge batches of papers by id in one locked read-modify-write of papers.json.

        Returns (added, already present) per batch. The papers dict is replaced, never mutated.
        """
        with self._locked():
            self._reload_papers(for_write=True)
            papers = dict(self._papers)
            changed: set[str] = set()
            counts = [self._merge(batch, papers, changed) for batch in batches]
            if changed:
                self._papers = papers
                self._paper_list = None
                self._revision += 1
                self._pending_papers |= changed
            if self._pending_papers:
                # Also papers an earlier import could not save: they are in memory only.
                self._save_papers()
        return counts

    @staticmethod
    def _merge(
        batch: Sequence[Paper], papers: dict[str, Paper], changed: set[str]
    ) -> tuple[int, int]:
        from papershelf.storage.ingest import parse

        added = seen = 0
        for paper in batch:
            old = papers.get(paper.id)
            if old is None:
                added += 1
                merged = paper
            else:
                seen += 1
                merged = parse.merge_papers(old, paper)
                if merged == old:
                    continue
            papers[paper.id] = merged
            changed.add(paper.id)
        return added, seen

    def _save_papers(self) -> None:
        """Write papers.json (under the lock), reusing the stored records of unchanged papers."""
        previous = (self._papers_raw or {}).get("papers", {})
        pending = self._pending_papers
        records: dict[str, Any] = {}
        for paper_id, paper in self._papers.items():
            record = None if paper_id in pending else previous.get(paper_id)
            records[paper_id] = record if record is not None else paper.to_dict()
        data = {"meta": _meta("papers"), "papers": records}
        self._papers_store.write(data)
        self._papers_raw = data
        self._pending_papers = set()
        self._papers_key = self._papers_store.loaded_key
        if self._papers_key is not None:
            papers_cache.save(self._papers_cache, self._papers_key, self._papers.values())
