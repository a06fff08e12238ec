"""The Library: one data directory holding the imported papers and the user's state.

Layout of the data directory (`default_root()` unless given):

- `papers.json` — the corpus, rewritten by an import and by a removal (its `removed` table
  remembers the papers removed, so imports skip them; see `storage.library.removal`).
- `state.json` — the user's tags, statuses, stars and notes (only non-default entries), rewritten
  on every change. Both are TinyDB files (`{"meta": {...}, "<table>": {"<paper id>": {...}}}`)
  written by `AtomicJSONStorage`, each carrying a schema version in its `meta` table.
- `.lock` — the inter-process lock held around every read-modify-write (a read-only open,
  `Library.open(read_only=True)`, takes no lock and creates no lock file).
- `backups/state-<n>.json` — copies of the last versions of state.json, `state-1` being the
  one saved last; a damaged state.json is recovered from the newest readable one
  (`storage.library.state_backups`, `StateFile._recover`), and the user is told (`take_notices`).
- `journal.json` — the undo / redo history of the user's state (see `storage.library.journal`).
- `papers.cache` — a fast copy of papers.json, trusted only while papers.json is unchanged (see
  `papershelf.storage.library.papers_cache`).
- `listing.cache` — what `papershelf list` prints and searches, trusted on the same terms (see
  `papershelf.storage.search.listing`; written by the CLI, never by the Library).

The Library is a small facade over focused parts, each in its own module:

- `lock.LibraryLock`: the inter-process lock;
- `papers_file.PapersFile`, `state_file.StateFile`: papers.json and state.json in memory, read
  under their checks (`records`), damaged files moved aside (`quarantine`), a damaged
  state.json recovered from backups, papers.cache kept beside papers.json;
- `changes.EntryChanges`: tags, statuses, stars, notes, each one locked write and one undo
  step, and undo / redo through the journal;
- `importer.Importer`: importing abstract lists, and the bundled seeds of a first start;
- `removal`: what removing papers takes out (`EntryChanges.remove` writes it, one undo step).

A change may run on another thread than the one that reads (the app writes a removal, its
undo and redo in a thread worker: seconds at 100,000 papers). The reading thread then calls
`hold_view()` first: until its `release_view()`, every reading method answers from the papers
and entries as they were, whatever the change does meanwhile, and the change's result appears
at once, whole, on release. The change itself reads and writes the parts directly, never
through the held view.

This module is longer than the others only because each public method keeps its docstring
beside its one-line delegation, so the whole API reads in one place.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from papershelf.storage.caches.places import Places
from papershelf.storage.errors import Ambiguous, LibraryError, NotFound
from papershelf.storage.files.jsonstore import StatKey
from papershelf.storage.files.layout import (
    PAPERS_FILE,
    SCHEMA_VERSION,
    STATE_FILE,
    default_root,
    resolve_root,
)
from papershelf.storage.library.changes import NOTE_MAX_CHARS, EntryChanges, InvalidInput
from papershelf.storage.library.importer import FileReport, Importer, bundled_seed_files
from papershelf.storage.library.journal import JournalStore, UndoOutcome
from papershelf.storage.library.lock import LOCK_TIMEOUT, LibraryBusy, LibraryLock
from papershelf.storage.library.merging import MergePlan, MergeView, apply_merge
from papershelf.storage.library.papers_file import PapersFile
from papershelf.storage.library.quarantine import NeedsLock, stale_temp_files
from papershelf.storage.library.removal import RemoveReport
from papershelf.storage.library.state_file import StateFile
from papershelf.storage.model import Entry, Paper, Status
from papershelf.storage.text.fold import fold
from papershelf.storage.text.identifiers import identifiers_of

__all__ = [
    "LOCK_TIMEOUT",
    "NOTE_MAX_CHARS",
    "SCHEMA_VERSION",
    "FileReport",
    "InvalidInput",
    "Library",
    "LibraryBusy",
    "MergePlan",
    "MergeView",
    "NoLibrary",
    "RemoveReport",
    "UndoOutcome",
    "bundled_seed_files",
    "default_root",
    "fold_name",
]

_DEFAULT_ENTRY = Entry()


@dataclass(frozen=True, slots=True)
class _View:
    """What the reading methods answer while a change runs on another thread (`hold_view`):
    references to the mappings of that moment, which every change replaces, never mutates."""

    papers: Mapping[str, Paper]
    listed: Sequence[Paper]
    entries: Mapping[str, Entry]
    revision: int
    papers_key: StatKey | None
    places: Places | None
    pending: bool
    unsaved_changes: int
    unsaved_papers: int


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


def fold_name(text: str) -> str:
    """A name as a person may type it: `K2IE` for `K²IE`, `deja` for `Déjà`, `aesop` for
    `Æsop`, any case (`storage.text.fold.fold`, as searches fold)."""
    return fold(text)


class Library:
    """The papers and the user's entries of one data directory; see the module docstring."""

    def __init__(self, root: Path, *, lock_timeout: float = LOCK_TIMEOUT) -> None:
        """Use `Library.open`, which also loads the files and seeds an empty library."""
        self.root = root
        self._lock = LibraryLock(root, lock_timeout)
        self._notices: list[str] = []
        """One-line messages about what the library did on its own (see `take_notices`)."""
        self._journal = JournalStore(root)
        self._papers = PapersFile(root, self._lock, self._notices)
        self._state = StateFile(root, self._lock, self._notices, self._journal)
        self._changes = EntryChanges(self._lock, self._papers, self._state, self._journal)
        self._importer = Importer(self._lock, self._papers)
        self._view: _View | None = None
        """The papers and entries the reading methods answer from while a change runs on
        another thread (`hold_view`); None: the live ones."""

    @property
    def lock_timeout(self) -> float:
        """Seconds to wait for another papershelf process to finish saving."""
        return self._lock.timeout

    @lock_timeout.setter
    def lock_timeout(self, seconds: float) -> None:
        self._lock.timeout = seconds

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
        if path.exists() and not path.is_dir():
            what = "a file, not a library directory" if path.is_file() else "not a directory"
            raise LibraryError(f"{path} is {what}")
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            reason = error.strerror or str(error)
            raise LibraryError(f"cannot create the library directory {path}: {reason}") from error
        if not path.is_dir():
            raise LibraryError(f"{path} is not a directory")
        library = cls(path, lock_timeout=lock_timeout)
        with library._lock.held():
            # Under the lock: no live writer can own a temp file now.
            for temp in list(stale_temp_files(path)):
                with suppress(OSError):
                    temp.unlink()
            library._papers.reload()
            library._state.reload()
            # A library from before schema 2 takes the shape stock TinyDB reads at once,
            # not only at the next import or change (the files' contract, README "Scripting").
            library._papers.upgrade()
            library._state.upgrade()
            first_start = not library._papers.papers and not library._has_history()
        if seed and first_start:
            library.import_files(bundled_seed_files())
        elif not library._papers.papers and not first_start and not library._papers.damaged_told:
            if (path / PAPERS_FILE).is_file():
                # Every paper was removed (`papershelf remove`): undo is the way back.
                library._notices.append(
                    f"the library in {path} has no papers: every paper was removed "
                    "(papershelf undo brings the last removal back) or import your files"
                )
            else:
                library._notices.append(
                    f"the library in {path} has no papers (papers.json is missing): import "
                    "your files (papershelf import FILE...); tags and notes already in "
                    "state.json come back with their papers"
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
            library._papers.reload()
            library._state.reload()
        except NeedsLock:
            return None
        if seed and not library._papers.papers:
            return None
        return library

    # -- a change on another thread ---------------------------------------------------------

    def hold_view(self) -> None:
        """Until `release_view`, answer every reading method (`papers`, `get`, `entry`,
        `revision`, `pending`, ...) from the papers and entries as they are now: call it on the
        reading thread before starting a change on another one (a removal, an undo), so that
        nothing read meanwhile sees the change half made. Takes references, copies nothing."""
        if self._view is not None:
            raise RuntimeError("a view is held already: one change on another thread at a time")
        papers, state = self._papers, self._state
        self._view = _View(
            papers=papers.papers,
            listed=papers.listed(),
            entries=state.entries,
            revision=self.revision,
            papers_key=self.papers_key,
            places=self.abstract_places,
            pending=self.pending,
            unsaved_changes=self.unsaved_changes,
            unsaved_papers=self.unsaved_papers,
        )

    def release_view(self) -> None:
        """Answer from the live papers and entries again (the change on the other thread has
        ended): its result appears at once, whole."""
        self._view = None

    @property
    def view_held(self) -> bool:
        """Whether the reading methods answer from a held view (`hold_view`)."""
        return self._view is not None

    def _paper_map(self) -> Mapping[str, Paper]:
        # One read of `_view`: a release on another thread between two reads cannot split it.
        view = self._view
        return self._papers.papers if view is None else view.papers

    def _entry_map(self) -> Mapping[str, Entry]:
        view = self._view
        return self._state.entries if view is None else view.entries

    # -- reading ---------------------------------------------------------------------------

    @property
    def revision(self) -> int:
        """Grows whenever papers or entries change in memory (by this process or a refresh)."""
        view = self._view
        if view is not None:
            return view.revision
        return self._papers.revision + self._state.revision

    @property
    def papers_key(self) -> StatKey | None:
        """The `StatKey` of the papers.json that `papers()` holds, None when they differ from any
        file (no papers.json yet, or an import not saved): what a cache of the papers is keyed by.
        """
        view = self._view
        if view is not None:
            return view.papers_key
        return None if self._papers.pending else self._papers.key

    @property
    def abstract_places(self) -> Places | None:
        """Where each abstract of `papers()` lies in the papers.json `papers_key` names
        (`storage.caches.places`): what a cache points at instead of copying the abstracts;
        None when unknown or when the papers differ from any file."""
        view = self._view
        if view is not None:
            return view.places
        return None if self._papers.pending else self._papers.places

    def take_notices(self) -> list[str]:
        """One-line messages the user must hear about, each returned once: what the library did
        on its own (a damaged file moved aside and your state recovered from a backup, ...)."""
        notices = list(self._notices)
        self._notices.clear()  # the list is shared with the parts that append to it
        return notices

    @property
    def pending(self) -> bool:
        """Whether a change failed to save and is held in memory only (see `save`)."""
        view = self._view
        if view is not None:
            return view.pending
        return bool(self._state.unsaved or self._papers.pending)

    @property
    def unsaved_changes(self) -> int:
        """Papers whose tags, status, star or note are held in memory only (every paper with an
        entry while a recovered state.json waits to be written)."""
        view = self._view
        if view is not None:
            return view.unsaved_changes
        if self._state.rewrite:
            return max(len(self._state.entries), 1)
        return len(self._state.pending)

    @property
    def unsaved_papers(self) -> int:
        """Imported papers held in memory only (their import could not be saved)."""
        view = self._view
        if view is not None:
            return view.unsaved_papers
        return len(self._papers.pending)

    def papers(self) -> Sequence[Paper]:
        """Every paper, in library (import) order."""
        view = self._view
        return self._papers.listed() if view is None else view.listed

    def has(self, paper_id: str) -> bool:
        """Whether the library holds the paper with exactly this id (it may have been removed)."""
        return paper_id in self._paper_map()

    def get(self, paper_id: str) -> Paper:
        """The paper with exactly this id; raises `NotFound`."""
        try:
            return self._paper_map()[paper_id]
        except KeyError:
            raise NotFound(f"no paper with id {paper_id!r}") from None

    def find(self, ref: str) -> Paper:
        """A paper by exact id, unique id prefix (>= 4 hex digits), case-insensitive name, an
        identifier (`arXiv:2501.01234`, a DOI or doi.org URL, an OpenReview URL) or the
        citation key it was imported with.

        A ref that is one paper's id prefix and another paper's name (`DBAE` names a paper and
        begins another's id) is ambiguous: guessing would change the wrong paper.
        """
        papers = self._paper_map()
        ref = ref.strip()
        if not ref:
            raise NotFound("give a paper id or name")
        if ref in papers:
            return papers[ref]
        keys = {str(identifier) for identifier in identifiers_of(ref)}
        if keys:
            by_id = [paper for paper in papers.values() if keys & set(paper.identifiers)]
            if len(by_id) == 1:
                return by_id[0]
        prefix = ref.lower()
        candidates: dict[str, Paper] = {}
        if len(prefix) >= 4 and all(ch in "0123456789abcdef" for ch in prefix):
            candidates = {pid: paper for pid, paper in papers.items() if pid.startswith(prefix)}
        folded = fold_name(ref)
        for paper in papers.values():
            if fold_name(paper.name) == folded or paper.cite_key == ref:
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
        raise NotFound(
            f"no paper matches {ref!r} (give an id, an id prefix, a name or an identifier)"
        )

    def entry(self, paper_id: str) -> Entry:
        """The user's entry for a paper; a default `Entry()` when there is none."""
        return self._entry_map().get(paper_id, _DEFAULT_ENTRY)

    def entries(self) -> Mapping[str, Entry]:
        """The non-default entries by paper id: a read-only snapshot, replaced (never mutated)
        by each change, so ask again when `revision` changes. After a restored backup it may
        hold entries of papers not (yet) in the library."""
        return MappingProxyType(self._entry_map())

    def tag_counts(self, ids: Iterable[str] | None = None) -> Counter[str]:
        """How many papers carry each tag (among `ids`, or the whole library)."""
        counts: Counter[str] = Counter()
        entries = self._entry_map()
        if ids is None:
            papers = self._paper_map()
            for paper_id, entry in entries.items():
                if paper_id in papers:  # a restored backup may hold papers not imported yet
                    counts.update(entry.tags)
        else:
            for paper_id in ids:
                entry = entries.get(paper_id)
                if entry is not None:
                    counts.update(entry.tags)
        return counts

    def refresh(self) -> bool:
        """Re-read files another process changed; True when anything in memory changed.

        Cheap when nothing changed (two stats). Never waits for a busy lock: it simply reports
        False and the next call tries again.
        """
        papers, state = self._papers, self._state
        if (
            papers.store.current_key() == papers.key
            and state.store.current_key() == state.store.loaded_key
            and not papers.abstracts_stale
        ):
            return False
        try:
            with self._lock.held(timeout=0):
                papers_changed = papers.reload()
                state_changed = state.reload()
        except LibraryBusy:
            return False
        return papers_changed or state_changed

    def save(self) -> bool:
        """Write changes that failed to save earlier; True when something was written."""
        if not self.pending:
            return False
        papers, state = self._papers, self._state
        with self._lock.held():
            papers.reload(for_write=bool(papers.pending))
            state.reload()
            if papers.pending:
                papers.save()
            if state.unsaved:
                state.save()
        return True

    # -- changing entries (`changes.EntryChanges`) ------------------------------------------

    def tag(
        self, ids: Iterable[str] | str, add: Iterable[str] = (), remove: Iterable[str] = ()
    ) -> int:
        """Add and remove tags (normalised; removal wins) on papers; returns how many changed."""
        return self._changes.tag(ids, add, remove)

    def set_status(self, ids: Iterable[str] | str, status: Status | str) -> int:
        """Set the reading status (`unread`, `reading`, `read`); returns how many changed."""
        return self._changes.set_status(ids, status)

    def set_starred(self, ids: Iterable[str] | str, starred: bool) -> int:
        """Star or unstar papers; returns how many changed."""
        return self._changes.set_starred(ids, starred)

    def set_note(self, paper_id: str, note: str) -> int:
        """Replace a paper's note (control characters removed); returns 1 if it changed."""
        return self._changes.set_note(paper_id, note)

    def edit(self, changes: Mapping[str, Callable[[Entry], Entry]], description: str) -> int:
        """Apply a different change to each paper, as one write and one undo step.

        `changes` maps paper ids to functions of the current entry; `description` words the
        undo step. Returns how many papers changed.
        """
        return self._changes.edit(changes, description)

    def restore(self, entries: Mapping[str, Entry], description: str | None = None) -> int:
        """Put entries back exactly as given (e.g. to undo a change); returns how many changed.

        One undo step (worded `description`, default `restore N papers`).
        """
        return self._changes.restore(entries, description)

    def replace_all_entries(
        self, entries: Mapping[str, Entry], description: str = "restore a backup"
    ) -> int:
        """Make the user's state exactly `entries` (a backup): every other paper's entry becomes
        the default. Ids of papers not in the library are kept in state.json, so their entries
        come back when the paper is imported again. One undo step; returns how many changed."""
        return self._changes.replace_all(entries, description)

    def merge_state(
        self,
        compute: Callable[[MergeView], MergePlan],
        *,
        dry_run: bool = False,
        done: Callable[[MergeView], None] | None = None,
    ) -> MergePlan:
        """Bring in another library's state (`storage.sync`) as one undo step: `compute` gets
        what the files hold under the lock and says which entries change and which papers come
        in or go; `done` runs after the write, still under the lock. See `merging`."""
        return apply_merge(
            self._lock,
            self._papers,
            self._state,
            self._journal,
            compute,
            dry_run=dry_run,
            done=done,
        )

    # -- removing papers (`changes.EntryChanges.remove`, `removal`) -------------------------------

    def remove(
        self,
        ids: Iterable[str] | str = (),
        *,
        source: str | Iterable[str] | None = None,
        dry_run: bool = False,
    ) -> RemoveReport:
        """Take papers out of the library as one undoable step: `ids`, and with `source` (a
        file name as papers record it, `seeds.txt`, or several) every paper that came only from
        those files (one also from another file just loses those sources).

        The step keeps each paper's record and its entry (tags, status, star, note), so `undo`
        puts both back exactly and `redo` removes again; the papers are remembered as removed,
        so a later import skips them (`import_files(include_removed=True)` brings them back).
        Raises `NotFound` for an id not in the library (nothing is removed then); `dry_run`
        reports what would go and changes nothing.
        """
        sources = () if source is None else (source,) if isinstance(source, str) else source
        return self._changes.remove(ids, tuple(sources), dry_run=dry_run)

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
        return self._changes.travel(back=back)

    @property
    def journal_notice(self) -> str | None:
        """A one-line message when the undo history was lost or could not be saved."""
        return self._journal.notice

    # -- importing (`importer.Importer`) ------------------------------------------------------

    def import_files(
        self,
        paths: Iterable[str | os.PathLike[str]],
        venue: str | None = None,
        progress: Callable[[int, int], None] | None = None,
        *,
        include_removed: bool = False,
    ) -> list[FileReport]:
        """Import abstract lists; one report per file, in order. papers.json is written at most
        once, and only when something changed.

        A file that fails to parse imports nothing and gets `FileReport.error`; the others still
        import. `progress(done_files, total_files)` is called after each file is parsed.
        Papers the user removed are skipped (`FileReport.removed`) unless `include_removed`,
        which brings them back (`FileReport.restored`) and forgets they were removed; their
        tags, status, star and note come back too, as one undo step (`bring_back`), the only
        time an import writes state.json.
        """
        reports = self._importer.import_files(
            paths, venue, progress, include_removed=include_removed
        )
        self._changes.bring_back(self._importer.restored_ids)
        return reports

    def import_papers(
        self, papers: Iterable[Paper], source: str = "", *, include_removed: bool = False
    ) -> FileReport:
        """Import parsed papers (merged by id like a file's); one write if anything changed.
        A removed paper brought back (`include_removed`: `papershelf add`, `a`) gets its tags
        and notes back, as for `import_files`."""
        (got,) = self._importer.merge([list(papers)], include_removed=include_removed)
        self._changes.bring_back(got.restored_ids)
        return FileReport(
            source, got.added, got.seen, 0, removed=got.removed, restored=got.restored
        )
