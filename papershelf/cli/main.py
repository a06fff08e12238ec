"""The `papershelf` command: the app with no sub-command, a scriptable library with one.

Only starting the app imports Textual, so `papershelf list` stays a quick process: it answers
from `listing.cache` and state.json alone when it can (`storage.search.listing`), without
opening the Library, and commands that only read open it without the lock
(`Library.open(read_only=True)`).

Every message goes out through `papershelf.cli.output`, which keeps control characters in paper
text, file names and errors from reaching the terminal; after the command, what each opened library
has to tell (`Library.take_notices`, a failed save of the undo history) is printed as warnings.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from papershelf.cli import output
from papershelf.cli.output import PROG
from papershelf.storage.errors import PapershelfError
from papershelf.storage.model import STATUSES, Entry, Paper, normalise_tag
from papershelf.storage.text.titles import display_title

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library
    from papershelf.storage.search.engine import Hit
    from papershelf.storage.search.listing import ListedPaper

EXIT_OK = 0
EXIT_USER_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70
"""The command could not finish (a bug, or out of memory; sysexits' EX_SOFTWARE): reported in
one line, never as a traceback."""


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
        "-o", "--output", type=Path, metavar="FILE", help="file to write (default, or -: stdout)"
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
        output.line(f"{PROG} {_version()}")
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
    options that `tag` really has (`--db`, `--help`, and `-h` before the paper) kept in front.
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
    ended = False  # after a `--`, every word is a tag change
    while j < len(rest):
        word = rest[j]
        if ended:
            words.append(word)
        elif word == "--db" and j + 1 < len(rest):
            options += rest[j : j + 2]
            j += 2
            continue
        elif word.startswith("--db=") or word == "--help" or (word == "-h" and not words):
            # `-h` asks for help only before the paper is named: `tag RelGNN -h` removes #h.
            options.append(word)
        elif word == "--":
            ended = True
        else:
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


def _open(
    args: argparse.Namespace, *, read_only: bool = False, create: bool = False, seed: bool = False
) -> Library:
    """Open the library of `--db`; `main` reports its notices once the command is done.

    Only `import` and the app (`create`) may start a library: any other command on a directory
    that holds none (a mistyped `--db`) says so and exits 1 instead of seeding a new one.
    """
    from papershelf.storage.library.library import Library

    library = Library.open(args.db, seed=seed, read_only=read_only, create=create)
    args.opened.append(library)
    return library


def cmd_import(args: argparse.Namespace) -> int:
    """Import files; one line per file, errors on stderr; exit 1 when any file failed.

    A Markdown list papershelf exported (it holds `<!-- papershelf:ID -->` comments) is applied
    as an edited reading list (ticks and tag changes; see `storage.export.roundtrip`) instead.
    """
    from papershelf.storage.export.roundtrip import is_reading_list

    library = _open(args, create=True)
    lists = {i for i, path in enumerate(args.files) if is_reading_list(path)}
    plain = [path for i, path in enumerate(args.files) if i not in lists]
    progress = _progress_printer(len(plain)) if plain and sys.stderr.isatty() else None
    reports = iter(library.import_files(plain, venue=args.venue, progress=progress))
    failed = added = 0
    for i, path in enumerate(args.files):
        if i in lists:
            failed += not _apply_reading_list(library, path)
            continue
        report = next(reports)
        added += report.added
        if report.error:
            failed += 1
            output.error(report.error)
        else:
            output.line(
                f"{report.source}: {report.added} added, {report.duplicates} duplicates, "
                f"{report.skipped} skipped"
            )
    if plain:
        # The reports' own counts: the library's size before may have been read from a
        # papers.json found damaged since, or grown by another process's import meanwhile.
        total = len(library.papers())
        output.line(f"{plural(added, 'new paper')}; the library holds {plural(total, 'paper')}.")
    return EXIT_USER_ERROR if failed else EXIT_OK


def _apply_reading_list(library: Library, path: Path) -> bool:
    """Apply one edited reading list and report it; False (message on stderr) when it failed."""
    from papershelf.storage.export.roundtrip import import_reading_list

    try:
        report = import_reading_list(library, path)
    except PapershelfError as error:
        output.error(str(error))
        return False
    plan = report.plan
    parts = [f"{plural(report.changed, 'paper')} changed", f"{plan.unchanged} unchanged"]
    if plan.unknown:
        parts.append(f"{len(plan.unknown)} not in this library")
    if plan.unmatched:
        parts.append(f"{len(plan.unmatched)} items without a papershelf id skipped")
    output.line(f"{report.source}: reading list: {', '.join(parts)}")
    output.lines([f"  {line}" for line in plan.summary_lines()])
    return True


def plural(count: int, noun: str) -> str:
    """`1 paper`, `2 papers`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _progress_printer(total: int) -> Callable[[int, int], None]:
    def report(done: int, of: int) -> None:
        output.progress(f"importing: {done}/{of} files", done=done >= of)

    return report


def _search(library: Library, words: Sequence[str], *, listing_failed: bool = False) -> list[Hit]:
    """Run a query; the index comes from the library's cache file (rebuilt when stale), and
    the listing cache is written for the next `list` when it is missing, stale or was found
    unusable (see `papershelf.storage.search.listing.open_engine`)."""
    from papershelf.storage.search.engine import parse_query
    from papershelf.storage.search.listing import open_engine

    query = parse_query(" ".join(words))
    query.check()  # an unknown `is:` value is the user's error, not an empty result
    engine = open_engine(
        library.root, library.papers_key, library.papers(), listing_failed=listing_failed
    )
    hits = engine.search(query, library.entries())
    if query.notice:
        output.warning(query.notice)
    return hits


def _print_json(value: object) -> None:
    output.json_block(value)


def paper_json(paper: Paper, entry: Entry, score: float | None) -> dict[str, object]:
    """One paper as `list --json`, `show --json` and `related --json` print it: everything
    `show` prints, under the keys the README's schema documents."""
    return {
        "id": paper.id,
        "name": paper.name,
        "title": display_title(paper.title) or None,  # as shown (LaTeX as Unicode)
        "authors": list(paper.authors),
        "venue": paper.venue,
        "tags": sorted(entry.tags),
        "status": entry.status,
        "starred": entry.starred,
        "note": entry.note,
        "changed_at": entry.updated_at,
        "imported_at": paper.imported_at or None,
        "url": paper.url,
        "code_urls": list(paper.code_urls),
        # The paper's own page is a link too (issue 11); `url` still says which one it is.
        "links": list(paper.links_with_page),
        "abstract": paper.abstract,
        "sources": list(paper.sources),
        "score": score,
    }


def _summary_line(paper: Paper | ListedPaper, entry: Entry) -> str:
    from papershelf.storage.text.headings import heading

    head, title = heading(paper.name, paper.title)
    # Two spaces between the id, the heading (with its title) and the rest, whichever form.
    line = f"{paper.id}  {head}" + (f"  — {title}" if title else "")
    rest = [f"[{paper.venue}]"] if paper.venue else []
    rest.extend(f"#{tag}" for tag in sorted(entry.tags))
    if entry.status != "unread":
        rest.append(f"({entry.status})")
    if entry.starred:
        rest.append("★")
    return line + ("  " + " ".join(rest) if rest else "")


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
    hits = _search(library, args.query, listing_failed=not args.json)
    if args.limit is not None:
        hits = hits[: args.limit]
    if args.json:
        rows = [
            paper_json(library.get(hit.paper_id), library.entry(hit.paper_id), hit.score)
            for hit in hits
        ]
        _print_json(rows)
        return EXIT_OK
    output.lines(
        [_summary_line(library.get(hit.paper_id), library.entry(hit.paper_id)) for hit in hits]
    )
    if not hits and sys.stderr.isatty():
        output.line("no papers match", stream=sys.stderr)
    return EXIT_OK


def _list_from_listing(args: argparse.Namespace) -> int | None:
    """`list` (lines) from listing.cache and state.json, read without the Library or a lock.

    None when they cannot answer as they are (no or a stale listing, an empty library that
    the full path seeds, a state.json the Library must report on): the full path then prints
    exactly what this would have printed.
    """
    from papershelf.storage.files.layout import STATE_FILE, read_entries, resolve_root
    from papershelf.storage.search import listing
    from papershelf.storage.search.engine import parse_query

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
    if query.notice:
        output.warning(query.notice)
    papers = shelf.papers
    if args.limit is not None:
        order = order[: args.limit]
    _write_lines(papers, order, entries)
    if not order and sys.stderr.isatty():
        output.line("no papers match", stream=sys.stderr)
    return EXIT_OK


def _write_lines(
    papers: Sequence[ListedPaper], order: Sequence[int], entries: Mapping[str, Entry]
) -> None:
    default = Entry()
    output.lines(
        [
            _summary_line(paper, entries.get(paper.id, default))
            for paper in map(papers.__getitem__, order)
        ]
    )


def cmd_show(args: argparse.Namespace) -> int:
    """One paper in full."""
    library = _open(args, read_only=True)
    paper = library.find(args.ref)
    entry = library.entry(paper.id)
    if args.json:
        _print_json(paper_json(paper, entry, None))
        return EXIT_OK
    from papershelf.storage.text.headings import heading
    from papershelf.storage.text.latex import display_text

    head, title = heading(paper.name, paper.title)
    lines = [head, title, ""] if title else [head, ""]
    fields = [("id", paper.id)]
    if paper.authors:
        fields.append(("authors", ", ".join(paper.authors)))
    fields += [
        ("venue", paper.venue or "—"),
        ("sources", ", ".join(paper.sources)),
        ("status", entry.status + (" ★" if entry.starred else "")),
        ("tags", " ".join(f"#{t}" for t in sorted(entry.tags)) or "—"),
    ]
    if entry.updated_at:
        fields.append(("changed", entry.updated_at))
    if paper.imported_at:
        fields.append(("imported", paper.imported_at))
    fields += [("code", url) for url in paper.code_urls]
    fields += [("link", url) for url in paper.links]
    if paper.separate_page:  # not when it is a code URL or link already
        fields.append(("page", paper.separate_page))
    lines += [f"{key:>8}: {value}" for key, value in fields]
    output.lines(lines)
    # The note and the abstract have lines of their own; every other field is one line.
    if entry.note:
        output.lines(["", "Note:"])
        output.block(entry.note)
    output.line()
    output.block(display_text(paper.abstract).text)
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
    output.line(f"{paper.name}: {tags}")
    return EXIT_OK


def cmd_status(args: argparse.Namespace) -> int:
    """Set the reading status of one paper."""
    library = _open(args)
    paper = library.find(args.ref)
    library.set_status([paper.id], args.status)
    output.line(f"{paper.name}: {args.status}")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    """Markdown reading list of the matching papers, to stdout or a file."""
    from datetime import date

    from papershelf.storage.export import selection
    from papershelf.storage.export.markdown import ExportExists, write_export

    library = _open(args, read_only=True)
    query = " ".join(args.query)
    tags = library.tag_counts()
    tag = selection.lone_tag(query, tags)
    ids = [] if tag else [hit.paper_id for hit in _search(library, args.query)]
    chosen = selection.of_query(query, ids, library.papers(), library.get, library.entry, tags)
    items = chosen.items
    text = chosen.markdown(date.today())
    if args.output is None or str(args.output) == "-":
        output.block(text)
        return EXIT_OK
    try:
        path = write_export(args.output, text, overwrite=args.force)
    except ExportExists:
        raise PapershelfError(
            f"{args.output} already exists; use --force to overwrite it"
        ) from None
    output.line(f"wrote {plural(len(items), 'paper')} to {path}")
    return EXIT_OK


def cmd_undo(args: argparse.Namespace) -> int:
    """Take back the latest change; print what it was."""
    return _history_step(args, "undo", "undone")


def cmd_redo(args: argparse.Namespace) -> int:
    """Do again the latest undone change; print what it was."""
    return _history_step(args, "redo", "redone")


def _history_step(args: argparse.Namespace, step: str, done: str) -> int:
    library = _open(args)
    message = library.undo() if step == "undo" else library.redo()
    output.line(f"{done}: {message}" if message is not None else f"nothing to {step}")
    return EXIT_OK


def cmd_backup(args: argparse.Namespace) -> int:
    """Write the whole user state to FILE."""
    from papershelf.storage.export.backup import write_backup

    library = _open(args)
    count = write_backup(library, args.file, force=args.force)
    output.line(f"saved the state of {plural(count, 'paper')} to {args.file}")
    return EXIT_OK


def cmd_restore(args: argparse.Namespace) -> int:
    """Replace the whole user state with FILE's (one undoable step)."""
    from papershelf.storage.export.backup import restore_backup

    library = _open(args)
    report = restore_backup(library, args.file)
    if not report.changed:
        # No undo step was recorded: `undo` now would take back some earlier change.
        output.line(f"restored {args.file}: nothing changed (the library already holds its state)")
        return EXIT_OK
    line = (
        f"restored {args.file}: {plural(report.entries, 'paper')} with tags, status, "
        f"stars or notes; {plural(report.changed, 'paper')} changed"
    )
    if report.absent:
        line += f"; {report.absent} kept for papers not in this library"
    output.line(line + " (papershelf undo takes it back)")
    return EXIT_OK


def cmd_related(args: argparse.Namespace) -> int:
    """The papers most like one paper, best first."""
    from papershelf.storage.related.cache import load_or_build

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
    output.lines(
        [
            f"{score:.3f}  {_summary_line(library.get(pid), library.entry(pid))}"
            for pid, score in found
        ]
    )
    if not found and sys.stderr.isatty():
        output.line(f"no paper shares enough words with {paper.name}", stream=sys.stderr)
    return EXIT_OK


def run_app(args: argparse.Namespace) -> int:
    """Open the library (seeding it on a first run) and start the Textual app."""
    for name in ("stdin", "stdout"):
        stream = getattr(sys, name)
        if stream is None or not stream.isatty():
            # Painting escape codes into a pipe and waiting for keys that never come helps nobody.
            output.error(
                f"the app needs a terminal, and standard {name[3:]}put is not one; "
                f"in scripts use the commands ({PROG} --help)"
            )
            return EXIT_USAGE
    library = _open(args, create=True, seed=True)
    from papershelf.tui.app import PapershelfApp

    # The library's papers live as long as the app: keep them out of the cyclic garbage
    # collector's full passes, which otherwise pause the interface for tens of milliseconds.
    gc.freeze()
    app = PapershelfApp(library)
    app.run()
    # 70 after an internal error, 1 when the user quit with unsaved changes, 128+N on a signal.
    return app.return_code or EXIT_OK


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
    with output.guarded_streams():
        status = _run(words)
        try:
            output.flush()
        except output.OutputError as error:
            return _output_lost(error)
        except BrokenPipeError:
            return EXIT_OK
        return status


def _run(words: list[str]) -> int:
    args: argparse.Namespace | None = None
    try:
        args = _quick_list_args(words)
        if args is None:
            args = build_parser().parse_args(_protect_tag_changes(words))
        args.opened = []
        handler = COMMANDS.get(args.command or "", run_app)
        return handler(args)
    except UsageError as error:
        output.line(str(error), stream=sys.stderr)
        output.line(f"Try '{PROG} --help' for more information.", stream=sys.stderr)
        return EXIT_USAGE
    except PapershelfError as error:
        output.error(str(error))
        return EXIT_USER_ERROR
    except output.OutputError as error:
        return _output_lost(error)
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
        output.error(f"{where}{error.strerror or error}")
        return EXIT_USER_ERROR
    except Exception as error:
        # One line rather than a traceback, and a status that says the command did not finish.
        output.error(_unexpected(error))
        return EXIT_INTERNAL
    finally:
        if args is not None:
            _report_notices(args)


def _output_lost(error: output.OutputError) -> int:
    """Standard output failed: say so without claiming the command failed (its changes are
    on disk before anything is printed)."""
    output.error(f"could not write the output ({error}); any change the command made is saved")
    return EXIT_USER_ERROR


def _unexpected(error: Exception) -> str:
    """The one line for an error no command expects."""
    if isinstance(error, MemoryError):
        return "out of memory: the command was stopped before it finished"
    return f"internal error ({type(error).__name__}: {error}); please report it"


def _report_notices(args: argparse.Namespace) -> None:
    """What each library the command opened has to tell the user, as warnings on stderr."""
    for library in args.opened:
        for notice in library.take_notices():
            output.warning(notice)
        if library.journal_notice:
            output.warning(library.journal_notice)


if __name__ == "__main__":
    sys.exit(main())
