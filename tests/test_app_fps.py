"""The app raises Textual's frame-rate cap unless the user chose one (`cli.main.APP_FPS`)."""

from __future__ import annotations

import os
import subprocess
import sys

from papershelf.cli.main import APP_FPS

PROBE = (
    "from papershelf.cli.main import handler; handler(None); "
    "import textual.constants as c; print(c.MAX_FPS)"
)


def _max_fps(**env: str) -> int:
    environment = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"} | env
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=environment, check=True
    )
    return int(done.stdout)


def test_the_app_draws_at_its_own_frame_rate() -> None:
    assert _max_fps() == int(APP_FPS) > 60


def test_a_frame_rate_the_user_set_wins() -> None:
    assert _max_fps(TEXTUAL_FPS="30") == 30
