"""Shared test setup: deterministic hypothesis runs and paths to the bundled seeds."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent
SEEDS_DIR = REPO / "seeds"

# Property tests must give the same verdict on every run (CI included), and the shared 2-core
# machines are too noisy for per-example deadlines.
settings.register_profile(
    "papershelf",
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("papershelf")


@pytest.fixture
def seed_files() -> list[Path]:
    """The two bundled seed files, in name order."""
    return sorted(SEEDS_DIR.glob("*.txt"))


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test may read or write the real user's library or config: point both elsewhere."""
    monkeypatch.setenv("PAPERSHELF_HOME", str(tmp_path_factory.mktemp("home")))
    monkeypatch.setenv("PAPERSHELF_CONFIG", str(tmp_path_factory.mktemp("config") / "config.toml"))


class SmallDisk:
    """A real, tiny filesystem (tmpfs) that a test can fill up and free again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._filler = path / ".filler"

    def fill(self) -> None:
        """Take every free byte: the next write of any size fails with ENOSPC."""
        fd = os.open(self._filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            for size in (1 << 16, 1 << 10, 1):  # big chunks first, then the last few bytes
                try:
                    while os.write(fd, b"\0" * size):
                        pass
                except OSError:
                    pass
        finally:
            os.close(fd)

    def free(self) -> None:
        """Give the space back."""
        self._filler.unlink(missing_ok=True)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    """A 4 MiB tmpfs mounted for this test (needs root, as CI has): a disk that really fills up.

    Outside CI a machine that cannot mount skips the test; in CI that is a failure.
    """
    mount_point = tmp_path / "small-disk"
    mount_point.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m,mode=0755", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        reason = f"cannot mount a tmpfs: {done.stderr.strip() or done.returncode}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        yield SmallDisk(mount_point)
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], capture_output=True, check=False)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[object]:
    """A 120x40 tmux terminal for an end-to-end test (see tests/terminal.py), closed after."""
    from terminal import Terminal  # here: only the tmux tests need it

    terminal = Terminal(tmp_path, width=120, height=40)
    yield terminal
    terminal.close()


@pytest.fixture
def fake_apis(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """arXiv, Crossref and OpenReview answered by a local server (tests/fetch_server.py)."""
    from fetch_server import serve_apis

    yield from serve_apis(monkeypatch)
