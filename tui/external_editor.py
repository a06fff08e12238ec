"""A note edited in the user's own editor (`$VISUAL`, else `$EDITOR`, else `vi`).

Shared by the note editor's `ctrl+e` (the app suspends itself around `edit_note`) and
`papershelf note ID --edit`. Pure Python with no Textual import, like `stand_ins`: the command
line uses it without loading the app.

The note goes to a temp file of its own (mode 0600: notes can be private), the editor runs on it
with the terminal, and the file is read back and removed. What comes back is judged as the
library would store it (control characters removed, ends stripped): the same note, a non-zero
exit or a file that is not UTF-8 saves nothing and says so in one line. A note too long to save
keeps its temp file, named in the message, so the text written is not lost.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import stat
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from papershelf.storage.library.library import NOTE_MAX_CHARS
from papershelf.storage.text.clean import clean_text

__all__ = ["DEFAULT_EDITOR", "NoteEdit", "edit_note", "editor_command"]

DEFAULT_EDITOR = "vi"
"""The editor when neither $VISUAL nor $EDITOR names one (POSIX requires vi)."""
READ_LIMIT = 8 * NOTE_MAX_CHARS
"""Bytes read back at most: a note can hold NOTE_MAX_CHARS characters of up to 4 bytes."""


@dataclass(frozen=True, slots=True)
class NoteEdit:
    """What came back from the editor: the note to save (None: nothing to save) and one line
    saying what happened."""

    note: str | None
    message: str
    ok: bool = True
    """False when something went wrong (the editor did not run or failed, unreadable text)."""


def editor_command(environ: Mapping[str, str] | None = None) -> list[str]:
    """The editor's command words: `$VISUAL`, else `$EDITOR` (either may hold arguments, as
    `code --wait`), else `vi`. ValueError (one line) for a value the shell could not split."""
    environ = os.environ if environ is None else environ
    for name in ("VISUAL", "EDITOR"):
        value = environ.get(name, "").strip()
        if value:
            try:
                words = shlex.split(value)
            except ValueError as error:
                raise ValueError(f"${name} cannot be read as a command ({error})") from None
            if words:
                return words
    return [DEFAULT_EDITOR]


def edit_note(note: str, name: str = "note") -> NoteEdit:
    """Run the user's editor on `note` in a temp file; the edited note, or why there is none.

    `name` goes into the temp file's name (the editor shows it). Blocks until the editor exits:
    the app calls it inside `App.suspend()`, the command line directly.
    """
    try:
        command = editor_command()
    except ValueError as error:
        return NoteEdit(None, f"{error}; nothing saved", ok=False)
    try:
        fd, temp = tempfile.mkstemp(prefix=f"papershelf-{_safe_name(name)}-", suffix=".md")
    except OSError as error:
        reason = error.strerror or str(error)
        return NoteEdit(None, f"cannot make a temp file for the editor ({reason})", ok=False)
    path = Path(temp)
    keep = False
    given = note if not note or note.endswith("\n") else note + "\n"
    try:
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(given)
        except (OSError, UnicodeEncodeError) as error:
            return NoteEdit(None, f"cannot write the note for the editor ({error})", ok=False)
        try:
            status = _run_editor([*command, str(path)])
        except OSError as error:
            return NoteEdit(
                None,
                f"cannot run the editor {command[0]!r} ({error.strerror or error}): "
                "set $VISUAL or $EDITOR; nothing saved",
                ok=False,
            )
        if status > 0:  # the person gave up (`:cq` in vim): the file goes with the note
            how = f"exited with status {status}"
            return NoteEdit(None, f"the editor {how}; nothing saved", ok=False)
        if status < 0:
            # Killed (a hung editor, kill -9): what the person saved before is theirs to keep.
            keep = _changed(path, given)
            where = f"; your text is kept in {path}" if keep else ""
            return NoteEdit(
                None, f"the editor was stopped by signal {-status}; nothing saved{where}", ok=False
            )
        try:
            raw = _read_back(path)
            if len(raw) > READ_LIMIT:  # over the limit, whatever it is (and cut mid-character)
                keep = True
                return _too_long(path)
            text = raw.decode("utf-8")
        except FileNotFoundError:
            return NoteEdit(None, "the editor removed the file; nothing saved", ok=False)
        except _NotAFile:
            what = "the editor left something that is not a file in its place; nothing saved"
            return NoteEdit(None, what, ok=False)
        except OSError as error:
            return NoteEdit(None, f"cannot read the edited note ({error}); nothing saved", ok=False)
        except UnicodeDecodeError:
            keep = True
            return NoteEdit(None, f"the edited note is not UTF-8 text; kept in {path}", ok=False)
        edited = clean_text(text).strip()
        if edited == clean_text(note).strip():
            return NoteEdit(None, "note unchanged; nothing saved")
        if len(edited) > NOTE_MAX_CHARS:
            keep = True
            return _too_long(path)
        return NoteEdit(edited, "note saved")
    finally:
        if not keep:
            with contextlib.suppress(OSError):  # the editor may have left a directory there
                path.unlink(missing_ok=True)


def _too_long(path: Path) -> NoteEdit:
    """The text at `path` is over what a note holds: not saved, and the file is kept."""
    return NoteEdit(
        None,
        f"not saved: a note holds at most {NOTE_MAX_CHARS:,} characters; "
        f"your text is kept in {path}",
        ok=False,
    )


class _NotAFile(OSError):
    """The editor left a FIFO, a directory or a device where the note's file was."""


def _read_back(path: Path) -> bytes:
    """At most READ_LIMIT + 1 bytes of the regular file at `path`; `_NotAFile` for anything
    else. Opened without blocking and checked on the descriptor: a FIFO there would have
    papershelf wait forever for a writer."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _NotAFile(f"{path} is not a regular file")
        return handle.read(READ_LIMIT + 1)


def _changed(path: Path, given: str) -> bool:
    """Whether the file at `path` is a regular file that no longer holds `given`."""
    try:
        return _read_back(path) != given.encode("utf-8")
    except OSError:  # gone, or not a file: nothing to keep
        return False


def _run_editor(argv: list[str]) -> int:
    """Run the editor on the terminal and return its exit status.

    While it runs, papershelf ignores ctrl+c and ctrl+\\ (as git does around an editor): the
    terminal is the editor's, and a key meant for it must not stop papershelf (in the app, the
    interrupt would land outside the suspended screen). The editor itself gets them as usual:
    they are ignored only after it started.

    When papershelf's stdin or stdout is not the terminal (`... | papershelf note ID --edit`),
    the editor gets the terminal (`/dev/tty`) in their place, as `vipe` does: fed a pipe, vim
    runs the piped text as commands. Without a terminal (cron, CI) it gets what there is."""
    tty = _controlling_terminal()
    try:
        editor = subprocess.Popen(
            argv,
            stdin=None if tty is None or _is_terminal(0) else tty,
            stdout=None if tty is None or _is_terminal(1) else tty,
        )
    finally:
        if tty is not None:
            tty.close()  # the editor has its own copy now
    ignored: list[tuple[int, object]] = []
    try:
        for number in (signal.SIGINT, signal.SIGQUIT):
            try:
                ignored.append((number, signal.signal(number, signal.SIG_IGN)))
            except ValueError:  # not the main thread: signals cannot be handled here anyway
                break
        return editor.wait()
    finally:
        for number, handler in ignored:
            signal.signal(number, handler)  # type: ignore[arg-type]


def _is_terminal(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _controlling_terminal() -> BinaryIO | None:
    """The terminal, opened, when stdin or stdout is something else; else None."""
    if _is_terminal(0) and _is_terminal(1):
        return None
    try:
        return open("/dev/tty", "r+b", buffering=0)  # closed by the caller
    except OSError:  # no controlling terminal (or not a POSIX system)
        return None


def _safe_name(name: str) -> str:
    """A paper's name as a piece of a file name: letters, digits and `-` only, short."""
    kept = "".join(char if char.isalnum() else "-" for char in name)[:40].strip("-")
    return kept or "note"
