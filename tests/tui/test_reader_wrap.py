"""The reader's labelled fields wrap with a hanging indent, URLs between their parts (issue 15,
part 3); the seeds show by their header."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from pilot_helpers import settle
from rich.cells import cell_len
from textual.content import Content

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.tui.app import PapershelfApp
from papershelf.tui.widgets.reader_wrap import LABEL_CELLS, hang, wrap_points

CODE = "https://github.com/Linxi-ZHAO/MARINE"
PAGE = "https://openreview.net/forum?id=w0xYx9CJhY"
AUTHORS = ("Linxi Zhao", "Yihe Deng", "Weitong Zhang", "Quanquan Gu")
MARINE = Paper(
    id="abcdef000015",
    name="MARINE",
    title=(
        "Mitigating Object Hallucination in Large Vision-Language Models"
        " via Image-Grounded Guidance"
    ),
    abstract="We propose MARINE, a framework that is both training-free and API-free.",
    venue="ICML 2025",
    sources=("ml-abstracts.jsonl", "000_d1b2f2b4fb6e9314.txt", "001_aa86a2e0cf5ed7d9.txt"),
    authors=AUTHORS,
    code_urls=(CODE,),
    url=PAGE,
)


def pieces(text: str, points: list[int]) -> list[str]:
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in pairwise(bounds)]


def test_a_url_breaks_after_a_slash_or_before_a_query() -> None:
    assert pieces(CODE, wrap_points(CODE, 20, url=True)) == [
        "https://github.com/",
        "Linxi-ZHAO/MARINE",
    ]
    assert pieces(PAGE, wrap_points(PAGE, 22, url=True)) == [
        "https://",  # not inside the `//`
        "openreview.net/forum",
        "?id=w0xYx9CJhY",
    ]


def test_a_part_wider_than_the_line_is_cut_at_the_width() -> None:
    text = "https://example.org/" + "a" * 30
    parts = pieces(text, wrap_points(text, 12, url=True))
    assert "".join(parts) == text and all(cell_len(part) <= 12 for part in parts)


def test_words_break_after_their_spaces() -> None:
    text = "Linxi Zhao, Yihe Deng, Weitong Zhang, Quanquan Gu"
    assert pieces(text, wrap_points(text, 24)) == [
        "Linxi Zhao, Yihe Deng, ",
        "Weitong Zhang, Quanquan ",
        "Gu",
    ]


@given(
    text=st.text(alphabet=st.sampled_from("ab/?=& 论x"), max_size=80),
    width=st.integers(1, 30),
    url=st.booleans(),
)
def test_wrapping_loses_nothing_and_fits_the_width(text: str, width: int, url: bool) -> None:
    points = wrap_points(text, width, url=url)
    assert points == sorted(set(points)) and all(0 < p < len(text) for p in points)
    parts = pieces(text, points)
    assert "".join(parts) == text
    for part in parts:
        shown = part if url else part.rstrip(" ")
        assert cell_len(shown) <= width or len(shown) == 1


def test_hang_indents_a_labelled_value_under_itself() -> None:
    label = Content.assemble(("code   ", ".reader--label"), (CODE, ".reader--url"))
    content = Content("\n").join([Content("MARINE"), label, Content("abstract " * 8)])
    lines = hang(content, 30).plain.splitlines()
    assert lines[0] == "MARINE"
    assert lines[1] == "code   https://github.com/"
    assert lines[2] == " " * LABEL_CELLS + "Linxi-ZHAO/MARINE"
    assert lines[3] == ("abstract " * 8)  # left to Textual's wrapping
    assert hang(content, 200) is content  # nothing to do at a wide width


async def test_the_reader_hangs_fields_and_names_the_seeds_by_their_header(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers([MARINE], "ml-abstracts.jsonl")
    app = PapershelfApp(Library.open(tmp_path / "lib", seed=False))
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(app, pilot)
        reader = app.main_screen.reader
        assert "from   ml-abstracts.jsonl, ICML 2025 论文列表, ICML 2025 Papers" in reader.text
        lines = [strip.text.rstrip() for strip in reader._wrap()]
        width = reader.scrollable_content_region.width - 2
        assert all(cell_len(line) <= width for line in lines)
        start = next(n for n, line in enumerate(lines) if line.startswith("from "))
        # The sources' second line starts under the first value, not under the label.
        assert lines[start + 1].startswith(" " * LABEL_CELLS) and lines[start + 1].strip()
        code = next(n for n, line in enumerate(lines) if line.startswith("code "))
        joined = lines[code][LABEL_CELLS:] + lines[code + 1].strip()
        assert joined == CODE or cell_len(lines[code]) <= width
        assert not any(line.startswith("INE") or line.startswith("MARINE ") for line in lines)


def test_a_url_breaks_at_a_dash_only_when_no_slash_fits() -> None:
    code = "https://github.com/AI4Science-WestlakeU/safediffcon"
    assert pieces(code, wrap_points(code, 38, url=True)) == [
        "https://github.com/",
        "AI4Science-WestlakeU/safediffcon",
    ]
    page = "https://papers.nips.cc/paper/7181-attention-is-all-you-need"
    assert pieces(page, wrap_points(page, 29, url=True)) == [
        "https://papers.nips.cc/paper/",
        "7181-attention-is-all-you-",
        "need",
    ]
