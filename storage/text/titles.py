"""A paper's title as every screen, command and export shows it (LaTeX as Unicode).

The stored title stays what the file said (`Paper.title`); this is a view of it, like
`storage.text.latex.display_text` is of an abstract. Kept apart from `storage.text.latex` so that
`papershelf list`, which prints titles, imports the LaTeX tables (~25 ms) only when a title
needs them.
"""

from __future__ import annotations


def marked_up(text: str) -> bool:
    """Whether `display_text` may show `text` otherwise than as written (cleaning aside): it
    holds math, a LaTeX command, Markdown emphasis or `---`."""
    # Five scans in C: a regex alternation took 25 us an abstract (0.3 s for 10k).
    return "$" in text or "\\" in text or "*" in text or "_" in text or "---" in text


def shown_text(text: str) -> str:
    """`display_text(text).text`: what a person reads of an abstract (or any paper text)."""
    if not marked_up(text):
        return text
    from papershelf.storage.text.latex import display_text

    return display_text(text).text


def display_title(title: str | None) -> str:
    """The title as shown: math as Unicode, text accents and emphasis markers resolved ("" for
    no title); nothing else changes (a control character stays, for the screen's stand-in)."""
    if not title:
        return ""
    if not marked_up(title):
        return title
    from papershelf.storage.text.latex import title_text  # only for a title that may need it

    return title_text(title)
