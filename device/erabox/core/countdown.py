"""A phase's countdown as play moves: started when a timed phase (or turn) begins, stopped
when it is left, paused and resumed by the table (its music: `music.py`).

Part of the round engine's machine (`machine.step` calls these after a press moved
play, and as a countdown running out moves it on). Pure: a play and `now` in, a play out.
"""

from __future__ import annotations

from dataclasses import replace

from .play import (
    Paused,
    Play,
    PlayEffect,
    State,
    save_every,
)
from .prompts import paused


def pause(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """ERA press on a countdown: it pauses, its calls and ticks held with it; pressed again,
    it goes on from where it was (every cue still on its own anchor, moved by the pause)."""
    phase = play.profile.phases[play.spot.phase]
    if play.held_left is not None:
        end = now + play.held_left
        anchor = None if play.anchor is None else now - play.anchor  # as the era resumes
        return replace(play, timer_end=end, held_left=None, save_due=now + save_every(play),
                       ahead=None, armed=None, anchor=anchor), (
            Paused(phase.id, False, round(play.held_left, 3)),)
    if play.timer_end is None:
        return play, ()  # no countdown, or one run out: nothing to hold
    left = max(0.0, play.timer_end - now)
    due = None if play.music_since is None else play.save_due
    run = None if play.anchor is None else max(0.0, now - play.anchor)  # the era's held time
    return replace(paused(play), timer_end=None, held_left=left, save_due=due, ahead=None,
                   armed=None, anchor=run), (
        Paused(phase.id, True, round(left, 3)),)


def phase_timer(before: Play, play: Play, now: float) -> Play:
    """A timed phase (or turn) starts its countdown when it begins, also when undo comes
    back into it; leaving it stops the countdown; an event shown over it does neither."""
    def key(p: Play) -> tuple[object, ...] | None:
        s = p.spot
        return (s.round, s.phase, s.turn) if s.state in (State.ROUND, State.EVENT) else None

    new_key = key(play)
    if new_key == key(before):
        return play
    phase = play.profile.phases[play.spot.phase]
    if new_key is None or phase.timer_s is None:
        return replace(play, timer_end=None, timer_done=False, save_due=None, cues_done=0,
                       held_left=None, ahead=None, call_owed=None, armed=None, anchor=None)
    return replace(play, timer_end=now + phase.lead_in_s + phase.timer_s, timer_done=False,
                   save_due=now + save_every(play), cues_done=0, held_left=None, ahead=None,
                   call_owed=None, armed=None, anchor=now + phase.lead_in_s)
