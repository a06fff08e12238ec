"""`storage.caches.frame`: the frame of every cache. Whole sections come back; anything else,
a changed byte anywhere, a file cut short or grown, another tag, format or key, a FIFO or a
device, is "not usable" (None), and saving never raises."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.caches.frame import CacheFile, load_or_build, stat_key_bytes

REPO = Path(__file__).resolve().parents[2]
FRAME = CacheFile(b"PSTESTCF", 3, key_size=24, sections=3)
KEY = stat_key_bytes((1_700_000_000_123_456_789, 4096, 77))
SECTIONS = [b"main section " * 40, b"", bytes(range(256)) * 30]


def file_bytes(sections: list[bytes] = SECTIONS, key: bytes = KEY) -> bytes:
    return FRAME.pack_header(key, sections) + b"".join(sections)


def load_bytes(data: bytes, key: bytes = KEY, frame: CacheFile = FRAME) -> list[bytearray] | None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "test.cache"
        path.write_bytes(data)
        return frame.load(path, key)


def test_saved_sections_load_whole(tmp_path: Path) -> None:
    path = tmp_path / "test.cache"
    assert FRAME.save(path, KEY, SECTIONS) is True
    assert FRAME.load(path, KEY) == SECTIONS
    assert path.read_bytes() == file_bytes()
    with FRAME.open(path, KEY) as opened:
        assert [section.length for section in opened.sections] == [len(s) for s in SECTIONS]
        assert opened.section(2) == SECTIONS[2]
        at = opened.sections[2].at
        assert opened.read(5, at) == SECTIONS[2][:5]
        assert opened.read(5, path.stat().st_size - 2) is None  # past the end


@given(data=st.data())
def test_a_changed_byte_anywhere_is_not_usable(data: st.DataObject) -> None:
    whole = file_bytes()
    at = data.draw(st.integers(0, len(whole) - 1))
    flip = data.draw(st.integers(1, 255))
    damaged = bytearray(whole)
    damaged[at] ^= flip
    assert load_bytes(bytes(damaged)) is None


@given(cut=st.integers(0, len(file_bytes()) - 1), tail=st.binary(min_size=1, max_size=9))
def test_a_file_cut_short_or_grown_is_not_usable(cut: int, tail: bytes) -> None:
    assert load_bytes(file_bytes()[:cut]) is None
    assert load_bytes(file_bytes() + tail) is None


def test_another_key_format_or_tag_is_not_usable() -> None:
    whole = file_bytes()
    assert load_bytes(whole, stat_key_bytes((1, 2, 3))) is None
    assert load_bytes(whole, KEY[:-1]) is None  # a key of the wrong size
    for other in (
        CacheFile(b"PSTESTCF", 4, key_size=24, sections=3),
        CacheFile(b"PSOTHERX", 3, key_size=24, sections=3),
        CacheFile(b"PSTESTCF", 3, key_size=24, sections=2),
    ):
        assert load_bytes(whole, frame=other) is None
    assert load_bytes(whole) == SECTIONS


def test_a_huge_length_in_the_header_reads_nothing() -> None:
    whole = bytearray(file_bytes())
    length_at = 8 + 4 + 24
    whole[length_at + 6] = 0x7F  # ~ 2^55 bytes claimed for the main section
    assert load_bytes(bytes(whole)) is None


@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "missing"])
def test_only_a_regular_file_is_read(tmp_path: Path, kind: str) -> None:
    """A FIFO where a cache belongs used to hang the reader in open(); a device (a symlink to
    /dev/zero) would be read forever. Run in a child process that must finish."""
    path = tmp_path / "test.cache"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    elif kind == "directory":
        path.mkdir()
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from papershelf.storage.caches.frame import CacheFile, stat_key_bytes\n"
        "frame = CacheFile(b'PSTESTCF', 3, key_size=24, sections=3)\n"
        "key = stat_key_bytes((1, 2, 3))\n"
        "print(frame.load(Path(sys.argv[1]), key), frame.open(Path(sys.argv[1]), key))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "None None\n", "")
    assert FRAME.save(path, KEY, SECTIONS) is (kind != "directory")


def test_saving_never_raises_and_leaves_no_temp_file(tmp_path: Path) -> None:
    assert FRAME.save(tmp_path / "missing" / "test.cache", KEY, SECTIONS) is False
    assert FRAME.save(tmp_path / "test.cache", KEY[:3], SECTIONS) is False  # wrong key size
    assert FRAME.save(tmp_path / "test.cache", KEY, SECTIONS[:2]) is False  # a section short
    (tmp_path / "test.cache").mkdir()
    assert FRAME.save(tmp_path / "test.cache", KEY, SECTIONS) is False
    assert sorted(p.name for p in tmp_path.iterdir()) == ["test.cache"]


def test_load_or_build_builds_and_saves_only_what_it_could_not_load() -> None:
    saved: list[str] = []
    assert load_or_build(lambda: "cached", lambda: "built", saved.append) == ("cached", True)
    assert saved == []
    assert load_or_build(lambda: None, lambda: "built", saved.append) == ("built", False)
    assert saved == ["built"]
