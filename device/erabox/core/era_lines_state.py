"""The `state` lines of a round profile's play in Time of Empires' words (`[game] lines =
"eras"`, core/era_lines.py): the fields the era engine's `describe` gave (docs/simulate.md).

The era engine's states (docs/behaviour.md) read off the round engine's play:

- `setup`: the game's setup, an era's own (`variant_per_era`), the guide walked at either;
- `lead_in`, `running`, `paused`: a round's phase on a countdown, before its start gong (its
  lead-in), counting down, held;
- `intro_round`: a round's phase without a countdown (an introductory era's round);
- `scholars`: a special round (the scholars' call between rounds);
- `scoring`: the numbers entered, and the standings shown after them (the era engine shows
  its standings as the last step of its scoring);
- `game_over`: the final ranking;
- `confirm`: a question open ("New game?", "Restart the era?") over any of them;
- `settings`: the box's settings menu open over the setup (ERA held there: `menu`).

`round` is said in an introductory round and in the special round after it (the round it
follows), `start_player` at an era's setup, in its rounds and special rounds (a profile
whose start rule is "none", Time of Empires' real time, has none), and `elapsed` is the
countdown's running time (held while paused; none in its lead-in). A question shown over a
state keeps that state's round, start player and running time, as the era engine's does.
The line of a step after which a lead-in's tick is due at once (a lead-in just begun: its
first tick comes in the next step, at the same moment) waits for that step, so it follows
the tick as the era engine's line does (`cue_due`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import clock
from .deadlines import countdown_start
from .play import (
    EPS,
    Play,
    PlayEffect,
    State,
    countdown_elapsed,
    era_number,
    start_player,
)

Pending = Sequence[tuple[tuple[PlayEffect, ...], float]]
Line = Callable[..., None]

# the states whose line names the round, and those whose line names the start player
_ROUND_SAID = ("intro_round", "scholars")
_START_SAID = ("setup", "intro_round", "scholars")


class StateLines:
    """Writes a `state` line when any field but `elapsed` changed."""

    def __init__(self) -> None:
        self._last: dict[str, Any] | None = None

    def step(self, pending: Pending, play: Play, t: float, now: float,
             line: Line) -> dict[str, Any] | None:
        """The step's `state` line, if one is due: its fields (None: none written)."""
        if cue_due(play, now):  # its sounds first, as the era engine's step gives them
            return None
        fields = state_fields(play, now, menu=play.menu is not None)
        key = {k: v for k, v in fields.items() if k != "elapsed"}
        if key == self._last:
            return None
        self._last = key
        line(t, "state", **fields)
        return fields


def cue_due(play: Play, now: float) -> bool:
    """Is a tick of the countdown's lead-in due at `now`, not yet given (the first, of a
    lead-in begun by this step: the driver's next step, at the same moment, gives it)? The
    era engine gives it in the step that begins the lead-in, before its `state` line: the
    line waits for it. (A call due as a held countdown resumes comes in the era engine's
    next step too, after the `state` line: that line does not wait.)"""
    start = countdown_start(play)
    if start is None:
        return False
    due = clock.next_at(play.profile.phases[play.spot.phase], play.cues_done)
    return due is not None and due < 0 and start + due <= now + EPS


def state_fields(play: Play, now: float, menu: bool = False) -> dict[str, Any]:
    """The fields of a `state` line (docs/simulate.md): the state in Time of Empires' words,
    the era, the mode (the variant), the round of an introductory era, the start player and
    the era's running time (`menu`: the settings menu is open over the setup)."""
    spot = play.spot
    state, running = state_word(play, now)
    shown = ("confirm" if play.question_until is not None else
             "settings" if menu else state)
    return {"state": shown, "era": era_number(play) if play.profile.eras else None,
            "mode": play.profile.variants[spot.variant].id,
            "round": spot.round if state in _ROUND_SAID else None,
            "start_player": start_player(play) if state in _START_SAID else None,
            "elapsed": None if running is None else round(running, 3)}


def state_word(play: Play, now: float) -> tuple[str, float | None]:
    """The play's state in the era engine's words, and the countdown's running time (None
    outside a countdown, and in its lead-in)."""
    spot = play.spot
    if spot.state in (State.SETUP, State.ERA_SETUP):
        return "setup", None
    if spot.state in (State.SCORING, State.STANDINGS):
        return "scoring", None
    if spot.state is State.GAME_OVER:
        return "game_over", None
    if spot.state is State.SPECIAL:
        return "scholars", None
    phase = play.profile.phases[spot.phase]
    running = countdown_elapsed(play, now)
    if running is None:
        return "intro_round", None
    if play.held_left is not None:
        return "paused", max(0.0, running)
    if phase.lead_in_s and not any(cue.gong for cue in clock.cues(phase)[:play.cues_done]):
        return "lead_in", None
    return "running", max(0.0, running)
