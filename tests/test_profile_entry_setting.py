"""The box's "Points entry" chooses a round profile's entry (docs/profiles.md, "Scoring":
`[scoring] entry = "setting"`): with the setting "totals" the profile asks the era totals, as
`entry = "totals"`; with "steps" each category, as `entry = "categories"`. The setting is the
one of the box's settings menu, which a round profile's setup opens too (ERA held): chosen
there, the game closed on plays with it. A profile with `entry = "totals"` or "categories"
plays as it says whatever the setting. Bad keys name the file, line and key. (Time of
Empires' round file against the era engine, both ways: tests/test_one_engine_toe.py; its
state files resumed: tests/test_profile_toe_state.py.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from erabox.adapters.settings_file import SettingsFile
from erabox.adapters.state_file import StateFile
from erabox.core import settings as settings_menu
from erabox.core.config import Config
from erabox.core.engine import ProfileEngine
from erabox.core.entry import by_setting
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Screen
from erabox.core.play import State, entries, new_play, screen
from erabox.files.games import load_game, offer_games
from erabox.run.app import Box
from menu_game import menu_settings
from test_profile_era_totals import CHORD, HOLD, PLAYERS, RELEASE, TEXT, TOTALS, problem, profile
from test_which_game import ERA_HOLD, ERA_PRESS, NEXT_PRESS, press

REALTIME = Path(__file__).parent / "profiles" / "time-of-empires-rounds.toml"

NEXT_INPUT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)


def menu(box: Box, clock: list[float]) -> Screen:
    """The settings menu's screen (Time of Empires' own, in every game)."""
    shown = box.driver.screen(clock[0])
    assert isinstance(shown, Screen)
    return shown


SETTING = TOTALS.replace('entry = "totals"', 'entry = "setting"')


def test_the_setting_chooses_the_era_totals_or_the_categories() -> None:
    chosen = profile(SETTING)
    assert chosen.entry == "setting"
    totals, steps = by_setting(chosen, "totals"), by_setting(chosen, "steps")
    assert (totals.entry, totals.categories) == ("totals", profile(TOTALS).categories)
    assert (steps.entry, steps.categories) == ("categories", profile(TEXT).categories)
    for fixed in (profile(TEXT), profile(TOTALS)):  # the others: as they say, either way
        assert by_setting(fixed, "totals") == by_setting(fixed, "steps") == fixed
    for points_entry, entry in (("totals", "totals"), ("steps", "categories")):
        engine = ProfileEngine(chosen, Config(players=("red", "blue"),
                                              points_entry=points_entry))
        assert engine.profile.entry == entry
        assert engine.fresh(0.0, 0)[0].profile.entry == entry


def test_the_setting_s_steps_are_entered_with_the_ramp_and_the_chord() -> None:
    """"steps" asks each category with the era totals' gestures, as the era engine's per-step
    entry (NEXT held: +5, +5 more every 0.5 s; NEXT+ERA: -1); `entry = "categories"` keeps
    its own (tests/test_profile_era_totals.py)."""
    play, _ = step(new_play(by_setting(profile(SETTING), "steps"), PLAYERS), ERA, 0.0)
    play, _ = step(play, NEXT_INPUT, 0.0)  # the round's last step: the scoring
    assert play.spot.state is State.SCORING and entries(play)[0] == (0, 0)  # destruction
    play, _ = step(play, HOLD, 10.0)
    assert screen(play, 11.6).ramp == 20
    play, _ = step(play, RELEASE, 11.6)
    play, _ = step(play, CHORD, 11.8)
    assert play.value == 19 and screen(play, 11.8).ramp is None


def test_the_setting_key_is_checked_as_the_era_totals() -> None:
    text = TOTALS.replace('entry = "totals"', 'entry = "both"')
    assert problem(text) == ("empires.toml:23: key 'scoring.entry': expected one of "
                             "'categories', 'totals', 'setting', got 'both'")
    text = SETTING.replace('more = "buildings"', 'more = "culture"')
    line = text.splitlines().index('more = "culture"') + 1
    assert problem(text) == (
        f"empires.toml:{line}: key 'scoring.tie_break[1].more': the category 'culture' is not "
        "asked with entry = \"setting\" (only the era totals, and the categories with counts "
        "= false): it cannot break ties")
    text = SETTING.replace('entry = "setting"', 'entry = "setting"\norder = "eliminations"')
    text += '\n[[scoring.stage]]\ncategory = "buildings"\n'
    assert problem(text) == ("empires.toml:23: key 'scoring.entry': \"setting\" needs order = "
                             "\"total\" (an elimination ranks on one category's points)")
    text = SETTING.replace('id = "culture"', 'id = "total"')
    line = text.splitlines().index('id = "total"') + 1
    assert problem(text) == (f"empires.toml:{line}: key 'scoring.category[3].id': the id "
                             "'total' names the era totals with entry = \"totals\": give another")


@pytest.mark.parametrize("chosen", ["steps", "totals"])
def test_the_settings_menu_over_a_round_file_chooses_its_points_entry(
        tmp_path: Path, chosen: str) -> None:
    """Time of Empires' round file chosen in the settings menu with "Points entry" set there:
    the game the menu closes on asks the points that way; ERA held at its setup opens the
    menu again, on the same setting."""
    games = tmp_path / "games"
    games.mkdir()
    shutil.copy(REALTIME, games / REALTIME.name)
    config = offer_games(Config(guide=False), [games])
    clock = [0.0]
    box = Box(config, state_file=StateFile(tmp_path / "state.json"),
              settings_file=SettingsFile(tmp_path / "settings.json"),
              clock=lambda: clock[0], find_profile=lambda name: load_game(name, [games]))
    box.start_game()
    press(box, clock, ERA_HOLD)  # the settings menu, on "Game"
    for _ in range(len(config.games) + 1):
        if menu(box, clock).menu_value == REALTIME.stem:
            break
        press(box, clock, ERA_PRESS)
    assert menu(box, clock).menu_value == REALTIME.stem
    names = settings_menu.items(menu_settings(box.driver.game) or settings_menu.defaults(config))
    for _ in range(names.index("points_entry")):  # NEXT on to "Points entry"
        press(box, clock, NEXT_PRESS)
    for _ in range(3):
        if menu(box, clock).menu_value == chosen:
            break
        press(box, clock, ERA_PRESS)
    assert menu(box, clock).menu_item == "points_entry"
    assert menu(box, clock).menu_value == chosen
    press(box, clock, ERA_HOLD)  # closed: the round file's setup
    assert box.driver.profile is not None and box.driver.profile.id == REALTIME.stem
    assert box.driver.game.profile.entry == {"steps": "categories", "totals": "totals"}[chosen]
    press(box, clock, ERA_HOLD)  # its setup: the settings menu again (the round engine's)
    assert box.driver.profile is not None and box.driver.game.chosen is not None
    assert box.driver.game.chosen.points_entry == chosen
    assert menu(box, clock).menu_item == "game"
    box.driver.state.close()
