"""Shared test setup: deterministic hypothesis runs and paths to the bundled seeds."""

from __future__ import annotations

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
    """No test may read or write the real user's library: point the default data dir elsewhere."""
    monkeypatch.setenv("PAPERSHELF_HOME", str(tmp_path_factory.mktemp("home")))
