"""A round-based phase's countdown as a timeline of cues: its timed calls and final ticks.

A `[[phase]]` with `timer_s` may have `[[phase.call]]`s (a sound, and a prompt shown for the
phase's `prompt_s`, at `at_s` into the countdown) and `final_ticks_s` (a tick each second
before its end), as Time of Empires' `[realtime]` has (docs/profiles.md). Every cue falls
due on the countdown's own anchor, its start: `start + cue.at`, never "now + something", so
a countdown woken late, paused or restored after a power cut does not drift. A play counts
the cues it has given (`Play.cues_done`, saved with the countdown's seconds left); the
machine fires them (`machine`). Pure: numbers in, numbers out.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Sound
from .profile import Phase

SAVED_SLACK_S = 0.01  # a saved countdown's seconds are rounded to the ms


@dataclass(frozen=True)
class Cue:
    """One cue of a countdown: `at` seconds after its start (a lead-in's, before it: below
    0); `call`, the index of the phase's call it is (None: a tick, or the start gong)."""

    at: float
    call: int | None = None
    gong: bool = False  # the lead-in's end: the countdown's start gong, at 0


@dataclass(frozen=True)
class _Timeline:
    """A phase's cues and what is asked of their first `done` at every step, worked out once:
    each step then looks it up instead of walking the cues given (hundreds on a crowded
    countdown, every step, ahead of the cue's sound: `erabox bench --only output`)."""

    cues: tuple[Cue, ...]
    last_call: tuple[int, ...]  # [done]: the index of the last call among the first done, or -1
    calls_given: tuple[int, ...]  # [done]: the calls and the start gong among the first done
    before_start: int  # the lead-in's ticks: the cues before the countdown's start
    marks: tuple[float, ...]  # each call's time, in the profile's order (the clock's marks)


_LISTED: dict[int, tuple[Phase, _Timeline]] = {}  # by the phase's identity (`_timeline`)
_LISTED_MAX = 256  # phases whose cues are kept (a box plays one profile at a time)


def _timeline(phase: Phase) -> _Timeline:
    """Kept by the phase's identity, not its value: hashing a phase hashes all its steps and
    calls, which on a phase of hundreds of calls took milliseconds of every step, ahead of
    the cue's sound (`erabox bench --only output`)."""
    held = _LISTED.get(id(phase))
    if held is not None and held[0] is phase:
        return held[1]
    if len(_LISTED) >= _LISTED_MAX:
        _LISTED.clear()
    listed = _listed(phase)
    last, given, last_call, calls_given = -1, 0, [-1], [0]
    for index, cue in enumerate(listed):
        if cue.call is not None:
            last = index
        given += cue.call is not None or cue.gong
        last_call.append(last)
        calls_given.append(given)
    timeline = _Timeline(listed, tuple(last_call), tuple(calls_given),
                         sum(1 for cue in listed if cue.at < 0),
                         tuple(call.at_s for call in phase.calls))
    _LISTED[id(phase)] = (phase, timeline)
    return timeline


def cues(phase: Phase) -> tuple[Cue, ...]:
    """The countdown's cues in firing order (its end, the gong, is not one: `timer_s`). At
    equal times a call comes before a tick, as in Time of Empires' era."""
    return _timeline(phase).cues


def marks(phase: Phase) -> tuple[float, ...]:
    """The times of the phase's calls, in its order: the marks on a running clock."""
    return _timeline(phase).marks


def given_from_start(phase: Phase, done: int) -> int:
    """How many of the first `done` cues come from the countdown's start on (the lead-in's
    ticks before it are not counted)."""
    timeline = _timeline(phase)
    return max(0, min(done, len(timeline.cues)) - timeline.before_start)


def _listed(phase: Phase) -> tuple[Cue, ...]:
    if phase.timer_s is None:
        return ()
    listed = [Cue(call.at_s, n) for n, call in enumerate(phase.calls)]
    listed += [Cue(phase.timer_s - k) for k in range(phase.final_ticks_s, 0, -1)
               if phase.timer_s - k > 0]
    if phase.lead_in_s or phase.start_gong:  # a tick a second before the start gong
        listed += [Cue(float(-k)) for k in range(phase.lead_in_s, 0, -1)] + [Cue(0.0, gong=True)]
    return tuple(sorted(listed, key=lambda c: (c.at, c.call is None)))


def calls_given(phase: Phase, done: int) -> int:
    """How many of the phase's calls (and its lead-in's start gong, heard once as a call
    is) are among its first `done` cues."""
    timeline = _timeline(phase)
    return timeline.calls_given[min(done, len(timeline.cues))]


def next_at(phase: Phase, done: int) -> float | None:
    """When (seconds into the countdown) the next cue is due, None after the last."""
    listed = cues(phase)
    return listed[done].at if done < len(listed) else None


def shown_call(phase: Phase, done: int, elapsed: float, owed: float | None = None
               ) -> int | None:
    """The call whose prompt shows at `elapsed` seconds into the countdown: the last call
    given, for the phase's `prompt_s` of countdown time after it (so a pause holds it), or
    until `owed` (`Play.call_owed`: a prompt owed whole at a power cut)."""
    last, end = _last_call(phase, done), prompt_end(phase, done, owed)
    if last is None or end is None or elapsed >= end:
        return None
    return last.call


def prompt_end(phase: Phase, done: int, owed: float | None = None) -> float | None:
    """When (seconds into the countdown) the prompt of the last call given ends: `prompt_s`
    after the call, or at `owed` when one is owed; None before any call."""
    last = _last_call(phase, done)
    if last is None:
        return None
    return last.at + phase.prompt_s if owed is None else owed


def _last_call(phase: Phase, done: int) -> Cue | None:
    """The last call among the first `done` cues, None before any."""
    timeline = _timeline(phase)
    index = timeline.last_call[min(done, len(timeline.cues))]
    return timeline.cues[index] if index >= 0 else None


def fits(phase: Phase, done: int, elapsed: float) -> bool:
    """Does a saved count of cues given fit the saved seconds into the countdown: every cue
    clearly before `elapsed` given, none clearly after it?"""
    listed = cues(phase)
    before = sum(1 for c in listed if c.at < elapsed - SAVED_SLACK_S)
    upto = sum(1 for c in listed if c.at <= elapsed + SAVED_SLACK_S)
    return before <= done <= upto


def cue_sound(phase: Phase, cue: Cue) -> tuple[Sound, str]:
    """What a cue sounds: a tick, the start gong, or the call's box cue or own file (the cry
    standing in)."""
    if cue.call is None:
        return (Sound.GONG if cue.gong else Sound.TICK), ""
    sound = phase.calls[cue.call].sound
    if sound in (s.value for s in Sound):
        return Sound(sound), ""
    return Sound.CRY, sound
