"""The box's settings menu in a round game (core/menu.py): ERA held at the game's setup
opens core/settings.py's menu in the round engine itself, for every profile. Each gesture is
the menu's; every change is saved (`SaveSettings`); closed on other settings, the game is set
up anew with them (players, language, ...); closed on another game, that game is asked for
(`switch_to`); a power cut with the menu open comes back to the setup, the menu closed, with
the settings saved so far. The screen is Time of Empires' `Screen` with its menu."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from erabox.adapters.settings_file import SettingsFile
from erabox.adapters.state_file import StateFile
from erabox.core import settings as settings_menu
from erabox.core.config import Config
from erabox.core.model import Button, Gesture, Input, Phase, Screen
from erabox.core.play import State
from erabox.files.games import load_game
from erabox.run.app import Box
from erabox.run.simulate import Simulation

ALTAY = load_game("altay", [])  # a shipped round game, for 2 to 4
ERA_HOLD, ERA_PRESS = Input(Button.ERA, Gesture.HOLD), Input(Button.ERA, Gesture.PRESS)
NEXT_PRESS, BOTH_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.BOTH, Gesture.HOLD)
PLAYERS = ("red", "blue", "green")
CONFIG = Config(players=PLAYERS, game="altay", games=("altay", "other-game"),
                game_players=(("altay", 2, 4), ("other-game", 2, 4)))


def sim(config: Config = CONFIG) -> Simulation:
    return Simulation(config, lambda line: None, profile=ALTAY)


def press(box: Simulation, event: Input, at: float) -> Any:
    """`event` at `at` as `erabox simulate` takes it; the screen after it."""
    box.advance(at)
    box.driver.input(event, box.now)
    box._step(event)
    return box.driver.screen(box.now)


def to_item(box: Simulation, item: str, at: float) -> float:
    """NEXT pressed until the menu shows `item`; the time after the last press."""
    for _ in range(40):
        shown = box.driver.screen(box.now)
        assert isinstance(shown, Screen)
        if shown.menu_item == item:
            return at
        at += 0.5
        press(box, NEXT_PRESS, at)
    raise AssertionError(f"no {item} in the menu")


def test_era_held_at_a_round_game_s_setup_opens_the_box_s_menu_in_the_round_engine() -> None:
    box = sim()
    shown = press(box, ERA_HOLD, 1.0)
    assert box.driver.profile is ALTAY and box.driver.switch_to is None  # no other engine
    assert shown.kind is Phase.SETTINGS
    assert (shown.menu_item, shown.menu_value, shown.menu_position) == (
        "game", "altay", (1, len(settings_menu.items(settings_menu.defaults(CONFIG)))))
    shown = press(box, NEXT_PRESS, 2.0)
    assert (shown.menu_item, shown.menu_value) == ("players", "3")
    shown = press(box, BOTH_HOLD, 3.0)  # nothing in the menu
    assert (shown.kind, shown.menu_item, shown.question) == (Phase.SETTINGS, "players", None)
    shown = press(box, Input(Button.NEXT, Gesture.HOLD), 4.0)  # back to "Game"
    assert shown.menu_item == "game"
    assert box.settings.saved is None  # nothing changed: nothing saved


def test_the_menu_closed_on_other_settings_sets_the_round_game_up_with_them() -> None:
    box = sim()
    press(box, ERA_HOLD, 1.0)
    at = to_item(box, "players", 1.0)
    shown = press(box, ERA_PRESS, at + 0.5)  # 3 -> 4 players
    assert (shown.menu_item, shown.menu_value) == ("players", "4")
    assert box.settings.saved is not None and len(box.settings.saved["seats"]) == 4  # at once
    at = to_item(box, "language", at + 0.5)
    shown = press(box, ERA_PRESS, at + 0.5)  # en -> ja: the menu says it in Japanese
    assert (shown.menu_value, shown.language) == ("ja", "ja")
    assert box.settings.saved["language"] == "ja"
    press(box, ERA_HOLD, at + 1.5)  # closed: the same game, set up anew with them
    assert box.driver.switch_to is None and box.driver.profile is ALTAY
    play: Any = box.driver.game
    assert play.menu is None and play.chosen is None and play.spot.state is State.SETUP
    assert len(play.players) == 4 and box.driver.language == "ja"
    assert box.driver.engine.config.players == settings_menu.from_dict(
        box.settings.saved, CONFIG).players
    assert box.driver.screen(box.now).kind == "setup"  # the game's own screen again
    assert box.saved_text is not None and '"players":' in box.saved_text  # saved at once
    press(box, ERA_HOLD, at + 3.0)  # the menu again, from the settings chosen
    shown = press(box, NEXT_PRESS, at + 4.0)
    assert (shown.menu_item, shown.menu_value, shown.language) == ("players", "4", "ja")


def test_the_menu_closed_with_nothing_changed_keeps_the_play() -> None:
    box = sim()
    before = box.driver.game
    press(box, ERA_HOLD, 1.0)
    press(box, ERA_HOLD, 2.0)
    assert box.driver.game.spot == before.spot and box.driver.game.menu is None
    assert box.driver.game.chosen is None and box.driver.engine.config == CONFIG


def test_another_game_chosen_in_a_round_game_s_menu_is_asked_for() -> None:
    box = sim()
    press(box, ERA_HOLD, 1.0)
    shown = press(box, ERA_PRESS, 1.5)  # "Game": altay -> other-game
    assert shown.menu_value == "other-game"
    assert box.settings.saved is not None and box.settings.saved["game_chosen"] is True
    press(box, ERA_HOLD, 3.0)
    assert box.driver.switch_to == "other-game"  # as the era engine's menu asks for it
    box = sim()
    press(box, ERA_HOLD, 1.0)
    for at in (1.5, 2.0):  # round to Time of Empires, chosen
        press(box, ERA_PRESS, at)
    press(box, ERA_HOLD, 3.0)
    assert box.driver.switch_to == ""


def test_a_power_cut_with_the_menu_open_comes_back_to_the_setup_with_the_menu_closed() -> None:
    box = sim()
    press(box, ERA_HOLD, 1.0)
    at = to_item(box, "players", 1.0)
    press(box, ERA_PRESS, at + 0.5)  # 4 players, saved
    at = to_item(box, "language", at + 0.5)
    press(box, ERA_PRESS, at + 0.5)  # Japanese, saved
    box.advance(at + 1.0)
    box.restart()
    play: Any = box.driver.game
    assert play.menu is None and play.spot.state is State.SETUP
    assert len(play.players) == 4 and box.driver.language == "ja"  # the settings on disk
    shown = box.driver.screen(box.now)
    assert not isinstance(shown, Screen) or shown.kind is not Phase.SETTINGS
    shown = press(box, ERA_HOLD, at + 2.0)  # the menu opens again, on what was chosen
    assert shown.kind is Phase.SETTINGS and shown.language == "ja"


def test_a_power_cut_with_the_menu_open_and_nothing_changed_resumes_the_play() -> None:
    box = sim()
    press(box, NEXT_PRESS, 0.5)  # the setup's choice moved on: kept in the record
    spot = box.driver.game.spot
    press(box, ERA_HOLD, 1.0)
    box.advance(2.0)
    box.restart()
    assert box.driver.game.spot == spot and box.driver.game.menu is None


def test_a_round_game_s_event_lines_say_the_menu_open_and_closed() -> None:
    lines: list[dict[str, Any]] = []
    box = Simulation(CONFIG, lines.append, profile=ALTAY)
    press(box, ERA_HOLD, 1.0)
    press(box, NEXT_PRESS, 2.0)  # in the menu: no line of the play's own
    press(box, ERA_HOLD, 3.0)
    assert [(line["t"], line["state"]) for line in lines if line["type"] == "state"] == [
        (0.0, "setup"), (1.0, "settings"), (3.0, "setup")]


def test_the_menu_s_screen_is_drawn_by_the_box_s_renderer_in_a_round_game() -> None:
    from erabox.ui.panel import Panel
    from erabox.ui.render import draw

    box = sim()
    shown = press(box, ERA_HOLD, 1.0)
    assert isinstance(shown, Screen) and shown.kind is Phase.SETTINGS
    assert box.driver.care_screen(shown) is shown  # OLED care reads it as the era engine's
    for language in ("en", "ja"):
        assert draw(shown, Panel(), language).size == Panel().size


def test_another_game_chosen_where_none_can_be_switched_to_leaves_the_play_as_it_was() -> None:
    """`erabox simulate --game` looks no game up: the game chosen is not played, and the
    play goes on as it was, its next steps not set up anew."""
    box = sim()
    press(box, ERA_HOLD, 1.0)
    press(box, ERA_PRESS, 1.5)  # "Game": other-game
    press(box, ERA_HOLD, 2.0)
    assert box.driver.switch_to == "other-game"
    box.driver.switch_to = None
    press(box, ERA_PRESS, 3.0)  # ERA at its setup: the game begins, not a fresh setup
    assert box.driver.game.spot.state is not State.SETUP


def test_a_round_game_s_menu_choices_are_saved_and_read_back_by_the_box(
        tmp_path: Path) -> None:
    """`erabox run`: a profile's driver has the settings file too; what its menu chose is
    saved there and read back at the next start, the game playing with it."""
    clock = [0.0]

    def box() -> Box:
        started = Box(CONFIG, state_file=StateFile(tmp_path / "state.json"),
                      settings_file=SettingsFile(tmp_path / "settings.json"), profile=ALTAY,
                      clock=lambda: clock[0])
        started.start_game()
        return started

    def step(on: Box, event: Input) -> Any:
        clock[0] += 1.0
        on._step(event, clock[0], None)
        return on.driver.screen(clock[0])

    first = box()
    step(first, ERA_HOLD)
    while step(first, NEXT_PRESS).menu_item != "language":
        pass
    assert step(first, ERA_PRESS).menu_value == "ja"
    step(first, ERA_HOLD)
    assert first.driver.language == "ja" and first.driver.profile is ALTAY
    assert json.loads((tmp_path / "settings.json").read_text())["language"] == "ja"
    first.driver.shutdown(clock[0])
    again = box()  # the next start: the settings file read back
    assert again.driver.language == "ja" and again.driver.game.menu is None
    again.driver.state.close()


def test_the_menu_s_brightness_and_language_are_the_box_s_at_once() -> None:
    """As in the era engine's menu, a change is seen at once: the panel's contrast, the
    language the box draws in."""
    box = sim()
    press(box, ERA_HOLD, 1.0)
    at = to_item(box, "brightness", 1.0)
    assert box.driver.contrast == CONFIG.display.contrast
    press(box, ERA_PRESS, at + 0.5)
    assert box.driver.contrast == settings_menu.BRIGHTNESS_CHOICES[0] != CONFIG.display.contrast
    at = to_item(box, "language", at + 0.5)
    press(box, ERA_PRESS, at + 0.5)
    assert box.driver.language == "ja"
