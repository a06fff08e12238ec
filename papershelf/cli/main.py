"""The `papershelf` command: the app with no sub-command, a scriptable library with one.

`main` parses (`parser`), runs the one module that owns the command (imported only then, so
`papershelf list` loads neither the editing commands nor Textual; only `app` imports it), and
turns every failure into an exit status and at most one line on stderr, never a traceback.

Every message goes out through `papershelf.cli.output`, which keeps control characters in paper
text, file names and errors from reaching the terminal; after the command, what each opened library
has to tell (`Library.take_notices`, a failed save of the undo history) is printed as warnings.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from papershelf.cli import output
from papershelf.cli.exits import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    EXIT_USER_ERROR,
)
from papershelf.cli.output import PROG
from papershelf.cli.parser import UsageError, build_parser, parse
from papershelf.storage.errors import PapershelfError

__all__ = ["build_parser", "main"]

HANDLERS: dict[str | None, str] = {
    None: "app:run_app",
    "import": "importing:cmd_import",
    "add": "adding:cmd_add",
    "list": "reading:cmd_list",
    "show": "reading:cmd_show",
    "related": "reading:cmd_related",
    "tag": "editing:cmd_tag",
    "status": "editing:cmd_status",
    "note": "editing:cmd_note",
    "remove": "removing:cmd_remove",
    "undo": "editing:cmd_undo",
    "redo": "editing:cmd_redo",
    "export": "exporting:cmd_export",
    "backup": "exporting:cmd_backup",
    "restore": "exporting:cmd_restore",
    "sync": "syncing:cmd_sync",
}
"""Each command's function, as `module:function` in `papershelf.cli`."""


APP_FPS = "120"
"""The app's frame rate cap (Textual's `TEXTUAL_FPS`, 60 by default), unless the user set one.

A search's results arrive just after the frame that showed the typed key, and Textual draws
the next frame on its next tick: at 60 a key's list waited ~11 ms for it (median; at 100,000
papers, `bench_app`, two alternated runs each: results to list 21.4/25.3 -> 10.8/12.4 ms
median, p95 37/36 -> 22/23 ms). Frames are drawn only when something changed, so the cap
costs nothing while nothing moves."""


def handler(command: str | None) -> Callable[[argparse.Namespace], int]:
    """The function that runs `command` (None: the app), importing its module now."""
    if command is None:  # before Textual is imported: it reads the variable once
        os.environ.setdefault("TEXTUAL_FPS", APP_FPS)
    module, _, function = HANDLERS[command].partition(":")
    return getattr(importlib.import_module(f"papershelf.cli.{module}"), function)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `papershelf` console script; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    with output.guarded_streams():
        status = _run(words)
        try:
            output.flush()
        except output.OutputError as error:
            return _output_lost(error)
        except BrokenPipeError:
            return EXIT_OK
        return status


def _run(words: list[str]) -> int:
    args: argparse.Namespace | None = None
    try:
        args = parse(words)
        args.opened = []
        return handler(args.command)(args)
    except UsageError as error:
        output.line(str(error), stream=sys.stderr)
        output.line(f"Try '{PROG} --help' for more information.", stream=sys.stderr)
        return EXIT_USAGE
    except PapershelfError as error:
        output.error(str(error))
        return EXIT_USER_ERROR
    except output.OutputError as error:
        return _output_lost(error)
    except BrokenPipeError:
        # `papershelf list | head`: the reader left; quietly stop writing.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except OSError as error:
        # A file the user named could not be written or read: one line, no traceback.
        where = f"{error.filename}: " if error.filename else ""
        output.error(f"{where}{error.strerror or error}")
        return EXIT_USER_ERROR
    except Exception as error:
        # One line rather than a traceback, and a status that says the command did not finish.
        output.error(_unexpected(error))
        return EXIT_INTERNAL
    finally:
        if args is not None:
            _report_notices(args)


def _output_lost(error: output.OutputError) -> int:
    """Standard output failed: say so without claiming the command failed (its changes are
    on disk before anything is printed)."""
    output.error(f"could not write the output ({error}); any change the command made is saved")
    return EXIT_USER_ERROR


def _unexpected(error: Exception) -> str:
    """The one line for an error no command expects."""
    if isinstance(error, MemoryError):
        return "out of memory: the command was stopped before it finished"
    return f"internal error ({type(error).__name__}: {error}); please report it"


def _report_notices(args: argparse.Namespace) -> None:
    """What each library the command opened has to tell the user, as warnings on stderr."""
    for library in args.opened:
        for notice in library.take_notices():
            output.warning(notice)
        if library.journal_notice:
            output.warning(library.journal_notice)


if __name__ == "__main__":
    sys.exit(main())
