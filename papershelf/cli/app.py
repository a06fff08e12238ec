"""`papershelf` with no command: the Textual app, the only code path that imports Textual."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import os
import signal
import sys

from papershelf.cli import output
from papershelf.cli.exits import EXIT_OK, EXIT_USAGE
from papershelf.cli.output import PROG
from papershelf.cli.shelf import open_library, user_config
from papershelf.tui.app_trace import TRACE
from papershelf.tui.collector import StartPause


def run_app(args: argparse.Namespace) -> int:
    """Open the library (seeding it on a first run) and start the Textual app."""
    for name in ("stdin", "stdout"):
        stream = getattr(sys, name)
        if stream is None or not stream.isatty():
            # Painting escape codes into a pipe and waiting for keys that never come helps nobody.
            output.error(
                f"the app needs a terminal, and standard {name[3:]}put is not one; "
                f"in scripts use the commands ({PROG} --help)"
            )
            return EXIT_USAGE
    # Next to nothing the start allocates is garbage: no cyclic collections until the first
    # frame (`StartPause`). The library's papers live as long as the app: frozen out of the
    # full passes, which would otherwise pause the interface for tens of milliseconds.
    atexit.register(release_terminal)
    TRACE.mark_cpu("run-app")
    TRACE.trace_collections()
    start_pause = StartPause()
    try:
        library = open_library(args, create=True, seed=True)
        gc.freeze()
        TRACE.mark_cpu("library-open")
        config = user_config(args)  # its problems become notifications in the app
        from papershelf.tui.app import PapershelfApp

        TRACE.mark_cpu("app-imported")
        app = PapershelfApp(library, config, start_pause=start_pause)
        app.run()
    finally:
        start_pause.end()
    # 70 after an internal error, 1 when the user quit with unsaved changes, 128+N on a signal.
    return app.return_code or EXIT_OK


def release_terminal() -> None:
    """Let go of the terminal before the process ends: standard input, output and error that
    are a terminal are pointed at /dev/null (run at exit, after the last message is written).

    tmux (3.3, built with libutempter) hands SIGCHLD to libutempter while it clears the
    pane's login record on seeing the pty close; a program ending during those milliseconds
    left a zombie and a dead pane with no exit status (`pane_dead_status` empty; tmux issue
    311). Closed here, the pty closes while the interpreter still has its teardown to do, so
    the record is cleared before the process ends and tmux reaps it. Also what any terminal
    sees first anyway: the app's last bytes, then the end of its output.
    The terminal then hangs up on its session's leader: that is no news to a process that
    has let go of it, so SIGHUP is ignored from here (the app is gone; its handler too).
    """
    with contextlib.suppress(ValueError, OSError):  # ValueError: not the main thread
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.flush()
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDWR)
        try:
            for fd in (0, 1, 2):
                if os.isatty(fd):
                    os.dup2(null, fd)
        finally:
            os.close(null)
