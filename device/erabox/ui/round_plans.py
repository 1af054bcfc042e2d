"""A round game's screens that are Time of Empires' own: its countdown and its questions, each
a `Plan` for `layout.layout_plan` (`planned`); its other screens are `screens.py`'s.

**The countdown.** A phase with a countdown (`timer_s`) and one step is, while its clock is
set, the running clock of the box's own game: the round (or era and round) in the status row
and the phase's name at its right (where both fit), the seconds left in big digits over the
progress bar with a mark at each of the phase's calls. Its lead-in shows the seconds to the
start gong big; held, "Paused" (or "Waiting for the hall") over a smaller clock; a call's
words stand lit over the clock for a while, the time moving up to the status row ("Appoint
scholars!" in Time of Empires). The hint row says what a press does there, as the step
screen's does (`screen_parts.hint_key`: "Until the gong  hold NEXT: undo", "ERA: resume
...", a hall's start). On 128x32 the digits stand at the right, full height, as Time of
Empires' do.

The rows and their sizes are Time of Empires' own (`plans.lead_in_rows`, `running_rows`,
`paused_rows`, `progress_row`), placed by the same `layout`, so a countdown looks the same in
every game. A phase of several steps keeps its step screen
(`screens._step`, the countdown in its footer): the step is what the table reads there.

**A question** ("New game?", "Restart this era?"): Time of Empires' question screen, the game
(or its era) in the status row, the question big in the middle (lit, on 128x32), "ERA: yes /
NEXT: no" under it; a countdown running under the question stays in sight in the status row.

Pure, like `plans`.
"""

from __future__ import annotations

from dataclasses import replace

from erabox.core.effects import PlayScreen

from .game_words import word
from .layout import Layout, StatusMarks, layout_plan
from .panel import Panel
from .plans import (
    Plan,
    called,
    holding,
    lead_in_rows,
    paused_rows,
    progress_row,
    question_plan,
    resumed,
    running_rows,
)
from .screen_parts import STEP_KINDS, Marks, _era_text, _label, _round_text, hint_key


def is_planned(screen: PlayScreen) -> bool:
    """Whether `screen` is one of Time of Empires' kinds: a question, or a countdown's clock
    (`is_clock`); these turn no pages."""
    return screen.kind == "confirm" or is_clock(screen)


def planned_layout(screen: PlayScreen, panel: Panel, language: str,
                   marks: Marks) -> Layout | None:
    """`screen` placed on `panel` with the box's `marks` when it `is_planned`, else None
    (`screens.py` lays it out)."""
    if not is_planned(screen):
        return None
    plan = planned(screen, language, panel, marks.hold_progress)
    return layout_plan(plan, language, StatusMarks(marks.no_sound, marks.no_save,
                                                   marks.no_file), panel)


def planned(screen: PlayScreen, language: str, panel: Panel,
            held: float | None = None) -> Plan:
    """The plan of a screen that `is_planned`; `held`: how far NEXT and ERA are held toward
    "New game?" (0..1), None while they are not."""
    if screen.kind == "confirm":
        return confirm_plan(screen, language)
    return clock_plan(screen, language, panel, held)


def confirm_plan(screen: PlayScreen, language: str) -> Plan:
    """A question the box asks (`PlayScreen.question`: "new_game", "restart_era")."""
    status = _era_text(screen, language) or _label(screen.game, language)
    return question_plan(status, screen.question, language, screen.timer_left)


def is_clock(screen: PlayScreen) -> bool:
    """Whether `screen` is drawn as the clock: a countdown set on a phase of one step."""
    return (screen.kind in STEP_KINDS and not screen.guide and screen.timer_left is not None
            and (screen.position is None or screen.position[1] <= 1))


def clock_plan(screen: PlayScreen, language: str, panel: Panel,
               held: float | None = None) -> Plan:
    """The plan of a clock screen (`is_clock`) in `language` on `panel`; `held`: how far NEXT
    and ERA are held toward "New game?" (0..1), None while they are not."""
    status = _round_text(screen, language)
    name = _label(screen.title, language)  # the phase, at the status row's right where it fits
    hint = word(language, hint_key(screen))  # what a press does here, as on the step screen
    if screen.paused:  # held (its lead-in too: at its full time), or waiting for the hall
        title, clock = paused_rows(word(language, "hall_start" if screen.hall_start
                                        else "paused"), screen.timer_left)
        plan = Plan(status=status, rows=[title, clock], hint=hint,
                    small=[clock, replace(title, inverted=True)])
    elif screen.lead_in is not None:
        label, digits = lead_in_rows(screen.lead_in, language)
        plan = Plan(status=status, rows=[label, digits], hint=hint, small=[digits, label])
    else:
        rows = running_rows(screen.timer_left, progress_row(
            screen.timer_s, screen.timer_run, screen.timer_left, screen.timer_marks))
        plan = Plan(status=status, rows=rows, hint=hint, small=list(rows))
    plan = replace(plan, status_right=name)
    if held is not None:
        return holding(plan, held, language)
    if screen.call is not None:
        return called(plan, screen.call.text(language), panel)
    if screen.prompt is not None and screen.prompt.value == "resumed":
        return resumed(plan, language)
    return plan
