"""The Library under random sequences of everything a person and the world do to it.

A hypothesis state machine drives a real `Library` on a real, tiny filesystem (a tmpfs that the
machine fills and frees): changes, bulk changes, undo and redo, imports, backups and restores,
reading-list round trips; and, between them, damaged files (state.json, its backups, papers.json,
papers.cache), a full disk, a process that dies between two steps, and one SIGKILLed inside a
write. Its model is what the Library acknowledged; after every step:

- every acknowledged change is on disk: state.json holds exactly the model, or (when state.json
  was just damaged) the backup that recovery will use does, or recovery will say what is missing;
- a change that failed to save was reported at once (SaveError) and is kept by the live library
  (`pending`) until a later save writes it;
- the library always opens, and says what it recovered (`take_notices`).

`PAPERSHELF_STATEFUL_EXAMPLES` runs more sequences than CI's default.
"""

from __future__ import annotations

import json
import os
import signal
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from killworker import install_kill

import papershelf.storage.library.state_backups as backups
from papershelf.storage.errors import LibraryError, SaveError
from papershelf.storage.export.backup import restore_backup, write_backup
from papershelf.storage.export.markdown import ExportItem, to_markdown
from papershelf.storage.export.roundtrip import import_reading_list
from papershelf.storage.files.jsonstore import parse_object
from papershelf.storage.files.layout import entries_from_records, schema_of
from papershelf.storage.library.journal import JournalStore
from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry

EXAMPLES = int(os.environ.get("PAPERSHELF_STATEFUL_EXAMPLES", "40"))
STEPS = int(os.environ.get("PAPERSHELF_STATEFUL_STEPS", "40"))
TAGS = ("a", "b", "to-read", "later")
STATUSES = ("unread", "reading", "read")
DAMAGE = ("garbage", "truncate", "empty", "huge-number", "text-for-list")
KILL_POINTS = ("mid_temp_write", "after_temp_fsync", "before_replace", "after_replace")

Entries = dict[str, Entry]


def comparable(entries: object) -> Entries:
    """Entries without `updated_at` (the model does not know the clock)."""
    return {pid: replace(entry, updated_at=None) for pid, entry in dict(entries).items()}  # type: ignore[call-overload]


def abstract_file(directory: Path, batch: int) -> Path:
    """A plain-text abstract list of four papers; batch 0..2."""
    path = directory / f"batch-{batch}.txt"
    paragraphs = [
        f"We propose Method{batch}x{i}, which studies the problem of batch {batch} item {i} "
        f"with a new estimator, and show it works on benchmark {i * 7 + batch}."
        for i in range(4)
    ]
    path.write_text(f"TEST {batch} Papers\n\n" + "\n\n".join(paragraphs) + "\n")
    return path


def damage_bytes(raw: bytes, kind: str, table: str) -> bytes:
    """`raw` (a JSON file of the library) damaged the way `kind` says."""
    if kind == "garbage":
        return b"\x00\x17 not json at all"
    if kind == "truncate":
        return raw[: len(raw) // 2]
    if kind == "empty":
        return b""
    if kind == "huge-number":
        return b'{"meta": {"1": {"schema": 1' + b"0" * 5000 + b"}}}"
    try:
        data = json.loads(raw)
        records = data.get(table) or {}
    except (ValueError, AttributeError):
        return b"[]"  # damaged already: damage it differently
    if not records or not isinstance(records, dict):
        return b"[]"
    first = next(iter(records.values()))
    first["tags" if table == "entries" else "sources"] = "abc"
    return json.dumps(data).encode()


def damage_in_place(path: Path, kind: str, table: str) -> bool:
    """Damage the file at `path` in place (same inode); False when there is no file."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return False
    try:
        with open(path, "r+b") as handle:
            handle.truncate(0)
            handle.write(damage_bytes(raw, kind, table))
    except OSError:
        return False  # the full disk refused even the damage
    return True


def disk_entries(path: Path) -> Entries | None:
    """The entries of a state file as the Library would read them, or None when damaged."""
    try:
        data = parse_object(path.read_bytes(), path, None)
        return comparable(entries_from_records(data["entries"], schema_of(data)))
    except Exception:
        return None


class LibraryMachine(RuleBasedStateMachine):
    """See the module docstring. `disk` is the tmpfs, `outside` an ordinary directory."""

    runs = 0

    def __init__(self, disk: object, outside: Path) -> None:
        super().__init__()
        self.disk = disk
        self.outside = outside
        self.sources = [abstract_file(outside, batch) for batch in range(3)]

    # -- setting up -------------------------------------------------------------------------

    @initialize()
    def start(self) -> None:
        self.disk.free()  # type: ignore[attr-defined]
        LibraryMachine.runs += 1
        self.root = self.disk.path / f"lib-{LibraryMachine.runs}"  # type: ignore[attr-defined]
        self.files = self.outside / f"run-{LibraryMachine.runs}"
        self.files.mkdir()
        self.library = Library.open(self.root, seed=False)
        reports = self.library.import_files(self.sources[:2])
        assert all(report.error is None for report in reports)
        self.model: Entries = {}
        """What the Library acknowledged: must be on disk."""
        self.live: Entries = {}
        """What the live library must show: the model plus changes not saved yet."""
        self.papers = {paper.id for paper in self.library.papers()}
        self.backup_files: dict[Path, Entries] = {}
        self.state_unsaved = False
        """A change to the entries failed to save and was reported (SaveError)."""
        self.papers_unsaved = False
        """An import failed to save and was reported."""

    def teardown(self) -> None:
        self.disk.free()  # type: ignore[attr-defined]
        # Each sequence gets a fresh directory; the old ones would fill the 4 MiB disk.
        import shutil

        shutil.rmtree(self.disk.path, ignore_errors=True)  # type: ignore[attr-defined]

    # -- helpers ----------------------------------------------------------------------------

    def ids(self) -> list[str]:
        return sorted(self.papers)

    def acknowledge(self) -> None:
        """A call returned normally: the live library's entries are on disk, unless changes
        are still held as unsaved (reported when they failed)."""
        self.take_notices()
        self.live = comparable(self.library.entries())
        if not self.library.unsaved_changes:
            self.model = dict(self.live)
            self.state_unsaved = False

    def failed(self) -> None:
        """A call raised SaveError: the change is kept in memory only, and was reported."""
        self.take_notices()
        self.live = comparable(self.library.entries())
        if self.library.unsaved_changes:
            self.state_unsaved = True

    def take_notices(self) -> None:
        for notice in self.library.take_notices():
            assert "\n" not in notice
            self.heard(notice)

    def heard(self, notice: str) -> None:
        """A notice of what the library did on its own. A loss it reports is no longer owed;
        a recovered version it could not write yet is held as unsaved."""
        if "starts with no tags" in notice:
            self.model = {}
        elif "changes after that are lost" in notice:
            found = backups.newest_readable(
                self.root, lambda raw: disk_entries_from_bytes(raw, self.root)
            )
            assert found is not None
            self.model = found[2]
        if "not saved yet" in notice:
            self.state_unsaved = True
        self.live = comparable(self.library.entries())

    def change(self, call: object) -> None:
        try:
            call()  # type: ignore[operator]
        except SaveError:
            self.failed()
            return
        self.acknowledge()

    # -- what a person does -------------------------------------------------------------------

    @precondition(lambda self: self.papers)
    @rule(data=st.data(), kind=st.sampled_from(("tag", "status", "star", "note")))
    def change_one(self, data: st.DataObject, kind: str) -> None:
        paper = data.draw(st.sampled_from(self.ids()))
        library = self.library
        if kind == "tag":
            add = data.draw(st.lists(st.sampled_from(TAGS), max_size=2))
            remove = data.draw(st.lists(st.sampled_from(TAGS), max_size=1))
            self.change(lambda: library.tag([paper], add=add, remove=remove))
        elif kind == "status":
            status = data.draw(st.sampled_from(STATUSES))
            self.change(lambda: library.set_status([paper], status))
        elif kind == "star":
            starred = data.draw(st.booleans())
            self.change(lambda: library.set_starred([paper], starred))
        else:
            note = data.draw(st.sampled_from(("", "a note", "ünïcode ✓ note", "x" * 300)))
            self.change(lambda: library.set_note(paper, note))

    @precondition(lambda self: self.papers)
    @rule(data=st.data(), tag=st.sampled_from(TAGS), add=st.booleans())
    def bulk_tag(self, data: st.DataObject, tag: str, add: bool) -> None:
        chosen = data.draw(st.lists(st.sampled_from(self.ids()), min_size=1, unique=True))
        library = self.library
        if add:
            self.change(lambda: library.tag(chosen, add=[tag]))
        else:
            self.change(lambda: library.tag(chosen, remove=[tag]))

    @rule(back=st.booleans())
    def undo_or_redo(self, back: bool) -> None:
        library = self.library
        self.change(lambda: library.undo() if back else library.redo())

    @precondition(lambda self: bool(JournalStore(self.library.root).peek().undo))
    @rule()
    def undo_then_redo_comes_back(self) -> None:
        before = comparable(self.library.entries())
        try:
            if self.library.undo() is None:
                return
            self.acknowledge()
            if self.library.redo() is not None:
                self.acknowledge()
                assert comparable(self.library.entries()) == before
        except SaveError:
            self.failed()

    @rule(batch=st.integers(0, 2))
    def import_file(self, batch: int) -> None:
        try:
            reports = self.library.import_files([self.sources[batch]])
        except SaveError:
            self.papers = {paper.id for paper in self.library.papers()}
            self.papers_unsaved = True
            return
        (report,) = reports
        assert report.error is None, report.error
        self.papers = {paper.id for paper in self.library.papers()}
        self.papers_unsaved = False
        self.take_notices()

    @rule()
    def backup(self) -> None:
        path = self.files / f"backup-{len(self.backup_files)}.json"
        write_backup(self.library, path)
        self.backup_files[path] = comparable(self.library.entries())

    @precondition(lambda self: self.backup_files)
    @rule(data=st.data())
    def restore(self, data: st.DataObject) -> None:
        path = data.draw(st.sampled_from(sorted(self.backup_files)))
        library = self.library
        self.change(lambda: restore_backup(library, path))
        assert comparable(self.library.entries()) == self.backup_files[path]

    @precondition(lambda self: self.papers)
    @rule(tag=st.sampled_from(TAGS))
    def reading_list_round_trip(self, tag: str) -> None:
        library = self.library
        ids = [pid for pid in self.ids() if tag in library.entry(pid).tags]
        if not ids:
            return
        items = [ExportItem(library.get(pid), library.entry(pid)) for pid in ids]
        text = to_markdown(items, title=f"#{tag}", today=date.today(), only_tags={tag})
        ticked = text.replace("- [ ]", "- [x]")
        path = self.files / "list.md"
        path.write_text(ticked)
        self.change(lambda: import_reading_list(library, path))
        if not self.library.pending:
            assert all(self.library.entry(pid).status == "read" for pid in ids)

    # -- what the world does ------------------------------------------------------------------

    @rule(kind=st.sampled_from(DAMAGE))
    def damage_state(self, kind: str) -> None:
        damage_in_place(self.root / "state.json", kind, "entries")

    @rule(n=st.integers(1, backups.BACKUPS_KEPT), kind=st.sampled_from(DAMAGE))
    def damage_backup(self, n: int, kind: str) -> None:
        damage_in_place(backups.backup_path(self.root, n), kind, "entries")

    @rule(kind=st.sampled_from(DAMAGE))
    def damage_papers(self, kind: str) -> None:
        if not damage_in_place(self.root / "papers.json", kind, "papers"):
            return
        self.library.refresh()  # the live library meets the damage
        self.papers = {paper.id for paper in self.library.papers()}
        self.take_notices()

    @rule(position=st.integers(0, 10**9), value=st.integers(0, 255))
    def damage_papers_cache(self, position: int, value: int) -> None:
        path = self.root / "papers.cache"
        try:
            raw = bytearray(path.read_bytes())
        except FileNotFoundError:
            return
        if not raw:
            return
        stat = path.stat()
        raw[position % len(raw)] ^= value or 1
        with open(path, "r+b") as handle:
            handle.write(raw)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))

    @rule()
    def fill_disk(self) -> None:
        self.disk.fill()  # type: ignore[attr-defined]

    @rule()
    def free_disk(self) -> None:
        self.disk.free()  # type: ignore[attr-defined]

    @rule()
    def retry_save(self) -> None:
        """The app's timer: write what failed to save."""
        try:
            self.library.save()
        except SaveError:
            return
        self.papers_unsaved = False
        self.acknowledge()

    @rule()
    def process_dies_between_steps(self) -> None:
        """The process ends (its unsaved changes were reported as not saved) and another opens."""
        self.library = Library.open(self.root, seed=False)
        self.live = dict(self.model)
        self.state_unsaved = self.papers_unsaved = False
        self.take_notices()
        self.papers = {paper.id for paper in self.library.papers()}
        assert comparable(self.library.entries()) == self.live

    @precondition(lambda self: self.papers and disk_entries(self.root / "state.json") is not None)
    @rule(data=st.data(), point=st.sampled_from(KILL_POINTS))
    def process_killed_inside_a_write(self, data: st.DataObject, point: str) -> None:
        """Another process changes one paper and is SIGKILLed at `point` inside its write."""
        paper = data.draw(st.sampled_from(self.ids()))
        tag = data.draw(st.sampled_from(TAGS))
        child = os.fork()
        if child == 0:  # pragma: no cover (the child never returns)
            code = 0
            try:
                other = Library.open(self.root, seed=False)
                install_kill(point, 0)
                other.tag([paper], add=[tag])
            except BaseException:
                code = 3
            os._exit(code)
        _, status = os.waitpid(child, 0)
        killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        after = comparable(Library.open(self.root, seed=False).entries())
        old = self.model
        new = dict(old)
        new[paper] = replace(old.get(paper, Entry()), tags=old.get(paper, Entry()).tags | {tag})
        if not killed:
            # No write happened (the tag was there, the disk was full, ...): nothing changed.
            assert after in (old, new)
        elif point in ("after_replace",):
            assert after == new
        else:
            assert after == old
        self.model = after
        if not self.library.pending:
            self.library.refresh()
            self.live = comparable(self.library.entries())
        self.take_notices()

    # -- what must always hold -----------------------------------------------------------------

    @invariant()
    def acknowledged_changes_are_on_disk(self) -> None:
        if not hasattr(self, "root"):
            return
        self.take_notices()
        on_disk = disk_entries(self.root / "state.json")
        if on_disk is not None:
            assert on_disk == self.model, "state.json differs from what was acknowledged"
            return
        # state.json is damaged (or gone): recovery will use the newest readable backup.
        newest = backups.newest_readable(
            self.root, lambda raw: disk_entries_from_bytes(raw, self.root)
        )
        if newest is None:
            return  # recovery will say so ("no backup could be read"): reported, not silent
        path, _, entries = newest
        if entries != self.model:
            # Allowed only when recovery will report it: not from the latest backup.
            assert path != backups.backup_path(self.root, 1), "the newest backup is behind"

    @invariant()
    def the_live_library_holds_what_it_was_told(self) -> None:
        if not hasattr(self, "library"):
            return
        self.take_notices()
        assert comparable(self.library.entries()) == self.live
        if self.library.pending:
            assert self.state_unsaved or self.papers_unsaved, "unsaved, but nobody was told"
        if self.live != self.model:
            assert self.state_unsaved, "the library shows changes that are not on disk"


def disk_entries_from_bytes(raw: bytes, root: Path) -> Entries:
    data = parse_object(raw, root / "backup", None)
    return comparable(entries_from_records(data["entries"], schema_of(data)))


def test_the_library_loses_nothing_it_acknowledged(small_disk, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    run_state_machine_as_test(
        lambda: LibraryMachine(small_disk, outside),
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=STEPS,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )


def test_the_machine_notices_a_library_that_loses_a_change(small_disk, tmp_path: Path) -> None:
    """The invariant can fail: an acknowledged change removed behind the Library's back."""
    outside = tmp_path / "outside"
    outside.mkdir()
    machine = LibraryMachine(small_disk, outside)
    machine.start()
    paper = machine.ids()[0]
    machine.change(lambda: machine.library.tag([paper], add=["a"]))
    machine.acknowledged_changes_are_on_disk()
    state = machine.root / "state.json"
    data = json.loads(state.read_bytes())
    data["entries"] = {}
    state.write_text(json.dumps(data))  # valid, but the change is gone
    with pytest.raises(AssertionError, match="differs from what was acknowledged"):
        machine.acknowledged_changes_are_on_disk()
    machine.teardown()


def test_the_machine_runs_against_a_full_disk_and_damage(small_disk, tmp_path: Path) -> None:
    """A fixed sequence through the hard paths, so they are walked whatever hypothesis picks."""
    outside = tmp_path / "outside"
    outside.mkdir()
    machine = LibraryMachine(small_disk, outside)
    machine.start()
    first, second = machine.ids()[:2]
    machine.change(lambda: machine.library.tag([first], add=["a"]))
    machine.fill_disk()
    machine.change(lambda: machine.library.set_status([second], "read"))
    assert machine.library.pending and machine.model != machine.live
    machine.the_live_library_holds_what_it_was_told()
    machine.acknowledged_changes_are_on_disk()
    machine.free_disk()
    machine.damage_state("garbage")
    machine.acknowledged_changes_are_on_disk()
    machine.retry_save()
    assert machine.model[second].status == "read" and "a" in machine.model[first].tags
    machine.process_dies_between_steps()
    machine.acknowledged_changes_are_on_disk()
    machine.teardown()


def test_a_library_is_never_left_unopenable(small_disk, tmp_path: Path) -> None:
    """Every damage at once, on a full disk: it still opens, and says what it did."""
    outside = tmp_path / "outside"
    outside.mkdir()
    machine = LibraryMachine(small_disk, outside)
    machine.start()
    machine.change(lambda: machine.library.tag(machine.ids()[:3], add=["a"]))
    for n in range(1, backups.BACKUPS_KEPT + 1):
        machine.damage_backup(n, "truncate")
    machine.damage_state("garbage")
    machine.damage_papers_cache(17, 255)
    machine.fill_disk()
    try:
        opened = Library.open(machine.root, seed=False)
    except LibraryError as error:
        pytest.fail(f"the library did not open: {error}")
    assert opened.take_notices()
    machine.teardown()
