"""The library a command works on: opened once per command, and searched with the query language."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf.cli import output

if TYPE_CHECKING:
    from papershelf.storage.library.config import Config
    from papershelf.storage.library.library import Library
    from papershelf.storage.search.engine import Hit


def open_library(
    args: argparse.Namespace, *, read_only: bool = False, create: bool = False, seed: bool = False
) -> Library:
    """Open the library of `--db`; `main` reports its notices once the command is done.

    Only `import` and the app (`create`) may start a library: any other command on a directory
    that holds none (a mistyped `--db`) says so and exits 1 instead of seeding a new one.
    """
    from papershelf.storage.library.library import Library

    library = Library.open(named_root(args), seed=seed, read_only=read_only, create=create)
    args.opened.append(library)
    return library


def named_root(args: argparse.Namespace) -> str | Path | None:
    """The library the user named: --db, else (without $PAPERSHELF_HOME) the config's `library`;
    None leaves the choice to `files.layout.default_root` ($PAPERSHELF_HOME, the platform's)."""
    if args.db is None and not os.environ.get("PAPERSHELF_HOME", "").strip():
        return user_config(args).library
    return args.db


def user_config(args: argparse.Namespace) -> Config:
    """The user's config file, read once per command (only by those that need it: a `list` with
    --db or $PAPERSHELF_HOME never does). Each problem is one warning on stderr; the app shows
    them as notifications instead, so it is handed the config (`run_app`)."""
    config = getattr(args, "config", None)
    if config is None:
        from papershelf.storage.library.config import load_config

        config = args.config = load_config()
        if args.command is not None:
            for problem in config.problems:
                output.warning(problem)
    return config


def search(library: Library, words: Sequence[str], *, listing_failed: bool = False) -> list[Hit]:
    """Run a query; the index comes from the library's cache file (rebuilt when stale), and
    the listing cache is written for the next `list` when it is missing, stale or was found
    unusable (see `papershelf.storage.search.listing.open_engine`)."""
    from papershelf.storage.search.engine import parse_query
    from papershelf.storage.search.listing import open_engine

    query = parse_query(" ".join(words))
    query.check()  # an unknown `is:` value is the user's error, not an empty result
    engine = open_engine(
        library.root,
        library.papers_key,
        library.papers(),
        listing_failed=listing_failed,
        places=library.abstract_places,
    )
    hits = engine.search(query, library.entries())
    if query.notice:
        output.warning(query.notice)
    return hits
