"""Ingest's fast paths give what the plain definitions give (storage/text/scan.py and the
shortcuts in ingest_text, urls, names, latex and latex_math).

Each shortcut is checked against the slow, obvious computation it replaces; the golden test
checks whole records against what the implementation before the speed work produced.
"""

from __future__ import annotations

import json
import re
import sys
import time
import unicodedata
from pathlib import Path
from urllib.parse import urlsplit

from hypothesis import given, settings
from hypothesis import strategies as st

import papershelf.storage.names.cues as names_cues
import papershelf.storage.text.latex as latex
import papershelf.storage.text.urls as urls
from papershelf.storage.ingest.merge import title_key
from papershelf.storage.ingest.paragraphs import _QUOTES, _TRAILING, dedupe_key
from papershelf.storage.ingest.parse import parse_bytes
from papershelf.storage.text.clean import _STRIP_TABLE, clean_line, clean_text, squash_spaces
from papershelf.storage.text.latex_math import MathError, _Parser, math_to_unicode
from papershelf.storage.text.scan import (
    ascii_fold,
    case_fold,
    finditer_at,
    letter_trie,
    literal_starts,
    paired_matches,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ingest"

# Pieces that exercise the shortcuts: cue words in odd cases, look-alike letters (Turkish
# dotless i, long s, Kelvin sign), URLs, LaTeX, emphasis, controls and composing marks.
FRAGMENTS = st.sampled_from(
    [
        "We propose ",
        "WE INTRODUCE ",
        "we\tpresent ",
        "we\nterm ",
        "This paper develops ",
        "th\u0131s work proposes ",
        "thi\u017f study designs ",
        "our novel framework, ",
        "our new model: ",
        " called ",
        "named ",
        "Known as ",
        "referred to as ",
        "the proposed ",
        "culminating in our ",
        "FooNet",
        "K²IE",
        "(ABC)",
        "(FOCoOp)",
        "Graph Neural Networks (GNNs)",
        "RelGNN is a novel ",
        ", an new ",
        "https://github.com/Foo/Bar.",
        "HTTPS://GitHub.com/x/y",
        "g\u0131thub.com/a/b",
        "bitbuc\u212aet.org/a/b",
        "www.example.com/x",
        "https:// x.io",
        "https://x.org:99999/z",
        "\\url{https://a.b/c}",
        "[code](https://gitlab.com/a/b)",
        "$x_i^2$",
        "$k$",
        "$\\mathcal{O}(n \\log n)$",
        "\\textbf{Bold}",
        "a---b",
        "**Bold**",
        "*it*",
        "_it_",
        "*a ",
        "__",
        "**",
        "a*",
        "b_",
        "\n",
        "\ufffc",
        "e\u0301",
        "\u0130",
        "\r\n",
        "\x00",
        "\x1c",
        "\u202e",
        "\u2028",
        "  ",
        ". ",
        "\t",
    ]
)
TEXT = st.lists(st.one_of(FRAGMENTS, st.text(max_size=6)), max_size=20).map("".join)


def spans(matches: object) -> list[tuple[int, int]]:
    return [match.span() for match in matches]  # type: ignore[attr-defined]


# --- ingest_scan -------------------------------------------------------------------------------


def test_only_four_non_ascii_characters_match_ascii_letters_ignoring_case() -> None:
    # ascii_fold relies on it; the regex engine's case folding decides, so ask it.
    letter = re.compile("[a-z]", re.IGNORECASE)
    found = {
        chr(code)
        for code in range(0x80, sys.maxunicode + 1)
        if not 0xD800 <= code <= 0xDFFF and letter.fullmatch(chr(code))
    }
    assert found == {"\u0130", "\u0131", "\u017f", "\u212a"}


@settings(max_examples=120, deadline=None)
@given(TEXT)
def test_ascii_fold_keeps_positions_and_each_case_insensitive_letter(text: str) -> None:
    folded = ascii_fold(text)
    assert len(folded) == len(text) and folded.isascii()
    for char, fold in zip(text, folded, strict=True):
        for letter in "abcdefghijklmnopqrstuvwxyz":
            if re.fullmatch(letter, char, re.IGNORECASE):
                assert fold == letter


@settings(max_examples=120, deadline=None)
@given(TEXT, st.lists(st.sampled_from(["a", "ab", "b", "aa", " "]), min_size=1, max_size=3))
def test_literal_starts_finds_every_occurrence(text: str, literals: list[str]) -> None:
    expected = sorted(
        index
        for literal in literals
        for index in range(len(text))
        if text.startswith(literal, index)
    )
    assert literal_starts(text, literals) == expected


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.one_of(TEXT, st.just("\ud800")), max_size=3).map("".join),
    st.lists(
        st.sampled_from(["a", "ab", "b", "aa", " ", "we", "We", "é", "\u212a", "ab ", ""]),
        min_size=4,
        max_size=7,
    ),
)
def test_literal_starts_finds_every_occurrence_of_many_literals(
    text: str, literals: list[str]
) -> None:
    # Four or more literals are found in one Aho-Corasick pass: the same starts, a literal
    # given twice counted twice, and a text the automaton cannot take (a lone surrogate) or a
    # literal it refuses ("") found by str.find.
    expected = sorted(
        index
        for literal in literals
        for index in range(len(text) + (literal == ""))
        if text.startswith(literal, index)
    )
    assert literal_starts(text, literals) == expected
    assert literal_starts(text, tuple(literals)) == expected


def test_case_fold_keeps_length_word_and_space_characters_of_every_code_point() -> None:
    # cues' case-sensitive twins rely on it: one character for one, \w and \s as before, and
    # no character but the four look-alikes made ASCII (where IGNORECASE would match a letter).
    word, space = re.compile(r"\w"), re.compile(r"\s")
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        folded = case_fold(char)
        assert len(folded) == 1, hex(code)
        assert bool(word.match(char)) == bool(word.match(folded)), hex(code)
        assert bool(space.match(char)) == bool(space.match(folded)), hex(code)
        if code >= 0x80 and folded.isascii():
            assert folded == ascii_fold(char), hex(code)


_WINDOW_TEXT = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "Tool",
                "toolkit",
                "MODEL",
                "sy\u017ftem",
                "networ\u212a",
                "llm",
                "s",
                " ",
                ", ",
                ": ",
                "--",
                "\u2014",
                "called ",
                "i.e., ",
                "\u0130",
                "\u0131",
                "é",
                "Foo",
            ]
        ),
        st.text(max_size=3),
    ),
    max_size=14,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(_WINDOW_TEXT, st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=40))
def test_appositive_ends_are_those_of_the_ignorecase_pattern(
    text: str, start: int, length: int
) -> None:
    text = "x" + text
    start = min(start, len(text))
    stop = min(start + length, len(text))
    expected = [m.end() for m in names_cues._APPOSITIVE.finditer(text, start, stop)]
    assert names_cues._appositive_ends(text, start, stop) == expected


def test_letter_trie_spells_the_same_words() -> None:
    trie = letter_trie("method|optimi[sz]er|m?llm|tool|toolkit|a|ab")
    assert trie == (
        "a(?:b)?|llm|m(?:ethod|llm)|o(?:p(?:t(?:i(?:m(?:i(?:ser|zer))))))|t(?:o(?:o(?:l(?:kit)?)))"
    )
    words = ["method", "optimiser", "optimizer", "mllm", "llm", "tool", "toolkit", "a", "ab"]
    assert all(re.fullmatch(trie, word) for word in words)
    assert not any(re.fullmatch(trie, word) for word in ["metho", "optimier", "mlm", "toolk", ""])
    # Anything but lower-case letters, "x?" and "[xy]" is not made a trie.
    assert letter_trie("a b|c") is None
    assert letter_trie("x?") is None
    assert letter_trie(r"foo\w*|bar") is None


_KIND_TEXT = st.lists(
    st.sampled_from(
        [
            "tool",
            "toolkit",
            "model",
            "llm",
            "mllm",
            "loss",
            "s",
            "es",
            " ",
            ",",
            ":",
            "--",
            "\u2014",
            "called ",
            "namely ",
            "i.e., ",
            "x",
            "re",
            "Foo",
            "the ",
        ]
    ),
    max_size=14,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(_KIND_TEXT)
def test_the_trie_appositive_finds_what_the_plain_one_finds(text: str) -> None:
    plain = re.compile(names_cues._APPOSITIVE_TEXT)  # the kinds as the alternation
    lowered = text.lower()
    assert spans(names_cues._APPOSITIVE_LOWER.finditer(lowered)) == spans(plain.finditer(lowered))


def test_lower_case_patterns_hold_no_upper_case_letter() -> None:
    # A pattern run on lower-cased ASCII text instead of its IGNORECASE twin must not need a
    # capital anywhere (escapes such as \\W and a group's name aside).
    for pattern in (names_cues._CUE_LOWER, names_cues._APPOSITIVE_LOWER):
        bare = re.sub(r"\\.|\(\?P<\w+>", "", pattern.pattern)
        assert not re.search("[A-Z]", bare)
        assert not pattern.flags & re.IGNORECASE


@settings(max_examples=150, deadline=None)
@given(TEXT)
def test_hinted_scans_find_what_a_full_scan_finds(text: str) -> None:
    folded = ascii_fold(text)
    cues = finditer_at(names_cues._CUE, text, literal_starts(folded, names_cues._CUE_WORDS))
    assert spans(cues) == spans(names_cues._CUE.finditer(text))
    assert spans(names_cues.cue_matches(text)) == spans(names_cues._CUE.finditer(text))
    plain = text.encode("ascii", "ignore").decode("ascii")  # the lower-case path's text
    assert spans(names_cues.cue_matches(plain)) == spans(names_cues._CUE.finditer(plain))
    pieces = finditer_at(latex._TEXT, text, literal_starts(text, latex._TEXT_STARTS))
    assert spans(pieces) == spans(latex._TEXT.finditer(text))
    found = finditer_at(urls._CANDIDATE, text, literal_starts(folded, urls._CANDIDATE_STARTS))
    assert spans(found) == spans(urls._CANDIDATE.finditer(text))
    for pattern, closers in (
        (latex._BOLD, latex._BOLD_CLOSERS),
        (latex._STAR, latex._STAR_CLOSERS),
        (latex._UNDERSCORE, latex._UNDERSCORE_CLOSERS),
    ):
        assert spans(paired_matches(pattern, closers, text)) == spans(pattern.finditer(text))


# --- ingest_text -------------------------------------------------------------------------------


def reference_clean(text: str) -> str:
    text = text.replace("\r\n", "\n").translate(_STRIP_TABLE)
    return unicodedata.normalize("NFC", text)


@settings(max_examples=150, deadline=None)
@given(TEXT, st.integers(min_value=1, max_value=400))
def test_clean_text_is_the_plain_definition_short_and_chunked(text: str, copies: int) -> None:
    assert clean_text(text) == reference_clean(text)
    long = text * copies + "e\u0301" + text  # long enough for the chunked path
    assert clean_text(long) == reference_clean(long)


@settings(max_examples=120, deadline=None)
@given(TEXT)
def test_squash_and_clean_line_and_dedupe_key_are_the_plain_definitions(text: str) -> None:
    assert squash_spaces(text) == " ".join(text.split())
    assert clean_line(text) == " ".join(clean_text(text).split())
    key = unicodedata.normalize("NFKC", clean_text(text)).casefold()
    key = unicodedata.normalize("NFKC", key).translate(_QUOTES)
    assert dedupe_key(text) == " ".join(key.split()).rstrip(_TRAILING)


# --- urls --------------------------------------------------------------------------------------

URLS = st.builds(
    "{}://{}{}{}".format,
    st.sampled_from(["https", "http", "HTTP", "ftp"]),
    st.sampled_from(["github.com", "www.github.com", "x.org", "a.b.io", "GitLab.com", "u@x.org"]),
    st.sampled_from(["", ":8080", ":99999", ":abc"]),
    st.text(alphabet="/?#=&%.-_~aZ09 \t", max_size=20),
)


@settings(max_examples=150, deadline=None)
@given(URLS)
def test_plain_url_split_is_what_urlsplit_gives(url: str) -> None:
    split = urls._split(url)
    parts = urlsplit(url)
    assert split is not None
    scheme, host, path, rest, _ = split
    assert (scheme, host, path) == (parts.scheme, (parts.hostname or "").lower(), parts.path)
    assert rest == url[len(parts.scheme) + 3 + len(parts.netloc) :]


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(st.characters(max_codepoint=127)),
        st.text(st.sampled_from("aZ09_-:{}\u00e9\u0130\u017f\u212a\u00df\u0663 \t")),
        TEXT,
    )
)
def test_title_key_is_the_plain_definition(title: str) -> None:
    assert title_key(title) == re.sub(r"[\W_]+", "", title.casefold())


@settings(max_examples=150, deadline=None)
@given(st.one_of(URLS, TEXT))
def test_is_code_url_is_the_plain_definition(url: str) -> None:
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        assert not urls.is_code_url(url)
        return
    assert urls.is_code_url(url) == (host.removeprefix("www.") in urls.CODE_HOSTS)


def test_an_invalid_port_drops_the_url_instead_of_failing_the_import() -> None:
    # Bug fix: urlsplit raises ValueError for the port, which escaped parse_bytes.
    assert urls.canonical("https://example.com:99999/x") is None
    assert urls.canonical("https://example.com:8080/x") == "https://example.com:8080/x"
    abstract = b"We propose FooNet. Code: https://example.com:99999/x and https://github.com/a/b."
    (paper,) = parse_bytes(abstract, "ports.txt", now="t").papers
    assert paper.code_urls == ("https://github.com/a/b",) and paper.links == ()


# --- names -------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(TEXT, st.data())
def test_window_shortcuts_are_exact(text: str, data: st.DataObject) -> None:
    if not text:
        return
    start = data.draw(st.integers(min_value=1, max_value=len(text)))
    stop = data.draw(st.integers(min_value=start, max_value=len(text)))
    ends = [match.end() for match in names_cues._APPOSITIVE.finditer(text, start, stop)]
    assert names_cues._appositive_ends(text, start, stop) == ends
    if not names_cues._capital_ahead(text, start, stop):
        assert names_cues._window_candidates(text, start, stop, {}, naming=False) == []
    assert names_cues._has_lead_part(text) or names_cues._LEAD.search(text) is None


# --- latex -------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(TEXT)
def test_plain_math_needs_no_parsing(source: str) -> None:
    try:
        parsed: str | None = _Parser(source).parse()
    except MathError:
        parsed = None
    try:
        fast: str | None = math_to_unicode.__wrapped__(source)
    except MathError:
        fast = None
    assert fast == parsed or len(source) > 2000


@settings(max_examples=150, deadline=None)
@given(TEXT)
def test_filling_pieces_is_the_general_assembly_without_emphasis(text: str) -> None:
    text = clean_text(text).replace("\t", " ")
    pieces = latex._pieces(text)
    masked = latex._masked(text, pieces)
    assert latex._filled(text, pieces) == latex._assembled(masked, pieces, set(), [])


# --- whole records -----------------------------------------------------------------------------


def test_golden_excerpt_gives_what_the_implementation_before_the_speed_work_gave() -> None:
    # 120 corpus records picked for URLs, math, emphasis, LaTeX, non-ASCII and naming cues;
    # the expected file was written by the implementation of commit 28ef050.
    data = (FIXTURES / "golden_excerpt.jsonl").read_bytes()
    expected = json.loads((FIXTURES / "golden_expected.json").read_text(encoding="utf-8"))
    papers = parse_bytes(data, "golden_excerpt.jsonl", now="t").papers
    assert len(papers) == len(expected) == 120
    for paper, want in zip(papers, expected, strict=True):
        shown = latex.display_text(paper.abstract)
        got = {
            "id": paper.id,
            "name": paper.name,
            "title": paper.title,
            "venue": paper.venue,
            "url": paper.url,
            "code_urls": list(paper.code_urls),
            "links": list(paper.links),
            "display": shown.text if shown.text != paper.abstract else None,
            "styles": [list(style) for style in shown.styles],
        }
        assert got == want, paper.title


# --- hostile text ------------------------------------------------------------------------------

HOSTILE = {
    "unclosed stars": "*a " * 6_000,
    "unclosed underscores": "_a " * 6_000,
    "unclosed bold": "**a " * 4_500,
    "closing parens": "See https://example.org/" + ")" * 15_000 + " for the code.",
    "method cues": "We propose ParenNet. " * 900,
    "cues and styles": "We propose **ParenNet**. " * 700,
}


def test_hostile_paragraphs_parse_in_linear_time() -> None:
    # Each took 0.1 to 1.7 s before (quadratic); linear parsing takes a few milliseconds. The
    # bound is CPU time, generous for a noisy machine, and far below the quadratic cost; the
    # best of three attempts, so that a burst of load on a shared machine cannot fail it.
    for kind, text in HOSTILE.items():
        data = text[:19_990].encode()
        costs = []
        for _ in range(3):
            started = time.process_time()
            (paper,) = parse_bytes(data, "hostile.txt", now="t").papers
            costs.append(time.process_time() - started)
            assert paper.name, kind
        assert min(costs) < 0.08, (kind, costs)
