"""`a` of a paper the user removed brings it back with its tags, as one undo step (issue 13:
an attacker pass found them lost until the removal itself was undone)."""

from __future__ import annotations

from fetch_server import FakeApis
from keys import burst
from pilot_helpers import settle
from test_adding import QUOKKA_ARXIV, quokka
from test_app import SIZE

from papershelf.storage.library.library import Library


async def test_a_removed_paper_added_again_has_its_tags_and_u_takes_them_back(
    make_app, library: Library, reopen, fake_apis: FakeApis
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await burst(pilot, "a", *QUOKKA_ARXIV, "enter")
        await settle(app, pilot)
        (paper_id,) = quokka(reopen(library.root))
        assert app.paper_list.current_id == paper_id
        app.library.tag(paper_id, add=["keep-me"])
        app.library.set_note(paper_id, "read section 3")
        app.after_change()
        await burst(pilot, "D", "y")  # the cursor is on it
        await settle(app, pilot)
        assert not reopen(library.root).has(paper_id)
        for _ in range(2):  # added again, and again: the second time it is already there
            await burst(pilot, "a", *QUOKKA_ARXIV, "enter")
            await settle(app, pilot)
            for entry in (app.library.entry(paper_id), reopen(library.root).entry(paper_id)):
                assert (entry.tags, entry.note) == ({"keep-me"}, "read section 3")
        assert app.paper_list.current_id == paper_id
        await burst(pilot, "u")
        await settle(app, pilot)
        assert reopen(library.root).entry(paper_id).tags == frozenset()
        assert reopen(library.root).has(paper_id)
        await burst(pilot, "ctrl+r")
        await settle(app, pilot)
        assert reopen(library.root).entry(paper_id).tags == {"keep-me"}
