"""Everything the `papershelf` command prints, made safe for a terminal on the way out.

Paper text, tags, notes, file names, journal descriptions and error messages can hold anything
(a hand-edited papers.json, a hostile file name, the user's own words echoed back by argparse).
Written raw, an ESC starts an escape sequence (clear the screen, OSC 52 sets the clipboard, OSC 8
hides a link), BEL rings, CR lets later text overwrite earlier text, and bidi controls reorder
what the reader sees. So nothing reaches the terminal that way:

- `line` / `lines` write text as single lines: every control character in the text, newlines
  included, is data and is shown as a visible stand-in (as the app shows it: control pictures
  such as `␛` for C0 controls and DEL, U+FFFD for C1 and bidi controls); the only newline is the
  one this module writes after each line.
- `block` writes text that has lines of its own (a note, an abstract): its newlines are kept.
- `json_block` writes JSON with the characters json.dumps leaves raw escaped as `\\uXXXX`, so
  the output parses to exactly the same values.
- `error` and `warning` write one `papershelf: ...` line on stderr.
- `guarded_streams()` wraps sys.stdout and sys.stderr for the whole run of `main()`: what is
  written to them some other way (argparse's help and usage errors, a stray `print`) is cleaned
  too, newlines aside, so a new command cannot forget. Text already cleaned here skips that
  second check, which keeps a 10,000-line `papershelf list` at one `str.isprintable` pass.

The one other control character written is the carriage return of `progress`, which redraws
one status line on stderr, and only when stderr is a terminal.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO

from papershelf.tui.stand_ins import stand_ins

__all__ = [
    "PROG",
    "OutputError",
    "block",
    "error",
    "flush",
    "guarded_streams",
    "json_block",
    "json_text",
    "line",
    "lines",
    "progress",
    "terminal_text",
    "warning",
]

PROG = "papershelf"

# Every unsafe character but the newline (which is unsafe only inside a line). One pattern, as
# compiling one costs a `papershelf list` half a millisecond.
_UNSAFE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def terminal_text(text: str, *, one_line: bool = True) -> str:
    """`text` with every character unsafe for a terminal replaced by a visible stand-in.

    With `one_line` (the default) newlines are data too and become spaces; otherwise they are
    kept (and a CRLF line end becomes a plain newline).
    """
    if text.isprintable():
        # The common case, checked in C: no control, format (bidi), separator (but the space)
        # or surrogate character at all, so nothing unsafe.
        return text
    if one_line:
        if "\n" not in text and _UNSAFE.search(text) is None:
            return text
        return text.translate(stand_ins(one_line=True))
    if _UNSAFE.search(text) is None:
        return text
    return text.replace("\r\n", "\n").translate(stand_ins(one_line=False))


class OutputError(Exception):
    """Standard output could not be written (`>/dev/full`, a full disk, a closed stream): not
    the command's failure, whose changes are saved by then, and said so by `main`."""


def _raw(stream: TextIO) -> TextIO:
    """The stream under a `_GuardedStream` (text written to it is clean already)."""
    return stream.inner if isinstance(stream, _GuardedStream) else stream


@contextmanager
def _writing() -> Iterator[None]:
    """Turn a failure to write standard output into `OutputError` (a reader that left, a
    BrokenPipeError, stays what it is: `main` stops quietly)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as error:  # ValueError: the stream was closed
        raise OutputError(getattr(error, "strerror", None) or str(error)) from None


def flush() -> None:
    """Flush standard output now, so that a failure is reported (see `OutputError`)."""
    with _writing():
        sys.stdout.flush()


def line(text: str = "", *, stream: TextIO | None = None) -> None:
    """Write `text` as one line (to stdout unless `stream` is given)."""
    if stream is not None:  # stderr: nowhere else to report its failure
        _raw(stream).write(terminal_text(text) + "\n")
        return
    with _writing():
        _raw(sys.stdout).write(terminal_text(text) + "\n")


def lines(texts: Sequence[str]) -> None:
    """Write each of `texts` as one line to stdout."""
    if not texts:
        return
    # One pass in C over 10,000 lines of `papershelf list` for the usual case (see
    # `terminal_text`); only a line that fails it is looked at more closely.
    if not all(map(str.isprintable, texts)):
        texts = [text if text.isprintable() else terminal_text(text) for text in texts]
    with _writing():
        stream = _raw(sys.stdout)
        stream.write("\n".join(texts))
        stream.write("\n")


def block(text: str) -> None:
    """Write text that has lines of its own to stdout, ending with a newline."""
    with _writing():
        _raw(sys.stdout).write(terminal_text(text, one_line=False).rstrip("\n") + "\n")


def json_text(value: object) -> str:
    """`value` as indented JSON in which no character is unsafe for a terminal.

    json.dumps escapes C0 controls itself (its only raw newlines are those of the indentation);
    DEL, C1 and bidi controls, line separators and lone surrogates are escaped here as
    `\\uXXXX`, which JSON reads back as the same character (they can only occur inside strings,
    where such an escape is always valid).
    """
    import json  # here: `list` without --json prints lines and need not load it

    dumped = json.dumps(value, ensure_ascii=False, indent=2)
    return _UNSAFE.sub(lambda match: f"\\u{ord(match[0]):04x}", dumped)


def json_block(value: object) -> None:
    """Write `value` as JSON to stdout (see `json_text`)."""
    with _writing():
        _raw(sys.stdout).write(json_text(value) + "\n")


def error(message: str) -> None:
    """`papershelf: <message>` as one line on stderr."""
    line(f"{PROG}: {message}", stream=sys.stderr)


def warning(message: str) -> None:
    """`papershelf: warning: <message>` as one line on stderr."""
    line(f"{PROG}: warning: {message}", stream=sys.stderr)


def progress(text: str, *, done: bool) -> None:
    """Redraw one status line on stderr (a terminal only: callers check `isatty`)."""
    stream = _raw(sys.stderr)
    stream.write("\r" + terminal_text(text) + ("\n" if done else ""))
    stream.flush()


class _GuardedStream(io.TextIOBase):
    """A text stream that cleans what is written to it (newlines kept) before passing it on."""

    def __init__(self, inner: TextIO) -> None:
        super().__init__()
        self.inner = inner

    def write(self, text: str) -> int:
        self.inner.write(terminal_text(text, one_line=False))
        return len(text)

    def flush(self) -> None:
        self.inner.flush()

    def fileno(self) -> int:
        return self.inner.fileno()

    def isatty(self) -> bool:
        return self.inner.isatty()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.inner.encoding


@contextmanager
def guarded_streams() -> Iterator[None]:
    """Clean everything written to sys.stdout and sys.stderr while inside (see the docstring).

    A character the streams' encoding cannot hold (`PYTHONIOENCODING=ascii`) is written as `?`
    rather than failing the command half-way through its output.
    """
    saved = sys.stdout, sys.stderr
    if saved[0] is None or saved[1] is None:
        # Started with stdout or stderr closed (`>&-`): what would go there goes nowhere.
        sys.stdout = sys.stdout or open(os.devnull, "w")  # noqa: SIM115
        sys.stderr = sys.stderr or open(os.devnull, "w")  # noqa: SIM115
        saved = sys.stdout, sys.stderr
    policies = [_tolerate_encoding(stream) for stream in saved]
    sys.stdout = _GuardedStream(saved[0])  # type: ignore[assignment]
    sys.stderr = _GuardedStream(saved[1])  # type: ignore[assignment]
    try:
        yield
    finally:
        # Whatever the command changed them to since (nothing, today), the originals return.
        sys.stdout, sys.stderr = saved
        for stream, errors in zip(saved, policies, strict=True):
            if errors is not None:
                stream.reconfigure(errors=errors)  # type: ignore[attr-defined]


def _tolerate_encoding(stream: TextIO) -> str | None:
    """Make a strict text stream replace what it cannot encode; its old policy, to restore."""
    if not isinstance(stream, io.TextIOWrapper) or stream.errors != "strict":
        return None
    stream.reconfigure(errors="replace")
    return "strict"
