"""The visible stand-ins that replace characters unsafe for a terminal, shared by the app
(`tui.text`) and the command line (`papershelf.cli.output`) so that both show the same thing.

Pure Python with no Textual import: the CLI uses it without loading the app. Each unsafe
character becomes exactly one character, so offsets into the text (match spans) stay valid.
"""

from __future__ import annotations

import functools

REPLACEMENT = "\ufffd"
# Bidi embeddings, overrides and isolates reorder what is shown ("Trojan Source").
BIDI = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
# Line and paragraph separators: some terminals break the line there.
SEPARATORS = (0x2028, 0x2029)


@functools.cache
def stand_ins(one_line: bool) -> dict[int, str]:
    """A `str.translate` table: C0 and C1 controls, DEL, bidi controls, line separators and
    lone surrogates -> one visible character each; newlines kept unless `one_line`."""
    table = {code: chr(0x2400 + code) for code in range(0x20)}  # control pictures: ␀ … ␟
    table[0x09] = " "
    table[0x0A] = " " if one_line else "\n"
    table[0x7F] = "\u2421"  # ␡
    table.update(dict.fromkeys(range(0x80, 0xA0), REPLACEMENT))
    table.update(dict.fromkeys(BIDI, REPLACEMENT))
    table.update(dict.fromkeys(SEPARATORS, " " if one_line else "\n"))
    # A lone surrogate (from a file name that is not UTF-8) cannot even be encoded for output.
    table.update(dict.fromkeys(range(0xD800, 0xE000), REPLACEMENT))
    return table
