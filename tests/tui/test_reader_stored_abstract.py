"""The reader shows abstracts read from papers.json on demand (papers.cache holds none), and one
line instead of a crash when papers.json lost the paper behind papershelf's back."""

from __future__ import annotations

import os
from pathlib import Path

from keys import burst
from pilot_helpers import settle

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper, stored_abstract
from papershelf.tui.app import PapershelfApp
from papershelf.tui.widgets.reader import Reader

FIRST = Paper(
    id="abcdef000011",
    name="QuokkaNet",
    title="QuokkaNet: Lantern Fish Counting",
    abstract="We count lantern fish with a quokka camera.",
    venue="Test 2025",
    sources=("hand.jsonl",),
)
SECOND = Paper(
    id="abcdef000012",
    name="Wombat",
    title="Wombat Burrows",
    abstract="A study of wombat burrows and their tunnels.",
    venue="Test 2025",
    sources=("hand.jsonl",),
)


def drawn(reader: Reader) -> str:
    return "\n".join(
        "".join(segment.text for segment in reader.render_line(y))
        for y in range(reader.scrollable_content_region.height)
    )


def change_in_place(path: Path, old: bytes, new: bytes) -> None:
    """Another program rewrites bytes of `path` in place, keeping its size and mtime."""
    info = os.stat(path)
    data = path.read_bytes()
    assert data.count(old) == 1 and len(old) == len(new)
    path.write_bytes(data.replace(old, new))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


async def test_the_reader_shows_abstracts_read_on_demand(tmp_path: Path) -> None:
    Library.open(tmp_path / "lib", seed=False).import_papers([FIRST, SECOND], "hand.jsonl")
    library = Library.open(tmp_path / "lib", seed=False)
    assert all(stored_abstract(paper) is not None for paper in library.papers())
    app = PapershelfApp(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot.app, pilot)
        assert "lantern fish with a quokka" in drawn(app.query_one(Reader))
        await burst(pilot, "down")
        await settle(pilot.app, pilot)
        assert "wombat burrows and their tunnels" in drawn(app.query_one(Reader))
        # papers.json loses the second paper in place (id and abstract changed, same size).
        papers_json = tmp_path / "lib" / "papers.json"
        change_in_place(papers_json, SECOND.id.encode(), b"abcdef000099")
        change_in_place(papers_json, b"their tunnels", b"their burrows")
        await burst(pilot, "up", "down")  # twice over the lost paper, in one burst
        await settle(pilot.app, pilot)
        text = drawn(app.query_one(Reader))
        assert "no longer holds paper abcdef000012" in text
        assert app.is_running and app.return_code is None
