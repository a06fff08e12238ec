"""`papershelf import` runs without the cyclic garbage collector (whose full passes re-scan
every paper an import holds: seconds at 100,000 papers), and gives it back when done."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from cli_helpers import SEARCH_FIXTURE, run

from papershelf.storage.library.library import Library


def test_import_collects_no_garbage_meanwhile_and_restores_the_collector(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    real = Library.import_files

    def watched(self: Library, *args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Library, "import_files", watched)
    assert gc.isenabled()
    code, out, _ = run(capsys, "--db", tmp_path / "lib", "import", SEARCH_FIXTURE)
    assert code == 0 and "added" in out
    assert seen == [False]
    assert gc.isenabled()
