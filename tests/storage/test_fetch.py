"""storage.fetch against a local server speaking arXiv's, Crossref's and OpenReview's APIs:
records, and every way a fetch fails as one line (tests/fetch_server.py)."""

from __future__ import annotations

import time

import pytest
from fetch_server import TIMEOUT, FakeApis, Reply, offline

from papershelf.storage.fetch.client import (
    USER_AGENT,
    Client,
    Malformed,
    TimedOut,
    Unknown,
    Unreachable,
    endpoint,
)
from papershelf.storage.fetch.crossref import jats_text
from papershelf.storage.fetch.lookup import fetch_paper, label
from papershelf.storage.model import Paper
from papershelf.storage.text.identifiers import identify

NOW = "2026-01-31T12:00:00Z"


def fetch(text: str) -> Paper:
    identifier = identify(text)
    assert identifier is not None
    return fetch_paper(identifier, now=NOW)


def test_an_arxiv_id_fetches_the_whole_record(fake_apis: FakeApis) -> None:
    paper = fetch("arXiv:2501.01234v2")
    assert paper.title == "QuokkaNet: Sparse Attention for Marsupial Population Counting"
    assert paper.abstract.startswith("We introduce QuokkaNet")
    assert paper.authors == ("Ada Lovelace", "Émile Borel")
    assert (paper.arxiv_id, paper.doi, paper.year) == (
        "2501.01234",
        "10.1145/3292500.3330701",
        2025,
    )
    assert paper.sources == ("arXiv:2501.01234",)
    assert paper.imported_at == NOW
    path, agent = fake_apis.requests[-1]
    assert path == "/arxiv/api/query?id_list=2501.01234"
    assert agent == USER_AGENT


def test_a_doi_fetches_the_crossref_work(fake_apis: FakeApis) -> None:
    paper = fetch("https://doi.org/10.1145/3292500.3330701")
    assert paper.title == "BurrowCount: Counting Wombats from Burrow Entrances"
    assert paper.abstract == (
        "Counting wombats from the air is hard: burrows hide them. We introduce BurrowCount, a "
        "detector that counts burrow entrances & infers occupancy, cutting survey error by 40%."
    )
    assert paper.authors == ("Dorothy Hodgkin", "Chien-Shiung Wu", "The Wombat Consortium")
    assert paper.year == 2019
    assert paper.venue == (
        "Proceedings of the 25th ACM SIGKDD International Conference on Knowledge Discovery "
        "& Data Mining"  # Crossref writes its titles as HTML
    )
    assert paper.kind == "inproceedings"
    assert paper.url == "https://doi.org/10.1145/3292500.3330701"
    assert paper.pdf_url == "https://dl.acm.org/doi/pdf/10.1145/3292500.3330701"
    assert paper.extra == (("publisher", "ACM"), ("pages", "2623-2631"))
    assert paper.sources == ("doi:10.1145/3292500.3330701",)


def test_an_openreview_link_fetches_the_v2_note(fake_apis: FakeApis) -> None:
    paper = fetch("https://openreview.net/forum?id=Xq7pB3kFzL")
    assert paper.title == "Echidna: Spiny Regularisers for Robust Fine-Tuning"
    assert paper.openreview_id == "Xq7pB3kFzL"
    assert paper.year == 2024
    assert [path for path, _ in fake_apis.requests] == ["/or2/notes?id=Xq7pB3kFzL"]


def test_an_openreview_note_only_v1_has_comes_from_v1(fake_apis: FakeApis) -> None:
    paper = fetch("openreview:HkgB2TNYPS")
    assert paper.title == "Koala Attention: Eucalyptus-Sparse Transformers"
    assert [path for path, _ in fake_apis.requests] == [
        "/or2/notes?id=HkgB2TNYPS",
        "/or1/notes?id=HkgB2TNYPS",
    ]


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("arXiv:2501.99999", Unknown, "no such paper at {host}"),
        ("arXiv:9912.12345", Unknown, "the arXiv API answered: incorrect id format for 9912.12345"),
        ("10.9999/missing", Unknown, "not found at {host} (HTTP 404)"),
        ("openreview:NoSuchNote1", Unknown, "not found at {host} (HTTP 404)"),
        (
            "arXiv:2501.00002",
            Malformed,
            "{host} sent a malformed response: not UTF-8 text",
        ),
        ("10.9999/garbage", Malformed, "{host} sent a malformed response: not JSON"),
        ("arXiv:2501.00003", Malformed, "{host} sent a web page instead of an Atom feed"),
        ("arXiv:2501.00004", Malformed, "{host} sent more than 2 MB"),
    ],
)
def test_failures_are_one_line_each(
    fake_apis: FakeApis, text: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as caught:
        fetch(text)
    assert str(caught.value) == message.format(host=fake_apis.base.removeprefix("http://"))


def test_a_reply_that_never_comes_times_out(fake_apis: FakeApis) -> None:
    started = time.monotonic()
    with pytest.raises(TimedOut) as caught:
        fetch("arXiv:2501.00001")
    host = fake_apis.base.removeprefix("http://")
    assert str(caught.value) == f"{host} did not answer within {TIMEOUT} s"
    assert time.monotonic() - started < 5


def test_offline_is_one_line_and_openreview_is_not_asked_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    host = offline(monkeypatch)
    with pytest.raises(Unreachable) as caught:
        fetch("arXiv:2501.01234")
    assert str(caught.value) == f"cannot reach {host}: Connection refused"
    with pytest.raises(Unreachable):
        fetch("openreview:Xq7pB3kFzL")  # v1 is asked only when v2 has no such note


def test_a_record_that_is_not_the_one_asked_for_is_unknown(fake_apis: FakeApis) -> None:
    fake_apis.routes["/arxiv/api/query?id_list=2501.05555"] = fake_apis.routes[
        "/arxiv/api/query?id_list=2501.01234"
    ]
    with pytest.raises(Unknown):
        fetch("arXiv:2501.05555")


def test_garbage_xml_in_utf8_is_malformed(fake_apis: FakeApis) -> None:
    fake_apis.routes["/arxiv/api/query?id_list=2501.06666"] = Reply(
        200, "application/atom+xml", b"<feed><entry>"
    )
    with pytest.raises(Malformed, match=r"malformed response: not valid XML"):
        fetch("arXiv:2501.06666")


def test_endpoints_and_timeout_come_from_the_environment() -> None:
    assert endpoint("X_API", "https://a.example/api", {"X_API": "http://mirror/ "}) == (
        "http://mirror"
    )
    assert endpoint("X_API", "https://a.example/api/", {}) == "https://a.example/api"
    assert Client.from_environment({"PAPERSHELF_FETCH_TIMEOUT": "2.5"}).timeout == 2.5
    for bad in ("", "soon", "-1", "nan", "1e9"):
        assert Client.from_environment({"PAPERSHELF_FETCH_TIMEOUT": bad}).timeout == 15.0


def test_only_web_addresses_are_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERSHELF_ARXIV_API", "file:///etc/passwd")
    with pytest.raises(Unreachable, match="only http and https"):
        fetch("arXiv:2501.01234")


def test_jats_markup_becomes_plain_text() -> None:
    assert (
        jats_text(
            "<jats:title>Abstract</jats:title><jats:p>A &lt;b&gt; x<jats:sup>2</jats:sup></jats:p>"
        )
        == "A <b> x2"
    )


def test_labels() -> None:
    assert [
        label(identify(text)) for text in ("2501.01234v3", "DOI:10.1145/X", "openreview:abcdef")
    ] == [  # type: ignore[arg-type]
        "arXiv:2501.01234",
        "doi:10.1145/x",
        "openreview:abcdef",
    ]
