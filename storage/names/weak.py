"""Names an abstract states without a naming cue (for names.derive), weakest last.

Tried only when no cue names the method: the name of the project's page or repository as the
text writes it ("Junk_DNA_Hypothesis" is the text's "Junk DNA Hypothesis", "toolnet.github.io"
its "ToolNet"), an acronym the text defines by its words ("Erasing Noisy Tokens (ENT)"), and a
coined word the text keeps repeating ("... SlimNet halves the cost. SlimNet ...").

`made_acronym` is the strictest of them, sure enough for the name shown (`derive_name`): an
acronym defined in the sentence where the paper makes something ("we propose a ... (ACR)").
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from papershelf.storage.names.words import (
    ACRONYM,
    MAX_NAME,
    TOKEN,
    expansion_start,
    is_generic,
    namelike,
    strip_token,
    two_capitals,
    word_count,
)

# Path segments and hosts that name no project.
_NOT_NAMES = frozenset(
    """code src source project projects page pages repo repository main master paper papers
    official implementation release github gitlab huggingface www index html home site io tree
    blob abs pdf website""".split()  # noqa: SIM905 (a word list reads best as words)
)
_KEY_PARTS = re.compile(r"[^\W_]+")
_MIN_KEY = 4  # shorter keys ("ai", "lab") match words by chance
_REPEATED = 3  # a coined word said this often may be the abstract's subject
# The paper speaking of its own work: "we ...", "our ...", "this paper ...".
_FIRST_PERSON = re.compile(r"\b(?:we|our|this (?:paper|work|study|article))\b", re.IGNORECASE)
_SENTENCE_BREAKS = (". ", "! ", "? ")
# What the paper makes: "we propose a ... (ACR)", "we integrate ... into a novel ... (ACR)".
_MAKING = re.compile(r"\b(?:a|an) (?:novel|new)\b", re.IGNORECASE)
# The paper making something of its own: "we propose", "this work introduces", "by presenting".
_MAKES = re.compile(
    r"\b(?:we|this (?:paper|work|study|article)|our (?:paper|work))\s+(?:\w+ly\s+|also\s+|"
    r"further\s+|then\s+|first\s+|here\s+)?(?:\w+\s+and\s+)?(?:propos|introduc|present|develop|"
    r"design|build|construct|devis|creat|formulat)\w*|\bby (?:propos|introduc|present|develop)ing",
    re.IGNORECASE,
)
# "a sampler for Markov chain Monte Carlo (MCMC)": the acronym after a preposition is a topic's.
# ("for the first time" is an aside, not a topic: "a framework that, for the first time, ...")
_PREPOSITION = re.compile(
    r"\b(?:for(?! the first time\b)|of|on|in|to|with|under|from|by|via|using|into|between|"
    r"about)\s",
    re.IGNORECASE,
)


def _keys(url: str) -> list[str]:
    """What in a URL may be a project's name, folded: a github.io user, the path's segments."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    host = (parts.hostname or "").lower()
    segments = [segment for segment in parts.path.split("/") if segment]
    # A project page: its user and every path segment; a code host: not the owner (a lab's).
    page = host.endswith(".github.io")
    words = [host.split(".")[0], *segments] if page else segments[1:]
    keys = []
    for word in words:
        word = re.sub(r"\.(?:html?|git)$", "", word)
        key = "".join(_KEY_PARTS.findall(word)).lower()
        if len(key) >= _MIN_KEY and key not in _NOT_NAMES and len(key) <= MAX_NAME:
            keys.append(key)
    return keys


def _folded_words(text: str) -> list[tuple[str, str]]:
    """(word, folded word) for each word of the text, punctuation around it stripped."""
    words = [strip_token(word.strip("()[]")) for word in text.split()]
    return [(word, word.replace("_", "").replace("-", "").lower()) for word in words]


def _text_form(words: list[tuple[str, str]], key: str) -> str | None:
    # Up to four words at each position (a string compare each, not a regex per key: one
    # compiled per project URL cost more than all the other rules).
    for index, (_, folded) in enumerate(words):
        if not folded or key[0] != folded[0]:
            continue
        joined = ""
        for stop in range(index, min(index + 4, len(words))):
            joined += words[stop][1]
            if joined == key:
                form = " ".join(word for word, _ in words[index : stop + 1])
                if _readable(form):
                    return form
                break
            if not key.startswith(joined):
                break
    return None


def _readable(form: str) -> bool:
    """A name as a reader writes it: a capital, a spaced one capitalised, short, not generic."""
    if form.islower() or not (form[0].isupper() or " " not in form):
        return False
    return len(form) <= MAX_NAME and not is_generic(form)


def repo_form(text: str, repo: str) -> str | None:
    """The text's own spelling of the repository's name ("TIC-TAC" for .../TIC-TAC,
    "Neural SPH" for .../neuralsph), or None when the text says it nowhere but in its URL."""
    key = repo_key(repo)
    if len(key) < _MIN_KEY or key in _NOT_NAMES:
        return None
    # Only where a word begins with the name's first letters (folding every word of every
    # text with a repository cost more than the rest of the name found).
    head = _KEY_PARTS.match(repo)
    prefix = (head.group() if head else repo)[:_MIN_KEY].lower()
    lowered = text.lower()
    index = lowered.find(prefix)
    while index >= 0:
        start = text.rfind(" ", 0, index) + 1
        if not any(ch.isalnum() for ch in text[start:index]):  # a word's start, not a URL's
            words = _folded_words(" ".join(text[start : start + 4 * (MAX_NAME + 1)].split()[:4]))
            if form := _text_form(words, key):
                return form
        index = lowered.find(prefix, index + 1)
    return None


def repo_key(name: str) -> str:
    """A name folded as a URL writes it: letters and digits only, lower-case."""
    return "".join(_KEY_PARTS.findall(name)).lower()


def url_name(text: str, urls: tuple[str, ...]) -> str | None:
    """The project's name from its URLs, as the text writes it."""
    words: list[tuple[str, str]] | None = None
    for url in urls:
        for key in _keys(url):
            words = _folded_words(text) if words is None else words
            if form := _text_form(words, key):
                return form
    # A project page whose path keeps the name's capitals ("lab.github.io/SlimNet/"), said by
    # the text only inside the URL: the path's own form.
    for url in urls:
        for segment in _page_segments(url):
            if namelike(segment):
                return segment
    return None


# "rlif-page.github.io": the host's suffix says it is a page, not what it is about.
_PAGE_SUFFIX = re.compile(r"[-_](?:page|project|website|site|web|home|paper)$", re.IGNORECASE)
_SUBMISSION = re.compile(r"[a-z]*\d{4,}")  # "neurips13025": a submission's number, no name


def page_slug(urls: tuple[str, ...]) -> str | None:
    """The host name of a project page that is the whole site ("slimnet.github.io", also with
    "/website/" or "/index.html"): a page made for one paper, so its host is the project's."""
    for url in urls:
        try:
            parts = urlsplit(url)
        except ValueError:
            continue
        host = (parts.hostname or "").lower()
        if not host.endswith(".github.io") or host.count(".") != 2:
            continue
        rest = [re.sub(r"\.html?$", "", part) for part in parts.path.split("/") if part]
        if any(part.lower() not in _NOT_NAMES for part in rest):
            continue  # "someone.github.io/projects/x": a person's site, its name not the paper's
        slug = _PAGE_SUFFIX.sub("", host.split(".")[0])
        if _MIN_KEY <= len(slug) <= MAX_NAME and slug not in _NOT_NAMES:
            return None if _SUBMISSION.fullmatch(slug) else slug
    return None


def _page_segments(url: str) -> list[str]:
    """The path segments of a github.io project page."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    if not (parts.hostname or "").lower().endswith(".github.io"):
        return []
    return [segment for segment in parts.path.split("/") if segment]


def defined_acronym(text: str) -> str | None:
    """The acronym the text defines by its words ("Sparse Token Routing (STR)") and then uses
    most, the first of equals; generic ones (LLM) and plain words are not names."""
    if "(" not in text:
        return None
    best: tuple[int, int, str] | None = None
    for match in ACRONYM.finditer(text):
        acronym = strip_token(match.group(1))
        if not namelike(acronym) or (
            expansion_start(acronym, text, match.start()) is None
            and not _MAKING.search(text, max(0, match.start() - 160), match.start())
        ):
            continue  # "(ACR)" that abbreviates no words before it, nor names what is made
        if not _ours(text, match.start()):
            continue  # "Fitted Q-Evaluation (FQE) is ...": the field's, not the paper's
        uses = word_count(text, acronym)
        if best is None or uses > best[0]:
            best = (uses, match.start(), acronym)
    return best[2] if best else None


def made_here(text: str, index: int) -> bool:
    """Whether the sentence holding `index` makes something of the paper's own before it
    ("we propose a ... (DPSM)"), not only speaks of it ("we prove that ... (NAG) attains")."""
    sentence = max(text.rfind(brk, 0, index) for brk in _SENTENCE_BREAKS) + 1
    return _MAKES.search(text, sentence, index) is not None


def made_acronym(text: str) -> str | None:
    """The first acronym defined in a sentence where the paper makes something ("we propose a
    lossless recommender with sparse updates (SLRU)") and said again, or said once of a new
    or novel thing that is no task or dataset (`_new_method`); when the long name follows a
    preposition (a topic's, often), only if the acronym later begins a sentence or follows
    "our" ("SLRU halves ...")."""
    if "(" not in text:
        return None
    # Acronym by acronym (a few a text), its own sentence searched for the cue: scanning the
    # whole text for cues cost more than all the rest of the name shown.
    for match in ACRONYM.finditer(text):
        acronym = strip_token(match.group(1))
        if not namelike(acronym) or two_capitals(acronym):
            continue  # a field's term ("CF"), not a name
        sentence = max(text.rfind(brk, 0, match.start()) for brk in _SENTENCE_BREAKS) + 1
        cue = _MAKES.search(text, sentence, match.start())
        if cue is None:
            continue  # not where the paper makes something
        if word_count(text, acronym) < 2 and not _new_method(text, cue.end(), match.start()):
            continue  # said once, not of a new method: a passing abbreviation
        start = expansion_start(acronym, text, match.start())
        if start is None:
            start = _title_run(text, cue.end(), match.start())
        head = start if start is not None and start > cue.end() else match.start()
        topic = _PREPOSITION.search(text, cue.end(), head) is not None
        if topic and not _leads(text, acronym, match.end()):
            continue  # "a sampler for Monte Carlo (MCX)": the topic, unless the text's subject
        return acronym
    return None


# "we propose a novel ... framework that achieves ... (AMPA)": said once, still what is made;
# "we first propose a new task, the ... (sWM)": a task or data, not the method.
_NOT_METHOD = re.compile(r"\b(?:task|problem|dataset|benchmark|corpus|setting)s?\b", re.IGNORECASE)


def _new_method(text: str, start: int, end: int) -> bool:
    """Whether the paper makes a new or novel thing between `start` and `end` that is no task
    or dataset ("a novel low-bit training framework that achieves ... (AMPA)")."""
    new = _MAKING.search(text, start, end)
    return new is not None and _NOT_METHOD.search(text, new.end(), end) is None


_OUR = re.compile(r"\b[Oo]ur $")  # "our SLRU", not "favour SLRU"
_CONNECTORS = frozenset(
    ["of", "for", "and", "in", "on", "with", "to", "via", "by", "the", "a", "an"]
)


def _title_run(text: str, low: int, end: int) -> int | None:
    """Where a capitalised long name ending at `end` begins ("Hierarchical Representation of
    Neural Subset Selection"): its small words are part of it, not a topic's preposition."""
    start = None
    for word in reversed(list(re.finditer(r"\S+", text[low:end]))):
        if word.group()[0].isupper():
            start = low + word.start()
        elif word.group() not in _CONNECTORS:
            break
    return start


def _leads(text: str, name: str, after: int) -> bool:
    """Whether the name, after `after`, begins a sentence or follows "our": the paper's own."""
    for index in _starts(text, name):
        end = index + len(name)
        if index < after or (end < len(text) and text[end].isalnum()):
            continue
        if text.startswith(_SENTENCE_BREAKS, index - 2):
            return True
        if _OUR.search(text, max(0, index - 5), index):
            return True
    return False


def repeated_word(text: str) -> str | None:
    """A coined word (namelike: RelGNN, k-DTW) the text says at least three times, the most
    said, the first of equals."""
    counts: dict[str, int] = {}
    for token in TOKEN.findall(text):  # findall: the strings at once, in C
        if token.islower():
            continue  # most words: no capital, no coined name
        word = strip_token(token)
        if namelike(word):
            counts[word] = counts.get(word, 0) + 1
    said = sorted(counts.items(), key=lambda item: -item[1])  # stable: the first of equals
    for word, count in said:
        if count < _REPEATED:
            break
        # The paper's subject begins a sentence ("SlimNet halves ..."); a tool it uses rarely.
        if text.startswith(word) or any(
            text.startswith(". " + word, index - 2) or _ours(text, index)
            for index in _starts(text, word)
        ):
            return word
    return None


def _ours(text: str, index: int) -> bool:
    """Whether the sentence holding `index` speaks of the paper's own work before it."""
    head = max(text.rfind(brk, 0, index) for brk in _SENTENCE_BREAKS) + 1
    return _FIRST_PERSON.search(text, head, index) is not None


def _starts(text: str, word: str) -> list[int]:
    """Where the word occurs in the text."""
    found, index = [], text.find(word)
    while index >= 0:
        found.append(index)
        index = text.find(word, index + 1)
    return found
