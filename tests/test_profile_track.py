"""A round phase's publisher's track (docs/profiles.md, "The publisher's track"): `[[phase]]
track = "file.ogg"` and `track_offset_s`, as Time of Empires' `music_kind = "track"`.

- The track is the phase's music on its countdown's running time, `track_offset_s` into the
  file at running time 0: it starts there at the start gong, pauses and resumes with the
  countdown, and a power cut brings it back at offset + running time.
- The countdown's cues (lead-in ticks, start gong, calls, final ticks, end gong) are held by
  the track: the sound plan plays none of them, while the records, prompts, LED flashes and
  event lines are those of the same phase with plain music on the gong, at the same times.
- A track that cannot be read: the box sounds every one of those cues itself (the adapter
  checks the file when the game is set up), and the file is said as a phase music file is.
- The keys are checked as every key (file, line and key named).
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest

from erabox.adapters.audio import Audio
from erabox.core.audio_plan import (
    AudioPlan,
    CheckMusic,
    PauseMusic,
    PlayCue,
    ResumeMusic,
    StartMusic,
    StopMusic,
)
from erabox.core.config import AudioConfig
from erabox.core.machine import step
from erabox.core.model import (
    Button,
    FlashCue,
    Gesture,
    Input,
    Music,
    PlaySound,
    PrepareSounds,
    Sound,
    Tick,
)
from erabox.core.play import (
    Play,
    PlayEffect,
    countdown_elapsed,
    new_play,
    prepare_sounds,
)
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import ProfileError, parse_profile
from erabox.core.track import PhaseTrack
from erabox.files.games import missing_music, read_profile

N_PRESS, E_PRESS = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
PLAYERS = ("red", "blue")
TRACK = "/games/siege-track.ogg"

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

[[phase]]
id = "prepare"
label = { en = "Prepare", ja = "準備" }

[[phase]]
id = "action"
label = { en = "Action", ja = "行動" }
timer_s = 120
lead_in_s = 3
final_ticks_s = 2
timer_end = "next"
next_leaves = false
track = "siege-track.ogg"
track_offset_s = 12.5

[[phase.call]]
at_s = 40
prompt = { en = "Storm the gate", ja = "門を攻めよ" }

[[phase.call]]
at_s = 80
sound = "gong"
"""
PLAIN = SIEGE.replace('track = "siege-track.ogg"\ntrack_offset_s = 12.5',
                      'music = "siege-track.ogg"\nmusic_from = "gong"')


def siege(text: str = SIEGE) -> Any:
    return parse_profile(text, "/games/siege.toml", base_dir="/games")


def to_action(play: Play, t: float) -> tuple[Play, list[PlayEffect]]:
    """From the setup: round 1 (ERA), then NEXT to the action phase (its lead-in)."""
    play, first = step(play, E_PRESS, t)
    play, second = step(play, N_PRESS, t + 1)
    return play, [*first, *second]


def played(text: str, moves: list[tuple[float, Input | None]], cut: float | None = None
           ) -> list[tuple[float, PlayEffect]]:
    """The effects of a play, each with its time: the moves (None: a tick), a tick each 0.25 s
    between them; `cut`: a power cut then, the box back 100 s later from its last save."""
    profile = siege(text)
    play, begun = to_action(new_play(profile, PLAYERS), 0.0)
    out: list[tuple[float, PlayEffect]] = [(0.0, e) for e in begun]
    saved: dict[str, Any] | None = None
    t, shift = 1.0, 0.0
    for at, move in moves:
        while t < at:
            t = min(at, t + 0.25)
            if cut is not None and t >= cut and not shift:
                assert saved is not None
                shift = 100.0
                play, effects = restore(json.loads(json.dumps(saved)), profile, PLAYERS,
                                        t + shift)
            else:
                play, effects = step(play, move if t == at and move else Tick(), t + shift)
            out += [(t + shift, e) for e in effects]
            saved = next((e.snapshot for e in effects if hasattr(e, "snapshot")), saved)
    return out


MOVES: list[tuple[float, Input | None]] = [(30.0, E_PRESS), (50.0, E_PRESS), (160.0, None)]


def unmarked(effect: PlayEffect) -> PlayEffect:
    """The effect as the same phase with plain music on the gong gives it."""
    if isinstance(effect, PlaySound):
        return replace(effect, track="")
    if isinstance(effect, Music):
        return replace(effect, loop=True, track_offset=None)
    return effect


# --- the format -------------------------------------------------------------------------------


def test_the_keys_are_read_relative_to_the_profile_and_the_offset_defaults_to_0() -> None:
    action = siege().phases[1]
    assert action.track == PhaseTrack(TRACK, 12.5)
    assert action.track.key == "/games/siege.toml:26: key 'phase[2].track'"
    assert action.music is None and siege().phases[0].track is None
    bare = siege(SIEGE.replace("track_offset_s = 12.5\n", ""))
    assert bare.phases[1].track == PhaseTrack(TRACK, 0.0)
    assert siege(PLAIN).phases[1].track is None


@pytest.mark.parametrize(("old", "new", "key", "line", "says"), [
    ('track = "siege-track.ogg"', "track = 1", "phase[2].track", 26, "a sound file"),
    ('track = "siege-track.ogg"', 'track = ""', "phase[2].track", 26, "a sound file"),
    ("track_offset_s = 12.5", "track_offset_s = -1", "phase[2].track_offset_s", 27,
     "seconds into the track file"),
    ("track_offset_s = 12.5", 'track_offset_s = "0"', "phase[2].track_offset_s", 27,
     "seconds into the track file"),
    ('track = "siege-track.ogg"\n', "", "phase[2].track_offset_s", 26,
     "track_offset_s needs a track file (track)"),
    ('track = "siege-track.ogg"', 'track = "siege-track.ogg"\nmusic = "m.ogg"',
     "phase[2].track", 26, "its music or its track, not both"),
    ('label = { en = "Prepare", ja = "準備" }',
     'label = { en = "Prepare", ja = "準備" }\ntrack = "p.ogg"', "phase[1].track", 17,
     "track needs a timer (timer_s)"),
    ("track_offset_s = 12.5", "track_offset_s = 12.5\nmusic_from = \"gong\"",
     "phase[2].music_from", 28, "music_from needs a music file (music)"),
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


def test_a_missing_track_is_said_as_a_phase_music_file(tmp_path: Path,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "siege.toml").write_text(SIEGE, encoding="utf-8")
    profile = read_profile(tmp_path / "siege.toml")
    with caplog.at_level(logging.WARNING, logger="erabox"):
        assert missing_music(profile) == [str(tmp_path / "siege-track.ogg")]
    assert (f"{tmp_path / 'siege.toml'}:26: key 'phase[2].track': the sound file "
            f"{tmp_path / 'siege-track.ogg'} does not exist; the box sounds its own cues"
            ) in caplog.text
    (tmp_path / "siege-track.ogg").write_bytes(b"OggS")
    assert missing_music(read_profile(tmp_path / "siege.toml")) == []


# --- the core ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cut", [None, 20.0, 70.0])
def test_the_countdown_gives_the_same_records_prompts_and_flashes_its_cues_marked(
        cut: float | None) -> None:
    """With a pause and its resume (and a cut in the running countdown, or in its pause),
    the track's play gives, at the same times, the effects of plain music on the gong: each
    cue of the countdown marked as the track's, its music the track from its offset."""
    track = played(SIEGE, MOVES, cut)
    plain = played(PLAIN, MOVES, cut)
    assert [(t, unmarked(e)) for t, e in track] == plain
    cues = [(t, e.sound.value) for t, e in track if isinstance(e, PlaySound)]
    assert [(t, e.sound.value) for t, e in plain if isinstance(e, PlaySound)] == cues
    assert all(e.track == TRACK for _, e in track if isinstance(e, PlaySound))
    # the cut at 20 s comes back from its save at 0:12 (16 s), at 120 s; the one at 70 s
    # (paused from 30 s to 50 s) from its save at 0:41 (65 s), at 170 s
    after = {None: (64.0, 104.0), 20.0: (168.0, 208.0), 70.0: (64.0, 209.0)}[cut]
    end = {None: 144.0, 20.0: 248.0, 70.0: 249.0}[cut]
    assert cues == [(0.0, "tick"), (2.0, "tick"), (3.0, "tick"), (4.0, "gong"),  # 1st: the press
                    (after[0], "cry"), (after[1], "gong"), (end - 2, "tick"), (end - 1, "tick"),
                    (end, "gong")]
    flashes = [e.sound.value for _, e in track if isinstance(e, FlashCue)]
    assert flashes == ["gong", "cry", "gong", "gong"]  # the start, the calls, the end
    musics = [e for _, e in track if isinstance(e, Music)]
    assert musics and all(e.path == TRACK and not e.loop and e.track_offset == 12.5
                          for e in musics)


def test_a_special_rounds_sound_after_the_track_is_the_box_s() -> None:
    """Only the countdown's cues are the track's: what follows its end sounds as ever."""
    text = SIEGE.replace("count = 1", "count = 2") + (
        '\n[[special]]\nid = "raid"\nlabel = "Raid"\nafter = [1]\nsound = "cry"\n')
    effects = [e for _, e in played(text, [(150.0, None)])]
    sounds = [(e.sound.value, e.track) for e in effects if isinstance(e, PlaySound)]
    assert sounds[-2:] == [("gong", TRACK), ("cry", "")]


# --- the sound --------------------------------------------------------------------------------


def heard(effects: list[tuple[float, PlayEffect]], plan: AudioPlan) -> list[tuple[float, Any]]:
    return [(t, c) for t, e in effects for c in plan.apply(e, t)]


@pytest.mark.parametrize("cut", [None, 20.0, 70.0])
def test_the_track_plays_from_its_offset_at_the_running_time_and_no_cue_sounds(
        cut: float | None) -> None:
    """The sound card's commands: the track started at the gong at its offset, paused and
    resumed in place; after a cut (a new box, a new plan) started at offset + running time;
    no cue of the box at all."""
    effects = played(SIEGE, MOVES, cut)
    before = [(t, e) for t, e in effects if cut is None or t < cut]
    after = [(t, e) for t, e in effects if cut is not None and t >= cut]
    commands = heard(before, AudioPlan(AudioConfig(), "/box/sounds"))
    commands += heard(after, AudioPlan(AudioConfig(), "/box/sounds"))
    assert not [c for _, c in commands if isinstance(c, PlayCue)]  # the track holds them
    starts = [(t, c.path, c.position, c.loop) for t, c in commands
              if isinstance(c, StartMusic)]
    assert starts[0] == (4.0, TRACK, 12.5, False)  # at the gong: running time 0
    if cut is None:
        assert len(starts) == 1 and [type(c) for _, c in commands if isinstance(
            c, PauseMusic | ResumeMusic)] == [PauseMusic, ResumeMusic]  # held in place
    elif cut == 20.0:  # its last save at 0:12 (16 s), back at 120 s: there in the file
        assert starts[1:] == [(120.0, TRACK, 12.5 + 12.0, False)]
    else:  # paused 0:26 from 30 s to 50 s; its last save at 0:41 (65 s), back at 170 s
        assert starts[1:] == [(170.0, TRACK, 12.5 + 41.0, False)]
    stops = [(t, c.fade_s) for t, c in commands if isinstance(c, StopMusic)]
    assert len(stops) == 1 and stops[0][1] == 5.0  # its own end gong rings out


def test_after_a_power_cut_the_track_is_at_offset_plus_running_time() -> None:
    profile = siege()
    play, _ = to_action(new_play(profile, PLAYERS), 0.0)
    play, _ = step(play, Tick(), 4.0)  # the start gong
    back, effects = restore(snapshot(play, 30.0), profile, PLAYERS, 500.0)
    running = countdown_elapsed(back, 500.0)
    assert running == pytest.approx(26.0)
    plan = AudioPlan(AudioConfig(), "/box/sounds")  # a new box
    (again,) = [c for e in effects for c in plan.apply(e, 500.0)
                if isinstance(c, StartMusic)]
    assert (again.path, again.position, again.loop) == (TRACK, 12.5 + 26.0, False)


def test_a_track_that_cannot_be_read_leaves_every_cue_to_the_box() -> None:
    effects = played(SIEGE, MOVES)
    plan = AudioPlan(AudioConfig(), "/box/sounds")
    prepare = prepare_sounds(siege())  # when the game is set up or comes back
    assert prepare == (PrepareSounds((), (TRACK,)),)
    assert [c for c in plan.apply(prepare[0], 0.0)] == [CheckMusic(TRACK)]
    plan.file_failed(TRACK, 0.5)  # the adapter's check: it cannot be read
    commands = heard(effects, plan)
    cues = [(t, c.sound.value) for t, c in commands if isinstance(c, PlayCue)]
    assert cues == [(t, e.sound.value) for t, e in effects if isinstance(e, PlaySound)]
    assert len(cues) == 9
    assert not [c for _, c in commands if isinstance(c, StartMusic) and c.path == TRACK]


def test_the_sound_card_checks_the_track_at_setup_and_then_sounds_the_cues(
        tmp_path: Path) -> None:
    """The adapter: the track checked on the worker when the game is set up; unreadable,
    the start gong sounds from the box; readable, it does not. (The gong is asked for once
    the check's outcome is known: its failure noted by the plan, or the check returned.)"""
    import threading

    from erabox.adapters.mixer import FileProblem
    from test_audio_threads import HANG_GUARD_S, SlowMixer

    class Missing(SlowMixer):
        def check(self, path: str) -> None:
            self._note(f"check {Path(path).name}")
            raise FileProblem("No such file or directory")

    for mixer, sounds in ((Missing(), True), (SlowMixer(), False)):
        mixer.release.set()
        audio = Audio(AudioConfig(), tmp_path, mixer=mixer, clock=lambda: 100.0)
        failed = threading.Event()
        plan = audio._plan
        noted = plan.file_failed

        def failure_noted(path: str, now: float, noted: Any = noted, failed: Any = failed
                          ) -> Any:
            try:
                return noted(path, now)
            finally:
                failed.set()

        plan.file_failed = failure_noted  # type: ignore[method-assign]
        try:
            audio.apply([PrepareSounds((), (TRACK,))], 100.0)
            mixer.wait_for("check siege-track.ogg" if sounds else "check")
            if sounds:  # the worker noted the failure (under the plan's lock) before the gong
                assert failed.wait(HANG_GUARD_S)
            audio.apply([PlaySound(Sound.GONG, 0, track=TRACK)], 100.0)
        finally:
            audio.close()
        assert ("play_cue gong" in [c for c, _ in mixer.calls]) is sounds


# --- a track per era --------------------------------------------------------------------------

ERAS = SIEGE.replace("[[phase]]\nid = \"prepare\"", """[[era]]
track = "dawn-track.ogg"
track_offset_s = 3

[[era]]

[[phase]]
id = "prepare\"""", 1).replace('track = "siege-track.ogg"\ntrack_offset_s = 12.5',
                              'music = "action.ogg"\nmusic_from = "gong"')


def test_each_era_plays_its_own_track_and_an_era_without_one_its_music_under_the_cues() -> None:
    """`[[era]] track`, as Time of Empires' `[era1]` `music_kind = "track"`: in that era the
    phase's music on the gong is the era's track, its cues held; the next era plays the
    phase's own music, the box sounding its cues."""
    profile = siege(ERAS)
    assert profile.eras[0].track == PhaseTrack("/games/dawn-track.ogg", 3.0)
    assert profile.eras[1].track is None
    assert prepare_sounds(profile) == (PrepareSounds((), ("/games/dawn-track.ogg",)),)
    play, effects = new_play(profile, PLAYERS), []
    for start in (0.0, 200.0):
        play, begun = to_action(play, start)
        effects += begun
        for t in range(int(start) + 2, int(start) + 130):
            play, more = step(play, Tick(), float(t))
            effects += more
    plan = AudioPlan(AudioConfig(), "/box/sounds")
    commands = [c for e in effects for c in plan.apply(e, 0.0)]
    starts = [(c.path, c.position, c.loop) for c in commands if isinstance(c, StartMusic)]
    assert starts == [("/games/dawn-track.ogg", 3.0, False), ("/games/action.ogg", 0.0, True)]
    marks = [e.track for e in effects if isinstance(e, PlaySound)]
    assert marks == ["/games/dawn-track.ogg"] * 9 + [""] * 9
    assert [c.sound.value for c in commands if isinstance(c, PlayCue)] == [
        "tick", "tick", "tick", "gong", "cry", "gong", "tick", "tick", "gong"]  # era 2's


@pytest.mark.parametrize(("old", "new", "key", "line", "says"), [
    ('track = "dawn-track.ogg"', 'track = "dawn-track.ogg"\nmusic = "m.ogg"', "era[1].track",
     15, "its music or its track, not both"),
    ("track_offset_s = 3", "track_offset_s = -3", "era[1].track_offset_s", 16,
     "seconds into the track file"),
    ('music = "action.ogg"\nmusic_from = "gong"', 'music = "action.ogg"', "era[1].track", 15,
     "no [[phase]] has a track or music_from = \"gong\""),
])
def test_a_bad_era_track_names_the_file_line_and_key(old: str, new: str, key: str, line: int,
                                                     says: str) -> None:
    text = ERAS.replace(old, new, 1)
    assert text != ERAS
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "games/siege.toml")
    message = str(caught.value)
    assert message.startswith(f"games/siege.toml:{line}: key '{key}'"), message
    assert says in message, message


# --- Time of Empires' round file against its era engine, each playing a track -----------------


class Listened:
    """The box's sound as the audio adapter would hear it: each effect through an
    `AudioPlan`, its commands kept with their time (no mixer)."""

    def __init__(self, config: AudioConfig) -> None:
        self.plan = AudioPlan(config, "/box/sounds")
        self.commands: list[tuple[float, Any]] = []

    def apply(self, effects: Any, now: float) -> None:
        for effect in effects:
            self.commands += [(now, c) for c in self.plan.apply(effect, now)]


def listened(config: Any, script: str, profile: Any = None
             ) -> tuple[list[dict[str, Any]], Listened]:
    from erabox.core.script import parse_script
    from erabox.run.simulate import Simulation

    lines: list[dict[str, Any]] = []
    sound = Listened(config.audio)

    class Box(Simulation):
        def _driver(self, config: Any, profile: Any) -> Any:
            driver = super()._driver(config, profile)
            driver.audio = cast(Any, sound)  # apply() is all the driver calls here
            return driver

    Box(config, lines.append, profile=profile).run(parse_script(script), 3000.0)
    return lines, sound


def test_time_of_empires_round_file_plays_each_era_s_track_as_the_era_engine(
        tmp_path: Path) -> None:
    """Each real-time era's own track (`[[era]] track` in the round file, `[eraN]
    music_kind = "track"` in the era engine's config): the same prompts at the same times,
    each track started at the era's start gong at its offset and faded at its end gong at the
    same instants, and no cue of the box in either."""
    from erabox.core.config import Config
    from erabox.files.config import load_config
    from test_one_engine_toe import (
        ERA_STARTS,
        own_realtime_script,
        rounds_realtime_script,
    )
    from test_one_engine_toe import PLAYERS as FOUR
    from test_one_engine_toe import REALTIME as ROUNDS_FILE

    tracks = {n: str(tmp_path / f"era{n}-track.ogg") for n in (1, 2, 3)}
    config_text = f"players = {list(FOUR)!r}\n".replace("'", '"') + "".join(
        f'\n[era{n}]\nmusic = "{path}"\nmusic_kind = "track"\ntrack_offset_s = 7.5\n'
        for n, path in tracks.items())
    (tmp_path / "erabox.toml").write_text(config_text, encoding="utf-8")
    config = load_config(str(tmp_path / "erabox.toml"))
    text = ROUNDS_FILE.read_text(encoding="utf-8")
    for n, path in tracks.items():  # each [[era]] its own track
        old = f"numbers = {{ wonders = {n}, bonus_token_vp = {n} }}\n"
        assert old in text
        text = text.replace(old, f'{old}track = "{path}"\ntrack_offset_s = 7.5\n')
    profile = parse_profile(text, str(ROUNDS_FILE), base_dir=str(ROUNDS_FILE.parent))
    assert [e.track for e in profile.eras] == [PhaseTrack(p, 7.5) for p in tracks.values()]

    own, own_sound = listened(config, own_realtime_script())
    rounds, rounds_sound = listened(Config(players=FOUR, points_entry="steps"),  # per step
                                    rounds_realtime_script(), profile)

    def music(sound: Listened) -> list[tuple[float, Any]]:
        return [(t, (c.path, c.position, c.loop) if isinstance(c, StartMusic) else c)
                for t, c in sound.commands if isinstance(c, StartMusic | StopMusic)]

    assert music(rounds_sound) == music(own_sound) == [
        item for n, start in zip((1, 2, 3), ERA_STARTS, strict=True) for item in (
            (start + 5, (tracks[n], 7.5, False)), (start + 545, StopMusic(5.0)))]
    assert not [c for _, c in own_sound.commands if isinstance(c, PlayCue)]
    assert not [c for _, c in rounds_sound.commands if isinstance(c, PlayCue)]
    # the prompts and the cues' event lines, at the same times as without the tracks
    assert [e["t"] for e in rounds if e["type"] == "call"] == [
        e["t"] for e in own if e["type"] == "prompt"] == [
        start + 5 + at for start in ERA_STARTS for at in (180.0, 360.0)]
    sounds = [(e["t"], e["sound"]) for e in own
              if e["type"] == "sound" and e["sound"] in ("gong", "cry", "tick")]
    assert sounds and sounds == [(e["t"], e["sound"]) for e in rounds if e["type"] == "sound"
                                 and e["sound"] in ("gong", "cry", "tick")]
