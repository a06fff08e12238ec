"""`papershelf` with no command: the Textual app, the only code path that imports Textual."""

from __future__ import annotations

import argparse
import gc
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
