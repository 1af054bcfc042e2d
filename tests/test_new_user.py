"""Issue #31, tried as a new user would: what the first screen and the play screens tell a
table that has only the box in front of it (the whole trial, each game played from the first
screen with its gestures counted: tests/test_trial_gestures.py, docs/profiles.md "At the
table: gestures per game")."""

from __future__ import annotations

import functools

import pytest

from erabox.core.config import DEFAULT_PLAYERS, Config
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Screen
from erabox.core.play import PlayScreen, State, new_play
from erabox.core.play import screen as screen_of
from erabox.core.profile import Profile
from erabox.files.games import own_rounds, read_profile, shipped_games
from erabox.run.driver import Driver, MemoryState
from erabox.ui.guide_pages import MORE
from erabox.ui.layout import TextItem, layout
from erabox.ui.panel import Panel
from erabox.ui.play_samples import every_screen
from erabox.ui.render import turning
from erabox.ui.screens import layout_play

SHIPPED = sorted(f.name for f in shipped_games().iterdir() if f.name.endswith(".toml"))
PANELS = [Panel(128, 64), Panel(128, 32)]


def shown_text(language: str, panel: Panel) -> str:
    """The text of a fresh box's first screen (the game setup guide's first step): Time of
    Empires' round file, as a box with no game chosen plays it."""
    box = Driver(Config(players=DEFAULT_PLAYERS[:3]), profile=own_rounds(), state=MemoryState())
    box.start(0.0)
    first = box.screen(0.0)
    assert isinstance(first, Screen)
    pages = range(turning(first, panel, language))  # 128x32: two lines a page, in turn
    items = [item for turn in pages for item in layout(first, language=language, panel=panel,
                                                         turn=turn).items]
    return " ".join(" ".join(item.block.lines) for item in items
                    if isinstance(item, TextItem) and item.role == "guide").replace(MORE, "")


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: f"128x{p.height}")
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_first_screen_names_the_game_played_and_where_to_choose_another(
        language: str, panel: Panel) -> None:
    """Deliver 1 of issue #31: the screen says what was chosen. Time of Empires plays because
    no other game was chosen: its first screen names it (as its profile does) and that the
    settings (hold ERA) choose the game, on both panels (128x32: on its pages), whole."""
    own = read_profile(shipped_games() / "time-of-empires.toml")
    text = shown_text(language, panel).replace(" ", "")
    assert own.name.text(language).replace(" ", "") in text
    assert {"en": "settings(game", "ja": "設定（ゲーム"}[language] in text


@pytest.mark.parametrize("file", [f for f in SHIPPED if f != "time-of-empires.toml"])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_event_hint_is_shown_whole_on_the_large_panel(file: str, language: str) -> None:
    """"hold ERA: <event>" is how a table learns that the event is its to call (Altay's end
    of the game): on 128x64 it is never cut (it was "hold ERA: End of the game··")."""
    profile = read_profile(shipped_games() / file)
    assert isinstance(profile, Profile)
    hints = [placed for shown in every_screen(profile)
             for placed in layout_play(shown, Panel(128, 64), language)
             if placed.role == "event_hint"]
    assert hints or not profile.events
    assert [h.text for h in hints if h.abbreviated] == []


@functools.cache
def wonder_screens() -> tuple[PlayScreen, ...]:
    """Altay played to its wonders: red's first wonder (5), red's second (3), blue's first
    once red's list ended with 0, and the next category's first number."""
    profile = read_profile(shipped_games() / "altay.toml")
    assert isinstance(profile, Profile)
    wonders = profile.category("wonders").label
    play = new_play(profile, ("red", "blue", "green"))
    shown = []

    def press(button: Button, gesture: Gesture = Gesture.PRESS, times: int = 1) -> None:
        nonlocal play
        for _ in range(times):
            play, _ = step(play, Input(button, gesture), 0.0)

    press(Button.ERA)
    press(Button.ERA, Gesture.HOLD)  # the end, at once
    while play.spot.state is not State.SCORING:
        press(Button.NEXT)
    while screen_of(play, 0.0).title != wonders:
        press(Button.ERA)  # 0 for everything before
    press(Button.NEXT, Gesture.HOLD)
    shown.append(screen_of(play, 0.0))
    press(Button.ERA)
    press(Button.NEXT, times=3)
    shown.append(screen_of(play, 0.0))
    press(Button.ERA, times=2)  # 3 taken, then 0 ends red's list
    shown.append(screen_of(play, 0.0))
    while screen_of(play, 0.0).title == wonders:
        press(Button.ERA)
    shown.append(screen_of(play, 0.0))
    return tuple(shown)


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: f"128x{p.height}")
@pytest.mark.parametrize(("language", "first", "second"), [
    ("en", ("red #1", "= 5 sum 5"), ("red #2", "= 3 sum 8")),
    ("ja", ("赤 1つ目", "= 5点 計5点"), ("赤 2つ目", "= 3点 計8点")),
])
def test_a_list_of_numbers_says_which_one_is_asked_and_the_sum_so_far(
        language: str, first: tuple[str, str], second: tuple[str, str], panel: Panel) -> None:
    """Altay's wonders are entered one by one, 0 ending the list: once a wonder is confirmed
    the screen used to look the same as before it (the number back to 0), so a table could
    not tell it was taken. Now it says which wonder of the player's list is asked and the
    sum so far."""
    def read(shown: PlayScreen) -> str:
        return " ".join(p.text for p in layout_play(shown, panel, language))

    one, two, blue, after = wonder_screens()
    assert all(part in read(one) for part in first)
    assert all(part in read(two) for part in second)
    assert blue.player == "blue" and blue.listed == ()
    # a category of one number each says none of it
    assert after.listed is None and "#" not in read(after) and "つ目" not in read(after)


def refusal_text(game: str, names: tuple[str, str] | None, note: str, language: str,
                 panel: Panel) -> str:
    """The text of the settings menu's screen on "Game" when that game cannot be played."""
    from erabox.core.model import Mode, Phase, Screen

    shown = Screen(Phase.SETTINGS, 1, Mode.REALTIME, new_game=True, menu_item="game",
                   menu_value=game, menu_position=(1, 23), menu_note=note, menu_names=names)
    return " | ".join(" ".join(item.block.lines)
                      for item in layout(shown, language=language, panel=panel).items
                      if isinstance(item, TextItem))


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: f"128x{p.height}")
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_refusal_of_a_game_names_it_on_both_panels(language: str, panel: Panel) -> None:
    """A game the players chosen cannot play: the menu stays on "Game" saying so, and names
    the game on both panels (128x32 had only "for 3-5 players only", the name having no line
    of its own there), whole, in the range's own line; what to change is still said."""
    xidit = ("Lords of Xidit", "Lords of Xidit")
    text = refusal_text("lords-of-xidit", xidit, "game_players:3:5", language, panel)
    assert "Lords of Xidit" in text and "··" not in text
    assert {"en": "3-5 players", "ja": "3〜5人用"}[language] in text
    assert {"en": "change Players or Game", "ja": "プレイヤー人数かゲームを変更"}[language] in text


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_name_too_long_for_the_small_panels_line_leaves_the_refusal_as_it_was(
        language: str) -> None:
    """Altay's English name and its range do not fit 128x32's one line: the note alone, never
    cut; its Japanese name does."""
    altay = read_profile(shipped_games() / "altay.toml")
    assert isinstance(altay, Profile)
    names = (altay.name.text("en"), altay.name.text("ja"))
    text = refusal_text("altay", names, "game_players:2:4", language, Panel(128, 32))
    assert "··" not in text
    if language == "en":
        assert "for 2-4 players only" in text and "Altay" not in text
    else:
        assert "アルタイ：文明の曙は2〜4人用" in text


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: f"128x{p.height}")
@pytest.mark.parametrize("language", ["en", "ja"])
def test_back_to_defaults_asks_before_it_restores(language: str, panel: Panel) -> None:
    """ERA once on "Back to defaults" (one NEXT too many from "Game" used to land there, and
    ERA restored everything): the screen asks for a second ERA and says NEXT keeps them."""
    from erabox.core.model import Mode, Phase, Screen

    shown = Screen(Phase.SETTINGS, 1, Mode.REALTIME, new_game=True, menu_item="defaults",
                   menu_value="", menu_position=(22, 23), menu_note="defaults_ask")
    text = " | ".join(" ".join(item.block.lines)
                      for item in layout(shown, language=language, panel=panel).items
                      if isinstance(item, TextItem))
    assert {"en": "ERA again: restore all", "ja": "もう一度ERAですべて戻す"}[language] in text
    assert {"en": "NEXT: keep them", "ja": "NEXT: 戻さない"}[language] in text


@pytest.mark.parametrize("file", [f for f in SHIPPED if f != "time-of-empires.toml"])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_points_screen_says_that_hold_era_undoes(file: str, language: str) -> None:
    """A profile's points screen takes ERA held (clear the number; on 0, back to the one
    before) but its hint said only "NEXT +1 hold +5 ERA: ok": a table that typed a wrong
    number saw no way back (Time of Empires' points screen says "ERA:ok hold:undo"). On
    128x64 the status row says it now, whole, beside "Points n/count"."""
    profile = read_profile(shipped_games() / file)
    assert isinstance(profile, Profile)
    undo = {"en": "hold ERA: undo", "ja": "ERA長押し: 戻す"}[language]
    scoring = [shown for shown in every_screen(profile)
               if shown.kind == "scoring" and not shown.minus]
    assert scoring
    for shown in scoring:
        placed = layout_play(shown, Panel(128, 64), language)
        assert undo in [p.text for p in placed if not p.abbreviated], placed
        status = [p for p in placed if p.role == "status"]
        assert status and not status[0].abbreviated
