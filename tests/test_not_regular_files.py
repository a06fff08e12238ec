"""A FIFO or a device where a library file belongs: a one-line answer at once, never a hang
(opening a FIFO waits for a writer) or an endless read (`/dev/zero`), and nothing lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from papershelf.storage.library.library import Library

SEEDS = sorted((Path(__file__).resolve().parent.parent / "seeds").glob("*.txt"))
# Far longer than any of these commands takes; a hang shows up as a TimeoutExpired failure.
LIMIT = int(os.environ.get("PAPERSHELF_HANG_LIMIT", "60"))


def papershelf(root: Path, *argv: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "papershelf", "--db", str(root), *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=LIMIT,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def root(tmp_path: Path) -> tuple[Path, str]:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_files(SEEDS[:1])
    paper = library.papers()[0].id
    library.tag([paper], add=["a"])
    library.tag([paper], add=["b"])
    return tmp_path / "lib", paper


def fifo_at(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.mkfifo(path)


@pytest.mark.parametrize("name", ["state.json", "papers.json"])
def test_a_fifo_for_the_library_files_is_refused_in_one_line(root, name: str) -> None:
    path, paper = root
    fifo_at(path / name)
    for argv in (["tag", paper, "+c"], ["list", "x"], ["show", paper]):
        result = papershelf(path, *argv)
        assert result.returncode == 1
        assert result.stderr == f"papershelf: cannot read {path / name}: not a regular file\n"
    assert (path / name).is_fifo()  # left as it is, not replaced


@pytest.mark.parametrize("name", ["journal.json", "settings.json", "backups/state-1.json"])
def test_a_fifo_for_a_side_file_does_not_stop_a_change(root, name: str) -> None:
    path, paper = root
    fifo_at(path / name)
    result = papershelf(path, "tag", paper, "+c")
    assert result.returncode == 0, result.stderr
    assert papershelf(path, "show", paper, "--json").stdout.count('"c"') == 1
    # Never replaced by a regular file (a backup's FIFO moves up the rotation, as backups do).
    assert any(p.is_fifo() for p in [path / name, *(path / "backups").iterdir()])


@pytest.mark.parametrize("name", ["journal.json", "settings.json"])
def test_a_link_to_a_fifo_for_a_side_file_leaves_the_fifo_a_fifo(
    root, tmp_path: Path, name: str
) -> None:
    from papershelf.storage.errors import LibraryError
    from papershelf.storage.library.settings import Settings, save_settings

    path, paper = root
    elsewhere = tmp_path / "elsewhere.fifo"
    os.mkfifo(elsewhere)
    (path / name).unlink(missing_ok=True)
    (path / name).symlink_to(elsewhere)
    if name == "settings.json":
        with pytest.raises(LibraryError, match="not a regular file"):
            save_settings(path, Settings(sort="name"))
    else:
        result = papershelf(path, "tag", paper, "+c")
        assert result.returncode == 0, result.stderr
        assert "undo history not saved" in result.stderr and "not a regular file" in result.stderr
    assert elsewhere.is_fifo() and (path / name).is_symlink()


def test_a_fifo_backup_is_passed_over_when_recovering(root) -> None:
    path, paper = root
    fifo_at(path / "backups" / "state-1.json")
    (path / "state.json").write_text("garbage")
    result = papershelf(path, "show", paper, "--json")
    assert result.returncode == 0
    assert "recovered from" in result.stderr and "state-2.json" in result.stderr
    assert '"a"' in result.stdout


def test_restore_from_a_fifo_or_a_device_is_refused(root, tmp_path: Path) -> None:
    path, _ = root
    os.mkfifo(tmp_path / "backup.fifo")
    for source in (tmp_path / "backup.fifo", Path("/dev/zero")):
        result = papershelf(path, "restore", source)
        assert result.returncode == 1
        assert "not a papershelf backup (not a regular file)" in result.stderr


def test_state_linked_to_a_device_is_refused_not_read_forever(root) -> None:
    path, paper = root
    (path / "state.json").unlink()
    (path / "state.json").symlink_to("/dev/zero")
    result = papershelf(path, "show", paper)
    assert result.returncode == 1
    assert "not a regular file" in result.stderr
