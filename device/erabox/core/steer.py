"""The era's running clock steered from outside the box: a hall's orders (docs/hall.md).

This is the one seam between a hall and the game: `steer(game, order, now)` is what a `Steer`
event does in `machine.step`, written only against the running clock that every real-time era
keeps (`anchor`: the box's time at running time zero; `held_elapsed` while paused; the
lead-in before the start gong; `timers.pause_era`, `resume_era`, `begin_running`, `fire_cue`).

- START: the era's running time `running_s` falls at `at` (a start ordered ahead: running time
  zero falls at `at - running_s`). In setup the lead-in is laid so that its start gong lands on
  zero (its ticks already past are skipped); a start that arrives late (a box that joins or
  comes back mid-era) starts at once on the hall's running time, sounding the start gong but
  not the calls more than `LATE_S` behind it. A running era is re-anchored; a paused one
  resumes on the hall's running time.
- PAUSE: a running era pauses holding `running_s` (every table holds the same time); a paused
  one takes `running_s` as its held time.
- RESUME: a paused era resumes so that `running_s` falls at `at`; a running one is re-anchored;
  one still in setup starts late (as START).
- END: a running or paused era's end gong sounds now and its scoring opens.
- SLEW: a running era's anchor moves so that `running_s` falls at `at` (no sound: the hall's
  small clock corrections). Any other phase ignores it.

An order that does not fit the phase (an introductory era, scoring, the settings menu) changes
nothing: a table that plays something else is left alone.
"""

from __future__ import annotations

from dataclasses import replace

from .config import Config
from .game import EPS, Game, timeline
from .model import Effect, Mode, Phase, Steer, SteerAction
from .timers import (
    ahead_if_due,
    arm_if_due,
    begin_running,
    enter_scoring,
    fire_cue,
    pause_era,
    resume_era,
)

LATE_S = 1.0  # a call more than this behind the hall's running time at a late start: skipped

_Outcome = tuple[Game, tuple[Effect, ...]]


def may_pause_alone(config: Config) -> bool:
    """Whether the table's own NEXT hold pauses (and resumes) its era: always without a hall;
    in a hall only when the hall allows it (`[hall] pause_alone`)."""
    return config.hall is None or config.hall.pause_alone


def steer(game: Game, order: Steer, now: float) -> _Outcome:
    """What the hall's `order` does to the game at `now` (the order's `at` is at or before
    `now`, except a START's, which may lie ahead)."""
    if game.menu is not None or (game.mode is not Mode.REALTIME and game.phase is not Phase.SETUP):
        return game, ()
    zero = order.at - order.running_s  # the box's time at the hall's running time zero
    phase = game.phase
    action = order.action
    if action is SteerAction.SLEW or (phase is Phase.RUNNING and action in (
            SteerAction.START, SteerAction.RESUME)):
        return (replace(game, anchor=zero), ()) if phase is Phase.RUNNING else (game, ())
    if action in (SteerAction.START, SteerAction.RESUME):
        if phase in (Phase.SETUP, Phase.LEAD_IN):
            return _start(game, zero, now)
        if phase is Phase.PAUSED:
            return resume_era(replace(game, held_elapsed=max(0.0, now - zero)), now)
        return game, ()
    if action is SteerAction.PAUSE:
        if phase is Phase.RUNNING:
            game, effects = pause_era(game, now)
            return replace(game, held_elapsed=order.running_s), effects
        if phase is Phase.PAUSED:
            return replace(game, held_elapsed=order.running_s), ()
        return game, ()
    if phase in (Phase.RUNNING, Phase.PAUSED):  # END
        cues = timeline(game.config)
        running = replace(game, phase=Phase.RUNNING, anchor=game.anchor if game.anchor
                          is not None else now - (game.held_elapsed or 0.0),
                          held_elapsed=None, cues_done=len(cues) - 1)
        return fire_cue(running, now)
    if phase is Phase.LEAD_IN:
        return enter_scoring(replace(game, lead_in_started=None, lead_in_ticks=0)), ()
    return game, ()


def _start(game: Game, zero: float, now: float) -> _Outcome:
    """Running time zero at `zero`: through the lead-in when it lies ahead, else at once."""
    lead_in = game.config.realtime.lead_in_s
    game = replace(game, guide=None, mode=Mode.REALTIME, question=None, question_until=None)
    if zero > now + EPS:
        started = zero - lead_in
        past = min(lead_in, max(0, int(now - started + 1 - EPS))) if now > started else 0
        return replace(game, phase=Phase.LEAD_IN, lead_in_started=started,
                       lead_in_ticks=past), ()
    if now - zero >= game.config.realtime.length_s:  # that era is over at the hall
        return game, ()
    game, effects = begin_running(game, zero)
    cues = timeline(game.config)
    skipped = sum(1 for cue in cues[:-1] if zero + cue.at < now - LATE_S)
    game = replace(game, cues_done=skipped, armed=None)
    return ahead_if_due(arm_if_due(game, now), now), effects
