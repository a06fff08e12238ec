"""Fixtures for the app's tests: a small library with hostile text, a fake clipboard, no blink."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.widgets import Input, TextArea

from storage.library import Library
from storage.model import Paper
from tui.app import PapershelfApp
from tui.clipboard import CopyOutcome

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


class FakeClipboard:
    """Records what the app asked to copy; always reports a verified copy."""

    def __init__(self) -> None:
        self.copied: list[str] = []

    def copy(self, text: str, app: object) -> CopyOutcome:
        self.copied.append(text)
        return CopyOutcome(
            text=text, system="fake", terminal=True, message=f"Copied {text} to the clipboard"
        )


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
    return root


@pytest.fixture
def library(library_root: Path) -> Library:
    """The library of `library_root`, opened."""
    return Library.open(library_root, seed=False)


@pytest.fixture
def clipboard() -> FakeClipboard:
    """A clipboard that only records."""
    return FakeClipboard()


@pytest.fixture
def make_app(library: Library, clipboard: FakeClipboard) -> Iterator[Callable[[], PapershelfApp]]:
    """Build the app on the fixture library with the fake clipboard."""

    def make() -> PapershelfApp:
        return PapershelfApp(library, clipboard=clipboard)  # type: ignore[arg-type]

    yield make


@pytest.fixture
def ids() -> SimpleNamespace:
    """Ids of the papers the fixture library adds to the seeds."""
    return SimpleNamespace(hostile=HOSTILE_ID, multi=MULTI_ID, nocode=NOCODE_ID)


@pytest.fixture
def reopen() -> Callable[[Path], Library]:
    """Open a fresh Library on a root: what is really on disk."""
    return lambda root: Library.open(root, seed=False)
