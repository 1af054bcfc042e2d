"""Shared fixtures. Keep this small: helpers used by one test file live in that file."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import settings

from erabox.core.config import Config
from erabox.core.machine import Game, new_game, next_deadline, screen_kind, step
from erabox.core.model import (
    Button,
    Effect,
    Gesture,
    Input,
    Music,
    Phase,
    PlaySound,
    Sound,
    Tick,
)

# Property tests: no per-example time limit (a loaded machine makes any example slow, and
# timing belongs in `make bench`), and in CI the same examples every run, so CI's verdict
# depends on the code alone; a developer's run still explores new examples each time.
settings.register_profile("erabox", deadline=None, derandomize=bool(os.environ.get("CI")))
# `make test-deep` (ERABOX_TEST_DEEP=1): the nightly-style run, ten times the examples and a
# fresh random seed every run (a failure prints the seed that reproduces it).
settings.register_profile("deep", deadline=None, derandomize=False, max_examples=2000,
                          print_blob=True)
settings.load_profile("deep" if os.environ.get("ERABOX_TEST_DEEP") else "erabox")


@dataclass
class Table:
    """A game on a virtual clock, driven the way the box's loop drives the core: it wakes at
    every deadline `next_deadline` names (and at nothing else) and hands inputs in at `now`.

    `log` keeps every effect with the virtual time it happened at.
    """

    config: Config
    game: Game = field(init=False)
    now: float = 0.0
    log: list[tuple[float, Effect]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.game = new_game(self.config)

    def wait_until(self, until: float) -> None:
        """Let time pass up to `until`, stepping through every deadline on the way."""
        while (due := next_deadline(self.game, self.now)) is not None and due <= until:
            assert due >= self.now - 1e-9, "a deadline in the past"
            self.now = max(self.now, due)
            self.game, effects = step(self.game, Tick(), self.now)
            self.log += [(self.now, e) for e in effects]
        self.now = max(self.now, until)

    def wait(self, seconds: float) -> None:
        """Let `seconds` of wall time pass."""
        self.wait_until(self.now + seconds)

    def do(self, button: Button | str, gesture: Gesture | str = Gesture.PRESS
           ) -> tuple[Effect, ...]:
        """A gesture now; returns that step's effects."""
        self.game, effects = step(self.game, Input(Button(button), Gesture(gesture)), self.now)
        self.log += [(self.now, e) for e in effects]
        return effects

    def close_guide(self) -> None:
        """Leave the preparation guide for the setup screen (hold NEXT), if it is shown."""
        if screen_kind(self.game) is Phase.PREPARE:
            self.do(Button.NEXT, Gesture.HOLD)

    def finish_scoring(self) -> None:
        """Confirm 0 points everywhere (and 0 buildings in a tie) until the scoring is over:
        the era's next setup, or game over after Era III."""
        for _ in range(100):
            if self.game.phase is not Phase.SCORING or self.game.question is not None:
                return
            self.do(Button.ERA)
        raise AssertionError("the scoring never ended")

    def sounds(self, sound: Sound) -> list[float]:
        """Times at which `sound` was played."""
        return [t for t, e in self.log if isinstance(e, PlaySound) and e.sound is sound]

    def music(self) -> list[tuple[float, str]]:
        """(time, action) of every music effect."""
        return [(t, e.action.value) for t, e in self.log if isinstance(e, Music)]


@pytest.fixture
def table() -> Callable[..., Table]:
    """Factory: `table()` for the defaults, `table(config)` for another config."""

    def make(config: Config | None = None) -> Table:
        return Table(Config() if config is None else config)

    return make


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """A fresh mock pin factory; passed explicitly, and never left as gpiozero's global."""
    saved = Device.pin_factory
    mock = MockFactory()
    yield mock
    mock.reset()
    Device.pin_factory = saved


# Golden transcripts (tests/golden/record.py): with ERABOX_RECORD_GOLDEN=DIR every simulation
# the suite plays is written to DIR.
if os.environ.get("ERABOX_RECORD_GOLDEN"):
    import sys as _sys

    _sys.path.insert(0, os.path.join(os.path.dirname(__file__), "golden"))
    import record as _record

    _record.install(os.environ["ERABOX_RECORD_GOLDEN"])
    _hook = os.path.join(os.path.dirname(__file__), "golden", "hook")
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (_hook, os.environ.get("PYTHONPATH", "")) if p)
