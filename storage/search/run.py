"""One search (`SearchRun`): a parsed query's terms as paper bitsets and scoring tiers, the
ranking of the papers that satisfy every clause, and, when a hit is read, its matched words and
spans. `EntryData` is the user's entries as searches read them (tags, notes, statuses).

Split out of `search.engine`, which keeps what lasts between searches (the papers, the index and
the caches); a `SearchRun` lives as long as the `Results` it explains.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache, partial
from typing import TYPE_CHECKING

from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.highlight import (
    FIELDS,
    Spans,
    field_text,
    folded_prefix,
    folded_spans,
    merge_spans,
)
from papershelf.storage.search.hits import Explainer, Results
from papershelf.storage.search.parse import TOKEN_RE, Query, Term, fold_text, words_of
from papershelf.storage.search.postings import bits_to_ids, ids_to_bits
from papershelf.storage.search.quality import (
    EXACT,
    FIELD_WEIGHTS,
    FINISHED_PREFIX,
    INFIX_FIELDS,
    PREFIX,
    Tier,
    WordMatch,
    match_quality,
    saturated,
    word_idf,
)
from papershelf.storage.search.rank import add_group, add_ranked, best_fields, score_groups
from papershelf.storage.text.titles import marked_up

if TYPE_CHECKING:
    from papershelf.storage.search.engine import SearchEngine

_DEFAULT_ENTRY = Entry()


class SearchCancelled(Exception):
    """A search given up between two of its steps because its `cancelled()` said so (a newer
    key's search is waiting): it delivers nothing and keeps nothing in the caches."""


Cancelled = Callable[[], bool]
"""Asked between a search's steps (each term, the ranking, the first screen): True gives up."""


class EntryData:
    """The user's entries as searches use them: by paper index, tokenized, per-word tiers."""

    def __init__(self, snapshot: dict[str, Entry], position: Mapping[str, int]) -> None:
        self.snapshot = snapshot
        self.pairs = [
            (position[paper_id], entry)
            for paper_id, entry in snapshot.items()
            if paper_id in position and not entry.is_default
        ]
        self.tokens: dict[str, dict[str, list[int]]] = {"tags": {}, "note": {}}
        for i, entry in self.pairs:
            for tag in entry.tags:
                for token in set(words_of(tag)):
                    self.tokens["tags"].setdefault(token, []).append(i)
            if entry.note:
                for token in set(words_of(entry.note)):
                    self.tokens["note"].setdefault(token, []).append(i)
        self._words: dict[str, list[Tier]] = {}

    def word_tiers(self, word: str, size: int) -> list[Tier]:
        """Tiers of papers whose tags or note match one query token."""
        tiers = self._words.get(word)
        if tiers is None:
            tiers = []
            for field, tokens in self.tokens.items():
                by_quality: dict[int, list[int]] = {}
                for token, ids in tokens.items():
                    quality = _quality(word, token, True)
                    if quality:
                        by_quality.setdefault(quality, []).extend(ids)
                for quality, ids in by_quality.items():
                    tiers.append(
                        Tier(FIELD_WEIGHTS[field] * quality, field, ids_to_bits(ids, size))
                    )
            if len(self._words) > 256:
                self._words.clear()
            self._words[word] = tiers
        return tiers


class SearchRun(Explainer):
    """One search: the query, the entries, and what the hits need to explain themselves."""

    def __init__(
        self,
        engine: SearchEngine,
        query: Query,
        entries: Mapping[str, Entry],
        cancelled: Cancelled | None = None,
    ) -> None:
        self.engine = engine
        self._cancelled = cancelled
        self.index = engine._index
        self.query = query
        self.entries = entries
        self.all_bits = self.index.all_bits
        self.entry_data = engine._entry_data(entries)
        # Positive words, exact values and prefixes, each with the fields it may be found in
        # (None: the fields of its kind), for the hits' terms and spans.
        self.words: list[tuple[WordMatch, frozenset[str] | None]] = []
        self.exacts: list[tuple[str, frozenset[str] | None]] = []
        self.prefixes: list[tuple[str, frozenset[str] | None]] = []
        self._explained: dict[int, tuple[tuple[str, ...], Mapping[str, Spans]]] = {}
        self._typing = _typing_term(query)
        """The word term still being typed (the query's last, no space after it), if any."""
        self._field_spans: dict[tuple[int, str], Spans] = {}

    # --- entries ---------------------------------------------------------------------------

    def _entries_by_index(self) -> list[tuple[int, Entry]]:
        return self.entry_data.pairs

    def _entry_bits(self, predicate: Callable[[Entry], bool]) -> int:
        ids = [i for i, entry in self.entry_data.pairs if predicate(entry)]
        return ids_to_bits(ids, self.index.size)

    # --- terms -----------------------------------------------------------------------------

    def word_tiers(self, word: str, fields: tuple[str, ...] = ()) -> tuple[int, list[Tier]]:
        """Papers matching one query token in any field (or only in `fields`), and its tiers
        (best first)."""
        if fields:
            # A field key names indexed fields only (`FIELD_KEYS`): no tags or notes.
            match = self.index.match_word(word, fields)
            return match.bits, list(match.tiers)
        match = self.index.match_word(word)
        extra = self.entry_data.word_tiers(word, self.index.size)
        if not extra:
            return match.bits, list(match.tiers)
        tiers = sorted([*match.tiers, *extra], key=lambda tier: -tier.weight)
        bits = match.bits
        for tier in extra:
            bits |= tier.bits
        return bits, tiers

    def text_tiers(
        self, value: str, prefix: bool, only: tuple[str, ...] = ()
    ) -> tuple[int, list[Tier]]:
        """Papers where a field contains `value` (or, for ^, where name/title starts with it);
        `only`: the fields a field key names instead."""
        size = self.index.size
        tiers: list[Tier] = []
        fields = only or (("name", "title") if prefix else ("name", "title", "abstract"))
        for field in fields:
            if prefix:
                bits = ids_to_bits(self.engine.prefix_ids(field, value), size)
            elif field == "abstract":
                bits = self.engine.abstract_bits(value)  # from the index: no scan
            else:
                bits = self.engine.substring_bits(field, value)
            tiers.append(Tier(FIELD_WEIGHTS[field] * EXACT, field, bits))
        if not prefix and not only:
            for field in ("tags", "note"):
                ids = [
                    i
                    for i, entry in self._entries_by_index()
                    if value in fold_text(field_text(_NO_PAPER, entry, field))
                ]
                tiers.append(Tier(FIELD_WEIGHTS[field] * EXACT, field, ids_to_bits(ids, size)))
        tiers = [tier for tier in tiers if tier.bits]
        tiers.sort(key=lambda tier: -tier.weight)
        bits = 0
        for tier in tiers:
            bits |= tier.bits
        return bits, tiers

    def filter_bits(self, term: Term) -> int:
        """Papers satisfying a filter term (tag, is, has, venue, year), ignoring negation."""
        kind, value = term.kind, term.value
        if kind == "year":
            if term.years is None:
                return 0  # not a year: an error the query carries
            first, last = term.years
            bits = 0
            for year, year_bits in self.engine.flags.years.items():
                if first <= year <= last:
                    bits |= year_bits
            return bits
        if kind == "tag":
            if not value:
                return 0
            return self._entry_bits(
                lambda e: any(tag == value or tag.startswith(value) for tag in e.tags)
            )
        if kind == "venue":
            bits = 0
            for venue, venue_bits in self.engine.flags.venues.items():
                if value in venue:
                    bits |= venue_bits
            return bits
        bits = 0
        for choice in term.choices:
            if choice == "unread":
                bits |= self.all_bits & ~self._entry_bits(lambda e: e.status != "unread")
            elif choice in ("reading", "read"):
                bits |= self._entry_bits(lambda e, s=choice: e.status == s)
            elif choice == "starred":
                bits |= self._entry_bits(lambda e: e.starred)
            elif choice == "code":
                bits |= self.engine.flags.code
            elif choice == "links":
                bits |= self.engine.flags.links
            elif choice == "note":
                bits |= self._entry_bits(lambda e: bool(e.note))
            elif choice == "tags":
                bits |= self._entry_bits(lambda e: bool(e.tags))
        return bits

    def term(self, term: Term, record: bool) -> tuple[int, list[list[Tier]]]:
        """Papers matching a term (ignoring negation) and its scoring units.

        `record` keeps what the term matched, for the hits' terms and spans.
        """
        fields = term.fields
        where = frozenset(fields) if fields else None
        if term.kind == "word":
            bits = self.all_bits
            units: list[list[Tier]] = []
            last = len(term.tokens) - 1 if term is self._typing else -1
            for number, token in enumerate(term.tokens):
                token_bits, tiers = self.word_tiers(token, fields)
                bits &= token_bits
                units.append(tiers if number == last else _finished(tiers))
                if record:
                    match = self.index.match_word(token, *((fields,) if fields else ()))
                    self.words.append((match, where))
            return bits, units
        if term.kind in ("exact", "prefix"):
            bits, tiers = self.text_tiers(term.value, term.kind == "prefix", fields)
            if record:
                found = self.prefixes if term.kind == "prefix" else self.exacts
                found.append((term.value, where))
            return bits, [tiers]
        return self.filter_bits(term), []

    # --- the search ------------------------------------------------------------------------

    def _check(self) -> None:
        """Give up (`SearchCancelled`) when `cancelled()` says a newer search waits."""
        if self._cancelled is not None and self._cancelled():
            raise SearchCancelled

    def run(self) -> Results:
        """The ranked results; between its steps (each term, the ranking, the first screen's
        hits) it asks `cancelled()` and gives up when a newer search waits for the engine."""
        result = self.all_bits
        units: list[list[Tier]] = []
        for clause in self.query.clauses:
            clause_bits = 0
            clause_units: list[list[Tier]] = []
            for term in clause:
                self._check()
                bits, term_units = self.term(term, record=not term.negated)
                if term.negated:
                    clause_bits |= self.all_bits & ~bits
                else:
                    clause_bits |= bits
                    clause_units.extend(term_units)
            result &= clause_bits
            if len(clause) == 1:
                units.extend(clause_units)
            elif clause_units:
                # Alternatives: a paper scores what its best alternative scores.
                merged = [tier for unit in clause_units for tier in unit]
                merged.sort(key=lambda tier: -tier.weight)
                units.append(merged)
        hits = Results(self.engine._ids, self.engine._position, self)
        self._check()
        self._rank(hits, result, units)
        self._check()
        hits.fill(_FIRST_SCREEN)  # here, in the searching thread, not in the UI's
        return hits

    def _rank(self, hits: Results, result: int, units: list[list[Tier]]) -> None:
        """Add the papers of `result` to `hits`, best first (groups are listed when read)."""
        if not units:
            hits.add_later(result, partial(_add_all, result=result))
            return
        size = self.index.size
        if len(units) == 1:
            # One scoring unit: its tiers, best first, are the ranking; no sort needed. Tiers of
            # equal weight (a typo in the name, the exact word in the abstract) are one rank:
            # their papers in library order, as ties are everywhere else.
            assigned = 0
            tiers = units[0]
            idf = _unit_idf(tiers, size)
            start = 0
            while start < len(tiers):
                end = start + 1
                while end < len(tiers) and tiers[end].weight == tiers[start].weight:
                    end += 1
                self._add_rank(hits, tiers[start:end], result, assigned, idf)
                for tier in tiers[start:end]:
                    assigned |= tier.bits & result
                start = end
            return
        # Papers of equal score as one bitset each (`search.rank`): no loop over the papers. A
        # tier scores its saturated weight times its word's idf (`search.quality`); its own
        # weight still orders the tiers and picks each paper's field.
        # Then the best `_LENGTH_RANKED` hits or so again, their abstract tiers weighed by the
        # abstract's length too (BM25's b). All of them took several times a keystroke's
        # budget at 100k papers, for a change that matters where a person looks.
        every = [tier for unit in units for tier in unit]
        fields = best_fields(result, every, FIELDS)
        self._check()
        idfs = [_unit_idf(unit, size) for unit in units]
        if result.bit_count() <= _LENGTH_RANKED:
            top, groups = result, {}
        else:
            weights = [
                [saturated(tier.weight) * (tier.idf or idf) for tier in unit]
                for unit, idf in zip(units, idfs, strict=True)
            ]
            groups = score_groups(result, units, weights)
            top, count = 0, 0
            for score in sorted(groups, reverse=True):
                if count >= _LENGTH_RANKED:
                    break
                group = groups.pop(score)
                top |= group
                count += group.bit_count()
        self._check()
        # `top` scored again one length bucket at a time: in bucket b, an abstract tier weighs
        # what an abstract of b's length makes it, the other tiers as before. The same sums as
        # one pass over `top` with each abstract tier split into its buckets' parts, but each
        # group of a bucket tries its units' tiers, not five parts of each abstract tier.
        for length, bucket in self.index.lengths.buckets():
            part = top & bucket
            if not part:
                continue
            weights = [
                [
                    saturated(tier.weight, length) * (tier.idf or idf)
                    if tier.field == "abstract"
                    else saturated(tier.weight) * (tier.idf or idf)
                    for tier in unit
                ]
                for unit, idf in zip(units, idfs, strict=True)
            ]
            for score, bits in score_groups(part, units, weights).items():
                groups[score] = groups.get(score, 0) | bits
        # The groups hold every paper of `result`: the first pass's those of `result` less
        # those of `top`, the second pass's those of `top`.
        add_ranked(hits, groups, fields, size, result)

    def _add_rank(
        self, hits: Results, tiers: Sequence[Tier], result: int, assigned: int, idf: float
    ) -> None:
        """Add the papers of equally weighted `tiers` not yet `assigned`, in library order,
        each under the field that comes first in FIELDS among these tiers holding it (as the
        ranking of several words names it)."""
        fresh = result ^ assigned  # `assigned` is papers of `result`: no negative int made
        fields = best_fields(fresh, tiers, FIELDS)
        if fields and fields[-1][0] == "":
            fields.pop()  # in none of these tiers: a later rank's
        group = 0
        for _, bits in fields:
            group |= bits
        if group:
            weight, size = saturated(tiers[0].weight) * idf, self.index.size
            fill = partial(add_group, group=group, score=weight, fields=fields, size=size)
            hits.add_later(group, fill)

    # --- explaining one hit ----------------------------------------------------------------

    def _word_matches(self, word: str, field: str) -> bool:
        """Whether a word of a text (as written there) matches a query word, compared folded
        (`K²IE` is the token `k2ie`; a folded word may split, as `½` into `1` and `2`)."""
        if word.isascii():
            return self._token_matches(word.lower(), field)
        return any(self._token_matches(part, field) for part in words_of(word))

    def _token_matches(self, token: str, field: str) -> bool:
        infix = field in INFIX_FIELDS
        for match, where in self.words:
            if field not in (where or _TEXT_FIELDS):
                continue  # a word without a field key does not look in the authors
            word = match.word
            if token.startswith(word) or (infix and len(word) >= 3 and word in token):
                return True
            if field in ("tags", "note"):
                if _quality(word, token, True):
                    return True
            elif token in match.typo_tokens:
                return True
        return False

    def details(self, index: int) -> tuple[tuple[str, ...], Mapping[str, Spans]]:
        """The matched words and spans of paper `index` (worked out once)."""
        value = self._explained.get(index)
        if value is None:
            value = self._explained[index] = self._details(index)
        return value

    def field_spans(self, index: int, field: str) -> Spans:
        """The spans of one field of paper `index` (a list row reads name and title only)."""
        value = self._explained.get(index)
        if value is not None:
            return value[1].get(field, ())
        key = (index, field)
        spans = self._field_spans.get(key)
        if spans is None:
            paper = self.engine._papers[index]
            entry = self.entries.get(paper.id, _DEFAULT_ENTRY)
            spans = self._field_spans[key] = self._field_found(paper, entry, field, {})
        return spans

    def _details(self, i: int) -> tuple[tuple[str, ...], Mapping[str, Spans]]:
        paper = self.engine._papers[i]
        entry = self.entries.get(paper.id, _DEFAULT_ENTRY)
        terms: dict[str, str] = {}
        spans: dict[str, Spans] = {}
        for field in FIELDS:
            found = self._field_found(paper, entry, field, terms)
            if found:
                spans[field] = found
        return tuple(terms.values()), spans

    def _field_found(self, paper: Paper, entry: Entry, field: str, terms: dict[str, str]) -> Spans:
        """Match spans in one field; adds the matched words to `terms` (lower -> as written)."""
        text = field_text(paper, entry, field)
        if not text:
            return ()
        found: list[tuple[int, int]] = []
        if self.words:
            for m in TOKEN_RE.finditer(text):
                word = m.group()
                if self._word_matches(word, field):
                    found.append(m.span())
                    terms.setdefault(word.lower(), word)
            if not found and field == "abstract" and marked_up(paper.abstract):
                # A word only the source has (`alpha` of `$\alpha$`): named, not highlighted.
                for word in TOKEN_RE.findall(paper.abstract):
                    if self._word_matches(word, field):
                        terms.setdefault(word.lower(), word)
        spans: list[tuple[int, int]] = []
        for value, where in self.exacts:
            if field in (where or _TEXT_FIELDS):
                spans += folded_spans(text, value)
        for value, where in self.prefixes:
            if field in (where or _PREFIX_FIELDS):
                span = folded_prefix(text, value)
                if span is not None:
                    spans.append(span)
        for start, end in spans:
            found.append((start, end))
            terms.setdefault(text[start:end].lower(), text[start:end])
        return tuple(merge_spans(found)) if found else ()


_LENGTH_RANKED = 500
"""Hits (whole groups of one score, best first) whose abstract tiers are weighed by length."""
_FIRST_SCREEN = 128
"""Hits a search lists before it returns: more than a screen's rows (the rest when read)."""


def _add_all(hits: Results, result: int) -> None:
    hits.add(bits_to_ids(result), 0.0, "")


_TEXT_FIELDS = frozenset({"name", "title", "tags", "note", "abstract"})
"""Where a word or an exact term without a field key looks (not the authors)."""
_PREFIX_FIELDS = frozenset({"name", "title"})
"""Where a `^` term without a field key looks."""
_NO_PAPER = Paper(id="", name="", title=None, abstract="", venue=None, sources=())


def _unit_idf(tiers: Sequence[Tier], size: int) -> float:
    """The idf of one scoring unit (a word, or alternatives): from the papers any tier holds."""
    bits = 0
    for tier in tiers:
        bits |= tier.bits
    return word_idf(bits.bit_count(), size)


def _typing_term(query: Query) -> Term | None:
    """The query's last term when it is a word the user may still be typing (no space after)."""
    if not query.clauses or query.text[-1:].isspace():
        return None
    term = query.clauses[-1][-1]
    return term if term.kind == "word" and not term.negated else None


def _finished(tiers: list[Tier]) -> list[Tier]:
    """The tiers of a word the user has finished typing: its prefix tiers weaker
    (`FINISHED_PREFIX`), re-sorted (best first)."""
    if not any(tier.prefix for tier in tiers):
        return tiers
    changed = [
        Tier(tier.weight // PREFIX * FINISHED_PREFIX, tier.field, tier.bits, True, tier.idf)
        if tier.prefix
        else tier
        for tier in tiers
    ]
    changed.sort(key=lambda tier: -tier.weight)
    return changed


def _length_of(tier: Tier, length: float) -> float:
    """The length a tier's weight is normalised by: an abstract's, else the average (1)."""
    return length if tier.field == "abstract" else 1.0


@lru_cache(maxsize=65536)
def _quality(word: str, token: str, infix: bool) -> int:
    return match_quality(word, token, infix)
