"""Helper process for the kill tests (their libraries are built with `synthetic.py`).

Run as `python killworker.py ROOT`, it is a "zygote": it imports papershelf once, then for every
JSON command line on stdin it forks a child that opens the library in ROOT and performs a fixed,
seeded sequence of changes through papershelf's own `Library`, printing `ack <i>` after change i
returns (so an acknowledged change is one the Library reported as done). The child prints
`pid <n>` first; the zygote prints `exit <n> <status>` once the child is gone. Forking from a
process that has already imported everything keeps a trial at a few milliseconds.

Command fields: `seed` (int), `steps` (int), and optionally `kill_at` (one of `KILL_POINTS`): the
child then SIGKILLs itself at that point inside its first write of state.json, and `kill_after`
(int) skips that many such writes first.

A `remove` command (`{"remove": [ids], "kill_file": NAME, "kill_at": "before_replace" |
"after_replace"}`) removes those papers in one `Library.remove`, SIGKILLed around the replace of
the library file NAME (papers.json, journal.json or state.json) when `kill_file` is given.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry

KILL_POINTS = (
    "mid_temp_write",  # half of the temp file written
    "after_temp_fsync",  # temp file complete and synced, not yet renamed
    "before_replace",
    "after_replace",  # new state.json in place, directory not yet synced
    "mid_backup",  # the new state in place, while its backup copy is being kept
)
TAGS = ("a", "b", "c", "to-read")
STATUSES = ("unread", "reading", "read")

Op = tuple[Any, ...]


def make_ops(seed: int, ids: list[str], steps: int) -> list[Op]:
    """A deterministic sequence of changes on `ids`."""
    rng = random.Random(seed)
    ops: list[Op] = []
    for _ in range(steps):
        kind = rng.choice(("tag", "tag", "status", "star", "note"))
        paper_id = rng.choice(ids)
        if kind == "tag":
            ops.append(("tag", paper_id, rng.sample(TAGS, 1), rng.sample(TAGS, rng.randint(0, 1))))
        elif kind == "status":
            ops.append(("status", paper_id, rng.choice(STATUSES)))
        elif kind == "star":
            ops.append(("star", paper_id, rng.random() < 0.5))
        else:
            ops.append(("note", paper_id, rng.choice(("", "short note", f"note {rng.random()}"))))
    return ops


def simulate(entries: dict[str, Entry], op: Op) -> dict[str, Entry]:
    """The entries after `op`, computed independently of the Library (updated_at ignored)."""
    result = dict(entries)
    kind, paper_id = op[0], op[1]
    old = result.get(paper_id, Entry())
    if kind == "tag":
        new = replace(old, tags=(old.tags | frozenset(op[2])) - frozenset(op[3]))
    elif kind == "status":
        new = replace(old, status=op[2])
    elif kind == "star":
        new = replace(old, starred=op[2])
    else:
        new = replace(old, note=op[2])
    new = replace(new, updated_at=None)
    if new.is_default:
        result.pop(paper_id, None)
    else:
        result[paper_id] = new
    return result


def perform(library: Library, op: Op) -> None:
    """Apply `op` through the Library's public API."""
    kind, paper_id = op[0], op[1]
    if kind == "tag":
        library.tag([paper_id], add=op[2], remove=op[3])
    elif kind == "status":
        library.set_status([paper_id], op[2])
    elif kind == "star":
        library.set_starred([paper_id], op[2])
    else:
        library.set_note(paper_id, op[2])


def comparable(entries: dict[str, Entry] | Any) -> dict[str, Entry]:
    """Entries with `updated_at` cleared, for comparing with `simulate`'s results."""
    return {pid: replace(entry, updated_at=None) for pid, entry in dict(entries).items()}


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _fd_path(fd: int) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return ""


def install_kill(point: str, skip: int) -> None:
    """Make this process SIGKILL itself at `point` in its (skip+1)-th write of state.json."""
    seen = {"writes": 0}
    real_write, real_fsync, real_replace = os.write, os.fsync, os.replace

    def armed() -> bool:
        return seen["writes"] == skip

    def just_written() -> bool:
        # The backup of a version is kept right after that version replaced state.json.
        return seen["writes"] == skip + 1

    def is_state_temp(fd: int) -> bool:
        return Path(_fd_path(fd)).name.startswith(".state.json.")

    def write(fd: int, data: Any) -> int:
        if point == "mid_temp_write" and armed() and is_state_temp(fd) and len(data) > 1:
            real_write(fd, bytes(data[: len(data) // 2]))
            _die()
        return real_write(fd, data)

    def fsync(fd: int) -> None:
        real_fsync(fd)
        if point == "after_temp_fsync" and armed() and is_state_temp(fd):
            _die()

    def replace_(src: Any, dst: Any) -> None:
        to_state = Path(dst).name == "state.json"
        if to_state and point == "before_replace" and armed():
            _die()
        if point == "mid_backup" and just_written() and "backups" in str(dst):
            _die()
        real_replace(src, dst)
        if to_state:
            if point == "after_replace" and armed():
                _die()
            seen["writes"] += 1

    os.write, os.fsync, os.replace = write, fsync, replace_  # type: ignore[assignment]


def install_file_kill(name: str, point: str) -> None:
    """Make this process SIGKILL itself just before or just after (`point`) its first replace
    of the library file `name`."""
    real_replace = os.replace

    def replace_(src: Any, dst: Any) -> None:
        hit = Path(dst).name == name
        if hit and point == "before_replace":
            _die()
        real_replace(src, dst)
        if hit and point == "after_replace":
            _die()

    os.replace = replace_  # type: ignore[assignment]


def run_child(root: Path, command: dict[str, Any], emit: Callable[[str], None]) -> None:
    """The forked child: perform the seeded changes, acknowledging each."""
    emit(f"pid {os.getpid()}")
    library = Library.open(root, seed=False)
    if "remove" in command:
        if command.get("kill_file"):
            install_file_kill(command["kill_file"], command["kill_at"])
        library.remove(command["remove"])
        emit("ack 1")
        emit("done")
        return
    ids = worker_ids(library)
    if command.get("kill_at"):
        install_kill(command["kill_at"], int(command.get("kill_after", 0)))
    for i, op in enumerate(make_ops(command["seed"], ids, command["steps"]), start=1):
        perform(library, op)
        emit(f"ack {i}")
    emit("done")


def worker_ids(library: Library) -> list[str]:
    """The papers the worker changes: the first half; the rest are bystanders."""
    papers = library.papers()
    return [paper.id for paper in papers[: len(papers) // 2]]


def main() -> None:
    root = Path(sys.argv[1])

    def emit(line: str) -> None:
        os.write(1, (line + "\n").encode())

    for line in sys.stdin:
        command = json.loads(line)
        pid = os.fork()
        if pid == 0:
            try:
                run_child(root, command, emit)
            except BaseException as error:
                emit(f"error {type(error).__name__}: {error}")
                os._exit(1)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        emit(f"exit {pid} {status}")


if __name__ == "__main__":
    main()
