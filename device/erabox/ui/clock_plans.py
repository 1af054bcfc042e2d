"""Any game's countdown, shown as Time of Empires' clock: a `Plan` for `layout.layout_plan`.

A phase with a countdown (`timer_s`) and one step is, while its clock is set, the running
clock of the box's own game: the round (or era and round) in the status row and who starts at
its right, the seconds left in big digits, the progress bar with a mark at each of the phase's
calls, and the phase's name in the hint row. Its lead-in shows the seconds to the start gong
big; held, "Paused" over a smaller clock, the hint row saying how to go on; a call's words
stand lit over the clock for a while, the time moving up to the status row ("Appoint
scholars!" in Time of Empires). On 128x32 the digits stand at the right, full height, as Time
of Empires' do.

The rows and their sizes are Time of Empires' own (`plans`), placed by the same `layout`, so
a countdown looks the same in every game. A phase of several steps keeps its step screen
(`screens._step`, the countdown in its footer): the step is what the table reads there.
Pure, like `plans`.
"""

from __future__ import annotations

from dataclasses import replace

from erabox.core.effects import PlayScreen

from .game_words import word
from .panel import Panel
from .plans import (
    TITLE,
    DigitsRow,
    Plan,
    ProgressRow,
    Row,
    TextRow,
    called,
    holding,
    resumed,
)
from .screen_parts import _colour, _label, _round_text
from .screens import STEP_KINDS, _hint_key
from .strings import clock_text, say

_CLOCK_SCALES = ((4, 4), (3, 4), (2, 4), (1, 4))  # as Time of Empires' running clock
_PAUSED_SCALES = ((3, 3), (2, 3), (1, 3))  # smaller: "Paused" is what must be seen first
_LEAD_IN_SCALES = ((5, 4), (4, 4), (3, 4), (2, 4), (1, 4))


def is_clock(screen: PlayScreen) -> bool:
    """Whether `screen` is drawn as the clock: a countdown set on a phase of one step."""
    return (screen.kind in STEP_KINDS and not screen.guide and screen.timer_left is not None
            and (screen.position is None or screen.position[1] <= 1))


def clock_plan(screen: PlayScreen, language: str, panel: Panel,
               held: float | None = None) -> Plan:
    """The plan of a clock screen (`is_clock`) in `language` on `panel`; `held`: how far NEXT
    and ERA are held toward "New game?" (0..1), None while they are not."""
    status = _round_text(screen, language)
    name = _label(screen.title, language)
    left = clock_text(screen.timer_left or 0)
    if screen.lead_in is not None:
        label = TextRow("label", say(language, "lead_in"))
        digits = DigitsRow("countdown", str(max(0, screen.lead_in)), _LEAD_IN_SCALES)
        plan = Plan(status=status, rows=[label, digits], hint=name, small=[digits, label])
    elif screen.paused:
        title = TextRow("title", word(language, "hall_start" if screen.hall_start
                                      else "paused"), TITLE)
        clock = DigitsRow("clock", left, _PAUSED_SCALES)
        plan = Plan(status=status, rows=[title, clock], hint=word(language, _hint_key(screen)),
                    small=[clock, replace(title, inverted=True)])
    else:
        rows: list[Row] = [DigitsRow("clock", left, _CLOCK_SCALES), _progress(screen)]
        starts = screen.start_player
        plan = Plan(status=status, rows=rows, hint=name, small=list(rows),
                    status_right=word(language, "starts", colour=_colour(starts, language))
                    if starts else "")
    if held is not None:
        return holding(plan, held, language)
    if screen.call is not None:
        return called(plan, screen.call.text(language), panel)
    if screen.prompt is not None and screen.prompt.value == "resumed":
        return resumed(plan, language)
    return plan


def _progress(screen: PlayScreen) -> ProgressRow:
    """How far the countdown has run, and its calls' marks, as fractions of its length."""
    length = screen.timer_s if screen.timer_s else 1.0
    run = screen.timer_run if screen.timer_run is not None else (
        length - (screen.timer_left or 0))
    marks = tuple(at / length for at in screen.timer_marks if 0 < at < length)
    return ProgressRow(min(1.0, max(0.0, run / length)), marks)
