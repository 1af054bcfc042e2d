"""What the box says for a moment over a round profile's play: the screen only (no event
line, nothing saved: a power cut forgets it).

- An undo within the play of a round (from a round or special round back to one): where it
  went back to, "Back to round n" (`Prompt.UNDONE`) for `UNDONE_S`.
- A NEXT press that does nothing while a countdown runs (past its lead-in, not paused, no
  call's prompt up, no question asked): the gesture that pauses it, `[buttons] pause`
  ("hold NEXT to pause", or "press ERA to pause"; `Prompt.PAUSE_HINT`) for `PAUSE_HINT_S`.
  Pausing takes it down.

As Time of Empires' box has always said them; a move forward takes either down
(`play.moved`), another undo says its own round.
"""

from __future__ import annotations

from dataclasses import replace

from .model import Button, Gesture, Input, Prompt
from .play import EPS, Play, State, call_words, countdown_elapsed

UNDONE_S = 3.0  # "Back to round n" stays this long
PAUSE_HINT_S = 3.0  # "hold NEXT to pause" stays this long

ROUND_PLAY = (State.ROUND, State.SPECIAL)  # where an undo says the round it went back to


def undone(before: Play, after: Play, now: float) -> Play:
    """`after`, an undo from `before`: "Back to round n" when it moved within a round's play."""
    if (after.spot == before.spot or before.spot.state not in ROUND_PLAY
            or after.spot.state not in ROUND_PLAY):
        return after
    return replace(after, prompt=Prompt.UNDONE, prompt_until=now + UNDONE_S)


def pause_hint(before: Play, after: Play, event: Input, now: float) -> Play:
    """`after`, `event` handled from `before`: the pause's gesture hinted when the event was a
    NEXT press that did nothing while the countdown runs."""
    at = countdown_elapsed(before, now)
    if ((event.button, event.gesture) != (Button.NEXT, Gesture.PRESS) or after != before
            or before.spot.state is not State.ROUND or before.timer_end is None
            or at is None or at < -EPS or before.question_until is not None
            or before.prompt is Prompt.SCHOLARS or call_words(before, now) is not None):
        return after
    return replace(after, prompt=Prompt.PAUSE_HINT, prompt_until=now + PAUSE_HINT_S)


def paused(play: Play) -> Play:
    """The countdown paused: its hint is done."""
    if play.prompt is not Prompt.PAUSE_HINT:
        return play
    return replace(play, prompt=None, prompt_until=None)
