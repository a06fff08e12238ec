"""A paper's display name: the method it introduces, its repository, or a short headline.

Names are display text (`K$^2$IE` is `K²IE`). The method name is the best of the candidates
`papershelf.storage.names.cues` finds (what follows "we propose X, a ...", "called X", a long name's
acronym, bold spans, "X is a ..."): by the evidence, then how often the abstract repeats it and
whether the repository has its name, then the earliest. Generic field acronyms (RL, LLM...) are
never names.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from papershelf.storage.names.claims import claimed_name, shown_claim
from papershelf.storage.names.cues import candidates
from papershelf.storage.names.weak import (
    defined_acronym,
    made_acronym,
    page_slug,
    repeated_word,
    repo_form,
    repo_key,
    url_name,
)
from papershelf.storage.names.words import (
    ACRONYM,
    MAX_NAME,
    is_generic,
    namelike,
    own_count,
    plain_letters,
    two_capitals,
    word_count,
)
from papershelf.storage.names.words import strip_token as _strip
from papershelf.storage.text.latex import display_text
from papershelf.storage.text.titles import display_title
from papershelf.storage.text.urls import split_urls

MAX_HEADLINE = 64
_REPEATS = 2
_REPO = 3


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z0-9*$(\"']|\s*$)")
_STOP_END = _words(
    """of the and a an for in on to with via by from at as or its their that which is are our we
    this these those using into over under between through toward towards both either nor but than
    when where while whose how what can be has have not also more most such each any all via its
    per vs versus"""
)
_OPENERS = re.compile(
    r"^(?:(?:in this (?:paper|work|study|note|article)|here(?:in)?|recently|in recent years|"
    r"to this end|in particular|specifically|moreover|however)\s*,?\s+)?"
    r"(?:(?:we|this (?:paper|work|study|article))\s+(?:\w+ly\s+)?(?:propose|present|introduce|"
    r"study|investigate|consider|analy[sz]e|explore|address|examine|develop|revisit|provide|tackle|"
    r"focus on|describe|prove|give|show that|demonstrate that|report)s?\s+)?",
    re.IGNORECASE,
)
_GENERIC_REPOS = _words(
    "code src source project repo repository main master paper official implementation release "
    "github"
)
_SHORT_PARENS = re.compile(r"\s+\([^()]{1,20}\)")  # spaced: "E(3)-Equivariant" keeps its "(3)"
# "RollingQ_ICML2025": a venue and year name the submission, not the method.
_REPO_SUFFIX = re.compile(
    r"[-_.](?:main|master|official|code|pytorch|release|[a-z]*(?:19|20)\d\d)$", re.IGNORECASE
)
_TITLE_WORDS = _words("position survey review tutorial perspective benchmark overview")


def method_name(abstract: str, code_urls: tuple[str, ...] = ()) -> str | None:
    """The name of the method the abstract introduces, or None.

    A name the text states wins; else a coined repository name ("github.com/lab/MaNo" where
    the abstract says only "our proposed method \\method{}"), never a generic one ("denovo").
    """
    name = _stated_name(abstract, code_urls)
    if name is None:
        return _unstated_name(abstract, code_urls)
    return name


def _project_name(abstract: str, code_urls: tuple[str, ...]) -> str | None:
    """The project's URL name (a repository or a github.io page) as the text writes it."""
    if not code_urls and "github.io" not in abstract:
        return None
    text = plain_letters(display_text(abstract).text)
    # Project pages are links, not code URLs; finding links costs a scan, so only with one.
    pages = split_urls(abstract)[1] if "github.io" in abstract else ()
    return url_name(text, code_urls + pages)


def _unstated_name(abstract: str, code_urls: tuple[str, ...]) -> str | None:
    """A name no cue states: the project's URL name as the text writes it, a coined repository
    name, an acronym the text defines, a coined word it repeats; else None."""
    # The text's own form of the project's name beats its slug ("Junk DNA Hypothesis").
    if name := _project_name(abstract, code_urls):
        return name
    text = plain_letters(display_text(abstract).text)
    if (repo := repo_name(code_urls)) and namelike(repo):
        return repo
    if guess := defined_acronym(text) or repeated_word(text) or claimed_name(text):
        return guess
    # A page made for the paper ("4k4dgen.github.io"), as `derive_name` shows it: the only
    # name of papers whose text says it in the URL alone.
    return page_slug(split_urls(abstract)[1]) if "github.io" in abstract else None


def _stated_name(abstract: str, code_urls: tuple[str, ...]) -> str | None:
    """The method name the text states, or None."""
    display = display_text(abstract)
    text = display.text
    repo = repo_name(code_urls) or ""
    found = candidates(text, display.styles)
    # The repository's name as the text spells it ("We evaluate TIC-TAC ..." with .../TIC-TAC)
    # is a name the text states even where no cue introduces it ("... to create MUDDFormer",
    # "called Epidemiology-Aware ... (EARTH) in this paper"): the repository confirms it.
    if repo and (form := repo_form(text, repo)) and (namelike(form) or " " in form):
        at = text.find(form)
        # "Fair Fairness Benchmark (FFB)": the acronym names a long name (the rule).
        end = at + len(form)
        short = ACRONYM.match(text, end + 1) if text.startswith(" (", end) else None
        if short and namelike(_strip(short.group(1))) and " " in form:
            # The repository confirms the acronym as it would the long name ("Federated
            # Orthogonal Training (FOT)" in .../Federated_Orthogonal_Training); a coined word
            # keeps its own name ("Text-to-LoRA (T2L)").
            at, form = short.start(1), _strip(short.group(1))
            repo = form
        found.append((4, at, form))
    counts: dict[str, int] = {}  # a name found after each of many cues is counted once
    best = _best(text, found, repo_key(repo), counts)
    return plain_letters(best) if best else None


def _best(
    text: str, found: list[tuple[int, int, str]], repo: str, counts: dict[str, int]
) -> str | None:
    """The best-ranked candidate name: by evidence, repetition, the repository; then first."""
    best: tuple[int, int, str] | None = None
    means: dict[str, int] = {}
    names = {name for _, _, name in found}
    for score, position, name in found:
        if score < 3 or (best is not None and score + _REPEATS + _REPO < best[0]):
            continue  # weak, or cannot win even repeated and the repository's name: not counted
        repeats = counts.get(name)
        if repeats is None:
            # Counted alone: "KOR" said inside "KOR-Bench" repeats KOR-Bench, not KOR, and
            # "OSDA" inside the candidate "OSDA Agent" repeats OSDA Agent.
            repeats = own_count(text, name) - sum(
                own_count(text, other) for other in names if other.startswith(name + " ")
            )
            counts[name] = repeats
        if name not in means:
            means[name] = _means(text, name)  # once a name: cues may find it hundreds of times
        if score < 3 or (score == 3 and repeats < 2):
            continue  # weak evidence (a topic's acronym, a stray bold word) names nothing
        if len(name) > MAX_NAME or not name.isprintable() or is_generic(name):
            continue  # a guard: a name is short, printable display text, never "LLM"
        if two_capitals(name):
            continue  # "CF", "KG", "SD": a field's term, however often the text repeats it
        # Repeated names are the paper's subject; the repository's name confirms it.
        score += min(repeats - 1, _REPEATS) + _REPO * bool(repo and repo_key(name) == repo)
        score -= means[name]
        if best is not None and score < best[0]:
            continue  # cannot win (the checks below only lower a score): not checked
        score -= _data(text, position, name) + _term(text, position, name)
        ranked = (score, -position, name)
        if best is None or ranked > best:
            best = ranked
    return best[2] if best else None


# A dataset or benchmark named: "our new dataset DySO", "HAIG-2.9M, a large-scale ... dataset",
# "the GVLQA dataset", "the ChatRAG Bench", a long form's acronym: "... Answering (GVLQA) dataset".
_DATA_WORDS = r"(?:dataset|benchmark|corpus|bench|testbed)s?\b"
_DATA_BEFORE = re.compile(r"\b" + _DATA_WORDS + r"[\s,:]*$", re.IGNORECASE)
_DATA_AFTER = re.compile(
    r"\)?(?:\s*\([^()]{1,30}\))?(?:\s*[,:]\s*(?:an?|the)\s+(?:[\w,-]+\s+){0,6}?|\s+)" + _DATA_WORDS,
    re.IGNORECASE,
)


def _term(text: str, position: int, name: str) -> int:
    """1 when the text defined the name before as the short form of lower-case words ("the
    joint cumulative distribution function (CDF)"): a term it uses, named again later ("we
    propose the CDF indicator"), not the paper's coinage."""
    defined = text.find("(" + name + ")", 0, position)
    return 1 if defined > 1 and text[defined - 2].islower() else 0


def _data(text: str, position: int, name: str) -> int:
    """1 when the text calls the name a dataset or benchmark where it states it, or a task or
    problem right after it: papers that make one and a method name the method ("UniMC" over
    "HAIG-2.9M, a ... dataset", "ITFormer" over "the Time-Series Question Answering task")."""
    if name.endswith(("Bench", "bench")):
        return 1
    if _DATA_BEFORE.search(text, max(0, position - 24), position):
        return 1
    end = position + len(name)
    return 1 if _DATA_AFTER.match(text, end) or _TASK_AFTER.match(text, end) else 0


# "we introduce the Time-Series Question Answering (Time-Series QA) task and ...": a task or a
# problem the paper poses is what it studies, not its method (named next: ITFormer).
_TASK_AFTER = re.compile(r"\)?(?:\s*\([^()]{1,30}\))?\s+(?:task|problem)s?\b", re.IGNORECASE)


# "Leveraging ECBench, we develop ...", "Utilizing the Geo9k dataset, we introduce ...".
_MEANS = re.compile(
    r"\b(?:leverag|utiliz|us|build|built|bas)\w*(?: (?:on|upon))? "
    r"(?:the |our |this )?(?:proposed )?$",
    re.IGNORECASE,
)


def _means(text: str, name: str) -> int:
    """1 when the text makes the name the means to what it then makes ("Leveraging X, we
    develop Y"): a dataset or part built first, not the paper's end (Y)."""
    index = text.find(name)
    while index >= 0:
        # The comma first: a short find, where the regex is a search (most names have none).
        comma = text.find(", we ", index, index + 80)
        if (
            comma >= 0
            and "." not in text[index:comma]
            and _MEANS.search(text, max(0, index - 40), index)  # ends where the name begins
        ):
            return 1
        index = text.find(name, index + 1)
    return 0


def repo_name(code_urls: tuple[str, ...]) -> str | None:
    """The repository's name from the first code URL, unless it is a generic one ('code')."""
    for url in code_urls:
        segments = [part for part in urlsplit(url).path.split("/") if part]
        # "HiGen_main", "foo-official": the suffix says nothing about the paper.
        name = _REPO_SUFFIX.sub("", segments[-1] if segments else "")
        if len(segments) >= 2 and name.lower() not in _GENERIC_REPOS:
            return name[:MAX_NAME]
    return None


def headline(text: str, limit: int = MAX_HEADLINE) -> str:
    """A short readable headline from the first sentence, cut at a word boundary."""
    text = " ".join(text.split())
    match = _SENTENCE_END.search(text)
    sentence = text[: match.start()] if match else text
    sentence = _OPENERS.sub("", sentence, count=1) or sentence
    if "(" in sentence:  # the pattern needs one, and scanning for it is slow
        sentence = _SHORT_PARENS.sub("", sentence)  # "(TC)" costs room, adds little
    sentence = sentence.strip(" ,;:.")
    cut = len(sentence) > limit
    words = sentence[: limit + 1].split(" ")
    if cut:
        words = words[:-1]  # the last word may have been cut through
    while len(words) > 1 and (
        words[-1].lower().strip(",;:") in _STOP_END or words[-1].endswith((",", ";", ":"))
    ):
        words.pop()
        cut = True
    kept = " ".join(words)
    clause = kept.rfind(", ")
    if cut and clause >= limit // 3:
        kept, cut = kept[:clause], False  # a whole clause reads better than a cut one
    result = kept.strip(" ,;:") or text[:limit].strip()
    if result[:1].islower():
        result = result[0].upper() + result[1:]
    return result + ("…" if cut else "") if result else "Untitled"


def title_name(title: str) -> str | None:
    """The short name before a title's colon ("RelGNN: Composite Message Passing...")."""
    head, colon, _ = title.partition(":")
    head = _strip(head.strip())
    if not colon or not head or len(head) > 30 or len(head.split()) > 3:
        return None
    if head.lower() in _TITLE_WORDS or not any(ch.isupper() or ch.isdigit() for ch in head):
        return None
    words = head.split()
    # "Shifting the Paradigm: ..." is a phrase; "RelGNN", "Balancing Act", "NaturalSpeech 2" name.
    if len(words) > 1 and not all(word[0].isupper() or word[0].isdigit() for word in words):
        return None
    return head


def derive_name(abstract: str, title: str | None = None, code_urls: tuple[str, ...] = ()) -> str:
    """Method name, else (titled records) the title's short name, else the repository's name,
    else a headline of the title or the first sentence. Never empty."""
    name = _stated_name(abstract, code_urls)
    shown_title = display_title(title) if title else None  # the title as every screen shows it
    short = title_name(shown_title) if shown_title else None
    if short and (
        not name
        or (
            name.casefold() in short.casefold()
            and word_count(abstract.casefold(), short.casefold())
        )
    ):
        # The title's name, when the abstract uses it too ("NaturalSpeech 2" over "NaturalSpeech",
        # "Context-Parametric Inversion" over "context-parametric inversion").
        return short
    if name and shown_title and name.casefold() == shown_title.casefold():
        return shown_title  # "Plug-in performative optimization" in the title's capitals
    if name:
        return name
    # The project's name as the text writes it ("Junk DNA Hypothesis" for junk_dna_hypothesis):
    # the URL and the text agree, unlike the weaker guesses `method_name` adds.
    if project := _project_name(abstract, code_urls):
        return project
    repo = repo_name(code_urls)
    if repo and namelike(repo):
        return repo  # a coined repository name ("MaNo") is the method's
    # An acronym defined where the paper makes something, and used again: its method's name;
    # rarely a topic's (measured: bench_names --precision), unlike `method_name`'s other guesses.
    text = display_text(abstract).text
    if made := made_acronym(text):
        return plain_letters(made)
    # A coined word a results claim makes its subject ("experiments show that PF3plat sets a
    # new state of the art"), in its strict form: few false names (bench_names --precision).
    if claim := shown_claim(plain_letters(text)):
        return claim
    if repo and not _described_slug(repo):
        return repo
    # A page made for the paper ("slimnet.github.io") is named like a repository.
    if "github.io" in abstract and (slug := page_slug(split_urls(abstract)[1])):
        return slug
    if shown_title:
        return _title_headline(shown_title)
    return headline(text)


_SLUG_PARTS = re.compile(r"[-_.]")


def _described_slug(repo: str) -> bool:
    """A repository named by three or more lower-case words ("hessian-geometry-of-diffusion-
    models", "zero-bubble-pipeline-parallelism"): a description, not a name; the headline
    reads better (these were most false names guessed from slugs, bench_names --precision)."""
    parts = _SLUG_PARTS.split(repo)
    return len(parts) >= 3 and repo.islower()


def _title_headline(shown_title: str) -> str:
    # A title's main clause (before its colon) is the headline a reader would use.
    head = shown_title.partition(": ")[0]
    return headline(head if len(head.split()) >= 2 else shown_title)
