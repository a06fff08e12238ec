"""`papershelf show` names the files a paper came from, with the header the app shows for a
bundled seed list beside its hashed name; `show --json` keeps the plain names (issue 15,
part 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import REPO, SEEDS, run

OWN_LIST = REPO / "tests" / "fixtures" / "sources" / "own-list.jsonl"


@pytest.fixture
def library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    root = tmp_path / "lib"
    code, _, err = run(capsys, "--db", root, "import", *SEEDS, OWN_LIST)
    assert code == 0, err
    return root


def sources_line(out: str) -> str:
    return next(line.strip() for line in out.splitlines() if line.strip().startswith("sources:"))


def test_show_gives_the_seed_files_names_with_their_headers(library, capsys) -> None:
    code, out, err = run(capsys, "--db", library, "show", "RelGNN")  # in both seed lists
    assert code == 0, err
    assert sources_line(out) == (
        "sources: 000_d1b2f2b4fb6e9314.txt (ICML 2025 论文列表), "
        "001_aa86a2e0cf5ed7d9.txt (ICML 2025 Papers)"
    )


def test_show_gives_any_other_file_by_its_name_alone(library, capsys) -> None:
    code, out, err = run(capsys, "--db", library, "show", "c967777fac12")  # its id
    assert code == 0, err
    assert sources_line(out) == "sources: own-list.jsonl"


def test_show_json_keeps_the_file_names(library, capsys) -> None:
    code, out, err = run(capsys, "--db", library, "show", "RelGNN", "--json")
    assert code == 0, err
    assert json.loads(out)["sources"] == ["000_d1b2f2b4fb6e9314.txt", "001_aa86a2e0cf5ed7d9.txt"]
