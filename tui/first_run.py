"""The one-line hint of the app's first start: what the list's symbols mean, where the keys
are. Shown once per library: settings.json remembers it (`Settings.hint_shown`)."""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING

from papershelf.storage.errors import PapershelfError
from papershelf.storage.library.settings import save_settings
from papershelf.tui.key_names import hint_keys
from papershelf.tui.widgets.paper_row import CODE_MARK, STAR, STATUS_MARKS

if TYPE_CHECKING:
    from papershelf.tui.app import PapershelfApp

HINT = (
    f"{STATUS_MARKS['reading']} reading  {STATUS_MARKS['read']} read  {STAR} starred  "
    f"{CODE_MARK} has code  ·  enter reads, / filters, ? lists every key and symbol"
)
"""The hint with the default keys."""


def hint_text(app: PapershelfApp) -> str:
    """`HINT` with the keys the config's `[keys]` gave reading, the filter and help, if any."""
    keys = [
        (hint_keys(app, "list.read", "enter"), "reads"),
        (hint_keys(app, "app.filter", "slash"), "filters"),
        (hint_keys(app, "app.help", "question_mark"), "lists every key and symbol"),
    ]
    said = ", ".join(f"{key} {what}" for key, what in keys if key is not None)
    return HINT.rsplit("  ·  ", 1)[0] + (f"  ·  {said}" if said else "")


HINT_SECONDS = 12.0
"""Long enough to read it once; it is not shown again."""


def show_first_run_hint(app: PapershelfApp) -> bool:
    """Show `HINT` unless this library's settings say it was shown; remember that it was.

    A settings file that cannot be written costs nothing but the hint showing again.
    """
    workflow = app.workflow
    if workflow.settings.hint_shown:
        return False
    app.notify(hint_text(app), title="Welcome", timeout=HINT_SECONDS, markup=False)
    workflow.settings = workflow.settings.with_hint_shown()
    with suppress(PapershelfError):  # then shown again next time; nothing else depends on it
        save_settings(app.library.root, workflow.settings)
    return True
