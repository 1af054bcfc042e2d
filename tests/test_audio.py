"""The audio adapter on pygame's real mixer, recorded through SDL's `disk` driver.

Each scenario runs in a fresh Python process (this file, run as a script): SDL's audio driver is
chosen from the environment when the mixer first opens, and the disk driver writes everything
the mixer plays to `SDL_DISKAUDIOFILE` as raw S16 stereo. The scenario waits on that stream (the
file growing) rather than on the wall clock, so the stream position of every effect is known
even on a busy machine. The test then analyses the recording with `audio_analysis`.

Fixtures are made here with numpy (noise loops whose every position is recognisable, chirps as
cues). Cues are written as WAV and music as FLAC (lossless, and SDL_mixer 2.6 streams and seeks
it to the sample, where it seeks WAV music only to whole seconds): SDL_mixer recognises both by
their headers even in a file named `era1.ogg`, so the adapter's built-in names are kept.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile

import audio_analysis as aa

RATE = 44100
HERE = Path(__file__).resolve()
LOOP_S = 2.0

# --- fixtures: sounds with a known shape ------------------------------------------------------


def noise(seconds: float, seed: int, level: float = 0.12) -> np.ndarray:
    """Seeded noise: every position of it is recognisable by cross-correlation."""
    rng = np.random.default_rng(seed)
    mono = np.clip(rng.normal(0.0, level, int(seconds * RATE)), -0.9, 0.9)
    return np.stack([mono, mono], axis=1)


def tone(seconds: float, freq: float, level: float) -> np.ndarray:
    """A steady sine; with a whole number of cycles it loops without a seam."""
    t = np.arange(int(seconds * RATE)) / RATE
    mono = level * np.sin(2 * np.pi * freq * t)
    return np.stack([mono, mono], axis=1)


def chirp(seconds: float, f0: float, f1: float, level: float) -> np.ndarray:
    """A sweep with 5 ms fades: a cue with one sharp matched-filter peak."""
    n = int(seconds * RATE)
    t = np.arange(n) / RATE
    phase = 2 * np.pi * (f0 * t + (f1 - f0) * t**2 / (2 * seconds))
    envelope = np.minimum(1.0, np.minimum(np.arange(n), n - 1 - np.arange(n)) / (0.005 * RATE))
    mono = level * envelope * np.sin(phase)
    return np.stack([mono, mono], axis=1)


GONG = chirp(0.8, 800, 2500, 0.5)
CRY = chirp(0.5, 2500, 1200, 0.4)
TICK = chirp(0.03, 3000, 4000, 0.4)


def write_music(path: Path, samples: np.ndarray) -> Path:
    """Music as 16-bit FLAC: lossless, streamed and seeked to the sample by SDL_mixer."""
    soundfile.write(str(path), samples, RATE, format="FLAC", subtype="PCM_16")
    return path


def make_sounds(folder: Path, **music: np.ndarray) -> Path:
    """A sounds folder like the box's: cues and one noise loop per era (override by era1=...)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, samples in (("gong", GONG), ("cry", CRY), ("tick", TICK)):
        aa.write_wav(folder / f"{name}.ogg", samples, RATE)
    for era in (1, 2, 3):
        write_music(folder / f"era{era}.ogg", music.get(f"era{era}", noise(LOOP_S, seed=era)))
    return folder


def _read_wav(path: Path) -> np.ndarray:
    """A fixture as the mixer will play it (16-bit), for locating positions in it."""
    if path.read_bytes()[:4] == b"fLaC":
        data = soundfile.read(str(path), dtype="int16", always_2d=True)[0]
        return data.astype(np.float64) / aa.FULL_SCALE
    with wave.open(str(path), "rb") as wav:
        data = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
        return data.reshape(-1, wav.getnchannels()).astype(np.float64) / aa.FULL_SCALE


# --- the scenario runner ----------------------------------------------------------------------


@dataclass
class Recording:
    """What a scenario played and saw."""

    stream: np.ndarray  # (frames, 2) floats
    marks: dict[str, int]  # stream frame written just before each named step
    logs: list[tuple[str, str]]  # (level name, message)
    first_problem: str | None  # `problem` right after construction
    problem: str | None  # ... and at the end
    changes: list[str | None]  # `problem` at each on_change call
    attempts: int  # how many times the opener was called
    errors: list[str]  # exceptions that escaped apply()

    def logged(self, level: str) -> list[str]:
        return [message for name, message in self.logs if name == level]

    def seconds(self, frames: int) -> float:
        return frames / RATE


def record(
    tmp_path: Path, steps: list[list[Any]], *, sounds: Path | None = None,
    audio: dict[str, Any] | None = None, eras: list[dict[str, Any]] | None = None,
    driver: str = "disk", clock: float | None = None, opener_fails: int = 0,
    retry_s: float = 3600.0,
) -> Recording:
    """Run `steps` against a real `Audio` in a fresh process; return what it recorded."""
    sounds = sounds if sounds is not None else make_sounds(tmp_path / "sounds")
    out = tmp_path / "out.raw"
    spec = {
        "sounds": str(sounds), "audio": audio or {}, "eras": eras or [], "clock": clock,
        "opener_fails": opener_fails, "retry_s": retry_s, "steps": steps,
    }
    spec_file = tmp_path / "scenario.json"
    spec_file.write_text(json.dumps(spec))
    env = dict(os.environ, SDL_AUDIODRIVER=driver, SDL_DISKAUDIOFILE=str(out),
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("SDL_DISKAUDIODELAY", None)  # the default: one buffer's duration per period
    proc = subprocess.run([sys.executable, str(HERE), str(spec_file)], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    stream = aa.read_raw(out) if out.exists() else np.zeros((0, 2))
    return Recording(stream, result["marks"], [tuple(x) for x in result["logs"]],
                     result["first_problem"], result["problem"], result["changes"],
                     result["attempts"], result["errors"])


def _effect(spec: list[Any]) -> object:
    from erabox.core.model import (
        Mode,
        Music,
        MusicAction,
        PlaySound,
        PrepareMusic,
        PrepareSounds,
        SetVolume,
        Sound,
    )

    kind = spec[0]
    if kind == "music":
        return Music(MusicAction(f"music_{spec[1]}"), spec[2], Mode(spec[3]), float(spec[4]))
    if kind == "sound":  # ["sound", cue, era] or ["sound", cue, era, a profile's own file]
        return PlaySound(Sound(spec[1]), spec[2], *spec[3:])
    if kind == "prepare_sounds":
        return PrepareSounds(tuple(spec[1]))
    if kind == "volume":
        return SetVolume(spec[1])
    if kind == "prepare":
        return PrepareMusic(spec[1], Mode(spec[2]))
    raise ValueError(f"unknown effect {spec!r}")


def _scenario_main(spec_file: str) -> None:
    """Run one scenario (in its own process) and print its result as one JSON line."""
    import pygame

    from erabox.adapters.audio import Audio
    from erabox.adapters.mixer import open_mixer
    from erabox.core.config import AudioConfig, EraMusic

    spec = json.loads(Path(spec_file).read_text())
    eras = [EraMusic(**e) for e in spec["eras"]] + [EraMusic()] * 3
    config = AudioConfig(**spec["audio"], eras=(eras[0], eras[1], eras[2]))
    out = Path(os.environ.get("SDL_DISKAUDIOFILE", "out.raw"))

    logs: list[tuple[str, str]] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            logs.append((record.levelname, record.getMessage()))

    log = logging.getLogger("erabox.test.audio")
    log.setLevel(logging.DEBUG)
    log.propagate = False
    log.addHandler(Keep())

    now = [spec["clock"]]
    clock = (lambda: now[0]) if spec["clock"] is not None else time.monotonic
    attempts = [0]

    def opener(cfg: AudioConfig) -> None:
        attempts[0] += 1
        if attempts[0] <= spec["opener_fails"]:
            raise pygame.error("sound card not there yet (test)")
        open_mixer(cfg)

    def frames() -> int:
        return out.stat().st_size // 4 if out.exists() else 0

    def wait_until(condition: Any, what: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout} s for {what}")
            time.sleep(0.002)

    audio = Audio(config, Path(spec["sounds"]), log=log, clock=clock, opener=opener,
                  retry_s=spec["retry_s"])
    first_problem = audio.problem
    changes: list[str | None] = []
    audio.on_change = lambda: changes.append(audio.problem)
    marks: dict[str, int] = {}
    errors: list[str] = []
    for step in spec["steps"]:
        kind = step[0]
        if kind == "apply":  # ["apply", effect, mark name or None]
            if len(step) > 2 and step[2]:
                marks[step[2]] = frames()
            try:
                audio.apply([_effect(step[1])], clock())
            except Exception as exc:  # reported, so the test can say what escaped
                errors.append(repr(exc))
        elif kind == "repeat":  # ["repeat", n, [effect, ...]]
            for _ in range(step[1]):
                for effect in step[2]:
                    try:
                        audio.apply([_effect(effect)], clock())
                    except Exception as exc:
                        errors.append(repr(exc))
        elif kind == "wait":  # ["wait", seconds of recorded stream]
            target = frames() + int(step[1] * RATE)
            wait_until(lambda t=target: frames() >= t, f"{step[1]} s of recorded sound")
        elif kind == "wait_heard":  # ["wait_heard", seconds]: that much stream after the
            # first sound written from here on (the worker starts the music when it gets to it,
            # which on a busy machine may be well into the stream)
            begin = frames()

            def heard(seconds: float = step[1], begin: int = begin) -> bool:
                data = np.fromfile(out, dtype="<i2", offset=4 * begin) if out.exists() else []
                loud = np.flatnonzero(data)
                return len(loud) > 0 and len(data) // 2 >= loud[0] // 2 + int(seconds * RATE)

            wait_until(heard, f"{step[1]} s of recorded sound after the first")
        elif kind == "wait_attempts":  # ["wait_attempts", n]: the background retries ran
            wait_until(lambda n=step[1]: attempts[0] >= n, f"{step[1]} open attempts")
        elif kind == "advance":  # ["advance", seconds] on the fake clock
            now[0] += step[1]
        elif kind == "wait_prepared":  # ["wait_prepared", file name]: opened in the background
            def prepared(name: str = step[1]) -> bool:
                return audio.loaded is not None and Path(audio.loaded).name == name

            wait_until(prepared, f"{step[1]} to be opened in the background")
        elif kind == "wait_sound_loaded":  # ["wait_sound_loaded", path]: decoded ahead
            wait_until(lambda path=step[1]: path in audio.sounds_loaded, f"{step[1]} decoded")
        elif kind == "pull_device":  # the sound card goes away behind the adapter's back
            pygame.mixer.quit()
        elif kind == "retry_now":
            marks["retry"] = frames()
            audio.retry_now()
        else:
            raise ValueError(f"unknown step {step!r}")
    problem = audio.problem
    audio.close()
    print(json.dumps({"marks": marks, "logs": logs, "problem": problem, "changes": changes,
                      "first_problem": first_problem,
                      "attempts": attempts[0], "errors": errors}))


# --- pure helpers -----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["flac", "wav", "ogg"])
def test_a_music_files_length_is_read_from_its_headers(tmp_path: Path, kind: str) -> None:
    from erabox.adapters.mixer import stream_length

    samples = noise(1.25, seed=3)
    path = tmp_path / f"music.{kind}"
    if kind == "wav":
        aa.write_wav(path, samples, RATE)
    else:
        fmt = {"flac": ("FLAC", "PCM_16"), "ogg": ("OGG", "VORBIS")}[kind]
        soundfile.write(str(path), samples, RATE, format=fmt[0], subtype=fmt[1])
    assert stream_length(path) == pytest.approx(1.25, abs=1 / RATE)
    (tmp_path / "junk").write_bytes(b"not music at all")
    assert stream_length(tmp_path / "junk") is None
    assert stream_length(tmp_path / "nowhere") is None


def test_onset_and_locate_helpers_find_what_was_planted() -> None:
    loop = noise(1.0, seed=7)
    stream = np.zeros((3 * RATE, 2))
    stream[10_000:10_000 + 20_000] += loop[30_000 - 20_000 - 5_000:30_000 - 5_000] * 0.5
    stream[50_000:50_000 + len(GONG)] += GONG
    assert aa.find_cue(stream, GONG[:4410], RATE) == [50_000]
    position, score = aa.locate(stream[10_000:14_000], loop)
    assert position == 5_000 and score > 0.99
    # the chirp's fades begin and end on an exact zero sample
    assert aa.sound_spans(stream) == [aa.Span(10_000, 30_000),
                                      aa.Span(50_001, 50_000 + len(GONG) - 1)]


# --- the real mixer ---------------------------------------------------------------------------


def test_cue_sounds_at_once_ducks_the_music_and_a_tick_does_not_cut_it(tmp_path: Path) -> None:
    music = tone(1.0, 440, 0.3)  # 440 whole cycles: a seamless loop with one pitch
    sounds = make_sounds(tmp_path / "sounds", era1=music)
    rec = record(tmp_path, [
        ["apply", ["music", "start", 1, "realtime", 0.0], "start"],
        ["wait", 1.0],
        ["apply", ["sound", "gong", 1], "gong"],
        ["wait", 0.3],
        ["apply", ["sound", "tick", 1], "tick"],
        ["wait", 2.5],
    ], sounds=sounds, audio={"duck_db": 12.0, "volume": 0.8})
    assert not rec.errors and rec.problem is None
    start = aa.sound_spans(rec.stream)[0].start
    gong = aa.find_cue(rec.stream, GONG[:4410], RATE, threshold=0.8)
    tick = aa.find_cue(rec.stream, TICK, RATE, threshold=0.5)  # the gong rings under it
    assert len(gong) == 1 and len(tick) == 1
    # sound starts within a couple of buffers of the effect (frames already written are a
    # lower bound; stdio buffering and one mixer period make up the rest)
    for onset, mark in ((start, rec.marks["start"]), (gong[0], rec.marks["gong"]),
                        (tick[0], rec.marks["tick"])):
        assert 0 <= rec.seconds(onset - mark) < 0.25
    # the whole gong is there: its last 0.3 s follows its start 0.5 s later, after the tick
    tail = aa.find_cue(rec.stream, GONG[-13230:], RATE, threshold=0.8)
    assert tail == [gong[0] + len(GONG) - 13230]

    times, level = aa.tone_level_db(rec.stream, RATE, 440.0)
    onset = gong[0] / RATE
    end = onset + len(GONG) / RATE

    def median(a: float, b: float) -> float:
        return float(np.median(level[(times >= a) & (times < b)]))

    before = median(onset - 0.6, onset - 0.05)
    assert before == pytest.approx(aa.to_db(0.3 * 0.8), abs=0.5)
    ducked = median(onset + 0.35, end - 0.05)
    assert before - ducked == pytest.approx(12.0, abs=1.0)
    after = median(end + 0.7, end + 1.2)
    assert after == pytest.approx(before, abs=0.5)
    # smooth, not a switch: the music takes tens of ms to go down and longer to come back
    down = times[(times > onset) & (level <= ducked + 1.0)][0] - onset
    up = times[(times > end) & (level >= before - 1.0)][0] - end
    assert 0.05 < down < 0.4
    assert 0.2 < up < 1.0
    assert up > down


def test_pause_keeps_the_position_to_the_sample(tmp_path: Path) -> None:
    sounds = make_sounds(tmp_path / "sounds")
    rec = record(tmp_path, [
        ["apply", ["music", "start", 1, "realtime", 0.0], "start"],
        ["wait", 1.2],
        ["apply", ["music", "pause", 1, "realtime", 1.2], "pause"],
        ["wait", 0.5],
        ["apply", ["music", "resume", 1, "realtime", 1.2], "resume"],
        ["wait", 1.5],  # runs across the loop's seam at 2.0 s
    ], sounds=sounds, clock=100.0)
    loop = _read_wav(sounds / "era1.ogg")
    frames = len(loop)
    spans = aa.sound_spans(rec.stream)
    assert len(spans) == 2, spans  # music, silence while paused, music
    first, second = spans
    seg = int(0.1 * RATE)
    # START at 0 starts at the beginning of the loop
    at_start, score = aa.locate(rec.stream[first.start:first.start + seg], loop)
    assert at_start == 0 and score > 0.99
    # where it was paused ...
    before, score_before = aa.locate(rec.stream[first.stop - seg:first.stop], loop)
    paused_at = (before + seg) % frames
    # ... is exactly where it goes on
    resumed_at, score_after = aa.locate(rec.stream[second.start:second.start + seg], loop)
    assert score_before > 0.99 and score_after > 0.99
    assert aa.loop_distance(resumed_at, paused_at, frames) <= 1
    # and the loop wraps without a seam: 1.5 s after resuming it is still the same loop
    later = second.start + int(1.2 * RATE)
    wrapped, score_wrap = aa.locate(rec.stream[later:later + seg], loop)
    assert score_wrap > 0.99
    assert aa.loop_distance(wrapped, (resumed_at + int(1.2 * RATE)) % frames, frames) <= 1
    # the pause was silent and about as long as the stream waited
    assert rec.seconds(second.start - first.stop) == pytest.approx(0.5, abs=0.15)


def test_start_while_paused_restarts_the_era_music_from_the_beginning(tmp_path: Path) -> None:
    """"Restart era" from a paused era: START must not stay paused nor go on where it was."""
    sounds = make_sounds(tmp_path / "sounds")
    rec = record(tmp_path, [
        ["apply", ["music", "start", 1, "realtime", 0.0]],
        ["wait", 0.4],
        ["apply", ["music", "pause", 1, "realtime", 0.4]],
        ["wait", 0.3],
        ["apply", ["music", "start", 1, "realtime", 0.0]],
        ["wait", 0.4],
    ], sounds=sounds, clock=100.0)
    spans = aa.sound_spans(rec.stream)
    assert len(spans) == 2, spans
    position, score = aa.locate(rec.stream[spans[1].start:spans[1].start + 4410],
                                _read_wav(sounds / "era1.ogg"))
    assert position == 0 and score > 0.99


def test_resume_with_nothing_loaded_starts_at_the_elapsed_position(tmp_path: Path) -> None:
    """After a restart the core sends RESUME with the saved running time: 4.25 s into a 2 s
    loop is 0.25 s into it. A clock that stands still makes the expected position exact."""
    sounds = make_sounds(tmp_path / "sounds")
    rec = record(tmp_path, [
        ["apply", ["music", "resume", 1, "realtime", 4.25], "resume"],
        ["wait", 0.5],
    ], sounds=sounds, clock=500.0)
    spans = aa.sound_spans(rec.stream)
    position, score = aa.locate(rec.stream[spans[0].start:spans[0].start + 4410],
                                _read_wav(sounds / "era1.ogg"))
    assert score > 0.99
    assert position == round(0.25 * RATE)


def test_track_plays_from_its_offset_without_the_box_cues(tmp_path: Path) -> None:
    sounds = make_sounds(tmp_path / "sounds")
    track = noise(6.0, seed=42)
    track_file = write_music(tmp_path / "era1-track.flac", track)
    era = {"music": str(track_file), "music_kind": "track", "track_offset_s": 1.5}
    rec = record(tmp_path, [
        ["apply", ["prepare", 1, "realtime"]],
        ["apply", ["sound", "tick", 1]],  # lead-in tick: the track has its own lead-in
        ["apply", ["sound", "gong", 1]],
        ["apply", ["music", "start", 1, "realtime", 0.0], "start"],
        ["wait", 0.6],
        ["apply", ["sound", "cry", 1]],
        ["wait", 0.3],
        ["apply", ["music", "pause", 1, "realtime", 0.9], "pause"],
        ["wait", 0.3],
        ["apply", ["music", "resume", 1, "realtime", 0.9], "resume"],
        ["wait", 0.6],
        # Era II intro with a track configured too: a timed track makes no sense there, so
        # the built-in loop and the box's own gong play
        ["apply", ["prepare", 2, "intro"]],
        ["apply", ["sound", "gong", 2], "era2"],
        ["apply", ["music", "start", 2, "intro", 0.0]],
        ["wait", 1.2],
    ], sounds=sounds, eras=[era, dict(era)], clock=100.0)  # a still clock: exact positions
    assert not rec.errors and not rec.logged("ERROR")
    spans = aa.sound_spans(rec.stream)
    seg = 4410
    start, score = aa.locate(rec.stream[spans[0].start:spans[0].start + seg], track,
                             circular=False)
    assert score > 0.99 and start == round(1.5 * RATE)
    # no gong, cry or tick of the box over the track; exactly one gong, for the intro era
    assert aa.find_cue(rec.stream, CRY[:4410], RATE, threshold=0.5) == []
    assert aa.find_cue(rec.stream, TICK, RATE, threshold=0.5) == []
    gongs = aa.find_cue(rec.stream, GONG[:4410], RATE, threshold=0.6)
    assert len(gongs) == 1 and gongs[0] >= rec.marks["era2"]
    # the track's pause keeps its position
    first, second = spans[0], spans[1]
    before, _ = aa.locate(rec.stream[first.stop - seg:first.stop], track, circular=False)
    after, score_after = aa.locate(rec.stream[second.start:second.start + seg], track,
                                   circular=False)
    assert score_after > 0.99 and abs(after - (before + seg)) <= 2
    # Era II intro: the built-in loop plays (from its beginning, with the gong); after the
    # gong has ended only the loop is heard
    after_gong = gongs[0] + len(GONG) + int(0.05 * RATE)
    position, score_loop = aa.locate(rec.stream[after_gong:after_gong + seg],
                                     _read_wav(sounds / "era2.ogg"))
    assert score_loop > 0.95
    # The loop is started by the audio worker when it gets to it (a busy machine delays it by
    # any amount of stream): from its beginning, it began `position` frames before the probe,
    # which must be after the era's gong was asked for (a loop started further in would seem
    # to have begun earlier than that).
    assert rec.marks["era2"] <= after_gong - position, (rec.marks["era2"], after_gong, position)


@pytest.mark.parametrize("kind", ["flac", "wav"])
def test_track_resumes_after_a_restart_at_offset_plus_elapsed(tmp_path: Path, kind: str) -> None:
    """RESUME with nothing loaded (after a restart), then a pause. SDL_mixer 2.6 seeks WAV music
    only to whole seconds, so the WAV track is asked for a whole-second position."""
    track = noise(6.0, seed=9)
    if kind == "wav":
        track_file = aa.write_wav(tmp_path / "track.wav", track, RATE)
        offset, elapsed = 1.0, 1.0
    else:
        track_file = write_music(tmp_path / "track.flac", track)
        offset, elapsed = 1.5, 2.25
    era = {"music": str(track_file), "music_kind": "track", "track_offset_s": offset}
    rec = record(tmp_path, [
        ["apply", ["prepare", 1, "realtime"]],
        ["apply", ["music", "resume", 1, "realtime", elapsed]],
        ["wait", 0.5],
        ["apply", ["music", "pause", 1, "realtime", elapsed + 0.5]],
        ["wait", 0.3],
        ["apply", ["music", "resume", 1, "realtime", elapsed + 0.5]],
        ["wait", 0.4],
    ], eras=[era], clock=100.0)
    assert not rec.errors and not rec.logged("ERROR")
    spans = aa.sound_spans(rec.stream)
    assert len(spans) == 2, spans
    seg = 4410
    start, score = aa.locate(rec.stream[spans[0].start:spans[0].start + seg], track,
                             circular=False)
    assert score > 0.99 and abs(start - round((offset + elapsed) * RATE)) <= 2
    before, _ = aa.locate(rec.stream[spans[0].stop - seg:spans[0].stop], track, circular=False)
    after, score_after = aa.locate(rec.stream[spans[1].start:spans[1].start + seg], track,
                                   circular=False)
    assert score_after > 0.99 and abs(after - (before + seg)) <= 2


def test_a_realtime_era_streams_its_score_at_running_time_with_the_box_cues_on_top(
    tmp_path: Path,
) -> None:
    """A through-composed score (`era1_score.ogg`, here 30 s of noise) is played positioned at
    the era's running time, past any loop length: after a restart RESUME at 21.25 s starts it
    21.25 s in, a pause holds it, the box's own cry sounds over it, and an intro era still
    loops `era1.ogg`."""
    sounds = make_sounds(tmp_path / "sounds")
    score = noise(30.0, seed=11)
    write_music(sounds / "era1_score.ogg", score)
    rec = record(tmp_path, [
        ["apply", ["prepare", 1, "realtime"]],
        ["apply", ["music", "resume", 1, "realtime", 21.25]],
        ["wait", 0.5],
        ["apply", ["sound", "cry", 1], "cry"],
        ["wait", 0.6],
        ["apply", ["music", "pause", 1, "realtime", 21.25]],
        ["wait", 0.3],
        ["apply", ["music", "resume", 1, "realtime", 21.25]],
        ["wait", 0.4],
        ["apply", ["music", "stop", 1, "realtime", 21.25]],
        ["wait", 0.4],
        ["apply", ["prepare", 2, "intro"]],
        ["apply", ["music", "start", 2, "intro", 0.0], "intro"],
        ["wait", 0.4],
    ], sounds=sounds, clock=100.0)
    assert not rec.errors and not rec.logged("ERROR")
    spans = aa.sound_spans(rec.stream)
    seg = 4410
    start, score_match = aa.locate(rec.stream[spans[0].start:spans[0].start + seg], score,
                                   circular=False)
    assert score_match > 0.99 and start == round(21.25 * RATE)
    assert len(aa.find_cue(rec.stream, CRY[:4410], RATE, threshold=0.5)) == 1
    before, _ = aa.locate(rec.stream[spans[0].stop - seg:spans[0].stop], score, circular=False)
    after, after_match = aa.locate(rec.stream[spans[1].start:spans[1].start + seg], score,
                                   circular=False)
    assert after_match > 0.99 and abs(after - (before + seg)) <= 2
    intro = next(span for span in spans if span.start >= rec.marks["intro"])
    position, loop_match = aa.locate(rec.stream[intro.start:intro.start + seg],
                                     _read_wav(sounds / "era2.ogg"))
    assert loop_match > 0.99 and position == 0


def test_an_era_loop_is_opened_while_its_setup_screen_shows(tmp_path: Path) -> None:
    """The core's PrepareMusic (its setup screen opened) has the worker open that era's music
    ahead of the start gong, and START then plays it from its beginning."""
    sounds = make_sounds(tmp_path / "sounds")
    rec = record(tmp_path, [
        ["apply", ["prepare", 2, "realtime"]],
        ["wait_prepared", "era2.ogg"],
        ["apply", ["music", "start", 2, "realtime", 0.0]],
        ["wait", 0.3],
    ], sounds=sounds, clock=100.0)
    assert not rec.errors and not rec.logged("ERROR")
    start = aa.sound_spans(rec.stream)[0].start
    position, score = aa.locate(rec.stream[start:start + 4410], _read_wav(sounds / "era2.ogg"))
    assert position == 0 and score > 0.99


def test_unreadable_files_are_reported_once_and_the_built_in_plays(tmp_path: Path) -> None:
    sounds = make_sounds(tmp_path / "sounds")
    broken = tmp_path / "my-era1.ogg"
    broken.write_bytes(b"this is not music")
    missing = tmp_path / "nowhere" / "my-gong.ogg"
    rec = record(tmp_path, [
        ["apply", ["music", "start", 1, "realtime", 0.0], "start"],
        ["wait", 0.3],
        ["apply", ["sound", "gong", 1]],
        ["wait", 0.9],
        ["apply", ["sound", "gong", 1]],
        ["wait", 0.9],
        ["apply", ["music", "stop", 1, "realtime", 2.1]],
        ["apply", ["music", "start", 1, "realtime", 0.0]],
        ["wait", 0.3],
    ], sounds=sounds, audio={"gong": str(missing)}, eras=[{"music": str(broken)}], clock=100.0)
    assert not rec.errors and rec.problem is None
    errors = rec.logged("ERROR")
    assert len(errors) == 2, errors
    assert sum(str(missing) in e for e in errors) == 1
    assert sum(str(broken) in e for e in errors) == 1
    assert all("built-in" in e for e in errors)
    # the built-in gong played both times, over the built-in era loop
    assert len(aa.find_cue(rec.stream, GONG[:4410], RATE, threshold=0.6)) == 2
    start = aa.sound_spans(rec.stream)[0].start
    position, score = aa.locate(rec.stream[start:start + 4410], _read_wav(sounds / "era1.ogg"))
    assert position == 0 and score > 0.99


HORN = chirp(0.4, 500, 900, 0.4)  # a game profile's own sound


def test_a_profiles_own_sound_is_decoded_ahead_and_plays_at_once_on_its_call(
        tmp_path: Path) -> None:
    """Decoded when the game is set up (`PrepareSounds`), played on its call like the box's
    cue; one that cannot be read is said once and the cry it stands for plays."""
    sounds = make_sounds(tmp_path / "sounds")
    horn = aa.write_wav(tmp_path / "horn.wav", HORN, RATE)  # the stdlib's `wave`
    missing = tmp_path / "nowhere.ogg"
    rec = record(tmp_path, [
        ["apply", ["prepare_sounds", [str(horn), str(missing)]]],
        ["wait_sound_loaded", str(horn)],
        ["wait", 0.2],
        ["apply", ["sound", "cry", 1, str(horn)], "horn"],
        ["wait", 0.8],
        ["apply", ["sound", "cry", 1, str(missing)], "cry"],
        ["wait", 0.8],
    ], sounds=sounds, audio={"volume": 1.0})
    assert not rec.errors and rec.problem is None
    horns = aa.find_cue(rec.stream, HORN[:4410], RATE, threshold=0.8)
    cries = aa.find_cue(rec.stream, CRY[:4410], RATE, threshold=0.8)
    assert len(horns) == 1 and len(cries) == 1
    # as soon as the box's cues: within a couple of buffers of the effect
    assert 0 <= rec.seconds(horns[0] - rec.marks["horn"]) < 0.25
    assert 0 <= rec.seconds(cries[0] - rec.marks["cry"]) < 0.25
    errors = rec.logged("ERROR")
    assert len(errors) == 1 and errors[0].startswith(f"cannot play sound file {missing}: ")
    assert errors[0].endswith("; the box's cue plays instead"), errors


def test_no_sound_device_keeps_running_silent_with_one_warning(tmp_path: Path) -> None:
    burst = [["music", "start", 1, "realtime", 0.0], ["sound", "gong", 1],
             ["sound", "cry", 1], ["sound", "tick", 1], ["volume", 0.3],
             ["music", "pause", 1, "realtime", 5.0], ["music", "resume", 1, "realtime", 5.0],
             ["prepare", 2, "intro"], ["music", "stop", 1, "realtime", 9.0]]
    rec = record(tmp_path, [
        ["repeat", 200, burst],
        ["wait_attempts", 4],  # three background retries have failed meanwhile
        ["repeat", 10, burst],
    ], driver="nonexistent-driver", retry_s=0.05)
    assert rec.errors == []
    assert rec.problem is not None and rec.problem.startswith("no sound: ")
    warnings = rec.logged("WARNING")
    assert len(warnings) == 1 and warnings[0].startswith(rec.problem)
    assert rec.logged("ERROR") == []
    assert rec.first_problem == rec.problem
    assert rec.changes == []  # it never changed after the app first read it
    assert rec.attempts >= 4


def test_a_late_sound_card_brings_the_music_back_at_the_right_position(tmp_path: Path) -> None:
    """The first open fails; music starts (silently) at clock 100; the card appears 1.3 s later
    (the retry is triggered by hand): the loop must sound 1.3 s in, at the volume set before."""
    sounds = make_sounds(tmp_path / "sounds")
    rec = record(tmp_path, [
        ["apply", ["volume", 0.5]],
        ["apply", ["music", "start", 1, "realtime", 0.0]],
        ["apply", ["sound", "gong", 1]],  # lost: there is no device yet
        ["advance", 1.3],
        ["retry_now"],
        ["wait_heard", 0.5],
    ], sounds=sounds, clock=100.0, opener_fails=1)
    assert rec.errors == [] and rec.problem is None and rec.attempts == 2
    assert rec.first_problem is not None and rec.first_problem.startswith("no sound: ")
    assert rec.changes == [None]  # the app hears that sound is back
    assert len(rec.logged("WARNING")) == 1
    loop = _read_wav(sounds / "era1.ogg")
    start = aa.sound_spans(rec.stream)[0].start
    segment = rec.stream[start:start + 4410]
    position, score = aa.locate(segment, loop)
    assert score > 0.99 and position == round(1.3 * RATE)
    gain = np.linalg.norm(segment) / np.linalg.norm(loop[position:position + 4410])
    assert gain == pytest.approx(0.5, abs=0.02)
    assert aa.find_cue(rec.stream, GONG[:4410], RATE, threshold=0.5) == []


def test_a_device_lost_mid_game_gives_one_warning_and_comes_back(tmp_path: Path) -> None:
    """The mixer dies while the music plays (a USB card pulled): cues keep coming without an
    exception or more warnings; when the device opens again the loop is where the era is."""
    sounds = make_sounds(tmp_path / "sounds")
    rec = record(tmp_path, [
        ["apply", ["music", "start", 1, "realtime", 0.0]],
        ["wait", 0.3],
        ["pull_device"],
        ["repeat", 3, [["sound", "gong", 1], ["sound", "tick", 1], ["volume", 0.6]]],
        ["apply", ["music", "pause", 1, "realtime", 1.0]],
        ["apply", ["music", "resume", 1, "realtime", 1.0]],
        ["advance", 0.85],  # the era clock (still at 1.0 from the RESUME) runs on: 1.85 s
        ["retry_now"],  # the disk driver starts a new recording here
        ["wait_heard", 0.4],
    ], sounds=sounds, clock=100.0)
    assert rec.errors == [] and rec.problem is None
    warnings = rec.logged("WARNING")
    assert len(warnings) == 1
    lost, back = rec.changes  # the app was told twice: sound lost, sound back
    assert lost is not None and lost.startswith("no sound: the sound device stopped working")
    assert warnings[0].startswith(lost) and back is None
    loop = _read_wav(sounds / "era1.ogg")
    start = aa.sound_spans(rec.stream)[0].start
    segment = rec.stream[start:start + 4410]
    position, score = aa.locate(segment, loop)
    assert score > 0.99 and position == round(1.85 * RATE)
    # the volume set while there was no device holds
    gain = np.linalg.norm(segment) / np.linalg.norm(loop[position:position + 4410])
    assert gain == pytest.approx(0.6, abs=0.02)


PYGAME_WITHOUT_PKG_RESOURCES = """
import importlib.util, json, sys
sys.modules["numpy"] = None  # as the Pi service runs: no numpy in its venv
from erabox.adapters.mixer import load_pygame
pygame = load_pygame()
seen = {"pygame": "pygame" in sys.modules, "during": "pkg_resources" in sys.modules,
        "stub": pygame.pkgdata.resource_exists("pygame", "freesansbold.ttf") is False,
        "same": load_pygame() is pygame, "after": None}
if importlib.util.find_spec("pkg_resources") is not None:
    import pkg_resources
    seen["after"] = pkg_resources.__name__
print(json.dumps(seen))
"""


def test_pygame_loads_without_setuptools_pkg_resources() -> None:
    """pygame's `pkgdata` would import setuptools' `pkg_resources` (most of `import pygame`'s
    time as the Pi service runs it) only to find its default font: `load_pygame` keeps it out,
    and leaves it importable for anything after."""
    proc = subprocess.run([sys.executable, "-c", PYGAME_WITHOUT_PKG_RESOURCES],
                          capture_output=True, text=True, timeout=60, check=False,
                          env=dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["pygame"] and seen["same"] and seen["stub"]
    assert seen["during"] is False
    assert seen["after"] in (None, "pkg_resources")


if __name__ == "__main__":
    _scenario_main(sys.argv[1])
