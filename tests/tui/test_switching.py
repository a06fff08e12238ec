"""The app shortens the interpreter's switch interval while it runs and puts it back after."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from pilot_helpers import index_loaded

from papershelf.tui.switching import UI_SWITCH_SECONDS, QuickSwitch


@pytest.fixture
def odd_interval() -> Iterator[float]:
    """A switch interval no code sets, so that putting it back is seen (restored after)."""
    saved = sys.getswitchinterval()
    sys.setswitchinterval(0.007)
    try:
        yield sys.getswitchinterval()
    finally:
        sys.setswitchinterval(saved)


def test_start_shortens_the_interval_and_stop_puts_it_back(odd_interval: float) -> None:
    switch = QuickSwitch()
    assert not switch.active
    switch.start()
    assert switch.active
    assert sys.getswitchinterval() == pytest.approx(UI_SWITCH_SECONDS)
    switch.start()  # twice: still puts back what the first start found
    switch.stop()
    assert not switch.active
    assert sys.getswitchinterval() == pytest.approx(odd_interval)
    switch.stop()  # twice: nothing more to put back
    assert sys.getswitchinterval() == pytest.approx(odd_interval)


async def test_the_app_runs_with_the_short_interval_and_restores_it(
    make_app, odd_interval: float
) -> None:
    app = make_app()
    async with app.run_test() as pilot:
        await index_loaded(app, pilot)
        # While the app runs, with its workers started, keys wait less for the interpreter.
        assert sys.getswitchinterval() == pytest.approx(UI_SWITCH_SECONDS)
        await pilot.press("slash", "d")
        assert sys.getswitchinterval() == pytest.approx(UI_SWITCH_SECONDS)
    assert sys.getswitchinterval() == pytest.approx(odd_interval)
