"""Benchmark: `papershelf import` of a 10,000-entry `.bib` file into an empty library.

Run by hand: `/work/venv/bin/python bench/bench_import_bib.py [ENTRIES] [CORPUS]`
(defaults: 10,000 entries from /work/shared/corpus/ml-abstracts.jsonl). Writes the `.bib` into a
temp directory from the corpus's titles and abstracts, with authors, years, venues, DOIs, pages
and accents synthesised from a fixed seed (Zotero's shape: braces, `{\\"u}`, `--`, month macros;
every fifth entry without an abstract, as Google Scholar exports them), then runs
`papershelf import` in a child process and prints its wall and CPU time and peak RSS (the child's
own `ru_maxrss`, from `os.wait4`), next to the same import of the corpus's JSON Lines.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")
FIRST = ["Ashish", "Jörg", "François", "Łukasz", "Mei", "Ana", "Tomáš", "Kaiming", "Jane", "Ravi"]
LAST = ["Vaswani", "Müller", "René", "Kaiser", "Ho", "de la Cruz", "Kočiský", "He", "Smith", "Rao"]
VENUES = [
    "Advances in Neural Information Processing Systems",
    "International Conference on Learning Representations",
    "Proceedings of the 40th International Conference on Machine Learning",
    "Journal of Machine Learning Research",
]
# Text as a BibTeX writer would write it: accents as LaTeX, specials escaped.
LATEX = {
    "ä": '{\\"a}',
    "ö": '{\\"o}',
    "ü": '{\\"u}',
    "é": "{\\'e}",
    "ç": "{\\c c}",
    "č": "{\\v{c}}",
    "š": "{\\v{s}}",
    "Ł": "{\\L}",
    "&": "\\&",
    "#": "\\#",
}


BARE_PERCENT = re.compile(r"(?<!\\)%")


def balanced(text: str) -> bool:
    depth = 0
    for char in text:
        if char in "{}":
            depth += 1 if char == "{" else -1
            if depth < 0:
                return False
    return depth == 0


def latex(text: str) -> str:
    return "".join(LATEX.get(char, char) for char in text)


def person(rng: random.Random) -> str:
    return f"{latex(rng.choice(LAST))}, {latex(rng.choice(FIRST))}"


def write_bib(path: Path, corpus: Path, count: int, seed: int = 13) -> int:
    rng = random.Random(seed)
    written = 0
    with corpus.open(encoding="utf-8") as source, path.open("w", encoding="utf-8") as out:
        out.write("% Encoding: UTF-8\n@string{jmlr = {Journal of Machine Learning Research}}\n\n")
        for number, line in enumerate(source):
            if written == count:
                break
            record = json.loads(line)
            title, abstract = record.get("title"), record.get("abstract")
            if not title or not abstract or not balanced(title + abstract):
                continue  # a writer would escape a lone brace; these few are left out
            year = rng.randint(2015, 2025)
            authors = " and ".join(person(rng) for _ in range(rng.randint(1, 8)))
            kind = rng.choice(["inproceedings", "article", "misc"])
            venue_field = "booktitle" if kind == "inproceedings" else "journal"
            fields = [
                ("title", "{" + latex(title) + "}"),
                ("author", "{" + authors + "}"),
                ("year", "{" + str(year) + "}"),
                ("month", rng.choice(["jan", "jun", "dec"])),
                (venue_field, "{" + rng.choice(VENUES) + "}"),
                ("pages", "{" + f"{rng.randint(1, 500)}--{rng.randint(501, 999)}" + "}"),
                ("doi", "{" + f"10.5555/bench.{number}" + "}"),
                ("url", "{" + f"https://example.org/paper/{number}" + "}"),
            ]
            if written % 5:
                # Abstracts as Zotero writes them: `%` escaped (the corpus's LaTeX kept).
                fields.append(("abstract", "{" + BARE_PERCENT.sub(r"\\%", abstract) + "}"))
            body = ",\n".join(f"  {name} = {value}" for name, value in fields)
            out.write(f"@{kind}{{bench{number},\n{body}\n}}\n\n")
            written += 1
    return written


def timed_import(root: Path, source: Path) -> tuple[float, float, float, str]:
    """Wall and CPU seconds and peak RSS (MiB) of `papershelf import` in a child process, and its
    output (CPU time says more than wall time on a shared machine).

    `os.wait4` gives this child's own resource usage (RUSAGE_CHILDREN would be the largest of
    every child so far)."""
    command = [sys.executable, "-m", "papershelf", "--db", str(root), "import", str(source)]
    with tempfile.TemporaryFile("w+") as output:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        text = output.read().strip()
    if child.returncode != 0:
        raise SystemExit(text)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, text


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    corpus = Path(sys.argv[2]) if len(sys.argv) > 2 else CORPUS
    with tempfile.TemporaryDirectory(prefix="papershelf-bench-bib-") as directory:
        folder = Path(directory)
        bib = folder / "bench.bib"
        written = write_bib(bib, corpus, count)
        print(f".bib:            {written:,} entries, {bib.stat().st_size / 1e6:.1f} MB ({bib})")
        wall, cpu, peak, output = timed_import(folder / "lib-bib", bib)
        print(f"import .bib:     {wall:.2f} s wall, {cpu:.2f} s CPU, peak RSS {peak:.0f} MiB")
        print("  " + output.replace("\n", "\n  "))
        wall, cpu, peak, output = timed_import(folder / "lib-jsonl", corpus)
        print(f"import JSONL:    {wall:.2f} s wall, {cpu:.2f} s CPU, peak RSS {peak:.0f} MiB")
        print("  " + output.replace("\n", "\n  "))


if __name__ == "__main__":
    main()
