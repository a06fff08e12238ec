"""`papershelf list` answered from listing.cache: the same bytes as the full path, no lock, no
filelock, and never from a stale or damaged cache."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from cli_helpers import build_search_library
from cli_helpers import run_captured as run
from hypothesis import given
from hypothesis import strategies as st

import papershelf.cli.parser as parser
import papershelf.cli.reading as reading
import papershelf.storage.search.listing as listing
from papershelf.storage.library.library import Library

REPO = Path(__file__).resolve().parent.parent

QUERIES = [
    "",
    "diffusion",
    "difusion",
    "trasnformer",
    "graph neural network",
    "'diffusion planning",
    '"language model"',
    "^mitig",
    "!diffusion image generation",
    "graph|hypergraph",
    "#to-read",
    "is:reading",
    "is:starred",
    "has:code",
    "has:note",
    "venue:icml2025 graph",
    "zzzzqx",
]


def run_full(*argv: str | Path) -> tuple[int, str, str]:
    """The same command without the listing: the Library and the search engine, as before."""
    with mock.patch.object(reading, "list_from_listing", return_value=None):
        return run(*argv)


def run_fast(*argv: str | Path) -> tuple[int, str, str]:
    """The same command, failing if it opens the Library (so it must answer from the listing)."""
    with mock.patch.object(Library, "open", side_effect=AssertionError("Library opened")):
        return run(*argv)


@pytest.fixture(scope="module")
def shelf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = build_search_library(tmp_path_factory.mktemp("cli-fast") / "lib")
    assert run("--db", root, "list", "warm")[0] == 0  # the full path writes the listing
    assert (root / listing.LISTING_FILE).exists()
    return root


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = build_search_library(tmp_path / "lib")
    assert run("--db", path, "list", "warm")[0] == 0
    return path


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("limit", [None, 3])
def test_list_prints_the_same_bytes_as_the_full_path(shelf: Path, query: str, limit) -> None:
    argv = ["--db", shelf, "list", *query.split()]
    if limit is not None:
        argv += ["--limit", str(limit)]
    full = run_full(*argv)
    assert run_fast(*argv) == full
    assert full[0] == 0


WORDS = ["diffusion", "graph", "learning", "model", "transformer", "policy", "rel", "safe"]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "", "'", "^", "!", "#", "venue:", "is:", "has:"]),
            st.sampled_from(WORDS) | st.text("abcdefgilnoprst", min_size=1, max_size=8),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_list_prints_the_same_bytes_for_any_query(shelf: Path, terms) -> None:
    words = [marker + word for marker, word in terms]
    assert run_fast("--db", shelf, "list", *words) == run_full("--db", shelf, "list", *words)


def test_a_query_error_is_the_same_one_line_error(shelf: Path) -> None:
    full = run_full("--db", shelf, "list", "is:bogus")
    assert full[0] == 1 and full[2].count("\n") == 1
    assert run_fast("--db", shelf, "list", "is:bogus") == full


PROBE = """
import os, sys
from papershelf.cli.main import main
code = main(sys.argv[1:])
heavy = ("filelock", "tinydb", "papershelf.storage.library.library", "textual")
# `list` imports the module of its own command alone.
heavy += tuple(f"papershelf.cli.{m}" for m in ("app", "editing", "exporting", "importing"))
print(sorted(m for m in heavy if m in sys.modules), file=sys.stderr)
sys.exit(code)
"""


def run_process(*argv: str | Path) -> tuple[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *map(str, argv)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    return done.stdout, done.stderr.splitlines()


def test_a_read_only_list_takes_no_lock_and_imports_no_filelock(tmp_path: Path) -> None:
    root = build_search_library(tmp_path / "lib")
    first, modules = run_process("--db", root, "list", "diffusion")  # full path, writes listing
    assert modules[-1] == "['papershelf.storage.library.library', 'tinydb']"
    assert (root / listing.LISTING_FILE).exists()
    second, modules = run_process("--db", root, "list", "diffusion")  # from the listing
    assert modules[-1] == "[]"
    assert second == first and first.count("\n") > 3
    _, modules = run_process("--db", root, "list", "--json", "diffusion")
    assert "filelock" not in modules[-1]
    assert not (root / ".lock").exists()


def test_a_list_after_an_import_sees_the_new_papers(root: Path, tmp_path: Path) -> None:
    extra = tmp_path / "extra.txt"
    extra.write_text("Extra Papers\n\nA brand new abstract about zebrafish swarms.\n")
    assert run("--db", root, "list", "zebrafish")[1] == ""
    assert run("import", extra, "--db", root)[0] == 0
    code, out, _ = run("--db", root, "list", "zebrafish")  # the listing is stale: full path
    assert code == 0 and "zebrafish" in out
    assert run_fast("--db", root, "list", "zebrafish") == (code, out, "")  # and rewritten


def test_a_list_after_a_tag_sees_the_tag(root: Path) -> None:
    code, out, _ = run("--db", root, "list", "diffusion", "--limit", "1")
    paper_id = out.split()[0]
    assert run("--db", root, "tag", paper_id, "+fresh")[0] == 0
    code, out, _ = run_fast("--db", root, "list", "#fresh")
    assert code == 0 and out.startswith(paper_id) and "#fresh" in out


def test_a_damaged_state_file_is_recovered_as_the_full_path_does(root: Path) -> None:
    expected = run_full("--db", root, "list", "diffusion")
    (root / "state.json").write_text("{not json")
    code, out, err = run("--db", root, "list", "diffusion")
    assert (code, out) == (0, expected[1])  # the listing does not answer from a damaged state
    assert "state.json was damaged" in err and "recovered from" in err
    assert err.startswith("papershelf: warning: ") and err.count("\n") == 1
    assert list(root.glob("state.json.corrupt-*"))


def test_damaged_abstracts_fall_back_to_the_full_path(root: Path) -> None:
    expected = run_full("--db", root, "list", "'diffusion")
    path = root / listing.LISTING_FILE
    data = bytearray(path.read_bytes())
    data[-200:] = b"\0" * 200  # the end of the abstracts section
    path.write_bytes(bytes(data))
    assert run("--db", root, "list", "'diffusion") == expected
    assert expected[1].count("\n") > 1


def test_a_stale_listing_is_never_used(root: Path) -> None:
    """A listing made for another papers.json (same papers here) is not trusted: the full path
    answers, without the listing (which would fail this test by being opened)."""
    other = root.parent / "other"
    shutil.copytree(root, other)  # the same papers, in another papers.json (another inode)
    (other / listing.LISTING_FILE).unlink()
    assert run("--db", other, "list", "warm")[0] == 0  # a listing keyed to other's papers.json
    shutil.copy(other / listing.LISTING_FILE, root / listing.LISTING_FILE)  # keyed to other's
    with mock.patch.object(listing.Listing, "engine", side_effect=AssertionError("used")):
        code, out, _ = run("--db", root, "list", "diffusion")
    assert code == 0 and out


def test_a_damaged_listing_is_rewritten_by_the_list_that_found_it(root: Path) -> None:
    path = root / listing.LISTING_FILE
    data = bytearray(path.read_bytes())
    data[-200:] = b"\0" * 200  # damage past the header: only reading finds it
    path.write_bytes(bytes(data))
    # A phrase reads the abstracts (the damaged end of the file); an exact word would not.
    assert run("--db", root, "list", '"diffusion model"')[0] == 0
    assert path.read_bytes() != bytes(data)
    run_fast("--db", root, "list", '"diffusion model"')  # the next `list` answers from the listing


@pytest.mark.parametrize("argv", [["list", "--json", "graph"], ["export", "graph"]])
def test_a_current_listing_is_not_written_again(root: Path, argv: list[str]) -> None:
    # Rewriting the 20 MB listing of a 10,815-paper library cost every `list --json` ~60 ms.
    path = root / listing.LISTING_FILE
    before = path.stat()
    assert run("--db", root, *argv)[0] == 0
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    path.unlink()
    assert run("--db", root, *argv)[0] == 0
    assert path.exists()  # a missing listing is written, as before


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_query_over_the_word_limit_is_cut_and_said_once(shelf: Path, json_flag) -> None:
    from papershelf.storage.search.engine import MAX_QUERY_TERMS

    words = ["diffusion"] + [f"w{n}" for n in range(MAX_QUERY_TERMS + 5)]
    code, _, err = run("--db", shelf, "list", *json_flag, *words)
    assert code == 0
    assert err == f"papershelf: warning: query cut to its first {MAX_QUERY_TERMS} words\n"
    assert run("--db", shelf, "list", *json_flag, "diffusion")[2] == ""


# -- the parse that builds one sub-parser --------------------------------------------------------

TOKENS = ["list", "--db", "x", "--db=y", "--limit", "3", "0", "--limit=2", "-1", "word", "-x"]
TOKENS += ["--json", "", "--", "tag", "--limit=", "list", "'exact", "#tag", "a b", "-", "--help"]
TOKENS += ["-h", "--version", "show", "+t", "-t", "-hello", "status", "read", "export", "-o"]


def tag_changes_behind_dashes(argv: list[str]) -> list[str]:
    """The whole argv as the CLI handed it to argparse before `parser.parse` found the command
    with argparse: the reference the one-command parse must agree with."""
    i = 0
    while i < len(argv):
        if argv[i] == "--db":
            i += 2
        elif argv[i].startswith("-"):
            i += 1
        else:
            break
    if i >= len(argv) or argv[i] != "tag":
        return argv
    return argv[: i + 1] + parser._tag_changes_last(argv[i + 1 :])


def parsed(argv: list[str], whole: bool) -> dict[str, object] | str:
    """What the parse of `argv` gives: its arguments, or the usage error's message."""
    try:
        if whole:
            args = parser.build_parser().parse_args(tag_changes_behind_dashes(argv))
        else:
            args = parser.parse(argv)
    except parser.UsageError as error:
        return f"usage error: {error}"
    except SystemExit as done:  # help and version
        return f"exit {done.code}"
    return vars(args)


@given(st.lists(st.sampled_from(TOKENS), max_size=8))
def test_the_one_command_parse_agrees_with_the_whole_parser(argv: list[str]) -> None:
    with (
        contextlib.redirect_stdout(io.StringIO()) as one,
        contextlib.redirect_stderr(io.StringIO()),
    ):
        from_one = parsed(argv, whole=False)
    with (
        contextlib.redirect_stdout(io.StringIO()) as whole,
        contextlib.redirect_stderr(io.StringIO()),
    ):
        from_whole = parsed(argv, whole=True)
    assert from_one == from_whole
    assert one.getvalue() == whole.getvalue()  # help text too


@pytest.mark.parametrize(
    "argv",
    [
        ["list"],
        ["list", "graph", "neural"],
        ["--db", "x", "list", "--limit", "3", "a"],
        ["list", "a", "--db=z", "--limit=1"],
    ],
)
def test_plain_list_commands_build_the_list_parser_alone(argv: list[str]) -> None:
    # Building all eleven sub-parsers cost ~10 ms of a ~100 ms `list`.
    assert parser._find_command(argv) == ("list", argv[argv.index("list") + 1 :])
    made = mock.Mock(wraps=parser._list_arguments)
    with mock.patch.object(parser, "COMMANDS", {**parser.COMMANDS, "list": ("", made)}):
        args = parser.parse(argv)
    assert made.call_count == 1 and args.command == "list"


def test_list_json_keeps_the_contract(shelf: Path) -> None:
    code, out, _ = run("--db", shelf, "list", "--json", "diffusion", "--limit", "2")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 2 and rows[0]["abstract"]


@pytest.mark.parametrize("columns", ["50", "120"])
@pytest.mark.parametrize("argv", [["--help"], ["tag", "--help"], ["list", "--help"]])
def test_help_is_as_wide_as_argparse_makes_it(monkeypatch, columns, argv) -> None:
    # The parser's formatter sizes help without shutil (bz2 and lzma cost every `list`).
    monkeypatch.setenv("COLUMNS", columns)

    def help_text() -> str:
        with contextlib.redirect_stdout(io.StringIO()) as out, pytest.raises(SystemExit):
            parser.parse(argv)
        return out.getvalue()

    ours = help_text()
    with mock.patch.object(parser, "_Formatter", argparse.HelpFormatter):
        assert help_text() == ours
    assert max(map(len, ours.splitlines())) <= int(columns)
