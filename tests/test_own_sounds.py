"""A game profile's own sound files (docs/profiles.md): a real-time call's `sound` and a
special round's or event's `sound` may name a file of the profile's own instead of the box's
gong, cry or tick.

- The name is read relative to the profile's folder and checked like every key (file, line
  and key named; a name that is neither a cue nor a sound file's is an error, so a typo of
  "gong" is not taken for a missing file).
- A file that cannot be read does not refuse the profile: as a phase's missing music, it is
  said once in the log with its file, line and key, and the box's cry sounds instead.
- The core names the file in its `PlaySound` (the cry it stands for), the event log names it,
  and the game hands `PrepareSounds` to the sound when it is set up or comes back.
- The audio plan decodes the file ahead (`LoadSound`, on the worker) and plays it only once
  decoded; never decoded when the call is due (the cry stands in meanwhile).
- `erabox simulate` plays both formats with a short WAV written here with `wave`.
"""

from __future__ import annotations

import io
import json
import logging
import math
import struct
import threading
import wave
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from erabox.adapters.audio import Audio
from erabox.cli import main
from erabox.core.audio_plan import AudioPlan, LoadSound, PlayCue
from erabox.core.config import AudioConfig, Call, Config, RealtimeConfig
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.guide import guided
from erabox.core.machine import step
from erabox.core.model import (
    Button,
    FlashCue,
    Gesture,
    Input,
    PlaySound,
    PrepareSounds,
    Sound,
    Tick,
)
from erabox.core.own_game import own_numbers_of
from erabox.core.play import new_play, prepare_sounds
from erabox.core.profile import ProfileError, parse_profile
from erabox.files.games import missing_music, own_game_profile, own_rounds, read_profile
from erabox.run.driver import Driver, MemoryState

SHIPPED = Path(__file__).resolve().parent.parent / "device/erabox/games/time-of-empires.toml"
E_PRESS, E_HOLD = Input(Button.ERA, Gesture.PRESS), Input(Button.ERA, Gesture.HOLD)
N_PRESS = Input(Button.NEXT, Gesture.PRESS)


def write_horn(path: Path, seconds: float = 0.3, rate: int = 44100) -> Path:
    """A short rising horn as 16-bit stereo WAV, written with the standard library."""
    frames = bytearray()
    for n in range(int(seconds * rate)):
        t = n / rate
        value = int(0.4 * 32767 * math.sin(2 * math.pi * (600 + 1000 * t) * t))
        frames += struct.pack("<hh", value, value)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(bytes(frames))
    return path


FAIR = """\
[game]
id = "fair"
name = "Fair"

[players]
min = 2
max = 4

[rounds]
name = "Day"
count = 2

[[phase]]
id = "trade"
label = "Trade"

[[special]]
id = "parade"
label = "Parade"
after = [1]
sound = "horn.wav"

[[event]]
id = "fire"
label = "Fire"
sound = "/sounds/bell.ogg"
"""


CALL_LINE = SHIPPED.read_text(encoding="utf-8").splitlines().index("at_s = 180") + 2


def own_call(text: str, sound: str = "horn.wav") -> str:
    """The shipped Time of Empires profile with its first call's sound a file."""
    edited = text.replace('at_s = 180\nsound = "cry"', f'at_s = 180\nsound = "{sound}"', 1)
    assert edited != text
    return edited


# --- the format -------------------------------------------------------------------------------


def test_a_special_rounds_and_an_events_own_file_is_read_relative_to_the_profile() -> None:
    profile = parse_profile(FAIR, "/games/fair.toml", base_dir="/games")
    parade, fire = profile.specials[0], profile.events[0]
    assert parade.sound == "/games/horn.wav" and fire.sound == "/sounds/bell.ogg"
    assert parade.sound_key == "/games/fair.toml:21: key 'special[1].sound'"
    plain = parse_profile(FAIR.replace('"horn.wav"', '"cry"'), "fair.toml").specials[0]
    assert (plain.sound, plain.sound_key) == ("cry", "")


def test_a_real_time_calls_own_file_is_read_relative_to_the_profile() -> None:
    profile = parse_profile(own_call(SHIPPED.read_text(encoding="utf-8")), "games/toe.toml",
                            base_dir="/home/me/games")
    first, second = own_numbers_of(profile).realtime.calls  # as the config takes them
    assert first == Call(Sound.CRY, None, "/home/me/games/horn.wav")
    assert second == Call()
    assert profile.own_sounds() == (("/home/me/games/horn.wav",
                                     f"games/toe.toml:{CALL_LINE}: key 'phase[2].call[1].sound'"),)


@pytest.mark.parametrize(("sound", "key", "line"), [
    ('"bell"', "special[1].sound", 21),  # neither a cue nor a sound file's name
    ('"gongg"', "special[1].sound", 21),
    ('"horn.txt"', "special[1].sound", 21),
    ("3", "special[1].sound", 21),
    ('"tick"', "special[1].sound", 21),  # the round format's cues: none, gong, cry
])
def test_a_bad_own_sound_names_the_file_line_and_key(sound: str, key: str, line: int) -> None:
    text = FAIR.replace('"horn.wav"', sound)
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "games/fair.toml")
    message = str(caught.value)
    assert message.startswith(f"games/fair.toml:{line}: key '{key}': expected one of 'none', "
                              "'gong', 'cry', or a sound file's name (.ogg, .wav, .flac, "
                              ".mp3)"), message


def test_a_bad_call_sound_names_the_file_line_and_key() -> None:
    with pytest.raises(ProfileError) as caught:
        parse_profile(own_call(SHIPPED.read_text(encoding="utf-8"), "horn"), "toe.toml")
    assert str(caught.value).startswith(f"toe.toml:{CALL_LINE}: key 'phase[2].call[1].sound': "
                                        "expected one of 'gong', 'cry', 'tick', or a sound "
                                        "file's name")


def test_a_missing_own_file_is_said_with_its_key_and_the_box_goes_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "fair.toml").write_text(FAIR, encoding="utf-8")
    write_horn(tmp_path / "horn.wav")
    profile = read_profile(tmp_path / "fair.toml")
    with caplog.at_level(logging.WARNING, logger="erabox"):
        assert missing_music(profile) == ["/sounds/bell.ogg"]
    assert (f"{tmp_path / 'fair.toml'}:26: key 'event[1].sound': the sound file "
            "/sounds/bell.ogg does not exist; the box's cry sounds instead") in caplog.text
    assert "horn.wav" not in caplog.text


def test_a_missing_call_file_of_the_own_game_is_said_and_the_box_starts(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "time-of-empires.toml").write_text(own_call(SHIPPED.read_text(
        encoding="utf-8")), encoding="utf-8")
    own = own_game_profile("", [tmp_path])
    assert own is not None and own.phases[1].calls[0].sound == str(tmp_path / "horn.wav")
    with caplog.at_level(logging.WARNING, logger="erabox"):
        assert missing_music(own) == [str(tmp_path / "horn.wav")]  # as the box plays it
    assert (f"time-of-empires.toml:{CALL_LINE}: key 'phase[2].call[1].sound': the sound file "
            f"{tmp_path / 'horn.wav'} does not exist; the box's cry sounds instead"
            ) in caplog.text


# --- the core ---------------------------------------------------------------------------------


def test_the_special_round_and_the_event_play_their_own_files() -> None:
    profile = parse_profile(FAIR, "/games/fair.toml", base_dir="/games")
    assert prepare_sounds(profile) == (PrepareSounds(("/games/horn.wav", "/sounds/bell.ogg")),)
    assert prepare_sounds(parse_profile(FAIR.replace('"horn.wav"', '"cry"').replace(
        '"/sounds/bell.ogg"', '"none"'))) == ()
    play = new_play(profile, ("red", "blue"))
    play, _ = step(play, E_PRESS, 0.0)
    play, effects = step(play, E_HOLD, 1.0)  # the fire
    assert [e for e in effects if isinstance(e, PlaySound | FlashCue)] == [
        PlaySound(Sound.CRY, 0, "/sounds/bell.ogg"), FlashCue(Sound.CRY)]
    play, _ = step(play, N_PRESS, 2.0)  # back to day 1
    play, effects = step(play, N_PRESS, 3.0)  # the parade after day 1
    assert [e for e in effects if isinstance(e, PlaySound)] == [
        PlaySound(Sound.CRY, 0, "/games/horn.wav")]


def test_the_games_hand_their_own_sounds_to_the_sound_when_set_up_and_restored(
        tmp_path: Path) -> None:
    heard: list[object] = []

    class Sound_:
        problem = None

        def apply(self, effects: Any, now: float) -> None:
            heard.extend(e for e in effects if isinstance(e, PrepareSounds | PlaySound))

    profile = parse_profile(FAIR, "/games/fair.toml", base_dir="/games")
    state = MemoryState()
    driver = Driver(Config(players=("red", "blue")), profile=profile, state=state,
                    audio=Sound_())  # type: ignore[arg-type]
    driver.start(0.0)
    driver.step(E_PRESS, 1.0)
    driver.power_cut(2.0)
    ready = PrepareSounds(("/games/horn.wav", "/sounds/bell.ogg"))
    assert heard == [ready, PlaySound(Sound.GONG, 0), ready]  # set up; the start; restored
    # Time of Empires (its round file, the config's calls): its setup, and a game restored
    config = Config(realtime=RealtimeConfig(calls=(Call(file="/g/horn.wav"), Call())))
    box = time_of_empires(config)
    game, effects = box.fresh(0.0, 0)
    assert PrepareSounds(("/g/horn.wav",)) in effects
    assert PrepareSounds(("/g/horn.wav",)) not in time_of_empires(Config()).fresh(0.0, 0)[1]
    _, effects = box.restore(box.snapshot(game, 0.0), 10.0)
    assert PrepareSounds(("/g/horn.wav",)) in effects


def time_of_empires(config: Config) -> ProfileEngine:
    """Time of Empires' round file as the driver sets it up for `config`."""
    return ProfileEngine(configured(guided(own_rounds(), config.guide), config), config)


def test_a_real_time_call_names_its_own_file_when_it_sounds() -> None:
    config = Config(guide=False, realtime=RealtimeConfig(
        length_s=60.0, scholar_cues_s=(20.0, 40.0), calls=(Call(file="/g/horn.wav"), Call()),
        lead_in_s=0, final_ticks_s=0))
    box = time_of_empires(config)
    sounds: list[PlaySound] = []
    game, _ = box.step(box.fresh(0.0, 0)[0], E_PRESS, 0.0)
    for t in (19.5, 20.0, 39.5, 40.0):
        game, effects = box.step(game, Tick(), t)
        sounds += [e for e in effects if isinstance(e, PlaySound)]
    assert sounds == [PlaySound(Sound.CRY, 1, "/g/horn.wav"), PlaySound(Sound.CRY, 1)]


# --- the audio plan and adapter ---------------------------------------------------------------


def test_the_plan_decodes_ahead_and_plays_the_file_only_once_decoded() -> None:
    plan = AudioPlan(AudioConfig(duck_db=12.0), "/box/sounds")
    plan.cue_loaded(Sound.CRY, 0.5)
    horn = PlaySound(Sound.CRY, 1, "/g/horn.wav")
    assert plan.apply(PrepareSounds(("/g/horn.wav", "/g/horn.wav")), 0.0) == [
        LoadSound("/g/horn.wav")]
    assert plan.apply(PrepareSounds(("/g/horn.wav",)), 1.0) == []  # asked for once
    # called for before it is decoded: the cry stands in, nothing is decoded now
    assert plan.apply(horn, 2.0)[0] == PlayCue(Sound.CRY)
    plan.sound_loaded("/g/horn.wav", 2.0)
    assert plan.apply(horn, 10.0)[0] == PlayCue(Sound.CRY, "/g/horn.wav")
    assert plan.wake_at(10.0) is not None  # it ducks the music as long as it is loud
    # the device lost and back: decoded again
    plan.lost()
    assert plan.apply(horn, 20.0)[0] == PlayCue(Sound.CRY)
    assert LoadSound("/g/horn.wav") in plan.reopened(21.0)
    plan.file_failed("/g/horn.wav", 22.0)  # it cannot be read: never again
    assert plan.apply(horn, 23.0)[0] == PlayCue(Sound.CRY)
    assert LoadSound("/g/horn.wav") not in plan.reopened(24.0)


class Recorder:
    """A mixer that records each call with its thread."""

    def __init__(self, bad: str = "") -> None:
        self.calls: list[tuple[str, str]] = []
        self.bad = bad
        self.loaded = threading.Event()

    def _note(self, call: str) -> None:
        self.calls.append((call, threading.current_thread().name))

    def open(self, config: AudioConfig) -> str:
        return "a recording mixer"

    def close(self) -> None:
        pass

    def load_cue(self, sound: Sound, path: str) -> float:
        return 0.5

    def load_sound(self, path: str) -> float:
        from erabox.adapters.mixer import FileProblem

        self._note(f"load_sound {Path(path).name}")
        self.loaded.set()
        if path == self.bad:
            raise FileProblem("No such file or directory")
        return 0.3

    def play_cue(self, sound: Sound, file: str = "") -> None:
        self._note(f"play_cue {sound.value} {Path(file).name}".strip())

    def set_cue_gain(self, gain: float) -> None:
        pass

    def check(self, path: str) -> None:
        pass

    def prepare(self, path: str, start: float | None = None, loop: bool = False) -> None:
        pass

    def play_music(self, path: str, position: float, loop: bool, gain: float) -> bool:
        return True

    def pause_music(self) -> None:
        pass

    def resume_music(self) -> None:
        pass

    def stop_music(self, fade_s: float) -> None:
        pass

    def set_music_gain(self, gain: float) -> None:
        pass


def wait_decoded(audio: Audio, mixer: Recorder, path: str) -> None:
    assert mixer.loaded.wait(30.0)
    for _ in range(3000):  # the plan hears of it just after the mixer decoded it
        if path in audio.sounds_loaded:
            return
        threading.Event().wait(0.01)
    raise AssertionError(f"{path} was not decoded")


def test_the_adapter_decodes_on_its_worker_and_plays_on_the_callers_thread(
        tmp_path: Path) -> None:
    mixer = Recorder()
    audio = Audio(AudioConfig(), tmp_path, mixer=mixer, clock=lambda: 5.0)
    try:
        audio.apply([PrepareSounds(("/g/horn.wav",))], 5.0)
        wait_decoded(audio, mixer, "/g/horn.wav")
        audio.apply([PlaySound(Sound.CRY, 1, "/g/horn.wav")], 5.0)
    finally:
        audio.close()
    here = threading.current_thread().name
    assert ("load_sound horn.wav", "erabox-audio") in mixer.calls
    assert ("play_cue cry horn.wav", here) in mixer.calls


def test_a_file_the_mixer_cannot_decode_is_said_once_and_the_cry_plays(tmp_path: Path) -> None:
    lines: list[str] = []

    class Heard(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    log = logging.getLogger("erabox.test.own_sounds")
    log.addHandler(Heard())
    mixer = Recorder(bad="/g/horn.wav")
    audio = Audio(AudioConfig(), tmp_path, mixer=mixer, clock=lambda: 5.0, log=log)
    try:
        audio.apply([PrepareSounds(("/g/horn.wav",))], 5.0)
        assert mixer.loaded.wait(30.0)
        for _ in range(3000):  # the worker says so just after the mixer failed
            if lines:
                break
            threading.Event().wait(0.01)
        audio.apply([PlaySound(Sound.CRY, 1, "/g/horn.wav")], 5.0)
        audio.apply([PrepareSounds(("/g/horn.wav",))], 6.0)  # not tried again
    finally:
        audio.close()
    assert [c for c, _ in mixer.calls] == ["load_sound horn.wav", "play_cue cry"]
    assert lines == ["cannot play sound file /g/horn.wav: No such file or directory; the box's "
                     "cue plays instead"]


# --- erabox simulate ------------------------------------------------------------------------


def simulate(args: list[str]) -> tuple[int, list[dict[str, Any]], str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["simulate", *args])
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_simulate_game_names_the_special_rounds_own_sound(tmp_path: Path) -> None:
    (tmp_path / "fair.toml").write_text(FAIR.replace('"/sounds/bell.ogg"', '"bell.wav"'),
                                        encoding="utf-8")
    write_horn(tmp_path / "horn.wav")
    write_horn(tmp_path / "bell.wav", 0.1)
    (tmp_path / "script.txt").write_text("0 era press\n5 era hold\n6 next press\n"
                                         "7 next press\n", encoding="utf-8")
    code, events, err = simulate(["--game", str(tmp_path / "fair.toml"), "--script",
                                  str(tmp_path / "script.txt"), "--players", "red,blue"])
    assert code == 0, err
    sounds = [(e["t"], e["sound"], e.get("file")) for e in events if e["type"] == "sound"]
    assert sounds == [(0.0, "gong", None), (5.0, "cry", "bell.wav"), (7.0, "cry", "horn.wav")]


def test_simulate_plays_a_calls_own_sound_at_its_time(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "time-of-empires.toml").write_text(
        own_call(SHIPPED.read_text(encoding="utf-8")), encoding="utf-8")
    write_horn(tmp_path / "games" / "horn.wav")
    (tmp_path / "erabox.toml").write_text('language = "en"\n', encoding="utf-8")
    (tmp_path / "script.txt").write_text("0 era press\n", encoding="utf-8")
    code, events, err = simulate(["--config", str(tmp_path / "erabox.toml"), "--script",
                                  str(tmp_path / "script.txt"), "--until", "600"])
    assert code == 0, err
    calls = [(e["t"], e["sound"], e.get("file")) for e in events
             if e["type"] == "sound" and e["sound"] in ("gong", "cry")]
    # the 5 s lead-in: the horn at 3:00 of running time, the box's cry at 6:00
    assert calls == [(5.0, "gong", None), (185.0, "cry", "horn.wav"), (365.0, "cry", None),
                     (545.0, "gong", None)]
    assert "horn.wav" not in err  # it is there: nothing said
