"""Music on a countdown's running time (docs/profiles.md, "Phase music"): `[[phase]]
music_from = "gong"` and `[[era]] music`, as Time of Empires' real-time era plays its music.

- The music starts at the countdown's start gong (after its lead-in), its place the running
  time (a late wake-up starts it that far in); a pause pauses it, resuming resumes it at the
  running time; a power cut brings it back where the countdown comes back (with a countdown
  that comes back paused, when the table resumes it; not at all in the lead-in); the
  countdown's end stops it.
- Each era plays its own `music` in place of the phase's (an era without one: the phase's).
- The sound card (`AudioPlan`) starts, pauses and resumes the file at those places.
- The keys are checked as every key (file, line and key named); a missing era music file is
  said in the log as a phase's is.
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
from erabox.core.audio_plan import AudioPlan, PauseMusic, ResumeMusic, StartMusic
from erabox.core.config import AudioConfig
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Music, Tick
from erabox.core.play import Play, PlayEffect, State, countdown_elapsed, new_play
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import ProfileError, parse_profile
from erabox.files.games import missing_music, read_profile

N_PRESS, E_PRESS = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
PLAYERS = ("red", "blue")

SIEGE = """\
[game]
id = "siege"
name = { en = "Siege", ja = "包囲" }

[players]
min = 2
max = 4

[rounds]
name = { en = "Round", ja = "ラウンド" }
count = 1
start_gong = false

[[era]]
music = "dawn.ogg"

[[era]]

[[era]]
music = "/music/dusk.flac"

[[phase]]
id = "prepare"
label = { en = "Prepare", ja = "準備" }

[[phase]]
id = "action"
label = { en = "Action", ja = "行動" }
timer_s = 120
lead_in_s = 3
timer_end = "next"
next_leaves = false
music = "action.ogg"
music_from = "gong"

[[phase.call]]
at_s = 40
"""


def siege(text: str = SIEGE) -> Any:
    return parse_profile(text, "/games/siege.toml", base_dir="/games")


def musics(effects: tuple[PlayEffect, ...]) -> list[tuple[str, str, float]]:
    return [(e.action.value, e.path, round(e.elapsed, 3)) for e in effects
            if isinstance(e, Music)]


def to_action(play: Play, t: float) -> Play:
    """From the setup (or the standings): the era's round 1, then NEXT to its action phase."""
    play, _ = step(play, E_PRESS, t)
    play, effects = step(play, N_PRESS, t + 1)
    assert musics(effects) == []  # the lead-in: no music yet
    return play


# --- the format -------------------------------------------------------------------------------


def test_the_keys_are_read_and_the_default_is_the_phases_start() -> None:
    profile = siege()
    prepare, action = profile.phases
    assert (prepare.music_from, action.music_from) == ("phase", "gong")
    assert [e.music for e in profile.eras] == ["/games/dawn.ogg", "", "/music/dusk.flac"]
    assert profile.eras[0].music_key == "/games/siege.toml:15: key 'era[1].music'"
    plain = siege(SIEGE.replace('music_from = "gong"\n', ""))
    assert plain.phases[1].music_from == "phase"


@pytest.mark.parametrize(("old", "new", "key", "line", "says"), [
    ('music_from = "gong"', 'music_from = "start"', "phase[2].music_from", 34,
     "expected one of 'phase', 'gong'"),
    ('music_from = "gong"', "music_from = true", "phase[2].music_from", 34, "expected one"),
    ('music = "action.ogg"\nmusic_from = "gong"', 'music_from = "gong"', "phase[2].music_from",
     33, "music_from needs a music file (music)"),
    ('label = { en = "Prepare", ja = "準備" }',
     'label = { en = "Prepare", ja = "準備" }\nmusic = "p.ogg"\nmusic_from = "gong"',
     "phase[1].music_from", 26, "music_from needs a timer (timer_s)"),
    ('music = "dawn.ogg"', 'music = "era1"', "era[1].music", 15, "a sound file's name"),
    ('music = "dawn.ogg"', "music = 1", "era[1].music", 15, "a sound file's name"),
    ('music = "action.ogg"\nmusic_from = "gong"', "", "era[1].music", 15,
     "no [[phase]] has music"),
])
def test_a_bad_key_names_the_file_line_and_key(old: str, new: str, key: str, line: int,
                                               says: str) -> None:
    text = SIEGE.replace(old, new, 1)
    assert text != SIEGE
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "games/siege.toml")
    message = str(caught.value)
    assert message.startswith(f"games/siege.toml:{line}: key '{key}'"), message
    assert says in message, message


def test_a_missing_era_music_file_is_said_as_a_phases(tmp_path: Path,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "siege.toml").write_text(SIEGE, encoding="utf-8")
    (tmp_path / "action.ogg").write_bytes(b"OggS")
    profile = read_profile(tmp_path / "siege.toml")
    with caplog.at_level(logging.WARNING, logger="erabox"):
        assert missing_music(profile) == [str(tmp_path / "dawn.ogg"), "/music/dusk.flac"]
    assert (f"{tmp_path / 'siege.toml'}:15: key 'era[1].music': the sound file "
            f"{tmp_path / 'dawn.ogg'} does not exist; the phase plays without music"
            ) in caplog.text


# --- the core -----------------------------------------------------------------------------------


def test_the_music_plays_on_the_running_time_from_the_gong_through_a_pause() -> None:
    play = to_action(new_play(siege(), PLAYERS), 0.0)  # the lead-in from 1 s, the gong at 4 s
    play, effects = step(play, Tick(), 4.7)  # woken late: the music as far in as the clock
    assert musics(effects) == [("music_start", "/games/dawn.ogg", 0.7)]
    assert countdown_elapsed(play, 4.7) == pytest.approx(0.7)
    play, effects = step(play, E_PRESS, 30.0)  # paused at 0:26
    assert musics(effects) == [("music_pause", "/games/dawn.ogg", 26.0)]
    play, effects = step(play, Tick(), 45.0)
    assert musics(effects) == []
    assert snapshot(play, 45.0)["music_elapsed"] == 26.0  # the running time, held
    play, effects = step(play, E_PRESS, 50.0)  # resumed at 0:26, 20 s later
    assert musics(effects) == [("music_resume", "/games/dawn.ogg", 26.0)]
    play, effects = step(play, Tick(), 64.0)  # the call at 0:40: the music plays on
    assert musics(effects) == [] and countdown_elapsed(play, 64.0) == pytest.approx(40.0)
    assert snapshot(play, 70.0)["music_elapsed"] == 46.0
    play, effects = step(play, Tick(), 144.5)  # the end gong (at 144 s): the music stops there
    assert musics(effects) == [("music_stop", "/games/dawn.ogg", 120.0)]
    assert play.spot.state is State.STANDINGS and play.music_since is None


def test_a_pause_in_the_lead_in_and_leaving_the_phase_before_the_gong_start_nothing() -> None:
    play = to_action(new_play(siege(), PLAYERS), 0.0)
    play, effects = step(play, E_PRESS, 2.0)  # the lead-in paused
    assert musics(effects) == []
    play, effects = step(play, E_PRESS, 10.0)  # and resumed: the gong 2 s later
    assert musics(effects) == []
    play, effects = step(play, Tick(), 12.0)
    assert musics(effects) == [("music_start", "/games/dawn.ogg", 0.0)]
    play, effects = step(play, Input(Button.NEXT, Gesture.HOLD), 20.0)  # undo out: stopped
    assert musics(effects) == [("music_stop", "/games/dawn.ogg", 8.0)]
    play, effects = step(play, N_PRESS, 21.0)  # back in: the lead-in again, then the music
    assert musics(effects) == []
    play, effects = step(play, Tick(), 24.0)
    assert musics(effects) == [("music_start", "/games/dawn.ogg", 0.0)]


def test_each_era_plays_its_own_music_and_an_era_without_one_the_phases() -> None:
    play, heard = new_play(siege(), PLAYERS), []
    for era, start in enumerate((0.0, 200.0, 400.0)):
        play = to_action(play, start)
        play, effects = step(play, Tick(), start + 4)
        heard += musics(effects)
        play, effects = step(play, Tick(), start + 124)
        heard += musics(effects)
        assert play.spot.state is (State.STANDINGS if era < 2 else State.GAME_OVER)
    assert heard == [(action, path, at) for path in (
        "/games/dawn.ogg", "/games/action.ogg", "/music/dusk.flac")
        for action, at in (("music_start", 0.0), ("music_stop", 120.0))]


@pytest.mark.parametrize("cut", [5.0, 30.0, 63.9, 64.0, 100.0])
def test_a_power_cut_brings_the_music_back_where_the_countdown_comes_back(cut: float) -> None:
    play = to_action(new_play(siege(), PLAYERS), 0.0)
    saved = None
    t = 1.0
    while t < cut:  # the box's loop, each save kept as the disk would
        t = min(cut, t + 0.5)
        play, effects = step(play, Tick(), t)
        saved = next((e.snapshot for e in effects if hasattr(e, "snapshot")), saved)
    assert saved is not None
    back, effects = restore(json.loads(json.dumps(saved)), siege(), PLAYERS, 1000.0)
    running = countdown_elapsed(back, 1000.0)
    assert running is not None and running >= 0
    assert musics(effects) == [("music_resume", "/games/dawn.ogg", round(running, 3))]
    _, effects = step(back, E_PRESS, 1010.0)  # paused: where the countdown is held
    assert musics(effects) == [("music_pause", "/games/dawn.ogg", round(running + 10, 3))]


def test_a_countdown_that_comes_back_paused_brings_its_music_back_when_resumed() -> None:
    profile = siege(SIEGE.replace("next_leaves = false", 'next_leaves = false\nresume = "paused"'))
    play = to_action(new_play(profile, PLAYERS), 0.0)
    play, _ = step(play, Tick(), 4.0)
    record = snapshot(play, 30.0)
    back, effects = restore(record, profile, PLAYERS, 500.0)
    assert back.held_left == 94.0
    assert musics(effects) == []  # silent until resumed, as Time of Empires' era music
    back, effects = step(back, E_PRESS, 510.0)
    assert musics(effects) == [("music_resume", "/games/dawn.ogg", 26.0)]
    # a cut in the lead-in: no music until the gong
    play = to_action(new_play(profile, PLAYERS), 0.0)
    back, effects = restore(snapshot(play, 2.0), profile, PLAYERS, 500.0)
    assert musics(effects) == []


# --- erabox simulate --game ---------------------------------------------------------------------


def test_simulate_prints_the_music_on_the_running_time(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "siege.toml").write_text(SIEGE, encoding="utf-8")
    script = tmp_path / "script.txt"
    script.write_text("0 era press\n1 next press\n30 era press\n50 era press\n70 restart\n"
                      "150 era press\n151 next press\n", encoding="utf-8")
    code = main(["simulate", "--script", str(script), "--game", str(tmp_path / "siege.toml"),
                 "--players", "red,blue", "--until", "300"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = [json.loads(line) for line in captured.out.splitlines()]
    music = [(e["t"], e["sound"], e["music"], e["position"]) for e in lines
             if e["type"] == "sound" and "music" in e]
    gongs = [e["t"] for e in lines if e["type"] == "sound" and e["sound"] == "gong"]
    assert gongs == [4.0, 144.0, 154.0, 274.0]  # start and end gongs of eras I and II
    assert music == [
        (4.0, "music_start", "dawn.ogg", 0.0),  # at the start gong
        (30.0, "music_pause", "dawn.ogg", 26.0),
        (50.0, "music_resume", "dawn.ogg", 26.0),
        (70.0, "music_resume", "dawn.ogg", 46.0),  # the cut: where the countdown is
        (144.0, "music_stop", "dawn.ogg", 120.0),
        (154.0, "music_start", "action.ogg", 0.0),  # era II: the phase's own
        (274.0, "music_stop", "action.ogg", 120.0)]


# --- whatever the table does ----------------------------------------------------------------


class Heard:
    """What a sound card does with the music effects: the file, where it is and whether it
    plays, at the time of the last effect."""

    def __init__(self) -> None:
        self.path: str | None = None
        self.at = 0.0
        self.since = 0.0
        self.running = False

    def apply(self, effects: tuple[PlayEffect, ...], now: float) -> None:
        for e in effects:
            if not isinstance(e, Music):
                continue
            if e.action.value == "music_stop":  # of what plays (or was held at a cut,
                assert self.path in (None, e.path)  # not loaded again: the card ignores it)
                self.path = None
                continue
            if e.action.value == "music_start":
                assert self.path is None  # a start only in silence
            else:
                assert self.path in (None, e.path)
            self.path, self.at, self.since = e.path, e.elapsed, now
            self.running = e.action.value != "music_pause"

    def place(self, now: float) -> float:
        return self.at + (now - self.since if self.running else 0.0)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_random_play_keeps_the_music_on_the_running_time(data: st.DataObject) -> None:
    """Whatever the presses, late wake-ups and power cuts, the music plays exactly while the
    countdown runs past its start gong, at its running time; paused with it; silent in the
    lead-in, out of the phase, after the countdown's end."""
    resume = data.draw(st.sampled_from(["running", "paused"]), label="resume")
    profile = siege(SIEGE.replace("next_leaves = false", f'next_leaves = false\nresume = '
                                  f'"{resume}"'))
    play, heard, now = new_play(profile, PLAYERS), Heard(), 0.0
    saved: dict[str, Any] | None = None
    gestures = [N_PRESS, E_PRESS, Input(Button.NEXT, Gesture.HOLD),
                Input(Button.ERA, Gesture.HOLD), None, "cut"]
    for _ in range(data.draw(st.integers(1, 40), label="moves")):
        now += data.draw(st.sampled_from([0.0, 0.3, 1.0, 2.5, 30.0, 90.0]), label="wait")
        move = data.draw(st.sampled_from(gestures), label="move")
        if move == "cut" and saved is not None:
            play, effects = restore(json.loads(json.dumps(saved)), profile, PLAYERS, now)
            heard = Heard()  # a new box: nothing loaded
        else:
            play, effects = step(play, move if isinstance(move, Input) else Tick(), now)
        heard.apply(effects, now)
        saved = next((e.snapshot for e in effects if hasattr(e, "snapshot")), saved)
        spot = play.spot
        at = countdown_elapsed(play, now)
        # at the gong's own instant the elapsed time may come out a rounding below 0
        on = (spot.state in (State.ROUND, State.EVENT) and spot.phase == 1
              and at is not None and at >= -1e-6)
        held = play.held_left is not None
        if not on or (held and heard.path is None):  # held after a cut: silent till resumed
            assert heard.path is None or held, (spot, at)
            continue
        assert heard.path is not None and heard.running == (not held)
        assert at is not None and heard.place(now) == pytest.approx(at, abs=1e-6)


def test_the_sound_card_places_the_music_at_the_running_time() -> None:
    """The audio plan, handed the effects of a pause, a resume and a cut: the file started
    where the clock stands, paused and resumed in place, started again at the running time
    by a new box."""
    play = to_action(new_play(siege(), PLAYERS), 0.0)
    plan = AudioPlan(AudioConfig(), "/box/sounds", scores=())
    commands = []
    for event, t in ((Tick(), 4.5), (E_PRESS, 30.0), (E_PRESS, 50.0)):
        play, effects = step(play, event, t)
        commands += [c for e in effects if isinstance(e, Music) for c in plan.apply(e, t)]
    started, paused, resumed = commands
    assert isinstance(started, StartMusic)
    assert (started.path, started.position, started.loop) == ("/games/dawn.ogg", 0.5, True)
    assert (paused, resumed) == (PauseMusic(), ResumeMusic())
    _, effects = restore(snapshot(play, 60.0), siege(), PLAYERS, 100.0)
    plan = AudioPlan(AudioConfig(), "/box/sounds", scores=())  # a new box after the cut
    (again,) = [c for e in effects if isinstance(e, Music) for c in plan.apply(e, 100.0)]
    assert isinstance(again, StartMusic) and (again.path, again.position) == (
        "/games/dawn.ogg", 36.0)  # 0:36 on the clock: the gong at 4 s, 20 s paused
