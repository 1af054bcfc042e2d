"""`erabox simulate`: the real game core on a virtual clock, as fast as the machine allows.

The loop jumps from deadline to deadline (`next_deadline`) and from script line to script line,
so a whole 27-minute game takes milliseconds and every event lands on its exact time.
A `restart` line reloads the game from the last snapshot the core asked to save, through the
same JSON text a real state file would hold.

One `Simulation` for every game: the same `Driver` as `erabox run`, playing Time of Empires or,
with `profile`, a game profile's play (`--game`; its random start players drawn from `seed`).
A game chosen in the settings menu (every game's: ERA held at its setup) is played next,
fresh, as `erabox run` does (given `find_profile`; the events go on in that game's own lines);
Time of Empires chosen there is played without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from erabox.adapters.workers import ChangedOnly
from erabox.core.config import Config
from erabox.core.engine import AnyScreen, Recorder
from erabox.core.events import PlayRecorder
from erabox.core.model import Input, Tick
from erabox.core.profile import Profile
from erabox.core.script import End, Restart, ScriptLine
from erabox.run.driver import Driver, MemorySettings, MemoryState, seeded_draws
from erabox.run.which_game import switched_game

DEFAULT_TAIL_S = 700.0  # without --until: run this long after the last script line

OnScreen = Callable[[Any, float], None]
"""Receives each new screen model (either game's) with its virtual time."""


class Simulation:
    """One simulated box. `on_event` receives each event dict; `on_screen` each new screen.

    The same `Driver` as `erabox run`, with the state and settings files kept in memory (as the
    JSON a real file would hold) and the clock in `now`. `profile`: play that game profile for
    `config`'s players (None: Time of Empires); `seed`: its random start players' draws.
    """

    def __init__(self, config: Config, on_event: Callable[[dict[str, Any]], None],
                 on_screen: OnScreen | None = None, *, profile: Profile | None = None,
                 seed: int = 0, find_profile: Callable[[str], Profile] | None = None) -> None:
        self.config = config
        self.find_profile = find_profile
        self.draw = seeded_draws(seed)
        self.on_event = on_event
        self.on_screen = on_screen
        self.now = 0.0
        self.state = MemoryState()
        self.settings = MemorySettings()
        self._screens = ChangedOnly[AnyScreen]()
        self.driver = self._driver(config, profile)
        self.driver.start(0.0)

    def _driver(self, config: Config, profile: Profile | None) -> Driver:
        self.recorder: Recorder[Any] = PlayRecorder(self.on_event, config.buttons.hold_s,
                                                    config.audio)
        return Driver(config, profile=profile, state=self.state, settings=self.settings,
                      show=self._show, events=self.recorder, draw=self.draw, base=self.config)

    def _step(self, event: Input | Tick, due: float | None = None) -> None:
        self.driver.step(event, self.now, due)
        wanted = self.driver.switch_to
        if wanted is None or self.find_profile is None:
            return
        self.driver.switch_to = None
        profile, config = None, self.config
        if wanted:  # the menu closed on a game profile: that game, for the menu's players
            config = self.driver.played_config
            profile, self.config = switched_game(wanted, config, self.config, self.find_profile)
        # else Time of Empires chosen in a profile's menu
        self.driver = self._driver(config if profile else self.config, profile)
        self._screens.forget()
        # a game that cannot be played: Time of Empires' menu, saying why
        self.driver.start_over(self.now, menu=profile is None and bool(wanted))

    @property
    def game(self) -> Any:
        """The game as it stands: its `play.Play`."""
        return self.driver.game

    @property
    def saved_text(self) -> str | None:
        """The "state file": JSON text of the last save."""
        return self.state.text

    def _show(self, screen_model: AnyScreen, t: float) -> None:
        if self._screens.changed(screen_model) and self.on_screen is not None:
            self.on_screen(screen_model, t)

    def advance(self, until: float) -> None:
        """Fire every deadline up to and including `until`."""
        while (due := self.driver.next_deadline(self.now)) is not None and due <= until:
            self.now = max(self.now, due)
            self._step(Tick(), due)
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
            self._step(action)
        return True

    def restart(self) -> None:
        """A power cut now: what was saved is all that survives (the screen is drawn anew)."""
        self._screens.forget()
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


def simulate(config: Config, script: list[ScriptLine], until: float | None,
             on_event: Callable[[dict[str, Any]], None], on_screen: OnScreen | None = None,
             *, profile: Profile | None = None, seed: int = 0,
             find_profile: Callable[[str], Profile] | None = None) -> Simulation:
    """Run a whole script; stop at `until` (default: 700 s after the last line) or `end`."""
    sim = Simulation(config, on_event, on_screen, profile=profile, seed=seed,
                     find_profile=find_profile)
    sim.run(script, until)
    return sim
