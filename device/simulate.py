"""`erabox simulate`: the real game core on a virtual clock, as fast as the machine allows.

The loop jumps from deadline to deadline (`next_deadline`) and from script line to script line,
so a whole 27-minute game takes milliseconds and every event lands on its exact time.
A `restart` line reloads the game from the last snapshot the core asked to save, through the
same JSON text a real state file would hold.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from device.core.config import Config
from device.core.events import EventRecorder
from device.core.machine import Game, new_game, next_deadline, restore, screen, step
from device.core.model import Effect, Input, Save, SaveSettings, Screen, Show, Tick
from device.core.script import End, Restart, ScriptLine
from device.core.settings import Settings, from_dict
from device.core.snapshot import dumps, loads

DEFAULT_TAIL_S = 700.0  # without --until: run this long after the last script line


@dataclass
class Simulation:
    """One simulated box. `on_event` receives each event dict; `on_screen` each new screen."""

    config: Config
    on_event: Callable[[dict[str, Any]], None]
    on_screen: Callable[[Screen, float], None] | None = None
    saved_text: str | None = None  # the "state file": JSON text of the last save
    saved_settings: Settings | None = None  # the settings file: what the menu chose
    game: Game = field(init=False)
    now: float = 0.0
    _last_screen: Screen | None = None

    def __post_init__(self) -> None:
        self.recorder = EventRecorder(self.on_event)
        self.game = new_game(self.config)
        self._apply((Show(screen(self.game, 0.0)),), 0.0)

    def _apply(self, effects: tuple[Effect, ...], t: float) -> None:
        for effect in effects:
            if isinstance(effect, Save):
                self.saved_text = dumps(effect.snapshot)
            elif isinstance(effect, SaveSettings):
                self.saved_settings = from_dict(effect.settings, self.config)
            elif isinstance(effect, Show) and effect.screen != self._last_screen:
                self._last_screen = effect.screen
                if self.on_screen is not None:
                    self.on_screen(effect.screen, t)
        self.recorder.step(effects, self.game, t)

    def advance(self, until: float) -> None:
        """Fire every deadline up to and including `until`."""
        while (due := next_deadline(self.game, self.now)) is not None and due <= until:
            self.now = max(self.now, due)
            self.game, effects = step(self.game, Tick(), self.now)
            self._apply(effects, self.now)
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
            self.recorder.input(action, self.now)
            self.game, effects = step(self.game, action, self.now)
            self._apply(effects, self.now)
        return True

    def restart(self) -> None:
        """A power cut now: what was saved is all that survives."""
        self._last_screen = None
        if self.saved_text is None:
            self.game = new_game(self.config, settings=self.saved_settings)
            self._apply((), self.now)
            return
        snapshot = loads(self.saved_text, self.config)
        self.game, effects = restore(snapshot, self.config, self.now,
                                     settings=self.saved_settings)
        self._apply(effects, self.now)


def simulate(config: Config, script: list[ScriptLine], until: float | None,
             on_event: Callable[[dict[str, Any]], None],
             on_screen: Callable[[Screen, float], None] | None = None) -> Simulation:
    """Run a whole script; stop at `until` (default: 700 s after the last line) or `end`."""
    sim = Simulation(config, on_event, on_screen)
    if until is None:
        until = (script[-1].at if script else 0.0) + DEFAULT_TAIL_S
    for line in script:
        if line.at > until:
            break
        if not sim.perform(line):
            return sim
    sim.advance(until)
    return sim
