"""Regenerate docs/screenshot.svg and docs/screenshot-80x24.svg: the main screen at 120x40
and at 80x24 (the list over the reader) on the bundled seeds.

Run by hand: `python docs/make_screenshot.py`. It uses a throw-away library, tags a few papers
so the tag pane and list marks show, and filters as a person would.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from papershelf.storage.library.library import Library
from papershelf.storage.library.settings import load_settings, save_settings
from papershelf.tui.app import PapershelfApp

OUT = Path(__file__).resolve().parent / "screenshot.svg"
SIZES = {OUT: (120, 40), OUT.with_name("screenshot-80x24.svg"): (80, 24)}


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        library = Library.open(Path(tmp), seed=True)
        by_name = {paper.name: paper.id for paper in library.papers()}
        library.tag([by_name["RelGNN"], by_name["STRING"], by_name["LIFT"]], add=["to-read"])
        library.tag([by_name["STRING"]], add=["robotics"])
        library.set_status([by_name["LIFT"]], "read")
        library.set_starred([by_name["STRING"]], True)
        save_settings(library.root, load_settings(library.root).with_hint_shown())
        for out, size in SIZES.items():
            app = PapershelfApp(library)
            async with app.run_test(size=size) as pilot:
                await app.workers.wait_for_complete()
                await pilot.press("slash", *"graph", "enter")
                await app.workers.wait_for_complete()
                await pilot.pause()
                out.write_text(app.export_screenshot(title="papershelf"), encoding="utf-8")
            print(f"wrote {out}")


if __name__ == "__main__":
    asyncio.run(main())
