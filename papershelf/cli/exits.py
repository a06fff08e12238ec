"""The exit statuses of the `papershelf` command (DESIGN §5)."""

EXIT_OK = 0
EXIT_USER_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70
"""The command could not finish (a bug, or out of memory; sysexits' EX_SOFTWARE): reported in
one line, never as a traceback."""
EXIT_INTERRUPTED = 130
"""Stopped by ctrl+c (128 + SIGINT), as shells report it."""
