"""A game of more than three eras (a copy of games/time-of-empires.toml with more `[[era]]`
tables): every era has its music and its mode. Era IV and later borrow the box's three eras'
music in turn; the settings menu sets the mode of every era and the settings file keeps them,
old files of three included (docs/profiles.md, "An era's music")."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.core import settings as menu
from erabox.core.audio_plan import AudioPlan, StartMusic, music_era
from erabox.core.config import AudioConfig, Config, EraMusic
from erabox.core.model import Mode, Music, MusicAction, PrepareMusic
from test_own_game_profile import beside_a_config, shipped_text, short_era, simulate

R, INTRO = Mode.REALTIME, Mode.INTRO
SOUNDS = "/box/sounds"
GOLDEN_SETTINGS = Path(__file__).parent / "golden" / "state-v1" / "two-players-ja.settings.json"
THIRD_ERA = "[[era]]\nwonders = 3\nbonus_token_vp = 3\n"


def with_eras(text: str, *more: str) -> str:
    """The profile `text` with more `[[era]]` tables after Era III (`more`: each one's keys
    besides its numbers)."""
    tables = "".join(f"\n[[era]]\nwonders = {n}\nbonus_token_vp = 4\n{keys}"
                     for n, keys in enumerate(more, start=4))
    assert text.count(THIRD_ERA) == 1
    return text.replace(THIRD_ERA, THIRD_ERA + tables)


def five_short_eras() -> str:
    """Five eras of 4 s (no lead-in, no ticks) or of 3 introductory rounds, a cry after
    rounds 1 and 2: an era a script can play in a few lines."""
    text = short_era(shipped_text()).replace("rounds = 15", "rounds = 3")
    text = text.replace("after_round = 5\n", "after_round = 1\n")
    text = text.replace("after_round = 10\n", "after_round = 2\n")
    return with_eras(text, "", "")


# --- the whole game through `erabox simulate` ----------------------------------------------------


def menu_then_five_eras(modes: tuple[Mode, ...]) -> str:
    """A script: the settings menu (ERA hold on Era I's guide), each era's mode set as
    `modes` (the menu's are all real time), back; then the eras played through."""
    names = menu.items(replace(menu.defaults(Config()), seats=("red", "blue"),
                               eras=len(modes), modes=(R,) * len(modes)))
    lines, t = ["1 era hold"], 2
    for name in names[1:names.index(f"mode{len(modes)}") + 1]:
        lines.append(f"{t} next press")
        t += 1
        if name.startswith("mode") and modes[int(name[4:]) - 1] is INTRO:
            lines.append(f"{t} era press")
            t += 1
    lines.append(f"{t} era hold")  # back to the game: Era I's guide
    t += 2
    for mode in modes:
        lines.append(f"{t} era press")  # start the era at once (from its guide)
        if mode is R:
            t += 6  # 4 s on the clock, then its scoring
        else:  # round 1, the cry, round 2, the cry, round 3, the scoring
            lines += [f"{t + n} next press" for n in range(1, 6)]
            t += 7
        lines.append(f"{t} era press")  # the score is kept on paper: the next era's guide
        t += 2
    return "".join(f"{line}\n" for line in lines)


def play(tmp_path: Path, profile: str, modes: tuple[Mode, ...]) -> list[dict[str, Any]]:
    config = beside_a_config(tmp_path, profile,
                             'players = ["red", "blue"]\nkeep_score = false\n')
    (tmp_path / "script.txt").write_text(menu_then_five_eras(modes))
    code, events, err = simulate(["--config", str(config), "--script",
                                  str(tmp_path / "script.txt"), "--until", "200"])
    assert code == 0, err
    return events


def music_lines(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k not in ("t", "type")} for e in events
            if e["type"] == "sound" and e["sound"].startswith("music_")]


def era_modes(events: list[dict[str, Any]]) -> dict[int, str]:
    return {e["era"]: e["mode"] for e in events if e["type"] == "state"
            and e["state"] in ("running", "intro_round")}


def test_a_five_era_copy_plays_eras_four_and_five_in_the_menus_modes_with_music(
        tmp_path: Path) -> None:
    modes = (R, INTRO, R, INTRO, R)
    events = play(tmp_path, five_short_eras(), modes)
    assert era_modes(events) == {1: "realtime", 2: "intro", 3: "realtime", 4: "intro",
                                 5: "realtime"}
    assert music_lines(events) == [
        {"sound": f"music_{action}", "era": era, **extra}
        for era, extra in ((1, {}), (2, {}), (3, {}), (4, {"music_of": 1}),
                           (5, {"music_of": 2}))
        for action in ("start", "stop")]
    assert events[-1]["state"] == "game_over" and events[-1]["era"] == 5


# --- the settings menu and file ---------------------------------------------------------------


def five_eras(**fields: Any) -> Config:
    return Config(eras=5, **fields)


@pytest.mark.parametrize("eras", [4, 5, 9])
def test_the_menu_sets_the_mode_of_every_era_the_game_has(eras: int) -> None:
    three = menu.defaults(Config())  # Time of Empires': as it was
    assert [i for i in menu.items(three) if i.startswith("mode")] == ["mode1", "mode2", "mode3"]
    settings = menu.defaults(Config(eras=eras))
    assert [i for i in menu.items(settings) if i.startswith("mode")] == [
        f"mode{n}" for n in range(1, eras + 1)]
    for era in range(1, eras + 1):
        settings = menu.change(settings, f"mode{era}", ())
        assert settings.modes[era - 1] is INTRO
        assert menu.mode(menu.apply(Config(eras=eras), settings), era) is INTRO


def test_the_settings_file_keeps_every_eras_mode() -> None:
    settings = menu.change(menu.change(menu.defaults(five_eras()), "mode4", ()), "mode2", ())
    saved = json.loads(json.dumps(menu.to_dict(settings)))
    assert saved["modes"] == ["realtime", "intro", "realtime", "intro", "realtime"]
    again = menu.from_dict(saved, five_eras())
    assert again.modes == (R, INTRO, R, INTRO, R)
    played = menu.apply(five_eras(), again)
    assert [menu.mode(played, era) for era in range(1, 6)] == [R, INTRO, R, INTRO, R]
    assert menu.to_dict(menu.defaults(Config()))["modes"] == ["realtime"] * 3  # as it was


def test_an_old_settings_file_of_three_modes_loads_later_eras_in_era_ones_mode() -> None:
    saved = json.loads(GOLDEN_SETTINGS.read_text(encoding="utf-8"))
    assert len(saved["modes"]) == 3
    loaded = menu.from_dict(saved, five_eras())
    assert loaded.modes == (R,) * 5
    saved["modes"] = ["intro", "realtime", "realtime"]
    loaded = menu.from_dict(saved, five_eras())
    assert loaded.modes == (INTRO, R, R, INTRO, INTRO)  # as Era I, as such a file always did
    assert menu.from_dict(saved, Config()).modes == (INTRO, R, R)  # three eras: as it was


def test_a_settings_file_of_more_modes_than_the_game_has_eras_keeps_them() -> None:
    saved = menu.to_dict(menu.change(menu.defaults(five_eras()), "mode5", ()))
    three = menu.from_dict(saved, Config())
    assert [i for i in menu.items(three) if i.startswith("mode")] == ["mode1", "mode2",
                                                                      "mode3"]
    assert menu.to_dict(three)["modes"][4] == "intro"  # back to five eras, Era V's is there


@pytest.mark.parametrize("modes", [["realtime"] * 2, ["realtime"] * 10, ["realtime"] * 4
                                   + ["fast"]])
def test_a_settings_file_with_too_few_too_many_or_unknown_modes_is_refused(
        modes: list[str]) -> None:
    saved = {**menu.to_dict(menu.defaults(five_eras())), "modes": modes}
    with pytest.raises(menu.SettingsError, match=r"'modes' should be 3 to 9 of "):
        menu.from_dict(saved, five_eras())


# --- which music plays ----------------------------------------------------------------------


def plan(eras: tuple[EraMusic, ...] | None = None,
         variants: tuple[tuple[int, int], ...] = ()) -> AudioPlan:
    audio = AudioConfig() if eras is None else AudioConfig(eras=eras)
    return AudioPlan(audio, SOUNDS, scores=(1, 2, 3), variants=variants)


def test_music_era_takes_the_three_in_turn() -> None:
    assert [music_era(era) for era in range(1, 10)] == [1, 2, 3, 1, 2, 3, 1, 2, 3]


@pytest.mark.parametrize("era", range(4, 10))
def test_a_later_era_plays_the_score_and_the_loop_of_the_era_it_borrows(era: int) -> None:
    box = (era - 1) % 3 + 1
    p = plan(variants=((box, 2),))
    score = p.choose(era, R)
    assert score is not None and score.path == f"{SOUNDS}/era{box}_score.ogg"
    assert score.kind == "timed" and score.pieces == p.score_pieces
    loop = p.choose(era, INTRO)
    assert loop is not None and (loop.path, loop.kind) == (f"{SOUNDS}/era{box}.ogg", "loop")
    p.apply(PrepareMusic(era, R, variant=2), 0.0)  # the version chosen for the game
    chosen = p.choose(era, R)
    assert chosen is not None and chosen.path == f"{SOUNDS}/era{box}_score_v2.ogg"
    start = p.apply(Music(MusicAction.START, era, R, 30.0), 100.0)
    assert start == [StartMusic(f"{SOUNDS}/era{box}_score_v2.ogg", 30.0, 100.0, loop=False,
                                gain=p.music_gain)]


def test_a_later_era_borrows_the_configs_own_music_of_that_era() -> None:
    p = plan(eras=(EraMusic(music="/mine/one.ogg"), EraMusic(), EraMusic()))
    for mode in (R, INTRO):
        chosen = p.choose(4, mode)
        assert chosen is not None and (chosen.path, chosen.kind) == ("/mine/one.ogg", "loop")
