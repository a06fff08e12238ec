"""Where an abstract states a method's name: cues, acronyms, appositions (for names.derive).

`candidates` lists (score, position, name) for every place an abstract may name its method:
what follows "we propose/introduce/present" or "called/named", a parenthesised acronym whose
letters come from the words before it, a name set off by a comma or dash ("we introduce Falcon,
a ..."), bold or code spans, "X is a ..." at a sentence start. Scores: 5 a name the text states
as the paper's, 4 good evidence, 3 or less weak (a topic's acronym, a stray bold word).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from papershelf.storage.names.acronyms import acronym_score, spelled_out
from papershelf.storage.names.marked import marked_acronyms
from papershelf.storage.names.opening import opening_clause_names
from papershelf.storage.names.passive import PARTICIPLES, passive_name
from papershelf.storage.names.phrases import (
    lower_name,
    quoted_name,
    said_again,
    said_again_word,
    typed_phrase,
)
from papershelf.storage.names.trailing import trailing_name
from papershelf.storage.names.words import (
    ACRONYM,
    MAX_NAME,
    SET_OFF,
    TOKEN,
    Candidate,
    capitalised,
    expansion,
    expansion_start,
    kind_before,
    name_at,
    namelike,
    own_count,
    singular,
    skip_over,
    strip_token,
    styled_name,
    two_capitals,
)
from papershelf.storage.names.words import NOUNS as _NOUNS
from papershelf.storage.text.scan import (
    case_fold,
    finditer_at,
    letter_trie,
    literal_starts,
)

_VERBS = (
    r"propos\w*|introduc\w*|present\w*|develop\w*|design\w*|call\w*|nam(?:e|ed|es)|term\w*|"
    r"dub\w*|coin\w*|devis\w*|build\w*|construct\w*|formulat\w*|creat\w*|put (?:forward|forth)|"
    r"unveil\w*|releas\w*|establish\w*|offer\w*|pioneer\w*|compil\w*|provid\w*|"
    r"refer to (?:\w+ ){0,4}?as"
)
# A cue's `bare` group is a verb with no "we"/"this paper" before it ("...and propose X", "by
# introducing X"): weaker, it may be another paper's proposal ("the recently proposed X").
_CUE = re.compile(
    r"\b(?:(?:we|this (?:paper|work|study|article)|our (?:paper|work))\s+(?:\w+ly\s+|also\s+|"
    r"further\s+|then\s+|first\s+|here\s+|hereby\s+|therefore\s+|thus\s+|instead\s+|have\s+|"
    r"has\s+)?(?:\w+\s+and\s+)?(?:"
    + _VERBS
    + r")|called|named|dubbed|termed|coined|referred to as|known as|denoted as|the proposed|"
    r"our(?=\s+[^\s,;:()]+\s+(?:" + _NOUNS + r")s?\b)|"  # "our ConText model": the name first
    r"our (?:[\w-]+ ){0,3}?(?:" + _NOUNS + r")s?\s*[:,]?|the resulting|"
    # "... and name the framework (as) M3-JEPA": a naming verb whose subject came before.
    r"(?:name|call)(?=\s+(?:the|this|our|it)\s)|"
    # "We address this by proposing X, an ...", "by developing an approach, X (ACR)": the
    # paper's own means, made with the verbs that follow "we" (weak._MAKES).
    r"by (?:propos|introduc|present|develop|design|build|construct|devis|creat)ing|"
    # "We address these limitations with GRAIL": a solving verb, its means named after it
    # (`_solved_with`; no window of its own).
    r"(?P<solves>we\s+(?:\w+ly\s+|then\s+|thus\s+|therefore\s+)?(?:address|tackle|overcome|"
    r"solve|resolve|mitigate|alleviate|bridge|fill|close|remedy|handle)\w*)|"
    r"(?P<bare>(?:propos|introduc|present)(?:e|es|ed|ing|s)?|"
    # "We avoid ... and develop a unified likelihood ratio (ULR) method": the second verb of
    # a sentence ("... and build BingoGuard, an ..."), its subject said before.
    r"and (?:develop|buil[dt]|design|creat|construct)\w*))(?=\W)",
    re.IGNORECASE,
)
# Every _CUE match begins with one of these (in any case): _CUE is tried only where one begins,
# not at each of the ~1,200 positions of an abstract (scanning them is most of the cost). Each
# is a scan of the text, so one literal stands for several cues ("call" for "called", "by "
# for the nine "by proposing"-like ones): a few more places tried, far fewer scans.
_CUE_WORDS = (
    "we",
    "this",
    "our",
    "by ",
    "name",
    "call",
    "dubbed",
    "termed",
    "coined",
    "referred",
    "known",
    "denoted as",
    "the proposed",
    "the resulting",
    "propos",
    "introduc",
    "present",
    "and develop",
    "and buil",
    "and design",
    "and creat",
    "and construct",
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
# A dash first: "a new method - FlexNet - that", "a new method \u2013 FlexNet" (else the space
# before the dash would end the match there, at no name).
_AFTER_KIND = (
    r"s?(?:\s*(?:--|\u2014|\u2013)\s*|\s+-\s+|\s*[,:]?\s+)(?:called\s+|named\s+|dubbed\s+|"
    r"termed\s+|namely\s+|i\.e\.,?\s+)?(?=\S)"
)
_APPOSITIVE_TEXT = r"\b(?:" + _NOUNS + r")" + _AFTER_KIND
_APPOSITIVE = re.compile(_APPOSITIVE_TEXT, re.IGNORECASE)  # what _APPOSITIVE_LOWER stands for
# The same on case-folded text (`case_fold`; one case to compare is about four times faster);
# the pattern has no upper-case letters or case-dependent classes: both find the same spans.
# Its kinds branch a letter at a time (`letter_trie`: a third faster again); where two kinds
# match ("tool", "toolkit") only one leads to a match, a non-letter must follow it or its "s".
_APPOSITIVE_LOWER = re.compile(r"\b(?:" + (letter_trie(_NOUNS) or _NOUNS) + r")" + _AFTER_KIND)
# "the FedLMT framework": a name and its kind.
_TYPED_NAME = re.compile(r"(?:the\s+)?([^\s,;:()]+)\s+(?:" + _NOUNS + r")s?\b", re.I)
# Cues that introduce the paper's own contribution ("we propose", "this paper introduces").
_LEAD_CUE = re.compile(
    r"(?P<verbal>(?:we|this \w+|our (?:paper|work))\s+(?:\w+\s+)?(?:propos|introduc|present)|"
    r"by (?:propos|introduc|present))|"
    r"the proposed|our",
    re.I,
)
_SPACE = re.compile(r"\s*")
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z0-9*$(\"']|\s*$)")
# "X is a ...", "X, a ...", "X: a ..." where a sentence starts: X names what the paper is about.
_LEAD = re.compile(
    r"([^\s,:(]+(?: v?\d+(?:\.\d+)*[BMK]?)?)(?: \([^()]*\))?(?: is|,|:) an? (?:(novel|new) )?"
)
# Every _LEAD match holds one of these after its name, and begins at 0 or after a sentence break.
# "... is a simple framework that ...": a few words, then a kind of thing a paper introduces.
_KIND_AHEAD = re.compile(r"(?:[\w-]+ ){0,3}?(?:" + _NOUNS + r")s?\b", re.I)
_LEAD_PARTS = (" is a", ", a", ": a")
_LEAD_WHOLE = (" is a ", " is an ", ", a ", ", an ", ": a ", ": an ")
_SENTENCE_BREAKS = (". ", "! ", "? ")
_DESCRIPTIONS = (", a ", ", an ")
_DASH_DESCRIPTION = re.compile(r" -- an? ")
_NOVEL = re.compile(r"(?:(?:novel|new|newly|simple|first|unified|general|and)[\s,]+)*", re.I)
_NEAR = 80  # the window after "our ..." and bare verbs: their name comes right after
_LEAD_BONUS = 1  # "we propose X, a ...": the paper's own name, above other cues


def _has_lead_part(text: str) -> bool:
    """Whether the text has what every _LEAD match has: " is a", ", a" or ": a"."""
    return any(part in text for part in _LEAD_PARTS)


def _capital_ahead(text: str, start: int, stop: int) -> bool:
    """Whether a token beginning in text[start:stop] may hold an upper-case letter."""
    # A token that begins in the window and runs past its end runs through stop - 1.
    run = TOKEN.match(text, stop - 1)
    # islower(): some lower-case letter and no upper-case (or title-case) one.
    return not text[start : run.end() if run else stop].islower()


def _appositive_ends(text: str, start: int, stop: int) -> list[int]:
    """Where the `_APPOSITIVE` matches in text[start:stop] end (start > 0)."""
    # The window and the character before it, which `\b` looks at.
    segment = text[start - 1 : stop]
    # case_fold keeps positions, and the case-sensitive pattern is much faster.
    offset = start - 1
    return [offset + match.end() for match in _APPOSITIVE_LOWER.finditer(case_fold(segment), 1)]


def _window_candidates(
    text: str,
    window_start: int,
    stop: int,
    expansions: dict[int, int | None],
    naming: bool,
    lead: bool = False,
) -> list[Candidate]:
    """Candidates in the window after a cue: the name right after it, acronyms, appositives.

    `expansions` keeps `expansion_start` by acronym position, for windows that overlap. After
    a `lead` cue ("we propose"), a name set off right after it is the paper's own (score 6).
    """
    found: list[Candidate] = []
    # After a naming cue, past "the framework (as)": "name the framework as M3-JEPA".
    direct_start = skip_over(_NAMING_SKIP if naming else _DIRECT_SKIP, text, window_start)
    acronyms = [
        (match, expansion(match, text, expansions))
        for match in (
            ACRONYM.finditer(text, window_start, stop)
            if text.find("(", window_start, stop) >= 0
            else ()
        )
        if namelike(strip_token(match.group(1)))
    ]
    head = TOKEN.match(text, direct_start) if direct_start < stop else None
    # A name holds a capital ("we propose a ...": most windows end here).
    named = name_at(text, direct_start, naming) if head and not head.group().islower() else None
    if named:
        name, set_off = named
        if not spelled_out(text, direct_start, name, acronyms) and (
            set_off or namelike(name.split()[0])
        ):
            found.append((5 + _LEAD_BONUS * (lead and set_off), direct_start, name))
    elif (
        head
        and not head.group().islower()
        and (typed := _TYPED_NAME.match(text, direct_start))
        and namelike(strip_token(typed.group(1)))
        and not spelled_out(text, typed.start(1), typed.group(), acronyms)
    ):
        # "we propose the FedLMT framework", "our KW-Design method": a coined word and its kind.
        found.append((5, typed.start(1), strip_token(typed.group(1))))
    elif (
        lead
        and head
        and (
            phrase := said_again(text, direct_start)
            or typed_phrase(text, direct_start)
            or said_again_word(text, direct_start)
        )
        and not spelled_out(text, direct_start, phrase, acronyms)
    ):
        # Capitalised words a lead cue introduces, not set off: said again ("Beam Enumeration
        # to ...") or followed by their kind ("the Connect Later framework").
        found.append((5, direct_start, phrase))
    # "we introduce the notion of Cross-Embodiment Unsupervised RL (CEURL)", "the concept of
    # conditional mutual information (CMI)": a problem or a term the paper studies, not what
    # it makes (its method comes next).
    notion = _NOTION.match(text, skip_over(_SPACE, text, window_start)) is not None
    for match, start in acronyms:
        if score := acronym_score(text, window_start, start, match):
            score = min(score, 2) if notion else score
            before = text[max(0, match.start() - 20) : match.start()].rstrip()
            found.append((score, match.start(), singular(strip_token(match.group(1)), before)))
    for appositive_end in _appositive_ends(text, window_start, stop):
        token = TOKEN.match(text, appositive_end)
        if text[appositive_end].islower() and token and token.group().islower():
            continue  # "a method that ...": no capital, no name (most appositives)
        # "we propose a defense Cowpox to ...": a kind right before a word names it, as "called".
        named = name_at(
            text, appositive_end, naming=lead and kind_before(text, window_start, appositive_end)
        )
        # "two algorithms, namely SCGD and SCSC": a list of what is studied, not a name.
        listed = text[max(0, appositive_end - 8) : appositive_end].rstrip().endswith(("ly", "."))
        if (
            named
            and (named[1] or (namelike(named[0].split()[0]) and not listed))
            and not spelled_out(text, appositive_end, named[0], acronyms)
            and not _list_of_kinds(text, appositive_end, appositive_end + len(named[0]))
        ):
            # "we propose a unified framework, HyperHuman, that": as sure as a direct name.
            close = named[1] and len(text[window_start:appositive_end].split()) <= 8
            found.append((5 + _LEAD_BONUS * lead if close else 4, appositive_end, named[0]))
    return found


_NOTION = re.compile(
    r"(?:the|a|an)\s+(?:new\s+|novel\s+)?(?:concept|notion|problem|task|setting|question)\s+of\s",
    re.IGNORECASE,
)
# A list going on after a name: ", GPT-3, ...", ", and Llama".
_LIST_GOES_ON = re.compile(r"\s*,\s*(?:and\s+)?[^\W_a-z]")


def _list_of_kinds(text: str, start: int, end: int) -> bool:
    """Whether an appositive after a plural kind begins a list: "six LLMs—GPT-4, GPT-3, ..."
    names what a study compares, not what the paper makes (a false name of studies)."""
    kind = text[max(0, start - 12) : start].rstrip(" ,:-\u2014").rsplit(" ", 1)[-1]
    plural = kind.endswith("s") and not kind.endswith("ss")
    return plural and _LIST_GOES_ON.match(text, end) is not None


def candidates(text: str, styles: tuple[tuple[int, int, str], ...]) -> list[Candidate]:
    """(score, position, name) for every possible method name."""
    found: list[Candidate] = []
    expansions: dict[int, int | None] = {}
    for cue in cue_matches(text):
        if cue.start() >= 3 and text[cue.start() - 3 : cue.start()].lower() == "so-":
            continue  # "the so-called LLM prompting paradigm": a term in use, no new name
        # The window ends at the first sentence end at or after the cue (a match is one
        # character, and what it looks at lies after it, so search from there finds it).
        sentence_end = _SENTENCE_END.search(text, cue.end() - 1)
        stop = min(sentence_end.end() if sentence_end else len(text), cue.end() + 240)
        window_start = cue.end()
        if cue.group("solves"):
            if solved := _solved_with(text, window_start):
                found.append(solved)
            continue
        # "In this paper, FlexNet is proposed to ...": the paper makes it in the passive voice
        # (each such participle is a bare cue of its own).
        if cue.group().lower() in PARTICIPLES and (passive := passive_name(text, cue.start())):
            found.append(passive)
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
        if lead and (quoted := quoted_name(text, window_start)):
            found.append(quoted)
        if (lead or cue.group()[:2].lower() == "we") and (
            trailing := trailing_name(text, window_start, stop)
        ):
            found.append(trailing)  # "we present a ... framework for X, MAGIS, consisting"
        # Styles are sorted by start: only those starting in the window (linear, not quadratic,
        # in text with many cues and many styles).
        index = bisect_left(styles, (window_start,))
        while index < len(styles) and styles[index][0] < stop:
            start, end, style = styles[index]
            if name := styled_name(text, start, end):
                found.append((5 if style != "italic" else 3, start, name))
            index += 1
    for start, end, style in styles:
        if style != "italic" and (name := styled_name(text, start, end)):
            found.append((3, start, name))
    if styles:
        # "**L**earnable **I**n-Context **Ve**ctor (LIVE)": the author marks the letters.
        found.extend(marked_acronyms(text, styles))
    if not any(score >= 5 for score, _, _ in found):
        # Only when no cue names the method: "Medusa is a ..." is weaker evidence, and
        # finding sentence starts costs a scan of the text.
        found.extend(_lead_candidates(text))
        found.extend(opening_clause_names(text))  # "To this end, Kraken is an ..."
        # "We introduce a new ... algorithm. The Average-Constrained ... (ACPO) algorithm is".
        found.extend(_named_next(text))
    # "form the basis for GistScore, a novel metric": a coined name described as a kind of
    # thing, whatever the verb before it; repeated, it may beat a cue's name for a part.
    found.extend(_described_candidates(text))
    return found


@lru_cache(maxsize=1024)  # a few hundred distinct cues ("we propose", "called", ...)
def _cue_kind(cue: str) -> tuple[int, bool, bool, bool]:
    """(weaker, naming, lead, lower) of a cue's text: 1 for a bare verb; whether it names
    ("called"); whether it introduces the paper's own work ("we propose"); whether a
    lower-case name may follow it."""
    match = _CUE.fullmatch(cue)
    # "a setting known as zero-shot coordination (ZSC)", "also referred to as Extreme
    # multilabel classification (XMC)": a field's established term, weaker than the
    # paper's own name stated after "we propose".
    established = cue.lower().startswith(("known", "referred"))
    weaker = 1 if (match and match.group("bare")) or established else 0
    naming = _NAMING.search(cue) is not None
    lead_match = _LEAD_CUE.match(cue)
    # "known as the codebook", "referred to as the curse": established terms, not names.
    # "denoted as x": mathematics' notation as often as a name; only a capital names.
    naming_lower = naming and not cue.lower().startswith(("known", "referred", "denoted"))
    lower = not weaker and (naming_lower or bool(lead_match and lead_match.group("verbal")))
    return weaker, naming, lead_match is not None, lower


def _lower_phrase(text: str, window_start: int, naming: bool) -> str | None:
    """`phrases.lower_name` past what may stand between the cue and its name."""
    start = skip_over(_NAMING_SKIP if naming else _DIRECT_SKIP, text, window_start)
    return lower_name(text, start, naming)


def cue_matches(text: str) -> list[re.Match[str]]:
    """The spans of `list(_CUE.finditer(text))`, fast: tried only where a cue word begins, and
    matched in the text's lower-case copy (`case_fold`: the same positions; a cue's text is
    read ignoring case)."""
    folded = case_fold(text)
    return finditer_at(_CUE_LOWER, folded, literal_starts(folded, _CUE_WORDS))


# _CUE without IGNORECASE, for case-folded text: it has no upper-case letter nor a class
# that depends on case (a test checks), so both find the same spans; comparing one case makes
# a regex branch skip its alternatives by their first letter (the tries cost half as much).
_CUE_LOWER = re.compile(_CUE.pattern)


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
        elif capitalised(name.split()[0]):
            # A capitalised word is a name when the text capitalises it mid-sentence too.
            if name not in proper:
                proper[name] = _said_mid_sentence(text, name)
            # "Medusa is a simple framework that ...": named as a kind of thing at once.
            kind = " is a" in match.group(0) and _KIND_AHEAD.match(text, match.end())
            if match.group(2) or proper[name] or kind:
                found.append((4, match.start(1), name))
    return found


def _described_candidates(text: str) -> list[Candidate]:
    """Coined names described as a kind of thing mid-sentence, whatever the verb before them:
    "we release SlimNet, a compact vision model", "built on TaskBank, a new benchmark"."""
    found: list[Candidate] = []
    starts = literal_starts(text, _DESCRIPTIONS)
    if "-- a" in text:
        # "We start by describing TabM -- a simple model" (rare: one find), in a sentence of
        # the paper's own ("the rise of SWE-Bench -- a benchmark that ..." is another's).
        dashed = [m.start() for m in _DASH_DESCRIPTION.finditer(text)]
        ours = [i for i in dashed if _WE.search(text, _sentence_start(text, i), i)]
        starts = sorted(starts + ours)
    for index in starts:
        head = text.rfind(" ", max(0, index - MAX_NAME), index) + 1
        if text[head:index].islower():
            continue  # most ", a": an ordinary word before it
        name = strip_token(text[head:index])
        article = text.index(" a", index)  # ", a ", " -- a ", ", an "
        after = article + len(" a ") + (text[article + 2] == "n")
        after = skip_over(_NOVEL, text, after)
        if not namelike(name):
            # "Our approach results in Satori, a 7B LLM ...": a capitalised word mid-sentence,
            # described as a kind of thing by the paper speaking of its own work, said again.
            if capitalised(name):
                head = _capitalised_run(text, head)  # "with Continuous Ensemble Forecasting, a"
                phrase = text[head:index]
                if (
                    text[head - 2 : head - 1].islower()
                    and _ours_again(text, head, phrase)
                    and _KIND_AHEAD.match(text, after)
                    and not _USES.search(text, _sentence_start(text, head), head)
                ):
                    found.append((4, head, phrase))
            continue
        if _KIND_AHEAD.match(text, after) or _ours_again(text, head, name):
            found.append((4, head, name))
    return found


_WE = re.compile(r"\b(?:[Ww]e|[Oo]ur)\b")


# The paper using another's work ("we compare with Adam, a ...", "our experiments use Llama,
# a ...", "we train on Places, a ..."), not making its own.
_USES = re.compile(
    r"\b(?:us(?:e|es|ed|ing)|compar\w*|evaluat\w*|train\w*|test\w*|appl\w*|benchmark\w*|"
    r"experiment\w*|fine-?tun\w*|adopt\w*|employ\w*|leverag\w*|against|than|baselines?)\b",
    re.IGNORECASE,
)


def _sentence_start(text: str, index: int) -> int:
    return max(text.rfind(brk, 0, index) for brk in _SENTENCE_BREAKS) + 1


def _capitalised_run(text: str, head: int) -> int:
    """Where up to three capitalised words right before the word at `head` begin (a name
    of several words: "Continuous Ensemble Forecasting"), else `head`."""
    for _ in range(3):
        before = text.rfind(" ", max(0, head - 1 - MAX_NAME), head - 1) + 1
        if before <= 0 or not capitalised(text[before : head - 1]):
            break
        head = before
    return head


def _ours_again(text: str, head: int, name: str) -> bool:
    """Whether a sentence of the paper's own ("We address this with ClimODE, a ...") describes
    the name, and the text says it again: its kind ("a continuous-time process") may be no
    word of `NOUNS`."""
    start = max(text.rfind(brk, 0, head) for brk in _SENTENCE_BREAKS) + 1
    if not _WE.search(text, start, head):
        return False
    return text.find(name, head + len(name)) >= 0


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


# A sentence where the paper makes a thing it does not name: "we introduce a new ... algorithm".
_MAKES_UNNAMED = re.compile(
    r"\b(?:we|this (?:paper|work|study|article))\s+(?:\w+ly\s+|also\s+|then\s+|first\s+)?"
    r"(?:propos|introduc|present|develop|design|devis)\w*\s+(?:a|an)\s",
    re.IGNORECASE,
)
_KIND_NEXT = re.compile(r"\s+((?:" + _NOUNS + r"))s?\b", re.IGNORECASE)
_LONG_FORM_HEADS = ("", "The", "Our", "This")
_SMALL_WORDS = frozenset(("of", "for", "by", "with", "and", "in", "on", "to", "via", "the", "a"))
_OUR_BEFORE = re.compile(r"[Oo]ur |novel |new ")
# "our low-rank plus quantized decomposition approach (LQ-LoRA)", "a novel score-based diffusion
# model (LSCD)": a kind of thing the paper makes, and its short form.
# Kinds of a whole method only: "a novel decomposed variant (D-RRWP)", "a new module (X)" name a
# part of one.
_WHOLE_KINDS = (
    r"method|framework|model|approach|algorithm|system|architecture|technique|pipeline|"
    r"strategy|paradigm|scheme|solver|optimi[sz]er|procedure|attack|defen[cs]e|estimator|"
    r"network|agent|family|class|metric|solution|learner|policy"
)
_MADE_KIND_BEFORE = re.compile(
    r"\b(?:[Oo]ur|an?\s+(?:\w+\s+)?(?:novel|new))\s+(?:[\w-]+\s+){0,6}?(?:"
    + _WHOLE_KINDS
    + r")s?\s*$"
)
_OUR_NEW = re.compile(r"\b[Oo]ur\s+(?:(?:novel|new|proposed)\s+)?$")


def _named_next(text: str) -> list[Candidate]:
    """A capitalised long name and its acronym that the paper calls its own ("our novel
    Geometry-Calibrated DRO (GCDRO)"), or that begin the sentence after the paper makes
    something unnamed, with the same kind: "we introduce a new policy optimization algorithm
    for ... . The Average-Constrained Policy Optimization (ACPO) algorithm is ..."."""
    found: list[Candidate] = []
    if "(" not in text:
        return found
    for match in ACRONYM.finditer(text):
        kind = _KIND_NEXT.match(text, match.end())
        if kind is None and not _OUR_BEFORE.search(
            text, max(0, match.start() - 120), match.start()
        ):
            continue  # no rule can hold (most acronyms): no expansion to find
        acronym = strip_token(match.group(1))
        if not namelike(acronym) or two_capitals(acronym):
            continue
        if _MADE_KIND_BEFORE.search(text, max(0, match.start() - 120), match.start()):
            found.append((4, match.start(), acronym))
            continue
        start = expansion_start(acronym, text, match.start())
        if start is None:
            continue
        if not all(
            word[:1].isupper() or word in _SMALL_WORDS
            for word in text[start : match.start()].split()
        ):
            continue  # a capitalised long name ("Learning by Invariant Measure"), not a topic's
        if _OUR_NEW.search(text, max(0, start - 20), start):
            # "resulting in our novel Geometry-Calibrated DRO (GCDRO) for ...", "Our Dynamics
            # Stable Learning by Invariant Measure (DySLIM) objective": the paper's own.
            found.append((4, match.start(), acronym))
            continue
        head = _sentence_start(text, start)
        if head == 0 or text[head:start].strip() not in _LONG_FORM_HEADS:
            continue  # the long name does not begin a sentence after another
        if kind is None:
            continue
        before = _sentence_start(text, head - 1)
        made = _MAKES_UNNAMED.search(text, before, head)
        same_kind = r"\b" + re.escape(kind.group(1)) + r"s?\b"
        if made and re.search(same_kind, text[made.end() : head], re.IGNORECASE):
            found.append((4, match.start(), acronym))
    return found


# What a solving verb names its means after: "with GRAIL", "via FlexNet", "through X".
_SOLVED_BY = re.compile(r"\s+(?:\S+\s+){0,5}?(?:with|via|through)\s+")
_CLAUSE_AFTER = re.compile(r" (?:which|that|to|for|by|in|on|and)\b")


def _solved_with(text: str, after: int) -> Candidate | None:
    """A coined word by means of which the paper solves what it posed, said again: "We address
    these limitations with GRAIL, introducing ... GRAIL employs ..." (a solving verb only: "we
    compare with GPT-4" names another's model)."""
    means = _SOLVED_BY.match(text, after)
    if means is None or "." in means.group():
        return None
    token = TOKEN.match(text, means.end())
    if token is None or token.group().islower():
        return None  # "with a", "via the": most of them
    name = strip_token(token.group())
    if not namelike(name) or own_count(text, name) < 2:
        return None
    end = means.end() + token.group().find(name) + len(name)
    if not (SET_OFF.match(text, end) or _CLAUSE_AFTER.match(text, end)):
        return None  # "with GPT-4 prompts": a word of a longer phrase
    return (4, end - len(name), name)
