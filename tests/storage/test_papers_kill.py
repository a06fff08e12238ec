"""papers.json is written a document at a time (`jsonstore.dump_chunks`) and papers.cache points
into it: a process SIGKILLed in the middle of either write leaves a library that opens with the
papers of before (or of after), answers from papers.json, and imports again."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from papershelf.storage.library import papers_cache
from papershelf.storage.library.library import Library

# The child SIGKILLs itself at a chosen moment of its import: os.write and os.replace (the
# operating system's, not papershelf's) are wrapped before papershelf runs.
CHILD = """
import os, signal, sys
from pathlib import Path
root, corpus, point = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
real_write, real_replace = os.write, os.replace
chunks = {"papers": 0}

def path_of(fd):
    return os.readlink(f"/proc/self/fd/{fd}")

def write(fd, data):
    if Path(path_of(fd)).name.startswith(".papers.json."):
        chunks["papers"] += 1
        if point == "mid_papers" and chunks["papers"] == 2:
            real_write(fd, bytes(data[: len(data) // 2]))
            os.kill(os.getpid(), signal.SIGKILL)
    return real_write(fd, data)

def replace(src, dst):
    name = Path(dst).name
    if point == "before_cache" and name == "papers.cache" and chunks.get("replaced"):
        os.kill(os.getpid(), signal.SIGKILL)
    real_replace(src, dst)
    chunks["replaced"] = chunks.get("replaced") or name == "papers.json"

os.write, os.replace = write, replace
from papershelf.storage.library.library import Library
Library.open(root, seed=False).import_files([corpus])
"""


def corpus(path: Path, count: int, prefix: str) -> Path:
    """A JSON Lines file of `count` papers with abstracts long enough that papers.json takes
    several of the writer's 1 MiB chunks."""
    with path.open("w") as handle:
        for n in range(count):
            words = " ".join(f"{prefix}word{n}x{k}" for k in range(60))
            record = {"title": f"{prefix.title()} paper {n}", "abstract": f"We study {words}."}
            handle.write(json.dumps(record) + "\n")
    return path


@pytest.mark.parametrize("point", ["mid_papers", "before_cache"])
def test_a_kill_while_papers_are_written_leaves_a_usable_library(
    tmp_path: Path, point: str
) -> None:
    root = tmp_path / "lib"
    first = corpus(tmp_path / "first.jsonl", 1500, "first")
    library = Library.open(root, seed=False)
    library.import_files([first])
    before = list(library.papers())
    later = corpus(tmp_path / "later.jsonl", 1500, "later")
    child = tmp_path / "child.py"
    child.write_text(CHILD)
    done = subprocess.run(
        [sys.executable, str(child), str(root), str(later), point], check=False, timeout=600
    )
    assert done.returncode == -signal.SIGKILL

    reopened = Library.open(root, seed=False)
    papers = list(reopened.papers())
    if point == "mid_papers":
        assert papers == before  # the half-written temp file never replaced papers.json
    else:
        assert len(papers) == 3000  # papers.json replaced; its cache was not
        assert papers[:1500] == before
    assert [path.name for path in root.glob(".*.tmp")] == []
    # The cache now matches papers.json again, abstracts and all.
    key = reopened.papers_key
    assert key is not None
    cached = papers_cache.load(root / papers_cache.CACHE_FILE, key, root / "papers.json")
    assert cached is not None and cached[0] == papers
    (report,) = reopened.import_files([later])
    assert report.error is None
    assert len(Library.open(root, seed=False).papers()) == 3000
