"""The `papershelf` command: `main` (dispatch and exits), `parser`, one module per group of
commands (`importing`, `reading`, `editing`, `exporting`, `app`), and `output`.

May import `papershelf.storage`, and `papershelf.tui` only to start the app (imported late, so
that commands which never draw a screen never load Textual).
"""
