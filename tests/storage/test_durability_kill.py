"""Kill tests (DESIGN §8): a worker changing entries is SIGKILLed at random and at targeted moments
inside the write; after every kill the library opens, no acknowledged change is lost, no other
entry changed, and no temp file is left.

Each trial's changes come from a seed fixed per trial, and the check accepts exactly the two
outcomes a kill can produce (the in-flight change absent or present), so the verdict does not
depend on where the kill lands. `PAPERSHELF_KILL_TRIALS` raises the number of random-kill trials.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from killworker import (
    KILL_POINTS,
    comparable,
    make_ops,
    simulate,
    worker_ids,
)
from synthetic import synthetic_library

from papershelf.storage.library.journal import JournalStore
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper

pytestmark = pytest.mark.slow

RANDOM_TRIALS = int(os.environ.get("PAPERSHELF_KILL_TRIALS", "150"))
TARGETED_TRIALS = 10  # per kill point: 5 points x 10 = 50
STEPS = 8  # changes per targeted trial
RANDOM_STEPS = 30  # changes per random trial: the kill comes long before the last one
WORKER = Path(__file__).with_name("killworker.py")
DEADLINE = 30.0  # seconds a single trial may take before the test fails (a hang, not a timing)


class Zygote:
    """The killworker process and a line reader over its stdout."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(WORKER), str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=WORKER.parent,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin = self.process.stdin
        self.fd = self.process.stdout.fileno()
        self.buffer = b""

    def send(self, command: dict[str, object]) -> None:
        self.stdin.write((json.dumps(command) + "\n").encode())
        self.stdin.flush()

    def line(self, timeout: float) -> str | None:
        """The next line, or None if none arrives within `timeout` seconds."""
        end = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            chunk = os.read(self.fd, 4096)
            if not chunk:
                raise AssertionError(f"killworker ended: {self.buffer!r}")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    def close(self) -> None:
        self.stdin.close()
        self.process.wait(timeout=DEADLINE)


def run_trial(zygote: Zygote, command: dict[str, object], rng: random.Random | None) -> int:
    """Run one child; kill it at a random moment when `rng` is given. Returns the acks seen."""
    zygote.send(command)
    acks = 0
    pid = None
    # With a random kill: wait for a random number of acks, then a random extra fraction of a
    # change (reading with a deadline), then SIGKILL wherever the child happens to be.
    kill_after_acks = rng.randrange(0, RANDOM_STEPS // 3) if rng else None
    extra = rng.uniform(0.0, 0.004) if rng else 0.0
    killed = False
    kill_at: float | None = None
    while True:
        wait = DEADLINE
        if rng and not killed and pid is not None and acks >= (kill_after_acks or 0):
            kill_at = kill_at or time.monotonic() + extra
            wait = max(0.0, kill_at - time.monotonic())
        line = zygote.line(wait)
        if line is None:
            if wait == DEADLINE:
                raise AssertionError("trial hung")
            with contextlib.suppress(ProcessLookupError):  # it may have just finished
                os.kill(pid, signal.SIGKILL)  # type: ignore[arg-type]
            killed = True
            continue
        word, _, rest = line.partition(" ")
        if word == "pid":
            pid = int(rest)
        elif word == "ack":
            acks = int(rest)
        elif word == "done":
            killed = True  # finished before the kill: nothing left to interrupt
        elif word == "error":
            raise AssertionError(f"worker failed: {rest}")
        elif word == "exit":
            return acks


@pytest.fixture
def library_root(tmp_path: Path) -> Path:
    """A small library: 20 papers; the second half (bystanders) carry entries nobody touches."""
    root = tmp_path / "lib"
    library = synthetic_library(root, 20)
    bystanders = [paper.id for paper in library.papers()[10:]]
    library.tag(bystanders[:5], add=["keep", "bystander"])
    library.set_status(bystanders[3:], "read")
    library.set_note(bystanders[-1], "untouched note")
    return root


def check_after_kill(root: Path, before: dict, ops: list, acks: int, point: str | None) -> dict:
    """Open the library as a user would and compare with the two admissible outcomes."""
    papers_before = (root / "papers.json").read_bytes()
    library = Library.open(root, seed=False)
    leftovers = [path.name for path in root.rglob("*.tmp")]
    assert leftovers == [], "temp files survive an open"
    assert (root / "papers.json").read_bytes() == papers_before, "a tag change touched papers.json"
    actual = comparable(library.entries())
    states = [before]
    for op in ops:
        states.append(simulate(states[-1], op))
    acknowledged = states[acks]
    in_flight = states[acks + 1] if acks < len(ops) else acknowledged
    if point in ("mid_temp_write", "after_temp_fsync", "before_replace"):
        assert actual == acknowledged, f"kill {point} after {acks} acks changed the library"
    elif point in ("after_replace", "mid_backup"):
        assert actual == in_flight, "a change already renamed into place was lost"
    else:
        assert actual in (acknowledged, in_flight), f"state after {acks} acks is neither outcome"
    return actual


def test_random_kills_lose_no_acknowledged_change(library_root: Path) -> None:
    ids = worker_ids(Library.open(library_root, seed=False))
    before = comparable(Library.open(library_root, seed=False).entries())
    zygote = Zygote(library_root)
    kills = 0
    try:
        for trial in range(RANDOM_TRIALS):
            rng = random.Random(trial)
            seed = 10_000 + trial
            acks = run_trial(zygote, {"seed": seed, "steps": RANDOM_STEPS}, rng)
            kills += acks < RANDOM_STEPS
            ops = make_ops(seed, ids, RANDOM_STEPS)
            before = check_after_kill(library_root, before, ops, acks, None)
    finally:
        zygote.close()
    # The trials must really be interrupted, or the test would prove nothing. A child needs
    # 20 more changes after the kill is due to escape it, so this holds however loaded the host.
    assert kills >= RANDOM_TRIALS * 0.9


@pytest.mark.parametrize("point", KILL_POINTS)
def test_targeted_kills_inside_the_write(library_root: Path, point: str) -> None:
    ids = worker_ids(Library.open(library_root, seed=False))
    before = comparable(Library.open(library_root, seed=False).entries())
    zygote = Zygote(library_root)
    try:
        for trial in range(TARGETED_TRIALS):
            seed = 20_000 + trial
            command = {"seed": seed, "steps": STEPS, "kill_at": point, "kill_after": trial % 4}
            acks = run_trial(zygote, command, None)
            ops = make_ops(seed, ids, STEPS)
            assert acks < STEPS, "the targeted kill never fired"
            before = check_after_kill(library_root, before, ops, acks, point)
    finally:
        zygote.close()


REMOVE_KILLS = [
    (name, point)
    for name in ("papers.json", "journal.json", "state.json")
    for point in ("before_replace", "after_replace")
]


@pytest.mark.parametrize(("name", "point"), [*REMOVE_KILLS, ("", "")])
def test_a_removal_killed_around_any_of_its_writes_loses_nothing(
    library_root: Path, name: str, point: str
) -> None:
    """Killed before or after any of its three writes (papers.json, the journal, state.json),
    a removal leaves every paper in papers.json (its papers or its removed table) and every
    entry in state.json or in the journal; undo, then an import that brings removed papers
    back, restores the library exactly (papers in order, entries)."""
    library = Library.open(library_root, seed=False)
    order = [paper.id for paper in library.papers()]
    entries = comparable(library.entries())
    # Bystanders with tags, a note and a status, and a paper with no entry.
    doomed = [order[0], *order[10:13], order[-1]]
    assert any(pid in entries for pid in doomed)
    zygote = Zygote(library_root)
    try:
        command = {"remove": doomed, "kill_file": name, "kill_at": point}
        acks = run_trial(zygote, command, None)
    finally:
        zygote.close()
    assert acks == (0 if name else 1)

    library = Library.open(library_root, seed=False)
    assert [path.name for path in library_root.rglob("*.tmp")] == []
    papers = json.loads((library_root / "papers.json").read_text())
    kept = {doc["id"] for table in ("papers", "removed") for doc in papers.get(table, {}).values()}
    assert kept == set(order), "a paper is in neither papers.json table"
    history = JournalStore(library_root).peek()
    for pid in doomed:
        if pid in entries and pid not in library.entries():
            step = history.undo[-1]
            assert comparable({pid: step.before[pid]}) == {pid: entries[pid]}

    undone = bool(history.undo) and history.undo[-1].description.startswith("remove")
    if undone:
        library.undo()
        assert [paper.id for paper in library.papers()] == order  # back in their places
    else:
        # Killed before the journal had the step: the records are in the removed table, the
        # entries still in state.json.
        removed = [Paper.from_dict(doc) for doc in papers.get("removed", {}).values()]
        library.import_papers(removed, "again.txt", include_removed=True)
        assert sorted(paper.id for paper in library.papers()) == sorted(order)
    journal_written = name != "papers.json" and (name, point) != ("journal.json", "before_replace")
    assert undone == journal_written
    assert comparable(library.entries()) == entries
