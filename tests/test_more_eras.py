"""A game of more than three eras (a copy of games/time-of-empires.toml with more `[[era]]`
tables): every era has its music and its mode. Era IV and later borrow the box's three eras'
music in turn unless the profile names the era's own (`[[era]] music`, `score`); the settings
menu sets the mode of every era and the settings file keeps them, old files of three included
(docs/profiles.md, "An era's music")."""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.adapters.audio import Audio
from erabox.adapters.mixer import FileProblem
from erabox.core import settings as menu
from erabox.core.audio_plan import AudioPlan, PrepareStream, StartMusic, music_era
from erabox.core.config import AudioConfig, Config, EraMusic
from erabox.core.model import GameMusic, Mode, Music, MusicAction, PrepareMusic
from erabox.core.own_game import own_numbers_of
from erabox.core.profile import ProfileError, parse_profile
from erabox.files.config import load_config
from test_own_game_profile import beside_a_config, shipped_text, short_era, simulate

R, INTRO = Mode.REALTIME, Mode.INTRO
SOUNDS = "/box/sounds"
GOLDEN_SETTINGS = Path(__file__).parent / "golden" / "state-v1" / "two-players-ja.settings.json"
THIRD_ERA = ('[[era]]\nlabel = { en = "Era III", ja = "時代Ⅲ" }\n'
             "numbers = { wonders = 3, bonus_token_vp = 3 }\n")


def with_eras(text: str, *more: str) -> str:
    """The profile `text` with more `[[era]]` tables after Era III (`more`: each one's keys
    besides its numbers)."""
    tables = "".join(f"\n[[era]]\nnumbers = {{ wonders = {n}, bonus_token_vp = 4 }}\n{keys}"
                     for n, keys in enumerate(more, start=4))
    assert text.count(THIRD_ERA) == 1
    return text.replace(THIRD_ERA, THIRD_ERA + tables)


def five_short_eras(era5: str = "") -> str:
    """Five eras of 4 s (no lead-in, no ticks) or of 3 introductory rounds, a cry after
    rounds 1 and 2: an era a script can play in a few lines."""
    text = short_era(shipped_text()).replace("rounds = 15", "rounds = 3")
    text = text.replace("intro = [5, 10]", "intro = [1, 2]")
    return with_eras(text, "", era5)


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


def test_a_power_cut_in_era_five_comes_back_in_its_mode_with_its_music(tmp_path: Path) -> None:
    script = menu_then_five_eras((R, R, R, R, INTRO)).splitlines()
    fifth = [line for line in script if line.endswith("era press")][-2]  # Era V starts
    cut = float(fifth.split()[0]) + 2.5  # in round 2 (after round 1's cry)
    at = next(n for n, line in enumerate(script) if float(line.split()[0]) > cut)
    script.insert(at, f"{cut} restart")
    config = beside_a_config(tmp_path, five_short_eras(),
                             'players = ["red", "blue"]\nkeep_score = false\n')
    (tmp_path / "script.txt").write_text("\n".join(script) + "\n")
    code, events, err = simulate(["--config", str(config), "--script",
                                  str(tmp_path / "script.txt"), "--until", "200"])
    assert code == 0, err
    after = [e for e in events if e["t"] >= cut]
    back = next(e for e in after if e["type"] == "state")
    assert (back["era"], back["mode"], back["round"]) == (5, "intro", 2)
    assert {"sound": "music_resume", "era": 5, "music_of": 2} in music_lines(after)
    assert events[-1]["state"] == "game_over" and events[-1]["era"] == 5


def test_an_era_with_its_own_music_names_it_on_its_music_lines(tmp_path: Path) -> None:
    profile = five_short_eras('music = "dawn.ogg"\nscore = "march.ogg"\n')
    for modes, named in (((R,) * 5, "march.ogg"), ((R, R, R, R, INTRO), "dawn.ogg")):
        events = play(tmp_path, profile, modes)
        assert [line.get("music") for line in music_lines(events) if line["era"] == 5] == [
            named, named]
        assert era_modes(events)[5] == modes[4].value


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


def plan(game_eras: tuple[GameMusic, ...] = (), eras: tuple[EraMusic, ...] | None = None,
         variants: tuple[tuple[int, int], ...] = ()) -> AudioPlan:
    audio = AudioConfig(game_eras=game_eras) if eras is None else AudioConfig(
        game_eras=game_eras, eras=eras)
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


def test_an_eras_own_score_plays_at_running_time_in_real_time_and_its_loop_in_rounds(
        ) -> None:
    p = plan(game_eras=(GameMusic(),) * 3 + (GameMusic("/g/dawn.ogg", "/g/march.ogg"),))
    start = p.apply(Music(MusicAction.START, 4, R, 0.0), 10.0)
    assert start == [StartMusic("/g/march.ogg", 0.0, 10.0, loop=False, gain=p.music_gain)]
    # a power cut: back at 200 s of running time, the score at 200 s (it is not mapped)
    p.apply(Music(MusicAction.STOP, 4, R, 0.0), 20.0)
    resumed = p.apply(Music(MusicAction.RESUME, 4, R, 200.0), 30.0)
    assert resumed == [StartMusic("/g/march.ogg", 200.0, 30.0, loop=False,
                                  gain=p.music_gain)]
    assert p.wake_at(30.0) is None  # no seek at the calls: it plays straight on
    p.apply(Music(MusicAction.STOP, 4, R, 0.0), 40.0)
    assert p.apply(PrepareMusic(4, INTRO), 50.0) == [PrepareStream("/g/dawn.ogg", 0.0,
                                                                   loop=True)]


def test_an_eras_own_loop_alone_plays_in_both_modes() -> None:
    p = plan(game_eras=(GameMusic("/g/one.ogg"),))
    for mode in (R, INTRO):
        chosen = p.choose(1, mode)
        assert chosen is not None and (chosen.path, chosen.kind) == ("/g/one.ogg", "loop")
    only_score = plan(game_eras=(GameMusic(score="/g/march.ogg"),))
    chosen = only_score.choose(1, INTRO)
    assert chosen is not None and chosen.path == f"{SOUNDS}/era1.ogg"


def test_an_eras_own_music_that_cannot_be_read_falls_back_to_the_next_in_turn() -> None:
    p = plan(game_eras=(GameMusic(),) * 4 + (GameMusic("/g/dawn.ogg", "/g/march.ogg"),))
    p.apply(Music(MusicAction.START, 5, R, 0.0), 0.0)
    after = p.file_failed("/g/march.ogg", 1.0)
    assert [c.path for c in after if isinstance(c, StartMusic)] == ["/g/dawn.ogg"]
    after = p.file_failed("/g/dawn.ogg", 2.0)
    assert [c.path for c in after if isinstance(c, StartMusic)] == [
        f"{SOUNDS}/era2_score.ogg"]


def test_the_configs_own_music_for_an_era_wins_over_the_profiles() -> None:
    p = plan(game_eras=(GameMusic("/g/dawn.ogg", "/g/march.ogg"),),
             eras=(EraMusic(music="/mine/one.ogg"), EraMusic(), EraMusic()))
    chosen = p.choose(1, R)
    assert chosen is not None and chosen.path == "/mine/one.ogg"


# --- the profile's keys and their errors --------------------------------------------------------


def test_the_profile_names_an_eras_music_beside_it(tmp_path: Path) -> None:
    text = with_eras(shipped_text(), 'music = "dawn.ogg"\nscore = "music/march.ogg"\n')
    profile = parse_profile(text, "toe.toml", base_dir=str(tmp_path))
    own = own_numbers_of(profile)
    assert own.eras == 4
    assert own.music == (GameMusic(),) * 3 + (GameMusic(str(tmp_path / "dawn.ogg"),
                                                        str(tmp_path / "music/march.ogg")),)
    line = text.splitlines().index('music = "dawn.ogg"') + 1
    era = profile.eras[3]
    assert (era.music_key, era.score_key) == (f"toe.toml:{line}: key 'era[4].music'",
                                              f"toe.toml:{line + 1}: key 'era[4].score'")
    assert own_numbers_of(parse_profile(shipped_text(), "toe.toml")).music == ()  # the box's


@pytest.mark.parametrize(("value", "key"), [('"era1"', "music"), ("3", "score"),
                                            ('""', "music"), ('["a.ogg"]', "score")])
def test_an_eras_music_that_is_no_sound_files_name_is_refused_with_file_line_and_key(
        value: str, key: str) -> None:
    text = with_eras(shipped_text(), f"{key} = {value}\n")
    line = text.splitlines().index(f"{key} = {value}") + 1
    with pytest.raises(ProfileError) as refused:
        parse_profile(text, "games/toe.toml")
    assert str(refused.value).startswith(
        f"games/toe.toml:{line}: key 'era[4].{key}': expected a sound file's name (.ogg, ")


def test_an_era_music_file_missing_or_unreadable_is_said_with_file_line_and_key(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    text = with_eras(shipped_text(), 'music = "dawn.ogg"\nscore = "march.ogg"\n')
    config_file = beside_a_config(tmp_path, text)
    (tmp_path / "games" / "march.ogg").mkdir()  # there, but not a file the box can read
    line = text.splitlines().index('music = "dawn.ogg"') + 1
    with caplog.at_level(logging.WARNING, logger="erabox"):
        config = load_config(str(config_file), environ={})
    games = tmp_path / "games"
    assert config.eras == 4 and config.audio.game_eras[3] == GameMusic(
        str(games / "dawn.ogg"), str(games / "march.ogg"))
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        f"{games / 'time-of-empires.toml'}:{line}: key 'era[4].music': the sound file "
        f"{games / 'dawn.ogg'} does not exist; the era's other music plays instead (its own, "
        "else the box's)",
        f"{games / 'time-of-empires.toml'}:{line + 1}: key 'era[4].score': the sound file "
        f"{games / 'march.ogg'} cannot be read; the era's other music plays instead (its "
        "own, else the box's)"]


class MissingFilesMixer:
    """A mixer whose music files are all there but the game profile's (under /g/)."""

    def __init__(self) -> None:
        self.prepared: list[str] = []
        self.done = threading.Condition()

    def open(self, config: AudioConfig) -> str:
        return "a mixer with no files of the profile's"

    def close(self) -> None: ...
    def load_cue(self, sound: object, path: str) -> float: return 1.0
    def load_sound(self, path: str) -> float: return 1.0
    def play_cue(self, sound: object, file: str = "") -> None: ...
    def set_cue_gain(self, gain: float) -> None: ...
    def pause_music(self) -> None: ...
    def resume_music(self) -> None: ...
    def stop_music(self, fade_s: float) -> None: ...
    def set_music_gain(self, gain: float) -> None: ...

    def check(self, path: str) -> None:
        if path.startswith("/g/"):
            raise FileProblem("No such file or directory")

    def prepare(self, path: str, start: float | None = None, loop: bool = False) -> None:
        self.check(path)
        with self.done:
            self.prepared.append(path)
            self.done.notify_all()

    def play_music(self, path: str, position: float, loop: bool, gain: float) -> bool:
        self.prepare(path)
        return True


def test_the_box_says_an_eras_own_music_cannot_be_played_and_plays_the_borrowed_one(
        caplog: pytest.LogCaptureFixture) -> None:
    mixer = MissingFilesMixer()
    audio = AudioConfig(game_eras=(GameMusic(),) * 3 + (GameMusic("/g/dawn.ogg"),))
    with caplog.at_level(logging.ERROR):
        box = Audio(audio, Path(SOUNDS), mixer=mixer, log=logging.getLogger("erabox.test"))
        try:
            box.apply([PrepareMusic(4, INTRO)], 0.0)
            with mixer.done:
                assert mixer.done.wait_for(lambda: mixer.prepared, 30.0)
        finally:
            box.close()
    assert mixer.prepared == [f"{SOUNDS}/era1.ogg"]
    assert [r.getMessage() for r in caplog.records] == [
        "cannot play sound file /g/dawn.ogg: No such file or directory; the era's other music "
        "plays instead (its own, else the box's)"]


def test_an_eras_score_without_the_boxs_era_music_is_refused_with_file_line_and_key() -> None:
    """`[[era]] score` is the box's era music's (`box_music`): a game without it is told so."""
    text = ('[game]\nname = "Ages"\n\n[players]\nmin = 2\nmax = 4\n\n'
            '[rounds]\nname = "Round"\ncount = 1\n\n[[phase]]\nid = "play"\nlabel = "Play"\n\n'
            '[[era]]\nscore = "march.ogg"\n')
    with pytest.raises(ProfileError) as refused:
        parse_profile(text, "games/ages.toml")
    assert str(refused.value) == (
        "games/ages.toml:17: key 'era[1].score': an era's score is the box's own era music's: "
        "no [[phase]] has box_music = true")
