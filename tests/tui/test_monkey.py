"""A monkey test of the app: random bursts of its real keys, on every screen and dialog.

The keys come from the bindings (the app's, its widgets' and every dialog's), so a new binding
is covered without editing this file, plus a few keys of text and editing. After each burst:
the app is alive, nothing unexpected was raised (no `crash.log`, `app._exception` is None), and
what the app holds in memory is what a fresh Library reads from disk.

PAPERSHELF_MONKEY_STEPS (keys, default 300) and PAPERSHELF_MONKEY_SEED (default 1) make longer
or other runs.
"""

from __future__ import annotations

import os
import random

from keys import burst as send_burst
from pilot_helpers import settle
from test_app import SIZE
from textual.binding import Binding

from papershelf.tui.app import PapershelfApp
from papershelf.tui.screens import (
    confirm,
    export_dialog,
    help,
    link_chooser,
    note_editor,
    related,
    tag_editor,
)
from papershelf.tui.widgets.filter_bar import FilterBar
from papershelf.tui.widgets.paper_list import PaperList
from papershelf.tui.widgets.reader import Reader
from papershelf.tui.widgets.tag_pane import TagPane

STEPS = int(os.environ.get("PAPERSHELF_MONKEY_STEPS", "300"))
SEED = int(os.environ.get("PAPERSHELF_MONKEY_SEED", "1"))
TEXT_KEYS = ["a", "e", "x", "1", "number_sign", "minus", "space", "backspace", "enter", "escape"]
EXCLUDED = {
    "q",  # quits: the run would end (quitting is covered by its own tests)
    "ctrl+p",  # the command palette: its own tests
    "ctrl+q",
    "ctrl+c",
}


def binding_keys() -> list[str]:
    """Every key bound on the main screen, its widgets and every dialog."""
    owners: list[object] = [PapershelfApp, PaperList, Reader, TagPane, FilterBar]
    for module in (confirm, export_dialog, help, link_chooser, note_editor, related, tag_editor):
        owners += [value for value in vars(module).values() if hasattr(value, "BINDINGS")]
    keys: set[str] = set()
    for owner in owners:
        for binding in getattr(owner, "BINDINGS", []):
            if isinstance(binding, Binding):
                keys.update(key.strip() for key in binding.key.split(","))
            elif isinstance(binding, tuple):
                keys.update(key.strip() for key in str(binding[0]).split(","))
    return sorted(keys - EXCLUDED)


async def test_monkey(make_app, library, reopen, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # exports are written to the current directory
    keys = binding_keys() + TEXT_KEYS
    assert {"T", "t", "s", "j", "slash", "e", "n"} <= set(keys)
    rng = random.Random(SEED)
    app = make_app()
    crash_log = library.root / "crash.log"
    sent: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        while len(sent) < STEPS:
            burst = [rng.choice(keys) for _ in range(rng.randint(1, 6))]
            sent += burst
            await send_burst(pilot, *burst)  # no pause between the keys, as a terminal sends
            await settle(app, pilot)
            where = f"seed {SEED}, after keys {sent[-30:]}"
            assert app.is_running, where
            assert app._exception is None, where
            assert not crash_log.exists(), f"{where}: {crash_log.read_text()}"
            if not library.pending:
                assert dict(reopen(library.root).entries()) == dict(library.entries()), where
    assert dict(reopen(library.root).entries()) == dict(library.entries())
