"""Measure the reading workflow in the app on the whole corpus (run by hand, not by pytest).

    /work/venv/bin/python bench/bench_workflow.py [--corpus PATH] [--root DIR] [--runs N]

Runs the app headless (Textual's `run_test`) on a library of the corpus and prints, as median
and maximum over N papers spread through the library: `r` pressed -> the related screen drawn
(target: 100 ms), and each `S` sort step -> the list redrawn, with and without a query. Also
prints how long the related index took to build in its worker.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from papershelf.storage.library.library import Library  # noqa: E402
from papershelf.tui.app import PapershelfApp  # noqa: E402
from papershelf.tui.screens.related import RelatedScreen  # noqa: E402

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")


def library_of(root: Path, corpus: Path) -> Library:
    library = Library.open(root, seed=False)
    if not library.papers():
        library.import_files([corpus])
    return library


def summary(name: str, values: list[float]) -> str:
    return f"{name}: median {statistics.median(values):.1f} ms, max {max(values):.1f} ms"


async def measure(library: Library, runs: int) -> None:
    (library.root / "settings.json").unlink(missing_ok=True)
    app = PapershelfApp(library)
    async with app.run_test(size=(160, 48)) as pilot:
        started = time.perf_counter()
        while app.workflow.related_index is None:
            await app.workers.wait_for_complete()
            await pilot.pause()
        ready = time.perf_counter() - started
        print(f"papers: {len(library.papers())}; related index ready {ready:.2f} s after start")
        related: list[float] = []
        count = len(library.papers())
        for i in range(runs):
            app.paper_list.move_to(i * count // runs)
            await pilot.pause()
            started = time.perf_counter()
            await pilot.press("r")
            while not isinstance(app.screen, RelatedScreen):
                await pilot.pause(0)
            await pilot.pause()
            related.append((time.perf_counter() - started) * 1000)
            await pilot.press("escape")
            await pilot.pause()
        print(summary("r -> related screen drawn", related))
        for query in ("", "graph neural"):
            if query:
                await pilot.press("slash", *query, "enter")
                await app.workers.wait_for_complete()
                await pilot.pause()
            steps: dict[str, list[float]] = {}
            for _ in range(2):
                for _ in range(6 if query else 5):
                    started = time.perf_counter()
                    await pilot.press("S")
                    await app.workers.wait_for_complete()
                    await pilot.pause()
                    steps.setdefault(app.workflow.sort_order, []).append(
                        (time.perf_counter() - started) * 1000
                    )
            label = f"query {query!r} ({len(app.paper_list.hits)} results)" if query else "no query"
            for order, values in steps.items():
                print(summary(f"S -> {order:<9} {label}", values))
    (library.root / "settings.json").unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument(
        "--root", type=Path, default=Path(tempfile.gettempdir()) / "papershelf-bench-workflow"
    )
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(measure(library_of(args.root, args.corpus), args.runs))


if __name__ == "__main__":
    main()
