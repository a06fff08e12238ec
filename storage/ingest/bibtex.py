"""BibTeX to Papers: `.bib` files as Zotero, Google Scholar, DBLP, JabRef and OpenReview write them.

bibtexparser 2 splits the file into blocks (entries, `@string`, `@comment`, `@preamble`, and the
blocks it could not read, with their lines) and splits author lists (`and`, braces, `Last, First`,
`von` parts); this module resolves `@string` and month macros and `#` concatenation, decodes the
LaTeX (`storage.text.latex_fields`), and builds one `Paper` per entry:

- `title`, `abstract`, `author` (each name with its parts kept, `bibtex_record.stored_name`:
  `Laurens van der Maaten`, `King, Jr., Martin Luther`, `{Google DeepMind}`; `and others` stays
  as the last author, `others`), `year` (a whole number; any other year stays in `extra`), the
  venue (`booktitle`, else `journal`; the `venue` argument wins and the field is then kept in
  `extra`), `month` as its name whether written `dec`, `12` or `{December}`;
- identifiers: `doi`, arXiv (`eprint` with `archivePrefix`/`eprinttype` arXiv, DBLP's CoRR
  `volume = {abs/...}`, Google Scholar's `journal = {arXiv preprint arXiv:...}`, an arXiv `url`),
  OpenReview (its forum `url`); the `url` as the paper's page, `pdf` as its PDF link;
- `kind` (the entry type) and `cite_key` (an entry without one gets one made, `names.citekey`,
  unlike every key in the file); every other field in `extra`, in file order. A field used above
  is not repeated there (`eprint` and `archivePrefix` are the arXiv id).

A macro no `@string` defines (`booktitle = nips`) keeps its name as the text. The result's
`notes` say, one line each, how many entries used undefined macros and how many got a made key.

An entry with no abstract is kept: its id comes from its identifier or title (`merge.record_id`),
and a later abstract list with the same paper merges into it (`merge.MatchIndex`). An entry with
neither title, abstract nor identifier is skipped. The file imports whole or not at all: a block
bibtexparser could not read, a field given twice or a citation key used twice is an
`IngestError` naming its line. Work is linear in the file's size (nothing here recurses, and
brace depth costs nothing): a block longer than `MAX_BLOCK_CHARS` is refused before any parsing,
so one giant entry fails at once. The constant is bibtexparser's: ~3 us per brace, comma, quote
or line break, ~20 us per author name, and as much again to check the form a name is kept in
(`bibtex_record.stored_name` splits it back: 22 -> 45 us a name, measured). Importing a 14.5 MB
file of 10,000 real-shaped entries took 12 s of CPU before that check; with it, 17 s on a loaded
machine where the JSON Lines corpus took 8 s instead of 5.6, about the ratio before
(`bench/bench_import_bib.py`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest import bibtex_record
from papershelf.storage.ingest.parse import MAX_ABSTRACT_CHARS, Collector, ParseResult
from papershelf.storage.ingest.record import bibliographic_paper
from papershelf.storage.model import Paper
from papershelf.storage.names.citekey import base_key, key_suffix
from papershelf.storage.text import identifiers
from papershelf.storage.text.clean import clean_line
from papershelf.storage.text.latex_fields import field_text
from papershelf.storage.text.urls import is_code_url

if TYPE_CHECKING:
    from bibtexparser.model import Block, Entry

__all__ = ["MAX_BLOCK_CHARS", "is_bibtex", "parse_bibtex"]

MAX_BLOCK_CHARS = 200_000
"""A longer entry (or comment, or text between entries) is refused from its length alone: no
BibTeX entry is that long (an abstract is at most `MAX_ABSTRACT_CHARS`), and no block then
costs more than about a second, however it is built (measured: 180,000 characters of author
names, 1.3 s)."""

# The first thing that is not a `%` comment line is an entry's start: `@article{` or `@misc(`.
_LOOKS_LIKE = re.compile(r"(?:[ \t\n]*%[^\n]*(?:\n|\Z))*\s*@[A-Za-z]\w*[ \t]*[{(]")
_SNIFF_CHARS = 65_536
"""Comment lines before the first entry are looked through this far (a `.bib` name needs none)."""
# Where bibtexparser starts a block: an `@type{` at the start of a line (after spaces). The
# leading newline (not `^` with MULTILINE) lets the regex engine skip to each newline in C.
_BLOCK_START = re.compile(r"\n[^\S\n]*@\w*[ \t]*[{(]")
_CONCAT = re.compile(r'[#{}"]')


def is_bibtex(text: str, source: str) -> bool:
    """Whether to read the file as BibTeX: a `.bib` name, or text whose first content (past
    `%` comment lines) is an entry's `@type{`."""
    return source.lower().endswith(".bib") or _LOOKS_LIKE.match(text, 0, _SNIFF_CHARS) is not None


def parse_bibtex(text: str, source: str, venue: str | None, now: str) -> ParseResult:
    """The papers of a BibTeX file; raises IngestError (naming the line) when it cannot."""
    _check_blocks(text, source)
    blocks = _split(text, source)
    from bibtexparser import model  # loaded by _split

    collector = Collector()
    strings: dict[str, str] = {}
    keys: dict[str, int] = {}
    entries = keyless = 0
    undefined: set[str] = set()
    with_undefined = 0
    parents = _parents(blocks, model.Entry)
    volumes = _cited_volumes(blocks, model.Entry)
    for block in blocks:
        line = _line(block)
        if isinstance(block, model.String):
            strings[block.key.lower()] = _value(block.value, strings)
            continue
        if isinstance(block, (model.Preamble, model.ExplicitComment, model.ImplicitComment)):
            continue  # not papers, and not skipped papers
        entry: Block | None = block
        if isinstance(block, model.DuplicateBlockKeyBlock):
            # The key is checked below (case-insensitively, as BibTeX does).
            entry = block.ignore_error_block
            if isinstance(entry, model.String):
                # A repeated @string: the later definition wins, as in BibTeX.
                strings[entry.key.lower()] = _value(entry.value, strings)
                continue
        elif isinstance(block, model.DuplicateFieldKeyBlock):
            names = ", ".join(sorted(clean_line(name) for name in block.duplicate_keys))
            key = clean_line(getattr(block.ignore_error_block, "key", ""))
            raise IngestError(source, f"entry {key!r} gives the field {names} twice", line)
        if not isinstance(entry, model.Entry):
            raise IngestError(source, f"BibTeX block is broken: {_reason(block)}", line)
        entries += 1
        key = clean_line(entry.key)
        if key and key.casefold() in keys:
            first = keys[key.casefold()]
            raise IngestError(
                source, f"citation key {key!r} is used twice (first on line {first})", line
            )
        keys[key.casefold()] = line
        if key.casefold() in volumes and entry.entry_type.lower() in _VOLUME_TYPES:
            continue  # the proceedings its papers appeared in (their crossref): no paper
        used: set[str] = set()
        paper = _paper(entry, source, line, strings, venue, now, used, parents)
        undefined |= used
        with_undefined += bool(used)
        keyless += not key and paper is not None
        collector.add(paper)  # None: counted as skipped
    if entries == 0:
        raise IngestError(source, "holds no BibTeX entries (no @article{...}, @misc{...}, ...)")
    notes: list[str] = []
    if keyless:
        made = _give_keys(collector, set(keys))
        notes.append(f"{_entries(keyless)} had no citation key; made {made}")
    if with_undefined:
        names = ", ".join(sorted(undefined)[:3]) + (", ..." if len(undefined) > 3 else "")
        notes.append(
            f"{_entries(with_undefined)} used undefined macros ({names}), kept as their names"
        )
    return collector.result(source, venue, tuple(notes))


_INHERITED = (
    "booktitle",
    "year",
    "month",
    "publisher",
    "editor",
    "series",
    "volume",
    "address",
    "organization",
)
"""What a `crossref` child takes from its parent when it lacks it: where and when it appeared.
Never the parent's title, DOI, URL or other identifiers, which are the proceedings' own (two
children sharing them would merge as one paper)."""


_VOLUME_TYPES = frozenset({"proceedings", "mvproceedings", "book", "mvbook", "collection"})
"""Entry types that hold other entries: such an entry a crossref of the file names is the
volume its papers appeared in (DBLP writes one after them), not a paper to read."""


def _cited_volumes(blocks: list[Block], entry_type: type) -> frozenset[str]:
    """The keys (folded) the file's entries name in `crossref`."""
    cited = set()
    for block in blocks:
        if isinstance(block, entry_type):
            for field in block.fields:  # type: ignore[attr-defined]
                if clean_line(field.key).lower() == "crossref" and isinstance(field.value, str):
                    cited.add(field.value.strip().strip('{}"').strip().casefold())
    return frozenset(cited)


def _parents(blocks: list[Block], entry_type: type) -> dict[str, Entry]:
    """Every entry by its key, folded as BibTeX compares keys: a crossref's parent may come
    after its children (DBLP puts the proceedings last)."""
    found: dict[str, Entry] = {}
    for block in blocks:
        if isinstance(block, entry_type):
            found.setdefault(block.key.casefold(), block)  # type: ignore[attr-defined]
    return found


def _inherit(
    fields: dict[str, str],
    parents: dict[str, Entry],
    strings: dict[str, str],
    undefined: set[str],
) -> None:
    """Fill a crossref child's missing venue, year, ... from its parent, in place, and drop its
    `crossref`; the parent's title stands for its booktitle when it has none (biblatex's rule).
    An unknown parent leaves the child as written."""
    parent = parents.get(fields.get("crossref", "").strip().casefold())
    if parent is None:
        return
    # Resolved: the child now holds what it took, and the volume is not imported (it is no
    # paper), so a kept `crossref` would point an export at an entry it does not write.
    del fields["crossref"]
    given = {clean_line(field.key).lower(): field.value for field in parent.fields}
    if "booktitle" not in given and "title" in given:
        given["booktitle"] = given["title"]
    for name in _INHERITED:
        if name not in fields and name in given:
            fields[name] = _value(given[name], strings, undefined)


def _entries(count: int) -> str:
    return f"{count:,} entry" if count == 1 else f"{count:,} entries"


def _give_keys(collector: Collector, taken: set[str]) -> str:
    """Give each collected paper without a citation key one (`lee2020net`, then `lee2020neta`),
    unlike any key in the file; the first key made, for the report."""
    made: list[str] = []
    for paper_id, paper in collector.papers.items():
        if paper.cite_key:
            continue
        base = base_key(paper)
        key, number = base, 0
        while key.casefold() in taken:
            number += 1
            key = base + key_suffix(number)
        taken.add(key.casefold())
        made.append(key)
        collector.papers[paper_id] = replace(paper, cite_key=key)
    return ", ".join(made[:2]) + (", ..." if len(made) > 2 else "")


def _check_blocks(text: str, source: str) -> None:
    """Refuse a block (the text from one `@` at a line's start to the next) over the limit."""
    if len(text) <= MAX_BLOCK_CHARS:
        return
    last = 0
    for start in _starts(text):
        if start - last > MAX_BLOCK_CHARS:
            break
        last = start
    else:
        if len(text) - last <= MAX_BLOCK_CHARS:
            return
    line = text.count("\n", 0, last) + 1
    end = next(_starts(text, last + 1), len(text))
    raise IngestError(
        source,
        f"a BibTeX block of {end - last:,} characters is too long "
        f"(the limit is {MAX_BLOCK_CHARS:,})",
        line,
    )


def _starts(text: str, position: int = 0) -> Iterator[int]:
    return (match.start() + 1 for match in _BLOCK_START.finditer(text, position))


def _split(text: str, source: str) -> list[Block]:
    """bibtexparser's blocks of the text (its splitter only: macros, enclosing braces and LaTeX
    are resolved here)."""
    # Imported here: it costs ~0.2 s (its LaTeX middleware loads pylatexenc), and only a
    # BibTeX file needs it.
    from bibtexparser.entrypoint import parse_string

    logger = logging.getLogger("bibtexparser")
    if not logger.handlers:
        # Its warnings (with the file's text in them) must not reach the terminal as
        # Python's last-resort stderr lines: the errors are ours to report, one line each.
        logger.addHandler(logging.NullHandler())
    try:
        return parse_string(text, parse_stack=[]).blocks
    except (RecursionError, MemoryError) as error:
        raise IngestError(source, f"could not be read as BibTeX ({type(error).__name__})") from None
    except Exception as error:  # a bug in the parser must not become a traceback
        message = clean_line(str(error))[:120] or type(error).__name__
        raise IngestError(source, f"could not be read as BibTeX: {message}") from None


def _line(block: Block) -> int:
    # bibtexparser counts lines from 0.
    return (block.start_line or 0) + 1


def _reason(block: Block) -> str:
    error = getattr(block, "error", None)
    reason = getattr(error, "abort_reason", None) or str(error or "unreadable")
    return clean_line(reason)[:160]


def _value(raw: str, strings: dict[str, str], undefined: set[str] | None = None) -> str:
    """A field's value as written (`{...}`, `"..."`, a number, a macro, or parts joined by `#`)
    with macros resolved and the enclosing braces or quotes removed; LaTeX left as it is. The
    name of a macro no `@string` defines is kept as the text, and added to `undefined`."""
    raw = raw.strip()
    if "#" not in raw:
        return _part(raw, strings, undefined)
    parts: list[str] = []
    depth, quoted, begin = 0, False, 0
    for match in _CONCAT.finditer(raw):
        mark = match.group()
        if mark == "{":
            depth += 1
        elif mark == "}":
            depth = max(depth - 1, 0)
        elif mark == '"' and depth == 0:
            quoted = not quoted
        elif mark == "#" and depth == 0 and not quoted:
            parts.append(_part(raw[begin : match.start()].strip(), strings, undefined))
            begin = match.end()
    parts.append(_part(raw[begin:].strip(), strings, undefined))
    return "".join(parts)


def _part(part: str, strings: dict[str, str], undefined: set[str] | None) -> str:
    if len(part) >= 2 and (part[0], part[-1]) in (("{", "}"), ('"', '"')):
        return part[1:-1]
    name = part.lower()
    if name in strings:
        return strings[name]
    if name in bibtex_record.MONTHS:
        return bibtex_record.MONTHS[name]
    if part and not part.isdigit() and undefined is not None:
        # `booktitle = nips` without `@string{nips = ...}`: BibTeX warns and writes nothing;
        # the name is more use to a reader than nothing, and the report says it happened.
        undefined.add(clean_line(part)[:40])
    return part  # a number, or an undefined macro as written


def _paper(
    entry: Entry,
    source: str,
    line: int,
    strings: dict[str, str],
    venue: str | None,
    now: str,
    undefined: set[str],
    parents: dict[str, Entry],
) -> Paper | None:
    fields: dict[str, str] = {}
    for field in entry.fields:
        name = clean_line(field.key).lower()
        if name in fields:
            raise IngestError(
                source, f"entry {clean_line(entry.key)!r} gives the field {name} twice", line
            )
        fields[name] = _value(field.value, strings, undefined)
    if "crossref" in fields:
        _inherit(fields, parents, strings, undefined)
    raw_abstract = fields.pop("abstract", "")
    if len(raw_abstract) > MAX_ABSTRACT_CHARS:
        raise IngestError(
            source,
            f"abstract of {len(raw_abstract):,} characters is too long "
            f"(the limit is {MAX_ABSTRACT_CHARS:,})",
            line,
        )
    abstract = clean_line(field_text(raw_abstract))
    title = clean_line(field_text(fields.pop("title", ""))) or None
    authors = bibtex_record.authors(fields.pop("author", ""))
    record = bibtex_record.Record(fields)
    year = record.year()
    url = record.url()
    doi, arxiv_id, openreview_id = record.doi(), record.arxiv(url), record.openreview(url)
    # DBLP gives a paper's DOI as its url (`https://doi.org/10.48550/arXiv.2401.00001`).
    doi = doi or (identifiers.doi(url) if url else None)
    arxiv_id = arxiv_id or (identifiers.arxiv_from_doi(doi) if doi else None)
    pdf_url = record.pdf()
    venue_field = record.venue_field()
    field_venue = clean_line(field_text(fields[venue_field])) if venue_field else None
    if venue_field and not venue:
        del fields[venue_field]
    return bibliographic_paper(
        abstract=abstract,
        title=title,
        source=source,
        venue=venue or field_venue or None,
        now=now,
        authors=authors,
        url=url,
        year=year,
        doi=doi,
        arxiv_id=arxiv_id,
        openreview_id=openreview_id,
        pdf_url=pdf_url,
        kind=clean_line(entry.entry_type).lower() or None,
        cite_key=clean_line(entry.key) or None,
        extra=record.extra(),
        code_url=url if url is not None and is_code_url(url) else None,
    )
