"""What a method name looks like (for names.cues): coined words, capitalised phrases,
versions, acronyms and the words they abbreviate, styled spans.

`namelike` is a coined word (RelGNN, k-DTW, K²IE); `name_at` reads the name beginning at a
position (a coined word, a capitalised phrase set off by a comma or dash, "Delta 3B");
`expansion` finds the words an acronym abbreviates. Generic field acronyms (RL, LLM, GNN...)
are never names.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

MAX_NAME = 40

Candidate = tuple[int, int, str]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


GENERIC = _words(
    """AI ML DL RL NLP CV LLM LM VLM MLLM LVLM GNN CNN RNN MLP GAN VAE SGD GD ODE PDE SDE MDP POMDP
    QA VQA ICL OOD ID SOTA BO GP KL MSE MLE MAP NN DNN DRL IRL LSTM ViT BERT GPT LoRA PEFT SFT RLHF
    DPO PPO API GPU CPU TPU IID PCA SVM KNN RKHS NTK HMM EM SVD CoT RAG ASR TTS MT NER OCR IR AUC
    ROC FID IS US UK EU ReLU II III IV PAC VC ERM SAM MoE
    SSL SMC MCMC SCM DRO PDF GCN GAT SNN MARL NAS HPO"""
)
# (The second line: field terms found shown as names of papers that name none, by
# bench_names --precision: "sequential Monte Carlo (SMC)", "structural causal models (SCMs)".)
# Capitalised words that begin a phrase after "we propose" without naming anything.
_COMMON_CAPITALS = _words(
    """A An The This That These Those Our We It Its In On For To Of By With From As At And Or
    Here There Then Thus However Moreover Specifically First Second Finally Also Such Each Both
    New Novel Several Many Some Two Three Multiple Various Section Sec Appendix Theorem Table
    Figure Fig Eq Experiments Results Code Data Our Unlike While When Which What How Why"""
)
LOWER_PHRASE = re.compile(r"([a-z][\w'-]*(?: [^\W\d_][\w'-]*){0,3}?)(?=\s*(?:[,:;.(]|--|\u2014|$))")
# A name's description after it: "X, a ...", "X: an ...", "X -- the ...".
DESCRIBED = re.compile(r"\s*(?:,|:|--|\u2014)\s*(?:an?|the)\s")
# Words no lower-case name is made of (or begins with: "two methods", "new techniques").
PHRASE_STOP = _words(
    """a an the this that these those our its their his her we it they which who whose of for to
    in on at by with from as and or but not no is are was were be been has have can may will
    than then also such each every all any some many more most new novel simple general simple
    efficient effective two three four several various different first second multiple other
    results result method methods approach approaches framework model models work paper study
    here there how what when where why whether while if so thus however"""
)
# The kinds of thing a paper names: "we propose X, a framework", "a new attack X".
NOUNS = (
    r"method|framework|model|approach|algorithm|tool|system|architecture|technique|pipeline|"
    r"module|benchmark|dataset|estimator|network|strategy|paradigm|scheme|library|metric|loss|"
    r"agent|solver|optimi[sz]er|procedure|mechanism|family|suite|toolkit|platform|encoder|sampler|"
    r"transformer|policy|protocol|measure|attack|defen[cs]e|objective|formulation|variant|layer|"
    # "an LLM-based solution, AutoG,", "a lightweight MLLM, Mini-Monkey,", "our novel resource,
    # INCLUDE,", "a new decision criterion BEEM": kinds a paper's own name follows too.
    r"solution|criterion|resource|m?llm|vlm|lmm"
)
TOKEN = re.compile(r"[^\s,;:()\[\]\"\u2013\u2014]+")  # en/em dashes end a name too
# "(ACR)", also with an aside: "(FAFE, denoted as F2E ...)", "(SPLIT, for short)", "(SPLIT;
# see below)" - an aside of lower-case words first, not a list ("(GPT-4, Claude)").
ACRONYM = re.compile(
    r"\(\s?([^()\s,;]{2,25}(?: v?\d+(?:\.\d+)*)?)\s?"
    r"(?:\)|[,;]\s(?!(?:and|or|etc|e\.g)\b)[a-z][^()]{0,60}\))(?=[\s,.;:)]|$)"
)
# What sets a name off from its description: "X, a ...", "X: ...", "X -- a ...", "X (ours)",
# also after a closing quote ("we introduce 'Zebra', a solver").
SET_OFF = re.compile(
    r"[\"\u201d\u2019']?\s*(?:[,:;]|--|[\u2013\u2014]|\.(?:\s|$)|$|\((?=[^()\s]+ [^()]+\)))"
)
# A size or version after a name: "Delta 3B", "CircuitNet 2.0", "Foo v2", "Llama-2 70B".
_VERSION = re.compile(r"v?\d+(?:\.\d+)*(?:[BMKTD]|x\d+)?|[IVX]{1,4}|XL|XXL", re.IGNORECASE)
_WORD_PARTS = re.compile(r"[^\W_]+", re.UNICODE)


def plain_letters(name: str) -> str:
    """The name with mathematical letters (from \\mathsf{DNA} in math) as plain ones (DNA)."""
    # max() scans in C: most text has no character at or past the mathematical letters.
    if (
        not name
        or max(name) < "\U0001d400"
        or not any("\U0001d400" <= ch <= "\U0001d7ff" for ch in name)
    ):
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


def two_capitals(name: str) -> bool:
    """ "CF", "KG", "SD": two capitals that abbreviate a field's term, not a coined name."""
    return len(name) == 2 and name.isalpha() and name.isupper()


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


def capitalised(token: str) -> bool:
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
    following = TOKEN.match(text, end + 1) if text.startswith(" ", end) else None
    return following is not None and capitalised(strip_token(following.group()))


def _title_compound(token: str) -> bool:
    """Capitalised words joined by hyphens ("Time-Aware", "Multi-Step-Ahead"): English, a
    name only as a whole phrase ("Time-Aware Graph Sampler (TAGS)" is a long name's start)."""
    parts = token.split("-")
    return len(parts) >= 2 and all(
        part[:1].isupper() and part[1:].isalpha() and part[1:].islower() for part in parts
    )


def _version_after(text: str, end: int) -> int:
    """The end of a size/version token right after a name ending at `end`, else `end`."""
    if end >= len(text) or text[end] != " ":
        return end
    token = TOKEN.match(text, end + 1)
    if token and _VERSION.fullmatch(strip_token(token.group())):
        version_end = end + 1 + len(strip_token(token.group()))
        if SET_OFF.match(text, version_end):
            return version_end
        if text.startswith((" (", " is ", " which ", " that "), version_end):
            return version_end
    return end


def name_at(text: str, start: int, naming: bool) -> tuple[str, bool] | None:
    """The name beginning at `start` and whether it is set off from what follows.

    A coined word (RelGNN) is a name anywhere; a capitalised phrase of up to four words
    ("Falcon", "Neural Spectral Methods") or a lower-case coined word only where set off by a
    comma, colon or dash, or after a naming cue ("called Magpie.").
    """
    first = TOKEN.match(text, start)
    if not first:
        return None
    token = strip_token(first.group())
    if not token or token.islower():
        return None
    begin = first.start() + first.group().find(token)
    end = begin + len(token)
    if namelike(token) and not (_title_compound(token) and _capitalised_next(text, end)):
        end = _version_after(text, end)
        # "we propose OSDA Agent, an ...", "IN-CONTEXT PRETRAINING, a ..." (not after two
        # capitals, a field's term: "the resulting DC Program, obtaining ...").
        if (
            SET_OFF.match(text, end) is None
            and not two_capitals(token)
            and (longer := _capitals_to_set_off(text, end))
        ):
            end = longer
        return text[begin:end], SET_OFF.match(text, end) is not None
    if not capitalised(token) and not (
        is_generic(token) and (_capitalised_next(text, end) or _version_after(text, end) > end)
    ):
        # (a field acronym begins a name only with more words or a version: "API Pack",
        # "SAM 2")
        return None
    plain_end = None  # the end before a small word ("Nimbus" of "Nimbus for Transformer")
    for count in range(4):  # more capitalised words: "Neural Spectral Methods", "Delta 3B"
        version_end = _version_after(text, end)
        if version_end > end:
            end = version_end
            break
        following = TOKEN.match(text, end + 1) if text.startswith(" ", end) else None
        if following is None:
            break
        word = strip_token(following.group())
        if word in _INNER_WORDS and (naming or word != "and"):
            # "Tilt and Average", "Mixture of Experts": a small word between two capitalised
            # ones is part of the name ("and" only after a naming cue: "we propose Falcon and
            # Eagle, two ..." names two things).
            after = following.start() + len(word)
            if _capitalised_next(text, after) and (whole := _version_or_word_end(text, after)):
                plain_end = end if plain_end is None else plain_end
                end = whole
                continue
            break
        if not word or not (word[0].isupper() or word[0].isdigit()) or word in _COMMON_CAPITALS:
            break
        if count == 3:
            return None  # five capitalised words or more: a title or a long name, cut
        end = following.start() + len(word)
    set_off = SET_OFF.match(text, end) is not None or _weak_short_form(text, end)
    if plain_end is not None and not set_off:
        # A small word makes a name only of a phrase set off whole: "framework Nimbus for
        # Transformer models" names Nimbus.
        end = plain_end
        set_off = SET_OFF.match(text, end) is not None or _weak_short_form(text, end)
    name = text[begin:end]
    if set_off or naming:  # "called Orthogonal Bootstrap that ...": the cue marks it
        return (name, True) if len(name) <= MAX_NAME else None
    return None


# Small words a capitalised name may hold between its capitalised words.
_INNER_WORDS = _words("of for and to in on with")


def _version_or_word_end(text: str, end: int) -> int:
    """The end of the capitalised word after a space at `end` (stripped of punctuation)."""
    following = TOKEN.match(text, end + 1)
    if following is None:
        return 0
    return following.start() + len(strip_token(following.group()))


def _capitals_to_set_off(text: str, end: int) -> int:
    """The end of up to three capitalised words after a coined word ending at `end` when a
    comma or dash sets them off ("OSDA Agent, an ..."), else 0."""
    for _ in range(3):
        if not _capitalised_next(text, end):
            return 0
        end = _version_or_word_end(text, end)
        if SET_OFF.match(text, end):
            return end
    return 0


_SHORT_FORM = re.compile(r" \(([^()\s]{2,25})\)")


def _weak_short_form(text: str, end: int) -> bool:
    """Whether "(ACR)" and a comma or dash follow, the acronym too short or generic to be a
    name ("Probe Pruning (PP), a ..."): then the long name before it is set off."""
    short = _SHORT_FORM.match(text, end)
    if not short or not (two_capitals(short.group(1)) or is_generic(short.group(1))):
        return False
    return SET_OFF.match(text, short.end()) is not None


def expansion_start(acronym: str, text: str, end: int) -> int | None:
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


def expansion(acronym: re.Match[str], text: str, known: dict[int, int | None]) -> int | None:
    """`expansion_start` of an `ACRONYM` match, remembered in `known` by its position."""
    if acronym.start() not in known:
        known[acronym.start()] = expansion_start(acronym.group(1), text, acronym.start())
    return known[acronym.start()]


def styled_name(text: str, start: int, end: int) -> str | None:
    """A bold/code/italic span that is a whole word group and could be a name."""
    if (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
        return None  # **Uni**fied: part of a word
    span = strip_token(text[start:end].strip())
    if span.endswith(")") and (acronym := ACRONYM.search(span)) and acronym.end() == len(span):
        # "**Gated Spectral Token Mixer (GSTM)**": the acronym names it.
        inner = strip_token(acronym.group(1))
        if namelike(inner) and not two_capitals(inner):
            return inner
        # "**Thought Propagation (TP)**": a two-capital short form names nothing; the words do.
        words = span[: acronym.start()].split()
        return " ".join(words) if 1 <= len(words) <= 4 and words[0][:1].isupper() else None
    if len(span) < 2 or not span[0].isalpha() or len(span) > MAX_NAME or len(span.split()) > 3:
        return None
    if " " not in span and (namelike(span) or span[:1].isupper()) and not is_generic(span):
        return span
    return None


def singular(acronym: str, before: str) -> str:
    """An acronym without its plural s after plural words: "Context-based Graph Neural
    Networks (ContextGNNs)" names ContextGNN; "via Attention Transfer (LoLCATs)" keeps it."""
    if len(acronym) > 3 and acronym[-1] == "s" and acronym[-2].isupper() and before.endswith("s"):
        return acronym[:-1]
    return acronym


def word_count(text: str, name: str) -> int:
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


def own_count(text: str, name: str) -> int:
    """Occurrences of the name as a name of its own, not the head or tail of a longer
    hyphenated one ("KOR" in "KOR-Bench", "VASA" in "VASA-1" count for those names)."""
    count, index = 0, text.find(name)
    while index >= 0:
        end = index + len(name)
        before = text[index - 1] if index else " "
        after = text[end] if end < len(text) else " "
        if not before.isalnum() and not after.isalnum():
            glued = (after == "-" and text[end + 1 : end + 2].isalnum()) or (
                before == "-" and index >= 2 and text[index - 2].isalnum()
            )
            count += not glued
        index = text.find(name, index + 1)
    return count


_KIND_WORDS = re.compile(r"(?:" + NOUNS + r")s?")
_ARTICLES = ("a", "an", "the")
_LINKS = _words("of for to in on at by with from via that which and or as")


def kind_before(text: str, window_start: int, name_start: int) -> bool:
    """Whether a cue's object is "a/the [words] kind" right before a name, with no comma:
    "a new defense Cowpox", not "a method of the loss Hessian" or "the Policy Optimization"."""
    if text[name_start - 1] != " ":
        return False
    words = text[window_start : name_start - 1].split()
    if not 2 <= len(words) <= 5 or words[0].lower() not in _ARTICLES:
        return False
    kind = words[-1]
    # Every word lower-case (not a capitalised long name's "Policy"), none a preposition.
    return _KIND_WORDS.fullmatch(kind) is not None and all(
        word.islower() and word not in _LINKS for word in words[1:-1]
    )


def skip_over(pattern: re.Pattern[str], text: str, position: int) -> int:
    """Where `pattern` ends when matched at `position` (it matches the empty string: words or
    spaces to skip, perhaps none)."""
    match = pattern.match(text, position)
    return match.end() if match else position
