"""The user's config file: every bad entry is one line naming its key and is ignored, any TOML
document (or any bytes) is read without an exception, and the theme is written back with the
user's comments kept."""

from __future__ import annotations

import os
import tomllib
from datetime import date, datetime, time
from pathlib import Path

import pytest
import tomlkit
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.errors import SaveError
from papershelf.storage.library.config import (
    CONFIG_ENV,
    Config,
    config_path,
    load_config,
    parse_config,
    save_theme,
)

PATH = Path("/home/someone/.config/papershelf/config.toml")

GOOD = """\
# everything set, and set right
library = "/srv/papers"
theme = "nord"
sort = "venue"
export_dir = "~/reading"

[columns]
authors = true

[keys]
"app.tag" = "g"
list.down = ["j", "down", "j"]
"""


def test_a_good_file_gives_every_value_and_no_problem() -> None:
    config = parse_config(GOOD, PATH)
    assert config.problems == ()
    assert config.library == Path("/srv/papers")
    assert config.export_dir == Path("~/reading").expanduser()
    assert (config.theme, config.sort, config.authors_column) == ("nord", "venue", True)
    # An unquoted dotted id is a nested table in TOML: read back as the binding id; keys once.
    assert config.keys == {"app.tag": "g", "list.down": "j,down"}


def test_the_config_knows_the_sort_orders_settings_knows() -> None:
    from papershelf.storage.library import config
    from papershelf.storage.library.settings import SORT_ORDERS

    assert config._SORT_ORDERS == SORT_ORDERS


def test_reading_the_config_loads_neither_tinydb_nor_tomlkit() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from papershelf.storage.library.config import load_config; load_config(); "
        "print(sorted(m for m in ('tinydb', 'tomlkit') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_an_empty_or_missing_file_is_the_empty_config(tmp_path: Path) -> None:
    assert parse_config("", PATH) == Config(PATH)
    assert load_config(tmp_path / "none.toml") == Config(tmp_path / "none.toml")


@pytest.mark.parametrize(
    ("line", "key", "reason"),
    [
        ("theme = 3", "theme", "expected a string, found a number 3"),
        ('theme = ""', "theme", "empty"),
        ("sort = 'random'", "sort", "unknown order 'random' (use library, name, venue"),
        ("sort = true", "sort", "expected a string, found true/false True"),
        ("library = 'papers'", "library", "write an absolute path"),
        ("library = ['/a']", "library", "expected a string, found a list"),
        ("export_dir = 1979-05-27", "export_dir", "expected a string, found a date or time"),
        ("colour = 'red'", "colour", "unknown key (known: library, theme, sort"),
        ("columns = true", "columns", "expected a table ([columns])"),
        ("columns.authors = 'yes'", "columns.authors", "expected true or false, found a string"),
        ("columns.venue = true", "columns.venue", "unknown column (known: authors)"),
        ("keys = 'g'", "keys", "expected a table ([keys])"),
        ('keys."app.tag" = "a b"', "keys.app.tag", "not a key name: 'a b'"),
        ('keys."app.tag" = ""', "keys.app.tag", "not a key name: ''"),
        ('keys."app.tag" = []', "keys.app.tag", "not a key name: ''"),
        ('keys."app.tag" = 5', "keys.app.tag", "expected a key"),
        ('keys."app.tag" = ["g", 5]', "keys.app.tag", "expected a key"),
        ('"we\\u0007ird" = 1', "'we\\x07ird'", "unknown key"),
    ],
)
def test_a_bad_entry_is_one_line_naming_its_key_and_the_rest_is_kept(
    line: str, key: str, reason: str
) -> None:
    config = parse_config(f'sort = "name"\n{line}\n' if "sort" not in line else line, PATH)
    assert len(config.problems) == 1
    problem = config.problems[0]
    assert problem.startswith(f"config.toml: {key}: {reason}"), problem
    assert problem.endswith("; ignored") and "\n" not in problem
    assert problem.isprintable()
    if "sort" not in line:
        assert config.sort == "name"  # the good entry beside it still counts


def test_a_file_that_is_not_toml_is_one_line_with_its_place() -> None:
    config = parse_config('theme = "nord"\nsort = [\nx = 1\n', PATH)
    assert config == Config(PATH, problems=config.problems)
    assert len(config.problems) == 1
    assert config.problems[0].startswith(f"{PATH}: not valid TOML (")
    assert "line" in config.problems[0]


@pytest.mark.parametrize(
    ("content", "reason"),
    [(b"\xff\xfetheme = 1", "not UTF-8"), (b"x" * (300 * 1024), "cannot read the config")],
)
def test_unreadable_bytes_are_one_line(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(content)
    config = load_config(path)
    assert config.problems and reason in config.problems[0]
    assert config == Config(path, problems=config.problems)


def test_a_fifo_or_a_directory_is_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    assert "cannot read the config" in load_config(fifo).problems[0]
    assert "cannot read the config" in load_config(tmp_path).problems[0]


def test_the_path_is_the_variable_else_the_platform_config_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "mine.toml"))
    assert config_path() == tmp_path / "mine.toml"
    monkeypatch.delenv(CONFIG_ENV)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_path() == tmp_path / "xdg" / "papershelf" / "config.toml"


# -- any document -------------------------------------------------------------------------------

_SCALARS = st.one_of(
    st.text(max_size=20),
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.dates(min_value=date(1, 1, 1)),
    st.datetimes(min_value=datetime(1, 1, 1)),
    st.times().map(lambda t: time(t.hour, t.minute, t.second)),
)
_NAMES = st.one_of(
    st.sampled_from(
        ["library", "theme", "sort", "export_dir", "columns", "keys", "authors", "app", "tag"]
    ),
    st.text(max_size=12),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(_NAMES, inner, max_size=4)
    ),
    max_leaves=12,
)


@given(st.dictionaries(_NAMES, _VALUES, max_size=8))
def test_any_toml_document_is_read_without_an_exception(document: dict[str, object]) -> None:
    text = tomlkit.dumps(document)
    config = parse_config(text, PATH)
    assert tomllib.loads(text) is not None  # a real document, that tomllib reads too
    for problem in config.problems:
        assert problem.startswith("config.toml: ") and problem.endswith("; ignored")
        assert "\n" not in problem
    # Whatever was kept has the type the app relies on.
    assert config.theme is None or isinstance(config.theme, str)
    assert config.sort in (None, "library", "name", "venue", "status", "changed")
    assert config.authors_column in (None, True, False)
    assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in config.keys.items())
    for path in (config.library, config.export_dir):
        assert path is None or path.is_absolute()
    # Every entry of the document was kept or named in a problem: nothing is silently dropped.
    assert len(config.problems) <= _entries(document)


def _entries(document: object) -> int:
    if isinstance(document, dict):
        return sum(max(1, _entries(value)) for value in document.values())
    return 1


@given(st.text(max_size=200))
def test_any_text_is_read_without_an_exception(text: str) -> None:
    config = parse_config(text, PATH)
    assert all("\n" not in problem for problem in config.problems)


@given(st.binary(max_size=200))
def test_any_bytes_are_read_without_an_exception(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "config.toml"
        path.write_bytes(data)
        config = load_config(path)
    assert all("\n" not in problem for problem in config.problems)


# -- writing the theme --------------------------------------------------------------------------


def test_the_theme_is_written_with_every_comment_kept(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(GOOD)
    save_theme(path, "dracula")
    text = path.read_text()
    assert text == GOOD.replace('theme = "nord"', 'theme = "dracula"')
    assert parse_config(text, path).theme == "dracula"
    assert not list(tmp_path.glob("*.tmp"))


def test_a_theme_is_added_before_the_tables(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('# mine\n[keys]\n# tag with g\n"app.tag" = "g"\n')
    save_theme(path, "nord")
    config = load_config(path)
    assert (config.theme, config.keys, config.problems) == ("nord", {"app.tag": "g"}, ())
    assert "# mine" in path.read_text() and "# tag with g" in path.read_text()


def test_a_new_config_is_created_with_its_directory(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "papershelf" / "config.toml"
    save_theme(path, "nord")
    assert load_config(path).theme == "nord"
    assert path.read_text().startswith("# papershelf's settings")


def test_a_file_that_is_not_toml_is_never_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("theme = [\n# my notes\n")
    with pytest.raises(SaveError, match="not valid TOML, so not rewritten"):
        save_theme(path, "nord")
    assert path.read_text() == "theme = [\n# my notes\n"


def test_a_config_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(SaveError) as raised:
        save_theme(blocker / "config.toml", "nord")
    assert "\n" not in str(raised.value)


@given(
    st.dictionaries(_NAMES, _VALUES, max_size=6),
    st.lists(st.text(min_size=1, max_size=20), min_size=1, max_size=3),
)
def test_saving_themes_changes_the_theme_only(document: dict[str, object], themes: list[str]):
    import tempfile

    original = "# kept comment\n" + tomlkit.dumps(document)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "config.toml"
        path.write_text(original, encoding="utf-8")
        for theme in themes:
            save_theme(path, theme)
        text = path.read_text(encoding="utf-8")
    assert text.startswith("# kept comment\n")
    assert tomllib.loads(text) == {**tomllib.loads(original), "theme": themes[-1]}


# -- found by an attacker pass (attack15) -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # A dotted key 3,000 tables deep: tomllib reads it, and the message once shown it whole.
        ("keys." + ".".join(["a"] * 3000) + ' = "x"\n', "keys.a.a.a"),
        ("columns." + ".".join(["a"] * 3000) + " = 1\n", "columns.a"),
        ("theme." + ".".join(["a"] * 3000) + " = 1\n", "theme"),
    ],
    ids=["keys", "columns", "theme"],
)
def test_a_table_nested_thousands_deep_is_one_line(text: str, key: str) -> None:
    config = parse_config(text, PATH)
    assert len(config.problems) == 1
    problem = config.problems[0]
    assert problem.startswith("config.toml: ") and problem.endswith("; ignored")
    assert key in problem and len(problem) < 300


def test_a_byte_order_mark_is_read_past_and_kept_on_save(tmp_path: Path) -> None:
    # Notepad and some editors start a UTF-8 file with a BOM: tomllib calls that an invalid
    # statement at line 1, column 1, in a file that looks right in every editor.
    path = tmp_path / "config.toml"
    path.write_bytes(b'\xef\xbb\xbf# mine\ntheme = "nord"\nsort = "name"\n')
    config = load_config(path)
    assert (config.theme, config.sort, config.problems) == ("nord", "name", ())
    save_theme(path, "dracula")
    assert path.read_bytes() == b'\xef\xbb\xbf# mine\ntheme = "dracula"\nsort = "name"\n'
    assert load_config(path).theme == "dracula"


def test_a_crlf_file_keeps_crlf_line_ends(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b'# mine\r\nlibrary = "/srv/papers"\r\n\r\n[keys]\r\n"app.star" = "x"\r\n')
    save_theme(path, "nord")
    written = path.read_bytes()
    assert b"\n" not in written.replace(b"\r\n", b""), written  # no line ends of two kinds
    config = load_config(path)
    assert (config.theme, config.keys, config.problems) == ("nord", {"app.star": "x"}, ())


def test_a_read_only_config_is_not_rewritten(tmp_path: Path) -> None:
    # chmod a-w says "do not write this": replacing the file by rename (which a writable
    # directory allows, even to its owner) would ignore that.
    path = tmp_path / "config.toml"
    path.write_text('theme = "nord"  # fixed on purpose\n')
    path.chmod(0o444)
    with pytest.raises(SaveError, match="read-only") as raised:
        save_theme(path, "dracula")
    assert "\n" not in str(raised.value)
    assert path.read_text() == 'theme = "nord"  # fixed on purpose\n'


def test_key_names_are_read_in_textual_s_case() -> None:
    # Found by an attacker pass: "Ctrl+S", "F2" or "Enter" were taken as written, Textual never
    # sends them (its names are lower case), and the binding lost its key without a word.
    config = parse_config(
        '[keys]\n"note.save" = "Ctrl+S"\n"app.star" = ["F2", "Enter", "X", "shift+Tab"]\n', PATH
    )
    assert config.problems == ()
    assert config.keys == {"note.save": "ctrl+s", "app.star": "f2,enter,X,shift+tab"}


@pytest.mark.parametrize("name", ["C-s", "ctrl-s", "<C-s>", "^S", "M-x", "page down"])
def test_a_key_written_in_another_program_s_notation_is_one_line(name: str) -> None:
    config = parse_config(f'[keys]\n"app.tag" = "{name}"\n"app.star" = "x"\n', PATH)
    assert config.keys == {"app.star": "x"}
    assert len(config.problems) == 1
    assert config.problems[0].startswith(f"config.toml: keys.app.tag: not a key name: {name!r}")
