"""The commands that change the user's state of papers: `tag`, `status`, `note`, `undo`, `redo`."""

from __future__ import annotations

import argparse

from papershelf.cli import output
from papershelf.cli.exits import EXIT_OK, EXIT_USER_ERROR
from papershelf.cli.output import PROG
from papershelf.cli.parser import UsageError
from papershelf.cli.shelf import open_library
from papershelf.storage.model import normalise_tag


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
    library = open_library(args)
    paper = library.find(args.ref)
    library.tag([paper.id], add=add, remove=remove)
    tags = " ".join(f"#{t}" for t in sorted(library.entry(paper.id).tags)) or "(no tags)"
    output.line(f"{paper.name}: {tags}")
    return EXIT_OK


def cmd_status(args: argparse.Namespace) -> int:
    """Set the reading status of one paper."""
    library = open_library(args)
    paper = library.find(args.ref)
    library.set_status([paper.id], args.status)
    output.line(f"{paper.name}: {args.status}")
    return EXIT_OK


def cmd_note(args: argparse.Namespace) -> int:
    """Print a paper's note; with --edit, edit it in the user's editor and save it on return."""
    library = open_library(args, read_only=not args.edit)
    paper = library.find(args.ref)
    note = library.entry(paper.id).note
    if not args.edit:
        if note:
            output.block(note)
        else:
            output.line(f"{paper.name}: no note (add one with {PROG} note {args.ref} --edit)")
        return EXIT_OK
    from papershelf.tui.external_editor import edit_note  # no Textual: a plain subprocess

    edit = edit_note(note, paper.name)
    if edit.note is None:
        if not edit.ok:
            output.error(f"{paper.name}: {edit.message}")
            return EXIT_USER_ERROR
        output.line(f"{paper.name}: {edit.message}")
        return EXIT_OK
    # The editor may have been open for long: another papershelf may have changed the note since.
    # Yours is saved either way, and undo brings theirs back (the step holds the note it replaced).
    library.refresh()
    changed_meanwhile = library.has(paper.id) and library.entry(paper.id).note != note
    library.set_note(paper.id, edit.note)
    output.line(f"{paper.name}: note saved ({PROG} undo takes it back)")
    if changed_meanwhile:
        output.warning(
            f"{paper.name}: the note was changed elsewhere while you edited it; "
            f"yours replaced it ({PROG} undo brings the other back)"
        )
    return EXIT_OK


def cmd_undo(args: argparse.Namespace) -> int:
    """Take back the latest change; print what it was."""
    library = open_library(args)
    message = library.undo()
    output.line(f"undone: {message}" if message is not None else "nothing to undo")
    return EXIT_OK


def cmd_redo(args: argparse.Namespace) -> int:
    """Do again the latest undone change; print what it was."""
    library = open_library(args)
    message = library.redo()
    output.line(f"redone: {message}" if message is not None else "nothing to redo")
    return EXIT_OK
