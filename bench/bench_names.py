"""Benchmark: how often `method_name` names the method an abstract states (issue #11).

Run by hand: `python bench/bench_names.py [FILE] [--seed S] [--show N]
[--repeat R] [--shown] [--precision] [--selection current|earlier|both] [--dev-also S2]`
(default file: /work/shared/corpus/ml-abstracts.jsonl).

The label of a paper is its title's short name ("RelGNN: Composite Message Passing..." gives
"RelGNN": at most 3 words and 40 characters before ": "). A paper is selected when its abstract
states that label as a name (`states_name`): the folded label occurs as a word in the folded,
LaTeX-converted abstract, not glued into a longer word by a hyphen or underscore ("ml-tic-clip"
does not state TiC-CLIP, "Neural SPH-enhanced" not Neural SPH); and a label of ordinary words
("Position", "Particle Guidance": no capital but a word's first letter, no digit or sign) is
written as a name somewhere - with its capitals mid-sentence, in emphasis or quotes, before its
parenthesised acronym, after "called"/"we term", as "we propose particle guidance, a ...", or as
a URL's part - not only as ordinary words ("In this position paper, we argue", "relies on
strategic planning"). Before this rule (which drops no paper by hand) 2,882 papers were
selected; it keeps 2,805. `--selection earlier` scores the papers the rule before it selected
(the folded label as a word anywhere, `earlier_states_name`), `--selection both` the two side
by side; the scoring is the same.
`method_name` sees the abstract alone (and the code URLs `split_urls` finds in it), never the
title. An answer is correct when it folds to the label, or to the label without a leading
article ("Reversal Curse" for "The Reversal Curse") ("exact"), or when the abstract writes
the label as `Label (ACR)` and the answer is ACR or its singular ("acronym"; the issue makes
the acronym the name then) - both are counted, and shown apart.

The selection is split by a seeded hash of the title into a development half (look at its
failures with --show) and a held-out half (only reported), so that what is tuned on is not
what is scored alone. `--dev-also S2` shows only failures that are in the development half
under seed S2 too, so that tuning on them leaves both seeds' held-out halves unseen. The
corpus is read in place; nothing of it belongs in the repository.
`--repeat` times `method_name` over every abstract of the file (CPU seconds, best of R, memo
caches cleared before each run).

`--precision` counts false names: on papers whose title has no short `Name:` head and whose
abstract says no coined word of the title (RelGNN, K²IE: `namelike`), how often `derive_name`
shows a name rather than its headline fallback - given the abstract and its code URLs alone,
and given the title too (as import does). Some of these papers do name a method the title
leaves out ("we propose FooNet" under a plain title), so the rate is an upper bound; it is
split by where the name comes from (a cue the text states, or a guess when none does).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import papershelf.storage.names.derive
import papershelf.storage.text.latex
from papershelf.storage.library.library import fold_name
from papershelf.storage.names.derive import (
    _stated_name,
    _title_headline,
    derive_name,
    headline,
    method_name,
    repo_name,
)
from papershelf.storage.names.words import namelike, strip_token
from papershelf.storage.text.clean import clean_text, squash_spaces
from papershelf.storage.text.latex import latex_to_unicode
from papershelf.storage.text.titles import display_title
from papershelf.storage.text.urls import split_urls

CORPUS = Path("/work/shared/corpus/ml-abstracts.jsonl")
# Modules whose memo caches the timing clears (the last two are new with issue #11).
_CACHED = (
    "papershelf.storage.text.latex",
    "papershelf.storage.names.derive",
    "papershelf.storage.names.cues",
    "papershelf.storage.names.words",
    "papershelf.storage.names.acronyms",
)
_TITLE_HEAD = re.compile(r"^(.{1,40}?): ")


@dataclass(frozen=True)
class Case:
    """One selected paper: its label, abstract, code URLs, class and half."""

    label: str
    abstract: str
    code_urls: tuple[str, ...]
    kind: str
    dev: bool
    acronym: str | None  # ACR when the abstract writes `Label (ACR)`
    title: str = ""  # to tell its half under another seed (`in_dev`)


def in_dev(seed: int, title: str) -> bool:
    """Whether a paper of this title falls in the development half under `seed`."""
    return hashlib.sha256(f"{seed}:{title}".encode()).digest()[0] % 2 == 0


def _field(record: dict[str, object], key: str) -> str:
    value = record.get(key)
    return squash_spaces(clean_text(value)) if isinstance(value, str) else ""


def _word(folded_label: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(folded_label) + r"(?!\w)")


def _kind(label: str, shown: str, folded: str) -> str:
    """The cue form the abstract states the label in (the first that fits)."""
    at = _word(fold_name(label)).search(folded)
    start = at.start() if at else 0
    after = folded[at.end() : at.end() + 6] if at else ""
    if re.search(re.escape(label) + r"[\s*\"'\u201d\u2019]*\(", shown):
        return "acronym"
    if any(ch.isdigit() for ch in label) and " " in label:
        return "version"
    if label == label.lower():
        return "lowercase"
    if start == 0:
        return "start"
    if after.startswith((",", " --", " -", " \u2013", " \u2014")):
        return "apposition"
    if after.startswith(":"):
        return "colon"
    if after.startswith((" is ", " are ")):
        return "is-a"
    return "other"


def load(
    path: Path, seed: int, selection: str = "current"
) -> tuple[list[Case], list[tuple[str, tuple[str, ...]]]]:
    """The selected cases, and (abstract, code URLs) for every record (for the timing).

    `selection` "current" selects by `states_name`; "earlier" by the rule before it (commit
    05ea211: the folded label occurs as a word of the folded abstract, `earlier_states_name`).
    """
    selects = states_name if selection == "current" else earlier_states_name
    cases: list[Case] = []
    every: list[tuple[str, tuple[str, ...]]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        title, abstract = _field(record, "title"), _field(record, "abstract")
        if not abstract:
            continue
        code_urls = split_urls(abstract)[0]
        every.append((abstract, code_urls))
        head = _TITLE_HEAD.match(latex_to_unicode(title))
        if not head:
            continue
        label = head.group(1).strip()
        if not label or len(label.split()) > 3:
            continue
        shown = latex_to_unicode(abstract)
        if not selects(label, shown):
            continue
        folded = fold_name(shown)
        spelled = re.escape(label) + r"[\s*\"'\u201d\u2019]*\(\s*([^()\s]{2,25})\s*\)"
        acronym = re.search(spelled, shown, re.IGNORECASE)
        cases.append(
            Case(
                label=label,
                abstract=abstract,
                code_urls=code_urls,
                kind=_kind(label, shown, folded),
                dev=in_dev(seed, title),
                acronym=acronym.group(1).strip("*") if acronym and " " in label else None,
                title=title,
            )
        )
    return cases, every


# A label of ordinary words: each part (split at spaces and hyphens) a word with at most an
# initial capital ("Position", "Particle Guidance", "Lambda-Skip Connections").
_PLAIN_PART = re.compile(r"[A-Za-z][a-z]*")
_SMALL = frozenset(("the", "a", "an", "of", "or", "and", "to", "in", "on", "for", "by", "with"))
_SENTENCE_START = re.compile(r"(?:^|[.!?][\s*_\"'\u201d\u2019)]*\s)[\s*_\"'`\u201c\u2018(]*$")
_MARKS = "*_\"'`\u201c\u201d\u2018\u2019\\"  # emphasis, quotes, a LaTeX macro's backslash
_MARK = "[" + re.escape(_MARKS) + "]"
# Naming words right before a name: "a phenomenon we call catastrophic Goodhart", "termed
# lambda-skip connections", "namely point cluster", "which we refer to as the data mixing laws".
_NAMED_BEFORE = re.compile(
    r"\b(?:call(?:ed|s)?|term(?:ed|s)?|name(?:d|s)?|dub(?:bed|s)?|coin(?:ed|s)?|namely|"
    r"refer(?:red)? to as|known as)\s+(?:(?:this|these|such|it|them)\s+(?:[a-z]+\s+)?)?"
    r"(?:as\s+)?(?:the\s+|an?\s+)?" + _MARK + "*$",
    re.IGNORECASE,
)
# A making verb right before, an apposition right after: "we propose position coupling, a
# simple ...", "we describe successor heads: attention heads ...".
_MADE_BEFORE = re.compile(
    r"(?:\b(?:propos|introduc|present|develop|design|describ|discover|formulat|call|nam|term)\w*"
    r"\s+(?:the\s+)?|\b(?:method|framework|approach|methodology|technique|algorithm|model|"
    r"strategy|scheme|metric|loss|principle|phenomenon|paradigm)s?\s*,\s+)" + _MARK + "*$",
    re.IGNORECASE,
)
_APPOSITION_AFTER = re.compile(_MARK + r"*\s*(?:,|:|--|\u2014|\u2013|\()")


def _plain(label: str) -> bool:
    return all(_PLAIN_PART.fullmatch(part) for part in re.split(r"[\s-]+", label) if part)


def _glued(folded: str, start: int, end: int) -> bool:
    """Whether a hyphen or underscore joins the occurrence to a longer word ("ml-tic-clip",
    "Neural SPH-enhanced", "InterpGNN-GW"): the label inside another word."""
    before, after = folded[max(0, start - 2) : start], folded[end : end + 2]
    return bool(re.fullmatch(r".?[^\W_][-_]", before) or re.match(r"[-_][^\W_]", after))


def _named_as_written(label: str, shown: str, start: int, end: int) -> bool:
    """Whether a plain-word label is written as a name here (see `states_name`)."""
    said = shown[start:end]
    words, written = label.split(), said.split()
    capitals = [
        w[0].isupper()
        for lw, w in zip(words, written, strict=False)
        if lw[0].isupper() and lw.lower() not in _SMALL
    ]
    if (
        capitals
        and all(capitals)
        and (len(capitals) > 1 or not _SENTENCE_START.search(shown[:start]))
    ):
        return True  # "Win-Win", "Model Equality Testing": the label's capitals mid-sentence
    before, after = shown[max(0, start - 60) : start], shown[end:]
    if before.endswith(tuple(_MARKS)) and after.startswith(tuple(_MARKS)):
        return True  # set off: "*data taggants*", "``shadow cones\"", "\\dualformer"
    if re.match(_MARK + r"*\s*\(\s*[^()\s]{2,25}\s*\)", after):
        return True  # its acronym follows: "abstract reward processes (ARPs)"
    if before.endswith("(") and after.startswith(")"):
        return True  # the short form itself: "regularization terms (fairret)"
    if _NAMED_BEFORE.search(before):
        return True
    if _MADE_BEFORE.search(before) and _APPOSITION_AFTER.match(after):
        return True
    # A URL named after it: ".../HazyResearch/zoology", "lawma.github.io".
    url = re.search(r"\S*$", before)
    return bool(url and "/" in url.group(0) and re.match(r"(?:[/.]|\s|$)", after))


def states_name(label: str, shown: str) -> bool:
    """Whether the abstract (display text) states the label as a name (the module docstring).

    The folded label must occur as a word not glued by a hyphen or underscore into a longer one.
    A label of plain words ("Position", "Particle Guidance") must also be written as a name
    somewhere: with its capitals away from a sentence start, set off by emphasis, quotes or a
    LaTeX macro, before its parenthesised acronym, after a naming word ("called", "we term"),
    after a making verb with an apposition ("we propose particle guidance, a ..."), or as a
    URL's path part. Else it is only said as ordinary words ("this position paper").
    """
    folded = fold_name(shown)
    # An underscore is no letter here: "_motion guidance_" is Markdown emphasis.
    word = re.compile(r"(?<![^\W_])" + re.escape(fold_name(label)) + r"(?![^\W_])")
    found = [m for m in word.finditer(folded) if not _glued(folded, *m.span())]
    if not found:
        return False
    if not _plain(label):
        return True
    if len(folded) != len(shown):
        return True  # folding moved the offsets (rare): not checked, as before
    return any(_named_as_written(label, shown, *m.span()) for m in found)


def earlier_states_name(label: str, shown: str) -> bool:
    """The selection before `states_name` (commit 05ea211): the folded label occurs as a word
    of the folded abstract, wherever and however it is written (2,882 papers)."""
    return bool(_word(fold_name(label)).search(fold_name(shown)))


@dataclass(frozen=True)
class Unnamed:
    """A paper that names no method by the title's evidence: its title, abstract, code URLs."""

    title: str
    abstract: str
    code_urls: tuple[str, ...]


def load_unnamed(path: Path) -> list[Unnamed]:
    """Papers with no short `Name:` title head whose abstract says no coined word of the title."""
    found: list[Unnamed] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        title, abstract = _field(record, "title"), _field(record, "abstract")
        if not abstract or not title:
            continue
        shown_title = latex_to_unicode(title)
        head = _TITLE_HEAD.match(shown_title)
        if head and len(head.group(1).split()) <= 3:
            continue  # a short name heads the title: the paper has a name
        folded = fold_name(latex_to_unicode(abstract))
        coined = [word for word in map(strip_token, shown_title.split()) if namelike(word)]
        if any(_word(fold_name(word)).search(folded) for word in coined):
            continue  # the title's coined word in the abstract: a name the text states
        found.append(Unnamed(title, abstract, split_urls(abstract)[0]))
    return found


def precision(papers: list[Unnamed]) -> None:
    """How often `derive_name` shows a name (not its headline) on papers that have none."""
    for with_title in (False, True):
        stated = guessed = 0
        for paper in papers:
            title = paper.title if with_title else None
            name = derive_name(paper.abstract, title, paper.code_urls)
            fallback = (
                _title_headline(display_title(title))
                if title
                else headline(papershelf.storage.text.latex.display_text(paper.abstract).text)
            )
            if name == fallback:
                continue
            if name == _stated_name(paper.abstract, paper.code_urls):
                stated += 1
            else:
                guessed += 1
        given = "abstract, code URLs and title" if with_title else "abstract and code URLs"
        print(
            f"false names given {given}: {_share(stated + guessed, len(papers))}; "
            f"stated by a cue {stated}, guessed {guessed}"
        )


def _bare(folded_label: str) -> str:
    """A folded label without a leading article: "The Reversal Curse" names "Reversal Curse"
    (the text writes "the Reversal Curse"; the article is the title's, not the name's)."""
    return re.sub(r"^(?:the|a|an) (?=\S)", "", folded_label)


def verdict(case: Case, name: str | None) -> str:
    """'exact', 'acronym', 'none', 'repo' (the repository's name instead) or 'wrong'."""
    if name is not None and fold_name(name) in (label := fold_name(case.label), _bare(label)):
        return "exact"
    # The acronym, or its singular ("Universal Physics Transformers (UPTs)" names UPT).
    acronym = fold_name(case.acronym) if case.acronym else None
    if name is not None and acronym and fold_name(name) in (acronym, acronym.removesuffix("s")):
        return "acronym"
    if name is None:
        return "none"
    repo = repo_name(case.code_urls)
    return "repo" if repo and name.casefold() == repo.casefold() else "wrong"


def _from_repo(case: Case, name: str | None) -> bool:
    """Whether `method_name` fell back to the repository's name (the text states none)."""
    # getattr: the bench also runs on the code before issue #11, which had no fallback.
    stated = getattr(papershelf.storage.names.derive, "_stated_name", None)
    return name is not None and stated is not None and stated(case.abstract, case.code_urls) is None


def _share(part: int, whole: int) -> str:
    return f"{part / whole:6.1%} ({part}/{whole})" if whole else "  -   (0/0)"


def report(title: str, results: list[tuple[Case, str | None, str]]) -> None:
    """Shares of one half: correct (exact + acronym), by verdict, and by class."""
    total = len(results)
    verdicts = Counter(v for _, _, v in results)
    right = verdicts["exact"] + verdicts["acronym"]
    print(f"{title}: {_share(right, total)} correct")
    from_repo = sum(1 for c, n, v in results if v in ("exact", "acronym") and _from_repo(c, n))
    print(
        f"    exact {verdicts['exact']}, acronym {verdicts['acronym']} (of these, the repository "
        f"name when the text states none: {from_repo})\n    wrong: none "
        f"{verdicts['none']}, repo slug {verdicts['repo']}, other name {verdicts['wrong']}"
    )
    kinds = Counter(case.kind for case, _, _ in results)
    for kind, count in kinds.most_common():
        good = sum(1 for c, _, v in results if c.kind == kind and v in ("exact", "acronym"))
        print(f"    {kind:<11} {_share(good, count)}")


def timing(every: list[tuple[str, tuple[str, ...]]], repeat: int) -> float:
    """Least CPU seconds of `repeat` runs of `method_name` over every abstract, cold caches."""
    best = float("inf")
    for _ in range(repeat):
        for module in map(sys.modules.get, _CACHED, [sys] * len(_CACHED)):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
        start = time.process_time()
        for abstract, code_urls in every:
            method_name(abstract, code_urls)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--show", type=int, default=0, help="print N failures of the dev half")
    parser.add_argument("--kind", help="show failures of this class only")
    parser.add_argument("--repeat", type=int, default=0, help="time method_name, best of N")
    parser.add_argument(
        "--shown", action="store_true", help="score derive_name (what papershelf shows) instead"
    )
    parser.add_argument(
        "--precision", action="store_true", help="count names shown on papers that have none"
    )
    parser.add_argument(
        "--selection",
        choices=("current", "earlier", "both"),
        default="current",
        help="which papers: states_name's (current), the rule before it (earlier), or both",
    )
    parser.add_argument(
        "--dev-also",
        type=int,
        metavar="SEED",
        help="--show only failures in the dev half under this seed too (neither held out)",
    )
    args = parser.parse_args()

    if args.precision:
        papers = load_unnamed(args.file)
        print(f"file: {args.file}; {len(papers):,} papers with no name by their title")
        precision(papers)
        return

    # --shown: the name the app and the CLI show for an abstract without a title (derive_name:
    # the stated name, else the repository's, else a headline), not method_name's guesses.
    name_of = (
        (lambda c: derive_name(c.abstract, None, c.code_urls))
        if args.shown
        else (lambda c: method_name(c.abstract, c.code_urls))
    )
    selections = ("current", "earlier") if args.selection == "both" else (args.selection,)
    failures: dict[str, tuple[Case, str | None, str]] = {}
    for selection in selections:
        cases, every = load(args.file, args.seed, selection)
        print(f"file: {args.file} ({len(every):,} abstracts); selection {selection}: ", end="")
        print(f"selected {len(cases):,}, seed {args.seed}")
        results = [(c, n, verdict(c, n)) for c in cases for n in [name_of(c)]]
        report("all     ", results)
        report("dev     ", [r for r in results if r[0].dev])
        report("held-out", [r for r in results if not r[0].dev])
        for result in results:
            case = result[0]
            if (
                case.dev
                and (args.dev_also is None or in_dev(args.dev_also, case.title))
                and result[2] not in ("exact", "acronym")
                and args.kind in (None, case.kind)
            ):
                failures.setdefault(case.title, result)

    if args.show:
        shown = list(failures.values())
        random.Random(args.seed).shuffle(shown)
        for case, name, why in shown[: args.show]:
            at = fold_name(case.abstract).find(fold_name(case.label))
            excerpt = case.abstract[max(0, at - 100) : at + 120] if at >= 0 else ""
            print(f"\n[{case.kind}/{why}] label {case.label!r} got {name!r}")
            print(f"    ...{excerpt}...")
    if args.repeat:
        seconds = timing(every, args.repeat)
        print(
            f"\nmethod_name over {len(every):,} abstracts: {seconds:.3f} s CPU, best of "
            f"{args.repeat} ({seconds / len(every) * 1e6:.0f} us each)"
        )


if __name__ == "__main__":
    main()
