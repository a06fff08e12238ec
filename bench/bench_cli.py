"""Whole-process CLI benchmark: `Library.open`, and `papershelf list QUERY` vs `fzf --filter`.

    /work/venv/bin/python bench/bench_cli.py [--root DIR] [--runs N] [--query Q ...]
        [--queries-file FILE] [--fuzzy] [--baseline SRC] [--no-open] [--no-fzf] [--no-pyc]

`--root` is a library of the corpus (default /tmp/perf-db; make it with
`papershelf --db /tmp/perf-db import /work/shared/corpus/ml-abstracts.jsonl`).
`--baseline SRC` also times another source tree side by side (a directory holding `storage/` and
`tui/`, e.g. `git archive HEAD storage tui | tar -x -C SRC`): before / after in one run. When the
two trees write their caches in different formats, give the baseline its own copy of the
library with `--baseline-root DIR` (`cp -a ROOT DIR`): sharing one, each tree would find the
other's caches unusable and rebuild them on every run.

1. `Library.open(root)` timed inside fresh processes (wall and CPU): with `papers.cache` as it is,
   and with it removed before each run (the papers.json path, which also rewrites the cache);
   then `storage.search.listing.load(root)`, what `list` reads instead (trees that have it).
2. `papershelf --db ROOT list QUERY` and `fzf --filter=QUERY --exact` over one line per paper
   (`id name | title | abstract`, the text `list` searches), side by side: every run goes through
   every query, and within a query the commands rotate which goes first, so the noise of the
   shared machine falls on all of them. Wall time per process and CPU time (user + system, from
   the children's rusage) are reported as medians, with the ratio ours / fzf (exact). With
   `--fuzzy`, fzf's default fuzzy filter runs in the same rotation. A warm-up run
   first lets each tree write its caches (`listing.cache`, `search-index.bin`), as the first
   `list` after an import does.

Child processes get a bytecode cache in a temp directory (as an installed papershelf has its
.pyc files) unless `--no-pyc`, which keeps `PYTHONDONTWRITEBYTECODE` as the environment sets it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from queries import read_queries  # bench/queries.py (the script's folder)

REPO = Path(__file__).resolve().parent.parent
QUERIES = (
    "diffusion",
    "graph neural network",
    "trasnformer",
    "reinforcement learning",
    "large language model reasoning",
    "contrastive",
)
OPEN_CODE = """
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from papershelf.storage.library.library import Library
t1, c1 = time.perf_counter(), time.process_time()
library = Library.open(sys.argv[1], seed=False)
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"import": t1 - t0, "open": t2 - t1, "open_cpu": c2 - c1,
                  "papers": len(library.papers())}))
"""

LISTING_CODE = """
import json, sys, time
from pathlib import Path
t0, c0 = time.perf_counter(), time.process_time()
from papershelf.storage.search import listing
t1, c1 = time.perf_counter(), time.process_time()
shelf = listing.load(Path(sys.argv[1]))
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"import": t1 - t0, "open": t2 - t1, "open_cpu": c2 - c1,
                  "papers": len(shelf.papers) if shelf is not None else -1}))
"""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


class Runner:
    """Runs child processes from one source tree, with a shared environment."""

    def __init__(self, label: str, source: Path, env: dict[str, str], root: Path) -> None:
        self.label = label
        self.source = source
        self.env = env
        self.root = root
        """The library this tree runs on."""

    def timed(
        self, cmd: list[str], stdin: Path | None = None, ok: tuple[int, ...] = (0,)
    ) -> tuple[float, float, bytes]:
        """Wall seconds, CPU seconds (user + system) and stdout of one process."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        with open(stdin or os.devnull, "rb") as source:
            done = subprocess.run(
                cmd, stdin=source, capture_output=True, check=False, cwd=self.source, env=self.env
            )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if done.returncode not in ok:
            raise SystemExit(f"{cmd[:3]} failed ({done.returncode}): {done.stderr.decode()[-800:]}")
        return wall, cpu, done.stdout

    def papershelf(self, root: Path, *words: str) -> list[str]:
        # `-m` from the source tree: sys.path[0] is the tree, ahead of the editable install.
        return [sys.executable, "-m", "papershelf.cli.main", "--db", str(root), *words]


def bench_open(root: Path, runners: list[Runner], runs: int) -> None:
    print(f"== Library.open({root}), fresh process each, median of {runs} ==")
    for runner in runners:  # compiles the bytecode (and writes the tree's papers.cache)
        runner.timed([sys.executable, "-c", OPEN_CODE, str(runner.root)])
    for label, remove in (("papers.cache as it is", False), ("without papers.cache", True)):
        rows: dict[str, list[dict[str, float]]] = {r.label: [] for r in runners}
        for _ in range(runs):
            for runner in runners:
                if remove:
                    (runner.root / "papers.cache").unlink(missing_ok=True)
                _, _, out = runner.timed([sys.executable, "-c", OPEN_CODE, str(runner.root)])
                rows[runner.label].append(json.loads(out))
        for runner in runners:
            got = rows[runner.label]
            print(
                f"{runner.label:9} {label:22} open {ms(statistics.median(r['open'] for r in got))}"
                f" (cpu {ms(statistics.median(r['open_cpu'] for r in got))})"
                f" · import Library {ms(statistics.median(r['import'] for r in got))}"
                f" · {got[0]['papers']} papers"
            )
    # Leave a cache in place for the `list` runs.
    for runner in runners:
        if runner is runners[0] or runner.root != root:
            runner.timed([sys.executable, "-c", OPEN_CODE, str(runner.root)])
    for runner in runners:
        if not (runner.source / "storage" / "listing.py").exists():
            continue
        runner.timed(runner.papershelf(runner.root, "list", "warm up"))  # writes listing.cache
        got = [
            json.loads(runner.timed([sys.executable, "-c", LISTING_CODE, str(runner.root)])[2])
            for _ in range(runs)
        ]
        load = ms(statistics.median(r["open"] for r in got))
        print(
            f"{runner.label:9} {'listing.load':22} load {load}"
            f" (cpu {ms(statistics.median(r['open_cpu'] for r in got))})"
            f" · import listing {ms(statistics.median(r['import'] for r in got))}"
            f" · {got[0]['papers']} papers"
        )


def write_lines(root: Path, target: Path) -> int:
    """One line per paper for fzf: the same fields `list` searches."""
    sys.path.insert(0, str(REPO))
    from papershelf.storage.library.library import Library

    papers = Library.open(root, seed=False).papers()
    with open(target, "w", encoding="utf-8") as out:
        for p in papers:
            out.write(" ".join(f"{p.id} {p.name} | {p.title or ''} | {p.abstract}".split()) + "\n")
    return len(papers)


def bench_list(
    root: Path,
    queries: list[str],
    runs: int,
    runners: list[Runner],
    fzf: str | None,
    fuzzy: bool = False,
) -> None:
    main = runners[0]
    with tempfile.TemporaryDirectory() as tmp:
        lines = Path(tmp) / "papers.txt"
        count = write_lines(root, lines)
        for runner in runners:  # the first run writes the index cache and compiles bytecode
            runner.timed(runner.papershelf(runner.root, "list", "warm up"))
        base, base_cpu, _ = main.timed([sys.executable, "-c", "pass"])
        print(
            f"\n== `papershelf list Q` vs `fzf --filter=Q --exact` over {count} lines, "
            f"{runs} runs x {len(queries)} queries, interleaved =="
        )
        print(f"(python -c pass alone: {ms(base)}, cpu {ms(base_cpu)})")
        who = [r.label for r in runners] + (["fzf"] if fzf else [])
        if fzf and fuzzy:
            who.append("fzf-fuzzy")
        times: dict[str, dict[str, list[tuple[float, float]]]] = {
            w: {q: [] for q in queries} for w in who
        }
        counts: dict[str, dict[str, int]] = {w: {} for w in who}
        for run in range(runs):
            for i, query in enumerate(queries):
                shift = (run + i) % len(who)
                for name in who[shift:] + who[:shift]:
                    if name.startswith("fzf"):
                        exact = ["--exact"] if name == "fzf" else []
                        cmd, stdin, ok = [fzf, f"--filter={query}", *exact], lines, (0, 1)
                        runner = main
                    else:
                        runner = next(r for r in runners if r.label == name)
                        words = query.split()
                        cmd, stdin, ok = runner.papershelf(runner.root, "list", *words), None, (0,)
                    wall, cpu, out = runner.timed(cmd, stdin, ok)  # type: ignore[arg-type]
                    times[name][query].append((wall, cpu))
                    counts[name][query] = out.count(b"\n")
        report(queries, who, times, counts, fzf is not None)


def report(
    queries: list[str],
    who: list[str],
    times: dict[str, dict[str, list[tuple[float, float]]]],
    counts: dict[str, dict[str, int]],
    with_fzf: bool,
) -> None:
    def med(name: str, query: str, column: int) -> float:
        return statistics.median(t[column] for t in times[name][query])

    header = f"{'query':32}" + "".join(f" {w:>9}" for w in who)
    header += "   ratio" if with_fzf else ""
    header += "   cpu " + " / ".join(who)
    print(header)
    ratios: list[float] = []
    cpu_ratios: list[float] = []
    ours = who[0]
    for query in queries:
        line = f"{query!r:32}" + "".join(f" {ms(med(w, query, 0)):>9}" for w in who)
        if with_fzf:
            ratio = med(ours, query, 0) / med("fzf", query, 0)
            ratios.append(ratio)
            cpu_ratios.append(med(ours, query, 1) / max(med("fzf", query, 1), 1e-6))
            line += f" {ratio:7.2f}"
        line += "   " + " / ".join(ms(med(w, query, 1)) for w in who)
        line += "   (" + ", ".join(f"{w} {counts[w][query]}" for w in who) + " lines)"
        print(line)
    for name in who:
        every = [w for q in queries for w, _ in times[name][q]]
        print(f"{name}, all runs: median {ms(statistics.median(every))}")
    if ratios:
        print(
            f"ratio {ours}/fzf of per-query medians: median {statistics.median(ratios):.2f}"
            f" (min {min(ratios):.2f}, max {max(ratios):.2f});"
            f" CPU ratio median {statistics.median(cpu_ratios):.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("/tmp/perf-db"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--query", action="append", help="a query (repeatable)")
    parser.add_argument(
        "--queries-file", type=Path, help="one query a line (`# ` comments), e.g. bench/queries.txt"
    )
    parser.add_argument(
        "--fuzzy", action="store_true", help="also time fzf's fuzzy filter (no --exact)"
    )
    parser.add_argument("--baseline", type=Path, help="another source tree to time alongside")
    parser.add_argument(
        "--baseline-root", type=Path, help="the baseline's copy of the library (default: --root)"
    )
    parser.add_argument("--no-open", action="store_true", help="skip the Library.open timing")
    parser.add_argument("--no-fzf", action="store_true", help="time papershelf only")
    parser.add_argument("--no-pyc", action="store_true", help="keep the bytecode setting as is")
    args = parser.parse_args()
    if not (args.root / "papers.json").exists():
        raise SystemExit(f"no library in {args.root}: papershelf --db {args.root} import CORPUS")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="bench-cli-pyc-") as pyc:
        env = dict(os.environ)
        if not args.no_pyc:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = pyc
        runners = [Runner("ours", REPO, env, args.root)]
        if args.baseline is not None:
            other = args.baseline_root or args.root
            runners.append(Runner("baseline", args.baseline.resolve(), env, other))
        if not args.no_open:
            bench_open(args.root, runners, args.runs)
        fzf = None if args.no_fzf else shutil.which("fzf")
        if not args.no_fzf and fzf is None:
            print("fzf not installed (apt-get install -y fzf): timing papershelf only")
        queries = list(args.query or QUERIES)
        if args.queries_file is not None:
            queries = read_queries(args.queries_file)
        bench_list(args.root, queries, args.runs, runners, fzf, args.fuzzy)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
