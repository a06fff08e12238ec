"""Links in the CLI's JSON (issue 11): a paper's own page and bare host names are links.

Run in-process through `main()`, on a library made by a real `papershelf import`.
"""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest
from cli_helpers import import_records, run

import papershelf.cli.reading as reading
from papershelf.storage.library.library import Library

RECORDS = [
    {
        "title": "PageOnly: a paper whose only link is its landing page",
        "abstract": "We propose PageOnly, a way to count wombats from their burrows.",
        "url": "https://pageonly.example.org/paper/1",
    },
    {
        "title": "BarePage: links written without a scheme",
        "abstract": (
            "We propose BarePage, a study of quokka paths. Project page: barepage.github.io. "
            "The data is available at huggingface.co/datasets/bare/quokka."
        ),
    },
    {
        "title": "RepoPage: the landing page is the repository",
        "abstract": "We propose RepoPage, a numbat tracker.",
        "url": "https://github.com/numbat/repopage",
    },
    {
        "title": "NoScheme: a landing page written without https",
        "abstract": "We propose NoScheme, a platypus sonar.",
        "url": "lab.example.org/noscheme",
    },
]


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    return import_records(capsys, tmp_path / "lib", RECORDS)


def shown(capsys: pytest.CaptureFixture[str], db: Path, title_start: str) -> dict[str, object]:
    """`papershelf show ID --json` of the paper whose title starts with `title_start`."""
    code, out, err = run(capsys, "--db", db, "list", "--json")
    assert code == 0, err
    (paper_id,) = [p["id"] for p in json.loads(out) if p["title"].startswith(title_start)]
    code, out, err = run(capsys, "--db", db, "show", paper_id, "--json")
    assert code == 0, err
    return json.loads(out)


def test_show_json_lists_the_page_among_the_links_and_keeps_url(db, capsys) -> None:
    paper = shown(capsys, db, "PageOnly")
    assert paper["code_urls"] == []
    assert paper["links"] == ["https://pageonly.example.org/paper/1"]
    assert paper["url"] == "https://pageonly.example.org/paper/1"


def test_bare_hosts_in_the_abstract_are_links_with_https(db, capsys) -> None:
    paper = shown(capsys, db, "BarePage")
    assert paper["code_urls"] == ["https://huggingface.co/datasets/bare/quokka"]
    assert paper["links"] == ["https://barepage.github.io"]
    assert paper["url"] is None


def test_a_page_that_is_the_repository_is_not_listed_twice(db, capsys) -> None:
    paper = shown(capsys, db, "RepoPage")
    assert paper["code_urls"] == ["https://github.com/numbat/repopage"]
    assert paper["links"] == []
    assert paper["url"] == "https://github.com/numbat/repopage"
    code, out, err = run(capsys, "--db", db, "show", paper["id"])
    assert code == 0, err
    assert out.count("https://github.com/numbat/repopage") == 1
    assert "    code: https://github.com/numbat/repopage" in out.splitlines()


def test_a_page_without_a_scheme_is_stored_and_shown_with_https(db, capsys) -> None:
    paper = shown(capsys, db, "NoScheme")
    assert paper["links"] == ["https://lab.example.org/noscheme"]
    assert paper["url"] == "https://lab.example.org/noscheme"
    code, out, err = run(capsys, "--db", db, "show", paper["id"])
    assert code == 0, err
    assert "    page: https://lab.example.org/noscheme" in out.splitlines()


def test_list_json_has_the_page_link_too(db, capsys) -> None:
    code, out, err = run(capsys, "--db", db, "list", "--json", "wombats")
    assert code == 0, err
    (paper,) = json.loads(out)
    assert paper["links"] == ["https://pageonly.example.org/paper/1"]
    assert paper["url"] == "https://pageonly.example.org/paper/1"


def test_has_links_counts_the_page_on_the_full_path_and_from_the_listing(db, capsys) -> None:
    # The first `list` has no listing yet: the Library and the engine answer, then save one.
    with mock.patch.object(reading, "list_from_listing", return_value=None):
        code, full, err = run(capsys, "--db", db, "list", "has:links")
    assert code == 0, err
    code, _, err = run(capsys, "--db", db, "list", "x")  # writes the listing
    assert code == 0, err
    # Answered from listing.cache alone: opening the Library would fail.
    with mock.patch.object(Library, "open", side_effect=AssertionError("Library opened")):
        code, fast, err = run(capsys, "--db", db, "list", "has:links")
    assert (code, err) == (0, "")
    assert fast == full
    names = sorted(line.split()[1].rstrip(":") for line in full.splitlines())
    assert names == ["BarePage", "NoScheme", "PageOnly"]  # RepoPage's page is its code
