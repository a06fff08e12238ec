"""`papershelf note ID [--edit]` with a fake $VISUAL on PATH, and the config file from the command
line: the default library, its problems on stderr, its path in --help."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from cli_helpers import SEEDS, run

sys.path.insert(0, str(Path(__file__).parent / "tui"))
from editors import FakeEditor

from papershelf.storage.library.library import NOTE_MAX_CHARS, Library


@pytest.fixture
def root(tmp_path: Path) -> Path:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_files(SEEDS)
    return tmp_path / "lib"


@pytest.fixture
def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeEditor:
    return FakeEditor(tmp_path / "editor-bin", monkeypatch)


def first_id(root: Path) -> str:
    return Library.open(root, seed=False).papers()[0].id


def note_of(root: Path, paper_id: str) -> str:
    return Library.open(root, seed=False, read_only=True).entry(paper_id).note


def test_note_edit_saves_what_the_editor_wrote_and_undo_takes_it_back(
    capsys, root: Path, editor: FakeEditor
) -> None:
    paper_id = first_id(root)
    code, out, err = run(capsys, "--db", root, "note", paper_id)
    assert (code, err) == (0, "") and "no note" in out
    editor.appends("Read §3 first. \x1b[31m")
    code, out, err = run(capsys, "--db", root, "note", paper_id, "--edit")
    assert (code, err) == (0, "")
    assert out.endswith("note saved (papershelf undo takes it back)\n")
    assert note_of(root, paper_id) == "Read §3 first."  # the colour escape removed whole
    code, out, _ = run(capsys, "--db", root, "note", paper_id)
    assert out == "Read §3 first.\n"
    # Twice: the editor is given the saved note.
    run(capsys, "--db", root, "note", paper_id, "--edit")
    assert note_of(root, paper_id) == "Read §3 first.\nRead §3 first."
    assert editor.runs == 2 and editor.leftover_files() == []
    run(capsys, "--db", root, "undo")
    assert note_of(root, paper_id) == "Read §3 first."


def test_a_note_changed_elsewhere_meanwhile_is_replaced_and_undo_brings_it_back(
    capsys, root: Path, editor: FakeEditor, tmp_path: Path
) -> None:
    paper_id = first_id(root)
    # The editor stands for a person who takes a while: meanwhile another papershelf writes.
    Library.open(root, seed=False).set_note(paper_id, "before")
    script = tmp_path / "set_theirs.py"
    script.write_text(
        "import sys\nfrom papershelf.storage.library.library import Library\n"
        "Library.open(sys.argv[1], seed=False).set_note(sys.argv[2], 'theirs')\n"
    )
    editor.does(f'printf "mine" > "$1"\n{sys.executable} {script} {root} {paper_id}')
    code, out, err = run(capsys, "--db", root, "note", paper_id, "--edit")
    assert code == 0 and "note saved" in out
    assert "the note was changed elsewhere while you edited it" in err
    assert note_of(root, paper_id) == "mine"
    run(capsys, "--db", root, "undo")
    assert note_of(root, paper_id) == "theirs"


def test_an_unchanged_note_saves_nothing_and_says_so(
    capsys, root: Path, editor: FakeEditor
) -> None:
    paper_id = first_id(root)
    Library.open(root, seed=False).set_note(paper_id, "kept\n\nas it is")
    editor.leaves_it()
    code, out, err = run(capsys, "--db", root, "note", paper_id, "--edit")
    assert (code, err) == (0, "")
    assert out.endswith(": note unchanged; nothing saved\n")
    assert note_of(root, paper_id) == "kept\n\nas it is"
    assert editor.leftover_files() == []
    code, out, _ = run(capsys, "--db", root, "undo")
    assert "note" not in out or "set note" not in out  # nothing was recorded by --edit


def test_a_failed_editor_saves_nothing_and_exits_1(capsys, root: Path, editor: FakeEditor) -> None:
    paper_id = first_id(root)
    editor.fails(1, "half a thought")
    code, out, err = run(capsys, "--db", root, "note", paper_id, "--edit")
    assert (code, out) == (1, "")
    assert err.endswith(": the editor exited with status 1; nothing saved\n")
    assert err.count("\n") == 1
    assert note_of(root, paper_id) == ""
    assert editor.leftover_files() == []


def test_an_editor_that_cannot_run_is_one_line(
    capsys, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VISUAL", "no-such-editor-anywhere")
    code, out, err = run(capsys, "--db", root, "note", first_id(root), "--edit")
    assert (code, out) == (1, "")
    assert "cannot run the editor 'no-such-editor-anywhere'" in err and err.count("\n") == 1
    monkeypatch.setenv("VISUAL", "'unbalanced")
    code, _, err = run(capsys, "--db", root, "note", first_id(root), "--edit")
    assert code == 1 and "$VISUAL cannot be read as a command" in err


def test_without_visual_the_editor_is_editor(
    capsys, root: Path, editor: FakeEditor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VISUAL")
    monkeypatch.setenv("EDITOR", f"{FakeEditor.NAME} --some-flag")
    editor.replaces("from $EDITOR")  # the flag comes first; the file is the last argument
    editor.does('for last; do :; done\nprintf "from EDITOR" > "$last"')
    code, _, err = run(capsys, "--db", root, "note", first_id(root), "--edit")
    assert (code, err) == (0, "")
    assert note_of(root, first_id(root)) == "from EDITOR"


def test_a_note_too_long_is_not_saved_and_its_text_is_kept(
    capsys, root: Path, editor: FakeEditor
) -> None:
    paper_id = first_id(root)
    editor.replaces("x" * (NOTE_MAX_CHARS + 1))
    code, _, err = run(capsys, "--db", root, "note", paper_id, "--edit")
    assert code == 1 and f"at most {NOTE_MAX_CHARS:,} characters" in err
    kept = Path(err.rstrip("\n").rsplit(" ", 1)[-1])
    try:
        assert kept.read_text() == "x" * (NOTE_MAX_CHARS + 1)  # nothing the person wrote is lost
    finally:
        kept.unlink()
    assert note_of(root, paper_id) == ""


def test_a_note_too_long_in_wide_characters_is_called_too_long_and_kept(
    capsys, root: Path, editor: FakeEditor
) -> None:
    # Found by an attacker pass: 90,000 'é' (180,000 bytes) were read back cut at the byte
    # limit, in the middle of a character, and called "not UTF-8 text".
    editor.does(
        f"{sys.executable} -c \"import sys; open(sys.argv[1], 'w').write('é' * 90000)\" \"$1\""
    )
    code, _, err = run(capsys, "--db", root, "note", first_id(root), "--edit")
    assert code == 1 and f"at most {NOTE_MAX_CHARS:,} characters" in err, err
    kept = Path(err.rstrip("\n").rsplit(" ", 1)[-1])
    try:
        assert kept.read_text(encoding="utf-8") == "é" * 90000
    finally:
        kept.unlink()


def test_an_editor_killed_after_writing_keeps_the_text(
    capsys, root: Path, editor: FakeEditor
) -> None:
    # Found by an attacker pass: an editor that hung and was killed (kill -9 from another
    # terminal) had its temp file removed with what the person had already saved in it. An
    # editor that exits with an error (:cq) means "abort": that file still goes.
    editor.does('printf "half a thought\\n" >> "$1"\nkill -9 $$')
    code, out, err = run(capsys, "--db", root, "note", first_id(root), "--edit")
    assert (code, out) == (1, "")
    assert "the editor was stopped by signal 9; nothing saved; your text is kept in " in err
    kept = Path(err.rstrip("\n").rsplit(" ", 1)[-1])
    try:
        assert kept.read_text() == "half a thought\n"
    finally:
        kept.unlink()
    assert note_of(root, first_id(root)) == ""
    editor.does("kill -9 $$")  # killed before writing anything: nothing to keep
    code, _, err = run(capsys, "--db", root, "note", first_id(root), "--edit")
    assert code == 1 and err.endswith("the editor was stopped by signal 9; nothing saved\n")
    assert editor.leftover_files() == []


def test_an_editor_that_leaves_a_fifo_is_one_line_not_a_hang(
    root: Path, editor: FakeEditor
) -> None:
    # Found by an attacker pass: an editor that replaced the file with a FIFO left papershelf
    # waiting forever to read it (a real process, so that a hang fails instead of stalling).
    import subprocess

    editor.does('rm "$1"\nmkfifo "$1"')
    done = subprocess.run(
        [sys.executable, "-m", "papershelf", "--db", str(root), "note", first_id(root), "--edit"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.endswith(
        "the editor left something that is not a file in its place; nothing saved\n"
    )
    assert note_of(root, first_id(root)) == ""
    assert editor.leftover_files() == []


# -- the config file ----------------------------------------------------------------------------


def write_config(text: str) -> Path:
    path = Path(os.environ["PAPERSHELF_CONFIG"])  # tests/conftest.py: one per test
    path.write_text(text, encoding="utf-8")
    return path


def test_the_config_names_the_library_after_db_and_papershelf_home(
    capsys, root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(f'library = "{root}"\n')
    monkeypatch.delenv("PAPERSHELF_HOME")
    code, out, err = run(capsys, "list", "--limit", "1")
    assert (code, err) == (0, "") and out.count("\n") == 1
    code, out, err = run(capsys, "show", first_id(root))  # the full (Library) path too
    assert code == 0, err
    # $PAPERSHELF_HOME and --db still win over it.
    other = tmp_path / "other"
    monkeypatch.setenv("PAPERSHELF_HOME", str(other))
    code, _, err = run(capsys, "list")
    assert code == 1 and str(other) in err
    code, out, _ = run(capsys, "--db", root, "list", "--limit", "1")
    assert code == 0 and out.count("\n") == 1


def test_config_problems_are_one_warning_each_and_the_command_runs(
    capsys, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(f'library = "{root}"\ncolour = "red"\nsort = 3\n[keys]\n"app.tag" = "a b"\n')
    monkeypatch.delenv("PAPERSHELF_HOME")
    code, out, err = run(capsys, "list", "--limit", "2")
    assert code == 0 and out.count("\n") == 2
    assert err.splitlines() == [
        "papershelf: warning: config.toml: colour: unknown key "
        "(known: library, theme, sort, export_dir, columns, keys); ignored",
        "papershelf: warning: config.toml: sort: expected a string, found a number 3; ignored",
        "papershelf: warning: config.toml: keys.app.tag: not a key name: 'a b'; ignored",
    ]


def test_a_config_that_is_not_toml_leaves_the_default_library(
    capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config('library = "/nowhere\n')
    monkeypatch.delenv("PAPERSHELF_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(Path(os.environ["PAPERSHELF_CONFIG"]).parent))
    code, _, err = run(capsys, "list")
    lines = err.splitlines()
    assert "config.toml: not valid TOML (" in lines[0] and lines[0].endswith("; ignored")
    assert code == 1 and "no papershelf library in" in lines[1]  # the platform's, not /nowhere


def test_help_names_the_config_file(capsys) -> None:
    path = write_config("")
    with pytest.raises(SystemExit):
        run(capsys, "--help")
    out = capsys.readouterr().out
    # argparse wraps the epilog (inside a long path too, after a hyphen): compare without spaces.
    assert "".join(str(path).split()) in "".join(out.split())
    assert "($PAPERSHELF_CONFIG)" in out
