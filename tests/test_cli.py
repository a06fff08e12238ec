"""The CLI contract of DESIGN §5, run in-process through `main()` and, where the process matters,
as the installed console script."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run

CONTRACT_KEYS = {
    "id",
    "name",
    "title",
    "title_as_imported",
    "venue",
    "tags",
    "status",
    "starred",
    "code_urls",
    "links",
    "url",
    "abstract",
    "sources",
    "score",
    "authors",
    "note",
    "changed_at",
    "imported_at",
    "year",
    "pdf_url",
    "doi",
    "arxiv_id",
    "openreview_id",
    "kind",
    "cite_key",
    "extra",
}

# Each code URL of the seeds, with the opening words of the abstract it belongs to.
SEED_CODE_URLS = {
    "https://github.com/BEAM-Labs/denovo": "Peptide sequencing",
    "https://github.com/AI4Science-WestlakeU/safediffcon": "The application of deep",
    "https://github.com/inouye-lab/SAUB": "Distribution matching (DM)",
    "https://github.com/NUS-HPC-AI-Lab/Info-Coevolution": "Machine learning relies heavily on data",
    "https://github.com/Ferenas/ConText": "This paper presents the first study on adapting",
    "https://github.com/SalapakaLab-SIMBioSys/SMFS-Identification": "Deciphering protein folding",
    "https://github.com/JingyangQiao/CoIN": "Continual Instruction Tuning (CIT)",
    "https://github.com/zihanghliu/LIFT": "Recent studies have shown that supervised",
}
SEED_LINKS = {
    "https://sites.google.com/view/string-robotics": "We introduce",
    "https://slot-latent-dynamics.github.io": "Learning a latent dynamics model",
}
SEED_NAMES = [
    "RelGNN",
    "SUICA",
    "K²IE",
    "SafeDiffCon",
    "LEVIS",
    "NCAL",
    "UniSim",
    "k-DTW",
    "ConText",
    "SQAOA",
    "Fed-ICL",
    "STRING",
    "EARL-BO",
    "SOLD",
    "KEA",
    "Habi",
    "LIFT",
    "PIPA",
    "FOCoOp",
    "Info-Coevolution",
]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "lib"


@pytest.fixture
def seeded(db: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]) -> Path:
    code, _, err = run(capsys, "import", *seed_files, "--db", db)
    assert code == 0, err
    return db


def list_json(capsys: pytest.CaptureFixture[str], db: Path, *query: str) -> list[dict]:
    code, out, err = run(capsys, "--db", db, "list", "--json", *query)
    assert code == 0, err
    return json.loads(out)


def test_import_seeds_reports_34_unique_papers(db, seed_files, capsys):
    code, out, err = run(capsys, "import", *seed_files, "--db", db)
    assert code == 0, err
    assert "34 new papers; the library holds 34 papers." in out
    lines = out.splitlines()
    assert lines[0].startswith("000_d1b2f2b4fb6e9314.txt: ")
    assert lines[1].startswith("001_aa86a2e0cf5ed7d9.txt: ")
    assert "4 duplicates" in lines[1]


def test_import_counts_what_it_added_when_papers_json_was_damaged_in_place(
    seeded, seed_files, tmp_path, capsys
):
    # papers.cache still answers `list` (papers.json keeps its size and mtime); the import
    # reads papers.json itself, finds the damage and moves it aside: 1 paper is new, not -33.
    assert run(capsys, "--db", seeded, "list", "x")[0] == 0
    papers = seeded / "papers.json"
    before = papers.stat()
    with open(papers, "r+b") as handle:
        handle.write(b"#####")
    os.utime(papers, ns=(before.st_atime_ns, before.st_mtime_ns))
    new = tmp_path / "new.txt"
    new.write_text("We propose NewNet, a method for counting what an import really added.\n")
    code, out, err = run(capsys, "--db", seeded, "import", new)
    assert code == 0
    assert out.splitlines()[-1] == "1 new paper; the library holds 1 paper."
    assert "papers.json was damaged" in err


def test_papers_in_both_seed_files_list_both_sources(seeded, capsys):
    papers = list_json(capsys, seeded)
    assert len(papers) == 34
    both = [p for p in papers if len(p["sources"]) == 2]
    assert len(both) == 4
    for paper in both:
        assert paper["sources"] == ["000_d1b2f2b4fb6e9314.txt", "001_aa86a2e0cf5ed7d9.txt"]


def test_list_json_has_exactly_the_contract_keys(seeded, capsys):
    for paper in list_json(capsys, seeded):
        assert set(paper) == CONTRACT_KEYS
        assert paper["status"] == "unread"
        assert paper["tags"] == []


def test_seed_code_urls_are_on_the_right_papers_and_no_other(seeded, capsys):
    papers = list_json(capsys, seeded)
    found = {url: p["abstract"] for p in papers for url in p["code_urls"]}
    assert set(found) == set(SEED_CODE_URLS)
    for url, opening in SEED_CODE_URLS.items():
        assert found[url].startswith(opening), url
    # Exactly one URL per paper that has code: 8 papers.
    assert sum(1 for p in papers if p["code_urls"]) == 8


def test_seed_links_repaired_and_no_url_invented(seeded, capsys):
    papers = list_json(capsys, seeded)
    links = {url: p["abstract"] for p in papers for url in p["links"]}
    assert set(links) == set(SEED_LINKS)
    for url, opening in SEED_LINKS.items():
        assert links[url].startswith(opening), url
    github_only = [p for p in papers if "The project is available at GitHub." in p["abstract"]]
    assert len(github_only) == 1
    assert github_only[0]["code_urls"] == [] and github_only[0]["links"] == []


def test_seed_names_and_venue(seeded, capsys):
    papers = list_json(capsys, seeded)
    names = {p["name"] for p in papers}
    assert set(SEED_NAMES) <= names
    assert {p["venue"] for p in papers} == {"ICML 2025"}
    for paper in papers:
        assert paper["name"].strip(), paper["abstract"][:60]
        assert len(paper["name"]) <= 80


def test_tag_survives_reimport_and_never_touches_papers_json(seeded, seed_files, capsys):
    papers_file = seeded / "papers.json"
    before = papers_file.read_bytes()
    code, out, err = run(capsys, "tag", "RelGNN", "+to-read", "--db", seeded)
    assert code == 0, err
    assert "#to-read" in out
    assert papers_file.read_bytes() == before

    code, out, err = run(capsys, "import", *seed_files, "--db", seeded)
    assert code == 0, err
    assert "0 new papers" in out
    assert papers_file.read_bytes() == before
    (relgnn,) = [p for p in list_json(capsys, seeded) if p["name"] == "RelGNN"]
    assert relgnn["tags"] == ["to-read"]


def test_tag_removal_with_a_leading_dash(seeded, capsys):
    assert run(capsys, "--db", seeded, "tag", "RelGNN", "+a", "+b")[0] == 0
    code, out, err = run(capsys, "--db", seeded, "tag", "RelGNN", "-a", "+c")
    assert code == 0, err
    assert out.strip() == "RelGNN: #b #c"


def test_a_tag_named_h_can_be_removed_and_help_is_still_there(seeded, capsys):
    assert run(capsys, "--db", seeded, "tag", "RelGNN", "+h", "+x", "+help")[0] == 0
    assert run(capsys, "--db", seeded, "tag", "RelGNN", "-h")[1].strip() == "RelGNN: #help #x"
    code, out, _ = run(capsys, "--db", seeded, "tag", "RelGNN", "--", "-x", "-help")
    assert (code, out.strip()) == (0, "RelGNN: (no tags)")
    with pytest.raises(SystemExit):  # argparse's help exits after printing
        run(capsys, "tag", "-h")
    assert capsys.readouterr().out.startswith("usage: papershelf tag")


def test_a_full_standard_output_is_not_called_a_failed_change(seeded):
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "papershelf", "--db", str(seeded), "tag", "RelGNN", "+kept"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert result.returncode == 1
    assert result.stderr == (
        "papershelf: could not write the output (No space left on device); "
        "any change the command made is saved\n"
    )
    assert (
        "kept"
        in json.loads(
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "papershelf",
                    "--db",
                    str(seeded),
                    "show",
                    "RelGNN",
                    "--json",
                ],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )["tags"]
    )


def test_a_closed_standard_output_is_no_internal_error(seeded):
    result = subprocess.run(
        [sys.executable, "-m", "papershelf", "--db", str(seeded), "list", "graph"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        pass_fds=(),
        preexec_fn=lambda: os.close(1),
    )
    assert (result.returncode, result.stderr) == (0, "")


@pytest.mark.parametrize("piped", ["stdin", "stdout"])
def test_the_app_without_a_terminal_says_so_and_exits_2(tmp_path, piped):
    # `papershelf | less` or `papershelf < /dev/null` must not paint escape codes into a pipe
    # and hang waiting for keys; nor create a library on the way.
    import pty

    leader, follower = pty.openpty()  # the other stream is a real terminal
    try:
        result = subprocess.run(
            [sys.executable, "-m", "papershelf", "--db", str(tmp_path / "lib")],
            stdin=subprocess.DEVNULL if piped == "stdin" else follower,
            stdout=follower if piped == "stdin" else subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(follower)
        os.close(leader)
    assert result.returncode == 2
    assert result.stderr == (
        f"papershelf: the app needs a terminal, and standard {piped[3:]}put is not one; "
        "in scripts use the commands (papershelf --help)\n"
    )
    assert not (tmp_path / "lib").exists()


def test_status_and_show_json(seeded, capsys):
    code, out, err = run(capsys, "status", "SUICA", "read", "--db", seeded)
    assert (code, out.strip()) == (0, "SUICA: read")
    code, out, err = run(capsys, "show", "SUICA", "--json", "--db", seeded)
    shown = json.loads(out)
    assert set(shown) == CONTRACT_KEYS
    assert shown["status"] == "read"
    assert shown["score"] is None
    # show by id works too, and a prefix of it.
    code, out, _ = run(capsys, "show", shown["id"][:8], "--db", seeded)
    assert code == 0 and out.startswith("SUICA\n")


def test_list_query_and_limit(seeded, capsys):
    papers = list_json(capsys, seeded, "relational", "graph")
    assert papers[0]["name"] == "RelGNN"
    assert all(isinstance(p["score"], int | float) for p in papers)
    code, out, _ = run(capsys, "--db", seeded, "list", "--limit", "3")
    assert code == 0 and len(out.splitlines()) == 3


@pytest.mark.parametrize(
    "argv",
    [
        ("show", "NoSuchPaper"),
        ("tag", "NoSuchPaper", "+x"),
        ("status", "NoSuchPaper", "read"),
        ("list", "is:finished"),
    ],
)
def test_user_errors_are_one_line_exit_1(seeded, capsys, argv):
    code, out, err = run(capsys, *argv, "--db", seeded)
    assert code == 1
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("papershelf: ")
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ("frobnicate",),
        ("status", "RelGNN", "finished"),
        ("tag", "RelGNN", "to-read"),
        ("list", "--limit", "0"),
        ("import",),
    ],
)
def test_bad_usage_exits_2(seeded, capsys, argv):
    code, out, err = run(capsys, "--db", seeded, *argv)
    assert code == 2
    assert "Traceback" not in err and err.strip()


def test_failed_file_imports_nothing_and_others_still_import(db, seed_files, tmp_path, capsys):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("Venue X\n\nAn abstract with caf\xe9 in it.\n".encode("latin-1"))
    code, out, err = run(capsys, "--db", db, "import", bad, seed_files[0])
    assert code == 1
    assert "latin1.txt" in err and "line 3" in err
    assert "Traceback" not in err
    assert "000_d1b2f2b4fb6e9314.txt: 19 added" in out
    assert len(list_json(capsys, db)) == 19


def test_import_of_a_missing_file_is_a_user_error(db, tmp_path, capsys):
    code, _, err = run(capsys, "--db", db, "import", tmp_path / "nope.txt")
    assert code == 1
    assert "nope.txt" in err and "Traceback" not in err


def test_export_to_file_refuses_to_overwrite_without_force(seeded, tmp_path, capsys):
    run(capsys, "--db", seeded, "tag", "RelGNN", "+to-read")
    target = tmp_path / "list.md"
    code, out, err = run(capsys, "--db", seeded, "export", "#to-read", "-o", target)
    assert code == 0, err
    text = target.read_text()
    assert "RelGNN" in text and "SUICA" not in text
    target.write_text("my edits")
    code, _, err = run(capsys, "--db", seeded, "export", "#to-read", "-o", target)
    assert code == 1  # and the way out is named, as `backup` names it
    assert err == f"papershelf: {target} already exists; use --force to overwrite it\n"
    assert target.read_text() == "my edits"
    code, _, err = run(capsys, "--db", seeded, "export", "#to-read", "-o", target, "--force")
    assert code == 0 and "RelGNN" in target.read_text()


def test_export_to_stdout(seeded, capsys):
    code, out, _ = run(capsys, "--db", seeded, "export")
    assert code == 0
    assert out.startswith("# Reading list")
    assert out.count("<!-- papershelf:") == 34


@pytest.mark.parametrize(
    "command",
    [
        ["list"],
        ["list", "--json"],
        ["show", "relgnn"],
        ["export"],
        ["related", "relgnn"],
        ["tag", "relgnn", "+x"],
        ["status", "relgnn", "read"],
        ["undo"],
        ["backup", "out.json"],
    ],
)
@pytest.mark.parametrize("exists", [False, True], ids=["missing", "empty-dir"])
def test_a_command_on_a_directory_without_a_library_says_so_and_starts_none(
    tmp_path, capsys, monkeypatch, command, exists
):
    monkeypatch.chdir(tmp_path)
    typo = tmp_path / "libary"
    if exists:
        typo.mkdir()
    code, out, err = run(capsys, "--db", typo, *command)
    assert code == 1
    assert out == ""
    assert err == (
        f"papershelf: no papershelf library in {typo}; start one with papershelf import FILE, "
        "or run papershelf (it adds the bundled papers)\n"
    )
    assert typo.exists() == exists
    assert not exists or list(typo.iterdir()) == []
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("holds", ["backups", "journal.json", "settings.json"])
def test_a_directory_with_only_a_common_name_in_it_is_no_library(tmp_path, capsys, holds):
    # `~/Documents/backups` or another program's journal.json must not make a library.
    folder = tmp_path / "documents"
    folder.mkdir()
    if holds == "backups":
        (folder / holds).mkdir()
    else:
        (folder / holds).write_text('{"entries": []}')
    before = sorted(p.name for p in folder.iterdir())
    for command in (["list"], ["undo"], ["export"], ["backup", str(tmp_path / "b.json")]):
        code, out, err = run(capsys, "--db", folder, *command)
        assert (code, out) == (1, "") and "no papershelf library in" in err
    assert sorted(p.name for p in folder.iterdir()) == before
    if holds != "backups":
        assert (folder / holds).read_text() == '{"entries": []}'


def test_import_starts_a_library_without_the_bundled_papers(tmp_path, capsys):
    one = tmp_path / "one.txt"
    one.write_text("My Venue 2026\n\nWe propose FooNet, a network that does one thing well.\n")
    code, out, _ = run(capsys, "--db", tmp_path / "other", "import", one)
    assert code == 0
    assert out.splitlines()[-1] == "1 new paper; the library holds 1 paper."
    assert [paper["name"] for paper in list_json(capsys, tmp_path / "other")] == ["FooNet"]


def test_default_library_location_comes_from_papershelf_home(
    tmp_path, capsys, monkeypatch, seed_files
):
    home = tmp_path / "home"
    monkeypatch.setenv("PAPERSHELF_HOME", str(home))
    assert run(capsys, "import", *seed_files)[0] == 0
    code, out, _ = run(capsys, "list", "--limit", "1")
    assert code == 0 and out
    assert (home / "papers.json").is_file()


def test_console_script_list_runs_without_importing_textual(seeded):
    probe = (
        "import sys\n"
        "from papershelf.cli.main import main\n"
        f"code = main(['--db', {str(seeded)!r}, 'list', 'relational'])\n"
        "assert 'textual' not in sys.modules, 'the CLI imported textual'\n"
        "sys.exit(code)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "RelGNN" in result.stdout


def test_installed_console_script_errors_without_traceback(tmp_path):
    script = Path(sys.executable).with_name("papershelf")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "papershelf"]
    env = {**os.environ, "PAPERSHELF_HOME": str(tmp_path / "h")}
    result = subprocess.run(
        [*command, "show", "nothing-like-this"], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 1
    assert result.stderr.startswith("papershelf: ")
    assert "Traceback" not in result.stderr


# -- undo / redo, backup / restore, reading-list import, related ------------------------------


def test_undo_and_redo_print_what_they_did(seeded, capsys):
    assert run(capsys, "--db", seeded, "tag", "RelGNN", "+a", "+b")[0] == 0
    code, out, err = run(capsys, "--db", seeded, "undo")
    assert (code, out.strip()) == (0, "undone: tag +a +b on RelGNN"), err
    (relgnn,) = [p for p in list_json(capsys, seeded) if p["name"] == "RelGNN"]
    assert relgnn["tags"] == []
    assert run(capsys, "--db", seeded, "redo")[1].strip() == "redone: tag +a +b on RelGNN"
    assert run(capsys, "--db", seeded, "redo")[1].strip() == "nothing to redo"
    (relgnn,) = [p for p in list_json(capsys, seeded) if p["name"] == "RelGNN"]
    assert relgnn["tags"] == ["a", "b"]


def test_undo_on_a_fresh_library(seeded, capsys):
    code, out, _ = run(capsys, "--db", seeded, "undo")
    assert (code, out.strip()) == (0, "nothing to undo")


def _entries(db: Path) -> dict:
    from papershelf.storage.library.library import Library

    return dict(Library.open(db, seed=False).entries())


def test_backup_and_restore_round_trip_exactly(seeded, tmp_path, capsys):
    from papershelf.storage.library.library import Library

    run(capsys, "--db", seeded, "tag", "RelGNN", "+to-read", "+gnn")
    run(capsys, "--db", seeded, "status", "SUICA", "reading")
    library = Library.open(seeded, seed=False)
    library.set_note(library.find("LIFT").id, "note with [MASK] and [/]")
    library.set_starred(library.find("STRING").id, True)
    saved = _entries(seeded)
    backup = tmp_path / "state.json"
    code, out, err = run(capsys, "--db", seeded, "backup", backup)
    assert code == 0, err
    assert out.strip() == f"saved the state of 4 papers to {backup}"

    run(capsys, "--db", seeded, "tag", "RelGNN", "-gnn", "+other")
    run(capsys, "--db", seeded, "status", "K²IE", "read")
    code, out, err = run(capsys, "--db", seeded, "restore", backup)
    assert code == 0, err
    assert "4 papers with tags" in out and "2 papers changed" in out
    assert _entries(seeded) == saved  # exactly, updated_at included

    code, out, _ = run(capsys, "--db", seeded, "undo")
    assert out.strip() == "undone: restore state.json"
    assert _entries(seeded) != saved


def test_backup_refuses_to_overwrite_without_force(seeded, tmp_path, capsys):
    target = tmp_path / "b.json"
    target.write_text("mine")
    code, out, err = run(capsys, "--db", seeded, "backup", target)
    assert code == 1 and out == ""
    assert err.strip() == f"papershelf: {target} already exists; use --force to overwrite it"
    assert target.read_text() == "mine"
    assert run(capsys, "--db", seeded, "backup", target, "--force")[0] == 0
    assert json.loads(target.read_text())["format"] == "papershelf-state"


@pytest.mark.parametrize(
    "content",
    [
        '{"name": "my-package", "version": "1.0.0", "dependencies": {}}',
        "[1, 2, 3]",
        '{"format": "papershelf-state", "version": 7, "entries": {}}',
        "not json",
    ],
)
def test_restore_of_a_file_from_elsewhere_is_one_line_exit_1(seeded, tmp_path, capsys, content):
    run(capsys, "--db", seeded, "tag", "RelGNN", "+keep")
    before = (seeded / "state.json").read_bytes()
    other = tmp_path / "other.json"
    other.write_text(content)
    code, out, err = run(capsys, "--db", seeded, "restore", other)
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("papershelf: ")
    assert "Traceback" not in err and "other.json" in err
    assert (seeded / "state.json").read_bytes() == before


def test_import_applies_an_edited_reading_list(seeded, seed_files, tmp_path, capsys):
    run(capsys, "--db", seeded, "tag", "RelGNN", "+to-read")
    run(capsys, "--db", seeded, "tag", "SUICA", "+to-read", "+maybe")
    listing = tmp_path / "reading-list.md"
    assert run(capsys, "--db", seeded, "export", "#to-read", "-o", listing)[0] == 0
    lines = []
    for line in listing.read_text().splitlines():
        if "**RelGNN**" in line:
            line = line.replace("- [ ]", "- [x]").replace(" <!--", " #later <!--")
        if "**SUICA**" in line:
            line = line.replace(" #maybe", "")
        lines.append(line)
    listing.write_text("\n".join(lines) + "\n")
    papers_before = (seeded / "papers.json").read_bytes()

    code, out, err = run(capsys, "--db", seeded, "import", listing, seed_files[0])
    assert code == 0, err
    assert out.splitlines()[:3] == [
        "reading-list.md: reading list: 2 papers changed, 0 unchanged",
        "  RelGNN: read; +later",  # in list order: one "## to-read", library order
        "  SUICA: -maybe",
    ]
    assert out.splitlines()[3].startswith("000_d1b2f2b4fb6e9314.txt: 0 added")
    assert (seeded / "papers.json").read_bytes() == papers_before
    shown = {p["name"]: p for p in list_json(capsys, seeded, "#to-read")}
    assert shown["RelGNN"]["status"] == "read" and shown["RelGNN"]["tags"] == ["later", "to-read"]
    assert shown["SUICA"]["status"] == "unread" and shown["SUICA"]["tags"] == ["to-read"]
    assert run(capsys, "--db", seeded, "undo")[1].strip() == "undone: import reading-list.md"


def test_related_lists_other_papers_best_first(seeded, capsys):
    code, out, err = run(capsys, "--db", seeded, "related", "RelGNN", "--limit", "3", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert len(rows) == 3
    assert all(set(row) == CONTRACT_KEYS for row in rows)
    assert "RelGNN" not in {row["name"] for row in rows}
    scores = [row["score"] for row in rows]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    code, out, _ = run(capsys, "--db", seeded, "related", "RelGNN", "--limit", "2")
    assert code == 0 and len(out.splitlines()) == 2


@pytest.mark.parametrize("argv", [("backup",), ("restore",), ("related",), ("undo", "x")])
def test_new_commands_bad_usage_exits_2(seeded, capsys, argv):
    code, _, err = run(capsys, "--db", seeded, *argv)
    assert code == 2 and "Traceback" not in err


def console(tmp_path: Path, *argv: str | Path) -> subprocess.CompletedProcess[str]:
    """The installed `papershelf` console script, run as a user runs it."""
    script = Path(sys.executable).with_name("papershelf")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "papershelf"]
    env = {**os.environ, "PAPERSHELF_HOME": str(tmp_path / "home")}
    return subprocess.run(
        [*command, *map(str, argv)], capture_output=True, text=True, env=env, timeout=60
    )


def test_round_trip_keeps_a_tag_added_in_papershelf_after_the_export(tmp_path, seed_files):
    # Issue #10, item 4, exactly as reported.
    db, listing = tmp_path / "lib", tmp_path / "l.md"
    assert console(tmp_path, "--db", db, "import", *seed_files).returncode == 0
    assert console(tmp_path, "--db", db, "tag", "RelGNN", "+gnn").returncode == 0
    assert console(tmp_path, "--db", db, "export", "#gnn", "-o", listing).returncode == 0
    assert console(tmp_path, "--db", db, "tag", "RelGNN", "+later").returncode == 0
    listing.write_text(listing.read_text().replace("- [ ] **RelGNN**", "- [x] **RelGNN**"))

    done = console(tmp_path, "--db", db, "import", listing)

    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "l.md: reading list: 1 paper changed, 0 unchanged\n  RelGNN: read\n"
    shown = json.loads(console(tmp_path, "--db", db, "show", "RelGNN", "--json").stdout)
    assert (shown["status"], shown["tags"]) == ("read", ["gnn", "later"])


@pytest.mark.parametrize("command", ["export", "backup"])
def test_force_never_replaces_a_fifo_a_symlink_or_a_device(seeded, tmp_path, capsys, command):
    import stat

    fifo, link, target = tmp_path / "fifo", tmp_path / "link", tmp_path / "target"
    os.mkfifo(fifo)
    target.write_text("kept")
    link.symlink_to(target)
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        device = Path("/dev/null")
    cases = [(fifo, "a FIFO (named pipe)", stat.S_ISFIFO), (link, "a symbolic link", stat.S_ISLNK)]
    cases.append((device, "a character device", stat.S_ISCHR))
    for path, kind, still in cases:
        args = ["-o", path] if command == "export" else [path]
        code, out, err = run(capsys, "--db", seeded, command, *args, "--force")
        assert (code, out) == (1, "")
        assert (
            err
            == f"papershelf: {path} is {kind}; papershelf writes only to a new or a regular file\n"
        )
        assert still(os.lstat(path).st_mode)
    assert target.read_text() == "kept"


def test_a_restore_that_changes_nothing_says_so_and_offers_no_undo(seeded, tmp_path, capsys):
    run(capsys, "--db", seeded, "tag", "RelGNN", "+keep")
    backup = tmp_path / "same.json"
    assert run(capsys, "--db", seeded, "backup", backup)[0] == 0
    state = (seeded / "state.json").read_bytes()
    code, out, err = run(capsys, "--db", seeded, "restore", backup)
    assert (code, err) == (0, "")
    assert out == f"restored {backup}: nothing changed (the library already holds its state)\n"
    assert (seeded / "state.json").read_bytes() == state
    assert run(capsys, "--db", seeded, "undo")[1] == "undone: tag +keep on RelGNN\n"


# -- what the library has to tell, printed after the command ---------------------------------


def limited(limit: int, *argv: str | Path) -> subprocess.CompletedProcess[str]:
    """The console script with a real file-size limit: writes past `limit` bytes fail (EFBIG)."""
    import resource

    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    script = Path(sys.executable).with_name("papershelf")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "papershelf"]
    return subprocess.run(
        [*command, *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=set_limit,
    )


@pytest.mark.parametrize("command", ["tag", "status", "restore", "reading-list", "undo", "redo"])
def test_a_failed_save_of_the_undo_history_is_reported_at_once(seeded, tmp_path, capsys, command):
    from papershelf.storage.library.library import Library

    library = Library.open(seeded, seed=False)
    relgnn = library.find("RelGNN").id
    for i in range(30):  # a long history, a small state
        library.tag(relgnn, add=[f"step-{i}"])
        library.tag(relgnn, remove=[f"step-{i}"])
    backup, listing = tmp_path / "backup.json", tmp_path / "list.md"
    library.tag(relgnn, add=["gnn"])
    assert run(capsys, "--db", seeded, "backup", backup)[0] == 0
    assert run(capsys, "--db", seeded, "export", "#gnn", "-o", listing)[0] == 0
    listing.write_text(listing.read_text().replace("- [ ]", "- [x]"))
    library.tag(relgnn, add=["later"])
    if command == "redo":
        library.undo()
    argv = {
        "tag": ["tag", "RelGNN", "+x"],
        "status": ["status", "RelGNN", "reading"],
        "restore": ["restore", backup],
        "reading-list": ["import", listing],
        "undo": ["undo"],
        "redo": ["redo"],
    }[command]
    journal = seeded / "journal.json"
    limit = 4 * 1024
    assert (seeded / "state.json").stat().st_size < limit < journal.stat().st_size
    state = (seeded / "state.json").read_bytes()

    done = limited(limit, "--db", seeded, *argv)

    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") >= 1 and "nothing" not in done.stdout
    assert done.stderr.startswith(
        f"papershelf: warning: undo history not saved: could not save {journal}: "
    )
    assert done.stderr.count("\n") == 1
    assert (seeded / "state.json").read_bytes() != state  # the change itself was saved


def test_what_the_library_did_on_its_own_is_printed_as_a_warning(seeded, capsys):
    for tag in ("a", "b", "c"):
        assert run(capsys, "--db", seeded, "tag", "RelGNN", f"+{tag}")[0] == 0
    (seeded / "state.json").write_text("{ damaged")
    code, out, err = run(capsys, "--db", seeded, "tag", "RelGNN", "+d")
    # The newest backup is the version saved last: every acknowledged tag comes back.
    assert code == 0 and out == "RelGNN: #a #b #c #d\n"
    lines = err.splitlines()
    assert lines and all(line.startswith("papershelf: warning: ") for line in lines)
    assert any("state.json" in line for line in lines)


def test_a_library_in_proc_is_one_clean_line(tmp_path):
    for argv in (["list"], ["tag", "RelGNN", "+x"]):
        done = console(tmp_path, "--db", "/proc", *argv)
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr.startswith("papershelf: ") and done.stderr.count("\n") == 1


def test_a_library_in_proc_is_refused_without_blaming_another_papershelf(tmp_path):
    # The lock file cannot be created there: the one line says so (filelock alone would retry
    # until its timeout and the message would blame a busy library).
    one = tmp_path / "one.txt"
    one.write_text("Venue\n\nWe propose FooNet, a network.\n")
    done = console(tmp_path, "--db", "/proc", "import", one)
    assert "another papershelf" not in done.stderr and "busy" not in done.stderr
    assert "lock file" in done.stderr


def test_restore_of_a_backup_with_a_huge_integer_is_one_line(seeded, tmp_path, capsys):
    backup = tmp_path / "huge.json"
    backup.write_text('{"format": "papershelf-state", "version": ' + "1" * 5_000 + "}")
    code, out, err = run(capsys, "--db", seeded, "restore", backup)
    assert (code, out) == (1, "")
    assert err == (
        f"papershelf: {backup} is not a papershelf backup (it holds a number too long to read)\n"
    )


def test_an_ascii_only_terminal_gets_question_marks_not_a_crash(tmp_path, seed_files):
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PAPERSHELF_HOME": str(tmp_path / "h")}
    script = Path(sys.executable).with_name("papershelf")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "papershelf"]
    subprocess.run(
        [*command, "import", *seed_files], env=env, timeout=60, check=True, capture_output=True
    )
    done = subprocess.run(
        [*command, "show", "K²IE"], capture_output=True, env=env, timeout=60, check=False
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.startswith(b"K?IE\n") and done.stdout.isascii()


def test_running_out_of_memory_is_one_line_not_a_traceback(tmp_path):
    import resource

    big = tmp_path / "big.txt"
    with open(big, "wb") as out:
        out.write(b"ICML 2025\n\n")
        for i in range(50_000):
            out.write(b"We propose model %d, which works. " % i * 30 + b"\n\n")

    def small_memory() -> None:
        limit = 120 * 1024 * 1024  # enough to start papershelf, not to read 50 MB of text
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    script = Path(sys.executable).with_name("papershelf")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "papershelf"]
    done = subprocess.run(
        [*command, "--db", tmp_path / "lib", "import", big],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=small_memory,
    )
    assert (done.returncode, done.stdout) == (70, "")
    assert done.stderr == "papershelf: out of memory: the command was stopped before it finished\n"


# --- one truth: what `show` prints, `--json` carries; each title once ----------------------

RECORDS = [
    {
        "title": "PANDAS: Improving Many-shot Jailbreaking",
        "abstract": "We propose PANDAS, a way to make many-shot attacks work better on chats.",
        "authors": ["Ann Lee", "Bo Chen"],
        "url": "https://openreview.net/forum?id=abc123",
        "venue": "ICML 2025",
    },
    {
        "title": "Composite Message Passing for Relational Deep Learning",
        "abstract": "We introduce RelGNN, a graph network for relational databases.",
        "venue": "ICML 2025",
    },
    {
        "title": "Shifting the Ground Under Very Long Sequence Models Without Any Extra Memory",
        "abstract": "long sequences are hard for models that keep every token around.",
    },
]


@pytest.fixture
def titled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    source = tmp_path / "titled.jsonl"
    source.write_text("".join(json.dumps(record) + "\n" for record in RECORDS))
    db = tmp_path / "titled-lib"
    assert run(capsys, "--db", db, "import", source)[0] == 0
    return db


def test_show_json_carries_everything_show_prints(titled: Path, capsys) -> None:
    assert run(capsys, "--db", titled, "tag", "PANDAS", "+jailbreak")[0] == 0
    assert run(capsys, "--db", titled, "status", "PANDAS", "reading")[0] == 0
    from papershelf.storage.library.library import Library

    library = Library.open(titled, seed=False)
    library.set_note(library.find("PANDAS").id, "try it on our own model")
    code, text, _ = run(capsys, "--db", titled, "show", "PANDAS")
    assert code == 0
    code, out, _ = run(capsys, "--db", titled, "show", "PANDAS", "--json")
    shown = json.loads(out)
    fields = dict(
        line.strip().split(": ", 1) for line in text.split("\n\n")[1].splitlines() if ": " in line
    )
    assert fields["authors"] == ", ".join(shown["authors"]) == "Ann Lee, Bo Chen"
    assert fields["page"] == shown["url"] == "https://openreview.net/forum?id=abc123"
    assert fields["changed"] == shown["changed_at"] and shown["changed_at"]
    assert fields["imported"] == shown["imported_at"] and shown["imported_at"]
    assert fields["status"] == shown["status"] == "reading"
    assert fields["tags"] == "#jailbreak" and shown["tags"] == ["jailbreak"]
    assert "Note:\ntry it on our own model\n" in text
    assert shown["note"] == "try it on our own model"
    # `list --json` rows are the same objects, score aside.
    (row,) = list_json(capsys, titled, "pandas")
    assert {**row, "score": None} == shown


def test_the_json_schema_is_the_documented_one(titled: Path, capsys) -> None:
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    documented = re.findall(r"^\| `(\w+)` \|", readme.split("### JSON output", 1)[1], re.M)
    for row in list_json(capsys, titled):
        assert list(row) == documented


def test_cli_lines_say_each_title_once(titled: Path, capsys) -> None:
    code, out, _ = run(capsys, "--db", titled, "list")
    assert code == 0
    lines = {line.split("  ", 1)[1] for line in out.splitlines()}
    assert lines == {
        "PANDAS: Improving Many-shot Jailbreaking  [ICML 2025]",
        "RelGNN  — Composite Message Passing for Relational Deep Learning  [ICML 2025]",
        "Shifting the Ground Under Very Long Sequence Models Without Any Extra Memory",
    }
    ids = {row["title"].split()[0]: row["id"] for row in list_json(capsys, titled)}
    for ref, heading in [
        (ids["PANDAS:"], "PANDAS: Improving Many-shot Jailbreaking"),
        (
            ids["Shifting"],
            "Shifting the Ground Under Very Long Sequence Models Without Any Extra Memory",
        ),
    ]:
        code, out, _ = run(capsys, "--db", titled, "show", ref)
        assert out.startswith(heading + "\n\n")
        assert out.split("\n\n")[0] == heading
    code, out, _ = run(capsys, "--db", titled, "show", "RelGNN")
    assert out.startswith("RelGNN\nComposite Message Passing for Relational Deep Learning\n\n")


def test_a_tag_prefix_or_a_tag_shared_by_prefix_is_exported_as_a_query(seeded, tmp_path, capsys):
    # `#to` is a prefix in the query language: it selects #to-read and #today, so its export
    # is those results (sections per tag), never an empty export of a tag "to".
    run(capsys, "--db", seeded, "tag", "RelGNN", "+to-read")
    run(capsys, "--db", seeded, "tag", "SUICA", "+today")
    for query, wanted in [("#to", 2), ("TAG:to", 2), ("#to-read", 1), ("TAG:to-read", 1)]:
        target = tmp_path / f"{len(query)}-{query.replace(':', '').replace('#', '')}.md"
        code, out, err = run(capsys, "--db", seeded, "export", query, "-o", target)
        assert code == 0, err
        assert out == f"wrote {wanted} paper{'s' if wanted > 1 else ''} to {target}\n"
        headings = [line for line in target.read_text().splitlines() if line.startswith("#")]
        if wanted == 1:
            assert headings[1:] == ["## to-read"]
        else:
            assert headings[1:] == ["## to-read", "## today"]


def test_export_to_dash_is_standard_output(seeded, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "--db", seeded, "export", "relgnn", "-o", "-")
    assert code == 0 and out.startswith("# Reading list: relgnn\n")
    assert not (tmp_path / "-").exists()
