"""Which game the box plays, one rule for the command line, the settings menu and the config
(README "Settings on the box"): `--game` for that run; else the game chosen in the settings
menu, once "Game" was changed there; else the config's `game`; else Time of Empires. The
box's settings (players, seats, oldest, language) apply to every game. A game that cannot be
played says so on the screen, in the box's language, and the menu stays open; no profile file,
however broken, stops the box."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.adapters.settings_file import SettingsFile
from erabox.adapters.state_file import StateFile
from erabox.core import settings as settings_menu
from erabox.core.config import Config
from erabox.core.model import Button, Gesture, Input
from erabox.core.profile import ProfileError
from erabox.files.games import load_game, offer_games
from erabox.run.app import Box
from erabox.run.which_game import game_to_play
from erabox.ui.layout import layout
from menu_game import menu_settings, plays_own
from test_run import daemon_env, read_events

ERA_HOLD = Input(Button.ERA, Gesture.HOLD)
ERA_PRESS = Input(Button.ERA, Gesture.PRESS)
NEXT_PRESS = Input(Button.NEXT, Gesture.PRESS)
NEXT_HOLD = Input(Button.NEXT, Gesture.HOLD)
FOUR = 'players = ["red", "blue", "green", "yellow"]\n'

# A profile whose stage eliminates by a player count written "⑤": once a traceback at start.
CIRCLED = """\
[game]
name = "Circled"

[players]
min = 2
max = 5

[rounds]
name = "Round"
count = 3

[[phase]]
id = "play"
label = "Play"

[scoring]
order = "eliminations"

[[scoring.category]]
id = "a"
label = "A"

[[scoring.stage]]
category = "a"
eliminate = { "⑤" = 1 }
"""


def settings_file_text(**changes: Any) -> str:
    """A settings.json as the menu writes it (four seats, English), with `changes`."""
    saved = settings_menu.to_dict(settings_menu.defaults(Config()))
    saved.update(changes)
    return json.dumps(saved)


def run_box(tmp_path: Path, config: str, *extra: str, script: str = "0.5 end\n"
            ) -> tuple[int, list[dict[str, Any]], str]:
    """`erabox run` as a real process (mock pins, no display, no sound), its own
    ~/.config (XDG_CONFIG_HOME) so no game of the machine's is found."""
    (tmp_path / "erabox.toml").write_text(config, encoding="utf-8")
    (tmp_path / "run.script").write_text(script)
    events = tmp_path / "run.jsonl"
    env = daemon_env(tmp_path)
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")
    done = subprocess.run(
        [sys.executable, "-m", "erabox", "run", "--config", str(tmp_path / "erabox.toml"),
         "--display", "none", "--audio", "none", "--events", str(events),
         "--script", str(tmp_path / "run.script"), *extra],
        env=env, capture_output=True, timeout=60)
    return done.returncode, read_events(events), done.stderr.decode()


def played(events: list[dict[str, Any]]) -> str:
    """The game the event stream shows: a profile's id, or Time of Empires."""
    setup = next((e for e in events if e["type"] == "setup" and "game" in e), None)
    return "time-of-empires" if setup is None else str(setup["game"])


def test_the_config_game_plays_until_the_menu_chooses_one_and_game_wins_for_a_run(
        tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    config = FOUR + 'game = "hadrians-wall"\n'
    # A settings file the menu wrote (any setting changed) without "Game" being chosen: it
    # holds "game": "" as the default of the time. The config's game plays all the same.
    settings.write_text(settings_file_text(game="", volume=0.5), encoding="utf-8")
    code, events, log = run_box(tmp_path, config)
    assert code == 0, log
    assert played(events) == "hadrians-wall"
    assert "playing hadrians-wall: set in the config" in log

    # "Game" chosen in the menu (Time of Empires): the menu's choice wins over the config.
    settings.write_text(settings_file_text(game="", game_chosen=True), encoding="utf-8")
    code, events, log = run_box(tmp_path, config)
    assert code == 0, log
    assert played(events) == "time-of-empires"
    assert "playing Time of Empires: chosen in the settings menu" in log

    # --game wins for that run, over both.
    code, events, log = run_box(tmp_path, config, "--game", "altay")
    assert code == 0, log
    assert played(events) == "altay"
    assert "playing altay: given with --game" in log
    assert "Traceback" not in log


def test_game_flag_plays_with_the_boxs_players_seats_and_oldest(tmp_path: Path) -> None:
    """Three seats chosen on the box, the oldest in seat 2 (yellow): Lords of Xidit's first
    round is yellow's, not the config file's four players' first (red)."""
    (tmp_path / "settings.json").write_text(settings_file_text(
        seats=["red", "yellow", "green"], oldest=1), encoding="utf-8")
    code, events, log = run_box(tmp_path, FOUR, "--game", "lords-of-xidit",
                                script="0.3 era press\n0.8 end\n")
    assert code == 0, log
    rounds = [e for e in events if e["type"] == "round"]
    assert rounds and rounds[0]["start_player"] == "yellow"
    saved = json.loads((tmp_path / "state.json").read_text())
    assert len(saved["players"]) == 3, saved


def test_a_game_the_config_names_that_cannot_be_played_opens_the_menu(tmp_path: Path) -> None:
    """Two players and Lords of Xidit (3 to 5) in the config: the box starts, on Time of
    Empires' settings menu (the screen says why: test below), not an exit."""
    config = 'players = ["red", "blue"]\ngame = "lords-of-xidit"\n'
    code, events, log = run_box(tmp_path, config)
    assert code == 0, log
    assert [e["state"] for e in events if e["type"] == "state"][-1] == "settings"
    assert "cannot play 'lords-of-xidit', set in the config" in log
    assert "Lords of Xidit is for 3 to 5 players, not 2" in log
    assert "Traceback" not in log



def menu_box(tmp_path: Path, config: Config) -> tuple[Box, list[float]]:
    state = StateFile(tmp_path / "state.json")
    clock = [0.0]
    box = Box(config, state_file=state, settings_file=SettingsFile(tmp_path / "settings.json"),
              clock=lambda: clock[0], find_profile=lambda name: load_game(name, []))
    box.start_game()
    return box, clock


def press(box: Box, clock: list[float], event: Input) -> None:
    clock[0] += 1.0
    box._step(event, clock[0], None)


def shown_text(box: Box, clock: list[float], language: str) -> str:
    shown = box.driver.screen(clock[0])
    return " ".join(getattr(i, "source", "") for i in layout(shown, language=language).items)


def test_a_game_chosen_in_the_menu_brings_the_players_into_its_range(tmp_path: Path) -> None:
    """Two players chosen in the menu, then Lords of Xidit (3-5): the count becomes 3 as the
    game is chosen (the table sees it on the menu), and the menu closes on the game."""
    config = offer_games(Config(guide=False), [])
    box, clock = menu_box(tmp_path, config)
    press(box, clock, ERA_HOLD)  # the settings menu, on "Game"
    press(box, clock, NEXT_PRESS)  # "Players"
    press(box, clock, ERA_PRESS)  # players: 4 -> 2
    assert (chosen := menu_settings(box.driver.game)) is not None and len(chosen.seats) == 2
    press(box, clock, NEXT_HOLD)  # back to "Game"
    assert box.driver.screen(clock[0]).menu_item == "game"
    while box.driver.screen(clock[0]).menu_value != "lords-of-xidit":
        press(box, clock, ERA_PRESS)
    assert (chosen := menu_settings(box.driver.game)) is not None and len(chosen.seats) == 3
    assert "for 3-5 players only" not in shown_text(box, clock, "en")
    press(box, clock, ERA_HOLD)
    assert box.driver.profile is not None and box.driver.profile.id == "lords-of-xidit"
    box.driver.state.close()


def test_a_broken_profile_is_listed_as_broken_and_never_stops_the_box(tmp_path: Path) -> None:
    games = tmp_path / "xdg" / "erabox" / "games"
    games.mkdir(parents=True)
    (games / "circled.toml").write_text(CIRCLED, encoding="utf-8")
    (games / "binary.toml").write_bytes(b"\xff\xfe\x00garbage")
    code, events, log = run_box(tmp_path, FOUR)
    assert code == 0, log
    assert "Traceback" not in log
    assert played(events) == "time-of-empires"
    # said once at start, with the file, the line and the key
    assert log.count("circled.toml:25: key 'scoring.stage[1].eliminate.⑤'") == 1, log
    assert log.count("binary.toml:1: not UTF-8") == 1, log

    # The menu lists it as broken, with its file and line, and will not close on it.
    config = offer_games(Config(guide=False), [games])
    assert ("circled", "circled.toml:25") in config.broken_games
    box, clock = menu_box(tmp_path, config)
    press(box, clock, ERA_HOLD)
    names = settings_menu.items(menu_settings(box.driver.game) or settings_menu.defaults(config))
    for _ in range(names.index("game")):
        press(box, clock, NEXT_PRESS)
    while box.driver.screen(clock[0]).menu_value != "circled":
        press(box, clock, ERA_PRESS)
    assert ("circled broken: circled.toml:25 fix it or choose another game"
            in shown_text(box, clock, "en"))
    assert "circled 誤り: circled.toml:25 直すか別のゲームを選ぶ" in shown_text(box, clock, "ja")
    press(box, clock, ERA_HOLD)
    assert box.driver.game.menu is not None and plays_own(box.driver)
    box.driver.state.close()


def test_any_error_of_a_profile_file_is_one_clear_line_naming_it(
        tmp_path: Path, monkeypatch: Any) -> None:
    """A check the parser misses (here: a parser that raises KeyError) still gives one
    ProfileError naming the file: listed as broken, never a traceback at start."""
    import erabox.files.games as profile_file

    def missed(*_args: Any, **_kwargs: Any) -> None:
        raise KeyError("oops")

    games = tmp_path / "games"
    games.mkdir()
    (games / "mine.toml").write_text(CIRCLED.replace('"⑤"', '"5"'), encoding="utf-8")
    monkeypatch.setattr(profile_file, "parse_profile", missed)
    config = offer_games(Config(), [games])
    assert ("mine", "mine.toml") in config.broken_games
    with pytest.raises(ProfileError, match=r"mine.toml: cannot be read as a profile "
                                           r"\(KeyError: 'oops'\)"):
        load_game("mine", [games])


def test_the_settings_file_records_that_game_was_chosen_in_the_menu() -> None:
    config = Config(games=("altay", "hadrians-wall"), game="hadrians-wall")
    start = settings_menu.defaults(config)
    assert (start.game, start.game_chosen) == ("hadrians-wall", False)
    # Another setting changed: the file keeps no choice of game (nor a new key: the same file
    # and fingerprint as before), so the config's game still plays after a restart.
    saved = settings_menu.to_dict(replace(start, volume=0.5))
    assert "game_chosen" not in saved
    assert settings_menu.from_dict(saved, replace(config, game="altay")).game == "altay"
    # "Game" changed in the menu: recorded, and played whatever the config says.
    chosen = settings_menu.change(start, "game", ())
    assert (chosen.game, chosen.game_chosen) == ("", True)
    back = settings_menu.from_dict(settings_menu.to_dict(chosen), config)
    assert (back.game, back.game_chosen) == ("", True)
    # A file from before the record: "" was the default, another game was chosen.
    assert settings_menu.from_dict({**saved, "game": ""}, config).game == "hadrians-wall"
    old = settings_menu.from_dict({**saved, "game": "altay"}, config)
    assert (old.game, old.game_chosen) == ("altay", True)
    # "Back to defaults": the config's game again.
    menu = settings_menu.Menu(item=settings_menu.items(chosen).index("defaults"))
    menu, asked = settings_menu.menu_step(menu, chosen, (), start, ERA_PRESS)  # it asks
    assert menu is not None and asked == chosen
    _, restored = settings_menu.menu_step(menu, asked, (), start, ERA_PRESS)
    assert (restored.game, restored.game_chosen) == ("hadrians-wall", False)
    # A file from before profiles (no "game"): the config's, not a choice.
    del saved["game"]
    assert not settings_menu.from_dict(saved, config).game_chosen


def test_a_game_whose_file_broke_since_the_start_opens_the_menu_again(tmp_path: Path) -> None:
    """The menu did not know (the file was fine at start): closing on it, the box says so on
    the menu's screen, not only in the log."""
    games = tmp_path / "games"
    games.mkdir()
    mine = games / "mine.toml"
    mine.write_text(CIRCLED.replace('"⑤"', '"5"'), encoding="utf-8")
    config = offer_games(Config(guide=False), [games])
    assert "mine" in config.games and config.broken_games == ()
    state = StateFile(tmp_path / "state.json")
    clock = [0.0]
    box = Box(config, state_file=state, settings_file=SettingsFile(tmp_path / "settings.json"),
              clock=lambda: clock[0], find_profile=lambda name: load_game(name, [games]))
    box.start_game()
    press(box, clock, ERA_HOLD)
    names = settings_menu.items(menu_settings(box.driver.game) or settings_menu.defaults(config))
    for _ in range(names.index("game")):
        press(box, clock, NEXT_PRESS)
    while box.driver.screen(clock[0]).menu_value != "mine":
        press(box, clock, ERA_PRESS)
    mine.write_text("[game\n", encoding="utf-8")  # broken while the box runs
    press(box, clock, ERA_HOLD)
    assert plays_own(box.driver) and box.driver.game.menu is not None
    assert "broken: mine.toml:1 fix it or choose another game" in shown_text(box, clock, "en")
    box.driver.state.close()


def test_at_start_a_game_that_cannot_be_played_is_said_on_the_menus_screen(
        tmp_path: Path) -> None:
    """What `erabox run` does when the config's game is not for its players: the start's
    choice refuses it, and Time of Empires' menu opens on "Game" saying why."""
    config = offer_games(Config(players=("red", "blue"), game="lords-of-xidit", guide=False),
                         [])
    settings = SettingsFile(tmp_path / "settings.json")
    start = game_to_play(argparse.Namespace(game=None), config, settings,
                         lambda name: load_game(name, []))
    assert start.refused and start.profile is None
    state = StateFile(tmp_path / "state.json")
    clock = [0.0]
    box = Box(start.played, state_file=state, settings_file=settings, clock=lambda: clock[0],
              find_profile=lambda name: load_game(name, []))
    box.start_game()
    box.open_settings()
    assert "Game Lords of Xidit for 3-5 players only change Players or Game" in shown_text(
        box, clock, "en")
    state.close()


def test_game_flag_with_too_few_players_in_the_menu_says_where_they_came_from(
        tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(settings_file_text(seats=["red", "blue"]),
                                            encoding="utf-8")
    code, _, log = run_box(tmp_path, FOUR, "--game", "lords-of-xidit")
    assert code == 2
    assert ("Lords of Xidit is for 3 to 5 players, not 2 (change the settings menu's Players, "
            "or play another game)") in log
    assert "Traceback" not in log


def test_lords_of_xidit_for_five_is_seven_gestures_from_time_of_empires_setup(
        tmp_path: Path) -> None:
    """The menu opens on "Game", "Players" next (README "Settings on the box"): from a fresh
    box's first screen (Time of Empires, four players), Lords of Xidit for five and back at
    its setup is 7 gestures (29 when "Game" came after the other settings, near the end, walked
    to with NEXT presses; 12 at best, holding NEXT back past "Back to defaults")."""
    config = offer_games(Config(), [])
    box, clock = menu_box(tmp_path, config)
    assert plays_own(box.driver) and len(box.driver.played_config.players) == 4
    gestures = [ERA_HOLD,  # the settings menu, on "Game": Time of Empires
                ERA_PRESS, ERA_PRESS, ERA_PRESS,  # Altay, Hadrian's Wall, Lords of Xidit
                NEXT_PRESS,  # "Players": 4
                ERA_PRESS,  # 5
                ERA_HOLD]  # closed: Lords of Xidit's setup
    for gesture in gestures:
        press(box, clock, gesture)
    assert len(gestures) == 7
    assert box.driver.profile is not None and box.driver.profile.id == "lords-of-xidit"
    play = box.driver.game
    assert len(play.players) == 5 and play.spot.state == "setup"
    assert box.driver.screen(clock[0]).kind == "setup"
    box.driver.state.close()


def test_the_box_tells_which_kind_of_game_the_menu_switched_to(tmp_path: Path) -> None:
    """The terminal's help line follows the game (`Box.on_switch`, adapters/keyboard.py):
    a game profile chosen in the menu, then Time of Empires chosen in its menu, opened at its
    setup (the round engine's menu: no switch until it closes on another game)."""
    box, clock = menu_box(tmp_path, offer_games(Config(), []))
    told: list[bool] = []
    box.on_switch = told.append
    for gesture in (ERA_HOLD, ERA_PRESS, ERA_PRESS, ERA_PRESS, ERA_HOLD):  # Lords of Xidit
        press(box, clock, gesture)
    assert box.driver.profile is not None and told == [True]
    press(box, clock, ERA_HOLD)  # its setup: the settings menu, the round engine's
    assert box.driver.profile is not None and told == [True]
    while getattr(box.driver.screen(clock[0]), "menu_value", None) != "":  # Time of Empires
        press(box, clock, ERA_PRESS)
    press(box, clock, ERA_HOLD)  # closed on it
    assert plays_own(box.driver) and told == [True, False]
    assert box.driver.game.menu is None  # Time of Empires itself, fresh: not its menu
    box.driver.state.close()
