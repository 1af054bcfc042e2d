"""The era engine's game on a virtual clock (`Table`): for the era engine's own tests, until
they go with it (docs/architecture.md, step 5)."""

from __future__ import annotations

from dataclasses import dataclass, field

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
