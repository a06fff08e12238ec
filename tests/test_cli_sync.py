"""`papershelf sync OTHER` and `papershelf restore --merge FILE`: the summary and conflict lines,
`--dry-run`, the other side left untouched, one undo step, and a missing, foreign or damaged
OTHER refused in one line with nothing changed on either side."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from cli_helpers import run

from papershelf.storage.library.library import Library

A_NOTE = "read the appendix first"


@pytest.fixture
def pair(
    tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> tuple[Path, Path]:
    """Library A (the seeds, some state) and B, a sync of it, which A synced back: they agree."""
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(capsys, "--db", a, "import", *seed_files)[0] == 0
    assert run(capsys, "--db", a, "tag", "RelGNN", "+graphs")[0] == 0
    assert run(capsys, "--db", a, "status", "SUICA", "reading")[0] == 0
    code, out, err = run(capsys, "--db", b, "sync", a)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"synced with {a}: 34 papers in, 0 changed, 0 conflicts",
        "papershelf undo takes the whole sync back",
    ]
    code, out, _ = run(capsys, "--db", a, "sync", b)
    assert out == f"synced with {b}: 0 papers in, 0 changed, 0 conflicts\n"
    return a, b


def tree(root: Path) -> dict[str, str]:
    """Every file under `root` (the lock file too) by its content's hash: what "untouched" means."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            found[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def set_note(db: Path, name: str, text: str) -> None:
    """A note as the app's editor saves it (the CLI sets notes only through $EDITOR)."""
    library = Library.open(db, seed=False)
    library.set_note(library.find(name).id, text)


def listed(capsys: pytest.CaptureFixture[str], db: Path, *query: str) -> dict[str, dict]:
    code, out, err = run(capsys, "--db", db, "list", "--json", *query)
    assert code == 0, err
    return {paper["name"]: paper for paper in json.loads(out)}


def test_changes_on_both_sides_merge_and_conflicts_get_one_line_each(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pair
    run(capsys, "--db", a, "tag", "RelGNN", "+to-read")
    set_note(a, "SUICA", A_NOTE)
    run(capsys, "--db", a, "tag", "K2IE", "+later")
    run(capsys, "--db", b, "tag", "RelGNN", "-graphs", "+gnn")
    set_note(b, "SUICA", "the code is out")
    run(capsys, "--db", b, "status", "CoIN", "read")
    before_a = tree(a)

    code, out, err = run(capsys, "--db", b, "sync", a)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"synced with {a}: 0 papers in, 3 changed, 2 conflicts",
        "  conflict: RelGNN: tags: ours #gnn | theirs #graphs #to-read (kept both)",
        f"  conflict: SUICA: note: ours the code is out | theirs {A_NOTE} (kept both)",
        "papershelf undo takes the whole sync back",
    ]
    assert tree(a) == before_a  # the other library is only read
    papers = listed(capsys, b)
    assert papers["RelGNN"]["tags"] == ["gnn", "to-read"]  # B's removal of #graphs stands
    assert papers["K²IE"]["tags"] == ["later"]
    assert papers["CoIN"]["status"] == "read"
    code, out, _ = run(capsys, "--db", b, "note", "SUICA")
    assert out == f"the code is out\n\n--- from a ---\n{A_NOTE}\n"

    # Idempotent: nothing changed on either side since, so nothing to do.
    code, out, _ = run(capsys, "--db", b, "sync", a)
    assert out == f"synced with {a}: 0 papers in, 0 changed, 0 conflicts\n"
    # And A, syncing back, takes B's merge without a conflict: B's side changed, A's not since.
    code, out, _ = run(capsys, "--db", a, "sync", b)
    assert out.splitlines()[0] == f"synced with {b}: 0 papers in, 3 changed, 0 conflicts"
    assert listed(capsys, a)["RelGNN"]["tags"] == ["gnn", "to-read"]


def test_dry_run_prints_what_would_change_and_writes_nothing(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pair
    run(capsys, "--db", a, "tag", "RelGNN", "+to-read")
    run(capsys, "--db", a, "remove", "CoIN")
    before = tree(b)
    code, out, err = run(capsys, "--db", b, "sync", "--dry-run", a)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"would sync with {a}: 0 papers in, 1 changed, 1 removed, 0 conflicts",
        "  - CoIN: removed",
        "  ~ RelGNN: +to-read",
        "nothing was written (--dry-run)",
    ]
    assert tree(b) == before
    code, out, _ = run(capsys, "--db", b, "sync", a)
    assert out.splitlines()[0] == f"synced with {a}: 0 papers in, 1 changed, 1 removed, 0 conflicts"
    assert "CoIN" not in listed(capsys, b)


def test_the_whole_sync_is_one_undo_step(
    pair: tuple[Path, Path], seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pair
    extra = seed_files[0].parent.parent / "tests" / "fixtures" / "search" / "abstracts.jsonl"
    run(capsys, "--db", a, "import", extra)
    run(capsys, "--db", a, "tag", "RelGNN", "+to-read")
    run(capsys, "--db", a, "remove", "CoIN")
    before = listed(capsys, b)
    code, out, _ = run(capsys, "--db", b, "sync", a)
    synced = listed(capsys, b)
    assert len(synced) > len(before)
    assert "CoIN" not in synced and synced["RelGNN"]["tags"] == ["graphs", "to-read"]

    code, out, err = run(capsys, "--db", b, "undo")
    assert (code, out, err) == (0, "undone: sync with a\n", "")
    assert listed(capsys, b) == before  # papers in gone, CoIN back, tags as they were
    code, out, _ = run(capsys, "--db", b, "redo")
    assert out == "redone: sync with a\n"
    assert listed(capsys, b) == synced


def test_restore_merge_merges_a_backup_instead_of_replacing(
    pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pair
    backup = tmp_path / "a-state.json"
    run(capsys, "--db", a, "tag", "CoIN", "+later")
    assert run(capsys, "--db", a, "backup", backup)[0] == 0
    run(capsys, "--db", b, "tag", "K2IE", "+mine")
    code, out, err = run(capsys, "--db", b, "restore", "--merge", backup)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"synced with {backup}: 0 papers in, 1 changed, 0 conflicts"
    papers = listed(capsys, b)
    # Merged, not replaced: B's own tag stays, the backup's state comes in.
    assert papers["K²IE"]["tags"] == ["mine"]
    assert papers["CoIN"]["tags"] == ["later"]
    assert papers["RelGNN"]["tags"] == ["graphs"]
    assert run(capsys, "--db", b, "undo")[1] == f"undone: sync with {backup.name}\n"
    assert listed(capsys, b)["CoIN"]["tags"] == []

    code, out, err = run(capsys, "--db", b, "restore", "--dry-run", backup)
    assert (code, out) == (1, "")
    assert err == "papershelf: --dry-run goes with --merge (a restore replaces the state)\n"


def _damage(kind: str, root: Path, a: Path) -> Path:
    """An OTHER of `kind` under `root`; `a` is a whole library to copy from."""
    target = root / kind
    if kind == "missing":
        return target
    if kind == "empty-dir":
        target.mkdir()
        return target
    if kind in ("damaged-papers", "damaged-state", "foreign-papers", "newer-state"):
        target.mkdir()
        for name in ("papers.json", "state.json"):
            (target / name).write_bytes((a / name).read_bytes())
        if kind == "damaged-papers":
            data = (a / "papers.json").read_bytes()
            (target / "papers.json").write_bytes(data[: len(data) // 2])
        elif kind == "damaged-state":
            (target / "state.json").write_text('{"meta": {"1": ', encoding="utf-8")
        elif kind == "foreign-papers":
            (target / "papers.json").write_text('{"_default": {}}', encoding="utf-8")
        else:
            state = json.loads((a / "state.json").read_text(encoding="utf-8"))
            state["meta"]["1"]["schema"] = 99
            (target / "state.json").write_text(json.dumps(state), encoding="utf-8")
        return target
    target = root / f"{kind}.json"
    if kind == "not-json":
        target.write_bytes(b"\x00\x01 not json")
    elif kind == "foreign-json":
        target.write_text('{"entries": {}}', encoding="utf-8")
    elif kind == "bad-entry":
        document = {"format": "papershelf-state", "version": 1, "entries": {"x1": {"tags": 3}}}
        target.write_text(json.dumps(document), encoding="utf-8")
    elif kind == "fifo":
        os.mkfifo(target)
    return target


DAMAGE = {
    "missing": "does not exist (give a library directory or a backup file)",
    "empty-dir": "is not a papershelf library (no papers.json or state.json in it)",
    "damaged-papers": "holds a damaged library (papers.json: not valid JSON",
    "damaged-state": "holds a damaged library (state.json: not valid JSON",
    "foreign-papers": "papers.json is not a papershelf papers file",
    "newer-state": "was written by a newer papershelf",
    "not-json": "is not a papershelf backup (not JSON)",
    "foreign-json": 'not a papershelf backup (no "format": "papershelf-state")',
    "bad-entry": "entry x1: tags must be a list of strings",
    "fifo": "is not a papershelf backup (not a regular file)",
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_a_missing_foreign_or_damaged_other_is_one_line_and_changes_nothing(
    kind: str, pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pair
    other = _damage(kind, tmp_path, a)
    others_files = tree(other) if other.is_dir() else None
    before = tree(b)
    for command in (["sync", other], ["restore", "--merge", other]):
        code, out, err = run(capsys, "--db", b, *command)
        assert (code, out) == (1, "")
        assert err.startswith("papershelf: ") and err.count("\n") == 1, err
        assert DAMAGE[kind] in err
        assert "Traceback" not in err
    assert tree(b) == before
    if others_files is not None:
        assert tree(other) == others_files  # nothing moved aside or recovered there


def test_a_sync_into_a_new_directory_starts_the_library_but_a_bad_other_does_not(
    pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, _ = pair
    fresh = tmp_path / "fresh"
    assert run(capsys, "--db", fresh, "sync", tmp_path / "nowhere")[0] == 1
    assert not fresh.exists()
    code, out, _ = run(capsys, "--db", fresh, "sync", a)
    assert out.splitlines()[0] == f"synced with {a}: 34 papers in, 0 changed, 0 conflicts"
    assert listed(capsys, fresh)["RelGNN"]["tags"] == ["graphs"]


def test_syncing_with_itself_is_refused(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, _ = pair
    code, out, err = run(capsys, "--db", a, "sync", a)
    assert (code, out) == (1, "")
    assert err == f"papershelf: {a} is this library itself: give the other library\n"


def test_control_characters_in_the_report_are_shown_not_sent(
    pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = pair
    hostile = tmp_path / "lib\x1b[2J\x07"
    hostile.mkdir()
    for name in ("papers.json", "state.json"):
        (hostile / name).write_bytes((a / name).read_bytes())
    set_note(b, "SUICA", "ours")
    state = json.loads((hostile / "state.json").read_text(encoding="utf-8"))
    for record in state["entries"].values():
        if record["paper_id"].startswith("67fc7055"):
            record["note"] = "theirs \x1b]0;owned\x07 \x9b31m"
    (hostile / "state.json").write_text(json.dumps(state), encoding="utf-8")
    code, out, err = run(capsys, "--db", b, "sync", hostile)
    assert code == 0, err
    assert "conflict: SUICA: note:" in out
    for raw in ("\x1b", "\x07", "\x9b"):
        assert raw not in out and raw not in err
    # Their note is stored as the library stores every note: control characters taken out.
    code, out, _ = run(capsys, "--db", b, "note", "SUICA")
    assert out.startswith("ours\n\n--- from lib") and out.endswith("theirs  31m\n")
