"""Escaping for the Markdown export, by example (the properties are in test_export_markdown.py)."""

from __future__ import annotations

import pytest

from papershelf.storage.text.mdescape import (
    clean_inline,
    is_web_url,
    link_destination,
    markdown_escape,
)


@pytest.mark.parametrize(
    ("text", "clean"),
    [
        ("a\u202eb\u2066c\u200fd", "abcd"),  # bidi controls are removed
        ("a\x00b\x1b[31mc\x7fd\x9be", "ab[31mcde"),  # other control characters too
        ("  a\tb\n\nc\r\nd\x85e\u2028f\u00a0g\u3000h  ", "a b c d e f g h"),  # spaces
        ("x\ud800y", "xy"),  # a lone surrogate cannot even be written as UTF-8
        ("\u200dzwj\u00adshy", "\u200dzwj\u00adshy"),  # other format characters stay
    ],
)
def test_clean_inline(text: str, clean: str) -> None:
    assert clean_inline(text) == clean


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("Plain words, 3.5% better (e.g. here)!", "Plain words, 3.5% better (e\\.g. here)!"),
        ("[x](javascript:alert(1))", "\\[x\\](javascript:alert(1))"),
        ("<script>&amp;", "\\<script>\\&amp;"),
        ("see x.com or www.1x", "see x\\.com or www\\.1x"),
        ("http://a.io/b", "http\\:/\\/a\\.io/b"),
        ("a@b", "a\\@b"),
        ("$x$ `c` *e* _f_ ~s~ | #h \\", "\\$x\\$ \\`c\\` \\*e\\* \\_f\\_ \\~s\\~ \\| \\#h \\\\"),
        ("==mark== %%hide%% a=b 5%", "\\=\\=mark\\=\\= \\%\\%hide\\%\\% a=b 5%"),
        ("- item", "\\- item"),
        ("+ item", "\\+ item"),
        ("> quote", "\\> quote"),
        ("= setext", "\\= setext"),
        ("12. ordered", "12\\. ordered"),
        ("3) ordered", "3\\) ordered"),
        ("a - b + c > d 1. e", "a - b + c > d 1. e"),
    ],
)
def test_markdown_escape(text: str, escaped: str) -> None:
    assert markdown_escape(text) == escaped


def test_markdown_escape_inside_a_line_keeps_leading_markers_readable() -> None:
    assert markdown_escape("-x", line_start=False) == "-x"
    assert markdown_escape("1. x", line_start=False) == "1. x"
    assert markdown_escape("#x", line_start=False) == "\\#x"


@pytest.mark.parametrize(
    ("url", "destination"),
    [
        ("https://github.com/o/r", "https://github.com/o/r"),
        (" http://x.org/a(b) c ", "http://x.org/a%28b%29%20c"),
        ("https://x.com/<a>`b`|c\\d", "https://x.com/%3Ca%3E%60b%60%7Cc%5Cd"),
        ("https://x.com/?a=1&amp;b=2&c=3", "https://x.com/?a=1\\&amp;b=2&c=3"),
        ("https://x.com/a\u202eb\nc", "https://x.com/a%E2%80%AEb%0Ac"),
        ("HTTPS://X.COM/é", "HTTPS://X.COM/é"),
    ],
)
def test_link_destination(url: str, destination: str) -> None:
    assert link_destination(url) == destination


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "data:text/html,x",
        "file:///etc/passwd",
        "ftp://x.org",
        "//x.org",
        "www.x.org",
        "https://",
        "http:///path",
        "https://[::1",
        "ht\ttp://x.org",
        "",
    ],
)
def test_only_absolute_web_urls_become_links(url: str) -> None:
    assert not is_web_url(url)
    assert link_destination(url) is None
