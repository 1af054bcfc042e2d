"""When a round game's play wants the loop next, and which of its countdown's moments are
recorded ahead of time: the countdown's anchor, its next call (or start gong, or recorded
end) whose record goes to disk the card's lead before it (`record.card_lead`), and the next
deadline of all (a second of the countdown shown, a cue, a prompt's end, a save, the NEXT
hold's ramp). Pure: a play and `now` in, times out.
"""

from __future__ import annotations

import math

from . import clock
from .play import EPS, RAMP_MAX, RAMP_S, Play, State, ramp
from .record import ARM_LEAD_S, card_lead


def countdown_start(play: Play) -> float | None:
    """The running countdown's anchor: when it started (its cues fall due from it)."""
    timer = play.profile.phases[play.spot.phase].timer_s
    if play.timer_end is None or timer is None:
        return None
    return play.timer_end - timer


def next_recorded(play: Play) -> tuple[float, tuple[int, float]] | None:
    """The running countdown's next moment whose record goes to disk before it sounds: its
    next call or the lead-in's start gong (ticks before it are passed over: on a slow card
    the lead reaches back over the final ticks), or its end when that is recorded before its
    gong (it sounds one, or moves play on); with its key (which of the countdown's cues it
    is, the countdown's end), which `Play.ahead` holds once it is written."""
    start = countdown_start(play)
    if start is None or play.timer_end is None:
        return None
    phase = play.profile.phases[play.spot.phase]
    listed = clock.cues(phase)
    for index in range(play.cues_done, len(listed)):
        cue = listed[index]
        if cue.call is not None or cue.gong:
            return start + cue.at, (index, play.timer_end)
    moves = phase.timer_end == "next" and play.spot.state is State.ROUND
    return (play.timer_end, (len(listed), play.timer_end)) if moves or phase.gong else None


def ahead_at(play: Play) -> float | None:
    """When the next recorded moment's record is written ahead of it: the card's lead
    (`record.card_lead`) before it; None when there is none, or it is written already."""
    due = next_recorded(play)
    if due is None or play.ahead == due[1]:
        return None
    return due[0] - card_lead(play.write_s)


def arm_at(play: Play) -> float | None:
    """`resume = "paused"`: when the countdown's next call (or recorded end) is recorded
    "armed", `ARM_LEAD_S` before it (Time of Empires' era does the same): a cut from then
    until its record ahead lands comes back held at the call, not given, and the call
    sounds the moment the table resumes. None when the phase comes back running, under an
    event, for the lead-in's start gong, when it is armed already or its record ahead is on
    disk (a slow card's lead passes `ARM_LEAD_S`: no "armed" record then)."""
    due = next_recorded(play)
    phase = play.profile.phases[play.spot.phase]
    if (due is None or phase.resume != "paused" or play.spot.state is not State.ROUND
            or play.armed == due[1] or play.ahead == due[1]):
        return None
    listed = clock.cues(phase)
    if play.cues_done < len(listed) and listed[play.cues_done].gong:
        return None
    return due[0] - ARM_LEAD_S


def armed_left(play: Play) -> float | None:
    """An armed countdown's seconds left as its record says them: those left at the call
    (the countdown held there after a cut), None when it is not armed."""
    due = next_recorded(play)
    if due is None or play.armed != due[1] or play.timer_end is None:
        return None
    return play.timer_end - due[0]


def recorded_ahead(play: Play) -> bool:
    """Is the record of the countdown's next recorded moment on disk already (every save
    until it writes that record: `machine.record`)?"""
    due = next_recorded(play)
    return due is not None and play.ahead == due[1]


def next_deadline(play: Play, now: float) -> float | None:
    """When the loop must call `step(play, Tick(), t)` next, or None to wait for input only.

    While a countdown shows, that includes its next whole second, so the screen changes
    exactly on the second (one wake-up a second; none without a countdown shown), its next
    call or tick, the end of a call's prompt (each on the countdown's own anchor), and the
    moment its next call's record is written ahead of it (`ahead_at`); the end of a question,
    of a prompt and of the volume shown after a change."""
    times = [t for t in (play.timer_end, play.question_until, play.prompt_until,
                         play.volume_until, play.save_due, ahead_at(play), arm_at(play))
             if t is not None]
    if play.why_played is not None and play.why_played[1] > now + EPS:  # the "why" goes
        times.append(play.why_played[1])
    if play.hold_since is not None and ramp(play, now) != RAMP_MAX:  # the ramp's next +5
        held = now - play.hold_since
        times.append(play.hold_since + (int(held / RAMP_S + 1e-9) + 1) * RAMP_S)
    start = countdown_start(play)
    if start is not None:
        phase = play.profile.phases[play.spot.phase]
        due = clock.next_at(phase, play.cues_done)
        if due is not None:
            times.append(start + due)
        end = clock.prompt_end(phase, play.cues_done, play.call_owed)
        if end is not None and now - start + EPS < end:  # its prompt's end
            times.append(start + end)
    # a question hides the countdown, but in Time of Empires' words (`[game] lines = "eras"`)
    # where it is asked over the running clock (`era_screen`)
    if play.timer_end is not None and (play.question_until is None
                                       or play.profile.lines == "eras"):
        shown = math.ceil(play.timer_end - now - EPS)  # the seconds on the screen
        if shown > 1:
            times.append(_next_second(play, now, play.timer_end - (shown - 1)))
    return min(times) if times else None


def _next_second(play: Play, now: float, second: float) -> float:
    """The countdown's next whole second timed on its own anchor (`Play.anchor`, its time zero
    as Time of Empires' era keeps it: a press at that second comes after the redraw, as there);
    `second`, timed on its end, where no anchor matches it (a hall's slew, a power cut)."""
    length = play.profile.phases[play.spot.phase].timer_s
    if play.anchor is None or length is None:
        return second
    own = play.anchor + (length - (math.ceil(length - (now - play.anchor) - EPS) - 1))
    return own if abs(own - second) < 1e-6 else second
