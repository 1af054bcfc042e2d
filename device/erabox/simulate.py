"""`erabox simulate`: the real game core on a virtual clock, as fast as the machine allows.

The loop jumps from deadline to deadline (`next_deadline`) and from script line to script line,
so a whole 27-minute game takes milliseconds and every event lands on its exact time.
A `restart` line reloads the game from the last snapshot the core asked to save, through the
same JSON text a real state file would hold.

`ScriptRunner` is that loop for any `GameDriver` (the seam `erabox run` uses too): Time of
Empires' `Driver` here, a game profile's `PlayDriver` in `profile_simulate.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from erabox.core.config import Config
from erabox.core.events import EventRecorder
from erabox.core.machine import Game
from erabox.core.model import Input, Screen, Tick
from erabox.core.script import End, Restart, ScriptLine
from erabox.driver import Driver, MemorySettings, MemoryState
from erabox.profile_driver import GameDriver
from erabox.workers import ChangedOnly

DEFAULT_TAIL_S = 700.0  # without --until: run this long after the last script line


class ScriptRunner:
    """A game's driver on a virtual clock: `now` jumps from deadline to deadline and from
    script line to script line. Subclasses build `driver` and start it."""

    driver: GameDriver
    now: float = 0.0

    def advance(self, until: float) -> None:
        """Fire every deadline up to and including `until`."""
        while (due := self.driver.next_deadline(self.now)) is not None and due <= until:
            self.now = max(self.now, due)
            self.driver.step(Tick(), self.now, due)
        self.now = max(self.now, until)

    def perform(self, line: ScriptLine) -> bool:
        """Run one script line at its time. False when the script says `end`."""
        self.advance(line.at)
        action = line.action
        if isinstance(action, End):
            return False
        if isinstance(action, Restart):
            self.restart()
        elif isinstance(action, Input):
            self.driver.input(action, self.now)
            self.driver.step(action, self.now)
        return True

    def restart(self) -> None:
        """A power cut now: what was saved is all that survives."""
        self.driver.power_cut(self.now)

    def run(self, script: list[ScriptLine], until: float | None) -> None:
        """Run a whole script; stop at `until` (default: 700 s after the last line) or
        `end`."""
        if until is None:
            until = (script[-1].at if script else 0.0) + DEFAULT_TAIL_S
        for line in script:
            if line.at > until:
                break
            if not self.perform(line):
                return
        self.advance(until)


class Simulation(ScriptRunner):
    """One simulated box. `on_event` receives each event dict; `on_screen` each new screen.

    The same `Driver` as `erabox run`, with the state and settings files kept in memory (as the
    JSON a real file would hold) and the clock in `now`.
    """

    def __init__(self, config: Config, on_event: Callable[[dict[str, Any]], None],
                 on_screen: Callable[[Screen, float], None] | None = None) -> None:
        self.config = config
        self.on_event = on_event
        self.on_screen = on_screen
        self.now = 0.0
        self.recorder = EventRecorder(on_event, config.buttons.hold_s)
        self.state = MemoryState()
        self.settings = MemorySettings()
        self._screens = ChangedOnly[Screen]()
        self.driver: Driver = Driver(config, state=self.state, settings=self.settings,
                                     show=self._show, events=self.recorder)
        self.driver.start(0.0)

    @property
    def game(self) -> Game:
        return self.driver.game

    def _show(self, screen_model: Screen, t: float) -> None:
        if self._screens.changed(screen_model) and self.on_screen is not None:
            self.on_screen(screen_model, t)

    def restart(self) -> None:
        """A power cut now: what was saved is all that survives (the screen is drawn anew)."""
        self._screens.forget()
        super().restart()


def simulate(config: Config, script: list[ScriptLine], until: float | None,
             on_event: Callable[[dict[str, Any]], None],
             on_screen: Callable[[Screen, float], None] | None = None) -> Simulation:
    """Run a whole script; stop at `until` (default: 700 s after the last line) or `end`."""
    sim = Simulation(config, on_event, on_screen)
    sim.run(script, until)
    return sim
