"""`AtomicJSONStorage` and `atomic_write`: round trips, the stat-keyed cache, damaged files, and
failed writes that leave the old file byte-identical."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tinydb import Query, TinyDB

from papershelf.storage.errors import SaveError
from papershelf.storage.files.jsonstore import (
    AtomicJSONStorage,
    CorruptFileError,
    atomic_write,
    stale_temp_files,
)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data.json"


def temps(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_missing_file_reads_as_none(path: Path):
    assert AtomicJSONStorage(path).read() is None


def test_write_then_read_round_trips_and_is_plain_json(path: Path):
    store = AtomicJSONStorage(path)
    data = {"t": {"1": {"text": "ünïcode [MASK] [/] $x^2$", "n": 3}}}
    store.write(data)
    assert json.loads(path.read_text(encoding="utf-8")) == data
    assert AtomicJSONStorage(path).read() == data
    assert "ünïcode" in path.read_text(encoding="utf-8")  # not ASCII-escaped
    assert temps(path.parent) == []


def test_tinydb_works_on_top_of_the_storage(path: Path):
    db = TinyDB(path, storage=AtomicJSONStorage)
    db.table("items").insert_multiple([{"name": "a", "n": 1}, {"name": "b", "n": 2}])
    db.table("items").update({"n": 5}, Query().name == "b")
    other = TinyDB(path, storage=AtomicJSONStorage)  # a second process, in effect
    assert other.table("items").get(Query().name == "b")["n"] == 5
    assert sorted(doc["name"] for doc in other.table("items").all()) == ["a", "b"]


def test_read_is_cached_while_the_file_is_unchanged(path: Path, monkeypatch: pytest.MonkeyPatch):
    AtomicJSONStorage(path).write({"t": {"1": {"v": 1}}})
    store = AtomicJSONStorage(path)
    first = store.read()
    loads = []
    real_loads = json.loads
    monkeypatch.setattr(json, "loads", lambda *a, **k: loads.append(1) or real_loads(*a, **k))
    assert store.read() is first
    assert store.read() is first
    assert loads == []
    assert store.loaded_key == store.current_key()


def test_a_replacement_by_another_writer_is_seen(path: Path):
    mine = AtomicJSONStorage(path)
    mine.write({"t": {"1": {"v": 1}}})
    assert mine.read() == {"t": {"1": {"v": 1}}}
    AtomicJSONStorage(path).write({"t": {"1": {"v": 2}}})  # same size, new inode
    assert mine.read() == {"t": {"1": {"v": 2}}}


def test_an_in_place_edit_of_the_same_size_is_seen(path: Path):
    store = AtomicJSONStorage(path)
    store.write({"t": {"1": {"v": 1}}})
    store.read()
    stat = path.stat()
    path.write_text(path.read_text().replace("1}", "7}"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert store.read() == {"t": {"1": {"v": 7}}}


def test_write_makes_the_written_data_the_cached_value(path: Path):
    store = AtomicJSONStorage(path)
    data = {"t": {}}
    store.write(data)
    assert store.read() is data


def test_existing_file_mode_is_kept(path: Path):
    store = AtomicJSONStorage(path)
    store.write({"a": {}})
    path.chmod(0o600)
    store.write({"b": {}})
    assert path.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty"),
        (b"  \n", "empty"),
        (b'{"t": {"1": {"v": ', "not valid JSON"),
        (b"garbage", "not valid JSON"),
        (b"\xff\xfe\x00binary", "not valid JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b"[" * 100_000, "not valid JSON"),
    ],
)
def test_damaged_files_raise_and_are_never_read_as_empty(path: Path, content: bytes, reason: str):
    path.write_bytes(content)
    store = AtomicJSONStorage(path)
    with pytest.raises(CorruptFileError, match=reason) as raised:
        store.read()
    assert path.read_bytes() == content  # reading never changes the file
    assert raised.value.key == store.current_key()
    moved = store.quarantine(raised.value.key, "stamp")
    assert moved == path.with_name("data.json.corrupt-stamp")
    assert moved.read_bytes() == content
    assert not path.exists()


def test_quarantine_leaves_a_file_that_was_replaced_meanwhile(path: Path):
    path.write_bytes(b"broken")
    store = AtomicJSONStorage(path)
    with pytest.raises(CorruptFileError) as raised:
        store.read()
    AtomicJSONStorage(path).write({"fixed": {}})
    assert store.quarantine(raised.value.key, "stamp") is None
    assert store.read() == {"fixed": {}}


def test_quarantine_never_overwrites_an_earlier_corrupt_copy(path: Path):
    store = AtomicJSONStorage(path)
    for content in (b"first", b"second"):
        path.write_bytes(content)
        with pytest.raises(CorruptFileError) as raised:
            store.read()
        store.quarantine(raised.value.key, "same-second")
    assert path.with_name("data.json.corrupt-same-second").read_bytes() == b"first"
    assert path.with_name("data.json.corrupt-same-second-2").read_bytes() == b"second"


def test_stale_temp_files_match_only_this_files_temps(path: Path):
    for name in (".data.json.1.ab.tmp", ".data.json.2.cd.tmp", ".other.json.1.ab.tmp", "x.tmp"):
        (path.parent / name).write_text("")
    assert sorted(p.name for p in stale_temp_files(path)) == [
        ".data.json.1.ab.tmp",
        ".data.json.2.cd.tmp",
    ]


# -- failed writes ---------------------------------------------------------------------------


def _failing(real, error_number: int, when):
    def fake(*args, **kwargs):
        if when(*args):
            raise OSError(error_number, os.strerror(error_number))
        return real(*args, **kwargs)

    return fake


def _is_temp_fd(fd, *_):
    return os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp")


FAILURES = {
    "disk full on write": ("write", errno.ENOSPC, _is_temp_fd, "the disk is full"),
    "disk full on fsync": ("fsync", errno.ENOSPC, _is_temp_fd, "the disk is full"),
    "permission denied": (
        "open",
        errno.EACCES,
        lambda p, *_: str(p).endswith(".tmp"),
        "permission denied",
    ),
    "replace fails": (
        "replace",
        errno.EBUSY,
        lambda src, dst: str(dst).endswith("data.json"),
        os.strerror(errno.EBUSY),
    ),
}


@pytest.mark.parametrize("failure", FAILURES)
def test_failed_write_leaves_old_file_byte_identical(
    path: Path, monkeypatch: pytest.MonkeyPatch, failure: str
):
    name, number, when, message = FAILURES[failure]
    store = AtomicJSONStorage(path)
    store.write({"t": {"1": {"v": "old"}}})
    before = path.read_bytes()
    before_stat = path.stat()
    monkeypatch.setattr(os, name, _failing(getattr(os, name), number, when))
    with pytest.raises(SaveError) as raised:
        store.write({"t": {"1": {"v": "new and longer"}}})
    monkeypatch.undo()
    text = str(raised.value)
    assert message in text and str(path) in text and "\n" not in text
    assert path.read_bytes() == before
    assert path.stat().st_ino == before_stat.st_ino
    assert temps(path.parent) == []
    assert store.read() == {"t": {"1": {"v": "old"}}}  # the cache did not keep the failed data
    store.write({"t": {"1": {"v": "retried"}}})  # and a retry succeeds
    assert AtomicJSONStorage(path).read() == {"t": {"1": {"v": "retried"}}}


def test_atomic_write_returns_the_key_of_the_new_file(path: Path):
    key = atomic_write(path, b'{"a": {}}')
    stat = path.stat()
    assert key == (stat.st_mtime_ns, stat.st_size, stat.st_ino)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=50)
@given(st.dictionaries(st.text(), st.dictionaries(st.text(), json_values, max_size=4), max_size=4))
def test_any_document_tree_round_trips(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("rt") / "db.json"
    AtomicJSONStorage(path).write(data)
    assert AtomicJSONStorage(path).read() == data
