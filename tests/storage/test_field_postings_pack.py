"""`FieldPostings.pack` fills one buffer sized first, from arrays or lists of ids: the same
offsets and bytes as the plain packing it replaced (a part per token, joined)."""

from __future__ import annotations

from array import array

from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.search.postings import FieldPostings, bitset_words, ids_to_bits


def plain_pack(vocab: list[str], found: dict[str, list[int]], size: int) -> tuple[list, bytes]:
    """The packing before: a bytes part per token (a bitset when dense), joined."""
    words = bitset_words(size)
    offsets, parts, position = [0], [], 0
    for token in vocab:
        ids = found.get(token)
        if ids:
            if len(ids) * 32 >= size:
                part = ids_to_bits(ids, size).to_bytes(words * 4, "little")
            else:
                part = array("I", ids).tobytes()
            parts.append(part)
            position += len(part) >> 2
        offsets.append(position)
    return offsets, b"".join(parts)


@st.composite
def fields(draw):
    size = draw(st.integers(min_value=0, max_value=300))
    vocab = sorted(draw(st.sets(st.text(alphabet="abcde", min_size=1, max_size=3), max_size=12)))
    found: dict[str, list[int]] = {}
    for token in vocab:
        if size and draw(st.booleans()):
            found[token] = sorted(draw(st.sets(st.integers(0, size - 1), max_size=size)))
    return vocab, found, size


@given(fields())
def test_packing_arrays_or_lists_is_the_plain_packing(field) -> None:
    vocab, found, size = field
    offsets, data = plain_pack(vocab, found, size)
    for ids_of in (list, lambda ids: array("I", ids)):
        packed = FieldPostings.pack(vocab, {t: ids_of(ids) for t, ids in found.items()}, size)
        assert list(packed.offsets) == offsets
        assert bytes(packed.data) == data
        for tid, token in enumerate(vocab):
            posting = packed.get(tid)
            if not found.get(token):
                assert posting is None
            elif isinstance(posting, int):
                assert posting == ids_to_bits(found[token], size)
            else:
                assert list(posting) == found[token]
