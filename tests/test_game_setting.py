"""The settings menu's "Game": every game found is a value; choosing one plays it (fresh) once
the menu closes; ERA held at a profile's setup brings the menu back to choose again."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from erabox.adapters.settings_file import SettingsFile
from erabox.adapters.state_file import StateFile
from erabox.core import settings as settings_menu
from erabox.core.config import Config
from erabox.core.model import Button, Gesture, Input, Phase
from erabox.core.play import PlayScreen
from erabox.files.games import available_games, load_game, offer_games
from erabox.run.app import Box
from erabox.ui.layout import layout
from menu_game import menu_settings, plays_own

MINE = """\
[game]
name = { en = "Mine", ja = "自作" }

[players]
min = 2
max = 4

[rounds]
name = { en = "Round", ja = "ラウンド" }
count = 2

[[phase]]
id = "play"
label = { en = "Play", ja = "プレイ" }
"""

ERA_HOLD = Input(Button.ERA, Gesture.HOLD)
ERA_PRESS = Input(Button.ERA, Gesture.PRESS)
NEXT_PRESS = Input(Button.NEXT, Gesture.PRESS)


def test_the_game_item_offers_time_of_empires_then_every_game_found() -> None:
    config = Config(games=("mine", "altay"))
    chosen = settings_menu.defaults(config)
    assert "game" in settings_menu.items(chosen)
    values = []
    for _ in range(3):
        values.append(settings_menu.value(chosen, "game"))
        chosen = settings_menu.change(chosen, "game", settings_menu.palette(config))
    assert values == ["", "mine", "altay"]
    assert settings_menu.value(chosen, "game") == ""  # wraps round
    saved = settings_menu.to_dict(replace(chosen, game="mine"))
    assert saved["game"] == "mine" and "games" not in saved
    back = settings_menu.from_dict(saved, config)
    assert (back.game, back.games) == ("mine", ("mine", "altay"))
    assert settings_menu.apply(config, back).game == "mine"
    del saved["game"]  # a file from before profiles: the config's game
    assert settings_menu.from_dict(saved, replace(config, game="altay")).game == "altay"


def test_a_user_profile_shows_up_in_the_menu_and_is_played_once_chosen(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "mine.toml").write_text(MINE, encoding="utf-8")
    found = available_games([games])
    assert next(iter(found)) == "mine"  # the folders' games come before the shipped ones
    config = offer_games(Config(guide=False), [games])
    # every game found but the box's own (Time of Empires' profile: the menu's first value)
    assert config.games == tuple(name for name in found if name != "time-of-empires")
    assert config.game_names[0] == ("mine", "Mine", "自作")
    state = StateFile(tmp_path / "state.json")
    settings = SettingsFile(tmp_path / "settings.json")
    clock = [0.0]
    box = Box(config, state_file=state, settings_file=settings, clock=lambda: clock[0],
              find_profile=lambda name: load_game(name, [games]))

    def press(event: Input) -> None:
        clock[0] += 1.0
        box.driver.input(event, clock[0])
        box._step(event, clock[0], None)

    box.start_game()
    press(ERA_HOLD)  # the settings menu
    items = settings_menu.items(menu_settings(box.driver.game) or settings_menu.defaults(config))
    for _ in range(items.index("game")):
        press(NEXT_PRESS)
    shown = box.driver.screen(clock[0])
    assert (shown.menu_item, shown.menu_value) == ("game", "")  # Time of Empires
    press(ERA_PRESS)
    shown = box.driver.screen(clock[0])
    assert (shown.menu_item, shown.menu_value) == ("game", "mine")
    assert shown.menu_names == ("Mine", "自作")  # shown by its own name, in the language
    for language, name in (("en", "Mine"), ("ja", "自作")):
        value = next(i for i in layout(shown, language=language).items if i.role == "value")
        assert value.source == name  # type: ignore[union-attr]
    assert plays_own(box.driver)  # not before the menu closes
    press(ERA_HOLD)  # the menu closes: Mine begins, fresh
    assert box.driver.profile is not None and box.driver.profile.id == "mine"
    play = box.driver.screen(clock[0])
    assert isinstance(play, PlayScreen) and play.kind == "setup"
    press(ERA_PRESS)
    assert box.driver.screen(clock[0]).round == 1
    state.flush()
    assert json.loads((tmp_path / "state.json").read_text())["game"] == "mine"
    assert json.loads((tmp_path / "settings.json").read_text())["game"] == "mine"

    # After a restart the chosen game is still played, at the same round.
    box.driver.shutdown(clock[0])
    state = StateFile(tmp_path / "state.json")
    again = Box(config, state_file=state, settings_file=settings,
                profile=load_game("mine", [games]), clock=lambda: clock[0])
    again.start_game()
    assert again.driver.screen(clock[0]).round == 1

    # ERA held at a profile's setup: the box's menu, run by the round engine, on "Game".
    box = again
    press(Input(Button.NEXT, Gesture.HOLD))  # undo: back to setup
    assert box.driver.screen(clock[0]).kind == "setup"
    press(ERA_HOLD)
    assert box.driver.profile is not None and box.driver.profile.id == "mine"
    shown = box.driver.screen(clock[0])
    assert (shown.kind, shown.menu_item, shown.menu_value) == (Phase.SETTINGS, "game", "mine")
    assert box.driver.game.menu is not None
    state.close()


def test_the_box_draws_a_profile_screen_in_the_language_it_runs_in(tmp_path: Path) -> None:
    from PIL import Image

    from erabox.run.app import ScreenWorker
    from erabox.ui.panel import Panel
    from erabox.ui.screens import render_play

    shown: list[Image.Image] = []

    class Display:
        problem = None

        def show(self, image: Image.Image, label: str | None = None) -> None:
            shown.append(image)

        def close(self) -> None:
            pass

    worker = ScreenWorker(Display(), "en")  # the file's language; the settings chose ja
    played = Config(language="ja", players=("red", "blue", "green"))
    profile = load_game("altay", [])
    state = StateFile(tmp_path / "state.json")
    box = Box(Config(), state_file=state, screen_worker=worker, profile=profile,
              profile_config=played, clock=lambda: 0.0)
    box.start_game()
    worker.close()
    state.close()
    expected = render_play(box.driver.screen(0.0), Panel(), "ja")
    assert shown and shown[-1].tobytes() == expected.tobytes()


def test_a_profile_that_cannot_be_read_is_offered_by_its_files_name(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "broken.toml").write_text("[game]\nname = 3\n", encoding="utf-8")
    config = offer_games(Config(), [games])
    assert config.games[0] == "broken"
    assert "broken" not in {name for name, _, _ in config.game_names}
    assert {name for name, _, _ in config.game_names} >= {"altay", "lords-of-xidit"}


def test_every_shipped_games_name_fits_the_menu_on_both_panels() -> None:
    from erabox.core.model import Mode, Screen
    from erabox.ui.panel import MARGIN, Panel

    config = offer_games(Config(), [])
    assert len(config.game_names) == 3  # Time of Empires itself is the menu's first value
    for name, en, ja in config.game_names:
        for panel in (Panel(), Panel(height=32)):
            for language, own in (("en", en), ("ja", ja)):
                shown = Screen(Phase.SETTINGS, 1, Mode.REALTIME, menu_item="game",
                               menu_value=name, menu_names=(en, ja))
                value = next(i for i in layout(shown, language=language, panel=panel).items
                             if i.role == "value")
                assert value.source == own  # type: ignore[union-attr]
                right = value.box.x + value.block.width  # type: ignore[union-attr]
                assert right <= panel.width - MARGIN, (name, language, panel)
