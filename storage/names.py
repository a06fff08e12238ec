"""A paper's display name: the method it introduces, its repository, or a short headline.

Names are display text (`K$^2$IE` is `K²IE`). The method name is found by scoring candidates:
what follows "we propose/introduce/present", a parenthesised acronym whose letters are the
initials of the words before it, bold or code spans, "our X model"; a candidate repeated in
the abstract scores higher. Generic field acronyms (RL, LLM, GNN...) are never names.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from urllib.parse import urlsplit

from storage.ingest_scan import ascii_fold, finditer_at, literal_starts
from storage.latex import display_text
from storage.titles import display_title

MAX_NAME = 40
MAX_HEADLINE = 64


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_GENERIC = _words(
    """AI ML DL RL NLP CV LLM LM VLM MLLM LVLM GNN CNN RNN MLP GAN VAE SGD GD ODE PDE SDE MDP POMDP
    QA VQA ICL OOD ID SOTA BO GP KL MSE MLE MAP NN DNN DRL IRL LSTM ViT BERT GPT LoRA PEFT SFT RLHF
    DPO PPO API GPU CPU TPU IID PCA SVM KNN RKHS NTK HMM EM SVD CoT RAG ASR TTS MT NER OCR IR AUC
    ROC FID IS US UK EU ReLU II III IV PAC VC ERM SAM MoE"""
)
_NOUNS = (
    r"method|framework|model|approach|algorithm|tool|system|architecture|technique|pipeline|"
    r"module|benchmark|dataset|estimator|network|strategy|paradigm|scheme|library|metric|loss|"
    r"agent|solver|optimi[sz]er|procedure|mechanism|family|suite|toolkit|platform|encoder|"
    r"transformer|policy|protocol|measure|attack|defen[cs]e|objective|formulation|variant|layer"
)
_VERBS = (
    r"propos\w*|introduc\w*|present\w*|develop\w*|design\w*|call\w*|nam(?:e|ed|es)|term\w*|"
    r"dub\w*|coin\w*|devis\w*|build\w*|construct\w*|formulat\w*|creat\w*|put forward|unveil\w*|"
    r"releas\w*|establish\w*|offer\w*|refer to (?:\w+ ){0,4}?as"
)
_CUE = re.compile(
    r"\b(?:(?:we|this (?:paper|work|study|article)|our (?:paper|work))\s+(?:\w+ly\s+|also\s+|"
    r"further\s+|then\s+|first\s+|here\s+|hereby\s+|therefore\s+|thus\s+|instead\s+)?(?:"
    + _VERBS
    + r")|called|named|dubbed|termed|coined|referred to as|known as|the proposed|"
    r"our (?:proposed |new |novel )?(?:" + _NOUNS + r")s?\s*[:,]?|culminat\w* in our)(?=\W)",
    re.IGNORECASE,
)
# Every _CUE match begins with one of these (in any case): _CUE is tried only where one begins,
# not at each of the ~1,200 positions of an abstract (scanning them is most of the cost).
_CUE_WORDS = (
    "we",
    "this",
    "our",
    "called",
    "named",
    "dubbed",
    "termed",
    "coined",
    "referred",
    "known",
    "the proposed",
    "culminat",
)
_APPOSITIVE_TEXT = (
    r"\b(?:" + _NOUNS + r")s?\s*[,:]?\s+(?:called\s+|named\s+|dubbed\s+|termed\s+)?(?=\S)"
)
_APPOSITIVE = re.compile(_APPOSITIVE_TEXT, re.IGNORECASE)
# The same on lower-cased ASCII text (one case to compare is about four times faster); the
# pattern has no upper-case letters or case-dependent classes, so both find the same spans.
_APPOSITIVE_LOWER = re.compile(_APPOSITIVE_TEXT)
_SPACE = re.compile(r"\s*")
_TOKEN = re.compile(r"[^\s,;:()\[\]\"\u2013\u2014]+")  # en/em dashes end a name too
_ACRONYM = re.compile(r"\(([^()\s]{2,25})\)(?=[\s,.;:)]|$)")
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z0-9*$(\"']|\s*$)")
_NOVEL = re.compile(r"(?:^|(?<=[.!?] ))(\S+) (?:\([^()]*\) )?(?:is|,) an? (?:novel|new)\b")
# Every _NOVEL match holds "novel" or "new" after one of these, and begins at 0 or after a
# sentence break.
_NOVEL_LEADS = ("is a ", "is an ", ", a ", ", an ")
_SENTENCE_BREAKS = (". ", "! ", "? ")
_PUNCTUATION = re.compile(r"[,;:.]")
_WORD_PARTS = re.compile(r"[^\W_]+", re.UNICODE)
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
_REPO_SUFFIX = re.compile(r"[-_.](?:main|master|official|code|pytorch|release)$", re.IGNORECASE)
_TITLE_WORDS = _words("position survey review tutorial perspective benchmark overview")


def _strip(token: str) -> str:
    token = token.strip(".,;:!?'\"*`")
    return token[:-2] if token.endswith(("'s", "\u2019s")) else token


def _is_generic(name: str) -> bool:
    base = name[:-1] if name.endswith("s") and name[:-1].isupper() else name
    return base in _GENERIC or base.upper() in _GENERIC


def _namelike(token: str) -> bool:
    """A coined name: RelGNN, SUICA, k-DTW, Info-Coevolution, K²IE, GPT4o (not 'Safe')."""
    if token.islower():
        return False  # no capital: most words are, and the checks below all need one
    if not 2 <= len(token) <= MAX_NAME or not token[0].isalnum() or _is_generic(token):
        return False
    if not any(map(str.isalpha, token)) or token.replace("-", "").isdigit():
        return False
    upper = sum(map(str.isupper, token))
    inner_upper = any(map(str.isupper, token[1:]))
    has_digit = any(map(str.isdigit, token))  # superscripts ²³¹ are digits too
    parts = token.split("-")
    if any(len(part) >= 3 and part.isalpha() and part.islower() for part in parts[1:]):
        return False  # "L1-infinite", "RL-free", "GPT-based": a description, not a name
    return upper >= 2 or (inner_upper and token[0].islower()) or (has_digit and upper >= 1)


def _expansion_start(acronym: str, text: str, end: int) -> int | None:
    """Where the words whose initials spell the acronym's capitals begin, or None.

    Matched backwards from the parenthesis, so the nearest words win ("To fill this gap, we
    introduce a Federated OOD-aware Context Optimization (FOCoOp)" starts at "Federated").
    """
    letters = [ch.lower() for ch in acronym if ch.isupper()]
    if not letters:
        return None
    words = list(_WORD_PARTS.finditer(text, max(0, end - 160), end))[-12:]
    start = None
    for word in reversed(words):
        if letters and word.group()[0].lower() == letters[-1]:
            letters.pop()
            start = word.start()
    return start if not letters else None


def _expansion(acronym: re.Match[str], text: str, known: dict[int, int | None]) -> int | None:
    """`_expansion_start` of an `_ACRONYM` match, remembered in `known` by its position."""
    if acronym.start() not in known:
        known[acronym.start()] = _expansion_start(acronym.group(1), text, acronym.start())
    return known[acronym.start()]


def _styled(text: str, start: int, end: int) -> str | None:
    """A bold/code/italic span that is a whole word group and could be a name."""
    if (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
        return None  # **Uni**fied: part of a word
    span = _strip(text[start:end].strip())
    if len(span) < 2 or not span[0].isalpha() or len(span) > MAX_NAME or len(span.split()) > 3:
        return None
    if " " not in span and (_namelike(span) or span[:1].isupper()) and not _is_generic(span):
        return span
    return None


def _has_novel_part(text: str) -> bool:
    """Whether the text has what every _NOVEL match has: "is a novel", ", an new"..."""
    for word in ("novel", "new"):
        index = text.find(word)
        while index >= 0:
            if text.endswith(_NOVEL_LEADS, 0, index):
                return True
            index = text.find(word, index + 1)
    return False


def _capital_ahead(text: str, start: int, stop: int) -> bool:
    """Whether a token beginning in text[start:stop] may hold an upper-case letter."""
    # A token that begins in the window and runs past its end runs through stop - 1.
    run = _TOKEN.match(text, stop - 1)
    # islower(): some lower-case letter and no upper-case (or title-case) one.
    return not text[start : run.end() if run else stop].islower()


def _appositive_ends(text: str, start: int, stop: int) -> list[int]:
    """Where the `_APPOSITIVE` matches in text[start:stop] end (start > 0)."""
    # The window and the character before it, which `\b` looks at.
    segment = text[start - 1 : stop]
    if not segment.isascii():
        return [match.end() for match in _APPOSITIVE.finditer(text, start, stop)]
    # In ASCII, lower() keeps positions, and the case-sensitive pattern is much faster.
    offset = start - 1
    return [offset + match.end() for match in _APPOSITIVE_LOWER.finditer(segment.lower(), 1)]


def _window_candidates(
    text: str, window_start: int, stop: int, expansions: dict[int, int | None]
) -> list[tuple[int, int, str]]:
    """Candidates in the window after a cue: the token right after it, acronyms, appositives.

    `expansions` keeps `_expansion_start` by acronym position, for windows that overlap.
    """
    found: list[tuple[int, int, str]] = []
    direct = _TOKEN.match(text, _SPACE.match(text, window_start).end())
    acronyms = [
        (match, start)
        for match in (
            _ACRONYM.finditer(text, window_start, stop)
            if text.find("(", window_start, stop) >= 0
            else ()
        )
        if _namelike(_strip(match.group(1)))
        and (start := _expansion(match, text, expansions)) is not None
    ]
    if direct and direct.start() < stop:
        token = _strip(direct.group())
        # "we introduce Pior-Informed Preference Alignment (PIPA)": the acronym names it.
        expanded = any(
            match.start() > direct.start()
            and len(text[direct.end() : match.start()].split()) <= 8
            and not _PUNCTUATION.search(text, direct.end(), match.start())
            for match, _ in acronyms
        )
        if _namelike(token) and not expanded:
            found.append((5, direct.start(), token))
    for match, start in acronyms:
        # "we propose [a novel] Expansion Words (ACR)" names it; an acronym further on
        # ("...first study on adapting visual in-context learning (V-ICL)") is a topic.
        gap = len(text[window_start:start].split()) if start >= window_start else 99
        found.append((5 if gap <= 3 else 2, match.start(), _strip(match.group(1))))
    for appositive_end in _appositive_ends(text, window_start, stop):
        token_match = _TOKEN.match(text, appositive_end)
        if token_match and _namelike(_strip(token_match.group())):
            found.append((4, token_match.start(), _strip(token_match.group())))
    return found


def _candidates(text: str, styles: tuple[tuple[int, int, str], ...]) -> list[tuple[int, int, str]]:
    """(score, position, name) for every possible method name."""
    found: list[tuple[int, int, str]] = []
    expansions: dict[int, int | None] = {}
    for cue in finditer_at(_CUE, text, literal_starts(ascii_fold(text), _CUE_WORDS)):
        # The window ends at the first sentence end at or after the cue (a match is one
        # character, and what it looks at lies after it, so search from there finds it).
        sentence_end = _SENTENCE_END.search(text, cue.end() - 1)
        stop = min(sentence_end.end() if sentence_end else len(text), cue.end() + 240)
        window_start = cue.end()
        # Every name _namelike accepts has a capital: with none ahead, skip the window's scans.
        if _capital_ahead(text, window_start, stop):
            found.extend(_window_candidates(text, window_start, stop, expansions))
        # Styles are sorted by start: only those starting in the window (linear, not quadratic,
        # in text with many cues and many styles).
        index = bisect_left(styles, (window_start,))
        while index < len(styles) and styles[index][0] < stop:
            start, end, style = styles[index]
            if name := _styled(text, start, end):
                found.append((5 if style != "italic" else 3, start, name))
            index += 1
    for start, end, style in styles:
        if style != "italic" and (name := _styled(text, start, end)):
            found.append((3, start, name))
    # Most abstracts have no "is a novel"; in the others, try only where a sentence starts.
    novel: list[re.Match[str]] = []
    if _has_novel_part(text):
        starts = [0] + [index + 2 for index in literal_starts(text, _SENTENCE_BREAKS)]
        novel = finditer_at(_NOVEL, text, starts)
    for match in novel:
        if _namelike(_strip(match.group(1))):
            found.append((4, match.start(1), _strip(match.group(1))))
    return found


def _count(text: str, name: str) -> int:
    """Occurrences of the name as a whole word."""
    count, index = 0, text.find(name)
    while index >= 0:
        end = index + len(name)
        if (index == 0 or not text[index - 1].isalnum()) and (
            end == len(text) or not text[end].isalnum()
        ):
            count += 1
        index = text.find(name, index + 1)
    return count


def method_name(abstract: str, code_urls: tuple[str, ...] = ()) -> str | None:
    """The name of the method the abstract introduces, or None."""
    display = display_text(abstract)
    text = display.text
    repo = (repo_name(code_urls) or "").casefold()
    best: tuple[int, int, str] | None = None
    counts: dict[str, int] = {}  # a name found after each of many cues is counted once
    for score, position, name in _candidates(text, display.styles):
        repeats = counts.get(name)
        if repeats is None:
            repeats = counts[name] = _count(text, name)
        if score < 3 or (score == 3 and repeats < 2):
            continue  # weak evidence (a topic's acronym, a stray bold word) names nothing
        # Repeated names are the paper's subject; the repository's name confirms it.
        ranked = (score + min(repeats - 1, 2) + 3 * (name.casefold() == repo), -position, name)
        if best is None or ranked > best:
            best = ranked
    return best[2] if best else None


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
    name = method_name(abstract, code_urls)
    shown_title = display_title(title) if title else None  # the title as every screen shows it
    short = title_name(shown_title) if shown_title else None
    if short and (not name or (name.casefold() in short.casefold() and _count(abstract, short))):
        # The title's name, when the abstract uses it too ("NaturalSpeech 2" over "NaturalSpeech").
        return short
    if name:
        return name
    repo = repo_name(code_urls)
    if repo:
        return repo
    if shown_title:
        return _title_headline(shown_title)
    return headline(display_text(abstract).text)


def _title_headline(shown_title: str) -> str:
    # A title's main clause (before its colon) is the headline a reader would use.
    head = shown_title.partition(": ")[0]
    return headline(head if len(head.split()) >= 2 else shown_title)


def heading_fields(name: str, title: str | None) -> tuple[str, str | None]:
    """Which fields a screen shows for a paper: the heading's ("name" or "title") and the
    one below it ("title" or None).

    The name heads, with the title beside or below it when it says something else; a name
    that only restates the title gives way to the whole title.
    """
    if title and name_restates_title(name, title):
        return "title", None
    return "name", ("title" if title and title != name else None)


def name_restates_title(name: str, title: str | None) -> bool:
    """Whether `name` says nothing the title does not: it is the title's headline (maybe cut
    with "…"), as `derive_name` makes for a titled paper with no method name.

    Screens then show the title alone instead of the name followed by the same words again.
    """
    if not title:
        return False
    return name == title or name == _title_headline(display_title(title))
