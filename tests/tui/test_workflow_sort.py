"""Pilot tests of the sort orders: `S` cycles them, the palette picks one, a restart keeps it."""

from __future__ import annotations

import json
from pathlib import Path

from pilot_helpers import settle, status
from test_app import SIZE, Notes

from papershelf.storage.library.library import Library
from papershelf.storage.library.settings import sort_ids, sort_ranks
from papershelf.tui.app import PapershelfApp


def shown(app: PapershelfApp) -> list[str]:
    return [hit.paper_id for hit in app.paper_list.hits]


def in_order(library: Library, ids: list[str], order: str) -> list[str]:
    """What `storage.library.settings.sort_ids` makes of `ids` (the app must show exactly this)."""
    by_id = {paper.id: paper for paper in library.papers()}
    return sort_ids(ids, order, by_id, library.entries())


def decorate(library: Library) -> None:
    """States that make every order differ from library order."""
    papers = library.papers()
    library.set_status([papers[5].id, papers[9].id], "reading")
    library.set_status([papers[0].id], "read")
    library.tag([papers[20].id], add=["later"])
    library.set_starred([papers[12].id], True)


async def test_s_cycles_every_order_and_a_restart_keeps_the_last(
    make_app, library: Library, clipboard
) -> None:
    decorate(library)
    everything = [paper.id for paper in library.papers()]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        assert shown(app) == everything
        assert "sort: library order" in status(app)
        seen = []
        for order, label in [
            ("name", "name"),
            ("venue", "venue"),
            ("status", "status"),
            ("changed", "recently changed"),
            ("library", "library order"),
            ("name", "name"),
        ]:
            await pilot.press("S")
            await settle(app, pilot)
            assert shown(app) == in_order(library, everything, order), order
            assert f"sort: {label}" in status(app)
            assert notes.last == f"Sorted by {label}"
            seen.append(shown(app))
        assert len({tuple(ids) for ids in seen}) == 5  # the fixture tells every order apart
        settings = json.loads((library.root / "settings.json").read_text(encoding="utf-8"))
        assert settings["sort"] == "name"

    again = PapershelfApp(Library.open(library.root, seed=False))
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        assert shown(again) == in_order(library, everything, "name")
        assert "sort: name" in status(again)
        assert again.query_one("#reader").paper_id == shown(again)[0]


async def test_a_query_ranks_by_relevance_until_s_picks_an_order(make_app, library) -> None:
    decorate(library)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"graph", "enter")
        await settle(app, pilot)
        ranked = shown(app)
        assert len(ranked) >= 3
        assert "sort: relevance" in status(app)
        await pilot.press("S")  # relevance -> library
        await settle(app, pilot)
        assert shown(app) == in_order(library, ranked, "library")
        assert "sort: library order" in status(app)
        await pilot.press("S", "S")  # -> name -> venue
        await settle(app, pilot)
        assert shown(app) == in_order(library, ranked, "venue")
        await pilot.press("S", "S", "S")  # -> status -> changed -> relevance
        await settle(app, pilot)
        assert shown(app) == ranked
        assert "sort: relevance" in status(app)
        await pilot.press("S", "S")  # -> library -> name: remembered for the empty query
        await settle(app, pilot)
        assert shown(app) == in_order(library, ranked, "name")
        await pilot.press("slash", "escape")
        await settle(app, pilot)
        everything = [paper.id for paper in library.papers()]
        assert shown(app) == in_order(library, everything, "name")
        assert "sort: name" in status(app)
        # A new query starts ranked by relevance again.
        await pilot.press("slash", *"graph", "enter")
        await settle(app, pilot)
        assert shown(app) == ranked
        assert "sort: relevance" in status(app)


async def test_status_order_follows_changes_and_keeps_the_cursor(make_app, library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await app.run_action("sort('status')")
        await settle(app, pilot)
        everything = [paper.id for paper in library.papers()]
        assert shown(app) == everything  # all unread: ties keep library order
        app.paper_list.move_to(7)
        target = app.paper_list.current_id
        await pilot.press("s")  # reading: moves to the top, the cursor goes with it
        await settle(app, pilot)
        assert shown(app)[0] == target
        assert app.paper_list.current_id == target


async def test_the_palette_offers_each_order(make_app, library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Sort by venue")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        everything = [paper.id for paper in library.papers()]
        assert shown(app) == in_order(library, everything, "venue")
        assert notes.last == "Sorted by venue"
        await app.run_action("sort('relevance')")  # no query: nothing to rank
        assert (notes.last, notes.last_severity) == (
            "Relevance needs a filter: type a query with /",
            "warning",
        )
        assert "sort: venue" in status(app)


async def test_a_damaged_settings_file_starts_in_library_order(
    make_app, library_root: Path
) -> None:
    (library_root / "settings.json").write_text('{"format": "papershelf-settings", "sort": 7')
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "sort: library order" in status(app)
        await pilot.press("S")
        await settle(app, pilot)
        saved = json.loads((library_root / "settings.json").read_text(encoding="utf-8"))
        assert saved["sort"] == "name"


async def test_a_sorted_query_ranks_the_library_once_not_at_every_key(
    make_app, library, monkeypatch
) -> None:
    # Each key of a query sorted by name sorted its hits against the whole library again (a
    # map of every paper and their positions: 20 ms a key at 100,000 papers, on the UI thread).
    from papershelf.tui import app_workflow_sort

    calls: list[str] = []
    sorts: list[str] = []

    def counted(order, papers_by_id, entries, ordered=None):
        calls.append(order)
        return sort_ranks(order, papers_by_id, entries, ordered=ordered)

    def counted_sort(ids, order, papers_by_id, entries):
        sorts.append(order)
        return sort_ids(ids, order, papers_by_id, entries)

    monkeypatch.setattr(app_workflow_sort, "sort_ranks", counted)
    monkeypatch.setattr(app_workflow_sort, "sort_ids", counted_sort)
    decorate(library)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"gra")
        await settle(app, pilot)
        await app.run_action("sort('status')")  # a query's hits by status from now
        await settle(app, pilot)
        for key in ("p", "h", "backspace", "h"):
            await pilot.press(key)
            await settle(app, pilot)
            query_hits = shown(app)
            assert query_hits == in_order(library, query_hits, "status")
            assert "sort: status" in status(app)
        assert calls == ["status"]  # once for the four keys and the sort itself
        await pilot.press("enter")
        await settle(app, pilot)
        # A change of status moves the paper: the ranks follow the entries.
        unread = [i for i, pid in enumerate(shown(app)) if library.entry(pid).status == "unread"]
        target = shown(app)[unread[-1]]
        app.paper_list.move_to(unread[-1])
        await pilot.press("s")  # unread -> reading: first
        await settle(app, pilot)
        assert shown(app)[0] == target
        assert shown(app) == in_order(library, shown(app), "status")
        assert calls == ["status", "status"]
        # The empty query's list in that order comes from the same sort as the ranks.
        await pilot.press("slash", "ctrl+u")
        await settle(app, pilot)
        assert shown(app) == in_order(library, [p.id for p in library.papers()], "status")
        assert sorts == ["status", "status"]
