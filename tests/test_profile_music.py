"""A game profile's per-phase music (docs/profiles.md, "Phase music"): the format, the core's
`Music` effects, what the audio plan does with them, and `erabox simulate --game`'s lines.

- `music` / `music_loop` are read and checked like every key (file, line and key named); a
  relative file name points into the profile's own folder.
- The music starts when its phase begins, goes on through the phase's steps, turns and an event
  shown over it, stops when play leaves the phase (next phase, special round, undo, new game),
  and starts again from the beginning when undo comes back into the phase.
- Across a power cut it resumes where the last save left it (saved every 5 s while it plays).
- A file that cannot be read: the log names the file, key and line, the screen is marked, the
  play goes on without music.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from erabox.cli import main
from erabox.core.audio_plan import AudioPlan, StartMusic, StopMusic
from erabox.core.config import AudioConfig, Config
from erabox.core.deadlines import next_deadline
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Mode, Music, MusicAction, Tick
from erabox.core.play import PlayEffect, State, new_play
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import ProfileError, parse_profile
from erabox.files.games import missing_music, read_profile
from erabox.run.driver import Driver, MemoryState

N_PRESS, N_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
E_PRESS, E_HOLD = Input(Button.ERA, Gesture.PRESS), Input(Button.ERA, Gesture.HOLD)
BOTH = Input(Button.BOTH, Gesture.HOLD)
PLAYERS = ("red", "blue")

FESTIVAL = """\
[game]
id = "festival"
name = { en = "Festival", ja = "祭り" }

[players]
min = 2
max = 4

[rounds]
name = { en = "Night", ja = "夜" }
count = 2

[[phase]]
id = "dance"
label = { en = "Dance", ja = "踊り" }
music = "dance.ogg"
steps = ["Everyone dances", "Take a bow"]

[[phase]]
id = "feast"
label = { en = "Feast", ja = "宴" }
each_player = true
music = "/music/feast.flac"
music_loop = false

[[phase]]
id = "rest"
label = { en = "Rest", ja = "休み" }

[[event]]
id = "storm"
label = { en = "Storm", ja = "嵐" }
"""


def festival(base_dir: str | None = "/games") -> Any:
    return parse_profile(FESTIVAL, "/games/festival.toml", base_dir=base_dir)


def musics(effects: tuple[PlayEffect, ...]) -> list[tuple[str, str, float, bool]]:
    return [(e.action.value, e.path, e.elapsed, e.loop) for e in effects
            if isinstance(e, Music)]


# --- the format -------------------------------------------------------------------------------


def test_music_is_read_relative_to_the_profiles_folder_and_loops_by_default() -> None:
    profile = festival()
    dance, feast, rest = profile.phases
    assert dance.music is not None and feast.music is not None
    assert (dance.music.path, dance.music.loop) == ("/games/dance.ogg", True)
    assert (feast.music.path, feast.music.loop) == ("/music/feast.flac", False)
    assert rest.music is None
    assert dance.music.key == "/games/festival.toml:16: key 'phase[1].music'"
    assert festival(None).phases[0].music.path == "dance.ogg"  # type: ignore[union-attr]


@pytest.mark.parametrize(("old", "new", "key", "line"), [
    ('music = "dance.ogg"', "music = 3", "phase[1].music", 16),
    ('music = "dance.ogg"', 'music = ""', "phase[1].music", 16),
    ('music = "dance.ogg"', 'music = "a\\tb.ogg"', "phase[1].music", 16),
    ('music = "dance.ogg"', 'music = "dance.ogg"\nmusic_loop = "yes"', "phase[1].music_loop",
     17),
    ('label = { en = "Rest", ja = "休み" }', 'label = "Rest"\nmusic_loop = true',
     "phase[3].music_loop", 29),
])
def test_a_bad_music_key_names_the_file_line_and_key(old: str, new: str, key: str,
                                                     line: int) -> None:
    text = FESTIVAL.replace(old, new, 1)
    assert text != FESTIVAL
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "games/festival.toml")
    assert str(caught.value).startswith(f"games/festival.toml:{line}: key '{key}'"), caught.value


def test_a_missing_music_file_is_said_with_its_key_and_line_and_the_box_goes_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "festival.toml").write_text(FESTIVAL, encoding="utf-8")
    (tmp_path / "dance.ogg").write_bytes(b"OggS")
    profile = read_profile(tmp_path / "festival.toml")
    assert profile.phases[0].music.path == str(tmp_path / "dance.ogg")  # type: ignore[union-attr]
    with caplog.at_level(logging.WARNING, logger="erabox"):
        assert missing_music(profile) == ["/music/feast.flac"]
    assert (f"{tmp_path / 'festival.toml'}:23: key 'phase[2].music': the sound file "
            "/music/feast.flac does not exist; the phase plays without music") in caplog.text
    driver = Driver(Config(players=PLAYERS), profile=profile, state=MemoryState())
    assert driver.missing_files == ["/music/feast.flac"]  # the screen's missing-file mark


# --- the core -----------------------------------------------------------------------------------


def test_the_music_plays_through_its_phase_and_stops_when_play_leaves_it() -> None:
    play = new_play(festival(), PLAYERS)
    play, effects = step(play, E_PRESS, 10.0)  # night 1: the dance
    assert musics(effects) == [("music_start", "/games/dance.ogg", 0.0, True)]
    play, effects = step(play, N_PRESS, 20.0)  # its second step: it plays on
    assert musics(effects) == []
    play, effects = step(play, E_HOLD, 25.0)  # a storm shown over the dance: plays on
    assert play.spot.state is State.EVENT and musics(effects) == []
    play, effects = step(play, N_PRESS, 30.0)  # back to the dance
    assert musics(effects) == []
    play, effects = step(play, N_PRESS, 40.0)  # the feast: its own music, played once
    assert musics(effects) == [("music_stop", "/games/dance.ogg", 30.0, True),
                               ("music_start", "/music/feast.flac", 0.0, False)]
    play, effects = step(play, N_PRESS, 50.0)  # blue's turn of the feast: plays on
    assert musics(effects) == []
    play, effects = step(play, N_PRESS, 60.0)  # rest: no music
    assert musics(effects) == [("music_stop", "/music/feast.flac", 20.0, False)]
    play, effects = step(play, N_PRESS, 70.0)  # night 2: the dance from its beginning
    assert musics(effects) == [("music_start", "/games/dance.ogg", 0.0, True)]
    play, effects = step(play, BOTH, 75.0)
    play, effects = step(play, E_PRESS, 76.0)  # "New game?" yes: silence
    assert play.spot.state is State.SETUP
    assert musics(effects) == [("music_stop", "/games/dance.ogg", 6.0, True)]


def test_undo_out_of_a_phase_stops_its_music_and_back_into_it_starts_it_again() -> None:
    play = new_play(festival(), PLAYERS)
    play, _ = step(play, E_PRESS, 0.0)
    play, effects = step(play, N_HOLD, 5.0)  # back to setup
    assert musics(effects) == [("music_stop", "/games/dance.ogg", 5.0, True)]
    play, _ = step(play, E_PRESS, 10.0)
    play, _ = step(play, N_PRESS, 11.0)
    play, effects = step(play, N_HOLD, 12.0)  # undo within the phase: plays on
    assert musics(effects) == []
    play, _ = step(play, N_PRESS, 13.0)
    play, _ = step(play, N_PRESS, 14.0)  # the feast
    play, effects = step(play, N_HOLD, 15.0)  # undo back into the dance: from its start
    assert musics(effects) == [("music_stop", "/music/feast.flac", 1.0, False),
                               ("music_start", "/games/dance.ogg", 0.0, True)]


def test_a_power_cut_resumes_the_music_where_the_last_save_left_it() -> None:
    play = new_play(festival(), PLAYERS)
    play, _ = step(play, E_PRESS, 100.0)
    assert next_deadline(play, 100.0) == 105.0  # its place is saved every 5 s while it plays
    saved = None
    for t in (105.0, 110.0, 112.0):
        play, effects = step(play, Tick(), t)
        saved = next((e.snapshot for e in effects if hasattr(e, "snapshot")), saved)
    assert saved is not None and saved["music_elapsed"] == 10.0
    back, effects = restore(json.loads(json.dumps(saved)), festival(), PLAYERS, 500.0)
    assert musics(effects) == [("music_resume", "/games/dance.ogg", 10.0, True)]
    assert back.music_since == 490.0
    later, effects = step(back, N_PRESS, 503.0)
    assert musics(effects) == [] and snapshot(later, 503.0)["music_elapsed"] == 13.0
    # a record without the place (an older box's) starts the phase's music from its start
    del saved["music_elapsed"]
    _, effects = restore(saved, festival(), PLAYERS, 500.0)
    assert musics(effects) == [("music_resume", "/games/dance.ogg", 0.0, True)]
    saved["music_elapsed"] = "soon"
    with pytest.raises(ValueError, match="music_elapsed"):
        restore(saved, festival(), PLAYERS, 500.0)


def test_a_phase_without_music_saves_nothing_more_than_before() -> None:
    text = FESTIVAL.replace('music = "dance.ogg"\n', "")
    play = new_play(parse_profile(text), PLAYERS)
    play, effects = step(play, E_PRESS, 0.0)
    assert musics(effects) == [] and next_deadline(play, 0.0) is None
    assert snapshot(play, 3.0)["music_elapsed"] is None


# --- the sound ----------------------------------------------------------------------------------


def test_the_audio_plan_plays_the_named_file_looped_or_once_and_nothing_for_a_bad_one() -> None:
    plan = AudioPlan(AudioConfig(), "/box/sounds", scores=())
    dance = Music(MusicAction.START, 0, Mode.INTRO, 0.0, path="/games/dance.ogg")
    feast = Music(MusicAction.START, 0, Mode.INTRO, 0.0, path="/music/feast.flac", loop=False)
    (started,) = plan.apply(dance, 1.0)
    assert isinstance(started, StartMusic)
    assert (started.path, started.position, started.loop) == ("/games/dance.ogg", 0.0, True)
    assert plan.music_position(4.0) == ("/games/dance.ogg", 3.0)
    assert plan.apply(Music(MusicAction.STOP, 0, Mode.INTRO, 3.0, path="/games/dance.ogg"),
                      4.0) == [StopMusic(0.25)]
    (started,) = plan.apply(feast, 5.0)
    assert isinstance(started, StartMusic) and not started.loop
    # after a power cut: nothing loaded, the resume starts it where it was
    plan = AudioPlan(AudioConfig(), "/box/sounds", scores=())
    resume = Music(MusicAction.RESUME, 0, Mode.INTRO, 42.0, path="/games/dance.ogg")
    (started,) = plan.apply(resume, 1.0)
    assert isinstance(started, StartMusic) and started.position == 42.0
    # a file that cannot be read: silence, not the era's built-in loop
    assert plan.file_failed("/games/dance.ogg", 2.0) == [StopMusic(0.0)]
    assert plan.apply(dance, 3.0) == [StopMusic(0.0)]


def test_a_resume_of_another_phases_music_while_one_plays_switches_to_it() -> None:
    plan = AudioPlan(AudioConfig(), "/box/sounds", scores=())
    plan.apply(Music(MusicAction.START, 0, Mode.INTRO, 0.0, path="/a.ogg"), 0.0)
    (started,) = plan.apply(Music(MusicAction.RESUME, 0, Mode.INTRO, 7.0, path="/b.ogg"), 1.0)
    assert isinstance(started, StartMusic) and (started.path, started.position) == ("/b.ogg",
                                                                                     7.0)


# --- erabox simulate --game ---------------------------------------------------------------------


def test_simulate_prints_the_music_lines_across_a_power_cut(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "festival.toml").write_text(FESTIVAL, encoding="utf-8")
    script = tmp_path / "script.txt"
    script.write_text("0 era press\n12 restart\n20 next press\n21 next press\n",
                      encoding="utf-8")
    code = main(["simulate", "--script", str(script), "--game", str(tmp_path / "festival.toml"),
                 "--players", "red,blue", "--until", "30"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = [json.loads(line) for line in captured.out.splitlines()]
    music = [(e["t"], e["sound"], e["music"], e["position"]) for e in lines
             if e["type"] == "sound" and "music" in e]
    assert music == [
        (0.0, "music_start", "dance.ogg", 0.0),
        (12.0, "music_resume", "dance.ogg", 10.0),  # the last save was at 10 s
        (21.0, "music_stop", "dance.ogg", 19.0),
        (21.0, "music_start", "feast.flac", 0.0),
    ]


# --- random play --------------------------------------------------------------------------------

GESTURES = [N_PRESS] * 6 + [N_HOLD, E_PRESS, E_HOLD, BOTH, Input(Button.ERA, Gesture.RELEASE)]


# With a special round after night 1: Festival, and the dance alone, night after night.
SPECIAL = '\n[[special]]\nid = "parade"\nlabel = "Parade"\nafter = [1]\n'
DANCE_ONLY = FESTIVAL[:FESTIVAL.index("[[phase]]\nid = \"feast\"")] + FESTIVAL[
    FESTIVAL.index("[[event]]"):]


@settings(max_examples=40)
@given(data=st.data())
def test_random_gestures_keep_the_music_playing_exactly_in_its_phases(
        data: st.DataObject) -> None:
    """Whatever the gestures, the music plays iff play is in a phase with music, started when
    that round's phase began: a START only when none plays, a STOP only of the one that
    plays, and a snapshot brings it back where it was."""
    text = data.draw(st.sampled_from([FESTIVAL + SPECIAL, DANCE_ONLY + SPECIAL]),
                     label="profile")
    profile = parse_profile(text, base_dir="/games")
    play = new_play(profile, PLAYERS)
    now = 0.0
    playing: tuple[str, int, int] | None = None  # the file, and the round and phase it began
    for _ in range(data.draw(st.integers(1, 60), label="gestures")):
        now += data.draw(st.sampled_from([0.0, 0.5, 7.0]))
        while (due := next_deadline(play, now)) is not None and due <= now:
            play, effects = step(play, Tick(), due)
            assert musics(effects) == []  # time alone never starts or stops it
        before = play.spot
        play, effects = step(play, data.draw(st.sampled_from(GESTURES)), now)
        for action, path, _, _ in musics(effects):
            if action == "music_stop":
                assert playing is not None and playing[0] == path
                playing = None
            else:
                assert action == "music_start" and playing is None
                playing = (path, play.spot.round, play.spot.phase)
        spot = play.spot
        phase = profile.phases[spot.phase]
        wanted = phase.music.path if spot.state in (State.ROUND, State.EVENT) and (
            phase.music is not None) else None
        assert (play.music_since is None) == (wanted is None)
        assert playing == (None if wanted is None else (wanted, spot.round, spot.phase)), (
            before, spot)
        back, effects = restore(json.loads(json.dumps(snapshot(play, now))), profile, PLAYERS,
                                now)
        assert (back.music_since is None) == (wanted is None)
        assert musics(effects) == ([] if wanted is None else [
            ("music_resume", wanted, round(now - (play.music_since or 0.0), 3),
             phase.music.loop if phase.music else True)])


def test_the_driver_hands_the_music_to_the_sound_and_silences_it_at_a_power_cut() -> None:
    heard: list[object] = []

    class Sound:
        problem = None

        def apply(self, effects: Any, now: float) -> None:
            heard.extend(e for e in effects if isinstance(e, Music))

    driver = Driver(Config(players=PLAYERS), profile=festival(), state=MemoryState(),
                    audio=Sound())  # type: ignore[arg-type]
    driver.start(0.0)
    driver.step(E_PRESS, 1.0)
    driver.step(Tick(), 6.0)  # the periodic save: the music's place
    driver.power_cut(8.0)
    assert [(m.action, m.path, m.elapsed) for m in heard] == [  # type: ignore[attr-defined]
        (MusicAction.START, "/games/dance.ogg", 0.0),
        (MusicAction.STOP, "", 0.0),  # silence first, as Time of Empires' power cut
        (MusicAction.RESUME, "/games/dance.ogg", 5.0)]
