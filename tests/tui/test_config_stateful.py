"""The config file over sequences of edits, starts, theme picks and commands (issue 15, part 5).

A hypothesis state machine writes `config.toml` with random valid and invalid entries (and the
user's comments), starts the app or runs `papershelf list`, picks a theme in the command
palette, and starts again. Whatever the sequence: nothing crashes, every invalid entry is one
line naming its key (a notification in the app, a warning on stderr), the valid settings apply,
the theme picked in the palette is the theme of the next start, and the user's comments survive
the app's save.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from cli_helpers import run_captured
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from pilot_helpers import hint_seen, settle
from test_app_saving import record_notifications
from test_theme_memory import pick_theme_in_the_palette

from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp

SIZE = (100, 30)
THEMES = ("nord", "gruvbox", "dracula")

# Each key of the file: lines that are valid, and lines that are not with who finds the problem
# ("file": reading the file, the CLI too; "app": only the app knows its themes and bindings).
Bad = tuple[str, str]
TOP_LEVEL: dict[str, tuple[list[str], list[Bad]]] = {
    "theme": (
        [f'theme = "{name}"' for name in THEMES],
        [('theme = "solarised"', "app"), ("theme = 7", "file")],
    ),
    "sort": (['sort = "name"', 'sort = "venue"'], [('sort = "by-date"', "file")]),
    "export_dir": ([], [('export_dir = "relative/dir"', "file"), ("export_dir = false", "file")]),
    "colour": ([], [('colour = "blue"', "file")]),  # no such key
}
COLUMNS: tuple[list[str], list[Bad]] = (
    ["authors = true", "authors = false"],
    [('authors = "yes"', "file")],
)
KEYS: tuple[list[str], list[Bad]] = (
    ['"app.star" = "x"', '"app.tag" = ["f6", "t"]'],
    [
        ('"app.strar" = "x"', "app"),
        ('"app.star" = "t"', "app"),
        ('"app.star" = 5', "file"),
        # g is the list's first-paper key: the list and the app meet one key press
        ('"app.tag" = ["g", "t"]', "app"),
    ],
)


@st.composite
def configs(draw: st.DrawFn) -> dict[str, Any]:
    """A config as its lines (comments between them), its valid lines by key and its
    problems as (key named, who finds it)."""
    lines = ["# my papershelf settings"]
    bad: set[tuple[str, str]] = set()
    good: dict[str, str] = {}

    def entry(key: str, choices: tuple[list[str], list[Bad]], header: list[str]) -> None:
        valid, invalid = choices
        kinds = ["none", "valid", "invalid"] if valid else ["none", "invalid"]
        kind = draw(st.sampled_from(kinds))
        if kind == "none":
            return
        lines.extend(header)
        if kind == "valid":
            good[key] = draw(st.sampled_from(valid))
            lines.extend([good[key], f"# about {key}"])
            return
        line, level = draw(st.sampled_from(invalid))
        lines.extend([line, f"# about {key}"])
        named = f"keys.{line.split(chr(34))[1]}" if key == "keys" else key
        bad.add((named, level))

    for key, choices in TOP_LEVEL.items():
        entry(key, choices, [])
    entry("columns.authors", COLUMNS, ["", "[columns]  # the list"])
    entry("keys", KEYS, ["", "[keys]  # mine"])
    broken = draw(st.integers(0, 5)) == 0
    if broken:
        lines.append("this is = not = toml")
    return {"text": "\n".join(lines) + "\n", "bad": bad, "good": good, "broken": broken}


def problem_keys(lines: list[str]) -> list[str]:
    """The key each `config.toml: KEY: ...` line names."""
    return [line.split(":")[1].strip() for line in lines if line.startswith("config.toml: ")]


class ConfigMachine(RuleBasedStateMachine):
    """One library and one config file, edited, started and saved in any order."""

    def __init__(self) -> None:
        super().__init__()
        base = Path(os.environ["PAPERSHELF_CONFIG"]).parent
        self.config = base / "config.toml"
        self.config.unlink(missing_ok=True)  # each sequence starts without a config
        self.root = Path(tempfile.mkdtemp(dir=base)) / "library"
        library = Library.open(self.root)  # the bundled seeds
        del library
        hint_seen(self.root)
        self.written: dict[str, Any] | None = None
        self.theme: str | None = None
        """The theme the next start must show (written or picked), if any."""
        self.comments: list[str] = []

    @rule(config=configs())
    def write_config(self, config: dict[str, Any]) -> None:
        """The user edits the file."""
        self.config.write_text(config["text"], encoding="utf-8")
        self.written = config
        self.comments = [line for line in config["text"].splitlines() if "#" in line]
        line = config["good"].get("theme")
        self.theme = None if config["broken"] or line is None else line.split('"')[1]

    def expected_problems(self, level: str) -> list[str] | None:
        """The keys the problem lines must name, the app's (`level` "app") or a command's
        ("file"); None: a file that is not TOML, one line."""
        if self.written is None:
            return []
        if self.written["broken"]:
            return None
        levels = {"file"} if level == "file" else {"file", "app"}
        return sorted(key for key, found_by in self.written["bad"] if found_by in levels)

    def check_problems(self, lines: list[str], level: str) -> None:
        shown = [line for line in lines if "config.toml" in line]
        expected = self.expected_problems(level)
        if expected is None:
            assert len(shown) == 1 and "not valid TOML" in shown[0], shown
            return
        assert sorted(problem_keys(shown)) == expected, (shown, expected)
        assert all(line.endswith("ignored") for line in shown), shown

    @rule(pick=st.one_of(st.none(), st.sampled_from(THEMES)))
    def start_the_app(self, pick: str | None) -> None:
        """Start the app, look, maybe pick a theme in the palette, quit."""
        app = PapershelfApp(Library.open(self.root, seed=False))
        shown = record_notifications(app)

        async def session() -> None:
            async with app.run_test(size=SIZE) as pilot:
                await settle(app, pilot)
                if self.theme is not None:
                    assert app.theme == self.theme
                good = {} if self.written is None else self.written["good"]
                if "keys" in good and not self.written["broken"]:  # type: ignore[index]
                    assert app.applied_keymap
                if "sort" in good and not self.written["broken"]:  # type: ignore[index]
                    assert app.workflow.remembered_order == good["sort"].split('"')[1]
                if pick is not None:
                    await pick_theme_in_the_palette(app, pilot, pick)
                    assert app.theme == pick
                assert app.is_running

        asyncio.run(session())
        assert app.return_code in (None, 0)
        self.check_problems(shown, "app")
        if pick is None:
            return
        text = self.config.read_text(encoding="utf-8")
        if self.written is not None and self.written["broken"]:
            # Never rewritten: the app said the theme was not remembered.
            assert text == self.written["text"]
            assert any("Theme not remembered" in line for line in shown)
            return
        assert tomllib.loads(text)["theme"] == pick
        for comment in self.comments:
            assert comment.split("#", 1)[1] in text, comment
        self.theme = pick
        if self.written is not None:
            # The file now says the picked theme: a bad theme line is gone with it.
            bad = {(key, level) for key, level in self.written["bad"] if key != "theme"}
            self.written = {**self.written, "bad": bad}
            self.written["good"] = {**self.written["good"], "theme": f'theme = "{pick}"'}

    @precondition(lambda self: self.written is not None)
    @rule()
    def run_a_command(self) -> None:
        """`papershelf list` reads the config when it needs the library's place from it."""
        assert self.written is not None
        text = self.config.read_text(encoding="utf-8")
        if self.written["broken"]:
            return  # no library line could be read from it either
        self.config.write_text(f'library = "{self.root}"\n' + text, encoding="utf-8")
        home = os.environ.pop("PAPERSHELF_HOME")
        try:
            code, out, err = run_captured("list")
        finally:
            os.environ["PAPERSHELF_HOME"] = home
            self.config.write_text(text, encoding="utf-8")
        assert code == 0, err
        assert len(out.splitlines()) == 34  # the library the config named
        warnings = [line.removeprefix("papershelf: warning: ") for line in err.splitlines()]
        self.check_problems(warnings, "file")

    @invariant()
    def the_config_is_always_there_when_written(self) -> None:
        if self.written is not None:
            assert self.config.exists()


TestConfigMachine = ConfigMachine.TestCase
TestConfigMachine.settings = settings(
    max_examples=8,
    stateful_step_count=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
