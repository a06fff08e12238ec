"""`Hit`, one search result, and how thousands of them are built quickly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from storage.query_text import Spans


class Explainer:
    """Whatever can work out a hit's terms and spans: `details(index) -> (terms, spans)`."""

    def details(self, index: int) -> tuple[tuple[str, ...], Mapping[str, Spans]]:
        raise NotImplementedError


class _Given(Explainer):
    """Terms and spans handed to `Hit(...)` directly."""

    __slots__ = ("value",)

    def __init__(self, terms: tuple[str, ...], spans: Mapping[str, Spans]) -> None:
        self.value = (terms, spans)

    def details(self, index: int) -> tuple[tuple[str, ...], Mapping[str, Spans]]:
        return self.value


NO_DETAILS = _Given((), {})


@dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Hit:
    """One paper matching a query.

    `terms` (the words of the paper's text that matched, e.g. "diffusion" for `difusion`) and
    `spans` (field -> sorted, non-overlapping (start, end) offsets in `field_text`) are computed
    on first access and then kept, so that listing 10k hits per keystroke stays cheap.
    """

    paper_id: str
    score: float
    field: str
    """Field of the best-scoring match: "name" | "title" | "tags" | "note" | "abstract" | ""."""
    _explainer: Explainer
    _index: int

    def __init__(
        self,
        paper_id: str,
        score: float,
        field: str,
        terms: Sequence[str] = (),
        spans: Mapping[str, Spans] | None = None,
    ) -> None:
        object.__setattr__(self, "paper_id", paper_id)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "_explainer", _Given(tuple(terms), dict(spans or {})))
        object.__setattr__(self, "_index", -1)

    @property
    def terms(self) -> tuple[str, ...]:
        """Words of the paper's text that matched the query's words, as written there."""
        return self._explainer.details(self._index)[0]

    @property
    def spans(self) -> Mapping[str, Spans]:
        """Field -> match spans in that field's text (see `field_text`)."""
        return self._explainer.details(self._index)[1]

    def _key(self) -> tuple[object, ...]:
        return (self.paper_id, self.score, self.field, self.terms, dict(self.spans))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hit) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.paper_id, self.score, self.field))

    def __repr__(self) -> str:
        return f"Hit({self.paper_id!r}, score={self.score}, field={self.field!r})"


_HIT_NEW = object.__new__
_SET_ID = Hit.__dict__["paper_id"].__set__
_SET_SCORE = Hit.__dict__["score"].__set__
_SET_FIELD = Hit.__dict__["field"].__set__
_SET_EXPLAINER = Hit.__dict__["_explainer"].__set__
_SET_INDEX = Hit.__dict__["_index"].__set__


def add_hits(
    hits: list[Hit],
    paper_ids: Sequence[str],
    ids: Sequence[int],
    score: float,
    field: str,
    explainer: Explainer,
) -> None:
    """Append hits for paper_ids[ids], all with one score and field.

    Built without the frozen dataclass __init__: setting the slots through their descriptors is
    3x faster than `object.__setattr__` per field, and a search may list every paper on every
    keystroke.
    """
    append = hits.append
    for i in ids:
        hit = _HIT_NEW(Hit)
        _SET_ID(hit, paper_ids[i])
        _SET_SCORE(hit, score)
        _SET_FIELD(hit, field)
        _SET_EXPLAINER(hit, explainer)
        _SET_INDEX(hit, i)
        append(hit)
