"""A phase's countdown and music as play moves: started when a timed phase (or turn) begins,
stopped when it is left, paused and resumed by the table; the phase's music likewise.

Part of the round engine's machine (`profile_machine.step` calls these after a press moved
play, and as a countdown running out moves it on). Pure: a play and `now` in, a play out.
"""

from __future__ import annotations

from dataclasses import replace

from .model import MusicAction
from .profile_play import (
    SAVE_EVERY_S,
    Paused,
    Play,
    PlayEffect,
    State,
    phase_music,
)


def pause(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """ERA press on a countdown: it pauses, its calls and ticks held with it; pressed again,
    it goes on from where it was (every cue still on its own anchor, moved by the pause)."""
    phase = play.profile.phases[play.spot.phase]
    if play.held_left is not None:
        end = now + play.held_left
        return replace(play, timer_end=end, held_left=None, save_due=now + SAVE_EVERY_S,
                       ahead=None), (
            Paused(phase.id, False, round(play.held_left, 3)),)
    if play.timer_end is None:
        return play, ()  # no countdown, or one run out: nothing to hold
    left = max(0.0, play.timer_end - now)
    due = None if play.music_since is None else play.save_due
    return replace(play, timer_end=None, held_left=left, save_due=due, ahead=None), (
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
                       held_left=None, ahead=None)
    return replace(play, timer_end=now + phase.lead_in_s + phase.timer_s, timer_done=False,
                   save_due=now + SAVE_EVERY_S, cues_done=0, held_left=None, ahead=None)


def music_key(play: Play) -> tuple[int, int] | None:
    """The round and phase whose music plays (None: no music): a phase's music goes on
    through its steps and turns and under an event shown over it."""
    spot = play.spot
    if spot.state not in (State.ROUND, State.EVENT):
        return None
    return None if play.profile.phases[spot.phase].music is None else (spot.round, spot.phase)


def phase_music_of(before: Play, play: Play, now: float, heard: float | None = None
                 ) -> tuple[Play, tuple[PlayEffect, ...]]:
    """A phase with music starts it from the beginning when the phase begins (also when undo
    comes back into it); leaving the phase stops it (a short fade); a new game stops it.
    `now`: when the change happened; `heard`: when it is handled (a countdown's end handled
    late starts the next phase's music that much into it)."""
    heard = now if heard is None else heard
    since = before.music_since
    old = None if since is None else music_key(before)
    new = music_key(play)
    effects: list[PlayEffect] = []
    if new != old:
        if since is not None:
            effects.append(phase_music(before, MusicAction.STOP, heard - since))
        since = None
        if new is not None:
            effects.append(phase_music(play, MusicAction.START, max(0.0, heard - now)))
            since = now
    save_due = play.save_due
    if since is not None and save_due is None:  # its place is saved while it plays
        save_due = now + SAVE_EVERY_S
    return replace(play, music_since=since, save_due=save_due), tuple(effects)
