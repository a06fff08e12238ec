"""`y` through the real copy chain (a fake `xclip` on PATH): again and again in one run."""

from __future__ import annotations

from keys import burst
from pilot_helpers import settle
from test_app import SIZE, Notes, go_to

from papershelf.storage.library.library import Library


def with_one_code_url(library: Library, count: int) -> list[str]:
    return [p.id for p in library.papers() if len(p.code_urls) == 1][:count]


async def test_y_twice_in_one_run_copies_both(make_app, clipboard, library: Library) -> None:
    """The second `y` used to crash the app (our `_clipboard` shadowed Textual's)."""
    first, second = with_one_code_url(library, 2)
    urls = [library.get(first).code_urls[0], library.get(second).code_urls[0]]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        for paper_id in (first, second, first):
            await go_to(app, pilot, paper_id)
            await pilot.press("y")
            await settle(app, pilot)
        assert app.is_running
        assert clipboard.copied == [*urls, urls[0]]
        assert [message for message, _ in notes.items] == [
            f"Copied {url} to the clipboard" for url in [*urls, urls[0]]
        ]
        # Textual's own record of the last OSC 52 copy is left alone.
        assert app.clipboard == urls[0]


async def test_two_quick_ys_copy_in_order_and_both_report(
    make_app, clipboard, library: Library
) -> None:
    first, second = with_one_code_url(library, 2)
    urls = [library.get(first).code_urls[0], library.get(second).code_urls[0]]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await go_to(app, pilot, first)
        # `y`, then straight on to the next paper and `y` again while the first copy runs.
        app.action_copy_code()
        await go_to(app, pilot, second)
        await burst(pilot, "y")
        await settle(app, pilot)
        assert clipboard.copied == urls
        assert [message for message, _ in notes.items] == [
            f"Copied {url} to the clipboard" for url in urls
        ]
