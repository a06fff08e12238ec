"""Naming records a chunk at a time (`ingest.naming`): the same papers inline and in worker
processes, in file order, with a bad record still refused at its line and the pool closed."""

from __future__ import annotations

import json
import multiprocessing
import os
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import pytest

import papershelf.storage.ingest.naming as naming
from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.naming import Draft, draft, named
from papershelf.storage.ingest.parse import parse_bytes
from papershelf.storage.names.derive import derive_name

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ingest"


def _records() -> list[dict[str, object]]:
    """153 real-shaped records: URLs, math, emphasis, LaTeX, naming cues, no abstract."""
    lines = []
    for name in ("golden_excerpt.jsonl", "corpus_excerpt.jsonl"):
        lines += (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _jsonl(records: list[dict[str, object]]) -> bytes:
    return "\n".join(json.dumps(record) for record in records).encode()


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 16 and a pool after 40 records, with one worker: a small file takes every path
    a 100,000-paper one does."""
    monkeypatch.setattr(naming, "CHUNK", 16)
    monkeypatch.setattr(naming, "POOL_AFTER", 40)
    monkeypatch.setenv(naming.WORKERS_VARIABLE, "1")


def _without_pool(monkeypatch: pytest.MonkeyPatch, data: bytes, source: str) -> list[object]:
    with monkeypatch.context() as patch:
        patch.setenv(naming.WORKERS_VARIABLE, "0")
        return list(parse_bytes(data, source, now="t").papers)


def test_named_gives_each_item_its_own_name_in_order_across_chunks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(naming, "CHUNK", 7)  # 153 records: 21 whole chunks and a short one
    drafts = [draft(str(record.get("abstract") or ""), title=None) for record in _records()]
    got = list(named(iter(drafts), Draft.name_args))
    assert [item for item, _ in got] == drafts
    assert [name for _, name in got] == [
        derive_name(d.abstract, code_urls=d.code_urls) for d in drafts
    ]


@pytest.mark.usefixtures("small_chunks")
def test_a_pool_names_a_large_json_lines_file_as_this_process_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = _jsonl(_records())
    papers = list(parse_bytes(data, "many.jsonl", now="t").papers)
    assert papers == _without_pool(monkeypatch, data, "many.jsonl")
    assert len(papers) > naming.POOL_AFTER
    assert multiprocessing.active_children() == []  # the worker is gone with the file read


@pytest.mark.usefixtures("small_chunks")
def test_the_pool_starts_only_past_its_threshold_and_works_while_items_are_read() -> None:
    drafts = [draft(str(record.get("abstract") or "")) for record in _records()]
    children: list[int] = []

    def counted() -> Iterator[Draft]:
        for index, item in enumerate(drafts):
            if index in (30, 120):
                children.append(len(multiprocessing.active_children()))
            yield item

    names = [name for _, name in named(counted(), Draft.name_args)]
    assert names == [derive_name(d.abstract, code_urls=d.code_urls) for d in drafts]
    assert children[0] == 0  # 30 records: no process started
    assert children[1] == 1  # 120 records: one worker naming chunks
    assert multiprocessing.active_children() == []


@pytest.mark.usefixtures("small_chunks")
def test_an_abstract_list_named_by_a_pool_keeps_its_header_venue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    abstracts = [str(r["abstract"]) for r in _records() if r.get("abstract")]
    text = "ICML 2025 Accepted Papers\n\n" + "\n\n".join(abstracts) + "\n"
    data = text.encode()
    papers = parse_bytes(data, "icml.txt", now="t").papers
    assert papers == _without_pool(monkeypatch, data, "icml.txt")
    assert len(papers) > naming.POOL_AFTER
    assert {paper.venue for paper in papers} == {"ICML 2025"}


@pytest.mark.usefixtures("small_chunks")
def test_a_bad_record_after_many_is_refused_at_its_line_and_the_pool_is_closed() -> None:
    records = _records()
    data = _jsonl(records) + b"\n[1, 2]\n" + _jsonl(records[:20])
    with pytest.raises(IngestError) as raised:
        parse_bytes(data, "bad.jsonl", now="t")
    assert str(raised.value) == (
        f"bad.jsonl, line {len(records) + 1}: a JSON record must be an object"
    )
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize(
    ("value", "expected"),
    [("0", 0), ("1", 1), ("2", 2), ("64", naming.MAX_WORKERS), (" 1 ", 1)],
)
def test_the_variable_sets_the_worker_count(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: int
) -> None:
    monkeypatch.setenv(naming.WORKERS_VARIABLE, value)
    assert naming.worker_count() == expected


@pytest.mark.parametrize("value", ["", "many", "-1"])
def test_without_a_count_the_workers_are_what_the_idle_cpus_allow(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(naming.WORKERS_VARIABLE, value)
    assert 0 <= naming.worker_count() <= min(len(os.sched_getaffinity(0)) - 1, naming.MAX_WORKERS)


@pytest.mark.parametrize(
    ("cpus", "load", "expected"),
    [
        (2, 0.0, 1),  # an idle machine: this process and a worker
        (2, 1.0, 1),  # the load is this import
        (2, 1.6, 0),  # most of the other CPU is taken
        (2, 8.0, 0),  # a shared machine: a worker would only add its cost
        (1, 0.0, 0),
        (4, 1.0, 3),
        (4, 2.2, 2),
        (16, 0.5, naming.MAX_WORKERS),
    ],
)
def test_workers_run_only_on_cpus_the_machine_leaves_idle(
    cpus: int, load: float, expected: int
) -> None:
    assert naming.free_workers(cpus, load) == expected


def test_while_a_worker_is_busy_this_process_names_a_chunk_it_has_not_started() -> None:
    args = [draft(str(record.get("abstract") or "")).name_args() for record in _records()]
    chunks = [naming._Chunk(list(args), list(args)) for _ in range(4)]
    chunks[0] = naming._Chunk(args * 8, args * 8)  # a worker is busy with it for a while
    pool = naming._Pool(1)
    try:
        for chunk in chunks:
            chunk.future = pool.submit(chunk.args)
        pending = deque(chunks)
        naming._share(pending, pool)
        # The newest chunk waited behind the first two (the executor queues two for a worker).
        assert chunks[-1].future is None
        assert chunks[-1].names == naming.derive_names(args)
        names = [name for chunk in pending for _, name in chunk.named(pool)]
        assert names == naming.derive_names(args * 8 + args * 3)
    finally:
        pool.close()
    assert multiprocessing.active_children() == []
