"""arXiv feeds (API Atom, announcement Atom and RSS) read into Papers; other XML refused."""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.parse import parse_bytes, read_file
from papershelf.storage.library.library import Library
from papershelf.storage.text.clean import clean_line
from papershelf.storage.text.html_text import html_text, looks_like_html

ATOM = Path(__file__).resolve().parent.parent / "fixtures" / "atom"


def test_the_api_feed_gives_each_entry_with_its_record() -> None:
    result = read_file(ATOM / "arxiv-api.xml")
    quokka, wombat = result.papers
    assert quokka.title == "QuokkaNet: Sparse Attention for Marsupial Population Counting"
    assert quokka.abstract.startswith("We introduce QuokkaNet, a sparse attention model that")
    assert "\n" not in quokka.abstract and "  " not in quokka.abstract
    assert quokka.authors == ("Ada Lovelace", "Émile Borel")
    assert quokka.year == 2025
    assert quokka.arxiv_id == "2501.01234"  # the version (v2) dropped
    assert quokka.doi == "10.1145/3292500.3330701"
    assert quokka.url == "https://arxiv.org/abs/2501.01234"
    assert quokka.pdf_url == "http://arxiv.org/pdf/2501.01234v2"
    assert quokka.venue == "KDD 2025"  # the journal reference
    assert quokka.extra == (("primaryclass", "cs.LG"),)
    assert quokka.code_urls == ("https://github.com/quokka-lab/quokkanet",)
    assert quokka.name == "QuokkaNet"
    assert quokka.sources == ("arxiv-api.xml",)
    assert wombat.arxiv_id == "hep-th/9901001"
    assert wombat.year == 1999
    assert wombat.venue == "arXiv"  # no journal reference: a preprint
    assert wombat.doi is None


def test_the_announcement_feed_drops_its_prefix_and_splits_the_creators() -> None:
    platypus, quokka = read_file(ATOM / "cs.LG-announce.atom").papers
    assert platypus.abstract.startswith("We propose Platypus, an optimiser")
    assert platypus.authors == ("Grace Hopper", "Alan Turing", "Kurt Gödel")
    assert platypus.arxiv_id == "2501.03001"
    assert quokka.arxiv_id == "2412.09999"
    assert quokka.doi == "10.48550/arxiv.2412.09999"
    assert quokka.venue == "NeurIPS 2024"


def test_a_feed_is_told_by_its_content_whatever_its_name() -> None:
    data = (ATOM / "arxiv-api.xml").read_bytes()
    result = parse_bytes(data, "saved-query.txt")
    assert [paper.arxiv_id for paper in result.papers] == ["2501.01234", "hep-th/9901001"]


def test_rss_items_of_the_announcement_feed() -> None:
    rss = b"""<?xml version="1.0" encoding="UTF-8"?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/"
     version="2.0"><channel><title>cs.LG updates on arXiv.org</title>
<item><title>Numbat: Termite-Driven Search</title><link>https://arxiv.org/abs/2501.04444</link>
<description>arXiv:2501.04444v1 Announce Type: cross
Abstract: Numbat searches graphs the way numbats find termites.</description>
<guid isPermaLink="false">oai:arXiv.org:2501.04444v1</guid><category>cs.AI</category>
<pubDate>Tue, 07 Jan 2025 00:00:00 -0500</pubDate><arxiv:announce_type>cross</arxiv:announce_type>
<dc:creator>Hedy Lamarr, Claude Shannon</dc:creator></item></channel></rss>"""
    (paper,) = parse_bytes(rss, "cs.AI.rss").papers
    assert paper.abstract == "Numbat searches graphs the way numbats find termites."
    assert paper.arxiv_id == "2501.04444"
    assert paper.authors == ("Hedy Lamarr", "Claude Shannon")
    assert paper.year == 2025
    assert paper.extra == (("primaryclass", "cs.AI"),)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "not-a-feed.xml",
            "not-a-feed.xml: not an arXiv Atom or RSS feed (the document is <html>)",
        ),
        ("bomb.xml", "bomb.xml: refused: the XML declares a DTD or entities"),
    ],
)
def test_other_xml_is_refused_in_one_line(name: str, message: str) -> None:
    with pytest.raises(IngestError) as caught:
        read_file(ATOM / name)
    assert str(caught.value) == message


def test_broken_xml_names_its_line() -> None:
    with pytest.raises(IngestError) as caught:
        parse_bytes(b'<?xml version="1.0"?>\n<feed>\n<entry>\n</feed>\n', "cut.atom")
    assert str(caught.value) == "cut.atom, line 4: not valid XML: mismatched tag"


def test_an_api_error_entry_fails_the_file() -> None:
    feed = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><entry>
<id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.5</id><title>Error</title>
<summary>incorrect id format for 1234.5</summary></entry></feed>"""
    with pytest.raises(IngestError, match=r"the arXiv API answered: incorrect id format"):
        parse_bytes(feed, "query.xml")


def test_importing_a_feed_twice_adds_nothing_and_merges_an_abstract_list(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", seed=False)
    plain = tmp_path / "list.txt"
    plain.write_text(
        "KDD 2025\n\nWe introduce QuokkaNet, a sparse attention model that counts quokkas in "
        "camera-trap images. QuokkaNet reaches 94% accuracy on Rottnest-1k while using a tenth "
        "of the compute of dense baselines. Code: https://github.com/quokka-lab/quokkanet\n",
        encoding="utf-8",
    )
    (first,) = library.import_files([plain])
    assert first.added == 1
    (report,) = library.import_files([ATOM / "arxiv-api.xml"])
    assert (report.added, report.duplicates) == (1, 1)
    (again,) = library.import_files([ATOM / "arxiv-api.xml"])
    assert (again.added, again.duplicates) == (0, 2)
    quokka = next(paper for paper in library.papers() if paper.arxiv_id == "2501.01234")
    assert quokka.sources == ("list.txt", "arxiv-api.xml")  # one paper, the list's id kept
    assert quokka.doi == "10.1145/3292500.3330701"


_FIELD = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=80)


@given(title=_FIELD, abstract=_FIELD)
def test_any_title_and_abstract_come_back_as_one_clean_line(title: str, abstract: str) -> None:
    feed = (
        '<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><entry>'
        f"<id>http://arxiv.org/abs/2501.00001v1</id><title>{escape(title)}</title>"
        f"<summary>{escape(abstract)}</summary></entry></feed>"
    )
    (paper,) = parse_bytes(feed.encode("utf-8"), "p.xml").papers
    assert paper.title == (clean_line(title) or None)
    assert paper.abstract == clean_line(abstract)
    assert paper.arxiv_id == "2501.00001"


def test_html_in_an_rss_description_and_title_is_plain_text() -> None:
    """arXiv's RSS wraps each abstract in `<p>`; `&amp;amp;` in the XML is `&` in the text."""
    (paper,) = read_file(ATOM / "cs.CL-html.rss").papers
    assert paper.title == "Wallaby: Hopping Between Languages with Tiny Adapters"
    assert paper.abstract == (
        "Wallaby adapters translate between 40 languages & dialects. "
        "They cost 1% of the parameters when $n<m$."
    )
    assert paper.arxiv_id == "2501.05555"
    assert paper.name == "Wallaby"


def test_an_atom_summary_typed_html_or_xhtml_is_plain_text() -> None:
    feed = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<entry><id>http://arxiv.org/abs/2501.06666v1</id>
<title type="html">Koala &lt;i&gt;Nets&lt;/i&gt;</title>
<summary type="html">&lt;p&gt;Koalas sleep &lt;b&gt;20&lt;/b&gt; hours
&amp;amp; nets do too.&lt;/p&gt;</summary>
<published>2025-01-07T00:00:00Z</published></entry>
<entry><id>http://arxiv.org/abs/2501.07777v1</id><title>Emu Runs</title>
<summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">
<p>Emus <em>run</em> fast.</p></div></summary>
<published>2025-01-07T00:00:00Z</published></entry>
</feed>"""
    koala, emu = parse_bytes(feed, "feed.atom").papers
    assert koala.title == "Koala Nets"
    assert koala.abstract == "Koalas sleep 20 hours & nets do too."
    assert emu.abstract == "Emus run fast."


def test_a_plain_text_summary_keeps_its_angle_brackets() -> None:
    """The arXiv API's summaries are plain text: `a<b and c>d` is math, not a tag."""
    feed = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<entry><id>http://arxiv.org/abs/2501.08888v1</id><title>Bounds</title>
<summary>We show a&lt;b and c&gt;d for all R&amp;D budgets.</summary>
<published>2025-01-07T00:00:00Z</published></entry>
</feed>"""
    (paper,) = parse_bytes(feed, "api.xml").papers
    assert paper.abstract == "We show a<b and c>d for all R&D budgets."


@given(st.text(max_size=200), st.text(alphabet=st.characters(exclude_characters="<&"), max_size=80))
def test_html_text_never_raises_and_keeps_text_without_markup(text: str, plain: str) -> None:
    html_text(text)  # broken or unclosed markup never raises
    assert not looks_like_html(plain)
    assert html_text(plain) == plain
    assert html_text(f"<p>{plain}</p>") == f" {plain} "
    assert html_text(plain.replace(">", "")) == plain.replace(">", "")
