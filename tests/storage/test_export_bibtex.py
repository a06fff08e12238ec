"""BibTeX export: what bibtexparser 2 (LaTeX decoded) and the real `bibtex` read back is what
the papers hold, for any text; entry types, the abstract-only note, and the fields' order."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import bibtexparser
import pytest
from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors
from bibtexparser.middlewares.names import parse_single_name_into_parts
from hypothesis import given, settings
from hypothesis import strategies as st
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from papershelf.storage.export.bibtex import ABSTRACT_ONLY_NOTE, entry_type, to_bibtex
from papershelf.storage.export.bibtex_text import balanced, bibtex_text, kept_whole, raw_value
from papershelf.storage.export.citekeys import year_of
from papershelf.storage.ingest.bibtex_record import VERBATIM_FIELDS, name_parts
from papershelf.storage.model import Paper
from papershelf.storage.text.clean import clean_line

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "bibtex"
BIBTEX = shutil.which("bibtex")

# TeX's specials, ligature characters and what BibTeX and LaTeX decoders trip on.
HOSTILE = "&%$#_{}~^\\-'`?!<>,@\"=() \t\n"
FRAGMENTS = [
    "$\\alpha$",
    "$x^{2}_i$",
    "$\\{a\\}$",
    "$$",
    "$5 and $",
    "\\emph{x}",
    '{\\"u}',
    "--",
    "---",
    "``q''",
    "and",
    " and ",
    "{BERT}",
    "ImageNet",
    "$\\mathcal{O}(n)$",
    "100%",
    "@misc{x,",
    "}\n@article{",
    "\u00e9\u00fc\u4e2d\U0001f600",
    "\x00\x1b[31m\u202e",
    "\u02c6",
]
text_piece = st.one_of(
    st.text(
        alphabet=st.one_of(
            st.characters(codec="utf-8", exclude_categories=["Cs"]), st.sampled_from(HOSTILE)
        ),
        max_size=10,
    ),
    st.sampled_from(FRAGMENTS),
)
hostile_text = st.lists(text_piece, max_size=5).map("".join)
url_text = st.text(
    alphabet=st.sampled_from("abcxyz0189/:._-~%#&?=+@!$'()*,;"), min_size=1, max_size=30
).map(lambda rest: "https://example.org/" + rest)
EXTRA_NAMES = ["pages", "volume", "publisher", "number", "isbn", "note"]


@st.composite
def papers(draw: st.DrawFn) -> list[Paper]:
    count = draw(st.integers(min_value=1, max_value=3))
    made = []
    for index in range(count):
        extra_names = draw(st.lists(st.sampled_from(EXTRA_NAMES), unique=True, max_size=2))
        made.append(
            Paper(
                id=f"{index:012x}",
                name=draw(hostile_text) or "name",
                title=draw(st.none() | hostile_text),
                abstract=draw(hostile_text),
                venue=draw(st.none() | hostile_text),
                sources=(),
                authors=tuple(draw(st.lists(hostile_text, max_size=3))),
                url=draw(st.none() | url_text),
                year=draw(st.none() | st.integers(min_value=1900, max_value=2100)),
                doi=draw(st.none() | st.sampled_from(["10.1145/3292500.3330701", "10.48550/x_y"])),
                arxiv_id=draw(st.none() | st.sampled_from(["1706.03762", "hep-th/9901001"])),
                kind=draw(st.none() | st.sampled_from(["article", "inproceedings", "misc"])),
                cite_key=draw(st.none() | st.sampled_from(["vaswani2017", "DBLP:a/b", "bad key"])),
                extra=tuple((name, draw(hostile_text)) for name in extra_names),
            )
        )
    return made


def _decoder() -> LatexNodes2Text:
    """The decoder `LatexDecodingMiddleware` builds (its defaults), for the author names that
    `SeparateCoAuthors` turned into a list the middleware leaves alone."""
    context = get_default_latex_context_db()
    context.add_context_category(
        "papershelf-test", prepend=True, macros=[MacroTextSpec("url", simplify_repl="%s")]
    )
    return LatexNodes2Text(latex_context=context, keep_braced_groups=False, math_mode="verbatim")


DECODER = _decoder()
RAW_FIELDS = {"url", "doi", "eprint"} | VERBATIM_FIELDS
"""Written as they are, not as LaTeX: links, and what the importer keeps as written."""


def same(text: str) -> str:
    """Text as compared: one clean line; pylatexenc reads LaTeX's `\\textasciicircum` as the
    modifier letter U+02C6, the nearest character it knows, so both count as `^`."""
    return clean_line(text).replace("\u02c6", "^")


def read_back(bib: str) -> list[dict[str, object]]:
    """Each entry as bibtexparser 2 reads it: LaTeX decoded, authors split; link fields raw."""
    decoded = bibtexparser.parse_string(
        bib, append_middleware=[SeparateCoAuthors(), LatexDecodingMiddleware()]
    )
    raw = bibtexparser.parse_string(bib)
    assert not decoded.failed_blocks and not raw.failed_blocks
    assert len(decoded.entries) == len(raw.entries)
    entries = []
    for entry, raw_entry in zip(decoded.entries, raw.entries, strict=True):
        fields: dict[str, object] = {"@type": entry.entry_type, "@key": entry.key}
        for field in entry.fields:
            if field.key in RAW_FIELDS:
                fields[field.key] = raw_entry.fields_dict[field.key].value
            elif field.key == "author":
                fields["author"] = list(field.value)  # as written: `reading` compares them
            else:
                fields[field.key] = field.value
        entries.append(fields)
    return entries


def stored_reading(name: str) -> object:
    """What a stored name must read back as: its parts (`name_parts`: first, von, last, jr),
    or, for a name the export writes as it is (braced whole, or not plain text), its text."""
    parts = None if kept_whole(name) else name_parts(name)
    if parts is None or not parts[2]:
        return same(name)
    return tuple(same(part) for part in parts)


def exported_reading(written: str, stored: str) -> object:
    """How bibtexparser reads a name of the exported `author` field, in `stored_reading`'s terms."""
    if isinstance(stored_reading(stored), str):
        return same(DECODER.latex_to_text(written))
    parts = parse_single_name_into_parts(written, strict=False)
    return tuple(
        same(DECODER.latex_to_text(" ".join(words)))
        for words in (parts.first, parts.von, parts.last, parts.jr)
    )


def expected_fields(paper: Paper) -> dict[str, object]:
    """What a reader of the export must find, compared with `same`."""
    kind = entry_type(paper)
    venue_field = {"article": "journal", "misc": "howpublished"}.get(kind, "booktitle")
    found: dict[str, object] = {
        "title": same(paper.title or paper.name),
        "author": [stored_reading(name) for name in paper.authors if same(name)],
        "year": "" if year_of(paper) is None else str(year_of(paper)),
        venue_field: same(paper.venue or ""),
        "doi": paper.doi or "",
        "eprint": paper.arxiv_id or "",
        "archiveprefix": "arXiv" if paper.arxiv_id else "",
        "url": paper.url or "",
        "pdf": paper.pdf_url or "",
        "abstract": same(paper.abstract),
    }
    for name, text in paper.extra:
        if name.casefold() in VERBATIM_FIELDS:
            # As written; a brace that pairs with nothing cannot be, and is percent-encoded.
            line = clean_line(text)
            kept = line if balanced(line) else line.replace("{", "%7B").replace("}", "%7D")
            found.setdefault(name, same(kept))
        else:
            found.setdefault(name, same(text))
    return {name: value for name, value in found.items() if value}


@given(papers())
@settings(max_examples=150)
def test_every_field_reads_back_as_it_was(chosen: list[Paper]) -> None:
    bib = to_bibtex(chosen)
    entries = read_back(bib)
    assert [entry["@type"] for entry in entries] == [entry_type(p) for p in chosen]
    keys = [str(entry["@key"]) for entry in entries]
    assert len({key.casefold() for key in keys}) == len(keys)
    for paper, entry in zip(chosen, entries, strict=True):
        stored = [name for name in paper.authors if same(name)]
        got = {
            name: [exported_reading(a, b) for a, b in zip(value, stored, strict=True)]
            if isinstance(value, list)
            else same(str(value))
            for name, value in entry.items()
            if not name.startswith("@") and not (name == "note" and value == ABSTRACT_ONLY_NOTE)
        }
        assert got == expected_fields(paper)


@given(hostile_text)
def test_a_value_has_balanced_braces_and_no_line_break(text: str) -> None:
    value = bibtex_text(text, protect_case=True)
    assert balanced(value)
    assert "\n" not in value and "\r" not in value
    assert same(DECODER.latex_to_text(value)) == same(text)


def test_special_characters_are_escaped_and_math_kept() -> None:
    assert bibtex_text("R&D 100% $5 #1 a_b ~ ^ \\x") == (
        "R\\&D 100\\% \\$5 \\#1 a\\_b \\textasciitilde{} \\textasciicircum{} \\textbackslash{}x"
    )
    assert bibtex_text("O($n^2$) -- {a} } {") == "O($n^2$) -{}- \\{a\\} \\rbrace{} \\lbrace{}"
    # A `$` that opens no safe math is a dollar sign.
    assert bibtex_text("$5 % off$") == "\\$5 \\% off\\$"
    assert bibtex_text("BERT and ImageNet models", protect_case=True) == (
        "{BERT} and {ImageNet} models"
    )
    assert bibtex_text("Müller\u2019s\tnet\x1b") == "Müller\u2019s net"


def test_links_are_written_raw() -> None:
    assert raw_value("https://x.org/a_b%20c#d~e") == "https://x.org/a_b%20c#d~e"
    assert raw_value("https://x.org/{a") == "https://x.org/%7Ba"


def paper(pid: str, **fields: object) -> Paper:
    base: dict[str, object] = {"name": "Net", "title": None, "abstract": "We study nets."}
    base.update(fields)
    return Paper(id=pid, sources=(), venue=base.pop("venue", None), **base)  # type: ignore[arg-type]


def test_entry_types_and_the_abstract_only_note() -> None:
    bare = paper("a" * 12)
    venue_year = paper("b" * 12, venue="ICML 2025", year=2025)
    venue_only = paper("c" * 12, venue="Workshop on Nets")
    article = paper("d" * 12, kind="article", venue="JMLR", year=2020, authors=("Ann Lee",))
    venue_named_year = paper("f" * 12, venue="NeurIPS 2024 (oral)")
    bib = to_bibtex([bare, venue_year, venue_only, article, venue_named_year])
    assert [entry_type(p) for p in (bare, venue_year, venue_only, article)] == [
        "misc",
        "inproceedings",
        "misc",
        "article",
    ]
    entries = read_back(bib)
    assert entries[0]["note"] == ABSTRACT_ONLY_NOTE
    assert entries[0]["title"] == "Net"  # no title: the paper's name
    assert entries[1]["booktitle"] == "ICML 2025" and "note" not in entries[1]
    assert entries[2]["howpublished"] == "Workshop on Nets"
    assert entries[3]["journal"] == "JMLR" and entries[3]["@key"] == "lee2020net"
    # An abstract list's venue names the year: an @inproceedings of that year.
    assert entries[4]["@type"] == "inproceedings" and entries[4]["year"] == "2024"
    assert entries[4]["booktitle"] == "NeurIPS 2024 (oral)" and entries[4]["@key"] == "net2024"


def test_a_full_record_in_field_order() -> None:
    vaswani = paper(
        "1" * 12,
        name="Transformer",
        title="Attention Is All You Need",
        venue="NeurIPS 2017",
        year=2017,
        authors=("Ashish Vaswani", "Noam Shazeer"),
        doi="10.5555/3295222.3295349",
        arxiv_id="1706.03762",
        url="https://arxiv.org/abs/1706.03762",
        extra=(("pages", "5998\u20136008"), ("publisher", "Curran Associates, Inc.")),
    )
    assert to_bibtex([vaswani]) == (
        "@inproceedings{vaswani2017attention,\n"
        "  title = {Attention Is All You Need},\n"
        "  author = {Vaswani, Ashish and Shazeer, Noam},\n"
        "  year = {2017},\n"
        "  booktitle = {NeurIPS 2017},\n"
        "  doi = {10.5555/3295222.3295349},\n"
        "  eprint = {1706.03762},\n"
        "  archiveprefix = {arXiv},\n"
        "  url = {https://arxiv.org/abs/1706.03762},\n"
        "  abstract = {We study nets.},\n"
        "  pages = {5998--6008},\n"
        "  publisher = {Curran Associates, Inc.},\n"
        "}\n"
    )
    assert to_bibtex([]) == ""


def test_an_author_bibtex_would_split_or_misread_is_kept_whole() -> None:
    odd = paper("e" * 12, authors=("Simon and Schuster", "A, B, C, D", "Lee, Ann"))
    assert "author = {{Simon and Schuster} and {A, B, C, D} and Lee, Ann}" in to_bibtex([odd])
    written = read_back(to_bibtex([odd]))[0]["author"]
    assert isinstance(written, list)
    assert [DECODER.latex_to_text(name) for name in written] == [
        "Simon and Schuster",
        "A, B, C, D",
        "Lee, Ann",
    ]


def require_bibtex() -> str:
    """The bibtex binary; CI installs it (texlive-binaries), so there it must be found."""
    if BIBTEX is None:
        if os.environ.get("CI"):
            pytest.fail("bibtex is not installed, but CI must run the BibTeX tests")
        pytest.skip("bibtex is not installed (apt-get install texlive-binaries)")
    return BIBTEX


def run_bibtex(bib: str, folder: Path) -> str:
    """Run the real `bibtex` over `bib` with the fields style; return what it wrote (.bbl)."""
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    shutil.copy(FIXTURES / "fields.bst", folder / "fields.bst")
    (folder / "job.aux").write_text("\\citation{*}\n\\bibstyle{fields}\n\\bibdata{refs}\n")
    # No texmf.cnf is needed: the style and the data are found in the job's folder.
    env = {**os.environ, "BSTINPUTS": ".", "BIBINPUTS": "."}
    done = subprocess.run(
        [require_bibtex(), "job"], cwd=folder, env=env, capture_output=True, timeout=60
    )
    log = (folder / "job.blg").read_text(encoding="utf-8", errors="replace")
    # 0: no warning or error (1 would be warnings, such as a case-mismatched duplicate key).
    assert done.returncode == 0, log
    return (folder / "job.bbl").read_text(encoding="utf-8")


def expected_bbl(bib: str) -> str:
    """What the fields style prints for our own entries: the type, key and values as written."""
    lines = []
    fields = re.compile(r"  (\w+) = \{(.*)\},")
    for line in bib.splitlines():
        if line.startswith("@"):
            kind, key = line[1:-1].split("{", 1)
            lines.append(f"@{kind}{{{key}")
        elif line == "}":
            lines.append("}")
        elif (match := fields.fullmatch(line)) and match[1] in STYLE_FIELDS:
            lines.append(f"{match[1]}={match[2]}")
    return "\n".join(lines)


STYLE_FIELDS = [
    "title",
    "author",
    "year",
    "booktitle",
    "journal",
    "howpublished",
    "school",
    "institution",
    "doi",
    "eprint",
    "archiveprefix",
    "url",
    "abstract",
    "note",
    "pages",
    "volume",
    "publisher",
]
"""The fields tests/fixtures/bibtex/fields.bst prints, in its order."""


@given(papers())
@settings(max_examples=40)
def test_the_real_bibtex_reads_every_entry_whole(
    tmp_path_factory: pytest.TempPathFactory, chosen: list[Paper]
) -> None:
    require_bibtex()
    bib = to_bibtex(chosen)
    bbl = run_bibtex(bib, tmp_path_factory.mktemp("bibtex"))
    # bibtex breaks long output lines at spaces: compare with whitespace runs as one space.
    assert " ".join(bbl.split()) == " ".join(_in_style_order(expected_bbl(bib)).split())


def _in_style_order(text: str) -> str:
    """Each entry's field lines in the style's order (the style writes a fixed order)."""
    out: list[str] = []
    block: list[str] = []
    for line in text.splitlines():
        if line.startswith("@"):
            out.append(line)
            block = []
        elif line == "}":
            block.sort(key=lambda field: STYLE_FIELDS.index(field.split("=", 1)[0]))
            out += [*block, "}"]
        else:
            block.append(line)
    return "\n".join(out)
