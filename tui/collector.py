"""When Python's cyclic garbage collector runs: while the user pauses, not inside a keystroke.

A full collection walks every container object the process holds. With 10,000 papers, their
search and related-papers indexes and Textual's caches, one took 20-110 ms, whenever the
allocation counters said so: often inside the frame that draws a keystroke's results (measured
with `gc.callbacks` in the app running in tmux). So the app

- freezes (`gc.freeze`) what lives as long as it does, once built: the library, the search
  index, the related-papers index. Collections never walk those objects again;
- turns automatic full collections off while it runs, and runs one itself once the user has
  paused for `IDLE_SECONDS` after typing or moving (one per burst of activity), so that cyclic
  garbage is still reclaimed and memory stays flat;
- holds the young generations' collections off while keys come, and runs them itself once
  the keys pause for `HOLD_YOUNG_SECONDS` (or anyway when `YOUNG_LIMIT` objects wait): each
  took 0.1-0.3 ms, a few a keystroke, but one that met the results a search had just made
  took 15-60 ms (at 100,000 papers, in the app in tmux), inside that keystroke's frame;
- makes its threads share one malloc arena and gives free pages back to the system after
  each full collection (`tui.native_memory`): memory a worker freed was otherwise left where
  no other thread could reuse it, and the process's resident size only grew;
- collects nothing at all while a removal, undo or redo is written in a worker (`hold` and
  `end_hold`, by `tui.app_writing`) and freezes what it made when it ends: the worker re-reads
  every paper of papers.json (100,000 at 100k papers, the library's new papers), and the young
  and middle collections its allocations set off took 40-90 ms each, stopping every thread,
  keys included (in the app in tmux, `gc` marks of PAPERSHELF_TRACE);
- collects nothing at all while it starts (`StartPause`, from before the library is opened to
  the first frame): nearly everything the start allocates lives as long as the app (100,000
  papers, Textual's widgets), so the full collections the allocation counters would run
  meanwhile (three at 100,000 papers, each walking every paper) find nothing to free: 0.13-0.16
  s of CPU before the first frame. The library is frozen once loaded (`run_app`), so the first
  young collection after the first frame walks only what Textual's start left (~40,000
  objects, ~8,000 of them garbage), and frees that garbage instead of freezing it for good.

Everything is put back as it was when the app stops (tests run many apps in one process),
but the arena setting: glibc cannot undo it, and one arena is as good for a later app.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from papershelf.tui import native_memory, strip_cycles

IDLE_SECONDS = 1.0
"""A pause this long after the last keystroke lets a full collection run."""
NO_AUTOMATIC_FULL_COLLECTION = 1_000_000_000
"""The oldest generation's threshold while the app runs: a count that is never reached."""
HOLD_YOUNG_SECONDS = 0.05
"""Young collections held off by a key run once no key has come for this long."""
YOUNG_LIMIT = 20_000
"""While young collections are held off, the youngest generation's threshold: a burst of keys
with no pause, or a worker's allocations, still gets a collection now and then."""


def freeze_long_lived() -> None:
    """Exempt every object alive now from future collections (call once a big index is built)."""
    gc.freeze()


class StartPause:
    """Cyclic collections off from now until `end` (the first frame; also a removal's write,
    `IdleCollector.hold`): see the module docstring.

    `end` turns collections back on, if they were on; it is safe to call twice (the app calls
    it at its first frame, the code that started the app again when it stops, in case the
    first frame never came).
    """

    def __init__(self) -> None:
        self._was_enabled = gc.isenabled()
        self._ended = False
        gc.disable()

    @property
    def ended(self) -> bool:
        """Whether collections are back as they were."""
        return self._ended

    def end(self) -> None:
        """Give collections back their state."""
        if self._ended:
            return
        self._ended = True
        if self._was_enabled:
            gc.enable()


class IdleCollector:
    """Moves full garbage collections to the user's pauses."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last_activity = clock()
        self._pending = False
        self._saved: tuple[int, int, int] | None = None
        self._holding = False
        self._write_hold: StartPause | None = None
        """Collections off since `hold` (None: not held)."""
        self.wake: Callable[[], None] | None = None
        """Called when a key starts holding young collections off: the app then calls
        `release_young` every `HOLD_YOUNG_SECONDS` until it returns True."""

    @property
    def holding(self) -> bool:
        """Whether young collections are held off until the keys pause."""
        return self._holding

    @property
    def pending(self) -> bool:
        """Whether a full collection is due at the next pause."""
        return self._pending

    def start(self) -> None:
        """Turn automatic full collections off (the young generations keep theirs)."""
        if self._saved is None:
            native_memory.limit_arenas()  # before the app's workers start
            strip_cycles.apply()  # drawn lines freed when replaced, not at the next pause
            self._saved = gc.get_threshold()
            young, middle, _ = self._saved
            gc.set_threshold(young, middle, NO_AUTOMATIC_FULL_COLLECTION)

    def stop(self) -> None:
        """Put the collector back as it was, frozen objects included."""
        self.end_hold()
        self._holding = False
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None
            gc.unfreeze()

    @property
    def held(self) -> bool:
        """Whether every collection is held off (`hold`)."""
        return self._write_hold is not None

    def hold(self) -> None:
        """Collect nothing, by the thresholds or at pauses, until `end_hold` (a worker is
        building what will live as long as the library)."""
        if self._write_hold is None:
            self._write_hold = StartPause()  # off now, as they were given back at `end`

    def end_hold(self) -> None:
        """Freeze what lives now (the worker's result, as the library is frozen once loaded)
        and let collections run again."""
        if self._write_hold is None:
            return
        pause, self._write_hold = self._write_hold, None
        freeze_long_lived()
        pause.end()

    def activity(self) -> None:
        """The user did something: collect at the next pause, not now."""
        self._last_activity = self._clock()
        self._pending = True
        if self._saved is not None and not self._holding:
            self._holding = True
            _, middle, _ = self._saved
            gc.set_threshold(YOUNG_LIMIT, middle, NO_AUTOMATIC_FULL_COLLECTION)
            if self.wake is not None:
                self.wake()

    def release_young(self) -> bool:
        """Once the keys have paused, run the young collections held off and let them run by
        themselves again; True when nothing is held any more (the app stops asking)."""
        if not self._holding:
            return True
        if self.held or self._clock() - self._last_activity < HOLD_YOUNG_SECONDS:
            return False
        self._release()
        return True

    def _release(self, collect: bool = True) -> None:
        self._holding = False
        if self._saved is not None:
            young, middle, _ = self._saved
            gc.set_threshold(young, middle, NO_AUTOMATIC_FULL_COLLECTION)
            if not collect:
                return
            # Both young generations each time: collecting the middle one only every
            # `middle` releases (as the thresholds would) let it gather ten pauses' worth of
            # Textual's Strips, often in cycles, and each of its collections took 25 ms
            # (median; 0.8 ms this way) at 100,000 papers. What is still alive goes to the
            # oldest generation, for the collection at the next 1 s pause.
            gc.collect(1)

    def tick(self) -> bool:
        """Run a full collection if one is due and the user has paused; True if it ran."""
        if self.held or not self._pending or self._clock() - self._last_activity < IDLE_SECONDS:
            return False
        self._pending = False
        if self._holding:
            self._release(collect=False)  # the full collection below takes the young too
        gc.collect()
        native_memory.trim()
        return True
