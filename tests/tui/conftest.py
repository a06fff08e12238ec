"""Fixtures for the app's tests: a small library with hostile text, a fake `xclip`, no blink."""

from __future__ import annotations

import asyncio
import inspect
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from pilot_helpers import hint_seen
from textual.widgets import Input, TextArea

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.tui.app import PapershelfApp

# What ML abstracts (and mischief) put in brackets, plus raw terminal escapes: a clear-screen
# and an OSC 52 clipboard write. None of it may act as markup or reach the terminal.
HOSTILE_MARKUP = "[MASK] [/] [@click=app.quit]x[/] [link=http://x]y[/link]"
HOSTILE_ESCAPES = "\x1b[2J \x1b]52;c;aGk=\x07"

HOSTILE_ID = "feedface0001"
MULTI_ID = "feedface0002"
NOCODE_ID = "feedface0003"

HOSTILE = Paper(
    id=HOSTILE_ID,
    name="MaskNet [MASK]",
    title="[@click=app.quit]Quit[/] the [b]bold[/b] way \x1b[31mred\x07",
    abstract=(
        f"We replace tokens by {HOSTILE_MARKUP} and study zebrafish. "
        f"Raw escapes {HOSTILE_ESCAPES} must stay inert."
    ),
    venue="Hostile 2025",
    sources=("hostile.jsonl",),
    code_urls=("https://github.com/hostile/[/]masknet",),
    links=("javascript:alert(1)",),
)
MULTI = Paper(
    id=MULTI_ID,
    name="TwinRepo",
    title="TwinRepo: two repositories for one quokka method",
    abstract="We propose TwinRepo, a quokka method with two code repositories and a site.",
    venue="Test 2025",
    sources=("multi.jsonl",),
    code_urls=("https://github.com/a/twin-one", "https://gitlab.com/b/twin-two"),
    links=("https://twinrepo.example.org",),
)
NOCODE = Paper(
    id=NOCODE_ID,
    name="NoCode",
    title=None,
    abstract="A study of wombat burrows without any code, only ftp://wombat.example/data.",
    venue="Test 2025",
    sources=("nocode.jsonl",),
    links=("ftp://wombat.example/data",),
)
EXTRA_PAPERS = (HOSTILE, MULTI, NOCODE)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests in a fresh event loop (no asyncio plugin is installed)."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True


class SystemClipboard:
    """A fake `xclip` on PATH (with a DISPLAY), as the app's real `Clipboard` finds it.

    The script keeps what it is given (so reading back verifies the copy, as with the real
    tool) and appends each copy to a log, so a test sees every copy in order.
    """

    SEPARATOR = "\x1e"

    def __init__(self, bin_dir: Path) -> None:
        self.store = bin_dir / "xclip.store"
        self.log = bin_dir / "xclip.copies"
        script = bin_dir / "xclip"
        script.write_text(
            "#!/bin/sh\n"
            f'for arg in "$@"; do [ "$arg" = "-o" ] && exec /bin/cat "{self.store}"; done\n'
            f'/bin/cat > "{self.store}"\n'
            f'/bin/cat "{self.store}" >> "{self.log}"\n'
            f"printf '\\036' >> \"{self.log}\"\n"
        )
        script.chmod(0o755)

    @property
    def copied(self) -> list[str]:
        """Every text copied to the system clipboard, oldest first."""
        if not self.log.exists():
            return []
        return self.log.read_text(encoding="utf-8").split(self.SEPARATOR)[:-1]


@pytest.fixture(autouse=True)
def clipboard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SystemClipboard:
    """Every app test copies through the real Clipboard to a fake `xclip` (never the user's)."""
    bin_dir = tmp_path / "clipboard-bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    return SystemClipboard(bin_dir)


@pytest.fixture(autouse=True)
def _no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """A blinking cursor makes screenshots depend on timing: keep it steady."""
    for widget_class in (Input, TextArea):
        original = widget_class.__init__

        def init(self, *args, _original=original, **kwargs) -> None:  # type: ignore[no-untyped-def]
            _original(self, *args, **kwargs)
            self.cursor_blink = False

        monkeypatch.setattr(widget_class, "__init__", init)


@pytest.fixture
def library_root(tmp_path: Path, seed_files: list[Path]) -> Path:
    """A library on disk: the two seeds plus three papers of our own (hostile, two repos, none)."""
    root = tmp_path / "library"
    library = Library.open(root, seed=False)
    library.import_files(seed_files)
    library.import_papers(EXTRA_PAPERS, "extra.jsonl")
    hint_seen(root)
    return root


@pytest.fixture
def library(library_root: Path) -> Library:
    """The library of `library_root`, opened."""
    return Library.open(library_root, seed=False)


@pytest.fixture
def make_app(library: Library) -> Iterator[Callable[[], PapershelfApp]]:
    """Build the app on the fixture library (copies go to the `clipboard` fixture's xclip)."""

    def make() -> PapershelfApp:
        return PapershelfApp(library)

    yield make


@pytest.fixture
def ids() -> SimpleNamespace:
    """Ids of the papers the fixture library adds to the seeds."""
    return SimpleNamespace(hostile=HOSTILE_ID, multi=MULTI_ID, nocode=NOCODE_ID)


@pytest.fixture
def reopen() -> Callable[[Path], Library]:
    """Open a fresh Library on a root: what is really on disk."""
    return lambda root: Library.open(root, seed=False)
