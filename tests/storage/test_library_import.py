"""`Library.import_files` / `import_papers`: merging, reports, idempotence, one write per call."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from synthetic import make_papers, synthetic_library

from papershelf.storage.library.library import FileReport, Library

ABSTRACT_A = (
    "We propose AlphaNet, a network for alpha tasks. Code: https://github.com/example/alphanet."
)
ABSTRACT_B = "We introduce BetaFormer, which improves beta estimation by a wide margin."
ABSTRACT_C = "We present GammaFlow, a flow model for gamma rays with provable guarantees."


def write_list(path: Path, *abstracts: str, header: str = "TEST 2025 Papers") -> Path:
    path.write_text(header + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    return synthetic_library(tmp_path / "lib", 0)


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Records every library file (papers.json, state.json) put in place, at the OS boundary:
    each write of papershelf ends in one `os.replace` of a whole new file."""
    seen: list[Path] = []
    real_replace = os.replace

    def spy(source: object, target: object, *args: object, **kwargs: object) -> None:
        if Path(str(target)).name in ("papers.json", "state.json"):
            seen.append(Path(str(target)))
        real_replace(source, target, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", spy)
    return seen


def snapshot(root: Path) -> dict[str, tuple[bytes, int, int]]:
    """Bytes, mtime and inode of both library files (absent ones left out)."""
    result = {}
    for name in ("papers.json", "state.json"):
        path = root / name
        if path.exists():
            stat = path.stat()
            result[name] = (path.read_bytes(), stat.st_mtime_ns, stat.st_ino)
    return result


def test_import_reports_per_file_and_merges_sources(lib: Library, tmp_path: Path):
    one = write_list(tmp_path / "one.txt", ABSTRACT_A, ABSTRACT_B, ABSTRACT_A)
    two = write_list(tmp_path / "two.txt", ABSTRACT_B, ABSTRACT_C)
    reports = lib.import_files([one, two])
    assert reports == [
        FileReport("one.txt", added=2, duplicates=1, skipped=0),
        FileReport("two.txt", added=1, duplicates=1, skipped=0),
    ]
    assert [paper.abstract[:10] for paper in lib.papers()] == [
        ABSTRACT_A[:10],
        ABSTRACT_B[:10],
        ABSTRACT_C[:10],
    ]
    beta = lib.papers()[1]
    assert beta.sources == ("one.txt", "two.txt")
    assert lib.papers()[0].code_urls == ("https://github.com/example/alphanet",)
    assert Library.open(lib.root, seed=False).papers() == lib.papers()


def test_seeds_import_to_34_papers(lib: Library, seed_files: list[Path]):
    reports = lib.import_files(seed_files)
    assert [report.error for report in reports] == [None, None]
    assert len(lib.papers()) == 34
    assert sum(report.added for report in reports) == 34
    assert sum(len(paper.sources) == 2 for paper in lib.papers()) == 4


def test_reimport_adds_nothing_and_rewrites_nothing(
    lib: Library, seed_files: list[Path], writes: list[Path]
):
    lib.import_files(seed_files)
    lib.tag([paper.id for paper in lib.papers()[:3]], add=["keep-me"])
    before = snapshot(lib.root)
    writes.clear()
    reports = lib.import_files(seed_files)
    assert [report.added for report in reports] == [0, 0]
    assert writes == []
    assert snapshot(lib.root) == before
    # ... also from a freshly opened library (nothing cached in memory).
    reports = Library.open(lib.root).import_files(seed_files)
    assert [report.added for report in reports] == [0, 0]
    assert snapshot(lib.root) == before


def test_tag_then_reimport_keeps_tag_and_files_apart(
    lib: Library, tmp_path: Path, writes: list[Path]
):
    first = write_list(tmp_path / "first.txt", ABSTRACT_A, ABSTRACT_B)
    lib.import_files([first])
    alpha = lib.papers()[0].id
    papers_before = snapshot(lib.root)["papers.json"]
    writes.clear()
    lib.tag([alpha], add=["favourite"])
    assert writes == [lib.root / "state.json"]
    assert snapshot(lib.root)["papers.json"] == papers_before  # bytes, mtime and inode
    state_before = snapshot(lib.root)["state.json"]
    writes.clear()
    second = write_list(tmp_path / "second.txt", ABSTRACT_A, ABSTRACT_C)
    reports = lib.import_files([first, second])
    assert writes == [lib.root / "papers.json"]  # one write for the whole call
    assert [(r.added, r.duplicates) for r in reports] == [(0, 2), (1, 1)]
    assert snapshot(lib.root)["state.json"] == state_before
    fresh = Library.open(lib.root, seed=False)
    assert fresh.entry(alpha).tags == {"favourite"}
    assert fresh.get(alpha).sources == ("first.txt", "second.txt")


def test_a_failing_file_imports_nothing_and_others_still_import(lib: Library, tmp_path: Path):
    good = write_list(tmp_path / "good.txt", ABSTRACT_A)
    binary = tmp_path / "bad.txt"
    binary.write_bytes(b"\x00\x01\x02 binary \xff" * 50)
    missing = tmp_path / "missing.txt"
    reports = lib.import_files([binary, good, missing, tmp_path])
    assert [report.source for report in reports][:3] == ["bad.txt", "good.txt", "missing.txt"]
    assert reports[1] == FileReport("good.txt", added=1)
    for report in (reports[0], reports[2], reports[3]):
        assert report.error and "\n" not in report.error
        assert report.added == 0
    assert len(lib.papers()) == 1


def test_nothing_to_import_writes_nothing(lib: Library, tmp_path: Path, writes: list[Path]):
    header_only = tmp_path / "header.txt"
    header_only.write_text("TEST 2025 Papers\n")
    reports = lib.import_files([header_only, tmp_path / "missing.txt"])
    assert reports[0] == FileReport("header.txt")
    assert writes == []
    assert not (lib.root / "papers.json").exists()


def test_progress_is_reported_after_each_file(lib: Library, tmp_path: Path):
    files = [
        write_list(tmp_path / f"f{i}.txt", f"We propose Method{i} for task {i}.") for i in range(3)
    ]
    calls: list[tuple[int, int]] = []
    lib.import_files([*files, tmp_path / "missing.txt"], progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_venue_argument_wins(lib: Library, tmp_path: Path):
    listed = write_list(tmp_path / "v.txt", ABSTRACT_A)
    lib.import_files([listed], venue="NeurIPS 2024")
    assert lib.papers()[0].venue == "NeurIPS 2024"


def test_import_papers_merges_by_id(lib: Library):
    papers = make_papers(4)
    assert lib.import_papers(papers[:3], "a.txt") == FileReport("a.txt", added=3, duplicates=0)
    again = [paper.from_dict({**paper.to_dict(), "sources": ["b.txt"]}) for paper in papers]
    report = lib.import_papers(again, "b.txt")
    assert report == FileReport("b.txt", added=1, duplicates=3)
    assert lib.papers()[0].sources == ("synthetic.txt", "b.txt")
    assert lib.papers()[3].sources == ("b.txt",)


def test_import_merges_with_an_import_by_another_process(lib: Library, tmp_path: Path):
    other = Library.open(lib.root, seed=False)
    lib.import_files([write_list(tmp_path / "a.txt", ABSTRACT_A)])
    other.import_files([write_list(tmp_path / "b.txt", ABSTRACT_B)])  # other never saw a.txt
    fresh = Library.open(lib.root, seed=False)
    assert len(fresh.papers()) == 2
