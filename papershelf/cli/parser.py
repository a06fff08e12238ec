"""The command line of DESIGN §5, parsed by argparse alone.

Building all eleven sub-parsers costs ~10 ms (argparse looks up translations on disk for each
parser), a tenth of a `papershelf list`. So `parse` first lets a small argparse parser find the
command word, then builds the sub-parser of that command only; help, errors and the app (no
command) get the whole parser, so what they print never depends on this shortcut.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from papershelf.cli import output
from papershelf.cli.output import PROG
from papershelf.storage.model import STATUSES


class UsageError(Exception):
    """Bad command-line usage: reported with exit status 2."""


def _terminal_columns() -> int:
    """`shutil.get_terminal_size().columns`, without importing shutil."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        stdout = sys.__stdout__
        try:
            columns = os.get_terminal_size(stdout.fileno()).columns if stdout else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter at the width argparse picks, sized without `shutil`: argparse makes
    a formatter for every argument added, and shutil loads bz2 and lzma (a few ms of a `list`)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = _terminal_columns() - 2  # as HelpFormatter does with shutil's size
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting, so main() owns every exit path."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _add_db(parser: argparse.ArgumentParser, *, default: object = None) -> None:
    parser.add_argument(
        "--db",
        metavar="DIR",
        # A string, not a Path: Path("") is ".", and an empty --db must be refused, not
        # quietly taken for the current directory (`resolve_root` checks it).
        default=default,
        help="library directory (default: $PAPERSHELF_HOME, else the user data directory)",
    )


def positive_int(text: str) -> int:
    """An argparse `type`: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


class _VersionAction(argparse.Action):
    """`--version`, looking the version up only when asked: importlib.metadata is slow to load
    and would otherwise cost every `papershelf list` tens of milliseconds."""

    def __init__(self, option_strings: Sequence[str], dest: str, **_kwargs: object) -> None:
        super().__init__(
            option_strings,
            dest=argparse.SUPPRESS,
            default=argparse.SUPPRESS,
            nargs=0,
            help="show the program's version number and exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        output.line(f"{PROG} {_version()}")
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("papershelf")
    except PackageNotFoundError:
        return "unknown"


# -- one function per sub-command: its arguments ----------------------------------------------


def _import_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", type=Path, metavar="FILE")
    p.add_argument("--venue", help="venue for these papers (overrides the file's header)")
    p.add_argument(
        "--include-removed",
        action="store_true",
        help="bring back papers you removed (otherwise skipped) and forget they were removed",
    )


def _remove_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("refs", nargs="*", metavar="ID|NAME")
    p.add_argument(
        "--source",
        action="append",
        metavar="FILE",
        help="also remove every paper that came only from FILE (others just lose it); repeatable",
    )
    p.add_argument("--dry-run", action="store_true", help="say what would go; change nothing")


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "ids",
        nargs="+",
        metavar="ID",
        help="arXiv:2501.01234, 10.1145/..., openreview:ID, or their web addresses",
    )
    p.add_argument("--dry-run", action="store_true", help="fetch and show; write nothing")


def _list_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("query", nargs="*", metavar="QUERY", help="query words (see README)")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.add_argument("--limit", type=positive_int, metavar="N", help="print at most N papers")


def _show_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ref", metavar="ID|NAME")
    p.add_argument("--json", action="store_true", help="print a JSON object")


def _tag_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ref", metavar="ID|NAME")
    p.add_argument("changes", nargs="+", metavar="+TAG|-TAG")


def _note_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ref", metavar="ID|NAME")
    p.add_argument(
        "--edit",
        action="store_true",
        help="edit the note in $VISUAL or $EDITOR (else vi) and save it when the editor exits",
    )


def _status_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ref", metavar="ID|NAME")
    p.add_argument("status", choices=STATUSES)


def _export_arguments(p: argparse.ArgumentParser) -> None:
    from papershelf.storage.export.formats import FORMATS

    p.add_argument("query", nargs="*", metavar="QUERY")
    p.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="file to write (default, or -: stdout)"
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        help="default: from FILE's suffix (.md .bib .csv .json), else markdown",
    )
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")


def _no_arguments(p: argparse.ArgumentParser) -> None:
    pass


def _backup_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")


def _restore_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument(
        "--merge",
        action="store_true",
        help="merge FILE into the state, as sync does, instead of replacing it",
    )
    p.add_argument("--dry-run", action="store_true", help="with --merge: print, write nothing")


# -- sync (two machines, one reading list) ---------------------------------------------------


def _sync_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "other", type=Path, metavar="OTHER", help="another library directory or a backup file"
    )
    p.add_argument("--dry-run", action="store_true", help="print what would change, write nothing")


# -- end of sync ------------------------------------------------------------------------------


def _related_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ref", metavar="ID|NAME")
    p.add_argument("--limit", type=positive_int, default=10, metavar="N", help="default 10")
    p.add_argument("--json", action="store_true", help="print a JSON array")


COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "import": (
        "import papers: abstract lists (text, Markdown, JSON), BibTeX, RIS, CSL JSON, arXiv feeds,"
        " OpenReview notes",
        _import_arguments,
    ),
    "add": ("add papers by arXiv id, DOI or OpenReview link, from the public APIs", _add_arguments),
    "list": ("list papers matching a query (all papers without one)", _list_arguments),
    "show": ("show one paper", _show_arguments),
    "tag": ("add (+tag) and remove (-tag) tags", _tag_arguments),
    "status": ("set the reading status", _status_arguments),
    "note": ("print a paper's note, or edit it in your editor (--edit)", _note_arguments),
    "export": (
        "write the matching papers as a Markdown reading list, BibTeX, CSV or JSON",
        _export_arguments,
    ),
    "remove": ("remove papers (one step: undo brings them back)", _remove_arguments),
    "undo": (
        "take back the latest change to tags, status, stars, notes or papers removed",
        _no_arguments,
    ),
    "redo": ("do again the latest undone change", _no_arguments),
    "backup": ("save all tags, statuses, stars and notes to one JSON file", _backup_arguments),
    "restore": (
        "replace all tags, statuses, stars and notes with a backup's",
        _restore_arguments,
    ),
    "related": ("list the papers most like one paper", _related_arguments),
    "sync": (
        "merge another library (a synced folder, a git checkout) or a backup into this one",
        _sync_arguments,
    ),
}
"""Each sub-command's help line and the function that adds its arguments, in help order."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The CLI of DESIGN §5; `--db` is accepted before and after every sub-command.

    With `only`, the parser has that one sub-command (see the module's docstring).
    """
    parser = _Parser(
        prog=PROG,
        description="A keyboard-first reading list for research-paper abstracts. "
        "With no command, starts the app.",
        epilog=None if only is not None else _config_epilog(),
        allow_abbrev=False,
    )
    parser.add_argument("--version", action=_VersionAction)
    _add_db(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (help_text, add_arguments) in COMMANDS.items():
        if only is not None and name != only:
            continue
        p = sub.add_parser(name, help=help_text, description=help_text, allow_abbrev=False)
        # SUPPRESS as default, so that `--db` given before the command is not reset.
        _add_db(p, default=argparse.SUPPRESS)
        add_arguments(p)
    return parser


def _config_epilog() -> str:
    """Where the user's config file is: the whole parser's help says it (not each command's)."""
    from papershelf.storage.library.config import CONFIG_ENV, config_path

    return f"settings (theme, keys, default library, ...): {config_path()} (${CONFIG_ENV})"


def _find_command(argv: Sequence[str]) -> tuple[str, list[str]] | None:
    """The sub-command `argv` names and the words after it, found by argparse with the
    top-level options alone; None when the whole parser must see `argv`: no command, an
    unknown one, help, version, a usage error."""
    finder = _Parser(prog=PROG, add_help=False, allow_abbrev=False)
    # The options that exit print the whole parser's text: they make this answer None.
    finder.add_argument("-h", "--help", "--version", dest="exits", action="store_true")
    finder.add_argument("--db")
    finder.add_argument("command", nargs="?")
    finder.add_argument("rest", nargs=argparse.REMAINDER)
    try:
        found, _ = finder.parse_known_args(argv)
    except UsageError:
        return None
    if found.exits or found.command not in COMMANDS:
        return None
    return found.command, found.rest


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The arguments of one `papershelf` run; UsageError on bad usage."""
    found = _find_command(argv)
    if found is None:
        return build_parser().parse_args(argv)
    command, rest = found
    words = list(argv)
    if command == "tag":
        words[len(words) - len(rest) :] = _tag_changes_last(rest)
    return build_parser(only=command).parse_args(words)


def _tag_changes_last(words: list[str]) -> list[str]:
    """The words after `tag`, with the tag changes moved behind `--`, so that `tag REF -old`
    means "remove old" rather than an unknown option.

    argparse takes any `-word` for an option; `tag` has only `--db`, `--help`, and `-h` before
    the paper, which stay in front. (Handing argparse the `-word`s any other way, as unknown
    options or an argparse.REMAINDER, loses `--db` after the changes or `tag REF -hello`.)
    """
    options: list[str] = []
    changes: list[str] = []
    j = 0
    ended = False  # after a `--`, every word is a tag change
    while j < len(words):
        word = words[j]
        if ended:
            changes.append(word)
        elif word == "--db" and j + 1 < len(words):
            options += words[j : j + 2]
            j += 2
            continue
        elif word.startswith("--db=") or word == "--help" or (word == "-h" and not changes):
            # `-h` asks for help only before the paper is named: `tag RelGNN -h` removes #h.
            options.append(word)
        elif word == "--":
            ended = True
        else:
            changes.append(word)
        j += 1
    return [*options, "--", *changes]
