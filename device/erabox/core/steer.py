"""A hall's orders to a round game's countdown (docs/hall.md, docs/profiles.md `hall`).

`steer(play, order, now)` is what a `Steer` event does to the countdown of a `[[phase]]`
marked `hall = true` (Time of Empires' real-time era), on the countdown's own anchor
(`clock`: every cue at start + its time; the lead-in's ticks before 0, its start
gong at 0). The hall's running time is the countdown's time from its start gong; `zero = at
- running_s` is the box's time at the hall's running time zero:

- START: a countdown not yet at its start (held for the hall, in its lead-in, paused there)
  is laid so that its start gong lands on `zero` (its lead-in's ticks already past are
  skipped); a start that arrives late (a box that joins mid-countdown) starts at once on the
  hall's running time, sounding the start gong but not the calls more than `LATE_S` behind
  it (counted given: a power cut never sounds them later). A running countdown is
  re-anchored (a cue it owes on the hall's time sounds at once: a box back from a power cut
  never loses a call); a paused one resumes on the hall's running time.
- PAUSE: a running countdown pauses holding `running_s` (every table holds the same time);
  a paused one takes `running_s` as its held time.
- RESUME: a paused countdown resumes so that `running_s` falls at `at` (a cue that fell due
  meanwhile sounds at once: the box never loses a call); a running one is re-anchored; one
  not yet at its start starts (as START).
  Music on the countdown's time pauses and resumes with it, and starts at the hall's running
  time on a late start (`move_music`), as a press's pause and resume move it.
- END: the countdown's end sounds now, as its own end does (its record on disk before the
  gong; the phase's `timer_end`: "next" moves play on).
- SLEW: a running countdown's anchor moves so that `running_s` falls at `at`, silently: the
  cues it passes more than `LATE_S` behind are counted given, never to sound. A slew that
  counts none given (the hall's small corrections, every half second) writes nothing: the
  countdown's seconds go to disk with its next periodic save (a cut before it comes back a
  little off; the hall's newest order, which the box obeys again once back, puts it on the
  hall's time).

The count of cues given never goes back (a call given is never given again). Every other
order that changes the countdown is on disk before anything sounds.

At a setup (the game's, or an era's with `variant_per_era`; its first-game guide walked
there or not, a "New game?" asked there closed), START and RESUME start play as ERA there
would, in the variant whose round 1 opens on a `hall = true` countdown (the one chosen if it
does, else the first that does: Time of Empires' real time), and lay
that countdown on the hall's time as START does to one held for it (`_from_setup`). PAUSE,
SLEW and END at a setup, a setup whose every variant opens elsewhere (a special round first,
a phase without `hall = true`) and the settings menu open over it ignore the order.

Any other state (a phase without `hall = true`, a countdown run out, the scoring) ignores the
order: a table that plays something else is left alone.

In a hall (`hold`), a `hall = true` phase's countdown does not start by itself when the
phase begins: it is held at its full time (lead-in included) for the hall's START.

The hall's link keeps such a countdown in step and tells the director where the game stands
(`hall_view.py`).
"""

from __future__ import annotations

from dataclasses import replace

from . import clock
from .countdown import phase_timer
from .deadlines import next_recorded, recorded_ahead
from .effects import PlayScreen
from .era_moves import begin_era
from .machine import _advance, _timer_out
from .machine import _start as era_press
from .model import FlashCue, PlaySound, Save, Sound, Steer, SteerAction
from .music import move_music, track_of
from .play import (
    EPS,
    Paused,
    Play,
    PlayEffect,
    ShowPlay,
    State,
    era_number,
    save_every,
    screen,
)
from .play_record import snapshot
from .track import held

_Outcome = tuple[Play, tuple[PlayEffect, ...]]
SETUPS = (State.SETUP, State.ERA_SETUP)  # where ERA starts an era's round 1

LATE_S = 1.0  # a call more than this behind the hall's running time at a late start: skipped


def steered(play: Play) -> bool:
    """Does a hall steer the countdown shown now (a `hall = true` phase's, not run out)?"""
    phase = play.profile.phases[play.spot.phase]
    return (phase.hall and phase.timer_s is not None
            and play.spot.state in (State.ROUND, State.EVENT) and not play.timer_done
            and (play.timer_end is not None or play.held_left is not None))


def starts_at_setup(play: Play) -> bool:
    """Would the hall's START start play at this setup (`_from_setup`)?"""
    return (play.spot.state in SETUPS and play.menu is None
            and _era_press(play, 0.0) is not None)


def held_for_start(play: Play) -> bool:
    """Is the countdown shown held at its full time (lead-in included) for the hall's start?"""
    timer = play.profile.phases[play.spot.phase].timer_s
    return (steered(play) and play.timer_end is None and play.cues_done == 0
            and timer is not None and play.held_left is not None
            and play.held_left >= timer + play.profile.phases[play.spot.phase].lead_in_s - EPS)


def in_hall(play: Play, shown: PlayScreen, alone: bool) -> PlayScreen:
    """The screen of `play` in a hall: a countdown the hall steers says it waits for the
    hall's start, and that the table's own press does not start, pause or resume it (unless
    the hall allows it, `alone`)."""
    if not steered(play) or shown.kind not in (State.ROUND.value, State.EVENT.value):
        return shown
    return replace(shown, hall_start=held_for_start(play), hall_only=not alone)


def elapsed(play: Play, now: float) -> float:
    """The countdown's time from its start gong (below 0 in its lead-in)."""
    timer = play.profile.phases[play.spot.phase].timer_s
    assert timer is not None
    left = play.held_left if play.timer_end is None else play.timer_end - now
    assert left is not None
    return timer - left


def steer(play: Play, order: Steer, now: float) -> _Outcome:
    """What the hall's `order` does to the play at `now` (the order's `at` is at or before
    `now`, except a START's, which may lie ahead)."""
    if play.spot.state in SETUPS and order.action in (SteerAction.START, SteerAction.RESUME):
        return _from_setup(play, order, now)
    play, effects = _advance(play, now)  # what fell due first, as a press does
    if not steered(play):
        return play, effects
    was = play
    phase = play.profile.phases[play.spot.phase]
    timer = phase.timer_s
    assert timer is not None
    zero = order.at - order.running_s
    action = order.action
    running = play.timer_end is not None
    started = elapsed(play, now) >= -EPS  # its start gong is behind it
    more: tuple[PlayEffect, ...] = ()
    if action in (SteerAction.SLEW, SteerAction.PAUSE) and not started:
        return play, effects  # before its start gong: nothing to hold or to slew
    if action is SteerAction.END and not (running or started):
        return play, effects  # held for the hall's start: there is no countdown to end
    if action is SteerAction.SLEW:
        if not running:
            return play, effects
        slewed = replace(play, timer_end=zero + timer, cues_done=_skipped(play, zero, now))
        if slewed.cues_done == play.cues_done:  # only the anchor moved: saved in its time
            return _slewed(play, slewed, effects, now)
        play = slewed  # calls counted given: on disk before anything sounds
    elif action in (SteerAction.START, SteerAction.RESUME):
        if not started:
            if now - zero >= timer:  # that countdown is over at the hall
                return play, effects
            play, more = _start(play, zero, now)
        elif running:  # re-anchored: a cue it owes on the hall's time sounds at once
            play = replace(play, timer_end=zero + timer)
        else:  # paused: on the hall's running time, every cue owed sounding
            play = replace(play, timer_end=zero + timer, held_left=None,
                           save_due=now + save_every(play))
            more = (Paused(phase.id, False, round(max(0.0, zero + timer - now), 3)),)
    elif action is SteerAction.PAUSE:
        left = min(timer + phase.lead_in_s, max(0.0, timer - order.running_s))
        due = None if play.music_since is None else play.save_due
        play = replace(play, timer_end=None, held_left=left, save_due=due)
        more = () if not running else (Paused(phase.id, True, round(left, 3)),)
    else:  # END: as the countdown's own end, now
        ended = replace(play, timer_end=now, held_left=None, cues_done=len(clock.cues(phase)))
        play, ending = _timer_out(ended, now, now)
        return play, (*effects, *ending, ShowPlay(screen(play, now)))
    play, music = move_music(was, play, now)  # paused, resumed, started late: its music too
    play, after = _advance(play, now)  # a call or the gong due now: at once
    return play, (*effects, Save(snapshot(play, now), durable=True), *more, *music, *after,
                  ShowPlay(screen(play, now)))


def _slewed(play: Play, slewed: Play, effects: tuple[PlayEffect, ...], now: float
            ) -> _Outcome:
    """A small correction of a running countdown's anchor, no call counted given: nothing is
    written for it (the hall corrects a table every half second). The countdown's seconds
    go to disk with its next periodic save, as the era engine's slewed anchor does; a cut
    before that comes back a few milliseconds off, and the hall's newest order puts it back
    on the hall's time. The next call's record, written ahead already, stays written: it
    holds the play as it will be at the call, which the anchor does not change."""
    if recorded_ahead(play) and (due := next_recorded(slewed)) is not None:
        slewed = replace(slewed, ahead=due[1])
    slewed, after = _advance(slewed, now)  # a call the correction made due: at once
    return slewed, (*effects, *after, ShowPlay(screen(slewed, now)))


def _skipped(play: Play, zero: float, now: float) -> int:
    """The cues given once the countdown runs from `zero`: those given already, and those
    more than `LATE_S` behind `now` (never sounded, as steer.py's late start)."""
    listed = clock.cues(play.profile.phases[play.spot.phase])
    behind = sum(1 for cue in listed if zero + cue.at < now - LATE_S)
    return max(play.cues_done, behind)


def _from_setup(play: Play, order: Steer, now: float) -> _Outcome:
    """The hall's START (or RESUME) at a setup: ERA there (`_era_press`), the countdown it
    opens held for the hall (`hold`), then laid as START lays it (`_start`); the record on
    disk before the press's sounds, the countdown's, anything. Unchanged where ERA opens no
    `hall = true` countdown, with the menu open, or when that countdown is over at the
    hall."""
    zero = order.at - order.running_s
    pressed = None if play.menu is not None else _era_press(play, now)
    if pressed is None:
        return play, ()
    begun, sounds = pressed
    timer = begun.profile.phases[begun.spot.phase].timer_s
    assert timer is not None
    if now - zero >= timer:  # that countdown is over at the hall
        return play, ()
    held, _ = hold(play, phase_timer(play, begun, now), (), now)
    laid, more = _start(held, zero, now)
    laid, music = move_music(play, laid, now)
    laid, after = _advance(laid, now)  # a call or the gong due now: at once
    return laid, (Save(snapshot(laid, now), durable=True), *sounds, *more, *music, *after,
                  ShowPlay(screen(laid, now)))


def _era_press(play: Play, now: float) -> _Outcome | None:
    """ERA at this setup, in the variant whose round 1 opens on a `hall = true` countdown:
    the one chosen if it does, else the first that does (a question asked closed, the guide
    walked there left); None where none does."""
    profile, spot = play.profile, play.spot
    press = begin_era if spot.state is State.ERA_SETUP else era_press
    count = len(profile.variants)
    for variant in ((spot.variant + n) % count for n in range(count)):
        chosen = replace(spot, variant=variant, phase=profile.first_phase(variant) or 0
                         ) if spot.state is State.ERA_SETUP else replace(spot, variant=variant)
        begun, sounds = press(replace(play, spot=chosen, question_until=None,
                                      restart_asked=False, why_played=None), now)
        phase = profile.phases[begun.spot.phase]
        if begun.spot.state is State.ROUND and phase.hall and phase.timer_s is not None:
            return begun, sounds
    return None


def _start(play: Play, zero: float, now: float) -> _Outcome:
    """The countdown's start gong at `zero`: through its lead-in when that lies ahead (its
    ticks already past skipped), else at once, the gong sounding now (after the record that
    counts it given) when it is more than `LATE_S` behind."""
    phase = play.profile.phases[play.spot.phase]
    timer = phase.timer_s
    assert timer is not None
    listed = clock.cues(phase)
    if zero > now + EPS:
        done = sum(1 for cue in listed if zero + cue.at < now - EPS)
    else:  # started late: its lead-in's ticks are all past
        done = max(_skipped(play, zero, now), sum(1 for cue in listed if cue.at < 0))
    gong = next((n for n, cue in enumerate(listed) if cue.gong), None)
    late = gong is not None and play.cues_done <= gong < done
    play = replace(play, timer_end=zero + timer, held_left=None, cues_done=done,
                   save_due=now + save_every(play))
    ring = (PlaySound(Sound.GONG, 0), FlashCue(Sound.GONG)) if late else ()
    holds = track_of(play.profile, play.spot.phase, era_number(play))
    return play, held(holds, ring)  # a publisher's track's gong is its own


def hold(before: Play, after: Play, effects: tuple[PlayEffect, ...], now: float,
         alone: bool = False, ordered: bool = False) -> _Outcome:
    """A step's outcome in a hall. A `hall = true` phase's countdown that the step just
    started waits, held at its full time (lead-in included), for the hall's START (the step's
    record and screen of it say so). The table's own pause or resume of a countdown the hall
    steers changes nothing unless the hall allows it (`alone`: `[hall] pause_alone`): a hall
    keeps one running time. A countdown the hall's own order (`ordered`) started from a
    setup is on the hall's time already: it runs on."""
    def key(p: Play) -> tuple[object, ...] | None:
        s = p.spot
        return (s.round, s.phase, s.turn) if s.state in (State.ROUND, State.EVENT) else None

    if key(after) == key(before):
        toggled = (after.held_left is None) != (before.held_left is None) and (
            after.timer_end is None) != (before.timer_end is None)
        if toggled and steered(before) and not alone and before.spot == after.spot:
            return before, (ShowPlay(screen(before, now)),)
        return after, effects
    if ordered and before.spot.state in SETUPS:  # laid on the hall's time (`_from_setup`)
        return after, effects
    phase = after.profile.phases[after.spot.phase]
    if (not steered(after) or after.timer_end is None or phase.timer_s is None
            or clock.calls_given(phase, after.cues_done)):  # a call given: it runs on
        return after, effects
    started = snapshot(after, now)  # (a lead-in's tick the step gave sounds again at START)
    held = replace(after, timer_end=None, held_left=phase.timer_s + phase.lead_in_s,
                   cues_done=0, save_due=None if after.music_since is None else after.save_due)
    record = snapshot(held, now)
    return held, tuple(replace(e, snapshot=record) if isinstance(e, Save) and e.snapshot == started
                       else ShowPlay(screen(held, now)) if isinstance(e, ShowPlay) else e
                       for e in effects)
