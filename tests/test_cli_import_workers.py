"""`papershelf import` of a large file names its records in a worker process (`ingest.naming`):
the same library as without one, and ctrl+c while the worker runs ends both quietly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "ingest"


def _large_file(path: Path, copies: int) -> Path:
    """`copies` variants of each fixture record (a sentence added to each abstract, the title
    numbered): more records than `naming.POOL_AFTER`, all distinct."""
    records = [
        json.loads(line)
        for line in (FIXTURES / "golden_excerpt.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    with path.open("w", encoding="utf-8") as handle:
        for copy in range(copies):
            for record in records:
                variant = dict(record)
                variant["abstract"] = f"{record.get('abstract') or ''} Variant {copy}."
                variant["title"] = f"{record.get('title') or 'Untitled'} ({copy})"
                handle.write(json.dumps(variant) + "\n")
    return path


def _import(root: Path, source: Path, workers: str) -> subprocess.Popen[str]:
    environment = dict(os.environ, PAPERSHELF_IMPORT_WORKERS=workers)
    command = [sys.executable, "-m", "papershelf", "--db", str(root), "import", str(source)]
    return subprocess.Popen(  # a job of its own, as a shell starts it: ctrl+c reaches all of it
        command,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # A foreground job's ctrl+c as a terminal gives it: when the tests themselves run as a
        # background job (`.ci/run &`), the shell started them with SIGINT ignored, and an
        # ignored signal stays ignored across exec (CI failed on that: the import never saw it).
        preexec_fn=_default_interrupts,
    )


def _default_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _papers(root: Path) -> dict[str, dict[str, object]]:
    table = json.loads((root / "papers.json").read_text(encoding="utf-8"))["papers"]
    papers = {}
    for document in table.values():
        document.pop("imported_at")
        papers[document["id"]] = document
    return papers


def test_a_large_import_with_a_worker_makes_the_library_it_makes_without(
    tmp_path: Path,
) -> None:
    source = _large_file(tmp_path / "large.jsonl", copies=20)  # 2,400 records
    runs = {}
    for workers in ("0", "1"):
        process = _import(tmp_path / f"db{workers}", source, workers)
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        assert err == ""
        runs[workers] = (out, _papers(tmp_path / f"db{workers}"))
    assert runs["0"] == runs["1"]
    assert "2400 added" in runs["1"][0]


def _ignores_interrupts(pid: int) -> bool:
    """Whether the process ignores SIGINT (its `SigIgn` mask in /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigIgn:"))
    return bool(int(mask, 16) & (1 << (signal.SIGINT - 1)))


def _workers(pid: int) -> list[int]:
    """The naming workers the process started (not multiprocessing's resource tracker, which
    ends on its own once the process has, and is left for init to reap)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    children = [int(child) for child in path.read_text().split()] if path.exists() else []
    return [child for child in children if b"spawn_main" in _command_line(child)]


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # gone already
        return b""


def test_ctrl_c_while_a_worker_names_ends_the_import_quietly_and_imports_nothing(
    tmp_path: Path,
) -> None:
    # 60,000 records: seconds of naming even on a fast machine, so that a loaded one (CI runs
    # tests two at a time) still shows the worker long enough to be seen.
    source = _large_file(tmp_path / "large.jsonl", copies=500)
    root = tmp_path / "db"
    process = _import(root, source, "1")
    deadline = time.monotonic() + 300
    workers: list[int] = []
    polls = seen = ignoring = 0
    # Until a worker runs and the import handles ctrl+c again (it ignores it while it starts one).
    while process.poll() is None and time.monotonic() < deadline:
        polls += 1
        workers = _workers(process.pid)
        seen += bool(workers)
        if workers and _ignores_interrupts(process.pid):
            ignoring += 1
        elif workers:
            break
        time.sleep(0.02)  # nothing to select on: the process table is polled
    if not workers:  # say why: the import ended (how) or never started a worker in time
        out, err = process.communicate(timeout=300) if process.poll() is not None else ("", "")
        raise AssertionError(
            f"no worker process seen to interrupt ({polls} polls, a worker in {seen}, ctrl+c "
            f"ignored in {ignoring}); import exit {process.returncode}, out {out!r}, err {err!r}"
        )
    os.killpg(process.pid, signal.SIGINT)  # what ctrl+c in a terminal does
    out, err = process.communicate(timeout=300)
    assert process.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    # Joined before the import ended: not even a zombie is left.
    assert all(not Path(f"/proc/{worker}").exists() for worker in workers)
    assert not (root / "papers.json").exists() or _papers(root) == {}
