"""Up to eight seats where the chosen game allows them: the config's players, the settings
menu's player count (the chosen game's own range), the settings file and the saved play; Time
of Empires stays a game for 2 to 4 players."""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.adapters.settings_file import SettingsFile
from erabox.adapters.state_file import StateFile
from erabox.cli import main
from erabox.core import settings as s
from erabox.core.config import Config, ConfigError, parse_config
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import State, asked, new_play, screen
from erabox.core.play_record import restore, snapshot
from erabox.core.rules import SEAT_COLOURS
from erabox.files.games import load_game, offer_games
from erabox.run.app import Box
from erabox.run.driver import Driver, MemoryState
from erabox.ui.layout import layout
from erabox.ui.panel import Panel
from erabox.ui.play_samples import every_screen
from erabox.ui.screens import layout_play
from erabox.ui.strings import COLOUR_NAMES_JA, LANGUAGES
from menu_game import menu_settings, plays_own

EIGHT = ("red", "blue", "green", "yellow", "purple", "orange", "white", "black")
# The box's own game, Lords of Xidit (3-5) and Hadrian's Wall (1-8), as the box finds them.
CFG = offer_games(parse_config(""), [])
NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)


def players_line(*players: str) -> str:
    return "players = [" + ", ".join(f'"{p}"' for p in players) + "]\n"


# --- the config ------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 5, 8])
def test_the_config_seats_one_to_eight_players(count: int) -> None:
    assert parse_config(players_line(*EIGHT[:count])).players == EIGHT[:count]


def test_nine_players_are_refused_saying_how_many_fit() -> None:
    with pytest.raises(ConfigError, match="a list of 1 to 8 different players"):
        parse_config(players_line(*EIGHT, "pink"))


def test_five_players_in_the_config_play_lords_of_xidit_to_the_end(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = tmp_path / "erabox.toml"
    config.write_text(players_line(*EIGHT[:5]), encoding="utf-8")
    # Through the 12 years, their censuses and the final scoring's round, with NEXT presses to
    # spare (those past the last step add to the first number asked), then ERA for each
    # number asked (only those that can change the result are: ties ask more); presses past
    # the final ranking do nothing.
    years = ["next press"] * 150
    script = ["era press", *years] + ["era press"] * (8 * 5)
    path = tmp_path / "script.txt"
    path.write_text("".join(f"{t} {g}\n" for t, g in enumerate(script)), encoding="utf-8")
    code = main(["simulate", "--config", str(config), "--script", str(path),
                 "--game", "lords-of-xidit"])
    out, err = capsys.readouterr()
    assert code == 0, err
    events = [json.loads(line) for line in out.splitlines()]
    ranking = [e for e in events if e["type"] == "ranking"][-1]
    assert sorted(p["player"] for p in ranking["places"]) == sorted(EIGHT[:5])
    assert [e for e in events if e["type"] == "state"][-1]["state"] == "game_over"


# --- the settings menu -----------------------------------------------------------------------


def counts(settings: s.Settings, presses: int) -> list[int]:
    """The player count after each ERA press on the menu's "players" item."""
    found = []
    for _ in range(presses):
        settings = s.change(settings, "players", s.palette(CFG))
        found.append(len(settings.seats))
    return found


def test_the_player_count_steps_through_the_chosen_games_range() -> None:
    own = s.defaults(CFG)
    assert own.game == "" and counts(own, 4) == [2, 3, 4, 2]  # Time of Empires: 2-4
    xidit = replace(own, game="lords-of-xidit")
    assert counts(xidit, 4) == [5, 3, 4, 5]
    hadrian = replace(own, game="hadrians-wall")
    assert counts(hadrian, 8) == [5, 6, 7, 8, 1, 2, 3, 4]


def test_eight_seats_take_eight_different_colours() -> None:
    hadrian = replace(s.defaults(CFG), game="hadrians-wall")
    for _ in range(4):  # 4 -> 8 players
        hadrian = s.change(hadrian, "players", s.palette(CFG))
    assert hadrian.seats == EIGHT
    # a seat's colour goes round all eight (each a swap with the seat that had it)
    seen = []
    for _ in range(8):
        hadrian = s.change(hadrian, "seat8", s.palette(CFG))
        seen.append(hadrian.seats[7])
        assert len(set(hadrian.seats)) == 8
    assert sorted(seen) == sorted(EIGHT)


def test_choosing_another_game_brings_the_player_count_into_its_range() -> None:
    """The menu's "Game" item: a table too big for the game chosen loses its last seats, a
    table too small gets seats with the first colours nobody has; the oldest stays seated."""
    settings = replace(s.defaults(CFG), seats=("red", "blue"), oldest=1)
    chosen = []
    for _ in range(len(CFG.games) + 1):
        menu = s.Menu(item=s.items(settings).index("game"))
        menu_after, settings = s.menu_step(menu, settings, s.palette(CFG), s.defaults(CFG), ERA)
        # the menu stays on "Game", though the seat items before it came or went
        assert menu_after is not None and s.items(settings)[menu_after.item] == "game"
        chosen.append((settings.game, len(settings.seats)))
        if settings.game == "lords-of-xidit":
            assert settings.seats == ("red", "blue", "green") and settings.oldest == 1
            five = s.change(s.change(settings, "players", s.palette(CFG)), "players",
                            s.palette(CFG))
            assert len(five.seats) == 5
            back = s.change(replace(five, oldest=4, games=()), "game", s.palette(CFG))
            assert back.game == "" and back.seats == EIGHT[:4] and back.oldest == 0
    assert ("lords-of-xidit", 3) in chosen and ("", 3) in chosen


def test_defaults_seat_the_players_the_config_lists_and_the_menu_says_when_not_fit() -> None:
    five = replace(CFG, players=EIGHT[:5])
    assert s.defaults(five).seats == EIGHT[:5]  # not cut to four behind the table's back
    assert s.game_problem(replace(s.defaults(five), game="hadrians-wall",
                                  game_players=(("hadrians-wall", 1, 4),))) == "game_players:1:4"
    assert s.defaults(replace(five, game="lords-of-xidit")).seats == EIGHT[:5]


# --- the files -------------------------------------------------------------------------------


def test_a_settings_file_with_eight_seats_loads_and_nine_are_refused() -> None:
    eight = replace(s.defaults(CFG), seats=EIGHT, oldest=7, game="hadrians-wall",
                    game_chosen=True)
    saved = json.loads(json.dumps(s.to_dict(eight)))
    assert s.from_dict(saved, CFG) == eight
    with pytest.raises(s.SettingsError, match="'seats' should be 1 to 8 different"):
        s.from_dict({**saved, "seats": [*EIGHT, "pink"]}, CFG)
    older = {**saved, "seats": ["red", "blue", "green", "yellow"], "oldest": 0}
    del older["game"]  # a file from before game profiles
    assert s.from_dict(older, CFG).seats == EIGHT[:4]


def test_a_saved_play_with_eight_players_comes_back() -> None:
    profile = load_game("hadrians-wall", [])
    play = new_play(profile, EIGHT)
    for event in (ERA, NEXT, NEXT):
        play, _ = step(play, event, 0.0)
    record = json.loads(json.dumps(snapshot(play, 0.0)))
    back, _ = restore(record, profile, EIGHT, 0.0)
    assert back.spot == play.spot and back.players == EIGHT


# --- Time of Empires stays 2-4 ---------------------------------------------------------------


def test_time_of_empires_seats_the_first_four_of_a_bigger_table(
        caplog: pytest.LogCaptureFixture) -> None:
    config = replace(CFG, players=EIGHT[:6])
    with caplog.at_level(logging.WARNING, logger="erabox"):
        driver = Driver(config, state=MemoryState())
    driver.start(0.0)
    assert driver.game.players == EIGHT[:4]
    assert "Time of Empires is for 2 to 4 players, not 6" in caplog.text
    solo = Driver(replace(CFG, players=("Aiko",)), state=MemoryState())
    assert solo.game.players == ("Aiko", "red")


def test_time_of_empires_seats_four_of_five_seats_chosen_for_another_game() -> None:
    class Chosen:
        def load(self, config: Any) -> s.Settings:
            return replace(s.defaults(config), seats=EIGHT[:5], oldest=4)

        def save(self, settings: Any) -> None:
            pass

    driver = Driver(CFG, state=MemoryState(), settings=Chosen())
    driver.start(0.0)
    assert driver.game.players == EIGHT[:4]


# --- the seat names --------------------------------------------------------------------------


def test_eight_seat_colours_the_four_first_each_said_in_japanese() -> None:
    assert SEAT_COLOURS == EIGHT and SEAT_COLOURS[:4] == ("red", "blue", "green", "yellow")
    assert all(len(COLOUR_NAMES_JA[c]) == 1 for c in SEAT_COLOURS)  # one kanji each


# --- the screens -----------------------------------------------------------------------------


def test_eight_places_fit_both_panels_and_next_pages_them_on_the_small_one() -> None:
    profile = load_game("hadrians-wall", [])
    over = next(shown for shown in every_screen(profile)
                if shown.kind == "game_over" and len(shown.places) == 8)
    # the places alone (no tie or elimination to explain: those page by place, see
    # test_profile_screens)
    over = replace(over, decided=tuple((None, None, False) for _ in over.places))
    for language in LANGUAGES:
        places = [i for i in layout_play(over, Panel(), language) if i.role == "place"]
        assert len(places) == 8 and not any(i.abbreviated for i in places)  # two columns
        pages = []
        for page in range(8):
            line = [i for i in layout_play(replace(over, page=page), Panel(height=32), language)
                    if i.role == "places"]
            assert len(line) == 1 and not line[0].abbreviated
            pages.append(line[0].mask.tobytes())
        distinct = list(dict.fromkeys(pages))
        assert len(distinct) >= 3 and pages[len(distinct)] == pages[0]  # round again
        hint = [i for i in layout_play(over, Panel(height=32), language) if i.role == "hint"]
        assert hint and not hint[0].abbreviated


def test_next_at_the_final_ranking_turns_its_page() -> None:
    profile = load_game("hadrians-wall", [])
    play, _ = step(new_play(profile, EIGHT), ERA, 0.0)
    for _ in range(3000):
        if play.spot.state is State.GAME_OVER:
            break
        play, _ = step(play, ERA if asked(play) is not None else NEXT, 0.0)
    assert screen(play, 0.0).page == 0
    play, _ = step(play, NEXT, 0.0)
    assert screen(play, 0.0).page == 1 and play.spot.state is State.GAME_OVER


def test_five_players_chosen_with_the_buttons_play_lords_of_xidit(tmp_path: Path) -> None:
    """At the box: the menu's "Game" set to Lords of Xidit, its player count stepped to 5,
    the menu closed: Lords of Xidit plays with five; back to Time of Empires: four."""
    config = offer_games(Config(guide=False), [])
    state = StateFile(tmp_path / "state.json")
    clock = [0.0]
    box = Box(config, state_file=state, settings_file=SettingsFile(tmp_path / "settings.json"),
              clock=lambda: clock[0], find_profile=lambda name: load_game(name, []))

    def press(button: Button, gesture: Gesture = Gesture.PRESS) -> None:
        clock[0] += 1.0
        box.driver.input(Input(button, gesture), clock[0])
        box._step(Input(button, gesture), clock[0], None)

    def go_to(item: str) -> str:
        for _ in range(40):
            shown = box.driver.screen(clock[0])
            if shown.menu_item == item:
                return str(shown.menu_value)
            press(Button.NEXT)
        raise AssertionError(item)

    box.start_game()
    press(Button.ERA, Gesture.HOLD)  # the settings menu
    assert go_to("players") == "4"
    press(Button.ERA)
    assert go_to("players") == "2"  # Time of Empires: 2 to 4
    for _ in range(len(config.games) + 1):
        if go_to("game") == "lords-of-xidit":
            break
        press(Button.ERA)
    chosen = menu_settings(box.driver.game)
    assert chosen is not None and len(chosen.seats) == 3  # into 3-5
    press(Button.NEXT, Gesture.HOLD)
    for _ in range(2):
        go_to("players")
        press(Button.ERA)
    assert go_to("players") == "5" and go_to("seat5") == "purple"
    for language in LANGUAGES:  # the menu is drawn over the setup of five
        assert layout(box.driver.screen(clock[0]), language=language).items
    press(Button.ERA, Gesture.HOLD)  # the menu closes: Lords of Xidit, with five
    assert box.driver.profile is not None and box.driver.game.players == EIGHT[:5]
    press(Button.ERA, Gesture.HOLD)  # at its setup: back to the menu, to choose again
    for _ in range(len(config.games) + 1):
        if go_to("game") == "":
            break
        press(Button.ERA)
    press(Button.ERA, Gesture.HOLD)
    assert plays_own(box.driver) and box.driver.played_config.players == EIGHT[:4]
    state.close()
