"""Search engine benchmark: index build/load, per-keystroke engine time, whole-process runs vs fzf.

Run:  /work/venv/bin/python bench/bench_search.py [--corpus PATH] [--reps N] [--sizes 1000,10000,0]
      [--queries FILE] [--authors]    (field queries: --queries bench/queries_fields.txt --authors)

For each library size (0 = the whole corpus): index build time, cache save/load time, warm-up
time, then typing sessions: every query of bench/queries.txt typed one key at a time (`d`, `di`,
`dif`, ...), each prefix searched once per session with the engine's caches cleared before the
session (what an app does after start, where the word cache then helps the next keystroke). A
keystroke's time is its minimum over N sessions (the shared machine is noisy); reported: median,
p95 and max over full queries and over every keystroke, as wall time and as this thread's CPU
time (which other processes' load inflates less). Then whole processes on the full corpus:
`fzf --filter` (exact and fuzzy) over one line per paper vs bench_search_process.py (load
papers.json, load the cached index, search, print every hit). Peak RSS of this process at the end.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from queries import read_queries  # bench/queries.py (the script's folder)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from papershelf.storage.model import Entry, Paper  # noqa: E402
from papershelf.storage.search.engine import SearchEngine  # noqa: E402

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")


def load_papers(path: Path) -> list[Paper]:
    """The corpus through the real importer."""
    from papershelf.storage.ingest.parse import parse_bytes

    return list(parse_bytes(path.read_bytes(), path.name).papers)


def synthetic_entries(papers: list[Paper]) -> dict[str, Entry]:
    """Some user state, so that #tag and is: filters have something to do."""
    entries: dict[str, Entry] = {}
    for i, paper in enumerate(papers):
        if i % 37 == 0:
            entries[paper.id] = Entry(tags=frozenset({"to-read"}))
        elif i % 53 == 0:
            entries[paper.id] = Entry(status="read", note="good baseline for planning")
    return entries


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def sessions(
    engine: SearchEngine, queries: list[str], entries: dict, reps: int, clock=time.perf_counter
) -> dict:
    best: dict[tuple[int, int], float] = {}
    for _ in range(reps):
        engine.clear_caches()
        engine.warm()
        for qi, query in enumerate(queries):
            for k in range(1, len(query) + 1):
                start = clock()
                engine.results(query[:k], entries)
                elapsed = clock() - start
                key = (qi, k)
                best[key] = min(best.get(key, elapsed), elapsed)
    full = [best[(qi, len(q))] for qi, q in enumerate(queries)]
    keys = list(best.values())
    worst = max(best, key=best.__getitem__)
    return {
        "full": full,
        "keys": keys,
        "worst": (queries[worst[0]][: worst[1]], best[worst]),
    }


def report(label: str, result: dict) -> None:
    full, keys = result["full"], result["keys"]
    print(
        f"{label} full queries ({len(full)}): median {ms(statistics.median(full))}"
        f" · p95 {ms(percentile(full, 95))} · max {ms(max(full))}"
    )
    print(
        f"{label} every keystroke ({len(keys)}): median {ms(statistics.median(keys))}"
        f" · p95 {ms(percentile(keys, 95))}"
        f" · max {ms(result['worst'][1])} ({result['worst'][0]!r})"
    )


def bench_size(papers: list[Paper], queries: list[str], reps: int, tmp: Path) -> None:
    n = len(papers)
    entries = synthetic_entries(papers)
    start = time.perf_counter()
    engine = SearchEngine(papers)
    build = time.perf_counter() - start
    cache = tmp / f"index-{n}.bin"
    start = time.perf_counter()
    engine.save(cache)
    save = time.perf_counter() - start
    start = time.perf_counter()
    loaded = SearchEngine.load(cache, papers)
    load = time.perf_counter() - start
    start = time.perf_counter()
    loaded.warm()
    warm = time.perf_counter() - start
    result = sessions(loaded, queries, entries, reps)
    cpu = sessions(loaded, queries, entries, reps, clock=time.thread_time)
    counts = [len(loaded.search(q, entries)) for q in queries]
    print(f"\n== {n} papers ==")
    print(f"index build {ms(build)} · save {ms(save)} ({cache.stat().st_size / 1e6:.1f} MB)")
    print(f"load from cache {ms(load)} · warm-up {ms(warm)}")
    report("wall", result)
    report("cpu ", cpu)
    print(
        f"hits per full query: min {min(counts)} · median {statistics.median(counts)}"
        f" · max {max(counts)}"
    )


def run(cmd: list[str], stdin: Path | None = None) -> tuple[float, int]:
    start = time.perf_counter()
    with open(stdin or "/dev/null", "rb") as source:
        done = subprocess.run(cmd, stdin=source, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    return elapsed, done.stdout.count(b"\n")


def bench_processes(papers: list[Paper], tmp: Path, reps: int) -> None:
    fzf = shutil.which("fzf")
    lines = tmp / "papers.txt"
    lines.write_text(
        "".join(
            " ".join(f"{p.name} | {p.title or ''} | {p.abstract}".split()) + "\n" for p in papers
        ),
        encoding="utf-8",
    )
    (tmp / "papers.json").write_text(json.dumps([p.to_dict() for p in papers]), encoding="utf-8")
    ours = [sys.executable, str(HERE / "bench_search_process.py"), str(tmp)]
    first, _ = run([*ours, "warm the cache"])
    print(f"\n== whole processes, {len(papers)} papers (median of {reps}) ==")
    print(f"ours, first run (builds and saves the index cache): {ms(first)}")
    baseline, _ = run([sys.executable, "-c", "import papershelf.storage.search.engine"])
    print(f"python -c 'import papershelf.storage.search.engine' alone: {ms(baseline)}")
    for query in ("diffusion", "graph neural network", "trasnformer", "score matching", "d"):
        row = [f"{query!r:24}"]
        if fzf:
            for label, extra in (("fzf --exact", ["--exact"]), ("fzf fuzzy", [])):
                times = [run([fzf, f"--filter={query}", *extra], lines) for _ in range(reps)]
                row.append(
                    f"{label} {ms(statistics.median(t for t, _ in times))} ({times[0][1]} lines)"
                )
        times = [run([*ours, query]) for _ in range(reps)]
        row.append(f"ours {ms(statistics.median(t for t, _ in times))} ({times[0][1]} hits)")
        print(" · ".join(row))
    if not fzf:
        print("fzf not installed: apt-get install -y fzf")
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS of any child process: {child:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--sizes", default="1000,10000,0", help="library sizes; 0 = all")
    parser.add_argument("--no-processes", action="store_true")
    parser.add_argument("--queries", type=Path, help="another query file (default: queries.txt)")
    parser.add_argument(
        "--authors",
        action="store_true",
        help="synthetic authors for the papers (the corpus has none)",
    )
    args = parser.parse_args()
    start = time.perf_counter()
    papers = load_papers(args.corpus)
    print(f"loaded {len(papers)} papers with ingest.parse in {time.perf_counter() - start:.1f} s")
    if args.authors:
        from synthetic_authors import with_authors  # bench/ (the script's folder)

        papers = with_authors(papers)
        print(f"synthetic authors: {sum(len(p.authors) for p in papers)} names")
    queries = read_queries(args.queries) if args.queries else read_queries()
    print(f"{len(queries)} queries, {sum(len(q) for q in queries)} keystrokes")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for size in (int(s) for s in args.sizes.split(",")):
            bench_size(papers[:size] if size else papers, queries, args.reps, tmp)
        if not args.no_processes:
            bench_processes(papers, tmp, max(args.reps, 5))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS of this process (corpus + engines): {rss:.0f} MB")


if __name__ == "__main__":
    main()
