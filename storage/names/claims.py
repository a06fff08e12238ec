"""A coined name the abstract's results claim speaks of (for names.derive's guesses).

"Extensive evaluations demonstrate that PF3plat sets a new state-of-the-art", "our LLM-CXR
trained in this approach shows better alignment", "Experiments show our StreamVAE outperforms
...": papers that never introduce their method with a cue still say what wins. A coined word
(namelike: PF3plat, LLM-CXR) as the subject of a winning verb, after "that", "our" or a
sentence start, is the method's name when no cue states one; a plain word never is.

`shown_claim` is the strict form the name shown (`derive_name`) takes: the winning verb right
after the name ("PF3plat sets", "DPSM significantly outperforms", not "Top-K techniques
improve" or "our 7B language model achieves"), and a name the text defines as a short form
("Sparse autoencoders (SAEs) are a popular method") only where the paper makes it ("we propose
... (DPSM)"): else it is the field's (SAEs, FedAvg), which the paper studies, not its method;
and no finding of the paper's own ("we find that FedAvg achieves"), which is about another's.
"""

from __future__ import annotations

import re

from papershelf.storage.names.weak import made_here
from papershelf.storage.names.words import is_generic, namelike, strip_token, two_capitals
from papershelf.storage.text.scan import finditer_at, literal_starts

# "that PF3plat sets", "our LLM-CXR trained ... shows", ". SlimNet achieves": what begins the
# subject, the coined word, then (after at most a few words) a verb of winning.
_CLAIM = re.compile(
    r"(?:\bthat\s+(?:our\s+)?|\b[Oo]ur\s+(?:proposed\s+|new\s+)?|(?:^|[.!?]\s+))"
    r"(?P<name>[^\s,;:()]+)"
    r"(?:\s+[a-z][\w-]*){0,5}?\s+"
    r"(?:consistently\s+|significantly\s+|substantially\s+|also\s+|not only\s+)?"
    r"(?:achiev|outperform|surpass|set|sets|establish|attain|reach|improv|beat|exceed|"
    r"deliver|yield|show|demonstrat|match|rival|obtain)\w*\b"
)
_WORDS = ("achiev", "outperform", "surpass", " sets ", "establish", "attain", "improv", "exceed")


# Every _CLAIM match begins at one of these (or at 0): tried only there, not at every position.
_CLAIM_STARTS = ("that ", "our ", "Our ", ". ", "! ", "? ")


def claimed_name(text: str) -> str | None:
    """The first coined word a results claim makes its subject, or None."""
    return _claimed(text, strict=False)


def shown_claim(text: str) -> str | None:
    """The first coined word a claim makes its subject with the verb right after it, not in a
    finding ("we find that X ..."), nor defined as a short form where the paper makes nothing
    (the module docstring)."""
    return _claimed(text, strict=True)


# After the name, in a strict claim: at most two adverbs or modals, then the winning verb.
_VERB_NEXT = re.compile(
    r"\s+(?:(?:consistently|significantly|substantially|also|can|could|not only|further|"
    r"clearly|still|even)\s+){0,2}"
    r"(?:achiev|outperform|surpass|sets\b|establish|attain|reach|improv|beat|exceed|deliver|"
    r"yield|show|demonstrat|match|rival|obtain)"
)


# "we find that", "we further prove that": the paper's finding about what follows.
# "an analysis demonstrating that": likewise.
_FINDING = re.compile(
    r"(?:\b[Ww]e\s+(?:\w+ly\s+|also\s+|further\s+)?\w+|\b(?:show|prov|demonstrat|find)ing)"
    r"\s+that\b"
)
_BREAKS = (". ", "! ", "? ")


def _finding(text: str, match: re.Match[str]) -> bool:
    """Whether the claim is a finding the sentence states of the paper's own before it ("We
    prove that ..., and that FedAvg achieves"), not of "our" method: about another's then."""
    if "our " in match.group(0)[:10]:
        return False  # "we show that our VP-OR outperforms": its own
    sentence = max(text.rfind(brk, 0, match.start()) for brk in _BREAKS) + 1
    return _FINDING.search(text, sentence, match.start() + 4) is not None


def _claimed(text: str, strict: bool) -> str | None:
    lowered = text.lower()
    if not any(word in lowered for word in _WORDS) and " show" not in lowered:
        return None  # no claim of winning at all (no scan)
    starts = [0, *literal_starts(text, _CLAIM_STARTS)]
    for match in finditer_at(_CLAIM, text, starts):
        name = strip_token(match.group("name"))
        if not namelike(name) or is_generic(name) or two_capitals(name):
            continue
        if strict and _finding(text, match):
            continue  # "We find that FedAvg achieves ...": a finding about another's method
        if strict and not _VERB_NEXT.match(text, match.end("name")):
            continue  # "Top-K techniques improve": the name qualifies the subject, is not it
        defined = text.find("(" + name + ")") if strict else -1
        if defined >= 0 and not made_here(text, defined):
            continue  # "Sparse autoencoders (SAEs) are ...": a field's short form
        return name
    return None
