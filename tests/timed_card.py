"""A state card on a virtual clock whose durable writes take `write_s` each, one at a time
(tests/test_profile_card_ahead.py; it was tests/test_card_lead.py's, whose era-engine tests
went with that engine)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


class TimedCard:
    """A state store whose durable writes take `write_s` of virtual time each."""

    problem: str | None = None

    def __init__(self, write_s: float) -> None:
        self.write_s = write_s
        self.now = 0.0  # the virtual clock; `flush` moves it on as the loop's wait would
        self.landed: str | None = None
        self.landings: list[tuple[float, str]] = []  # (when on disk, text)
        self._writing: tuple[str, float] | None = None  # (text, lands at)
        self._next: str | None = None  # the newest snapshot, waiting for the writer

    def _run_until(self, t: float) -> None:
        while self._writing is not None and self._writing[1] <= t + 1e-9:
            text, at = self._writing
            self.landed = text
            self.landings.append((at, text))
            self._writing = None
            if self._next is not None:
                self._writing, self._next = (self._next, at + self.write_s), None

    def _done_at(self) -> float | None:
        if self._writing is None:
            return None
        return self._writing[1] + (self.write_s if self._next is not None else 0.0)

    def save(self, snapshot: dict[str, Any]) -> None:
        self._run_until(self.now)
        text = json.dumps(snapshot, sort_keys=True)
        if self._writing is None:
            self._writing = (text, self.now + self.write_s)
        else:
            self._next = text

    def flush(self, timeout: float = 0.0) -> bool:
        done = self._done_at()
        if done is None or done <= self.now + timeout + 1e-9:
            self.now = max(self.now, done or self.now)
            self._run_until(self.now)
            return True
        self.now += timeout
        self._run_until(self.now)
        return False

    def load_as(self, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any] | None:
        return None

    def close(self) -> None:
        pass
