"""Two processes changing the same library at once lose none of each other's updates."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from synthetic import make_papers

from papershelf.storage.library.library import Library

pytestmark = pytest.mark.slow

CHANGES = 100

WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from papershelf.storage.library.library import Library

    root, who, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    library = Library.open(root, seed=False)
    ids = [paper.id for paper in library.papers()]
    print("ready", flush=True)
    sys.stdin.readline()  # both start together
    for i in range(count):
        # Both processes work on the same papers, so every write races the other's.
        library.tag([ids[i % len(ids)]], add=[f"{who}-{i}"])
        if i % 10 == 0:
            library.set_status([ids[(i // 10) % len(ids)]], "reading")
    print("done", flush=True)
    """
)


def test_two_processes_each_make_100_changes_and_all_200_survive(tmp_path: Path):
    root = tmp_path / "lib"
    Library.open(root, seed=False).import_papers(make_papers(5), "synthetic.txt")
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(root), who, str(CHANGES)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for who in ("left", "right")
    ]
    for writer in writers:
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
    for writer in writers:
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    outputs = [writer.communicate(timeout=120) for writer in writers]
    assert [writer.returncode for writer in writers] == [0, 0], outputs
    assert [err for _, err in outputs] == ["", ""]
    library = Library.open(root, seed=False)
    tags = library.tag_counts()
    expected = {f"{who}-{i}" for who in ("left", "right") for i in range(CHANGES)}
    assert set(tags) == expected
    assert sum(tags.values()) == 2 * CHANGES
    assert all(entry.status == "reading" for entry in library.entries().values())
