"""What the round engine says for a moment over its play (core/prompts.py): an undo
within a round's play says the round it went back to ("Back to round n", `Prompt.UNDONE`); a
NEXT press that does nothing while a countdown runs hints the gesture that pauses it
(`Prompt.PAUSE_HINT`), as Time of Empires' own engine does. Screen only: no event line."""

from __future__ import annotations

from erabox.core.deadlines import next_deadline
from erabox.core.era_screen import screen as era_screen
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Prompt, Tick
from erabox.core.play import Play, State, new_play, screen
from erabox.core.profile import parse_profile

ROUNDS = """\
[game]
name = "Hop"
{game}
[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 3
{buttons}
[[phase]]
id = "go"
label = "Go"
{phase}
steps = ["Move"]
"""
PLAYERS = ("red", "blue")
NEXT, NEXT_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
ERA = Input(Button.ERA, Gesture.PRESS)


def started(game: str = "", buttons: str = "", phase: str = "", now: float = 0.0) -> Play:
    text = ROUNDS.format(game=game, buttons=buttons, phase=phase)
    play, _ = step(new_play(parse_profile(text, "hop.toml"), PLAYERS), ERA, now)
    return play


def test_an_undo_says_the_round_it_went_back_to_for_three_seconds() -> None:
    play = started()
    play, _ = step(play, NEXT, 1.0)  # round 2
    play, _ = step(play, NEXT, 2.0)  # round 3
    play, _ = step(play, NEXT_HOLD, 5.0)
    assert play.spot.round == 2 and (play.prompt, play.prompt_until) == (Prompt.UNDONE, 8.0)
    assert screen(play, 5.0).prompt is None  # the round engine's own screens stay as they were
    play, _ = step(play, NEXT, 6.0)  # forward again: the prompt stays its while
    assert play.spot.round == 3 and play.prompt is Prompt.UNDONE
    over, _ = step(play, NEXT, 7.0)  # out of the rounds (no score kept: game over): gone
    assert over.spot.state is State.GAME_OVER and over.prompt is None
    play, effects = step(play, Tick(), 8.0)
    assert play.prompt is None and play.prompt_until is None
    assert not any(getattr(e, "prompt", None) is Prompt.UNDONE for e in effects)


def test_a_next_press_that_does_nothing_while_the_countdown_runs_hints_the_pause() -> None:
    play = started(buttons='[buttons]\npause = "next_hold"\n',
                   phase="timer_s = 60\nnext_leaves = false")
    play, _ = step(play, NEXT, 10.0)
    assert play.spot.round == 1 and (play.prompt, play.prompt_until) == (Prompt.PAUSE_HINT, 13.0)
    play, _ = step(play, NEXT_HOLD, 11.0)  # paused: the hint is done
    assert play.held_left == 49.0 and play.prompt is None
    play, _ = step(play, NEXT, 12.0)  # a paused countdown: no hint
    assert play.prompt is None


def test_no_hint_in_the_lead_in_or_when_the_press_moves_play() -> None:
    play = started(phase="timer_s = 60\nlead_in_s = 5\nnext_leaves = false")
    play, _ = step(play, NEXT, 2.0)  # its lead-in
    assert play.prompt is None
    play, _ = step(play, NEXT, 8.0)  # running: ERA press would pause it
    assert play.prompt is Prompt.PAUSE_HINT
    play, _ = step(play, ERA, 9.0)
    assert play.held_left is not None and play.prompt is None
    moving = started(phase="timer_s = 60")
    moving, _ = step(moving, NEXT, 3.0)  # NEXT leaves the phase: the next round
    assert moving.spot.round == 2 and moving.prompt is None


def test_time_of_empires_screens_show_them() -> None:
    hold = started(game='lines = "eras"', buttons='[buttons]\npause = "next_hold"\n',
                   phase="timer_s = 60\nnext_leaves = false")
    hold, _ = step(hold, NEXT, 10.0)
    assert era_screen(hold, 10.0).prompt is Prompt.PAUSE_HINT
    # its words say "hold NEXT to pause": not shown where another gesture pauses
    press = started(game='lines = "eras"', phase="timer_s = 60\nnext_leaves = false")
    press, _ = step(press, NEXT, 10.0)
    assert press.prompt is Prompt.PAUSE_HINT and era_screen(press, 10.0).prompt is None
    rounds = started(game='lines = "eras"')
    rounds, _ = step(rounds, NEXT, 1.0)
    rounds, _ = step(rounds, NEXT_HOLD, 2.0)
    shown = era_screen(rounds, 2.0)
    assert shown.prompt is Prompt.UNDONE


def test_the_whole_second_s_redraw_is_timed_on_the_countdown_s_anchor() -> None:
    """As the era engine's `anchor + (length - shown + 1)`: its time zero plus whole seconds,
    so a press at that second comes after the redraw (not 2.5e-14 s before, as its end less
    whole seconds makes it)."""
    play = started(phase="timer_s = 540\nlead_in_s = 5\nnext_leaves = false", now=0.99999)
    start = play.anchor
    assert start == 0.99999 + 5
    play = ticked(play, start + 0.5)  # the lead-in's ticks and start gong
    assert next_deadline(play, start + 0.5) == start + 1.0
    paused = step(play, ERA, start + 0.75)[0]
    resumed = step(paused, ERA, 100.25)[0]  # resumed: its time zero moved by the pause
    assert resumed.anchor == 100.25 - (start + 0.75 - start)
    assert next_deadline(ticked(resumed, 100.5), 100.5) == resumed.anchor + 2.0


def ticked(play: Play, until: float) -> Play:
    """`play` with every deadline up to `until` fired."""
    while (due := next_deadline(play, until)) is not None and due <= until:
        play = step(play, Tick(), due)[0]
    return play
