"""The inverted index behind `search.engine`: vocabulary, postings, word matching.

A paper set is a Python int used as a bitset (`search.postings`). Each indexed field (name, title,
authors, abstract) maps every token of the sorted vocabulary (by its position, the token id) to
its postings, a bitset when dense and packed uint32 ids when sparse (whichever is smaller), all
packed in one buffer per field (`FieldPostings`), so a saved index loads without rebuilding a
Python object per token. A query word is matched against the sorted vocabulary
(`search.vocabulary`: prefix ranges by bisect, typos by rapidfuzz over the distinct prefixes of
the right lengths, infixes in the name and title tokens), and the papers of all matching tokens
are ORed per field and match quality; results are cached per word and fields.

A fifth column, `repeats`, holds for every token the papers whose abstract says it twice or more:
a word a paper keeps coming back to is what the paper is about (BM25's term frequency, in the
one bucket that matters most, kept as postings so a search stays a few bitset operations).
"""

from __future__ import annotations

import os
import sys
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from papershelf.storage.caches.frame import load_or_build
from papershelf.storage.model import Paper, abstract_length
from papershelf.storage.search.lengths import Lengths, length_code
from papershelf.storage.search.lru import Lru, bitset_weight
from papershelf.storage.search.parse import TOKEN_RE, fold_text, words_of
from papershelf.storage.search.postings import (
    FieldPostings,
    Posting,
    Postings,
    bits_to_ids,
    bitset_words,
    views_to_bits,
)
from papershelf.storage.search.quality import (
    EXACT,
    FIELD_WEIGHTS,
    INFIX,
    INFIX_FIELDS,
    PREFIX,
    REPEATED_WEIGHT,
    Tier,
    WordMatch,
    likely_typos,
    word_idf,
)
from papershelf.storage.search.vocabulary import Vocabulary
from papershelf.storage.text.authors import authors_text
from papershelf.storage.text.titles import display_title, shown_text

INDEXED_FIELDS = ("name", "title", "authors", "repeats", "source", "abstract")
"""The indexed columns: four fields of a paper, `repeats` (abstract tokens said twice or more),
which is no field of its own: its matches are abstract matches that score higher, and `source`
(abstract tokens only its LaTeX source has, `mathbb` of `$\\mathbb{R}$`: where an exact `'`
term must read the text, see `containing_bits`). The abstract comes last, as it did before
`repeats`: a listing's postings end with its ids."""
WORD_FIELDS = ("name", "title", "abstract")
"""The indexed fields a word without a field key looks in: not the authors, whose names (Long,
Wang, Graph) would add noise to every topic search; `author:` looks there."""
_FILE_FORMAT = 14
"""search-index.bin's format number; 6: the `storage.caches.frame` frame, with a checksum; 7: words
split at `_`, folded (`k2ie` for `K²IE`), and the words of the text as shown indexed too; 8: the
authors indexed (a fourth field), and keyed by them too; 9: `æ`, `œ`, `þ` folded to `ae`, `oe`,
`th` (`text.fold`), and a corporate author indexed without its braces (`authors_text`); 10: the
papers of each first letter's tokens and of the broadest two- and three-letter prefixes saved
too (`prefix_groups`); 11: the `repeats` column; 12: the abstracts' lengths (`search.lengths`)
and the `source` column; 13: the postings in a section of their own, checked in blocks, which
`papershelf list` reads in place (`search.index_file`); 14: the words of the text as shown with
single-`*` emphasis read by CommonMark's flanking rules (`text.latex`)."""
FORMAT = f"papershelf-search-index {_FILE_FORMAT} {sys.byteorder}"
"""Changes with the saved layout (and the byte order of packed ids): other caches are ignored."""

PARTS = ("format", "size", "vocab", "head", "head text", "head starts", "lengths")
"""What `SearchIndex.parts()` holds: FORMAT, the number of papers, the sorted vocabulary, the ids
of the tokens in names or titles (packed uint32), those tokens joined by newlines, where each
starts in that text (packed uint32), and each paper's abstract length (`search.lengths`)."""


def saved_size_and_vocabulary(parts: object) -> tuple[int, list[str]] | None:
    """The paper count and vocabulary of a saved index's `PARTS`, or None when its shape is wrong
    (a cache is checked before it is trusted)."""
    if type(parts) is not tuple or len(parts) != len(PARTS):
        return None
    size, vocab = parts[1], parts[2]
    if type(vocab) is not list or type(size) is not int:
        return None
    return size, vocab


_WORD_CACHE_SIZE = 512
_WORD_CACHE_BYTES = 24 << 20
"""Recent words' tiers (`match_word`), weighed by their bitsets: at 100k papers a short
word's tiers are a few hundred KB, and 512 of them (the bound by number alone) over 100 MB."""
_CONTAINING_CACHE_BYTES = 8 << 20
"""Recent exact terms' papers (`containing_bits`): two bitsets each."""
_GROUP_CACHE_SIZE = 1024
_GROUP_CACHE_BYTES = 8 << 20
"""Prefix groups worked out while typing (`range_bits`), beyond those saved with the index:
before, every group ever asked for was kept."""
_SAVED_PREFIX_TOKENS = 1000
"""A two- or three-letter prefix of this many tokens or more has its papers saved with the
index: ORing its postings took tens of milliseconds of a keystroke at 100k papers (`co`, `con`)."""
_COUNT_CACHE_SIZE = 65536
_BANDED_PREFIX_TOKENS = 64
"""A prefix of at most this many tokens after it scores its tokens in bands of rarity
(`_prefix_bands`); a broader one (the first letters typed) as one range, cached."""
_PROGRESS_STEP = 4096
"""Papers indexed between two calls of a build's `progress`."""
_BUILD_COST = {"name": 1, "title": 1, "authors": 1, "abstract": 12}
"""Rough share of a build's time per field (an abstract has ~12 times a title's words)."""

Progress = Callable[[int, int], None]
"""Told `(done, total)` as a long build goes (units of work, not papers)."""


def tokenize(text: str) -> list[str]:
    """The tokens of a text, folded (`fold_text`), in order (repeats kept)."""
    return words_of(text)


def index_text(paper: Paper, field: str) -> str | None:
    """The text of a paper's indexed `field` (the authors as `authors_text` shows them;
    `repeats`: the abstract)."""
    if field == "authors":
        return authors_text(paper.authors)
    if field == "repeats":
        return paper.abstract
    return getattr(paper, field)


def field_tokens(field: str, text: str) -> set[str]:
    """The distinct tokens a paper's `field` is found by: the words of the text as written and,
    for a title or an abstract, of the text as shown (`K$^2$IE` is found by `k2ie` and by `k`;
    `$\\alpha$` by `alpha` and by the Greek letter)."""
    findall = TOKEN_RE.findall
    if field == "repeats":
        return repeated_tokens(text)
    tokens = set(findall(fold_text(text)))
    if field in ("title", "abstract") and ("$" in text or "\\" in text):
        shown = display_title(text) if field == "title" else shown_text(text)
        tokens.update(findall(fold_text(shown)))
    return tokens


def repeated_tokens(text: str) -> set[str]:
    """The tokens a text (as written) holds twice or more."""
    return _repeated(TOKEN_RE.findall(fold_text(text)))


def _repeated(tokens: list[str]) -> set[str]:
    seen: set[str] = set()
    again: set[str] = set()
    for token in tokens:
        (again if token in seen else seen).add(token)
    return again


class SearchIndex:
    """Postings for name, title and abstract of a fixed paper sequence."""

    def __init__(
        self,
        size: int,
        vocab: list[str],
        postings: Mapping[str, Postings],
        fingerprint: str,
        head: Sequence[int],
        head_table: tuple[str, Sequence[int]] | None = None,
        lengths: Lengths | None = None,
    ) -> None:
        self.size = size
        self.all_bits = (1 << size) - 1
        self.vocab = vocab
        self.postings = postings
        self.fingerprint = fingerprint
        self.head = head
        """Ids of the tokens found in names or titles, ascending (where infixes are looked for)."""
        self.vocabulary = Vocabulary(vocab, head, head_table)
        self.lengths = lengths if lengths is not None else Lengths(bytes(size))
        """Each paper's abstract length, for BM25's length normalisation (`search.lengths`)."""
        self._saved_groups: dict[tuple[str, int, int], int] = {}
        """The prefix groups `prefix_groups` works out, saved with the index and kept."""
        self._group_cache: Lru[tuple[str, int, int], int] = Lru(
            _GROUP_CACHE_BYTES, _GROUP_CACHE_SIZE, bitset_weight
        )
        self._keep_groups = False
        """Set while `prefix_groups` runs: the groups it asks for are saved ones."""
        self._containing: Lru[tuple[str, str], tuple[int, int]] = Lru(
            _CONTAINING_CACHE_BYTES, _WORD_CACHE_SIZE, _pair_weight
        )
        self._counts: dict[int, int] = {}
        self._words: Lru[tuple[str, tuple[str, ...]], WordMatch] = Lru(
            _WORD_CACHE_BYTES, _WORD_CACHE_SIZE, _match_weight
        )

    # --- building and caching --------------------------------------------------------------

    @classmethod
    def build(cls, papers: Sequence[Paper], progress: Progress | None = None) -> SearchIndex:
        """Tokenize every paper once; about a second for 10k abstracts (see `save`/`load`).

        `progress(done, total)` hears every few thousand papers of each field (the abstracts
        are most of the work, so they count for most of `total`)."""
        size = len(papers)
        # Each token's papers in a uint32 array: 4 bytes a posting where a list held an 8-byte
        # pointer (and over-allocated): ~9 million abstract postings at 100k papers.
        found: dict[str, defaultdict[str, array[int]]] = {
            f: defaultdict(_id_array) for f in INDEXED_FIELDS
        }
        total = size * sum(_BUILD_COST.values())
        done = 0
        for field in INDEXED_FIELDS:
            if field in ("abstract", "repeats", "source"):
                continue
            acc = found[field]
            for start in range(0, size, _PROGRESS_STEP):
                for i in range(start, min(size, start + _PROGRESS_STEP)):
                    text = index_text(papers[i], field)
                    if text:
                        for token in field_tokens(field, text):
                            acc[token].append(i)
                if progress is not None:
                    step = min(size, start + _PROGRESS_STEP) - start
                    done += step * _BUILD_COST[field]
                    progress(done, total)
        # The abstract's words once for both of its columns (its tokens and those repeated).
        abstracts, repeats, source = found["abstract"], found["repeats"], found["source"]
        findall = TOKEN_RE.findall
        codes = bytearray(size)
        for start in range(0, size, _PROGRESS_STEP):
            for i in range(start, min(size, start + _PROGRESS_STEP)):
                text = papers[i].abstract
                if text:
                    written = findall(fold_text(text))
                    codes[i] = length_code(len(written))
                    tokens = set(written)
                    if len(tokens) < len(written):
                        for token in _repeated(written):
                            repeats[token].append(i)
                    if "$" in text or "\\" in text:
                        shown = set(findall(fold_text(shown_text(text))))
                        for token in tokens - shown:
                            source[token].append(i)
                        tokens |= shown
                    for token in tokens:
                        abstracts[token].append(i)
            if progress is not None:
                done += (min(size, start + _PROGRESS_STEP) - start) * _BUILD_COST["abstract"]
                progress(done, total)
        del acc, abstracts, repeats, source  # `_packed` frees each field's ids as it goes
        return cls._packed(size, found, fingerprint(papers), bytes(codes))

    @classmethod
    def _packed(
        cls,
        size: int,
        found: Mapping[str, Mapping[str, Sequence[int]]],
        fprint: str,
        codes: bytes,
    ) -> SearchIndex:
        # `repeats` and `source` hold abstract tokens only: no token of their own.
        own = ("name", "title", "authors", "abstract")
        vocab = sorted(set().union(*(found[f] for f in own)))
        names, titles = found["name"], found["title"]
        head = array("I", [tid for tid, t in enumerate(vocab) if t in names or t in titles])
        postings: dict[str, Postings] = {}
        for field in INDEXED_FIELDS:
            postings[field] = FieldPostings.pack(vocab, found[field], size)
            if isinstance(found, dict):  # the build's own: free each field's ids once packed
                found[field] = {}
        return cls(size, vocab, postings, fprint, head, lengths=Lengths(codes))

    def extended(self, papers: Sequence[Paper]) -> SearchIndex:
        """A new index for `papers`, whose first `self.size` papers are the ones indexed here."""
        new = SearchIndex.build(papers[self.size :])
        shift = self.size
        found: dict[str, dict[str, list[int]]] = {}
        for field in INDEXED_FIELDS:
            merged: dict[str, list[int]] = {}
            for index, offset in ((self, 0), (new, shift)):
                column = index.postings[field]
                for tid, token in enumerate(index.vocab):
                    posting = column.get(tid)
                    if posting is not None:
                        ids = merged.setdefault(token, [])
                        # `< index.size`: a damaged cache may name papers it does not hold.
                        ids.extend(i + offset for i in _ids(posting) if i < index.size)
            found[field] = merged
        codes = self.lengths.codes + new.lengths.codes
        return SearchIndex._packed(len(papers), found, fingerprint(papers), codes)

    def state(self) -> tuple[object, ...]:
        """The index as plain values for marshal (`from_state` is the inverse), with the
        prefix groups worked out so far (see `prefix_groups`)."""
        columns = tuple(_packed_column(self.postings[field]).state() for field in INDEXED_FIELDS)
        length = bitset_words(self.size) * 4
        groups = tuple(
            (field, lo, hi, bits.to_bytes(length, "little"))
            for (field, lo, hi), bits in self._saved_groups.items()
        )
        return (self.parts(), columns, groups)

    def prefix_groups(self) -> None:
        """Work out the papers of every first letter's tokens and of the broadest two- and
        three-letter prefixes, as the first keys of a query ask for them: seconds at 100k
        papers, saved with the index so that a process that loads it starts with them."""
        self._keep_groups = True
        try:
            for first in sorted({token[0] for token in self.vocab}):
                self._match_word(first, WORD_FIELDS)  # not the cached match: its groups
            for length in (2, 3):
                for prefix in sorted({token[:length] for token in self.vocab if len(token) > 1}):
                    lo, hi = self.vocabulary.prefix_range(prefix)
                    if hi - lo < _SAVED_PREFIX_TOKENS:
                        continue
                    # The groups `_match_word` asks for: the tokens after the prefix itself.
                    start = lo + 1 if self.vocab[lo] == prefix else lo
                    for field in WORD_FIELDS:
                        self.range_bits(field, start, hi)
        finally:
            self._keep_groups = False

    def _restore_groups(self, groups: object) -> bool:
        """Take the prefix groups `state()` saved; False when they are not a consistent whole."""
        if type(groups) is not tuple:
            return False
        length = bitset_words(self.size) * 4
        restored: dict[tuple[str, int, int], int] = {}
        for group in groups:
            if type(group) is not tuple or len(group) != 4:
                return False
            field, lo, hi, raw = group
            if field not in INDEXED_FIELDS or type(lo) is not int or type(hi) is not int:
                return False
            if not 0 <= lo < hi <= len(self.vocab) or type(raw) is not bytes or len(raw) != length:
                return False
            restored[(field, lo, hi)] = int.from_bytes(raw, "little") & self.all_bits
        self._saved_groups.update(restored)
        return True

    @classmethod
    def from_state(cls, state: object, fprint: str) -> SearchIndex | None:
        """The index `state()` returned (after a marshal round trip), or None if it is not one."""
        if type(state) is not tuple or len(state) != 3:
            return None
        parts, columns, groups = state
        if type(columns) is not tuple or len(columns) != len(INDEXED_FIELDS):
            return None
        sized = saved_size_and_vocabulary(parts)
        if sized is None:
            return None
        size, vocab = sized
        postings: dict[str, Postings] = {}
        for field, column in zip(INDEXED_FIELDS, columns, strict=True):
            packed = FieldPostings.from_state(column, len(vocab), size)
            if packed is None:
                return None
            postings[field] = packed
        return cls.from_saved(parts, postings, groups, fprint)

    @classmethod
    def from_saved(
        cls, parts: object, postings: Mapping[str, Postings], groups: object, fprint: str
    ) -> SearchIndex | None:
        """An index from `parts`, postings for every field and the prefix groups `state()`
        saved, or None when they are not a consistent whole."""
        index = cls.from_parts(parts, postings, fprint)
        if index is None or not index._restore_groups(groups):
            return None
        return index

    @classmethod
    def from_parts(
        cls, parts: object, postings: Mapping[str, Postings], fprint: str
    ) -> SearchIndex | None:
        """An index from `parts` (see `PARTS`) and postings for every indexed field, or None
        when the parts are not of this format."""
        if type(parts) is not tuple or len(parts) != len(PARTS):
            return None
        fmt, size, vocab, raw_head, joined, raw_starts, codes = parts
        if fmt != FORMAT or type(size) is not int or size < 0 or type(vocab) is not list:
            return None
        if not set(map(type, vocab)) <= {str} or set(postings) != set(INDEXED_FIELDS):
            return None
        if not all(vocab):
            return None  # an empty token: every token is a word (`warm` reads its first letter)
        if type(raw_head) is not bytes or len(raw_head) % 4 or type(joined) is not str:
            return None
        if type(raw_starts) is not bytes or len(raw_starts) != len(raw_head):
            return None
        if type(codes) is not bytes or len(codes) != size:
            return None
        head, starts = array("I"), array("I")
        head.frombytes(raw_head)
        starts.frombytes(raw_starts)
        if head and max(head) >= len(vocab):
            return None
        if not head and joined != "\n\n":
            return None  # a name/title token to find, but none to name (see `infix_matches`)
        # Any string and starts make a search that ends (see `Vocabulary.infix_matches`); a
        # table that does not fit the vocabulary only comes from a damaged file, not trusted.
        return cls(size, vocab, postings, fprint, head, (joined, starts), Lengths(codes))

    def parts(self) -> tuple[str, int, list[str], bytes, str, bytes, bytes]:
        """What `from_parts` takes besides the postings (see `PARTS`)."""
        joined, starts = self.vocabulary.head_table()
        head = array("I", self.head).tobytes()
        starts_bytes = array("I", starts).tobytes()
        return (FORMAT, self.size, self.vocab, head, joined, starts_bytes, self.lengths.codes)

    def save(self, path: Path) -> bool:
        """Write the index to `path` (`search.index_file`), atomically; False when it cannot be
        written (or is not an index held in memory): a missing cache only costs a build."""
        from papershelf.storage.search import index_file  # it imports this module

        return index_file.save(path, self)

    @classmethod
    def load(cls, path: Path, papers: Sequence[Paper]) -> SearchIndex | None:
        """The index saved at `path` if it was built from exactly these papers, else None: no
        file, one of another format or other papers, or one that fails its checksum."""
        from papershelf.storage.search import index_file  # it imports this module

        try:
            os.stat(path)
        except OSError:
            return None  # no file: spares hashing the papers for the key
        index = index_file.load(path, fingerprint(papers))
        if index is None or index.size != len(papers):
            return None
        return index

    @classmethod
    def load_or_build(cls, path: Path, papers: Sequence[Paper]) -> tuple[SearchIndex, bool]:
        """The index of `papers`: loaded from `path` when saved there for them, else built and
        saved there for the next process. The flag says whether it was loaded."""
        return load_or_build(
            lambda: cls.load(path, papers), lambda: cls.build(papers), lambda made: made.save(path)
        )

    def warm(self) -> None:
        """Fill the lazily built tables the first keystrokes need (for a background worker):
        the vocabulary's, and the first key of every query (its prefix groups, loaded with a
        saved index)."""
        self.vocabulary.warm()
        for first in sorted({token[0] for token in self.vocab}):
            self.match_word(first)

    def clear_caches(self) -> None:
        """Forget cached word results and tables (benchmarks measure cold searches with this)."""
        self.vocabulary.clear_caches()
        self._saved_groups.clear()
        self._group_cache.clear()
        self._containing.clear()
        self._counts.clear()
        self._words.clear()

    # --- postings ----------------------------------------------------------------------------

    def token_bits(self, field: str, token: str) -> int:
        """Papers whose `field` contains `token`."""
        tid = self.vocabulary.token_id(token)
        return 0 if tid is None else self.tids_bits(field, (tid,))

    def tids_bits(self, field: str, tids: Iterable[int]) -> int:
        """Papers whose `field` contains any of the tokens with these ids."""
        bits = 0
        sparse: list[memoryview] = []
        for posting in self.postings[field].many(tids):
            if isinstance(posting, int):
                bits |= posting
            else:
                sparse.append(posting)
        if sparse:
            bits |= views_to_bits(sparse, self.size)
        # Bits past the last paper (a damaged bitset's padding, ids just past it) are no paper.
        return bits & self.all_bits

    def containing_bits(self, value: str) -> tuple[int, int]:
        """Papers whose abstract has a token containing `value` (one word's letters, folded),
        and those of them where that may be only in the LaTeX source (`source`): the papers an
        exact `'value` finds in the abstracts are the first less those of the second whose
        text, as shown, lacks it. From the index: no key reads every abstract."""
        key = ("'", value)
        found = self._containing.get(key)
        if found is None:
            tids = self.vocabulary.containing(value)
            found = (self.tids_bits("abstract", tids), self.tids_bits("source", tids))
            self._containing.put(key, found)
        return found

    def range_bits(self, field: str, lo: int, hi: int) -> int:
        """Papers whose `field` holds any token in vocab[lo:hi] (cached: prefix groups repeat)."""
        key = (field, lo, hi)
        bits = self._saved_groups.get(key)
        if bits is None:
            bits = self._group_cache.get(key)
        if bits is None:
            bits = self.tids_bits(field, range(lo, hi))
            if self._keep_groups:
                self._saved_groups[key] = bits
            else:
                self._group_cache.put(key, bits)
        return bits

    # --- matching one query token ------------------------------------------------------------

    def match_word(self, word: str, fields: tuple[str, ...] = WORD_FIELDS) -> WordMatch:
        """Tiers of papers matching one query token in `fields` (indexed fields; cached, most
        recent kept)."""
        key = (word, fields)
        cached = self._words.get(key)
        if cached is not None:
            return cached
        return self._words.put(key, self._match_word(word, fields))

    def _match_word(self, word: str, fields: tuple[str, ...]) -> WordMatch:
        vocab, words = self.vocab, self.vocabulary
        lo, hi = words.prefix_range(word)
        exact = lo if lo < hi and vocab[lo] == word else None
        infix = words.infix_matches(word) if len(word) >= 3 else []
        start = lo + 1 if exact is not None else lo
        bands = self._prefix_bands(start, hi)
        # The word itself scores with its own idf, not that of every token it starts.
        held: dict[str, int] = {}
        exact_idf = 0.0
        if exact is not None:
            held = {column: self.tids_bits(column, (exact,)) for column in WORD_FIELDS}
            union = held["name"] | held["title"] | held["abstract"]
            exact_idf = word_idf(union.bit_count(), self.size)
        tiers: list[Tier] = []
        columns = [(field, field, FIELD_WEIGHTS[field]) for field in fields]
        if "abstract" in fields:
            # The same matches among the tokens an abstract says twice or more score higher.
            columns.append(("repeats", "abstract", REPEATED_WEIGHT))
        # The word as typed: itself and the tokens it starts.
        for column, field, weight in columns:
            if exact is not None:
                bits = held[column] if column in held else self.tids_bits(column, (exact,))
                tiers.append(Tier(weight * EXACT, field, bits, idf=exact_idf))
            for idf, tids in bands:
                if exact is not None:
                    idf = min(idf, exact_idf)  # no completion says more than the word itself
                bits = self.tids_bits(column, tids) if tids else self.range_bits(column, start, hi)
                tiers.append(Tier(weight * PREFIX, field, bits, prefix=True, idf=idf))
        # Token id -> quality, outside the prefix range: typos a person likely made, weighed
        # against what the word finds as typed (`quality.likely_typos`).
        found = words.typo_matches(word, lo, hi)
        if found:
            typed = self._typed_count(fields, tiers, lo, hi)
            found = likely_typos(found, typed, self.token_count)
        typo_tokens = frozenset(vocab[tid] for tid in found)
        for column, field, weight in columns:
            by_quality: defaultdict[int, list[int]] = defaultdict(list)
            for tid, quality in found.items():
                by_quality[quality].append(tid)
            if field in INFIX_FIELDS:
                for tid in infix:
                    if found.get(tid, 0) < INFIX:
                        by_quality[INFIX].append(tid)
            for quality, tids in by_quality.items():
                tiers.append(Tier(weight * quality, field, self.tids_bits(column, tids)))
        tiers = [tier for tier in tiers if tier.bits]
        tiers.sort(key=lambda tier: -tier.weight)
        bits = 0
        for tier in tiers:
            bits |= tier.bits
        return WordMatch(word, tuple(tiers), bits, typo_tokens)

    def _typed_count(self, fields: tuple[str, ...], tiers: Sequence[Tier], lo: int, hi: int) -> int:
        """How many papers hold the word as typed (vocab[lo:hi]: itself or a token it starts)
        in name, title or abstract, whatever `fields` it looks in (`title:x` finds a subset of
        what `x` finds): from `tiers`, the word's as typed, when they cover those fields."""
        if lo >= hi:
            return 0
        bits = 0
        if set(WORD_FIELDS) <= set(fields):
            for tier in tiers:
                bits |= tier.bits
            return bits.bit_count()
        for field in WORD_FIELDS:
            if hi - lo > _BANDED_PREFIX_TOKENS:
                bits |= self.range_bits(field, lo, hi)  # a broad prefix: cached, as its tiers
            else:
                bits |= self.tids_bits(field, range(lo, hi))
        return bits.bit_count()

    def _prefix_bands(self, start: int, hi: int) -> list[tuple[float, list[int]]]:
        """The tokens vocab[start:hi] a word is a prefix of, in bands of rarity: (the idf of
        the band's most common token, its token ids); one band of every token (ids left
        empty: the cached range) when there are many, as for the first letters typed.

        A word cut short is more likely the start of a rare word of the paper meant than of
        a common one (`nonconv` of nonconvex, not of nonlinear): rarer completions score more.
        """
        if start >= hi:
            return []
        if hi - start > _BANDED_PREFIX_TOKENS:
            return [(0.0, [])]
        column, size = self.postings["abstract"], self.size
        by_band: dict[int, list[int]] = {}
        least: dict[int, float] = {}
        for tid in range(start, hi):
            posting = column.get(tid)
            count = 0 if posting is None else _count(posting)
            idf = word_idf(count, size)
            band = int(idf)
            by_band.setdefault(band, []).append(tid)
            least[band] = min(least.get(band, idf), idf)
        return [(least[band], by_band[band]) for band in sorted(by_band, reverse=True)]

    def token_count(self, tid: int) -> int:
        """How many papers hold token `tid` in a field a word looks in (name, title, abstract)
        (kept: a word's typos ask for the same tokens' counts key after key)."""
        count = self._counts.get(tid)
        if count is None:
            bits = 0
            for field in WORD_FIELDS:
                bits |= self.tids_bits(field, (tid,))
            count = bits.bit_count()
            if len(self._counts) >= _COUNT_CACHE_SIZE:
                self._counts.clear()
            self._counts[tid] = count
        return count


def _match_weight(match: WordMatch) -> int:
    """The bytes a word's match holds: its bitsets (the rest is small)."""
    return bitset_weight(match.bits) + sum(bitset_weight(tier.bits) for tier in match.tiers)


def _pair_weight(pair: tuple[int, int]) -> int:
    return bitset_weight(pair[0]) + bitset_weight(pair[1])


def _count(posting: Posting) -> int:
    return posting.bit_count() if isinstance(posting, int) else len(posting)


def _packed_column(postings: Postings) -> FieldPostings:
    if not isinstance(postings, FieldPostings):
        raise TypeError("only an index held in memory can be saved")
    return postings


def _id_array() -> array[int]:
    """An empty array of paper ids (uint32), for a token's papers while an index is built."""
    return array("I")


def _ids(posting: Posting) -> list[int]:
    if isinstance(posting, int):
        return bits_to_ids(posting)
    return list(posting)


def fingerprint(papers: Sequence[Paper]) -> str:
    """A digest of what the index depends on (ids, names, titles, authors and the abstracts'
    lengths, in order), to key the cache. The id is a hash of the abstract, but an import may give
    a stored paper authors, or an abstract where it had none, and keep its id (`ingest.merge`)."""
    import hashlib  # here: `papershelf list` keys its cache by file identity and never hashes

    digest = hashlib.sha1(usedforsecurity=False)
    for paper in papers:
        authors = "\x1f".join(paper.authors)
        title, size = paper.title or "", abstract_length(paper)
        digest.update(f"{paper.id}\0{paper.name}\0{title}\0{authors}\0{size}\n".encode())
    return digest.hexdigest()
