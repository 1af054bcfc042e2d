"""What a hall sees of the game a box plays (docs/hall.md): the box's link keeps the game's
running clock in step by one rule (`hall.keep_in_step`, on a `hall.Table`), and tells the
director where the game stands.

The clock is the countdown of a `[[phase]]` marked `hall = true` (Time of Empires' real-time
era), in the era's words (core/steer.py steers it): SETUP while held for the hall's
start (or at a setup whose round 1 the hall's START starts), LEAD_IN before its start gong,
RUNNING (its anchor: the box's time at its start gong; its next cue, its end the last),
PAUSED; anywhere else nothing the hall steers. Each countdown (its era, round, phase, turn)
is its own, so a rejoin order is sent once for each.

Only a box in a hall imports this (through adapters/hall.py).
"""

from __future__ import annotations

from typing import Any

from . import clock, scores
from .hall import Table
from .model import Phase
from .play import EPS, Play, era_number, whole_sheet
from .steer import elapsed, held_for_start, starts_at_setup, steered

# a round game's countdown, as the director shows its state
STATES = {Phase.SETUP: "waiting", Phase.LEAD_IN: "lead_in", Phase.RUNNING: "running",
          Phase.PAUSED: "paused"}


def table_of(game: Play, now: float) -> Table:
    """What the link reads of `game` at `now` (see the module's text)."""
    return _countdown(game, now)


def _countdown(play: Play, now: float, setup: bool = True) -> Table:
    if not steered(play):  # at a setup the hall's START starts from: held for it, as the era's
        started = setup and starts_at_setup(play)
        return Table(Phase.SETUP, where=(era_number(play), 0, -1, 0)) if started else Table(None)
    spot = play.spot
    where = (era_number(play), spot.round, spot.phase, spot.turn)
    if held_for_start(play):
        return Table(Phase.SETUP, where=where)
    if play.timer_end is None:
        return Table(Phase.PAUSED, where=where)
    phase = play.profile.phases[spot.phase]
    timer = phase.timer_s
    assert timer is not None
    anchor = play.timer_end - timer
    if now < anchor - EPS:
        return Table(Phase.LEAD_IN, where=where)
    due = clock.next_at(phase, play.cues_done)
    return Table(Phase.RUNNING, anchor, anchor + (timer if due is None else due), where)


def status_of(game: Play, now: float) -> dict[str, Any]:
    """What the director shows of the table: the game, its era, its round and phase, its
    state (the countdown's the hall steers: "waiting" for the hall's start, "lead_in",
    "running", "paused"; elsewhere the play's own), the running time from the start gong and
    the standings."""
    table = _countdown(game, now, setup=False)  # a setup says "setup"
    spot = game.spot
    running = elapsed(game, now) if table.phase in (Phase.RUNNING, Phase.PAUSED) else None
    state = spot.state.value if table.phase is None else STATES[table.phase]
    totals = scores.totals(game.profile, whole_sheet(game)) or (0,) * len(game.players)
    return {"game": game.profile.name.text("en"), "era": era_number(game), "round": spot.round,
            "phase": game.profile.phases[spot.phase].id, "state": state,
            "running_s": None if running is None else round(max(0.0, running), 3),
            "paused": table.phase is Phase.PAUSED,
            "standings": sorted(zip(game.players, totals, strict=False), key=lambda p: -p[1])}
