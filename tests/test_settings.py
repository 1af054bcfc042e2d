"""The settings menu as a pure module, the settings file, and their hook into the core."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from erabox.adapters.settings_file import SettingsFile, settings_path
from erabox.core import settings as s
from erabox.core.config import Config, parse_config
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.guide import guided
from erabox.core.model import (
    Button,
    FlashCue,
    Gesture,
    Input,
    Mode,
    Phase,
    SaveSettings,
    SetVolume,
)
from erabox.core.play import State
from erabox.files.games import own_rounds
from erabox.ui.layout import layout

CFG = Config()
COLOURS = s.palette(CFG)
NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
BACK, DONE = Input(Button.NEXT, Gesture.HOLD), Input(Button.ERA, Gesture.HOLD)


def test_defaults_come_from_the_config_file() -> None:
    cfg = parse_config('language = "ja"\nplayers = ["blue", "red"]\ndefault_mode = "intro"\n'
                       "[realtime]\nlead_in_s = 3\nfinal_ticks_s = 0\n[audio]\nvolume = 0.0\n"
                       "[display]\ncontrast = 64\n")
    d = s.defaults(cfg)
    assert d.seats == ("blue", "red") and d.oldest == 0 and d.language == "ja"
    assert d.modes == (Mode.INTRO,) * 3 and d.lead_in_s == 3 and not d.final_ticks
    assert d.volume == s.VOLUME_FLOOR  # never silently 0
    assert d.brightness == 64 and d.cue_led
    assert s.apply(cfg, d).players == ("blue", "red")


def test_apply_lays_the_settings_over_the_file() -> None:
    chosen = replace(s.defaults(CFG), seats=("green", "red", "yellow"), oldest=2,
                     language="ja", modes=(Mode.INTRO, Mode.REALTIME, Mode.INTRO), volume=0.3,
                     final_ticks=False, lead_in_s=10, brightness=16, cue_led=False)
    cfg = s.apply(CFG, chosen)
    assert cfg.players == ("yellow", "green", "red")  # seating order, oldest first
    assert cfg.language == "ja" and cfg.default_mode is Mode.INTRO
    assert cfg.era_modes == (Mode.INTRO, Mode.REALTIME, Mode.INTRO)
    assert cfg.audio.volume == 0.3 and cfg.realtime.final_ticks_s == 0
    assert cfg.realtime.lead_in_s == 10 and cfg.display.contrast == 16 and not cfg.cue_led
    # what only an installer sets stays the file's
    assert cfg.buttons == CFG.buttons and cfg.audio.device == CFG.audio.device
    assert s.apply(CFG, replace(chosen, final_ticks=True)).realtime.final_ticks_s == 10


def test_players_cycle_two_to_four_and_seats_swap_to_stay_different() -> None:
    d = s.defaults(CFG)
    two = s.change(d, "players", COLOURS)
    assert two.seats == ("red", "blue")
    three = s.change(two, "players", COLOURS)
    assert three.seats == ("red", "blue", "green")
    assert s.change(three, "players", COLOURS).seats == ("red", "blue", "green", "yellow")
    swapped = s.change(d, "seat1", COLOURS)  # red -> blue; seat 2 had blue: it takes red
    assert swapped.seats == ("blue", "red", "green", "yellow")
    free = s.change(three, "seat3", COLOURS)  # green -> yellow, which nobody had
    assert free.seats == ("red", "blue", "yellow")
    oldest_last = s.change(s.change(three, "oldest", COLOURS), "oldest", COLOURS)
    assert oldest_last.oldest == 2 and oldest_last.players == ("green", "red", "blue")
    assert s.change(s.change(oldest_last, "players", COLOURS), "players", COLOURS).oldest == 1


def test_volume_has_a_floor_and_wraps_to_it() -> None:
    loud = replace(s.defaults(CFG), volume=1.0)
    assert s.change(loud, "volume", COLOURS).volume == s.VOLUME_FLOOR
    assert min(s.VOLUME_STEPS) == s.VOLUME_FLOOR > 0


def test_music_level_is_a_menu_item_beside_the_volume_and_reaches_the_config() -> None:
    d = s.defaults(CFG)
    names = s.items(d)
    assert names.index("music_level") == names.index("volume") + 1
    assert d.music_level == 1.0 and s.value(d, "music_level") == "100"
    lower = s.change(d, "music_level", COLOURS)
    assert lower.music_level == s.VOLUME_FLOOR and lower.volume == d.volume  # wraps to 10 %
    half = replace(d, music_level=0.5)
    assert s.change(half, "music_level", COLOURS).music_level == 0.6
    config = s.apply(CFG, half)
    assert config.audio.music_level == 0.5 and config.audio.volume == d.volume
    assert s.from_dict(s.to_dict(half), CFG) == half
    older = {k: v for k, v in s.to_dict(half).items() if k != "music_level"}
    assert s.from_dict(older, CFG).music_level == d.music_level  # a file from before it
    for bad in (0.0, 1.5, True, "loud"):
        with pytest.raises(s.SettingsError, match="music_level"):
            s.from_dict({**s.to_dict(half), "music_level": bad}, CFG)


def test_menu_buttons_walk_change_restore_and_close() -> None:
    d = s.defaults(CFG)
    menu, chosen = s.menu_step(s.Menu(), d, COLOURS, d, NEXT)
    assert menu == s.Menu(item=1) and chosen == d
    menu, chosen = s.menu_step(s.Menu(), d, COLOURS, d, BACK)  # previous, wrapping
    assert menu is not None and s.items(d)[menu.item] == "done"
    players_at = s.items(d).index("players")
    menu, chosen = s.menu_step(s.Menu(item=players_at), d, COLOURS, d, ERA)
    assert chosen.seats == ("red", "blue")
    defaults_at = s.items(chosen).index("defaults")
    # "Back to defaults": the first ERA press only asks, the second restores
    menu, asked = s.menu_step(s.Menu(item=defaults_at), chosen, COLOURS, d, ERA)
    assert asked == chosen and menu == s.Menu(item=defaults_at, note="defaults_ask")
    menu, kept = s.menu_step(menu, asked, COLOURS, d, NEXT)  # NEXT instead: nothing restored
    assert kept == chosen and menu == s.Menu(item=defaults_at + 1)
    menu, _ = s.menu_step(s.Menu(item=defaults_at), kept, COLOURS, d, ERA)
    menu, back = s.menu_step(menu, asked, COLOURS, d, ERA)
    assert back == d and menu is not None and menu.note == "defaults_done"
    assert s.menu_step(s.Menu(item=3), d, COLOURS, d, DONE) == (None, d)
    done_at = s.items(d).index("done")
    assert s.menu_step(s.Menu(item=done_at), d, COLOURS, d, ERA) == (None, d)


def test_a_seat_that_takes_another_seats_colour_says_so_on_screen() -> None:
    d = s.defaults(CFG)  # red, blue, green, yellow
    seat1 = s.items(d).index("seat1")
    menu, chosen = s.menu_step(s.Menu(item=seat1), d, COLOURS, d, ERA)  # red -> blue
    assert chosen.seats[:2] == ("blue", "red") and menu == s.Menu(
        item=seat1, note="swapped_2", seats_before=d.seats)
    menu, _ = s.menu_step(menu, chosen, COLOURS, d, NEXT)  # the note goes with a press
    assert menu is not None and menu.note is None
    lone = replace(d, seats=("red", "blue"))  # green is free: no swap, no note
    menu, free = s.menu_step(s.Menu(item=s.items(lone).index("seat2")), lone, COLOURS, lone, ERA)
    assert free.seats == ("red", "green") and menu is not None and menu.note is None
    box = ProfileEngine(own_rounds(), CFG)  # Time of Empires' round file, its menu open
    play, _ = box.step(box.fresh(0.0, 0)[0], DONE, 0.0)
    play = replace(play, menu=s.Menu(item=seat1, note="swapped_2"))
    texts = [getattr(i, "source", "") for i in layout(box.screen(play, 0.0)).items]
    assert "swapped with seat 2" in texts


def test_going_once_round_one_seats_colours_disturbs_no_other_seat() -> None:
    """Each ERA press on a seat is one swap against the seats as they were when that item was
    first changed: seat 2 of red, blue, green, yellow once round its colours leaves every seat
    as it was (it used to leave yellow, blue, red, green), and each step moves two seats at
    most."""
    for count in (2, 3, 4):
        start = replace(s.defaults(CFG), seats=COLOURS[:count])
        for seat in range(1, count + 1):
            menu: s.Menu | None = s.Menu(item=s.items(start).index(f"seat{seat}"))
            chosen, seen = start, []
            for _ in range(len(COLOURS)):
                assert menu is not None
                menu, chosen = s.menu_step(menu, chosen, COLOURS, start, ERA)
                moved = [i for i in range(count) if chosen.seats[i] != start.seats[i]]
                assert len(set(chosen.seats)) == count and len(moved) <= 2
                assert all(i == seat - 1 or chosen.seats[i] == start.seats[seat - 1]
                           for i in moved)  # the other seat moved took this seat's colour
                seen.append(chosen.seats[seat - 1])
            assert chosen.seats == start.seats  # once round: every seat is back
            assert sorted(seen) == sorted(COLOURS)  # and the seat offered every colour
    # Leaving the item forgets the seats it started from: the next item starts afresh.
    d = s.defaults(CFG)
    menu, moved = s.menu_step(s.Menu(item=s.items(d).index("seat2")), d, COLOURS, d, ERA)
    assert menu is not None
    menu, _ = s.menu_step(menu, moved, COLOURS, d, NEXT)
    assert menu is not None and menu.seats_before is None


def test_a_release_changes_nothing_in_the_menu() -> None:
    d = s.defaults(CFG)
    release = Input(Button.NEXT, Gesture.RELEASE)
    assert s.menu_step(s.Menu(item=2), d, COLOURS, d, release) == (s.Menu(item=2), d)


def test_settings_round_trip_and_bad_files_are_refused() -> None:
    d = replace(s.defaults(CFG), seats=("green", "red"), modes=(Mode.INTRO,) * 3)
    assert s.from_dict(json.loads(json.dumps(s.to_dict(d))), CFG) == d
    for key, bad in (("seats", ["red", "red"]), ("oldest", 5), ("language", "fr"),
                     ("volume", 0.0), ("modes", ["intro"]), ("cue_led", "yes"),
                     ("schema", 9)):
        with pytest.raises(s.SettingsError, match=key):
            s.from_dict({**s.to_dict(d), key: bad}, CFG)


def test_a_bad_settings_file_is_moved_aside(tmp_path: Path) -> None:
    path = settings_path(tmp_path / "state.json")
    assert path == tmp_path / "settings.json"
    path.write_text("{not json", encoding="utf-8")
    assert SettingsFile(path).load(CFG) is None
    assert not path.exists() and list(tmp_path.glob("settings.json.bad-*"))
    SettingsFile(path).save(s.to_dict(s.defaults(CFG)))
    assert SettingsFile(path).load(CFG) == s.defaults(CFG)


def test_the_menu_opens_only_from_the_new_game_and_applies_at_once() -> None:
    """Time of Empires' round file: ERA held at the game's setup opens the menu on "Game";
    each change is saved at once, walking saves nothing, the volume and the music's share
    are heard at once; closed, the play holds the settings chosen for the driver to set the
    game up with (tests/test_profile_menu.py); at Era II's setup ERA held opens nothing."""
    box = ProfileEngine(own_rounds(), CFG)
    play, _ = box.fresh(0.0, 0)
    play, _ = box.step(play, DONE, 0.0)
    shown = box.screen(play, 0.0)
    assert shown.kind is Phase.SETTINGS and shown.menu_item == "game"  # type: ignore[union-attr]
    play, _ = box.step(play, NEXT, 0.5)  # "Players", right after "Game"
    play, effects = box.step(play, ERA, 1.0)
    assert play.chosen is not None and play.chosen.players == ("red", "blue")
    assert next(e for e in effects if isinstance(e, SaveSettings)).settings["seats"] == [
        "red", "blue"]
    names = s.items(play.chosen)
    for _ in range(names.index("volume") - names.index("players")):
        play, effects = box.step(play, NEXT, 2.0)
        assert not [e for e in effects if isinstance(e, SaveSettings)]  # walking saves nothing
    play, effects = box.step(play, ERA, 3.0)
    assert [e.level for e in effects if isinstance(e, SetVolume)] == [0.9]
    play, _ = box.step(play, NEXT, 3.5)  # the music level, beside the volume
    play, effects = box.step(play, ERA, 3.6)
    assert [(e.level, e.music) for e in effects if isinstance(e, SetVolume)] == [(0.9, 0.1)]
    play, _ = box.step(play, DONE, 4.0)
    assert play.menu is None and play.chosen is not None
    assert s.apply(CFG, play.chosen).audio.music_level == 0.1
    # Once Era I has begun, hold ERA at Era II's setup does not open it.
    from test_rounds_entry import scoring

    table = scoring()
    while table.play.spot.state is not State.ERA_SETUP:
        table.do(Button.ERA)
    table.do(Button.ERA, Gesture.HOLD)
    assert table.play.menu is None


def test_cue_led_off_drops_the_flashes() -> None:
    """Time of Empires' round file: an introductory era's start gong flashes the LED only
    with the setting on."""
    def flashes(cue_led: bool) -> list[FlashCue]:
        config = s.apply(CFG, replace(s.defaults(CFG), cue_led=cue_led, guide=False))
        box = ProfileEngine(configured(guided(own_rounds(), False), config), config)
        play, _ = box.fresh(0.0, 0)
        play, _ = box.step(play, NEXT, 0.0)  # the introductory mode
        _, effects = box.step(play, ERA, 1.0)  # its start gong
        return [e for e in effects if isinstance(e, FlashCue)]

    assert not flashes(False) and flashes(True)


def test_a_file_from_before_the_guide_setting_loads_with_the_guide_on() -> None:
    old = s.to_dict(replace(s.defaults(CFG), guide=False))
    del old["guide"]
    assert s.from_dict(old, CFG).guide is True


def test_every_one_value_setting_goes_to_the_config_and_back() -> None:
    """Each one-value row's way into the config and back out agree: settings laid over the
    config file are what that config's defaults then say (a row wired to the wrong config
    field fails here)."""
    chosen = replace(s.defaults(CFG), volume=0.3, final_ticks=False, lead_in_s=10,
                     brightness=16, cue_led=False, guide=False)
    back = s.defaults(s.apply(CFG, chosen))
    for item in s.ITEMS:
        if item.stored is not None:
            assert getattr(back, item.field) == getattr(chosen, item.field), item.name
    assert back == chosen
