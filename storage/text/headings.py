"""What a paper is called where one line names it: the CLI's lines, `show`, the export's items.

A paper has a derived name and maybe a title. Shown side by side they often say the same words
twice: a headline name is the title's own first words (`Scaling Laws for…` beside `Scaling
Laws for Sparse Models`), and a title like `PANDAS: Improving Many-shot Jailbreaking` already
begins with the name. `heading` gives each word once: the whole title alone when it begins with
the name, else the name with the title beside it. The title comes as display text (LaTeX as
Unicode); names already are.

`papershelf list` calls this for every line: it imports nothing heavy (the LaTeX converter only
for a title that has LaTeX in it) and compares prefixes instead of deriving headlines.
"""

from __future__ import annotations

from papershelf.storage.text.titles import display_title

__all__ = ["heading", "heading_fields", "name_split"]

_CUT = "\u2026"  # the ellipsis a headline cut short ends with
_LONG = 24
"""Letters and digits from which a name that is the start of the title is taken to be the
title's words cut at the name's length limit (`Bilevel-Optimization-under-Unbounded-Smo`)."""


def heading(name: str, title: str | None) -> tuple[str, str | None]:
    """(the words that head the paper, the title to show after them or None).

    The name heads unless the title says it already: the title begins with the name as a
    whole word (`PANDAS: …`), or the name is the title's headline (its first words, maybe cut
    with `…`). Then the whole title heads, alone. An empty name gives way to the title too.
    """
    shown = _display(title) if title else ""
    if not shown:
        return name, None
    if shown.casefold() == name.casefold():
        return name, None
    if not name.strip() or _begins_with(shown, name):
        return shown, None
    return name, shown


def _display(title: str) -> str:
    """The title as one line of display text (`papershelf.storage.text.titles`)."""
    return " ".join(display_title(title).split())


def _begins_with(title: str, name: str) -> bool:
    """Whether `title` starts with the words of `name`, compared by letters and digits alone
    (`Depth-Anything-V2` is `Depth Anything V2`, `RIP` is `R.I.P.`), ending there as a word;
    or `name` is those words cut short: with `…`, or a long name cut at its limit."""
    cut = name.endswith(_CUT)
    end = _name_end(title, name)
    if end is None:
        return False
    size = len(_letters(name))
    return cut or size >= _LONG or not title[end : end + 1].isalnum()


def _letters(name: str) -> str:
    """The letters and digits of a name, case-folded, without a trailing `…`."""
    return "".join(ch for ch in name.removesuffix(_CUT).casefold() if ch.isalnum())


def _name_end(title: str, name: str) -> int | None:
    """The index in `title` just past its first letters and digits that spell `name`'s
    (compared as `_begins_with` does); None when the title does not begin with them."""
    wanted = _letters(name)
    if not wanted:
        return None
    size = len(wanted)
    matched = 0
    for index, ch in enumerate(title):
        if not ch.isalnum():
            continue
        folded = ch.casefold()
        if wanted[matched : matched + len(folded)] != folded:
            return None
        matched += len(folded)
        if matched >= size:
            return index + 1
    return None


_SEPARATORS = (":", " - ", " \u2013 ", " \u2014 ", "\u2014", " | ")
"""What stands between a name and the rest of a title (`PANDAS: Improving…`)."""


def name_split(name: str, title: str) -> tuple[int, int] | None:
    """Where the name ends in `title` and where the words after it start, when the title is
    the name, a separator (`:`, a dash) and more words: `PANDAS: Improving Many-shot…` gives
    (6, 8), so a row can show `PANDAS  Improving Many-shot…`, each word once. None when the
    title does not begin with the whole name followed by a separator (a headline name, a name
    the title only starts with: `Graph` in `GraphCast: …`), or nothing follows it.

    The offsets index into `title` as given (the text search spans index into).
    """
    if name.endswith(_CUT):
        return None
    end = _name_end(title, name)
    if end is None:
        return None
    while title[end : end + 1] in (".", "!", "?", ")") and end < len(title):
        end += 1  # the name as the title writes it: `R.I.P.`, `Yes!`
    rest = title[end:]
    for separator in _SEPARATORS:
        if rest.startswith(separator):
            start = end + len(separator)
            while start < len(title) and title[start].isspace():
                start += 1
            return (end, start) if start < len(title) else None
    return None


def heading_fields(name: str, title: str | None) -> tuple[str, str | None]:
    """`heading` as the fields a screen draws (their matches are highlighted in place): the
    heading's (`"name"` or `"title"`) and the one beside or below it (`"title"` or None)."""
    head, below = heading(name, title)
    if below is not None:
        return "name", "title"
    if title and head != name:
        return "title", None
    return "name", None
