"""`papershelf list` with field terms: `author:`, `title:`, `abstract:`, `year:`, on both paths
(listing.cache and the full open), and a bad year as one line."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest
from cli_helpers import REPO, run

import papershelf.cli.reading as reading
from papershelf.storage.library.library import Library

AUTHORS = REPO / "tests" / "fixtures" / "search" / "authors.jsonl"


@pytest.fixture
def root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    root = tmp_path / "lib"
    code, _, err = run(capsys, "--db", root, "import", AUTHORS)
    assert code == 0, err
    return root


def titles(out: str) -> list[str]:
    """The titles of `list`'s lines (`id  title  [venue]`)."""
    return [line.split("  ")[1] for line in out.splitlines()]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            ["author:shazeer year:..2017"],
            [
                "Attention Is All You Need",
                "Outrageously Large Neural Networks: The Sparsely-Gated Mixture-of-Experts Layer",
            ],
        ),
        (["author:bengio", "year:2024.."], ["Monte Carlo Tree Diffusion for System 2 Planning"]),
        (
            ["author:muller"],
            ["Neural Processes for Müller's Ratchet", "Diffusion Transformers at Scale"],
        ),
        (["author:'garcia", "year:2024"], ["Neural Processes for Müller's Ratchet"]),
        (["title:attention", "!author:vaswani"], ["Graph Attention Networks"]),
        (["abstract:'tree search"], ["Monte Carlo Tree Diffusion for System 2 Planning"]),
        (
            ["year:2017|2021", "!author:noam"],
            ["Score-Based Generative Modeling through Stochastic Differential Equations"],
        ),
    ],
)
def test_list_with_field_terms(
    root: Path, capsys: pytest.CaptureFixture[str], query: list[str], expected: list[str]
) -> None:
    # The first list opens the Library and writes the listing; the second answers from it.
    first = run(capsys, "--db", root, "list", *query)
    with mock.patch.object(Library, "open", side_effect=AssertionError("Library opened")):
        second = run(capsys, "--db", root, "list", *query)
    assert first == second
    code, out, err = first
    assert code == 0, err
    assert titles(out) == expected


def test_the_full_path_gives_the_same_lines(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    query = ["author:vaswani|kingma", "year:2017.."]
    fast = run(capsys, "--db", root, "list", *query)
    with mock.patch.object(reading, "list_from_listing", return_value=None):
        full = run(capsys, "--db", root, "list", *query)
    assert fast == full
    assert len(fast[1].splitlines()) == 2


def test_list_json_with_a_field_term(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", root, "list", "--json", "author:velickovic")
    assert code == 0
    (row,) = json.loads(out)
    assert row["title"] == "Graph Attention Networks"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "2o24",
            "unknown year: value '2o24' (use a year like 2024, or a range: 2023..2025, 2020..,"
            " ..2019)",
        ),
        ("2025..2023", "year range '2025..2023' runs backwards (use 2023..2025)"),
    ],
)
def test_a_bad_year_is_one_line_and_exit_1(
    root: Path, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    for _ in range(2):  # the full path, then the listing's
        code, out, err = run(capsys, "--db", root, "list", f"year:{value}", "author:vaswani")
        assert (code, out) == (1, "")
        assert err == f"papershelf: {message}\n"


def test_a_paper_that_gains_authors_on_import_is_found_by_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The same abstracts without authors first: list builds both caches for them.
    records = [json.loads(line) for line in AUTHORS.read_text(encoding="utf-8").splitlines()]
    bare = tmp_path / "bare.jsonl"
    bare.write_text(
        "".join(json.dumps({k: v for k, v in r.items() if k != "authors"}) + "\n" for r in records),
        encoding="utf-8",
    )
    root = tmp_path / "lib"
    assert run(capsys, "--db", root, "import", bare)[0] == 0
    assert run(capsys, "--db", root, "list", "author:vaswani")[1] == ""
    assert run(capsys, "--db", root, "list", "--json", "author:vaswani")[1] == "[]\n"
    # The records again, with authors: merged into the stored papers (same ids).
    assert run(capsys, "--db", root, "import", AUTHORS)[0] == 0
    for argv in (["list"], ["list", "--json"]):
        code, out, err = run(capsys, "--db", root, *argv, "author:vaswani")
        assert code == 0, err
        assert "Attention Is All You Need" in out
