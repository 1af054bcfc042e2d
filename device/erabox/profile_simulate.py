"""`erabox simulate --game`: a game profile's machine on a virtual clock (docs/simulate.md),
and `--frames DIR` with it: each distinct profile screen as a PNG.

The same loop as `simulate.py` for the box's own game (`ScriptRunner`), driving the same
`PlayDriver` as `erabox run --game`: it jumps from deadline to deadline and from script line
to script line; a `restart` line throws the play away and brings it back from the last save,
through the JSON text a state file would hold.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from erabox.core.config import Config
from erabox.core.profile import Profile
from erabox.core.profile_events import PlayRecorder
from erabox.core.profile_play import Play, PlayScreen
from erabox.core.script import ScriptLine
from erabox.driver import MemoryState
from erabox.profile_driver import PlayDriver
from erabox.simulate import ScriptRunner
from erabox.ui.panel import Panel
from erabox.ui.profile_screens import render_play

OnScreen = Callable[[PlayScreen, float], None]


class PlayFrameWriter:
    """`--frames DIR` for a profile: each distinct screen as `DIR/NNNN-<t>.png`."""

    def __init__(self, directory: Path, language: str, panel: Panel | None = None) -> None:
        from erabox.adapters.display import PngDisplay

        self.panel = panel or Panel()
        self.display = PngDisplay(directory, self.panel.size)
        self.language = language

    def __call__(self, screen: PlayScreen, t: float) -> None:
        self.display.show(render_play(screen, self.panel, self.language), label=f"{t:.3f}")


def seeded_draws(seed: int) -> Callable[[int], int]:
    """The draws of a "random" profile's start player, one after the other from `seed`: the
    first game's, then one for each new game (the same seed, the same players)."""
    draws = random.Random(seed)
    return draws.randrange


class PlaySimulation(ScriptRunner):
    """One simulated play. `on_event` receives each event dict; `on_screen` each new screen.

    The same `PlayDriver` as `erabox run --game`, with the state file kept in memory (as the
    JSON a real file would hold), the start players drawn from `seed`, the clock in `now`.
    """

    def __init__(self, profile: Profile, players: tuple[str, ...],
                 on_event: Callable[[dict[str, Any]], None], seed: int = 0,
                 on_screen: OnScreen | None = None) -> None:
        self.on_screen = on_screen
        self._shown: PlayScreen | None = None
        self.profile = profile
        self.players = players
        self.now = 0.0
        self.recorder = PlayRecorder(on_event)
        self.state = MemoryState()
        self.driver: PlayDriver = PlayDriver(
            Config(players=players), profile, state=self.state, show=self._show,
            events=self.recorder, draw=seeded_draws(seed))
        self.driver.start(0.0)

    @property
    def play(self) -> Play:
        return self.driver.play

    @property
    def saved_text(self) -> str | None:
        """The "state file": JSON text of the last save."""
        return self.state.text

    def _show(self, shown: PlayScreen, t: float) -> None:
        if self.on_screen is not None and shown != self._shown:
            self._shown = shown
            self.on_screen(shown, t)


def simulate_profile(profile: Profile, players: tuple[str, ...], script: list[ScriptLine],
                     until: float | None, on_event: Callable[[dict[str, Any]], None],
                     seed: int = 0, on_screen: OnScreen | None = None) -> PlaySimulation:
    """Run a whole script; stop at `until` (default: 700 s after the last line) or `end`."""
    sim = PlaySimulation(profile, players, on_event, seed, on_screen)
    sim.run(script, until)
    return sim
