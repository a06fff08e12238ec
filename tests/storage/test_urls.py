"""URL finding and canonical forms (storage/text/urls.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.ingest.parse import read_file
from papershelf.storage.text import urls
from papershelf.storage.text.urls import canonical, find_urls, split_urls

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "ingest"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Code: https://github.com/a/b.", ["https://github.com/a/b"]),
        ("See <https://example.org/x>.", ["https://example.org/x"]),
        ("\\url{https://gitlab.com/g/p}", ["https://gitlab.com/g/p"]),
        ("\\href{https://example.org/y}{here}", ["https://example.org/y"]),
        ("a [link](https://example.org/z), b", ["https://example.org/z"]),
        ("at github.com/o/r/tree/main/src;", ["https://github.com/o/r"]),
        ("at https:// site.github.io.", ["https://site.github.io"]),
        ("at https: //site.github.io/p/.", ["https://site.github.io/p/"]),
        ("page: https : //x.org", []),  # not a scheme any more: nothing made up
        ("at http:\t// site.github.io", ["http://site.github.io"]),
        ("(see https://example.org/p)", ["https://example.org/p"]),
        ("wiki https://en.wikipedia.org/wiki/A_(b).", ["https://en.wikipedia.org/wiki/A_(b)"]),
        ("http://github.com/o/r.git/", ["https://github.com/o/r"]),
        ("https://github.com/o/r?tab=1#x,", ["https://github.com/o/r"]),
        (
            "https://x.org/a, https://x.org/a; https://x.org/b",
            ["https://x.org/a", "https://x.org/b"],
        ),
        ("The project is available at GitHub.", []),
        ("mail someone@github.com please", []),
        ("www.example.com/page.", ["https://www.example.com/page"]),
    ],
)
def test_url_forms(text: str, expected: list[str]) -> None:
    assert find_urls(text) == expected


def test_code_hosts_and_links_are_split() -> None:
    text = (
        "https://huggingface.co/m/n/ https://codeberg.org/c/d https://bitbucket.org/e/f "
        "https://anonymous.4open.science/r/x-1 https://openreview.net/forum?id=1"
    )
    code, links = split_urls(text)
    assert code == (
        "https://huggingface.co/m/n",
        "https://codeberg.org/c/d",
        "https://bitbucket.org/e/f",
        "https://anonymous.4open.science/r/x-1",
    )
    assert links == ("https://openreview.net/forum?id=1",)


def test_fixture_of_url_forms() -> None:
    papers = read_file(FIXTURES / "urls.txt").papers
    assert papers[0].code_urls == (
        "https://github.com/alpha/one",
        "https://gitlab.com/beta/two",
        "https://huggingface.co/gamma/three",
    )
    assert papers[0].links == ("https://example.org/page",)
    assert papers[1].code_urls == (
        "https://github.com/delta/four",
        "https://github.com/epsilon/five",
        "https://codeberg.org/eta/six",
    )
    assert papers[1].links == (
        "https://zeta-site.github.io",
        "https://en.wikipedia.org/wiki/Foo_(bar)",
    )
    # Case and spelling variants of one repository are one URL, first spelling kept.
    assert papers[2].code_urls[:2] == (
        "https://github.com/alpha/one",
        "https://bitbucket.org/theta/seven",
    )
    assert papers[2].links == ("http://example.org/query?x=1&y=2",)
    assert papers[3].code_urls == () and papers[3].links == ()


def test_canonical_rejects_non_hosts() -> None:
    assert canonical("https://localhost") is None
    assert canonical("https://github.com") is None
    assert canonical("https://GitHub.com/A/B") == "https://github.com/A/B"


@given(st.text(max_size=200))
def test_find_urls_total_and_canonical(text: str) -> None:
    for url in find_urls(text):
        assert url.startswith(("https://", "http://"))
        assert not url.endswith((".", ",", ";"))
        assert " " not in url


_URL_PIECES = st.sampled_from(
    [
        "://",
        ": /",
        ":\t/",
        "http",
        "WWW.",
        "www.",
        "GitHub.com/o/r",
        "gitlab.com",
        "huggingface.co/m",
        "anonymous.4open.science/r/x",
        "example.org/x",
        "results.in/ next",
        ".com",
        "\u0130",  # lower() makes two characters of it
        "\u212a",
        " ",
        ".",
        "/",
        "see ",
        "code at ",
    ]
)


@given(st.lists(st.one_of(_URL_PIECES, st.text(max_size=4)), max_size=12).map("".join))
def test_find_urls_shortcut_agrees_with_the_full_scan(text: str) -> None:
    # The early "no URL here" answer (one pass for schemes, www. and code hosts, then a bare
    # host's top-level domain) must never hide a URL the full scan finds.
    assert find_urls(text) == urls._scanned_urls(text)
