"""`crash.log` in the library's directory: the tracebacks of errors nobody expected.

The screen gets one safe line; the whole traceback goes here, appended, so a user can send it.
Writing the log never raises: a crash report must not cause a second crash.
"""

from __future__ import annotations

import os
import traceback
from datetime import UTC, datetime
from pathlib import Path

CRASH_LOG = "crash.log"
"""The file's name inside the library directory."""


def describe(error: BaseException) -> str:
    """`TypeName: message` of an error, on one line (the message may be empty)."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def append_crash(root: Path, error: BaseException, where: str) -> Path | None:
    """Append `error`'s traceback, with the time and `where` it happened, to `root/crash.log`.

    Returns the log's path, or None when it could not be written (a full disk, say).
    """
    path = root / CRASH_LOG
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    lines = traceback.format_exception(type(error), error, error.__traceback__)
    text = f"--- {stamp} pid {os.getpid()} in {where}\n{''.join(lines)}\n"
    try:
        with path.open("a", encoding="utf-8", errors="backslashreplace") as log:
            log.write(text)
    except OSError:
        return None
    return path
