"""What a paper is called where one line names it: the CLI's lines, `show`, the export's items.

A paper has a derived name and maybe a title. Shown side by side they often say the same words
twice: a headline name is the title's own first words (`Scaling Laws for…` beside `Scaling
Laws for Sparse Models`), and a title like `PANDAS: Improving Many-shot Jailbreaking` already
begins with the name. `heading` gives each word once: the whole title alone when it holds the
name, else the name with the title beside it. Both come as display text (LaTeX as Unicode).
"""

from __future__ import annotations

import re

from storage.latex import latex_to_unicode
from storage.names import name_restates_title

__all__ = ["heading"]

# What may follow a name at the start of a title that begins with it: "X: ...", "X - ...",
# "X — ...", "X, ...", or the end of the title.
_AFTER_NAME = re.compile(r"\s*(?:[:,;\u2013\u2014-]|$)")


def heading(name: str, title: str | None) -> tuple[str, str | None]:
    """(the words that head the paper, the title to show after them or None).

    The name heads unless the title says it already (it begins with the name, or the name is
    only the title's headline): then the whole title heads, alone. An empty name gives way to
    the title too.
    """
    shown_title = " ".join(latex_to_unicode(title).split()) if title else ""
    if not shown_title:
        return name, None
    if shown_title.casefold() == name.casefold():
        return name, None
    if not name.strip() or name_restates_title(name, title):
        return shown_title, None
    if _begins_with(shown_title, name):
        return shown_title, None
    return name, shown_title


def _begins_with(title: str, name: str) -> bool:
    """Whether `title` starts with the whole of `name` (case aside), as a word of its own."""
    size = len(name)
    if title[:size].casefold() != name.casefold():
        return False
    return _AFTER_NAME.match(title, size) is not None
