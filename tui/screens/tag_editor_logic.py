"""The tag editor's logic: reading what was typed, the pending edit, and completion."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from textual.suggester import Suggester

from papershelf.storage.model import normalise_tag

Op = Literal["add", "remove"]


@dataclass(frozen=True, slots=True)
class TagChange:
    """Tags to add to, and tags to remove from, every edited paper (disjoint sets)."""

    add: frozenset[str]
    remove: frozenset[str]


def parse_tag_input(text: str) -> list[tuple[Op, str]]:
    """Read what was typed: comma-separated tags, each `-tag` to remove or `tag`/`#tag` to add.

    Raises ValueError with a message for the user when a part is not a usable tag.
    """
    edits: list[tuple[Op, str]] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        op: Op = "remove" if part.startswith("-") else "add"
        raw = part[1:] if op == "remove" else part
        if op == "remove" and not raw.strip():
            raise ValueError("type a tag after '-' to remove it")
        edits.append((op, normalise_tag(raw)))
    return edits


class TagEdits:
    """The pending edit of the tags of `paper_count` papers (pure logic, no Textual).

    `counts[tag]` is how many of the papers carry `tag`; a tag in `current` without a count is
    taken to be on some but not necessarily all of them.
    """

    def __init__(self, paper_count: int, current: Iterable[str], counts: Mapping[str, int]) -> None:
        self.paper_count = max(1, paper_count)
        self.current = frozenset(current)
        self.counts = {tag: counts[tag] for tag in self.current if tag in counts}
        if self.paper_count == 1:
            self.counts = dict.fromkeys(self.current, 1)
        self.added: dict[str, None] = {}  # insertion-ordered set
        self.removed: set[str] = set()

    def on_all(self, tag: str) -> bool:
        """Whether every edited paper already carries `tag`."""
        return self.counts.get(tag, 0) >= self.paper_count

    def effective(self, tag: str) -> bool:
        """Whether `tag` will be on at least one paper once the edit is applied."""
        return (tag in self.added or tag in self.current) and tag not in self.removed

    def add(self, tag: str) -> None:
        """Put `tag` on every paper."""
        self.removed.discard(tag)
        if not self.on_all(tag):
            self.added[tag] = None

    def remove(self, tag: str) -> bool:
        """Take `tag` off every paper; False when no paper has it and it was not being added."""
        if tag not in self.current and tag not in self.added:
            return False
        self.added.pop(tag, None)
        if tag in self.current:
            self.removed.add(tag)
        return True

    def toggle(self, tag: str) -> None:
        """Undo a pending removal or addition of `tag`, else mark it for removal."""
        if tag in self.removed:
            self.removed.discard(tag)
        elif tag in self.added:
            del self.added[tag]
        else:
            self.removed.add(tag)

    def rows(self) -> list[str]:
        """The tags to list: current ones and added ones, sorted."""
        return sorted(self.current | self.added.keys())

    def change(self) -> TagChange | None:
        """The edit as a TagChange, or None when it changes nothing."""
        if not self.added and not self.removed:
            return None
        return TagChange(add=frozenset(self.added), remove=frozenset(self.removed))


class TagSuggester(Suggester):
    """Completes the last comma-separated part: `x` from known tags, `-x` from removable ones."""

    def __init__(self, known: Sequence[str], removable: Callable[[], Iterable[str]]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.known = known
        self.removable = removable

    async def get_suggestion(self, value: str) -> str | None:
        """The typed text completed to a whole tag, or None."""
        head, comma, last = value.rpartition(",")
        stripped = last.lstrip()
        lead = head + comma + last[: len(last) - len(stripped)]
        marker = stripped[:1] if stripped[:1] in ("-", "#", "+") else ""
        stem = stripped[len(marker) :]
        if not stem:
            return None
        pool = sorted(self.removable()) if marker == "-" else self.known
        for tag in pool:
            if tag.startswith(stem) and tag != stem:
                return lead + marker + tag
        return None
