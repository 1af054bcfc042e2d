"""Two small helpers the parts share, so each is written once.

- `NewestWorker`: a thread that handles the newest value handed to it. Values handed over while
  it is busy replace each other: only the latest is handled (a screen to draw, a game to save).
  `put` never blocks on the work; `flush` waits until it is done; a failed value is retried
  after a delay until a newer one comes; `close` finishes what is pending, then stops the
  thread. The screen worker and the state file's writer run on it.
- `ChangedOnly`: remembers the last value let through and says whether a new one differs ("skip
  an unchanged frame"): the screen worker, every display backend and the simulator use it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

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


class NewestWorker(Generic[T]):
    """A daemon thread calling `handle(value)` with the newest value `put`; older pending values
    are dropped. An exception from `handle` is logged and the worker goes on.

    `handle` may return a number of seconds instead of None: it failed, and the same value is
    handled again after that long, unless a newer value has come (which is handled at once).
    A value waiting for its retry counts as done for `flush`; `close` gives it one more try.
    """

    def __init__(self, name: str, handle: Callable[[T], float | None]) -> None:
        self._handle = handle
        self._cond = threading.Condition()
        self._pending: tuple[T] | None = None  # a box, so that None can be a value too
        self._failed = False  # `_pending` failed and waits until `_retry_at`
        self._retry_at = 0.0
        self._busy = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def put(self, value: T) -> None:
        """Hand `value` over (replacing one still pending); returns at once."""
        with self._cond:
            self._pending = (value,)
            self._failed = False
            self._cond.notify_all()

    def flush(self, timeout: float) -> bool:
        """Wait until nothing is pending or being handled (a value waiting for a retry after a
        failure counts as done). False after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while (self._pending is not None and not self._failed) or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def close(self, timeout: float = 2.0) -> None:
        """Handle what is pending (one more try if it failed), then stop the thread (waiting at
        most `timeout`)."""
        with self._cond:
            self._failed = False
            self._closed = True
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _next(self) -> tuple[T] | None:
        """The value to handle next (waiting for one or for its retry), None once closed."""
        with self._cond:
            while True:
                if self._pending is not None and not self._failed:
                    taken = self._pending
                    self._pending = None
                    self._busy = True
                    return taken
                if self._closed:
                    return None
                if self._pending is not None:  # failed: wait for its retry (or a newer value)
                    left = self._retry_at - time.monotonic()
                    if left <= 0:
                        self._failed = False
                        continue
                    self._cond.wait(left)
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
                if retry is not None and self._pending is None and not self._closed:
                    self._pending = taken  # nothing newer came: try this one again later
                    self._failed = True
                    self._retry_at = time.monotonic() + retry
                self._cond.notify_all()
