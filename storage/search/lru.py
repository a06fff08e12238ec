"""`Lru`: a cache of the most recently used values, bounded by their bytes and their number.

The engine keeps what one key computed for the next keys (a word's tiers, an exact term's
papers, a whole search's results). At 100,000 papers one bitset is 12.5 KB and a search's
results hundreds of KB, so a cache bounded only by its number of entries (or not at all) grew
the app by hundreds of MB while a person typed. Each value here is weighed once, when stored,
by the `weigh` function the cache is made with; the least recently used values go first.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Lru", "bitset_weight"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def bitset_weight(bits: int) -> int:
    """The bytes a bitset (a Python int) takes."""
    return sys.getsizeof(bits)


class Lru(Generic[K, V]):
    """Recently used values, at most `max_bytes` (as `weigh` counts them) and `max_entries`.

    Safe to share between threads: the engine's warm-up stores tables while a search reads
    (each call holds a lock for a dictionary operation or two).
    """

    def __init__(self, max_bytes: int, max_entries: int, weigh: Callable[[V], int]) -> None:
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self._weigh = weigh
        self._values: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def nbytes(self) -> int:
        """The bytes of the values held, as `weigh` counted them."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: K) -> bool:
        return key in self._values

    def get(self, key: K) -> V | None:
        """The value kept for `key` (now the most recently used), or None."""
        with self._lock:
            found = self._values.get(key)
            if found is None:
                return None
            self._values.move_to_end(key)
            return found[0]

    def put(self, key: K, value: V) -> V:
        """Keep `value` for `key`, dropping the least recently used values beyond the bounds;
        returns `value`. A value heavier than the whole budget is not kept."""
        weight = self._weigh(value)
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if weight > self.max_bytes:
                return value
            self._values[key] = (value, weight)
            self._bytes += weight
            while self._bytes > self.max_bytes or len(self._values) > self.max_entries:
                _, (_, dropped) = self._values.popitem(last=False)
                self._bytes -= dropped
        return value

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._values.clear()
            self._bytes = 0
