"""Two small helpers the parts share, so each is written once.

- `NewestWorker`: a thread that handles the newest value handed to it. Values handed over while
  it is busy replace each other: only the latest is handled (a screen to draw, a game to save,
  the picture and contrast the OLED should show, "a button's pin changed"). `put` never blocks
  on the work; `flush` waits until it is done; `handle` may ask to be called again after a
  while (a failure's retry, or a timer's next deadline); `close` finishes what is pending,
  then stops the thread. What a value waiting to be handled again means for newer values,
  `flush` and `close` is the worker's `Again` policy. The screen worker, the state file's
  writer, the OLED and the buttons' gesture timer run on it.
- `ChangedOnly`: remembers the last value let through and says whether a new one differs ("skip
  an unchanged frame"): the screen worker, every display backend and the simulator use it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

T = TypeVar("T")

log = logging.getLogger("erabox")


class ChangedOnly(Generic[T]):
    """Lets a value through when it differs from the last one let through."""

    def __init__(self) -> None:
        self._last: T | None = None
        self._any = False

    def differs(self, value: T) -> bool:
        """Whether `value` differs from the last value let through (nothing remembered)."""
        return not (self._any and value == self._last)

    def remember(self, value: T) -> None:
        """`value` went through (e.g. once its write succeeded)."""
        self._last = value
        self._any = True

    def changed(self, value: T) -> bool:
        """True (and remembered) when `value` differs from the last value let through."""
        if not self.differs(value):
            return False
        self.remember(value)
        return True

    @property
    def last(self) -> T | None:
        """The last value let through (None before the first)."""
        return self._last

    def forget(self) -> None:
        """The next value gets through whatever it is (after a restart, a failed write...)."""
        self._last = None
        self._any = False


@dataclass(frozen=True)
class Again:
    """What a `NewestWorker` does while a value waits to be handled again (`handle` returned a
    number of seconds: it failed and retries then, or it is a timer and that is its deadline).

    The defaults suit work whose newest value may well succeed where the last one failed (a
    state file: the next save is tried at once) and whose callers must not wait on a broken
    part. `Again.PART` is for a part that is down as a whole (an OLED off the bus): nothing is
    tried before the retry time, however many values come, and only success counts as done.
    `Again.TIMER` is for a timer: a new value is handled at once, and `close` does not fire a
    deadline early.
    """

    # A value put meanwhile is handled at once (False: it waits for that time too, so attempts
    # stay spaced however often values come).
    newer_at_once: bool = True
    # `flush` counts a value waiting to be handled again as done (False: only a handled one).
    waiting_is_done: bool = True
    # `close` handles a waiting value once more, at once (False: it is dropped).
    once_more_at_close: bool = True

    PART: ClassVar[Again]
    TIMER: ClassVar[Again]


Again.PART = Again(newer_at_once=False, waiting_is_done=False, once_more_at_close=False)
Again.TIMER = Again(once_more_at_close=False)


class NewestWorker(Generic[T]):
    """A daemon thread calling `handle(value)` with the newest value `put`; older pending values
    are dropped. An exception from `handle` is logged and the worker goes on.

    `handle` may return a number of seconds instead of None: the newest value is handled again
    after that long (sooner if `again.newer_at_once` and a newer value comes). For work that can
    fail that is its retry; for a timer, its next deadline.
    """

    def __init__(self, name: str, handle: Callable[[T], float | None], *,
                 again: Again = Again()) -> None:
        self._handle = handle
        self._again = again
        self._cond = threading.Condition()
        self._pending: tuple[T] | None = None  # a box, so that None can be a value too
        self._retry_at = 0.0  # while failing: monotonic time before which `_pending` waits
        self._busy = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def put(self, value: T) -> None:
        """Hand `value` over (replacing one still pending); returns at once."""
        with self._cond:
            self._pending = (value,)
            if self._again.newer_at_once:
                self._retry_at = 0.0
            self._cond.notify_all()

    def _waiting(self) -> bool:
        """Whether `_pending` waits for its retry time (under the lock)."""
        return self._pending is not None and time.monotonic() < self._retry_at

    def _done(self) -> bool:
        """Whether `flush` may return (under the lock)."""
        if self._busy:
            return False
        if self._pending is None:
            return True
        return self._again.waiting_is_done and self._waiting()

    def flush(self, timeout: float) -> bool:
        """Wait until nothing is pending or being handled (a value waiting to be handled again
        counts as done unless the policy says otherwise). False after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._done():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                # A value's retry time passing changes nothing here: it is tried, then notifies.
                self._cond.wait(left)
        return True

    def close(self, timeout: float = 2.0) -> bool:
        """Handle what is pending (a value waiting to be handled again: once more at once, or
        dropped, as the policy says), then stop the thread, waiting at most `timeout`. False
        if the thread is still busy after that (a hung part): it is left behind (a daemon
        thread)."""
        with self._cond:
            if self._waiting():
                if self._again.once_more_at_close:
                    self._retry_at = 0.0
                else:
                    self._pending = None
            self._closed = True
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)
        return not self._thread.is_alive()

    def _next(self) -> tuple[T] | None:
        """The value to handle next (waiting for one or for its retry), None once closed."""
        with self._cond:
            while True:
                if self._pending is not None:
                    left = self._retry_at - time.monotonic()
                    if left <= 0:
                        taken = self._pending
                        self._pending = None
                        self._busy = True
                        return taken
                    self._cond.wait(left)
                elif self._closed:
                    return None
                else:
                    self._cond.wait()

    def _run(self) -> None:
        while (taken := self._next()) is not None:
            (value,) = taken
            retry: float | None = None
            try:
                retry = self._handle(value)
            except Exception:  # the worker must outlive a bad value
                log.exception("%s: could not handle a value", self._thread.name)
            with self._cond:
                self._busy = False
                if retry is None:
                    self._retry_at = 0.0
                elif self._closed and (self._pending is None or not self._again.once_more_at_close):
                    self._pending = None  # closing: not again after the last time
                else:
                    if self._pending is None:
                        self._pending = taken  # nothing newer came: this one again later
                    if self._pending is taken or not self._again.newer_at_once:
                        self._retry_at = time.monotonic() + retry
                self._cond.notify_all()
