"""The `papershelf` command: argument parsing, one function per subcommand, and output.

May import `papershelf.storage`, and `papershelf.tui` only to start the app (imported late, so
that commands which never draw a screen never load Textual).
"""
