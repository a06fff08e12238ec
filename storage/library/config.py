"""The user's config file (`config.toml`): choices that hold for every library they open.

Where: `$PAPERSHELF_CONFIG` if set, else `config.toml` in the platform's user config directory
(platformdirs). Every key is optional::

    library = "~/papers"          # the library when neither --db nor $PAPERSHELF_HOME names one
    theme = "nord"                # the app's theme; the palette's "Change theme" writes it here
    sort = "name"                 # the order of a library where S was never pressed
    export_dir = "~/reading"      # where the app's export dialog proposes to write

    [columns]
    authors = true                # the list's authors column, in a library never toggled

    [keys]                        # binding id = key(s), as the help screen lists them
    "app.tag" = "ctrl+t"
    "list.down" = ["j", "down"]

It is read with the standard library's tomllib and checked here as far as pure Python can: an
unknown key, a value of the wrong type or out of range is one line in `Config.problems` (naming
the key) and is ignored; a file that is not TOML gives one line and the defaults. Whether a
binding id or a theme exists is the app's question (it knows its bindings and themes). Nothing
here ever raises while reading: a config is never worth refusing to start over.

Writing (`save_theme`) goes through tomlkit, which keeps the user's comments, order and layout,
and replaces the file atomically (`files.jsonstore.atomic_write`).
"""

from __future__ import annotations

import codecs
import os
import re
import reprlib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papershelf.storage.errors import SaveError
from papershelf.storage.files.readfile import read_regular

if TYPE_CHECKING:
    from papershelf.storage.library.settings import SortOrder

# The sort orders, as `library.settings.SORT_ORDERS` (a test checks they agree): importing
# settings would load TinyDB's storage (through jsonstore) into every `papershelf list`.
_SORT_ORDERS = ("library", "name", "venue", "status", "changed")

__all__ = [
    "CONFIG_ENV",
    "CONFIG_FILE",
    "Config",
    "config_path",
    "load_config",
    "parse_config",
    "save_theme",
]

CONFIG_ENV = "PAPERSHELF_CONFIG"
CONFIG_FILE = "config.toml"
MAX_BYTES = 256 * 1024
THEME_MAX = 100
KEY_MAX = 40
"""A key name's length at most (`ctrl+shift+pagedown` is 19)."""

# A Textual key name: printable ASCII without spaces or commas (commas separate keys).
_KEY_NAME = re.compile(rf"[!-+\--~]{{1,{KEY_MAX}}}")
_SHOWN_MAX = 40
_REPR = reprlib.Repr()
# A value nested thousands deep (a dotted key of 3,000 parts is legal TOML) would overflow
# repr's recursion: the message shows its first levels only.
_REPR.maxlevel = 3
_REPR.maxstring = _SHOWN_MAX


@dataclass(frozen=True, slots=True)
class Config:
    """What the config file says (None: not set), and its problems as one-line messages."""

    path: Path
    library: Path | None = None
    theme: str | None = None
    sort: SortOrder | None = None
    export_dir: Path | None = None
    authors_column: bool | None = None
    keys: Mapping[str, str] = field(default_factory=dict)
    """Binding id to Textual key string (`"j,down"`), for `App.set_keymap`."""
    problems: tuple[str, ...] = ()


def config_path() -> Path:
    """`$PAPERSHELF_CONFIG`, else `config.toml` in the platform's user config directory."""
    named = os.environ.get(CONFIG_ENV, "").strip()
    if named:
        try:
            return Path(named).expanduser()
        except RuntimeError:  # `~nouser`: no home to expand to; the read then says it is missing
            return Path(named)
    import platformdirs  # here: most commands never need the config directory

    return Path(platformdirs.user_config_dir("papershelf", appauthor=False)) / CONFIG_FILE


def load_config(path: Path | None = None) -> Config:
    """The config at `path` (default `config_path()`); a missing file is an empty config."""
    path = config_path() if path is None else Path(path)
    try:
        _, raw = read_regular(path, max_bytes=MAX_BYTES)
    except FileNotFoundError:
        return Config(path)
    except OSError as error:
        reason = error.strerror or str(error)
        return Config(path, problems=(f"{path}: cannot read the config ({reason}); ignored",))
    try:
        # utf-8-sig: a byte order mark (Notepad writes one) is not TOML, but is no mistake either.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return Config(path, problems=(f"{path}: the config is not UTF-8 text; ignored",))
    return parse_config(text, path)


def parse_config(text: str, path: Path) -> Config:
    """A Config from the file's text; every unusable entry becomes a problem and is skipped."""
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as error:
        # tomllib's message ends "(at line 3, column 7)": what the user needs to find it.
        reason = str(error).splitlines()[0] if str(error) else "not TOML"
        return Config(path, problems=(f"{path}: not valid TOML ({reason}); ignored",))
    reader = _Reader(path)
    values: dict[str, Any] = {}
    for key, value in data.items():
        check = _TOP_LEVEL.get(key)
        if check is None:
            reader.problem(key, f"unknown key (known: {', '.join(_TOP_LEVEL)})")
            continue
        checked = check(reader, key, value)
        if checked is not None:
            values.update(checked)
    return Config(path, problems=tuple(reader.problems), **values)


class _Reader:
    """Collects the problems of one file, each naming its key."""

    def __init__(self, path: Path) -> None:
        self.name = path.name
        self.problems: list[str] = []

    def problem(self, key: str, what: str) -> None:
        self.problems.append(f"{self.name}: {_shown_key(key)}: {what}; ignored")

    def wrong_type(self, key: str, wanted: str, value: object) -> None:
        self.problem(key, f"expected {wanted}, found {_type_name(value)} {_shown(value)}")


def _shown(value: object) -> str:
    """A value as the message shows it: short, on one line (repr: quotes and escapes)."""
    text = _REPR.repr(value)
    if len(text) > _SHOWN_MAX:
        text = text[: _SHOWN_MAX - 1] + "…"
    return text


def _shown_key(key: str) -> str:
    """A key as the message names it: as written when plain, else quoted like TOML would."""
    text = key if re.fullmatch(r"[A-Za-z0-9_.-]{1,60}", key) else repr(key)
    if len(text) > _SHOWN_MAX:
        text = text[: _SHOWN_MAX - 1] + "…"
    return text


def _type_name(value: object) -> str:
    return {
        str: "a string",
        bool: "true/false",
        int: "a number",
        float: "a number",
        list: "a list",
        dict: "a table",
    }.get(type(value), "a date or time")


def _string(reader: _Reader, key: str, value: object, limit: int = 4096) -> str | None:
    if not isinstance(value, str):
        reader.wrong_type(key, "a string", value)
        return None
    if not value.strip() or len(value) > limit:
        reader.problem(key, "empty" if not value.strip() else f"longer than {limit} characters")
        return None
    return value


def _directory(reader: _Reader, key: str, value: object) -> Path | None:
    text = _string(reader, key, value)
    if text is None:
        return None
    if "\0" in text:
        reader.problem(key, "a path cannot hold a NUL character")
        return None
    try:
        path = Path(text).expanduser()
    except RuntimeError:
        reader.problem(key, f"cannot expand {text.split('/', 1)[0]}: no such user")
        return None
    if not path.is_absolute():
        # Relative to what? The directory papershelf happens to start in would be a surprise.
        reader.problem(key, "write an absolute path (or one starting with ~)")
        return None
    return path


def _library(reader: _Reader, key: str, value: object) -> dict[str, Any] | None:
    path = _directory(reader, key, value)
    return None if path is None else {"library": path}


def _export_dir(reader: _Reader, key: str, value: object) -> dict[str, Any] | None:
    path = _directory(reader, key, value)
    return None if path is None else {"export_dir": path}


def _theme(reader: _Reader, key: str, value: object) -> dict[str, Any] | None:
    name = _string(reader, key, value, THEME_MAX)
    return None if name is None else {"theme": name}


def _sort(reader: _Reader, key: str, value: object) -> dict[str, Any] | None:
    if not isinstance(value, str):
        reader.wrong_type(key, "a string", value)
        return None
    if value not in _SORT_ORDERS:
        reader.problem(key, f"unknown order {_shown(value)} (use {', '.join(_SORT_ORDERS)})")
        return None
    return {"sort": value}


def _columns(reader: _Reader, key: str, value: object) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        reader.wrong_type(key, "a table ([columns])", value)
        return None
    found: dict[str, Any] = {}
    for name, shown in value.items():
        where = f"{key}.{name}"
        if name != "authors":
            reader.problem(where, "unknown column (known: authors)")
        elif not isinstance(shown, bool):
            reader.wrong_type(where, "true or false", shown)
        else:
            found["authors_column"] = shown
    return found


def _keys(reader: _Reader, key: str, value: object) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        reader.wrong_type(key, "a table ([keys])", value)
        return None
    keymap: dict[str, str] = {}
    for binding_id, keys in _flatten(value):
        where = f"{key}.{binding_id}"
        if isinstance(keys, str):
            names = [name.strip() for name in keys.split(",")]
        elif isinstance(keys, list) and all(isinstance(name, str) for name in keys):
            names = [name.strip() for name in keys]
        else:
            reader.wrong_type(where, 'a key ("g") or a list of keys (["j", "down"])', keys)
            continue
        bad = [name for name in names if not _KEY_NAME.fullmatch(name) or not _textual(name)]
        if not names or bad:
            shown = bad[0] if bad else ""
            hint = (
                " (write keys as Textual names them: ctrl+s, f2, pagedown, question_mark)"
                if _KEY_NAME.fullmatch(shown)  # another program's notation
                else ""
            )
            reader.problem(where, f"not a key name: {_shown(shown)}{hint}")
            continue
        keymap[binding_id] = ",".join(dict.fromkeys(map(_textual_case, names)))
    return {"keys": keymap}


# A word of a Textual key name (`ctrl`, `pagedown`, `question_mark`, `f13`): lower case, no `-`.
_KEY_WORD = re.compile(r"[a-z0-9_]+")


def _textual_case(name: str) -> str:
    """A key name in the case Textual gives keys: `Ctrl+S` is `ctrl+s`, `F2` `f2`; a single
    character (`X`, `*`) is that character, whatever its case."""
    return name if len(name) == 1 else name.lower()


def _textual(name: str) -> bool:
    """Whether `name` can be a Textual key name: each `+`-separated part one character or a
    word of them (`C-s`, `<C-s>`, `^S` and `M-x` are other programs' notations, never sent)."""
    if len(name) == 1:
        return True
    return all(len(part) <= 1 or _KEY_WORD.fullmatch(part) for part in name.lower().split("+"))


def _flatten(table: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """`app.tag = "g"` unquoted is the table {app: {tag: "g"}} in TOML: its dotted id again."""
    pairs: list[tuple[str, Any]] = []
    for name, value in table.items():
        if isinstance(value, dict) and len(prefix) < 200:
            pairs.extend(_flatten(value, f"{prefix}{name}."))
        else:
            pairs.append((f"{prefix}{name}", value))
    return pairs


_TOP_LEVEL: dict[str, Callable[[_Reader, str, Any], dict[str, Any] | None]] = {
    "library": _library,
    "theme": _theme,
    "sort": _sort,
    "export_dir": _export_dir,
    "columns": _columns,
    "keys": _keys,
}

_NEW_FILE = """\
# papershelf's settings for every library you open (see the README's "Settings").
"""


def save_theme(path: Path, theme: str) -> None:
    """Set `theme = "..."` in the config at `path`, keeping every other line and comment.

    Written atomically; a file that is not TOML is left alone. Raises SaveError (one line).
    """
    import tomlkit  # here: only a theme change writes the config
    from tomlkit.exceptions import TOMLKitError

    from papershelf.storage.files.jsonstore import atomic_write

    path = Path(path)
    try:
        _, raw = read_regular(path, max_bytes=MAX_BYTES)
    except FileNotFoundError:
        raw = _NEW_FILE.encode()
    except OSError as error:
        raise SaveError(f"{path}: cannot read the config: {error.strerror or error}") from None
    else:
        _check_writable(path)
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    try:
        document = tomlkit.parse(raw[len(bom) :].decode("utf-8"))
        document["theme"] = theme
        text = tomlkit.dumps(document)
        if raw[len(bom) :].split(b"\n", 1)[0].endswith(b"\r"):
            # A line tomlkit adds ends in LF: a file written with CRLF keeps CRLF throughout.
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    except (UnicodeDecodeError, TOMLKitError, RecursionError, ValueError):
        raise SaveError(f"{path}: not valid TOML, so not rewritten; fix it first") from None
    try:
        os.makedirs(path.parent, exist_ok=True)
    except OSError as error:
        raise SaveError(f"cannot create {path.parent}: {error.strerror or error}") from None
    atomic_write(path, bom + text.encode("utf-8"))  # the file's BOM, if any, stays


def _check_writable(path: Path) -> None:
    """SaveError when the file's permissions give no one write access (`chmod a-w`).

    The save replaces the file by rename, which only the directory's permissions govern (root
    is let through too): a file the user made read-only is theirs to keep as it is."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # the write itself says what is wrong
    if not mode & 0o222:
        raise SaveError(f"{path} is read-only, so not rewritten; make it writable (chmod u+w)")
