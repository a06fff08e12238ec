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
