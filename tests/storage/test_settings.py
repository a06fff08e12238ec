"""Settings file (never fatal) and the five sort orders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.library.settings import (
    SETTINGS_FILE,
    SORT_ORDERS,
    Settings,
    load_settings,
    save_settings,
    sort_ids,
    sort_ranks,
)
from papershelf.storage.model import STATUSES, Entry, Paper


def test_missing_file_gives_defaults(tmp_path: Path):
    assert load_settings(tmp_path) == Settings()
    assert load_settings(tmp_path / "no-such-dir").sort is None  # not chosen: the config decides


def test_save_then_load(tmp_path: Path):
    save_settings(tmp_path / "new", Settings().with_sort("changed"))
    assert load_settings(tmp_path / "new").sort == "changed"
    data = json.loads((tmp_path / "new" / SETTINGS_FILE).read_text())
    assert data == {"format": "papershelf-settings", "version": 2, "sort": "changed"}
    assert not list((tmp_path / "new").glob("*.tmp"))


@pytest.mark.parametrize(
    "content",
    [
        b"{ broken",
        b"",
        b"\xff\xfe\x00",
        b"[]",
        b'{"sort": "name"}',  # no format: not ours
        b'{"format": "papershelf-settings", "version": 1, "sort": "random"}',
        b'{"format": "papershelf-settings", "version": 2, "sort": 3}',
        # Version 1 always wrote its default order: not a choice made in this library.
        b'{"format": "papershelf-settings", "version": 1, "sort": "library"}',
    ],
)
def test_unusable_content_gives_defaults(tmp_path: Path, content: bytes):
    (tmp_path / SETTINGS_FILE).write_bytes(content)
    assert load_settings(tmp_path).sort is None


def test_an_order_chosen_in_version_2_is_kept_even_library(tmp_path: Path):
    save_settings(tmp_path, Settings().with_sort("library"))
    assert load_settings(tmp_path).sort == "library"


def test_a_directory_in_the_way_gives_defaults(tmp_path: Path):
    (tmp_path / SETTINGS_FILE).mkdir()
    assert load_settings(tmp_path) == Settings()


def test_keys_of_a_newer_version_survive_a_save(tmp_path: Path):
    newer = {"format": "papershelf-settings", "version": 3, "sort": "venue", "columns": ["x"]}
    (tmp_path / SETTINGS_FILE).write_text(json.dumps(newer))
    settings = load_settings(tmp_path)
    assert settings.sort == "venue" and settings.extra == {"columns": ["x"]}
    save_settings(tmp_path, settings.with_sort("name").with_theme("nord"))
    saved = json.loads((tmp_path / SETTINGS_FILE).read_text())
    assert saved["columns"] == ["x"] and saved["sort"] == "name" and saved["theme"] == "nord"


@pytest.mark.parametrize("theme", [3, ["nord"], "", "x" * 101, None])
def test_an_unusable_theme_is_no_theme_and_the_rest_is_kept(tmp_path: Path, theme: object):
    data = {"format": "papershelf-settings", "version": 1, "sort": "name", "theme": theme}
    (tmp_path / SETTINGS_FILE).write_text(json.dumps(data))
    settings = load_settings(tmp_path)
    assert (settings.sort, settings.theme) == ("name", None)


def test_with_sort_refuses_unknown_orders():
    with pytest.raises(ValueError, match="unknown sort order"):
        Settings().with_sort("random")


# -- sort orders ----------------------------------------------------------------------------


def paper(pid: str, name: str, venue: str | None) -> Paper:
    return Paper(id=pid, name=name, title=None, abstract=name, venue=venue, sources=())


PAPERS = {
    p.id: p
    for p in [
        paper("p1", "beta", "NeurIPS 2024"),
        paper("p2", "Alpha", None),
        paper("p3", "gamma", "ICML 2025"),
        paper("p4", "alpha", "icml 2025"),
        paper("p5", "Delta", "AAAI 2025"),
    ]
}
ENTRIES = {
    "p2": Entry(status="read", updated_at="2025-06-03T10:00:00Z"),
    "p3": Entry(status="reading", updated_at="2025-06-01T10:00:00Z"),
    "p4": Entry(tags=frozenset({"x"}), updated_at="2025-06-03T10:00:00Z"),
    "p5": Entry(status="reading", updated_at="2025-06-02T09:00:00Z"),
}


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ("library", ["p1", "p2", "p3", "p4", "p5"]),
        ("name", ["p4", "p2", "p1", "p5", "p3"]),  # alpha (p4 came first), Alpha, beta, ...
        ("venue", ["p5", "p4", "p3", "p1", "p2"]),  # AAAI, ICML x2 (given order), NeurIPS, none
        ("status", ["p3", "p5", "p4", "p1", "p2"]),  # reading, unread, read
        ("changed", ["p2", "p4", "p5", "p3", "p1"]),  # newest first, ties in library order
    ],
)
def test_sort_orders(order: str, expected: list[str]):
    given_order = ["p4", "p3", "p5", "p2", "p1"]
    assert sort_ids(given_order, order, PAPERS, ENTRIES) == expected


def test_unknown_ids_go_last_and_unknown_orders_fail():
    assert sort_ids(["zz", "p2", "p1"], "name", PAPERS, ENTRIES) == ["p2", "p1", "zz"]
    with pytest.raises(ValueError, match="unknown sort order"):
        sort_ids(["p1"], "random", PAPERS, ENTRIES)


STAMPS = st.sampled_from([None, "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z"])


@given(
    order=st.sampled_from(SORT_ORDERS),
    chosen=st.permutations(list(PAPERS)),
    entries=st.dictionaries(
        st.sampled_from(list(PAPERS)),
        st.builds(Entry, status=st.sampled_from(STATUSES), updated_at=STAMPS),
    ),
)
def test_sorting_is_a_stable_permutation(order, chosen, entries):
    result = sort_ids(chosen, order, PAPERS, entries)
    assert sorted(result) == sorted(chosen)
    assert sort_ids(result, order, PAPERS, entries) == result  # sorting twice changes nothing
    if order == "changed":
        stamps = [(entries.get(pid) or Entry()).updated_at for pid in result]
        changed = [s for s in stamps if s]
        assert stamps[: len(changed)] == sorted(changed, reverse=True)


NAMES = st.sampled_from(["alpha", "Alpha", "beta", "Beta", "gamma"])
VENUES = st.sampled_from([None, "ICML 2025", "icml 2025", "AAAI 2025"])


@given(
    order=st.sampled_from(SORT_ORDERS),
    library=st.lists(st.tuples(NAMES, VENUES), min_size=1, max_size=12),
    data=st.data(),
)
def test_ranks_sort_any_hits_as_sort_ids_does(order, library, data):
    # The app sorts a query's hits by ranks made once: for any of the papers, in any order
    # (relevance), with ids the library no longer holds among them, the same as sort_ids.
    papers = {f"p{i}": paper(f"p{i}", name, venue) for i, (name, venue) in enumerate(library)}
    entries = data.draw(
        st.dictionaries(
            st.sampled_from(list(papers)),
            st.builds(Entry, status=st.sampled_from(STATUSES), updated_at=STAMPS),
        )
    )
    hits = data.draw(st.lists(st.sampled_from([*papers, "gone1", "gone2"]), unique=True))
    ranks = sort_ranks(order, papers, entries)
    by_rank = sorted(hits, key=lambda pid: ranks.get(pid, len(ranks)))
    assert by_rank == sort_ids(hits, order, papers, entries)
    # Given the papers already in the order (as the app has them), the same ranks.
    ordered = sort_ids(papers, order, papers, entries)
    assert sort_ranks(order, papers, entries, ordered=ordered) == ranks


def test_papers_equal_in_the_order_share_a_rank():
    ranks = sort_ranks("name", PAPERS, ENTRIES)
    assert ranks["p2"] == ranks["p4"] < ranks["p1"]  # Alpha and alpha tie
    assert len(set(sort_ranks("library", PAPERS, ENTRIES).values())) == len(PAPERS)
    with pytest.raises(ValueError, match="unknown sort order"):
        sort_ranks("random", PAPERS, ENTRIES)


def test_the_authors_column_is_remembered(tmp_path: Path):
    assert load_settings(tmp_path).authors_column is None
    save_settings(tmp_path, Settings().with_theme("nord").with_authors_column(True))
    assert load_settings(tmp_path) == Settings(theme="nord", authors_column=True)
    assert json.loads((tmp_path / SETTINGS_FILE).read_text())["authors_column"] is True
    save_settings(tmp_path, load_settings(tmp_path).with_authors_column(False))
    # Hidden is a choice too (the config may show the column elsewhere): written as false.
    assert json.loads((tmp_path / SETTINGS_FILE).read_text())["authors_column"] is False
    assert load_settings(tmp_path).authors_column is False


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("value", [1, "true", "yes", None, [True]])
def test_only_a_boolean_chooses_the_authors_column(tmp_path: Path, value: object, version: int):
    data = {
        "format": "papershelf-settings",
        "version": version,
        "sort": "name",
        "authors_column": value,
    }
    (tmp_path / SETTINGS_FILE).write_text(json.dumps(data))
    settings = load_settings(tmp_path)
    assert (settings.sort, settings.authors_column, settings.extra) == ("name", None, {})


def test_version_1_without_the_column_chose_nothing(tmp_path: Path):
    data = {"format": "papershelf-settings", "version": 1, "sort": "name"}
    (tmp_path / SETTINGS_FILE).write_text(json.dumps(data))
    assert load_settings(tmp_path).authors_column is None
