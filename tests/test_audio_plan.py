"""The audio planner on a virtual clock: no pygame, no threads, no sound.

Each test feeds effects at chosen clock readings and checks the mixer commands that come out:
which file plays from which position, what pause/resume/restart do, and the ducking ramps.
"""

from __future__ import annotations

import itertools
import math

import pytest

from erabox.core.audio_plan import (
    DUCK_DOWN_S,
    DUCK_UP_S,
    RAMP_STEP_S,
    STOP_FADE_S,
    TRACK_STOP_FADE_S,
    AudioPlan,
    Command,
    PauseMusic,
    PlayCue,
    PrepareStream,
    ResumeMusic,
    SetCueGain,
    SetMusicGain,
    StartMusic,
    StopMusic,
    gain_from_db,
)
from erabox.core.config import AudioConfig, EraMusic
from erabox.core.model import (
    Mode,
    Music,
    MusicAction,
    PlaySound,
    PrepareMusic,
    SetVolume,
    Sound,
)

SOUNDS = "/box/sounds"
R, INTRO = Mode.REALTIME, Mode.INTRO


def music(action: str, era: int, elapsed: float, mode: Mode = R) -> Music:
    return Music(MusicAction(f"music_{action}"), era, mode, elapsed)


def plan(**audio: object) -> AudioPlan:
    eras = audio.pop("eras", None)
    scores = audio.pop("scores", (1, 2, 3))
    config = AudioConfig(**audio) if eras is None else AudioConfig(**audio, eras=eras)  # type: ignore[arg-type]
    return AudioPlan(config, SOUNDS, scores=scores)  # type: ignore[arg-type]


def starts(commands: list[Command]) -> list[StartMusic]:
    return [c for c in commands if isinstance(c, StartMusic)]


def only_start(commands: list[Command]) -> StartMusic:
    found = starts(commands)
    assert len(found) == 1, commands
    return found[0]


# --- which music, from where -----------------------------------------------------------------


def test_a_realtime_era_plays_its_score_positioned_at_running_time_an_intro_era_loops() -> None:
    p = plan()
    start = only_start(p.apply(music("start", 1, 0.0), 100.0))
    assert (start.path, start.position, start.at, start.loop) == (
        f"{SOUNDS}/era1_score.ogg", 0.0, 100.0, False)
    assert p.apply(music("stop", 1, 540.0), 640.0) == [StopMusic(STOP_FADE_S)]
    intro = only_start(p.apply(music("start", 2, 0.0, INTRO), 700.0))
    assert (intro.path, intro.position, intro.loop) == (f"{SOUNDS}/era2.ogg", 0.0, True)


def test_without_a_score_a_realtime_era_loops_the_built_in_music() -> None:
    p = plan(scores=(2,))
    assert only_start(p.apply(music("start", 1, 0.0), 0.0)).path == f"{SOUNDS}/era1.ogg"
    assert only_start(p.apply(music("start", 2, 0.0), 0.0)).path == f"{SOUNDS}/era2_score.ogg"


def test_where_the_music_is_follows_running_time_through_a_pause() -> None:
    p = plan()
    p.apply(music("start", 1, 0.0), 10.0)
    assert p.music_position(25.5) == (f"{SOUNDS}/era1_score.ogg", 15.5)
    assert p.apply(music("pause", 1, 20.0), 30.0) == [PauseMusic()]
    assert p.music_position(99.0) == (f"{SOUNDS}/era1_score.ogg", 20.0)  # held while paused
    assert p.apply(music("resume", 1, 20.0), 100.0) == [ResumeMusic()]
    assert p.music_position(103.0) == (f"{SOUNDS}/era1_score.ogg", 23.0)
    p.apply(music("stop", 1, 23.0), 103.0)
    assert p.music_position(200.0) is None


def test_a_second_pause_or_a_resume_while_playing_sends_nothing() -> None:
    p = plan()
    p.apply(music("start", 1, 0.0), 0.0)
    assert p.apply(music("resume", 1, 1.0), 1.0) == []
    assert p.apply(music("pause", 1, 2.0), 2.0) == [PauseMusic()]
    assert p.apply(music("pause", 1, 2.0), 3.0) == []


def test_start_while_paused_restarts_from_the_beginning() -> None:
    p = plan()
    p.apply(music("start", 1, 0.0), 0.0)
    p.apply(music("pause", 1, 4.0), 4.0)
    again = only_start(p.apply(music("start", 1, 0.0), 9.0))
    assert (again.position, again.at) == (0.0, 9.0)
    assert p.apply(music("pause", 1, 1.0), 10.0) == [PauseMusic()]  # it plays, not paused


@pytest.mark.parametrize("mode", [R, INTRO])
def test_a_restart_resumes_with_nothing_loaded_at_the_saved_running_time(mode: Mode) -> None:
    """After a power cut the core sends PrepareMusic and then RESUME with the saved time."""
    p = plan()
    prepared = p.apply(PrepareMusic(3, mode), 50.0)
    path = f"{SOUNDS}/era3_score.ogg" if mode is R else f"{SOUNDS}/era3.ogg"
    assert prepared == [PrepareStream(path, loop=mode is not R)]  # intro eras loop
    start = only_start(p.apply(music("resume", 3, 125.25, mode), 51.0))
    assert (start.path, start.position, start.at) == (path, 125.25, 51.0)
    assert start.loop is (mode is INTRO)  # a loop wraps 125.25 s at its own length


def test_a_track_is_positioned_at_its_offset_plus_running_time_and_carries_the_cues() -> None:
    track = EraMusic(music="/music/era1.flac", music_kind="track", track_offset_s=7.5)
    p = plan(eras=(track, track, EraMusic()))
    # parked at its offset
    assert p.apply(PrepareMusic(1, R), 0.0) == [PrepareStream("/music/era1.flac", 7.5)]
    assert p.apply(PlaySound(Sound.TICK, 1), 1.0) == []  # the track has its own lead-in
    assert p.apply(PlaySound(Sound.GONG, 1), 6.0) == []
    start = only_start(p.apply(music("start", 1, 0.0), 6.0))
    assert (start.path, start.position, start.loop) == ("/music/era1.flac", 7.5, False)
    p.apply(music("pause", 1, 30.0), 36.0)
    assert p.music_position(90.0) == ("/music/era1.flac", 37.5)
    # the track's end gong rings out while it fades
    p.apply(music("resume", 1, 30.0), 90.0)
    assert p.apply(music("stop", 1, 540.0), 600.0) == [StopMusic(TRACK_STOP_FADE_S)]
    # the same track configured for an intro era: the built-in loop and the box's own cues
    assert p.apply(PrepareMusic(2, INTRO), 700.0) == [
        PrepareStream(f"{SOUNDS}/era2.ogg", loop=True)]
    assert p.apply(PlaySound(Sound.GONG, 2), 705.0)[0] == PlayCue(Sound.GONG)


def test_a_players_own_loop_plays_in_both_modes_and_the_box_cues_over_it() -> None:
    own = EraMusic(music="/music/mine.ogg")
    p = plan(eras=(own, EraMusic(), EraMusic()))
    start = only_start(p.apply(music("start", 1, 0.0), 0.0))
    assert (start.path, start.loop) == ("/music/mine.ogg", True)
    assert p.apply(PlaySound(Sound.CRY, 1), 1.0)[0] == PlayCue(Sound.CRY)


def test_an_unreadable_file_falls_back_once_and_is_never_tried_again() -> None:
    own = EraMusic(music="/music/broken.ogg")
    p = plan(eras=(own, EraMusic(), EraMusic()))
    assert only_start(p.apply(music("start", 1, 0.0), 0.0)).path == "/music/broken.ogg"
    # the adapter found it unreadable 0.2 s later: the next choice starts where the era is
    fallback = only_start(p.file_failed("/music/broken.ogg", 0.2))
    assert (fallback.path, fallback.position, fallback.at) == (
        f"{SOUNDS}/era1_score.ogg", 0.2, 0.2)
    p.apply(music("stop", 1, 3.0), 3.0)
    assert only_start(p.apply(music("start", 1, 0.0), 9.0)).path == f"{SOUNDS}/era1_score.ogg"
    # nothing readable at all: silence, said once by the adapter
    p.file_failed(f"{SOUNDS}/era1_score.ogg", 9.1)
    p.file_failed(f"{SOUNDS}/era1.ogg", 9.2)
    assert starts(p.apply(music("start", 1, 0.0), 10.0)) == []


def test_prepare_lets_nothing_playing_go_and_is_not_repeated() -> None:
    p = plan()
    assert p.apply(PrepareMusic(1, R), 0.0) == [PrepareStream(f"{SOUNDS}/era1_score.ogg")]
    assert p.apply(PrepareMusic(1, R), 1.0) == []  # already prepared
    assert p.apply(PrepareMusic(1, INTRO), 2.0) == [PrepareStream(f"{SOUNDS}/era1.ogg", loop=True)]
    p.apply(music("start", 1, 0.0, INTRO), 3.0)
    assert p.apply(PrepareMusic(2, R), 4.0) == []  # music plays: never cut it
    p.apply(music("stop", 1, 0.0, INTRO), 5.0)
    assert p.apply(PrepareMusic(2, R), 6.0) == [PrepareStream(f"{SOUNDS}/era2_score.ogg")]


# --- the device -------------------------------------------------------------------------------


def test_a_late_or_reopened_device_gets_the_volume_and_the_music_where_the_era_is() -> None:
    p = plan(volume=0.8)
    p.apply(SetVolume(0.5), 0.0)
    p.apply(music("start", 1, 0.0, INTRO), 100.0)
    p.lost()
    commands = p.reopened(101.3)
    assert commands[:2] == [SetCueGain(0.5), SetMusicGain(0.5)]
    start = only_start(commands)
    assert (start.path, start.at, start.loop) == (f"{SOUNDS}/era1.ogg", 101.3, True)
    assert start.position == pytest.approx(1.3)


def test_a_device_back_while_paused_prepares_and_resume_then_starts_at_the_held_time() -> None:
    p = plan()
    p.apply(music("start", 2, 0.0), 0.0)
    p.apply(music("pause", 2, 12.0), 12.0)
    p.lost()
    assert p.reopened(40.0)[2:] == [PrepareStream(f"{SOUNDS}/era2_score.ogg")]
    start = only_start(p.apply(music("resume", 2, 12.0), 50.0))
    assert (start.position, start.at) == (12.0, 50.0)


# --- volume and ducking ------------------------------------------------------------------------


def ramp(p: AudioPlan, start: float, until: float) -> list[tuple[float, float]]:
    """Step the plan as the adapter's worker would; (time, music gain) at every step."""
    steps: list[tuple[float, float]] = []
    now = start
    while True:
        wake = p.wake_at(now)
        if wake is None or wake > until:
            return steps
        now = max(now, wake)
        for command in p.tick(now):
            assert isinstance(command, SetMusicGain)
            steps.append((now, command.gain))


def test_volume_sets_cues_and_music_and_is_clamped() -> None:
    p = plan()
    assert p.apply(SetVolume(0.25), 0.0) == [SetCueGain(0.25), SetMusicGain(0.25)]
    assert p.apply(SetVolume(7.0), 0.0) == [SetCueGain(1.0), SetMusicGain(1.0)]


def test_music_level_lowers_the_music_and_not_the_cues() -> None:
    p = plan(volume=0.8, music_level=0.5)
    assert p.apply(SetVolume(0.8), 0.0) == [SetCueGain(0.8), SetMusicGain(pytest.approx(0.4))]
    # The menu changes it: the music follows, the cues stay at the master volume.
    assert p.apply(SetVolume(0.8, music=0.25), 0.0) == [SetCueGain(0.8),
                                                         SetMusicGain(pytest.approx(0.2))]
    assert p.apply(SetVolume(1.0), 0.0) == [SetCueGain(1.0), SetMusicGain(pytest.approx(0.25))]
    assert p.apply(SetVolume(1.0, music=3.0), 0.0)[1] == SetMusicGain(1.0)  # clamped


def test_a_gong_ducks_the_music_smoothly_while_it_is_loud_then_it_comes_back() -> None:
    p = plan(volume=1.0, duck_db=12.0)
    p.cue_loaded(Sound.GONG, 2.0)
    p.apply(music("start", 1, 0.0), 0.0)
    assert p.apply(PlaySound(Sound.GONG, 1), 10.0) == [PlayCue(Sound.GONG)]
    steps = ramp(p, 10.0, 20.0)
    ducked = gain_from_db(-12.0)
    down = [(t, g) for t, g in steps if t < 12.0]
    up = [(t, g) for t, g in steps if t >= 12.0]
    # down: from full to -12 dB in 150 ms, never up on the way; held while the gong is loud
    assert down[0][1] == pytest.approx(1.0) and down[-1][1] == pytest.approx(ducked)
    assert all(b[1] <= a[1] for a, b in itertools.pairwise(down))
    assert len(down) >= 5  # a ramp, not a switch
    assert down[-1][0] - down[0][0] == pytest.approx(DUCK_DOWN_S, abs=RAMP_STEP_S)
    # up: starts when the gong stops being loud and takes 400 ms
    assert up[0][0] == pytest.approx(12.0) and up[-1][1] == pytest.approx(1.0)
    assert up[-1][0] - up[0][0] == pytest.approx(DUCK_UP_S, abs=0.02)
    assert p.wake_at(20.0) is None  # nothing more to do until the next cue


def test_a_tick_does_not_duck_and_a_second_cue_keeps_the_music_down() -> None:
    p = plan(volume=1.0, duck_db=12.0)
    p.cue_loaded(Sound.GONG, 2.0)
    p.cue_loaded(Sound.CRY, 1.0)
    p.apply(PlaySound(Sound.TICK, 1), 0.0)
    assert p.wake_at(0.0) is None
    p.apply(PlaySound(Sound.GONG, 1), 10.0)
    ramp(p, 10.0, 11.5)
    p.apply(PlaySound(Sound.CRY, 1), 11.5)  # loud until 12.5: the gong's 12.0 no longer ends it
    up = [t for t, g in ramp(p, 11.5, 20.0) if g > gain_from_db(-12.0) + 1e-9]
    assert 12.5 < up[0] <= 12.5 + RAMP_STEP_S + 1e-9


def test_ducking_follows_the_master_volume_and_no_duck_db_means_no_ducking() -> None:
    p = plan(volume=0.5, duck_db=6.0)
    p.cue_loaded(Sound.GONG, 1.0)
    p.apply(PlaySound(Sound.GONG, 1), 0.0)
    steps = ramp(p, 0.0, 0.5)
    assert steps[-1][1] == pytest.approx(0.5 * 10 ** (-6 / 20))
    assert p.apply(SetVolume(1.0), 0.5)[1] == SetMusicGain(pytest.approx(10 ** (-6 / 20)))
    flat = plan(duck_db=0.0)
    flat.apply(PlaySound(Sound.GONG, 1), 0.0)
    assert flat.wake_at(0.0) is None


def test_gain_from_db() -> None:
    assert gain_from_db(0.0) == 1.0
    assert math.isclose(gain_from_db(-20.0), 0.1)


# --- the core says which music to get ready ---------------------------------------------------


def test_the_core_asks_for_an_eras_music_when_its_setup_opens_or_its_mode_changes() -> None:
    """Time of Empires' round file as the box plays it (its guide on)."""
    from erabox.core.config import Config
    from erabox.core.engine import ProfileEngine
    from erabox.core.guide import guided
    from erabox.core.model import Button, Gesture, Input
    from erabox.core.play import State
    from erabox.files.games import own_rounds

    def prepares(effects: tuple[object, ...]) -> list[PrepareMusic]:
        return [e for e in effects if isinstance(e, PrepareMusic)]

    config = Config()
    engine = ProfileEngine(guided(own_rounds(), config.guide), config)
    game, effects = engine.fresh(0.0, 0)
    assert prepares(effects) == [PrepareMusic(1, R, 1)]
    game, effects = engine.step(game, Input(Button.NEXT, Gesture.HOLD), 1.0)  # past the guide
    assert prepares(effects) == []
    game, effects = engine.step(game, Input(Button.NEXT, Gesture.PRESS), 1.0)  # the mode
    assert prepares(effects) == [PrepareMusic(1, INTRO, 1)]
    game, effects = engine.step(game, Input(Button.ERA, Gesture.PRESS), 2.0)  # intro era starts
    assert prepares(effects) == []
    _, effects = engine.restore(engine.snapshot(game, 3.0), 50.0)  # a cut: that era's music
    assert prepares(effects) == [PrepareMusic(1, INTRO, 1)]
    while game.spot.state is not State.SCORING:  # play the rounds (and scholars) to scoring
        game, effects = engine.step(game, Input(Button.NEXT, Gesture.PRESS), 4.0)
        assert prepares(effects) == []
    while game.spot.state is not State.ERA_SETUP:  # 0 points each, the standings
        game, effects = engine.step(game, Input(Button.ERA, Gesture.PRESS), 5.0)
    assert prepares(effects) == [PrepareMusic(2, config.default_mode, 1)]  # Era II's setup
