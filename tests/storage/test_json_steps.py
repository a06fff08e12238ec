"""`jsonstore.loads_in_steps` answers exactly like `json.loads`: the same value for any JSON
(whatever the windows cut: inside a character, a number, a string), the same error otherwise."""

from __future__ import annotations

import json
import math
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.files import jsonstore
from papershelf.storage.files.jsonstore import loads_in_steps

TEXT = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(
    ["", "é", "😀 x", "\u2028", 'a"b\\', "}{,:[]"]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
TINYDB = st.dictionaries(TEXT, st.dictionaries(TEXT, VALUES, max_size=5) | VALUES, max_size=4)


def _encode(data: Any, style: int) -> bytes:
    if style == 0:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    if style == 1:
        return json.dumps(data, ensure_ascii=True).encode()
    return (" \n" + json.dumps(data, ensure_ascii=False, indent=style) + "\r\n\t").encode()


def _outcome(parse: Any, raw: bytes) -> tuple[str, Any]:
    try:
        return "value", parse(raw)
    except (ValueError, RecursionError) as error:
        return "error", (type(error).__name__, str(error))


def _same(a: Any, b: Any) -> bool:
    # Floats round-trip exactly; -0.0 == 0.0 is fine for equality, types must match too.
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@settings(max_examples=300)
@given(TINYDB, st.integers(0, 3), st.integers(1, 64), st.integers(1, 3))
def test_the_same_value_as_json_loads(data: Any, style: int, window: int, levels: int) -> None:
    raw = _encode(data, style)
    want = json.loads(raw)
    # Valid JSON is read in steps, never handed to json.loads whole (the fallback).
    with patch.object(jsonstore.json, "loads", side_effect=AssertionError("fell back")):
        got = loads_in_steps(raw, levels=levels, window=window)
    assert _same(got, want)


@settings(max_examples=300)
@given(TINYDB, st.integers(0, 2), st.integers(1, 64), st.data())
def test_damaged_text_gives_json_loads_own_answer(
    data: Any, style: int, window: int, draw: st.DataObject
) -> None:
    raw = bytearray(_encode(data, style))
    for _ in range(draw.draw(st.integers(1, 3))):
        place = draw.draw(st.integers(0, len(raw)))
        if draw.draw(st.booleans()) and place < len(raw):
            del raw[place]
        else:
            insert = draw.draw(st.sampled_from([b",", b"}", b'"', b"1", b"\xff", b"\xc3"]))
            raw[place:place] = insert
    got = _outcome(lambda b: loads_in_steps(b, window=window), bytes(raw))
    want = _outcome(json.loads, bytes(raw))
    assert got[0] == want[0]
    if got[0] == "value":
        assert _same(got[1], want[1])
    else:
        assert got[1] == want[1]


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a":{"x":1},"a":{"y":2}}',  # a name twice: the last wins
        b'{"t":{"1":{"n":1.5e3},"2":[1,2]}, "meta":{"v":2}}',
        b"\xef\xbb\xbf{}",  # a BOM: json.loads's own path
        b"[1,2]",
        b'{"a":1} {"b":2}',
        b'{"a":NaN,"b":{"c":-Infinity}}',
        b'{"a":"\\ud83d\\ude00"}',
    ],
)
def test_by_hand(raw: bytes) -> None:
    for window in (1, 3, 5, 8, 1024):
        assert _outcome(lambda b, w=window: loads_in_steps(b, window=w), raw) == _outcome(
            json.loads, raw
        ) or _same(loads_in_steps(raw, window=window), json.loads(raw))
