"""The box's first screen of a game profile says which game plays and why (README "Settings
on the box": `--game` for that run, else the game chosen in the settings menu, else the
config's `game`): "Given with --game", "Chosen in the settings menu", "The config's game",
for a few seconds (`CHOSEN_S`) or until the first press; the screen model is pure, its
`why_played` read from the play and `now`."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

import pytest

from erabox.adapters.settings_file import SettingsFile
from erabox.adapters.state_file import StateFile
from erabox.core import settings as settings_menu
from erabox.core.config import Config
from erabox.core.engine import ProfileEngine
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Tick
from erabox.core.play import CHOSEN_S, Play, PlayScreen, ShowPlay
from erabox.core.profile import Profile
from erabox.files.games import load_game, offer_games
from erabox.run.app import Box
from erabox.run.which_game import game_to_play
from erabox.ui.game_words import word
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play

NEXT_PRESS = Input(Button.NEXT, Gesture.PRESS)
ERA_PRESS = Input(Button.ERA, Gesture.PRESS)
ERA_HOLD = Input(Button.ERA, Gesture.HOLD)
FOUR = ("red", "blue", "green", "yellow")


def engine(why: str | None, game: str = "lords-of-xidit") -> ProfileEngine:
    return ProfileEngine(load_game(game, []), Config(players=FOUR, guide=False), why)


def whys(effects: tuple[object, ...]) -> list[str | None]:
    """What each screen the effects draw says of why the game plays."""
    return [e.screen.why_played for e in effects if isinstance(e, ShowPlay)]


def at(box: ProfileEngine, play: Play, now: float) -> PlayScreen:
    shown = box.screen(play, now)
    assert isinstance(shown, PlayScreen)
    return shown


@pytest.mark.parametrize("why", ["game", "menu", "config"])
def test_the_first_setup_says_why_for_a_few_seconds(why: str) -> None:
    box = engine(why)
    play, effects = box.fresh(10.0, 0)
    assert whys(effects) == [why]
    assert at(box, play, 10.0 + CHOSEN_S - 0.1).why_played == why
    assert box.next_deadline(play, 10.0) == pytest.approx(10.0 + CHOSEN_S)  # it goes away
    later, effects = box.step(play, Tick(), 10.0 + CHOSEN_S)
    assert whys(effects) == [None]
    assert at(box, later, 10.0 + CHOSEN_S).why_played is None
    assert box.next_deadline(later, 10.0 + CHOSEN_S) is None


@pytest.mark.parametrize("press", [NEXT_PRESS, Input(Button.NEXT, Gesture.HOLD)])
def test_the_first_press_ends_it(press: Input) -> None:
    """A press at the setup (NEXT: the variant; hold: the notes) leaves the setup shown, the
    why gone; a new game (NEXT+ERA) does not say it again."""
    play, _ = engine("game").fresh(0.0, 0)
    after, effects = step(play, press, 1.0)
    assert after.spot.state.value == "setup"
    assert whys(effects) == [None]


def test_without_a_reason_nothing_is_said() -> None:
    """`erabox simulate` and the tests' own plays say nothing (their transcripts unchanged)."""
    play, effects = engine(None).fresh(0.0, 0)
    assert whys(effects) == [None]
    assert engine(None).next_deadline(play, 0.0) is None


def test_which_game_says_why_it_plays(tmp_path: Path) -> None:
    """The rule's answer, as the log line says it: --game, the menu, the config."""
    config = offer_games(Config(players=FOUR, game="lords-of-xidit", guide=False), [])
    settings = SettingsFile(tmp_path / "settings.json")

    def find(name: str) -> Profile:
        return load_game(name, [])

    given = game_to_play(argparse.Namespace(game="lords-of-xidit"), config, settings,
                         find)
    assert given.why_played == "game"
    configured = game_to_play(argparse.Namespace(game=None), config, settings,
                              find)
    assert configured.why_played == "config"
    chosen = replace(settings_menu.defaults(config), game="altay", game_chosen=True)
    (tmp_path / "settings.json").write_text(json.dumps(settings_menu.to_dict(chosen)),
                                            encoding="utf-8")
    menu = game_to_play(argparse.Namespace(game=None), config, settings,
                        find)
    assert menu.profile is not None and menu.profile.id == "altay"
    assert menu.why_played == "menu"
    own = game_to_play(argparse.Namespace(game=None), offer_games(Config(players=FOUR), []),
                       SettingsFile(tmp_path / "none.json"), find)
    assert own.profile is None and own.why_played is None


def test_a_game_the_menu_switches_to_says_it_was_chosen_there(tmp_path: Path) -> None:
    state = StateFile(tmp_path / "state.json")
    clock = [0.0]
    box = Box(offer_games(Config(guide=False), []), state_file=state,
              settings_file=SettingsFile(tmp_path / "settings.json"), clock=lambda: clock[0],
              find_profile=lambda name: load_game(name, []))
    box.start_game()
    for gesture in (ERA_HOLD, ERA_PRESS, ERA_PRESS, ERA_PRESS, ERA_HOLD):  # Lords of Xidit
        clock[0] += 1.0
        box._step(gesture, clock[0], None)
    assert box.driver.profile is not None
    shown = box.driver.screen(clock[0])
    assert isinstance(shown, PlayScreen) and shown.why_played == "menu"
    state.close()


@pytest.mark.parametrize("game", ["altay", "hadrians-wall", "lords-of-xidit"])
@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("height", [64, 32])
@pytest.mark.parametrize("why", ["game", "menu", "config"])
def test_the_screen_says_the_game_and_why_on_both_panels(game: str, language: str,
                                                          height: int, why: str) -> None:
    box = engine(why, game)
    play, _ = box.fresh(0.0, 0)
    shown = at(box, play, 0.0)
    panel = Panel(height=height)
    items = layout_play(shown, panel, language)
    said = [i for i in items if i.role == "chosen"]
    assert [i.text for i in said] == [word(language, f"chosen_{why}")]
    assert not any(i.abbreviated for i in said)
    assert next(i.text for i in items if i.role == "status")  # the game's name, on top
    name = shown.game.text(language)
    if height == 64:  # "Playing <game>" too, the variant and players above it
        playing = "".join(i.text for i in items if i.role == "playing")
        assert name.replace(" ", "") in playing.replace(" ", "")
        assert any(i.role == "variant" for i in items)
    else:  # three rows: the game, why, the hint
        status = [i for i in items if i.role == "status"]
        assert status[0].text == name or status[0].abbreviated
    for item in items:
        assert item.box[2] <= panel.width and item.box[3] <= panel.height
    assert any(i.role == "hint" for i in items)
    later = layout_play(at(box, play, CHOSEN_S), panel, language)
    assert not any(i.role == "chosen" for i in later)
