"""`[buttons] restart_era = true` (docs/profiles.md, "The buttons"; `restart`): ERA hold
in an era's play asks "Restart this era?", as Time of Empires' ERA hold on a running era; ERA
goes back to the era's setup, its points discarded, NEXT keeps playing; undo is then NEXT hold
(where it pauses no countdown, within the era). Without the key ERA hold is as before. Time of
Empires' golden script that restarts an era is played by its round file in
tests/test_one_engine_golden_cues.py."""

from __future__ import annotations

import pytest

from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import Play, State, new_play, screen
from erabox.core.profile import Profile, ProfileError, parse_profile
from erabox.ui.screens import layout_play
from test_profile_config import TEXT

NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
NEXT_HOLD, ERA_HOLD = Input(Button.NEXT, Gesture.HOLD), Input(Button.ERA, Gesture.HOLD)
PLAYERS = ("red", "blue")
GOLD = '\n[[scoring.category]]\nid = "gold"\nlabel = "Gold"\n'
RESTARTS = TEXT.replace('name = "Round"\n', 'name = "Round"\n', 1).replace(
    "[rounds]", "[buttons]\nrestart_era = true\n\n[rounds]", 1) + GOLD


def profile(text: str = RESTARTS) -> Profile:
    return parse_profile(text, "modes.toml")


def press(play: Play, *inputs: Input, now: float = 0.0) -> Play:
    for event in inputs:
        play, _ = step(play, event, now)
    return play


def test_era_hold_asks_and_era_restarts_the_first_era_at_the_game_s_setup() -> None:
    setup = press(new_play(profile(), PLAYERS), NEXT)  # introductory, chosen at the setup
    playing = press(setup, ERA)
    asked = press(playing, ERA_HOLD)
    shown = screen(asked, 0.0)
    assert (shown.kind, shown.question) == ("confirm", "restart_era")
    assert press(asked, NEXT).spot == playing.spot  # no: play goes on
    again = press(asked, ERA)
    assert again.spot.state is State.SETUP and again.spot.variant == 0  # as the setup opens
    assert again.history == () and again.question_until is None
    texts = [getattr(item, "text", "") for item in layout_play(screen(asked, 0.0))]
    assert "Restart this era?" in texts  # Time of Empires' question, in every game
    held = RESTARTS.replace("\n[rounds]", 'pause = "next_hold"\n\n[rounds]', 1)
    hints = [getattr(item, "text", "") for item in layout_play(screen(press(
        new_play(profile(held), PLAYERS), NEXT, ERA), 0.0))]
    assert "NEXT: next" in hints  # not "hold ERA: undo": ERA hold restarts


def test_a_later_era_restarts_at_its_own_setup_its_points_discarded() -> None:
    dawn = press(new_play(profile(), PLAYERS), NEXT, ERA, NEXT)  # Dawn's scoring
    dawn = press(dawn, NEXT, ERA, NEXT, NEXT, ERA)  # red 1, blue 2: the standings
    assert dawn.spot.state is State.STANDINGS
    dusk = press(dawn, ERA, NEXT, ERA)  # Dusk's setup, introductory, started
    assert dusk.spot.state is State.ROUND and len(dusk.spot.past) == 1
    scoring = press(dusk, NEXT, NEXT)  # Dusk's scoring, red's number at 1
    again = press(scoring, ERA_HOLD)  # in the scoring ERA hold is its own (clear or undo)
    assert again.question_until is None
    back = press(dusk, ERA_HOLD, ERA)
    assert (back.spot.state, back.spot.variant) == (State.ERA_SETUP, 0)
    assert back.spot.past == dusk.spot.past == (dawn.spot.sheet,)  # Dawn's numbers kept
    assert back.spot.sheet == dusk.spot.sheet  # a blank sheet for Dusk
    assert screen(back, 0.0).era == 2


def test_without_an_era_setup_the_era_before_s_standings_start_it_again() -> None:
    one = RESTARTS.replace("variant_per_era = true\n", "").replace(
        "variant_from_setting = true\n", "")
    dawn = press(new_play(profile(one), PLAYERS), NEXT, ERA, NEXT, NEXT, ERA, NEXT, NEXT, ERA)
    assert dawn.spot.state is State.STANDINGS
    dusk = press(dawn, ERA)
    back = press(dusk, ERA_HOLD, ERA)
    assert back.spot.state is State.STANDINGS and back.spot.sheet == dawn.spot.sheet
    assert press(back, ERA).spot == dusk.spot  # ERA: Dusk again, as it began


def test_in_the_lead_in_era_hold_goes_back_at_once_and_after_the_gong_it_asks() -> None:
    """Nothing of the era is played while its countdown's lead-in ticks (2 s here): ERA hold
    goes straight back to the setup, as Time of Empires' ERA hold cancels its lead-in; from
    the start gong on it asks "Restart this era?"."""
    setup = new_play(profile(), PLAYERS)  # the real-time variant: its race has a 2 s lead-in
    leading = press(setup, ERA)
    assert leading.timer_end is not None
    back = press(leading, ERA_HOLD, now=1.5)
    assert back.spot.state is State.SETUP and back.question_until is None
    assert back.timer_end is None  # its ticks stopped with it
    assert press(back, ERA, now=3.0).timer_end is not None  # ERA: the lead-in again
    running, _ = step(leading, Input(Button.NEXT, Gesture.RELEASE), 2.5)  # past the gong
    asked = press(running, ERA_HOLD, now=2.5)
    assert (screen(asked, 2.5).kind, screen(asked, 2.5).question) == ("confirm", "restart_era")


def test_undo_is_next_hold_and_a_countdown_still_pauses_with_next_hold() -> None:
    play = press(new_play(profile(RESTARTS.replace("\n[rounds]", 'pause = "next_hold"\n\n'
                                                   "[rounds]", 1)), PLAYERS), ERA)
    assert play.timer_end is not None  # the race's countdown (its lead-in)
    assert press(play, NEXT_HOLD).held_left is not None  # paused, as before
    turns = press(new_play(profile(RESTARTS.replace("rounds = 1", "rounds = 3")), PLAYERS),
                  NEXT, ERA)
    second = press(turns, NEXT)
    assert second.spot.round == 2 and press(second, NEXT_HOLD).spot == turns.spot  # undo
    assert press(turns, NEXT_HOLD).spot == turns.spot  # not out of the era: the restart is


def test_without_the_key_era_hold_is_as_before() -> None:
    play = press(new_play(profile(RESTARTS.replace("restart_era = true\n", "")), PLAYERS),
                 NEXT, ERA)
    assert press(play, ERA_HOLD).question_until is None


def test_a_bad_value_names_the_file_line_and_key() -> None:
    with pytest.raises(ProfileError, match=r"^modes\.toml:2: key 'buttons.restart_era': "
                       "expected true or false"):
        profile("[buttons]\nrestart_era = 1\n" + TEXT)
