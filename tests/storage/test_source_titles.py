"""papershelf.storage.library.source_titles: the bundled seeds by their header."""

from __future__ import annotations

from papershelf.storage.library.importer import bundled_seed_files
from papershelf.storage.library.source_titles import seed_headers, source_title


def test_each_bundled_seed_is_called_by_its_header() -> None:
    names = [path.name for path in bundled_seed_files()]
    assert set(seed_headers()) == set(names)
    # The headers as the files write them, first line of each.
    assert sorted(seed_headers().values()) == ["ICML 2025 Papers", "ICML 2025 论文列表"]
    for path in bundled_seed_files():
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert source_title(path.name) == first.strip()


def test_any_other_source_keeps_its_name() -> None:
    assert source_title("icml2025.jsonl") == "icml2025.jsonl"
    assert source_title("") == ""
