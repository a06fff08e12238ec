"""The inverted index behind `storage.query`: vocabulary, postings as bitsets, word matching.

A paper set is a Python int used as a bitset (bit i = the i-th paper in library order): AND, OR
and NOT over 10k papers cost about a microsecond. Each indexed field (name, title, abstract) maps
every distinct token to its postings, kept as a bitset when dense and as packed uint32 ids when
sparse (whichever is smaller). A query word is matched against the sorted vocabulary (prefix
ranges by bisect, typos by rapidfuzz over the distinct prefixes of the right lengths), and the
papers of all matching tokens are ORed per match quality; results are cached per word.
"""

from __future__ import annotations

import hashlib
import marshal
import re
import sys
from array import array
from bisect import bisect_left
from collections import OrderedDict, defaultdict, deque
from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass
from itertools import compress, repeat
from pathlib import Path

from storage.model import Paper
from storage.query_parse import TOKEN_RE

INDEXED_FIELDS = ("name", "title", "abstract")
INFIX_FIELDS = frozenset({"name", "title", "tags", "note"})
"""Fields where a word may match inside a token (`gnn` in RelGNN); not the abstract (noise)."""

# Match qualities (higher is better), from the best way a query word matches a text token.
EXACT, PREFIX, INFIX, FUZZY1, FUZZY_PREFIX1, FUZZY2, FUZZY_PREFIX2 = 10, 8, 6, 6, 5, 4, 3
FIELD_WEIGHTS = {"name": 10, "title": 9, "tags": 8, "note": 5, "abstract": 3}
"""A word's score in a paper: best field weight x quality (a title typo beats an abstract hit)."""

FORMAT = f"papershelf-search-index 2 {sys.byteorder}"
"""Changes with the saved layout (and the byte order of packed ids): other caches are ignored."""

_MAX_CHAR = "\U0010ffff"
_WORD_CACHE_SIZE = 512


def tokenize(text: str) -> list[str]:
    """The tokens of a text, lower case, in order (repeats kept)."""
    return TOKEN_RE.findall(text.lower())


def max_typos(word: str) -> int:
    """Typos a word of this length tolerates: none below 5 characters, 2 from 9."""
    n = len(word)
    return 0 if n < 5 else 1 if n < 9 else 2


def match_quality(word: str, token: str, infix: bool = False) -> int:
    """How `token` (a text token) matches `word` (a query token): a quality, or 0 for no match.

    The reference definition; the index computes the same answers for the whole vocabulary at once.
    A typo match compares the word with the token's prefixes within `max_typos` of its length
    (optimal string alignment distance: a transposition is one typo), so `trasnf` matches
    transformer and `difusion` matches diffusion. The token must start with the word's first or
    second letter (a swapped first pair is still found): this keeps typo search to a few
    thousand candidates, as search engines' "prefix length" does.
    """
    if token == word:
        return EXACT
    if token.startswith(word):
        return PREFIX
    if infix and len(word) >= 3 and word in token:
        return INFIX
    k = max_typos(word)
    if not k or token[0] not in word[:2]:
        return 0
    from rapidfuzz.distance import OSA  # imported on first use: a quick CLI run may not need it

    best = 0
    for j in range(max(1, len(word) - k), min(len(token), len(word) + k) + 1):
        d = OSA.distance(word, token[:j], score_cutoff=k)
        if d <= k:
            best = max(best, _fuzzy_quality(d, j == len(token)))
    return best


def _fuzzy_quality(distance: int, whole: bool) -> int:
    if distance == 0:
        return EXACT if whole else PREFIX
    if distance == 1:
        return FUZZY1 if whole else FUZZY_PREFIX1
    return FUZZY2 if whole else FUZZY_PREFIX2


# --- bitsets ---------------------------------------------------------------------------------

_ONE = re.compile("1")
_TO_FLAGS = bytes.maketrans(b"01", b"\x00\x01")


def ids_to_bits(ids: Iterable[int], size: int) -> int:
    """A bitset of paper indices (each < size)."""
    if not isinstance(ids, Sized) or len(ids) * 16 < size:
        buf = bytearray((size + 7) >> 3)
        for i in ids:
            buf[i >> 3] |= 1 << (i & 7)
        return int.from_bytes(buf, "little")
    # Many ids: one "0"/"1" digit per paper, set by a C-level loop (a deque draining a map),
    # then parsed by int(): 3x faster than shifting bits in one id at a time.
    digits = bytearray(b"0") * size
    deque(map(digits.__setitem__, ids, repeat(49)), maxlen=0)  # 49 is "1"
    digits.reverse()
    return int(digits, 2) if size else 0


def bits_to_ids(bits: int) -> list[int]:
    """The set bits, ascending (= library order)."""
    if not bits:
        return []
    digits = bin(bits)[:1:-1]  # digit i is bit i
    if bits.bit_count() * 16 < len(digits):
        return [m.start() for m in _ONE.finditer(digits)]
    # Dense: a C-level loop (compress) over one 0/1 byte per bit.
    flags = digits.encode("ascii").translate(_TO_FLAGS)
    return list(compress(range(len(flags)), flags))


Posting = int | bytes
"""Papers of one token in one field: a bitset (dense) or packed native uint32 ids (sparse)."""


def _pack(ids: list[int], size: int) -> Posting:
    # A bitset costs size/8 bytes, packed ids 4 per paper: keep the smaller.
    if len(ids) * 32 >= size:
        return ids_to_bits(ids, size)
    return array("I", ids).tobytes()


@dataclass(frozen=True, slots=True)
class Tier:
    """Papers in which a word matches `field` with `quality` (best tiers come first)."""

    weight: int
    field: str
    bits: int


@dataclass(frozen=True, slots=True)
class WordMatch:
    """Everything about one query token that does not depend on the user's entries."""

    word: str
    tiers: tuple[Tier, ...]
    """Sorted by weight, best first; a paper's score is the weight of the first tier holding it."""
    bits: int
    """Every paper the word matches in an indexed field."""
    typo_tokens: frozenset[str]
    """Vocabulary tokens matched only with typos (prefix and infix matches are implied by word)."""


class SearchIndex:
    """Postings for name, title and abstract of a fixed paper sequence."""

    def __init__(
        self,
        size: int,
        vocab: list[str],
        postings: dict[str, dict[str, Posting]],
        fingerprint: str,
    ) -> None:
        self.size = size
        self.all_bits = (1 << size) - 1
        self.vocab = vocab
        self.postings = postings
        self.fingerprint = fingerprint
        self._head_vocab: tuple[str, list[int], list[int]] | None = None
        self._prefix_tables: dict[tuple[int, str], list[str]] = {}
        self._group_cache: dict[tuple[str, int, int], int] = {}
        self._words: OrderedDict[str, WordMatch] = OrderedDict()

    # --- building and caching --------------------------------------------------------------

    @classmethod
    def build(cls, papers: Sequence[Paper]) -> SearchIndex:
        """Tokenize every paper once; about a second for 10k abstracts (see `save`/`load`)."""
        size = len(papers)
        found: dict[str, defaultdict[str, list[int]]] = {
            f: defaultdict(list) for f in INDEXED_FIELDS
        }
        findall = TOKEN_RE.findall
        for field in INDEXED_FIELDS:
            acc = found[field]
            for i, paper in enumerate(papers):
                text = getattr(paper, field)
                if text:
                    for token in set(findall(text.lower())):
                        acc[token].append(i)
        vocab = sorted(set().union(*found.values()))
        postings = {
            field: {token: _pack(ids, size) for token, ids in found[field].items()}
            for field in INDEXED_FIELDS
        }
        return cls(size, vocab, postings, fingerprint(papers))

    def extended(self, papers: Sequence[Paper]) -> SearchIndex:
        """A new index for `papers`, whose first `self.size` papers are the ones indexed here."""
        new = SearchIndex.build(papers[self.size :])
        size = len(papers)
        shift = self.size
        postings: dict[str, dict[str, Posting]] = {}
        for field in INDEXED_FIELDS:
            merged = dict(self.postings[field])
            for token, posting in new.postings[field].items():
                ids = [i + shift for i in _ids(posting)]
                old = merged.get(token)
                merged[token] = _pack(_ids(old) + ids if old is not None else ids, size)
            postings[field] = merged
        vocab = sorted(set(self.vocab).union(new.vocab))
        return SearchIndex(size, vocab, postings, fingerprint(papers))

    def save(self, path: Path) -> None:
        """Write the index to `path` (plain types via marshal), atomically."""
        data = marshal.dumps((FORMAT, self.fingerprint, self.size, self.vocab, self.postings), 4)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, papers: Sequence[Paper]) -> SearchIndex | None:
        """The index saved at `path` if it was built from exactly these papers, else None."""
        try:
            fmt, fprint, size, vocab, postings = marshal.loads(path.read_bytes())
        except (OSError, ValueError, EOFError, TypeError):
            return None
        if fmt != FORMAT or size != len(papers) or fprint != fingerprint(papers):
            return None
        return cls(size, vocab, postings, fprint)

    def warm(self) -> None:
        """Fill the lazily built tables the first keystrokes need (for a background worker)."""
        for first in sorted({token[0] for token in self.vocab}):
            for length in range(4, 15):
                self._prefix_table(length, first)
            self.match_word(first)  # the first key of every query: all its prefix groups
        self._infix_matches("zzz")

    def clear_caches(self) -> None:
        """Forget cached word results and tables (benchmarks measure cold searches with this)."""
        self._head_vocab = None
        self._prefix_tables.clear()
        self._group_cache.clear()
        self._words.clear()

    # --- postings ----------------------------------------------------------------------------

    def token_bits(self, field: str, token: str) -> int:
        """Papers whose `field` contains `token`."""
        posting = self.postings[field].get(token)
        if posting is None:
            return 0
        if isinstance(posting, int):
            return posting
        return ids_to_bits(memoryview(posting).cast("I"), self.size)

    def tokens_bits(self, field: str, tokens: Iterable[str]) -> int:
        """Papers whose `field` contains any of the tokens."""
        column = self.postings[field]
        bits = 0
        sparse: set[int] = set()
        for token in tokens:
            posting = column.get(token)
            if posting is None:
                continue
            if isinstance(posting, int):
                bits |= posting
            else:
                sparse.update(memoryview(posting).cast("I"))  # a C loop; duplicates collapse
        if sparse:
            bits |= ids_to_bits(sparse, self.size)
        return bits

    def range_bits(self, field: str, lo: int, hi: int) -> int:
        """Papers whose `field` holds any token in vocab[lo:hi] (cached: prefix groups repeat)."""
        key = (field, lo, hi)
        bits = self._group_cache.get(key)
        if bits is None:
            bits = self.tokens_bits(field, self.vocab[lo:hi])
            self._group_cache[key] = bits
        return bits

    def prefix_range(self, prefix: str) -> tuple[int, int]:
        """vocab[lo:hi] are the tokens starting with `prefix`."""
        lo = bisect_left(self.vocab, prefix)
        return lo, bisect_left(self.vocab, prefix + _MAX_CHAR, lo)

    # --- matching one query token ------------------------------------------------------------

    def match_word(self, word: str) -> WordMatch:
        """Tiers of papers matching one query token (cached, most recent kept)."""
        cached = self._words.get(word)
        if cached is not None:
            self._words.move_to_end(word)
            return cached
        result = self._match_word(word)
        self._words[word] = result
        if len(self._words) > _WORD_CACHE_SIZE:
            self._words.popitem(last=False)
        return result

    def _match_word(self, word: str) -> WordMatch:
        vocab = self.vocab
        lo, hi = self.prefix_range(word)
        exact = lo if lo < hi and vocab[lo] == word else None
        extra = self._typo_matches(word, lo, hi)  # token id -> quality, outside the prefix range
        typo_tokens = frozenset(vocab[tid] for tid in extra)
        infix = self._infix_matches(word) if len(word) >= 3 else []
        tiers: list[Tier] = []
        for field in INDEXED_FIELDS:
            weight = FIELD_WEIGHTS[field]
            if exact is not None:
                tiers.append(Tier(weight * EXACT, field, self.token_bits(field, word)))
            start = lo + 1 if exact is not None else lo
            if start < hi:
                tiers.append(Tier(weight * PREFIX, field, self.range_bits(field, start, hi)))
            by_quality: defaultdict[int, list[int]] = defaultdict(list)
            for tid, quality in extra.items():
                by_quality[quality].append(tid)
            if field in INFIX_FIELDS:
                for tid in infix:
                    if extra.get(tid, 0) < INFIX:
                        by_quality[INFIX].append(tid)
            for quality, tids in by_quality.items():
                tokens = [vocab[tid] for tid in tids]
                tiers.append(Tier(weight * quality, field, self.tokens_bits(field, tokens)))
        tiers = [tier for tier in tiers if tier.bits]
        tiers.sort(key=lambda tier: -tier.weight)
        bits = 0
        for tier in tiers:
            bits |= tier.bits
        return WordMatch(word, tuple(tiers), bits, typo_tokens)

    def _prefix_table(self, length: int, first: str) -> list[str]:
        """Distinct `length`-character prefixes, starting with `first`, of tokens that long."""
        key = (length, first)
        table = self._prefix_tables.get(key)
        if table is None:
            lo, hi = self.prefix_range(first)
            table = self._prefix_tables[key] = list(
                {token[:length] for token in self.vocab[lo:hi] if len(token) >= length}
            )
        return table

    def _typo_matches(self, word: str, lo: int, hi: int) -> dict[int, int]:
        """Token id -> fuzzy quality, for tokens outside vocab[lo:hi] matched with typos."""
        k = max_typos(word)
        found: dict[int, int] = {}
        if not k:
            return found
        from rapidfuzz import process  # imported on first use: a quick CLI run may not need it
        from rapidfuzz.distance import OSA

        vocab = self.vocab
        for length in range(max(1, len(word) - k), len(word) + k + 1):
            for first in dict.fromkeys(word[:2]):
                prefixes = self._prefix_table(length, first)
                for prefix, distance, _ in process.extract(
                    word, prefixes, scorer=OSA.distance, score_cutoff=k, limit=None
                ):
                    if distance == 0 and length >= len(word):
                        continue  # an exact prefix: already in the prefix range
                    start, end = self.prefix_range(prefix)
                    for tid in range(start, end):
                        if lo <= tid < hi:
                            continue
                        quality = _fuzzy_quality(distance, len(vocab[tid]) == length)
                        if quality > found.get(tid, 0):
                            found[tid] = quality
        return found

    def _infix_matches(self, word: str) -> list[int]:
        """Ids of name/title tokens containing `word` after their first character."""
        if self._head_vocab is None:
            names, titles = self.postings["name"], self.postings["title"]
            head = [
                tid for tid, token in enumerate(self.vocab) if token in names or token in titles
            ]
            joined = "\n" + "\n".join(self.vocab[tid] for tid in head) + "\n"
            offsets: list[int] = []
            position = 1
            for tid in head:
                offsets.append(position)
                position += len(self.vocab[tid]) + 1
            self._head_vocab = (joined, offsets, head)
        joined, offsets, head = self._head_vocab
        found: list[int] = []
        position = joined.find(word)
        while position != -1:
            slot = bisect_left(offsets, position + 1) - 1
            if joined[position - 1] != "\n":  # not at the token's start: prefixes are elsewhere
                found.append(head[slot])
            nxt = offsets[slot + 1] if slot + 1 < len(offsets) else len(joined)
            position = joined.find(word, max(position + 1, nxt))
        return found


def _ids(posting: Posting) -> list[int]:
    if isinstance(posting, int):
        return bits_to_ids(posting)
    return list(memoryview(posting).cast("I"))


def fingerprint(papers: Sequence[Paper]) -> str:
    """A digest of what the index depends on (ids, names, titles in order), to key the cache."""
    digest = hashlib.sha1(usedforsecurity=False)
    for paper in papers:
        digest.update(f"{paper.id}\0{paper.name}\0{paper.title or ''}\n".encode())
    return digest.hexdigest()
