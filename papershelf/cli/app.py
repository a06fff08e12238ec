"""`papershelf` with no command: the Textual app, the only code path that imports Textual."""

from __future__ import annotations

import argparse
import gc
import sys

from papershelf.cli import output
from papershelf.cli.exits import EXIT_OK, EXIT_USAGE
from papershelf.cli.output import PROG
from papershelf.cli.shelf import open_library, user_config


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
    library = open_library(args, create=True, seed=True)
    config = user_config(args)  # its problems become notifications in the app
    from papershelf.tui.app import PapershelfApp

    # The library's papers live as long as the app: keep them out of the cyclic garbage
    # collector's full passes, which otherwise pause the interface for tens of milliseconds.
    gc.freeze()
    app = PapershelfApp(library, config)
    app.run()
    # 70 after an internal error, 1 when the user quit with unsaved changes, 128+N on a signal.
    return app.return_code or EXIT_OK
