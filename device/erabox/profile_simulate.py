"""`erabox simulate --game`: a game profile's machine on a virtual clock (docs/simulate.md),
and `--frames DIR` with it: each distinct profile screen as a PNG.

The same shape as `simulate.py` for the box's own game: the loop jumps from deadline to
deadline and from script line to script line; a `restart` line throws the play away and
brings it back from the last save, through the JSON text a state file would hold.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from erabox.core.model import Input, Save, Tick
from erabox.core.profile import Profile
from erabox.core.profile_events import PlayRecorder
from erabox.core.profile_machine import (
    step,
)
from erabox.core.profile_play import (
    Play,
    PlayEffect,
    PlayScreen,
    ShowPlay,
    new_play,
    next_deadline,
    screen,
)
from erabox.core.profile_record import (
    restore,
)
from erabox.core.script import End, Restart, ScriptLine
from erabox.ui.panel import Panel
from erabox.ui.profile_screens import render_play

DEFAULT_TAIL_S = 700.0  # without --until: run this long after the last script line
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


def drawn_seat(seed: int, players: int) -> int:
    """The start player a "random" profile begins with, drawn once from `seed`."""
    return random.Random(seed).randrange(players)


class PlaySimulation:
    """One simulated play. `on_event` receives each event dict."""

    def __init__(self, profile: Profile, players: tuple[str, ...],
                 on_event: Callable[[dict[str, Any]], None], seed: int = 0,
                 on_screen: OnScreen | None = None) -> None:
        self.on_screen = on_screen
        self._shown: PlayScreen | None = None
        self.profile = profile
        self.players = players
        self.now = 0.0
        self.recorder = PlayRecorder(on_event)
        self.saved_text: str | None = None  # the "state file": JSON text of the last save
        self.play: Play = new_play(profile, players, drawn_seat(seed, len(players)))
        self.recorder.play(self.play, 0.0)
        self._show(screen(self.play, 0.0))

    def _show(self, shown: PlayScreen) -> None:
        if self.on_screen is not None and shown != self._shown:
            self._shown = shown
            self.on_screen(shown, self.now)

    def _apply(self, play: Play, effects: tuple[PlayEffect, ...]) -> None:
        for effect in effects:
            if isinstance(effect, Save):
                self.saved_text = json.dumps(effect.snapshot, ensure_ascii=False)
            elif isinstance(effect, ShowPlay):
                self._show(effect.screen)
        self.play = play
        self.recorder.step(effects, play, self.now)

    def advance(self, until: float) -> None:
        """Fire every deadline up to and including `until`."""
        while (due := next_deadline(self.play)) is not None and due <= until:
            self.now = max(self.now, due)
            self._apply(*step(self.play, Tick(), self.now))
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
            self._apply(*step(self.play, action, self.now))
        return True

    def restart(self) -> None:
        """A power cut now: what was saved is all that survives."""
        if self.saved_text is None:
            self.play = new_play(self.profile, self.players, self.play.drawn_seat)
            self.recorder.play(self.play, self.now)
            self._show(screen(self.play, self.now))
            return
        self._apply(*restore(json.loads(self.saved_text), self.profile, self.players,
                             self.now))


def simulate_profile(profile: Profile, players: tuple[str, ...], script: list[ScriptLine],
                     until: float | None, on_event: Callable[[dict[str, Any]], None],
                     seed: int = 0, on_screen: OnScreen | None = None) -> PlaySimulation:
    """Run a whole script; stop at `until` (default: 700 s after the last line) or `end`."""
    sim = PlaySimulation(profile, players, on_event, seed, on_screen)
    if until is None:
        until = (script[-1].at if script else 0.0) + DEFAULT_TAIL_S
    for line in script:
        if line.at > until:
            break
        if not sim.perform(line):
            return sim
    sim.advance(until)
    return sim
