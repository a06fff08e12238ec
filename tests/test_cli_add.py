"""`papershelf add ID...` against the local API server (tests/fetch_server.py): one line per id,
exit 1 when any failed, nothing partial, `--dry-run` writes nothing."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest
from cli_helpers import run, run_captured
from fetch_server import JSON_TYPE, FakeApis, Reply, offline
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper

QUOKKA = '"QuokkaNet: Sparse Attention for Marsupial Population Counting"'


def papers_of(db: Path) -> list[Paper]:
    return list(Library.open(db, read_only=True, create=False).papers())


def test_add_three_kinds_of_identifier(
    fake_apis: FakeApis, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "lib"
    code, out, err = run(
        capsys,
        "--db",
        db,
        "add",
        "arXiv:2501.01234",
        "10.1145/3292500.3330701",
        "https://openreview.net/forum?id=Xq7pB3kFzL",
    )
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"arXiv:2501.01234: added {QUOKKA}",
        # The arXiv record names this DOI: the Crossref work is the same paper.
        "doi:10.1145/3292500.3330701: already in the library",
        'openreview:Xq7pB3kFzL: added "Echidna: Spiny Regularisers for Robust Fine-Tuning"',
        "2 new papers; the library holds 2 papers.",
    ]
    quokka, echidna = papers_of(db)
    assert quokka.arxiv_id == "2501.01234"
    assert echidna.openreview_id == "Xq7pB3kFzL"


def test_adding_again_says_already_and_changes_nothing(
    fake_apis: FakeApis, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "lib"
    assert run(capsys, "--db", db, "add", "2501.01234")[0] == 0
    before = (db / "papers.json").read_bytes()
    code, out, _ = run(capsys, "--db", db, "add", "https://arxiv.org/abs/2501.01234v1")
    assert code == 0
    assert out.splitlines()[0] == "arXiv:2501.01234: already in the library"
    assert (db / "papers.json").read_bytes() == before


def test_failures_are_one_line_each_and_the_rest_is_added(
    fake_apis: FakeApis, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "lib"
    code, out, err = run(
        capsys,
        "--db",
        db,
        "add",
        "arXiv:2501.99999",
        "wombat",
        "arXiv:2501.00001",
        "arXiv:2501.00003",
        "10.9999/missing",
        "arXiv:2501.01234",
    )
    host = fake_apis.base.removeprefix("http://")
    assert code == 1
    assert err.splitlines() == [
        f"papershelf: arXiv:2501.99999: no such paper at {host}",
        "papershelf: wombat: not an arXiv id, DOI or OpenReview link",
        f"papershelf: arXiv:2501.00001: {host} did not answer within 0.4 s",
        f"papershelf: arXiv:2501.00003: {host} sent a web page instead of an Atom feed",
        f"papershelf: doi:10.9999/missing: not found at {host} (HTTP 404)",
    ]
    assert out.splitlines() == [
        f"arXiv:2501.01234: added {QUOKKA}",
        "1 new paper; the library holds 1 paper.",
    ]
    assert [paper.arxiv_id for paper in papers_of(db)] == ["2501.01234"]


def test_offline(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host = offline(monkeypatch)
    db = tmp_path / "lib"
    code, out, err = run(capsys, "--db", db, "add", "arXiv:2501.01234")
    assert code == 1
    assert err == f"papershelf: arXiv:2501.01234: cannot reach {host}: Connection refused\n"
    assert out == "0 new papers; the library holds 0 papers.\n"


def test_dry_run_writes_nothing(
    fake_apis: FakeApis, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "lib"
    assert run(capsys, "--db", db, "add", "openreview:Xq7pB3kFzL")[0] == 0
    before = {path.name: path.read_bytes() for path in db.iterdir() if path.is_file()}
    code, out, err = run(
        capsys,
        "--db",
        db,
        "add",
        "--dry-run",
        "2501.01234",
        "doi:10.1145/3292500.3330701",
        "openreview:Xq7pB3kFzL",
    )
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"arXiv:2501.01234: would add {QUOKKA}",
        "doi:10.1145/3292500.3330701: already in the library",  # the paper just above
        "openreview:Xq7pB3kFzL: already in the library",
        "dry run: 1 paper would be added; nothing was written.",
    ]
    after = {path.name: path.read_bytes() for path in db.iterdir() if path.is_file()}
    assert after == before


def test_add_needs_an_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "add")
    assert code == 2
    assert "the following arguments are required: ID" in err


def test_a_title_with_escapes_reaches_the_terminal_clean(
    fake_apis: FakeApis, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = (fake_apis.routes["/or2/notes?id=Xq7pB3kFzL"]).body  # type: ignore[union-attr]
    hostile = body.replace(b"Echidna: Spiny", b"Echidna\\u001b[2J: Spiny")
    fake_apis.routes["/or2/notes?id=Xq7pB3kFzL"] = Reply(200, JSON_TYPE, hostile)
    code, out, _ = run(capsys, "--db", tmp_path / "lib", "add", "openreview:Xq7pB3kFzL")
    assert code == 0
    assert "\x1b" not in out


def test_several_ids_show_progress_on_a_terminal(
    fake_apis: FakeApis,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = run(
        capsys, "--db", tmp_path / "lib", "add", "2501.01234", "openreview:Xq7pB3kFzL"
    )
    assert code == 0
    assert err == (
        "\rfetching 1/2: arXiv:2501.01234\rfetching 2/2: openreview:Xq7pB3kFzL"
        "\rfetched 2 identifiers" + " " * 14 + "\n"
    )


POOL = [
    "arXiv:2501.01234",
    "2501.01234v2",
    "10.1145/3292500.3330701",
    "openreview:Xq7pB3kFzL",
    "openreview:HkgB2TNYPS",
    "arXiv:2501.99999",
    "10.9999/missing",
    "wombat",
]
# What each id of POOL adds: the arXiv id, its DOI and their versions are one paper.
PAPER_OF = {
    "arXiv:2501.01234": "quokka",
    "2501.01234v2": "quokka",
    "10.1145/3292500.3330701": "quokka",
    "openreview:Xq7pB3kFzL": "echidna",
    "openreview:HkgB2TNYPS": "koala",
}


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches=st.lists(st.lists(st.sampled_from(POOL), min_size=1, max_size=4), max_size=3))
def test_any_sequence_of_adds_holds_each_paper_once(
    fake_apis: FakeApis, batches: list[list[str]]
) -> None:
    """Whatever is added, in whatever order and batches: one paper per real record, an exit
    status of 1 exactly when a batch held a failing id, and adding again writes nothing."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "lib"
        expected: set[str] = set()
        for batch in batches:
            code, _, err = run_captured("--db", db, "add", *batch)
            failing = [text for text in batch if text not in PAPER_OF]
            assert code == (1 if failing else 0), err
            assert len(err.splitlines()) == len(failing)
            expected |= {PAPER_OF[text] for text in batch if text in PAPER_OF}
            if expected:
                assert len(papers_of(db)) == len(expected)
        # Everything, twice: three papers, and the second time nothing is written.
        assert run_captured("--db", db, "add", *PAPER_OF)[0] == 0
        assert len(papers_of(db)) == 3
        before = (db / "papers.json").read_bytes()
        code, out, _ = run_captured("--db", db, "add", *PAPER_OF)
        assert code == 0
        assert out.count("already in the library") == len(PAPER_OF)
        assert (db / "papers.json").read_bytes() == before


def test_adding_a_removed_paper_brings_it_back(
    fake_apis: FakeApis, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "lib"
    assert run(capsys, "--db", db, "add", "2501.01234")[0] == 0
    (paper,) = papers_of(db)
    assert run(capsys, "--db", db, "remove", paper.id)[0] == 0
    assert papers_of(db) == []
    code, out, _ = run(capsys, "--db", db, "add", "arXiv:2501.01234")
    assert code == 0
    assert out.splitlines()[0] == f"arXiv:2501.01234: added {QUOKKA} again (removed before)"
    assert [p.id for p in papers_of(db)] == [paper.id]
