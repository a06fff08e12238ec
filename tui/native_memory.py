"""The C allocator's part of the app's memory (glibc's malloc; elsewhere nothing is done).

Python hands blocks over 512 bytes to malloc: at 100,000 papers that is every bitset (12.5 KB)
and every abstract read. glibc gives each thread that allocates its own arena (up to eight per
core), and memory freed in one arena serves only the threads of that arena: the index worker,
the related-papers worker and the search workers each left their freed blocks where the UI
thread could not reuse them, and the process's resident memory grew by the sum. And freed
blocks in the middle of a heap stay resident until `malloc_trim` gives their pages back.

So the app (`limit_arenas`, before its workers start) makes every thread share one arena (the
interpreter's lock lets one thread allocate at a time anyway), and gives free pages back to the
system after each full garbage collection at the user's pauses (`trim`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache

__all__ = ["limit_arenas", "trim"]

_M_ARENA_MAX = -8
"""mallopt's parameter number for the number of arenas (glibc's malloc.h)."""


@cache
def _libc() -> ctypes.CDLL | None:
    """glibc, when the process runs on it (else None: nothing to tune)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.gnu_get_libc_version  # noqa: B018  (musl has no such function)
        libc.mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
        libc.malloc_trim.argtypes = (ctypes.c_size_t,)
    except (OSError, AttributeError):
        return None
    return libc


def limit_arenas() -> bool:
    """Make threads started from now on share the main arena; False where it cannot be done."""
    libc = _libc()
    return libc is not None and libc.mallopt(_M_ARENA_MAX, 1) == 1


def trim() -> bool:
    """Give free heap pages back to the system; True when some were."""
    libc = _libc()
    return libc is not None and libc.malloc_trim(0) == 1
