"""The `papershelf` command: the app with no sub-command, a scriptable library with one.

Only starting the app imports Textual, so `papershelf list` stays a quick process: it answers
from `listing.cache` and state.json alone when it can (`storage.listing`), without opening the
Library, and commands that only read open it without the lock (`Library.open(read_only=True)`).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from storage.errors import PapershelfError
from storage.model import STATUSES, Entry, Paper, normalise_tag

if TYPE_CHECKING:
    from storage.library import Library
    from storage.listing import ListedPaper
    from storage.query import Hit

EXIT_OK = 0
EXIT_USER_ERROR = 1
EXIT_USAGE = 2

PROG = "papershelf"


class UsageError(Exception):
    """Bad command-line usage: reported with exit status 2."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting, so main() owns every exit path."""

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


def build_parser() -> argparse.ArgumentParser:
    """The CLI of DESIGN §5; `--db` is accepted before and after every sub-command."""
    parser = _Parser(
        prog=PROG,
        description="A keyboard-first reading list for research-paper abstracts. "
        "With no command, starts the app.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action=_VersionAction)
    _add_db(parser)
    # Sub-parsers get SUPPRESS as default, so `--db` given before the command is not reset.
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text, allow_abbrev=False)
        _add_db(p, default=argparse.SUPPRESS)
        return p

    p = command("import", "import abstract lists (text, Markdown, JSON, JSON Lines)")
    p.add_argument("files", nargs="+", type=Path, metavar="FILE")
    p.add_argument("--venue", help="venue for these papers (overrides the file's header)")

    p = command("list", "list papers matching a query (all papers without one)")
    p.add_argument("query", nargs="*", metavar="QUERY", help="query words (see README)")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.add_argument("--limit", type=_positive_int, metavar="N", help="print at most N papers")

    p = command("show", "show one paper")
    p.add_argument("ref", metavar="ID|NAME")
    p.add_argument("--json", action="store_true", help="print a JSON object")

    p = command("tag", "add (+tag) and remove (-tag) tags")
    p.add_argument("ref", metavar="ID|NAME")
    p.add_argument("changes", nargs="+", metavar="+TAG|-TAG")

    p = command("status", "set the reading status")
    p.add_argument("ref", metavar="ID|NAME")
    p.add_argument("status", choices=STATUSES)

    p = command("export", "write the matching papers as a Markdown reading list, grouped by tag")
    p.add_argument("query", nargs="*", metavar="QUERY")
    p.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="file to write (default: stdout)"
    )
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")

    command("undo", "take back the latest change to tags, status, stars or notes")
    command("redo", "do again the latest undone change")

    p = command("backup", "save all tags, statuses, stars and notes to one JSON file")
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")

    p = command("restore", "replace all tags, statuses, stars and notes with a backup's")
    p.add_argument("file", type=Path, metavar="FILE")

    p = command("related", "list the papers most like one paper")
    p.add_argument("ref", metavar="ID|NAME")
    p.add_argument("--limit", type=_positive_int, default=10, metavar="N", help="default 10")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    return parser


def _positive_int(text: str) -> int:
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
        print(f"{PROG} {_version()}")
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("papershelf")
    except PackageNotFoundError:
        return "unknown"


def _protect_tag_changes(argv: list[str]) -> list[str]:
    """Let `tag REF -old` mean "remove old" rather than an unknown option.

    argparse takes any `-word` for an option, so the tag changes are moved behind `--`, with the
    options that `tag` really has (`--db`, `-h`) kept in front.
    """
    # Find the sub-command: the first word that is neither an option nor the value of --db.
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--db":
            i += 2
            continue
        if word.startswith("-"):
            i += 1
            continue
        break
    if i >= len(argv) or argv[i] != "tag":
        return argv
    head, rest = argv[: i + 1], argv[i + 1 :]
    options: list[str] = []
    words: list[str] = []
    j = 0
    while j < len(rest):
        word = rest[j]
        if word == "--db" and j + 1 < len(rest):
            options += rest[j : j + 2]
            j += 2
            continue
        if word.startswith("--db=") or word in ("-h", "--help"):
            options.append(word)
        elif word != "--":
            words.append(word)
        j += 1
    return [*head, *options, "--", *words]


def _quick_list_args(argv: Sequence[str]) -> argparse.Namespace | None:
    """The arguments of a plain `list` (`[--db DIR] list [--db DIR] [--limit N] [WORD...]`),
    found without building the parser (~10 ms of a ~100 ms `list`); None for anything else,
    which `build_parser()` then parses, errors and help included.

    Accepts only what argparse parses to the same values: options before the command and
    around one run of query words, no word starting with `-`, valid option values.
    """
    db: str | None = None
    limit: int | None = None
    words: list[str] = []
    seen_command = done_words = False
    i = 0
    while i < len(argv):
        word = argv[i]
        if not word.startswith("-"):
            if not seen_command:
                if word != "list":
                    return None
                seen_command = True
            elif done_words:
                return None  # a second run of words: argparse rejects it
            else:
                words.append(word)
            i += 1
            continue
        if words:
            done_words = True
        name, has_value, value = word.partition("=")
        if not has_value:
            if i + 1 >= len(argv) or argv[i + 1].startswith("-"):
                return None
            value = argv[i + 1]
        if name == "--db":
            db = value
        elif name == "--limit" and seen_command:
            try:
                limit = _positive_int(value)
            except argparse.ArgumentTypeError:
                return None
        else:
            return None
        i += 1 if has_value else 2
    if not seen_command:
        return None
    return argparse.Namespace(db=db, command="list", query=words, json=False, limit=limit)


# -- commands ---------------------------------------------------------------------------------


def _open(args: argparse.Namespace, *, seed: bool = True, read_only: bool = False) -> Library:
    from storage.library import Library

    return Library.open(args.db, seed=seed, read_only=read_only)


def cmd_import(args: argparse.Namespace) -> int:
    """Import files; one line per file, errors on stderr; exit 1 when any file failed.

    A Markdown list papershelf exported (it holds `<!-- papershelf:ID -->` comments) is applied
    as an edited reading list (ticks and tag changes; see `storage.roundtrip`) instead.
    """
    from storage.ingest_text import clean_name
    from storage.roundtrip import is_reading_list

    library = _open(args, seed=False)
    before = len(library.papers())
    lists = {i for i, path in enumerate(args.files) if is_reading_list(path)}
    plain = [path for i, path in enumerate(args.files) if i not in lists]
    progress = _progress_printer(len(plain)) if plain and sys.stderr.isatty() else None
    reports = iter(library.import_files(plain, venue=args.venue, progress=progress))
    failed = 0
    for i, path in enumerate(args.files):
        if i in lists:
            failed += not _apply_reading_list(library, path)
            continue
        report = next(reports)
        if report.error:
            failed += 1
            # File names are cleaned by ingest; cleaned again here so none reaches the terminal
            # with a newline or ESC whatever made the report.
            print(f"{PROG}: {clean_name(report.error)}", file=sys.stderr)
        else:
            print(
                f"{clean_name(report.source)}: {report.added} added, "
                f"{report.duplicates} duplicates, "
                f"{report.skipped} skipped"
            )
    if plain:
        total = len(library.papers())
        print(f"{plural(total - before, 'new paper')}; the library holds {plural(total, 'paper')}.")
    return EXIT_USER_ERROR if failed else EXIT_OK


def _apply_reading_list(library: Library, path: Path) -> bool:
    """Apply one edited reading list and report it; False (message on stderr) when it failed."""
    from storage.ingest_text import clean_name
    from storage.roundtrip import import_reading_list

    try:
        report = import_reading_list(library, path)
    except PapershelfError as error:
        print(f"{PROG}: {clean_name(str(error))}", file=sys.stderr)
        return False
    plan = report.plan
    parts = [f"{plural(report.changed, 'paper')} changed", f"{plan.unchanged} unchanged"]
    if plan.unknown:
        parts.append(f"{len(plan.unknown)} not in this library")
    if plan.unmatched:
        parts.append(f"{len(plan.unmatched)} items without a papershelf id skipped")
    print(f"{clean_name(report.source)}: reading list: {', '.join(parts)}")
    for line in plan.summary_lines():
        print(f"  {line}")
    return True


def plural(count: int, noun: str) -> str:
    """`1 paper`, `2 papers`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _progress_printer(total: int) -> Callable[[int, int], None]:
    def report(done: int, of: int) -> None:
        end = "\n" if done >= of else ""
        print(f"\rimporting: {done}/{of} files", end=end, file=sys.stderr, flush=True)

    return report


def _search(library: Library, words: Sequence[str]) -> list[Hit]:
    """Run a query; the index comes from the library's cache file (rebuilt when stale), and
    the listing cache is written for the next `list` (see `storage.listing.open_engine`)."""
    from storage.listing import open_engine
    from storage.query import parse_query

    query = parse_query(" ".join(words))
    query.check()  # an unknown `is:` value is the user's error, not an empty result
    engine = open_engine(library.root, library.papers_key, library.papers())
    return engine.search(query, library.entries())


def _print_json(value: object) -> None:
    import json  # here: `list` without --json prints lines and need not load it

    print(json.dumps(value, ensure_ascii=False, indent=2))


def paper_json(paper: Paper, entry: Entry, score: float | None) -> dict[str, object]:
    """The JSON object of the CLI contract (DESIGN §5), with exactly its keys."""
    return {
        "id": paper.id,
        "name": paper.name,
        "title": paper.title,
        "venue": paper.venue,
        "tags": sorted(entry.tags),
        "status": entry.status,
        "starred": entry.starred,
        "code_urls": list(paper.code_urls),
        "links": list(paper.links),
        "abstract": paper.abstract,
        "sources": list(paper.sources),
        "score": score,
    }


def _summary_line(paper: Paper | ListedPaper, entry: Entry) -> str:
    parts = [paper.id, paper.name]
    if paper.title and paper.title != paper.name:
        parts.append(f"— {paper.title}")
    if paper.venue:
        parts.append(f"[{paper.venue}]")
    parts.extend(f"#{tag}" for tag in sorted(entry.tags))
    if entry.status != "unread":
        parts.append(f"({entry.status})")
    if entry.starred:
        parts.append("★")
    return "  ".join(parts[:2]) + ("  " + " ".join(parts[2:]) if parts[2:] else "")


def cmd_list(args: argparse.Namespace) -> int:
    """Ranked results of the query language, as lines or as a JSON array."""
    # Tens of thousands of objects made and none freed early: collecting cycles meanwhile
    # would only re-scan them (~10 ms at 10k papers).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _list(args)
    finally:
        if collecting:
            gc.enable()


def _list(args: argparse.Namespace) -> int:
    if not args.json:
        status = _list_from_listing(args)
        if status is not None:
            return status
    library = _open(args, read_only=True)
    hits = _search(library, args.query)
    if args.limit is not None:
        hits = hits[: args.limit]
    if args.json:
        rows = [
            paper_json(library.get(hit.paper_id), library.entry(hit.paper_id), hit.score)
            for hit in hits
        ]
        _print_json(rows)
        return EXIT_OK
    out = sys.stdout
    for hit in hits:
        out.write(_summary_line(library.get(hit.paper_id), library.entry(hit.paper_id)) + "\n")
    if not hits and sys.stderr.isatty():
        print("no papers match", file=sys.stderr)
    return EXIT_OK


def _list_from_listing(args: argparse.Namespace) -> int | None:
    """`list` (lines) from listing.cache and state.json, read without the Library or a lock.

    None when they cannot answer as they are (no or a stale listing, an empty library that
    the full path seeds, a state.json the Library must report on): the full path then prints
    exactly what this would have printed.
    """
    from storage import listing
    from storage.listing_state import STATE_FILE, read_entries, resolve_root
    from storage.query import parse_query

    root = resolve_root(args.db)
    shelf = listing.load(root)
    if shelf is None:
        return None
    with shelf:
        entries = read_entries(root / STATE_FILE)
        if entries is None or not shelf.papers:
            return None
        query = parse_query(" ".join(args.query))
        query.check()  # an unknown `is:` value is the user's error, not an empty result
        try:
            order = shelf.engine().results(query, entries).indices
        except listing.ListingUnusable:
            return None
    papers = shelf.papers
    if args.limit is not None:
        order = order[: args.limit]
    _write_lines(papers, order, entries)
    if not order and sys.stderr.isatty():
        print("no papers match", file=sys.stderr)
    return EXIT_OK


def _write_lines(
    papers: Sequence[ListedPaper], order: Sequence[int], entries: Mapping[str, Entry]
) -> None:
    default = Entry()
    lines = [
        _summary_line(paper, entries.get(paper.id, default))
        for paper in map(papers.__getitem__, order)
    ]
    sys.stdout.write("".join(line + "\n" for line in lines))


def cmd_show(args: argparse.Namespace) -> int:
    """One paper in full."""
    library = _open(args, read_only=True)
    paper = library.find(args.ref)
    entry = library.entry(paper.id)
    if args.json:
        _print_json(paper_json(paper, entry, None))
        return EXIT_OK
    from storage.ingest_text import clean_name
    from storage.latex import display_text

    lines = [paper.name]
    if paper.title:
        lines.append(paper.title)
    lines.append("")
    fields = [
        ("id", paper.id),
        ("venue", paper.venue or "—"),
        # Sources are file names, maybe stored before ingest cleaned them.
        ("sources", ", ".join(map(clean_name, paper.sources))),
        ("status", entry.status + (" ★" if entry.starred else "")),
        ("tags", " ".join(f"#{t}" for t in sorted(entry.tags)) or "—"),
    ]
    fields += [("code", url) for url in paper.code_urls]
    fields += [("link", url) for url in paper.links]
    if paper.url:
        fields.append(("page", paper.url))
    lines += [f"{key:>8}: {value}" for key, value in fields]
    if entry.note:
        lines += ["", "Note:", entry.note]
    lines += ["", display_text(paper.abstract).text]
    print("\n".join(lines))
    return EXIT_OK


def cmd_tag(args: argparse.Namespace) -> int:
    """Apply +tag/-tag changes, then print the paper's tags."""
    add: list[str] = []
    remove: list[str] = []
    for change in args.changes:
        if change[:1] not in ("+", "-") or len(change) < 2:
            raise UsageError(f"{PROG} tag: write +TAG to add or -TAG to remove, not {change!r}")
        try:
            tag = normalise_tag(change[1:])
        except ValueError as error:
            raise UsageError(f"{PROG} tag: {error}") from None
        (add if change[0] == "+" else remove).append(tag)
    library = _open(args)
    paper = library.find(args.ref)
    library.tag([paper.id], add=add, remove=remove)
    tags = " ".join(f"#{t}" for t in sorted(library.entry(paper.id).tags)) or "(no tags)"
    print(f"{paper.name}: {tags}")
    return EXIT_OK


def cmd_status(args: argparse.Namespace) -> int:
    """Set the reading status of one paper."""
    library = _open(args)
    paper = library.find(args.ref)
    library.set_status([paper.id], args.status)
    print(f"{paper.name}: {args.status}")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    """Markdown reading list of the matching papers, to stdout or a file."""
    from datetime import date

    from storage.export import ExportItem, to_markdown, write_export

    library = _open(args, read_only=True)
    hits = _search(library, args.query)
    items = [ExportItem(library.get(h.paper_id), library.entry(h.paper_id)) for h in hits]
    query = " ".join(args.query)
    title = f"Reading list: {query}" if query else "Reading list"
    text = to_markdown(items, title=title, today=date.today())
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_OK
    path = write_export(args.output, text, overwrite=args.force)
    print(f"wrote {plural(len(items), 'paper')} to {path}")
    return EXIT_OK


def cmd_undo(args: argparse.Namespace) -> int:
    """Take back the latest change; print what it was."""
    return _history_step(args, "undo", "undone")


def cmd_redo(args: argparse.Namespace) -> int:
    """Do again the latest undone change; print what it was."""
    return _history_step(args, "redo", "redone")


def _history_step(args: argparse.Namespace, step: str, done: str) -> int:
    library = _open(args, seed=False)
    message = library.undo() if step == "undo" else library.redo()
    _journal_notice(library)
    print(f"{done}: {message}" if message is not None else f"nothing to {step}")
    return EXIT_OK


def _journal_notice(library: Library) -> None:
    if library.journal_notice:
        print(f"{PROG}: warning: {library.journal_notice}", file=sys.stderr)


def cmd_backup(args: argparse.Namespace) -> int:
    """Write the whole user state to FILE."""
    from storage.userstate import write_backup

    library = _open(args, seed=False)
    count = write_backup(library, args.file, force=args.force)
    print(f"saved the state of {plural(count, 'paper')} to {args.file}")
    return EXIT_OK


def cmd_restore(args: argparse.Namespace) -> int:
    """Replace the whole user state with FILE's (one undoable step)."""
    from storage.userstate import restore_backup

    library = _open(args, seed=False)
    report = restore_backup(library, args.file)
    line = (
        f"restored {args.file}: {plural(report.entries, 'paper')} with tags, status, "
        f"stars or notes; {plural(report.changed, 'paper')} changed"
    )
    if report.absent:
        line += f"; {report.absent} kept for papers not in this library"
    print(line + " (papershelf undo takes it back)")
    return EXIT_OK


def cmd_related(args: argparse.Namespace) -> int:
    """The papers most like one paper, best first."""
    from storage.related_cache import load_or_build

    library = _open(args, read_only=True)
    paper = library.find(args.ref)
    # The index saved in the library when it is the papers' (tens of ms), else built (seconds)
    # and saved for the next call.
    index, _ = load_or_build(library.root, library.papers_key, library.papers())
    found = index.related(paper.id, k=args.limit)
    if args.json:
        rows = [paper_json(library.get(pid), library.entry(pid), score) for pid, score in found]
        _print_json(rows)
        return EXIT_OK
    for pid, score in found:
        print(f"{score:.3f}  {_summary_line(library.get(pid), library.entry(pid))}")
    if not found and sys.stderr.isatty():
        print(f"no paper shares enough words with {paper.name}", file=sys.stderr)
    return EXIT_OK


def run_app(args: argparse.Namespace) -> int:
    """Open the library (seeding it on a first run) and start the Textual app."""
    library = _open(args)
    from tui.app import PapershelfApp

    # The library's papers live as long as the app: keep them out of the cyclic garbage
    # collector's full passes, which otherwise pause the interface for tens of milliseconds.
    gc.freeze()
    PapershelfApp(library).run()
    return EXIT_OK


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "import": cmd_import,
    "list": cmd_list,
    "show": cmd_show,
    "tag": cmd_tag,
    "status": cmd_status,
    "export": cmd_export,
    "undo": cmd_undo,
    "redo": cmd_redo,
    "backup": cmd_backup,
    "restore": cmd_restore,
    "related": cmd_related,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `papershelf` console script; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _quick_list_args(words)
        if args is None:
            args = build_parser().parse_args(_protect_tag_changes(words))
        handler = COMMANDS.get(args.command or "", run_app)
        return handler(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        print(f"Try '{PROG} --help' for more information.", file=sys.stderr)
        return EXIT_USAGE
    except PapershelfError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:
        # `papershelf list | head`: the reader left; quietly stop writing.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except OSError as error:
        # A file the user named could not be written or read: one line, no traceback.
        where = f"{error.filename}: " if error.filename else ""
        print(f"{PROG}: {where}{error.strerror or error}", file=sys.stderr)
        return EXIT_USER_ERROR


if __name__ == "__main__":
    sys.exit(main())
