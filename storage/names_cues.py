"""Where an abstract states a method's name: cues, acronyms, appositions (for storage.names).

`candidates` lists (score, position, name) for every place an abstract may name its method:
what follows "we propose/introduce/present" or "called/named", a parenthesised acronym whose
letters come from the words before it, a name set off by a comma or dash ("we introduce Falcon,
a ..."), bold or code spans, "X is a ..." at a sentence start. Scores: 5 a name the text states
as the paper's, 4 good evidence, 3 or less weak (a topic's acronym, a stray bold word).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from functools import lru_cache

from storage.ingest_scan import ascii_fold, finditer_at, literal_starts

MAX_NAME = 40

Candidate = tuple[int, int, str]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


GENERIC = _words(
    """AI ML DL RL NLP CV LLM LM VLM MLLM LVLM GNN CNN RNN MLP GAN VAE SGD GD ODE PDE SDE MDP POMDP
    QA VQA ICL OOD ID SOTA BO GP KL MSE MLE MAP NN DNN DRL IRL LSTM ViT BERT GPT LoRA PEFT SFT RLHF
    DPO PPO API GPU CPU TPU IID PCA SVM KNN RKHS NTK HMM EM SVD CoT RAG ASR TTS MT NER OCR IR AUC
    ROC FID IS US UK EU ReLU II III IV PAC VC ERM SAM MoE"""
)
# Capitalised words that begin a phrase after "we propose" without naming anything.
_COMMON_CAPITALS = _words(
    """A An The This That These Those Our We It Its In On For To Of By With From As At And Or
    Here There Then Thus However Moreover Specifically First Second Finally Also Such Each Both
    New Novel Several Many Some Two Three Multiple Various Section Sec Appendix Theorem Table
    Figure Fig Eq Experiments Results Code Data Our Unlike While When Which What How Why"""
)
_NOUNS = (
    r"method|framework|model|approach|algorithm|tool|system|architecture|technique|pipeline|"
    r"module|benchmark|dataset|estimator|network|strategy|paradigm|scheme|library|metric|loss|"
    r"agent|solver|optimi[sz]er|procedure|mechanism|family|suite|toolkit|platform|encoder|sampler|"
    r"transformer|policy|protocol|measure|attack|defen[cs]e|objective|formulation|variant|layer"
)
_VERBS = (
    r"propos\w*|introduc\w*|present\w*|develop\w*|design\w*|call\w*|nam(?:e|ed|es)|term\w*|"
    r"dub\w*|coin\w*|devis\w*|build\w*|construct\w*|formulat\w*|creat\w*|put (?:forward|forth)|"
    r"unveil\w*|releas\w*|establish\w*|offer\w*|refer to (?:\w+ ){0,4}?as"
)
# A cue's `bare` group is a verb with no "we"/"this paper" before it ("...and propose X", "by
# introducing X"): weaker, it may be another paper's proposal ("the recently proposed X").
_CUE = re.compile(
    r"\b(?:(?:we|this (?:paper|work|study|article)|our (?:paper|work))\s+(?:\w+ly\s+|also\s+|"
    r"further\s+|then\s+|first\s+|here\s+|hereby\s+|therefore\s+|thus\s+|instead\s+|have\s+|"
    r"has\s+)?(?:\w+\s+and\s+)?(?:"
    + _VERBS
    + r")|called|named|dubbed|termed|coined|referred to as|known as|the proposed|"
    r"our (?:[\w-]+ ){0,3}?(?:" + _NOUNS + r")s?\s*[:,]?|culminat\w* in our|"
    r"the resulting|our(?=\s+[^\s,;:()]+\s+(?:"
    + _NOUNS
    + r")s?\b)|(?P<bare>(?:propos|introduc|present)(?:e|es|ed|ing|s)?))(?=\W)",
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
    "the resulting",
    "culminat",
    "propos",
    "introduc",
    "present",
)
# Cues after which the next word is the name whatever its case pattern ("named Magpie").
_NAMING = re.compile(r"(?:call\w*|nam\w*|dub\w*|term\w*|coin\w*|as)$", re.IGNORECASE)
# What may stand between a cue and its name: "named as X", "our method, namely X", "we
# propose, X", "we propose the X".
_DIRECT_SKIP = re.compile(r"\s*(?:,\s*)?(?:(?:as|namely|i\.e\.,?|the)\s+)?[\"\u201c`']*")
# After a naming cue: "we call this phenomenon (as) the X", "we name the method X".
_NAMING_SKIP = re.compile(
    r"\s*(?:(?:this|these|such|our|the)\s+(?:(?:phenomenon|phenomena|effect|approach|method|"
    r"procedure|technique|problem|setting|property|behaviou?r|task|framework|model|algorithm|"
    r"strategy|issue|process|quantity|condition|principle|regime|notion|idea|family|class|"
    r"pattern|mechanism|measure|metric|loss|objective|paradigm|scheme)s?\s+)?|(?:it|them)\s+)?"
    r"(?:as\s+)?(?:the\s+|an?\s+)?[\"\u201c`']*"
)
_LOWER_PHRASE = re.compile(
    r"([a-z][\w'-]*(?: [^\W\d_][\w'-]*){0,3}?)(?=\s*(?:[,:;.(]|--|\u2014|$))"
)
# A name's description after it: "X, a ...", "X: an ...", "X -- the ...".
_DESCRIBED = re.compile(r"\s*(?:,|:|--|\u2014)\s*(?:an?|the)\s")
# Words no lower-case name is made of (or begins with: "two methods", "new techniques").
_PHRASE_STOP = _words(
    """a an the this that these those our its their his her we it they which who whose of for to
    in on at by with from as and or but not no is are was were be been has have can may will
    than then also such each every all any some many more most new novel simple general simple
    efficient effective two three four several various different first second multiple other
    results result method methods approach approaches framework model models work paper study
    here there how what when where why whether while if so thus however"""
)
_APPOSITIVE_TEXT = (
    r"\b(?:" + _NOUNS + r")s?(?:\s*[,:]?\s+|\s*(?:--|\u2014)\s*)(?:called\s+|named\s+|dubbed\s+|"
    r"termed\s+|namely\s+|i\.e\.,?\s+)?(?=\S)"
)
_APPOSITIVE = re.compile(_APPOSITIVE_TEXT, re.IGNORECASE)
_TYPED_NAME = re.compile(r"(?:the\s+)?([^\s,;:()]+)\s+(?:" + _NOUNS + r")s?\b", re.I)
# Cues that introduce the paper's own contribution ("we propose", "this paper introduces").
_LEAD_CUE = re.compile(
    r"(?P<verbal>(?:we|this \w+|our (?:paper|work))\s+(?:\w+\s+)?(?:propos|introduc|present))|"
    r"the proposed|our",
    re.I,
)
# The same on lower-cased ASCII text (one case to compare is about four times faster); the
# pattern has no upper-case letters or case-dependent classes, so both find the same spans.
_APPOSITIVE_LOWER = re.compile(_APPOSITIVE_TEXT)
_SPACE = re.compile(r"\s*")
_TOKEN = re.compile(r"[^\s,;:()\[\]\"\u2013\u2014]+")  # en/em dashes end a name too
_ACRONYM = re.compile(r"\(\s?([^()\s]{2,25}(?: v?\d+(?:\.\d+)*)?)\s?\)(?=[\s,.;:)]|$)")
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z0-9*$(\"']|\s*$)")
# What sets a name off from its description: "X, a ...", "X: ...", "X -- a ...", "X (ours)".
_SET_OFF = re.compile(r"\s*(?:[,:;]|--|[\u2013\u2014]|\.(?:\s|$)|$|\((?=[^()\s]+ [^()]+\)))")
# A size or version after a name: "Delta 3B", "CircuitNet 2.0", "Foo v2", "Llama-2 70B".
_VERSION = re.compile(r"v?\d+(?:\.\d+)*(?:[BMKTD]|x\d+)?|[IVX]{1,4}|XL|XXL", re.IGNORECASE)
# "X is a ...", "X, a ...", "X: a ..." where a sentence starts: X names what the paper is about.
_LEAD = re.compile(
    r"([^\s,:(]+(?: v?\d+(?:\.\d+)*[BMK]?)?)(?: \([^()]*\))?(?: is|,|:) an? (?:(novel|new) )?"
)
# Every _LEAD match holds one of these after its name, and begins at 0 or after a sentence break.
_LEAD_PARTS = (" is a", ", a", ": a")
_LEAD_WHOLE = (" is a ", " is an ", ", a ", ", an ", ": a ", ": an ")
_SENTENCE_BREAKS = (". ", "! ", "? ")
_NEAR = 80
_LEAD_BONUS = 1  # "we propose X, a ...": the paper's own name, above other cues
_PUNCTUATION = re.compile(r"[,;:.]")
_WORD_PARTS = re.compile(r"[^\W_]+", re.UNICODE)


def plain_letters(name: str) -> str:
    """The name with mathematical letters (from \\mathsf{DNA} in math) as plain ones (DNA)."""
    if not any("\U0001d400" <= ch <= "\U0001d7ff" for ch in name):
        return name
    return "".join(
        unicodedata.normalize("NFKC", ch) if "\U0001d400" <= ch <= "\U0001d7ff" else ch
        for ch in name
    )


def strip_token(token: str) -> str:
    """The token without the punctuation, quotes, braces or "'s" around a name."""
    token = token.strip(".,;:!?'\"*`{}\u201c\u201d\u2018\u2019")
    return token[:-2] if token.endswith(("'s", "\u2019s")) else token


def is_generic(name: str) -> bool:
    base = name[:-1] if name.endswith("s") and name[:-1].isupper() else name
    return base in GENERIC or base.upper() in GENERIC


@lru_cache(maxsize=8192)  # the same words come after cue after cue, abstract after abstract
def namelike(token: str) -> bool:
    """A coined name: RelGNN, SUICA, k-DTW, Info-Coevolution, K²IE, GPT4o (not 'Safe')."""
    if token.islower():
        return False  # no capital: most words are, and the checks below all need one
    if not 2 <= len(token) <= MAX_NAME or not token[0].isalnum() or is_generic(token):
        return False
    if not any(map(str.isalpha, token)) or token.replace("-", "").isdigit():
        return False
    upper = sum(map(str.isupper, token))
    inner_upper = any(map(str.isupper, token[1:]))
    has_digit = any(map(str.isdigit, token))  # superscripts ²³¹ are digits too
    if (token[-1] == "D" and token[:-1].isdigit()) or "/" in token:
        return False  # "2D", "3D": a dimension; "1/T", "A/B": not a name
    parts = token.split("-")
    if any(len(part) >= 3 and part.isalpha() and part.islower() for part in parts[1:]):
        return False  # "L1-infinite", "RL-free", "GPT-based": a description, not a name
    return upper >= 2 or (inner_upper and token[0].islower()) or (has_digit and upper >= 1)


def _capitalised(token: str) -> bool:
    """A capitalised word that may be a name when the text sets it off: Falcon, Samba."""
    return (
        2 <= len(token) <= MAX_NAME
        and token[0].isupper()
        and token[0].isalpha()
        and token not in _COMMON_CAPITALS
        and not is_generic(token)
        and all(ch.isalnum() or ch in "-+'" for ch in token)
    )


def _capitalised_next(text: str, end: int) -> bool:
    """Whether a capitalised word follows the word ending at `end`."""
    following = _TOKEN.match(text, end + 1) if text.startswith(" ", end) else None
    return following is not None and _capitalised(strip_token(following.group()))


def _version_after(text: str, end: int) -> int:
    """The end of a size/version token right after a name ending at `end`, else `end`."""
    if end >= len(text) or text[end] != " ":
        return end
    token = _TOKEN.match(text, end + 1)
    if token and _VERSION.fullmatch(strip_token(token.group())):
        version_end = end + 1 + len(strip_token(token.group()))
        if _SET_OFF.match(text, version_end):
            return version_end
        if text.startswith((" (", " is ", " which ", " that "), version_end):
            return version_end
    return end


def _name_at(text: str, start: int, naming: bool) -> tuple[str, bool] | None:
    """The name beginning at `start` and whether it is set off from what follows.

    A coined word (RelGNN) is a name anywhere; a capitalised phrase of up to four words
    ("Falcon", "Neural Spectral Methods") or a lower-case coined word only where set off by a
    comma, colon or dash, or after a naming cue ("called Magpie.").
    """
    first = _TOKEN.match(text, start)
    if not first:
        return None
    token = strip_token(first.group())
    if not token or token.islower():
        return None
    begin = first.start() + first.group().find(token)
    end = begin + len(token)
    if namelike(token):
        end = _version_after(text, end)
        return text[begin:end], _SET_OFF.match(text, end) is not None
    if not _capitalised(token) and not (
        is_generic(token) and _capitalised_next(text, begin + len(token))
    ):
        return None  # (a field acronym begins a name only with more words: "API Pack")
    for count in range(4):  # more capitalised words: "Neural Spectral Methods", "Delta 3B"
        version_end = _version_after(text, end)
        if version_end > end:
            end = version_end
            break
        following = _TOKEN.match(text, end + 1) if text.startswith(" ", end) else None
        word = strip_token(following.group()) if following else ""
        if not word or not (word[0].isupper() or word[0].isdigit()) or word in _COMMON_CAPITALS:
            break
        if count == 3:
            return None  # five capitalised words or more: a title or a long name, cut
        end = following.start() + len(word)
    name = text[begin:end]
    set_off = _SET_OFF.match(text, end) is not None
    if set_off or naming:  # "called Orthogonal Bootstrap that ...": the cue marks it
        return (name, True) if len(name) <= MAX_NAME else None
    return None


def _expansion_start(acronym: str, text: str, end: int) -> int | None:
    """Where the words whose letters spell the acronym's capitals begin, or None.

    Matched backwards from the parenthesis, so the nearest words win ("To fill this gap, we
    introduce a Federated OOD-aware Context Optimization (FOCoOp)" starts at "Federated"). A
    word gives its initial and its inner capitals ("Varying gatE (WAVE)", "via the IM (ODIM)").
    """
    letters = [ch.lower() for ch in plain_letters(acronym) if ch.isupper()]
    if not letters:
        return None
    words = list(_WORD_PARTS.finditer(text, max(0, end - 160), end))[-12:]
    start = None
    for word in reversed(words):
        part = word.group()
        if part.islower() or part[1:].islower():  # most words: the initial alone
            if part[0].lower() == letters[-1]:
                letters.pop()
                start = word.start()
        else:
            keys = [part[0].lower()] + [ch.lower() for ch in part[1:] if ch.isupper()]
            used = False
            for key in reversed(keys):
                if letters and key == letters[-1]:
                    letters.pop()
                    used = True
            if used:
                start = word.start()
        if not letters:
            break
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
    span = strip_token(text[start:end].strip())
    if span.endswith(")") and (acronym := _ACRONYM.search(span)) and acronym.end() == len(span):
        # "**Gated Spectral Token Mixer (GSTM)**": the acronym names it.
        inner = strip_token(acronym.group(1))
        return inner if namelike(inner) else None
    if len(span) < 2 or not span[0].isalpha() or len(span) > MAX_NAME or len(span.split()) > 3:
        return None
    if " " not in span and (namelike(span) or span[:1].isupper()) and not is_generic(span):
        return span
    return None


def _has_lead_part(text: str) -> bool:
    """Whether the text has what every _LEAD match has: " is a", ", a" or ": a"."""
    return any(part in text for part in _LEAD_PARTS)


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


def _acronym_score(text: str, window_start: int, start: int | None, match: re.Match[str]) -> int:
    """How surely an acronym in a cue's window names the method.

    With its expansion right after the cue ("we propose [a novel] Expansion Words (ACR)", or
    set off: "a new strategy, Expansion Words (ACR)") it does; an acronym further on ("...first
    study on adapting visual in-context learning (V-ICL)") is a topic's. One whose letters are
    not the words' ("the normalized Transformer (nGPT)") names it when close to the cue.
    """
    if start is not None:
        if " " not in text[start : match.start()].strip() and namelike(
            strip_token(text[start : match.start()].strip())
        ):
            return 3  # "Prompting4Debugging (P4D)": the coined word is the name, not its short
        gap = text[window_start:start].split() if start >= window_start else None
        if gap is not None and (len(gap) <= 3 or (len(gap) <= 10 and gap[-1][-1] in ",:")):
            return 5
        return 2
    between = text[window_start : match.start()]
    if len(between.split()) <= 6 and not _PUNCTUATION.search(between):
        return 4
    return 0


def _singular(acronym: str, before: str) -> str:
    """An acronym without its plural s after plural words: "Context-based Graph Neural
    Networks (ContextGNNs)" names ContextGNN; "via Attention Transfer (LoLCATs)" keeps it."""
    if len(acronym) > 3 and acronym[-1] == "s" and acronym[-2].isupper() and before.endswith("s"):
        return acronym[:-1]
    return acronym


def _spelled_out(
    text: str, start: int, name: str, acronyms: list[tuple[re.Match[str], int | None]]
) -> bool:
    """Whether the name at `start` begins a long name an acronym then abbreviates.

    "we introduce Pior-Informed Preference Alignment (PIPA)": the acronym names it; a coined
    word with its own abbreviation ("Cell2Sentence (C2S)") stays the name.
    """
    for match, expansion in acronyms:
        if expansion is None or match.start() <= start:
            continue
        between = text[start : match.start()]
        if len(between.split()) <= 8 and not _PUNCTUATION.search(between):
            return " " in between.strip() or " " in name
    return False


def _window_candidates(
    text: str,
    window_start: int,
    stop: int,
    expansions: dict[int, int | None],
    naming: bool,
    lead: bool = False,
) -> list[Candidate]:
    """Candidates in the window after a cue: the name right after it, acronyms, appositives.

    `expansions` keeps `_expansion_start` by acronym position, for windows that overlap. After
    a `lead` cue ("we propose"), a name set off right after it is the paper's own (score 6).
    """
    found: list[Candidate] = []
    direct_start = _DIRECT_SKIP.match(text, window_start).end()
    acronyms = [
        (match, _expansion(match, text, expansions))
        for match in (
            _ACRONYM.finditer(text, window_start, stop)
            if text.find("(", window_start, stop) >= 0
            else ()
        )
        if namelike(strip_token(match.group(1)))
    ]
    head = _TOKEN.match(text, direct_start) if direct_start < stop else None
    # A name holds a capital ("we propose a ...": most windows end here).
    named = _name_at(text, direct_start, naming) if head and not head.group().islower() else None
    if named:
        name, set_off = named
        if not _spelled_out(text, direct_start, name, acronyms) and (
            set_off or namelike(name.split()[0])
        ):
            found.append((5 + _LEAD_BONUS * (lead and set_off), direct_start, name))
    elif (
        head
        and not head.group().islower()
        and (typed := _TYPED_NAME.match(text, direct_start))
        and namelike(strip_token(typed.group(1)))
    ):
        # "we propose the FedLMT framework", "our KW-Design method": a coined word and its kind.
        found.append((5, typed.start(1), strip_token(typed.group(1))))
    for match, start in acronyms:
        if score := _acronym_score(text, window_start, start, match):
            before = text[max(0, match.start() - 20) : match.start()].rstrip()
            found.append((score, match.start(), _singular(strip_token(match.group(1)), before)))
    for appositive_end in _appositive_ends(text, window_start, stop):
        if text[appositive_end].islower() and _TOKEN.match(text, appositive_end).group().islower():
            continue  # "a method that ...": no capital, no name (most appositives)
        named = _name_at(text, appositive_end, naming=False)
        # "two algorithms, namely SCGD and SCSC": a list of what is studied, not a name.
        listed = text[max(0, appositive_end - 8) : appositive_end].rstrip().endswith(("ly", "."))
        if (
            named
            and (named[1] or (namelike(named[0].split()[0]) and not listed))
            and not _spelled_out(text, appositive_end, named[0], acronyms)
        ):
            # "we propose a unified framework, HyperHuman, that": as sure as a direct name.
            close = named[1] and len(text[window_start:appositive_end].split()) <= 8
            found.append((5 + _LEAD_BONUS * lead if close else 4, appositive_end, named[0]))
    return found


def candidates(text: str, styles: tuple[tuple[int, int, str], ...]) -> list[Candidate]:
    """(score, position, name) for every possible method name."""
    found: list[Candidate] = []
    expansions: dict[int, int | None] = {}
    for cue in cue_matches(text):
        # The window ends at the first sentence end at or after the cue (a match is one
        # character, and what it looks at lies after it, so search from there finds it).
        sentence_end = _SENTENCE_END.search(text, cue.end() - 1)
        stop = min(sentence_end.end() if sentence_end else len(text), cue.end() + 240)
        window_start = cue.end()
        weaker, naming, lead, lower = _cue_kind(cue.group())
        if weaker or cue.group()[:1] in "oO":
            # "our method ...", "... and propose": frequent, and their name comes right after
            # (a short window keeps the many of them cheap).
            stop = min(stop, window_start + _NEAR)
        # Every name but a lower-case one has a capital: with none ahead, skip the window's
        # scans (a lower-case name is looked for right after the cue only).
        if _capital_ahead(text, window_start, stop):
            window = _window_candidates(text, window_start, stop, expansions, naming, lead)
            found.extend((score - weaker, at, name) for score, at, name in window)
        if lower and (phrase := _lower_phrase(text, window_start, naming)):
            found.append((5, window_start, phrase))
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
    if not any(score >= 5 for score, _, _ in found):
        # Only when no cue names the method: "Medusa is a ..." is weaker evidence, and
        # finding sentence starts costs a scan of the text.
        found.extend(_lead_candidates(text))
    return found


@lru_cache(maxsize=1024)  # a few hundred distinct cues ("we propose", "called", ...)
def _cue_kind(cue: str) -> tuple[int, bool, bool, bool]:
    """(weaker, naming, lead, lower) of a cue's text: 1 for a bare verb; whether it names
    ("called"); whether it introduces the paper's own work ("we propose"); whether a
    lower-case name may follow it."""
    match = _CUE.fullmatch(cue)
    weaker = 1 if match and match.group("bare") else 0
    naming = _NAMING.search(cue) is not None
    lead_match = _LEAD_CUE.match(cue)
    # "known as the codebook", "referred to as the curse": established terms, not names.
    naming_lower = naming and not cue.lower().startswith(("known", "referred"))
    lower = not weaker and (naming_lower or bool(lead_match and lead_match.group("verbal")))
    return weaker, naming, lead_match is not None, lower


def cue_matches(text: str) -> list[re.Match[str]]:
    """`list(_CUE.finditer(text))`, fast: tried only where a cue word begins."""
    return finditer_at(_CUE, text, literal_starts(ascii_fold(text), _CUE_WORDS))


def _lower_phrase(text: str, window_start: int, naming: bool) -> str | None:
    """A lower-case name right after a cue: "we introduce einspace, a ...", "we propose
    position coupling, a ...", "a phenomenon we call catastrophic Goodhart."

    After "we propose" it must be set off by a comma, colon or dash and a description ("a",
    "an", "the"); after a naming cue, by any punctuation. A phrase begins with a capital.
    """
    skip = _NAMING_SKIP if naming else _DIRECT_SKIP
    start = skip.match(text, window_start).end()
    if start >= len(text) or not text[start].islower():
        return None
    space = text.find(" ", start, start + 20)
    if text[start : space if space > 0 else start + 20] in _PHRASE_STOP:
        return None  # "we propose a ...", "we introduce novel ...": most cues, at once
    phrase = _LOWER_PHRASE.match(text, start)
    if not phrase:
        return None
    name, end = phrase.group(1), phrase.end(1)
    words = name.split()
    if any(word.lower() in _PHRASE_STOP for word in words) or len(name) > MAX_NAME:
        return None
    if len(words) == 1 and (len(name) < 4 or not name.isalpha() or naming):
        return None  # "we call this superposition": a word, not a coined name
    if not (_DESCRIBED.match(text, end) or (naming and _SET_OFF.match(text, end))):
        return None
    return name if len(words) == 1 else name[0].upper() + name[1:]


def _lead_candidates(text: str) -> list[Candidate]:
    """Names that begin a sentence: "Medusa is a ...", "RelGNN, a new ...", "X: a ..."."""
    # Tried only at the start of a sentence holding a lead part (few), not at every sentence.
    starts: set[int] = set()
    for index in literal_starts(text, _LEAD_PARTS):
        if not text.startswith(_LEAD_WHOLE, index):
            continue  # ", and", ", as", " is at": most of what the parts find
        # The last sentence break shortly before the part (a name and an aside fit in 100).
        low = max(0, index - 100)
        head = max(text.rfind(brk, low, index) for brk in _SENTENCE_BREAKS)
        if head >= 0:
            starts.add(head + 2)
        elif low == 0:
            starts.add(0)
    found: list[Candidate] = []
    proper: dict[str, bool] = {}  # each name's scan once, however many sentences it begins
    for match in finditer_at(_LEAD, text, sorted(starts)):
        name = strip_token(match.group(1))
        if not name:
            continue
        if namelike(name.split()[0]):
            found.append((4, match.start(1), name))
        elif _capitalised(name.split()[0]):
            # A capitalised word is a name when the text capitalises it mid-sentence too.
            if name not in proper:
                proper[name] = _said_mid_sentence(text, name)
            if match.group(2) or proper[name]:
                found.append((4, match.start(1), name))
    return found


def _said_mid_sentence(text: str, name: str) -> bool:
    """Whether the name occurs, as a word, after a lower-case word or a comma."""
    index = text.find(" " + name)
    while index > 0:
        end = index + 1 + len(name)
        if (end == len(text) or not text[end].isalnum()) and (
            text[index - 1].islower() or text[index - 1] == ","
        ):
            return True
        index = text.find(" " + name, index + 1)
    return False
