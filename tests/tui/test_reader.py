"""The reader's content: math as Unicode, emphasis, highlights, and why a paper matched."""

from __future__ import annotations

from papershelf.storage.model import Entry
from papershelf.storage.search.engine import Hit, SearchEngine
from papershelf.tui.widgets.reader import reader_content


def styled(content, style: str) -> list[str]:
    return [content.plain[s.start : s.end] for s in content.spans if s.style == style]


def test_math_becomes_unicode(library) -> None:
    paper = next(p for p in library.papers() if r"\widetilde" in p.abstract)
    content = reader_content(paper, Entry(), None)
    assert "Õ(ε⁻⁵)" in content.plain
    assert "$" not in content.plain.split("\n\n", 2)[-1]


def test_matches_are_highlighted_in_the_abstract(library) -> None:
    engine = SearchEngine(library.papers())
    hit = next(h for h in engine.search("difusion", {}) if h.field == "abstract")
    content = reader_content(library.get(hit.paper_id), Entry(), hit)
    marked = styled(content, ".reader--match")
    assert marked and all(word.lower() == "diffusion" for word in marked)
    assert "matched in" not in content.plain


def test_a_match_in_the_note_says_where(library, ids) -> None:
    entry = Entry(note="Reminds me of platypus models.")
    engine = SearchEngine(library.papers())
    hits = engine.search("platypus", {ids.nocode: entry})
    assert [h.paper_id for h in hits] == [ids.nocode]
    content = reader_content(library.get(ids.nocode), entry, hits[0])
    assert "matched in note: " in content.plain and "platypus" in content.plain
    assert "platypus" in styled(content, ".reader--match")


def test_a_match_in_the_tags_says_where(library, ids) -> None:
    entry = Entry(tags=frozenset({"capybara"}))
    hit = Hit(ids.nocode, 1.0, "tags", ("capybara",), {"tags": ((0, 8),)})
    content = reader_content(library.get(ids.nocode), entry, hit)
    assert "matched in tags: #capybara" in content.plain


def test_entry_state_is_shown(library, ids) -> None:
    entry = Entry(tags=frozenset({"b", "a"}), status="read", starred=True, note="n")
    text = reader_content(library.get(ids.multi), entry, None).plain
    for expected in (
        "✓ read",
        "★ starred",
        "#a #b",
        "note   n",
        "https://gitlab.com/b/twin-two",
        "https://twinrepo.example.org",
        "Test 2025",
        "multi.jsonl",
    ):
        assert expected in text
