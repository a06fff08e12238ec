"""A paper's own page among its links (`Paper.separate_page`, `Paper.links_with_page`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.model import Paper

REPO = "https://github.com/w/wombat"
LINK = "https://wombat.example.org"
PAGE = "https://pages.example.org/wombat"


def paper(url: str | None, code: tuple[str, ...] = (), links: tuple[str, ...] = ()) -> Paper:
    return Paper("aaaaaaaaaaaa", "Wombat", None, "An abstract.", None, (), code, links, url=url)


def test_the_page_comes_after_the_links() -> None:
    assert paper(PAGE, (REPO,), (LINK,)).links_with_page == (LINK, PAGE)
    assert paper(PAGE).links_with_page == (PAGE,)
    assert paper(PAGE).separate_page == PAGE


def test_a_page_that_is_already_a_code_url_or_link_is_not_repeated() -> None:
    assert paper(REPO, (REPO,)).links_with_page == ()
    assert paper(REPO, (REPO,)).separate_page is None
    assert paper(LINK, (), (LINK,)).links_with_page == (LINK,)
    assert paper(None, (REPO,), (LINK,)).links_with_page == (LINK,)


URLS = st.sampled_from([REPO, LINK, PAGE, "https://x.example.org"])


@given(st.none() | URLS, st.lists(URLS, unique=True), st.lists(URLS, unique=True))
def test_every_address_once_and_the_page_always_reachable(url, code, links) -> None:
    p = paper(url, tuple(code), tuple(links))
    together = [*p.code_urls, *p.links_with_page]
    assert p.links_with_page[: len(links)] == tuple(links)
    if url is not None:
        assert url in together
    assert len(set(together)) == len(together) or set(code) & set(links)


def record(**fields: object) -> Paper:
    return Paper("aaaaaaaaaaaa", "Wombat", None, "An abstract.", None, (), **fields)  # type: ignore[arg-type]


def test_the_record_offers_its_pdf_doi_arxiv_and_openreview_pages() -> None:
    p = record(
        url=PAGE,
        pdf_url="https://arxiv.org/pdf/1706.03762",
        doi="10.48550/arxiv.1706.03762",
        arxiv_id="1706.03762",
        openreview_id="rJ4km2R5t7",
    )
    assert p.record_links == (
        PAGE,
        "https://arxiv.org/pdf/1706.03762",
        "https://doi.org/10.48550/arxiv.1706.03762",
        "https://arxiv.org/abs/1706.03762",
        "https://openreview.net/forum?id=rJ4km2R5t7",
    )
    assert record().record_links == ()
    assert record(arxiv_id="hep-th/9901001").record_links == (
        "https://arxiv.org/abs/hep-th/9901001",
    )


def test_a_doi_is_quoted_where_a_url_would_misread_it() -> None:
    old = "10.1002/(sici)1097-4636(199712)37:4<517::aid-jbm10>3.0.co;2-#"
    assert record(doi=old).doi_url == (
        "https://doi.org/10.1002/(sici)1097-4636(199712)37:4%3C517::aid-jbm10%3E3.0.co;2-%23"
    )
    assert record(doi="10.1/a?b c").doi_url == "https://doi.org/10.1/a%3Fb%20c"


def test_every_address_is_offered_once_code_first() -> None:
    p = record(
        code_urls=(REPO,),
        links=(LINK,),
        url=REPO,  # the page is the repository
        pdf_url=LINK,  # and the PDF one of the abstract's links
        arxiv_id="2501.01234",
    )
    assert p.all_links == (REPO, LINK, "https://arxiv.org/abs/2501.01234")
    assert p.separate_pdf is None  # shown once, as the link it is
    assert record(pdf_url=PAGE, url=PAGE).separate_pdf is None
    assert record(pdf_url=PAGE).separate_pdf == PAGE
    # What has:links, the JSON `links` and the Markdown export use is unchanged.
    assert p.links_with_page == (LINK,)


@given(
    st.none() | URLS,
    st.none() | URLS,
    st.lists(URLS, unique=True),
    st.lists(URLS, unique=True),
    st.none() | st.sampled_from(["10.1/x", "10.2/y"]),
)
def test_all_links_holds_every_address_once(url, pdf, code, links, doi) -> None:
    p = record(code_urls=tuple(code), links=tuple(links), url=url, pdf_url=pdf, doi=doi)
    together = p.all_links
    assert len(set(together)) == len(together)
    expected = {*code, *links, url, pdf, p.doi_url} - {None}
    assert set(together) == expected
    assert together[: len(code)] == tuple(code)
