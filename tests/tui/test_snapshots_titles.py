"""A snapshot of the reader showing a title written in LaTeX, as Unicode (issue 11).

Update with `pytest tests/tui/test_snapshots_titles.py --snapshot-update`, then look at the
report before committing the SVG.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pilot_helpers import hint_seen

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.tui.app import PapershelfApp

KIE = Paper(
    id="abcdef000003",
    name="K²IE",
    title=r"K$^2$IE: Kernel Estimators via $\rm E(3)$-Equivariant Maps for Schr\"{o}dinger Bridges",
    abstract=(
        r"We propose K$^2$IE, a kernel method for $\alpha$-NeuS point processes in "
        r"$\mathcal{O}(\sqrt{T})$ time, with a _lifting_ step and **bold** claims."
    ),
    venue="Test 2025",
    sources=("hand.jsonl",),
)
PLAIN = Paper(
    id="abcdef000004",
    name="Wombat",
    title="Wombat Burrows",
    abstract="A study of wombat burrows.",
    venue="Test 2025",
    sources=("hand.jsonl",),
)


def test_reader_with_a_latex_title(snap_compare, tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers([KIE, PLAIN], "hand.jsonl")
    hint_seen(tmp_path / "lib")
    app = PapershelfApp(Library.open(tmp_path / "lib", seed=False))

    async def run_before(pilot: Any) -> None:
        for _ in range(3):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
        await pilot.press("slash", *"k2ie lifting", "enter")
        for _ in range(3):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=(100, 24))
