"""The one-line hint of the app's first start: what the list's symbols mean, where the keys
are. Shown once per library: settings.json remembers it (`Settings.hint_shown`)."""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING

from papershelf.storage.errors import PapershelfError
from papershelf.storage.library.settings import save_settings
from papershelf.tui.widgets.paper_row import CODE_MARK, STAR, STATUS_MARKS

if TYPE_CHECKING:
    from papershelf.tui.app import PapershelfApp

HINT = (
    f"{STATUS_MARKS['reading']} reading  {STATUS_MARKS['read']} read  {STAR} starred  "
    f"{CODE_MARK} has code  ·  enter reads, / filters, ? lists every key and symbol"
)
HINT_SECONDS = 12.0
"""Long enough to read it once; it is not shown again."""


def show_first_run_hint(app: PapershelfApp) -> bool:
    """Show `HINT` unless this library's settings say it was shown; remember that it was.

    A settings file that cannot be written costs nothing but the hint showing again.
    """
    workflow = app.workflow
    if workflow.settings.hint_shown:
        return False
    app.notify(HINT, title="Welcome", timeout=HINT_SECONDS, markup=False)
    workflow.settings = workflow.settings.with_hint_shown()
    with suppress(PapershelfError):  # then shown again next time; nothing else depends on it
        save_settings(app.library.root, workflow.settings)
    return True
