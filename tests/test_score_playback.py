"""The era score in the audio planner (virtual clock): style choice, and an era of another
length than the score's 540 s, which seeks at its scholar calls
(device/erabox/core/music_score.py)."""

from __future__ import annotations

from erabox.core.audio_plan import (
    SEEK_AFTER_S,
    AudioPlan,
    Command,
    PauseMusic,
    PlayCue,
    ResumeMusic,
    StartMusic,
)
from erabox.core.config import AudioConfig
from erabox.core.model import Mode, Music, MusicAction, PlaySound, Sound

SOUNDS = "/box/sounds"
SCORE1 = f"{SOUNDS}/era1_score.ogg"


def music(action: str, era: int, elapsed: float, mode: Mode = Mode.REALTIME) -> Music:
    return Music(MusicAction(f"music_{action}"), era, mode, elapsed)


def starts(commands: list[Command]) -> list[tuple[str, float, float]]:
    return [(c.path, round(c.position, 6), c.at) for c in commands if isinstance(c, StartMusic)]


def test_music_style_synth_loops_the_short_pieces_in_real_time_too() -> None:
    p = AudioPlan(AudioConfig(music_style="synth"), SOUNDS, scores=(1, 2, 3))
    assert starts(p.apply(music("start", 1, 0.0), 0.0)) == [(f"{SOUNDS}/era1.ogg", 0.0, 0.0)]
    score = AudioPlan(AudioConfig(), SOUNDS, scores=(1, 2, 3))
    assert starts(score.apply(music("start", 1, 0.0), 0.0)) == [(SCORE1, 0.0, 0.0)]


def test_the_rulebook_era_never_seeks() -> None:
    p = AudioPlan(AudioConfig(), SOUNDS, scores=(1,))
    p.apply(music("start", 1, 0.0), 10.0)
    assert p.wake_at(10.0) is None
    assert p.tick(550.0) == []


def test_a_shorter_era_starts_late_in_each_section_and_seeks_at_each_call() -> None:
    """A 480 s era, calls at 160 and 320 s: every section is 160 s, so each plays the last
    160 s of its score section; the player seeks at 160 and 320 s running time."""
    p = AudioPlan(AudioConfig(), SOUNDS, scores=(1,), era_shape=(480.0, (160.0, 320.0)))
    assert starts(p.apply(music("start", 1, 0.0), 100.0)) == [(SCORE1, 20.0, 100.0)]
    assert p.music_position(250.0) == (SCORE1, 170.0)
    # running time 160 s, the call, and the seek a moment after its cry (SEEK_AFTER_S)
    assert p.wake_at(100.0) == 260.0 + SEEK_AFTER_S
    assert p.tick(260.0) == []
    assert starts(p.tick(260.25)) == [(SCORE1, 200.25, 260.25)]  # section II's last 160 s
    assert p.wake_at(260.25) == 420.0 + SEEK_AFTER_S
    # Paused at 200 s running time for 30 s: no seek while paused, the next one comes later.
    assert p.apply(music("pause", 1, 200.0), 300.0) == [PauseMusic()]
    assert p.wake_at(300.0) is None
    assert p.apply(music("resume", 1, 200.0), 330.0) == [ResumeMusic()]
    assert p.wake_at(330.0) == 450.0 + SEEK_AFTER_S
    assert starts(p.tick(450.5)) == [(SCORE1, 380.5, 450.5)]  # a worker a bit late
    assert p.wake_at(450.5) is None  # the last section plays on to the gong
    assert p.music_position(609.5) == (SCORE1, 539.5)


def test_a_restart_in_a_longer_era_lands_in_the_right_round_and_piece() -> None:
    """A 600 s era (calls at 180 and 360 s): the last section rounds its opening 120 s once
    for the extra 60 s. A restart at 450 s running time plays from 390 s of the score."""
    p = AudioPlan(AudioConfig(), SOUNDS, scores=(1,), era_shape=(600.0, (180.0, 360.0)))
    assert starts(p.apply(music("resume", 1, 400.0), 0.0)) == [(SCORE1, 400.0, 0.0)]
    assert p.wake_at(0.0) == 20.0 + SEEK_AFTER_S  # running 420 s: back to the section's start
    assert starts(p.tick(20.25)) == [(SCORE1, 360.25, 20.25)]
    p.apply(music("stop", 1, 430.0), 30.0)
    assert p.wake_at(30.0) is None
    again = AudioPlan(AudioConfig(), SOUNDS, scores=(1,), era_shape=(600.0, (180.0, 360.0)))
    assert starts(again.apply(music("resume", 1, 450.0), 5.0)) == [(SCORE1, 390.0, 5.0)]


def test_at_a_call_the_cry_sounds_first_and_the_music_moves_after_it() -> None:
    """The scholar call's cry is played at the call; the score's seek (which locks the mixer
    while it reads the file) comes SEEK_AFTER_S later, never in the same step."""
    p = AudioPlan(AudioConfig(), SOUNDS, scores=(1,), era_shape=(480.0, (160.0, 320.0)))
    p.apply(music("start", 1, 0.0), 0.0)
    at_call = p.apply(PlaySound(Sound.CRY, 1), 160.0) + p.tick(160.0)
    assert [type(c) for c in at_call if isinstance(c, PlayCue | StartMusic)] == [PlayCue]
    moved = [c for t in (160.1, 160.2, 160.25, 160.3) for c in p.tick(t)
             if isinstance(c, StartMusic)]
    assert starts(moved) == [(SCORE1, 200.0 + SEEK_AFTER_S, 160.25)]  # section II, 0.25 s in
