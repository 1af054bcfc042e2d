"""The loop runs CPython's older garbage collections itself (`erabox.core.collection` decides).

While the loop runs (`with LoopCollector():`), the middle and full generations' thresholds are
raised out of reach, so no other thread's allocation can start a long pass; the young
generation stays automatic. `idle(slack_s)`, called by the loop just before it waits, runs the
generation that is due if the pass fits before the loop's next wake-up, and times it.

Python 3.14 and later collect incrementally (short bounded increments, no separate middle
generation): there the collector is left alone and `idle` does nothing.
"""

from __future__ import annotations

import gc
import logging
import sys
import time
from collections.abc import Callable

from erabox.core.collection import FIRST_GUESS_S, due_generation, fits

log = logging.getLogger(__name__)

OUT_OF_REACH = 1 << 30  # a threshold no count reaches
INCREMENTAL = sys.version_info >= (3, 14)


class LoopCollector:
    """`CollectorPort` on the real `gc` module."""

    def __init__(self, timer: Callable[[], float] = time.perf_counter) -> None:
        self.timer = timer
        self.cost_s = dict(FIRST_GUESS_S)  # the last pass of each generation took
        self._saved: tuple[int, int, int] | None = None  # the thresholds while owned

    @property
    def owned(self) -> bool:
        return self._saved is not None

    def __enter__(self) -> LoopCollector:
        young, middle, full = gc.get_threshold()
        # not where CPython collects incrementally, nor where collection is off or another
        # loop in this process owns it already (it restores the thresholds when it ends)
        if not INCREMENTAL and gc.isenabled() and self._saved is None \
                and OUT_OF_REACH not in (middle, full):
            self._saved = (young, middle, full)
            gc.set_threshold(young, OUT_OF_REACH, OUT_OF_REACH)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def idle(self, slack_s: float | None) -> int | None:
        """Run the due older generation if it fits in `slack_s`; returns which ran, if any."""
        if self._saved is None:
            return None
        generation = due_generation(gc.get_count(), self._saved)
        if generation is None or not fits(slack_s, self.cost_s[generation]):
            return None
        began = self.timer()
        gc.collect(generation)
        self.cost_s[generation] = self.timer() - began
        log.debug("garbage collection, generation %d: %.1f ms (%s s to the next wake-up)",
                  generation, self.cost_s[generation] * 1000,
                  "no deadline" if slack_s is None else f"{slack_s:.3f}")
        return generation


def return_big_buffers_to_the_system() -> None:
    """Ask glibc to give large blocks (a decoded era loop is ~12 MB) back to the system when
    they are freed. By default it keeps them in its heap, and a box that has played three eras
    would sit on ~40 MB it no longer uses (measured by `make soak`). Same effect as
    MALLOC_MMAP_THRESHOLD_=1048576; a no-op off glibc."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6")
        m_mmap_threshold = -3
        libc.mallopt(m_mmap_threshold, 1 << 20)
    except (OSError, AttributeError) as exc:
        log.debug("mallopt unavailable: %s", exc)
