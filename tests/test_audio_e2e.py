"""The whole box, heard: `erabox run` on SDL's `disk` audio driver through a short era.

SDL's disk driver is a fake sound card that paces itself with whole-millisecond sleeps (11 ms
for a 512-frame buffer that lasts 11.6 ms), so its stream runs a few per cent faster than real
time, which a real DAC does not. The test measures that clock (the recording's growth against
the monotonic clock, while it is written) and converts stream positions to real seconds.

The daemon runs as a real process (mock pins, no display) with the box's own gong and cry and,
as era music, a quiet 9 kHz loop: a pure tone nothing else in the mix has, so its level can be
followed under the cues. The recording is the mixer's real output; onsets are found in it by
matched filtering against the shipped cue files.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import soundfile

from audio_analysis import find_cue, read_raw, tone_level_db, write_wav
from erabox.adapters.mixer import loud_seconds

RATE = 44100
MUSIC_HZ = 9000.0
MUSIC_DBFS = -20.0
VOLUME = 0.8
DUCK_DB = 12.0
SOUNDS = Path(__file__).resolve().parent.parent / "sounds"

CONFIG = f"""
[realtime]
length_s = 6
scholar_cues_s = [2, 4]
lead_in_s = 0
final_ticks_s = 0

[audio]
volume = {VOLUME}
duck_db = {DUCK_DB}

[era1]
music = "music.wav"
"""


def cue_template(name: str, start: float, seconds: float) -> np.ndarray:
    """`seconds` of a shipped cue from `start` (decoded by libsndfile, not by the box)."""
    data, rate = soundfile.read(SOUNDS / f"{name}.ogg", dtype="float64")
    assert rate == RATE
    mono = data if data.ndim == 1 else data.mean(axis=1)
    return mono[int(start * RATE): int((start + seconds) * RATE)]


def onsets(audio: np.ndarray, name: str, start: float, seconds: float) -> list[int]:
    """Frames where the cue `name` begins, found by the part of it from `start` on.

    The end gong strikes while the second cry still sounds (a cry lasts 2.7 s, the cues are
    2 s apart), which masks its strike; its ring after the cry ends pins its start to the
    sample all the same, since the box plays the cue file unchanged.
    """
    found = find_cue(audio, cue_template(name, start, seconds), RATE, threshold=0.8,
                     min_gap_s=0.5)
    return [frame - int(start * RATE) for frame in found]


def measure_growth(path: Path, proc: subprocess.Popen[str]) -> list[tuple[float, int]]:
    """(monotonic time, frames in the recording) every 20 ms while the daemon runs: this is a
    measurement of the fake card's clock, not a wait for a result."""
    samples: list[tuple[float, int]] = []
    done = threading.Event()

    def watch() -> None:
        while proc.poll() is None and not done.is_set():
            with contextlib.suppress(FileNotFoundError):
                samples.append((time.monotonic(), path.stat().st_size // 4))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        proc.wait(timeout=90)
    finally:
        done.set()
        watcher.join()
    return samples


def device_rate(growth: list[tuple[float, int]]) -> float:
    """Frames the fake card consumes per real second: a line fitted to its growth."""
    moving = [(t, n) for t, n in growth if n > 0]
    moving = moving[: next((i for i in range(1, len(moving)) if moving[i][1] ==
                            moving[-1][1]), len(moving))]  # drop the tail after it stopped
    assert len(moving) > 50, "the recording did not grow while the daemon ran"
    t = np.array([m[0] for m in moving])
    n = np.array([m[1] for m in moving], dtype=float)
    slope, _ = np.polyfit(t, n, 1)
    return float(slope)


def test_gong_cry_cry_gong_on_time_with_music_ducked_under_each_cue(tmp_path: Path) -> None:
    # A 2 s loop holding a whole number of 9 kHz cycles: seamless.
    t = np.arange(2 * RATE) / RATE
    write_wav(tmp_path / "music.wav", 10 ** (MUSIC_DBFS / 20) * np.sin(2 * np.pi * MUSIC_HZ * t),
              RATE)
    (tmp_path / "erabox.toml").write_text(CONFIG)
    (tmp_path / "s.script").write_text("0.5 era press\n10.5 end\n")
    recording = tmp_path / "out.raw"
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", SDL_AUDIODRIVER="disk",
               SDL_DISKAUDIOFILE=str(recording), ERABOX_STATE=str(tmp_path / "state.json"))
    env.pop("SDL_DISKAUDIODELAY", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "erabox", "run", "--config", str(tmp_path / "erabox.toml"),
         "--display", "none", "--script", str(tmp_path / "s.script")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    growth = measure_growth(recording, proc)
    stderr = proc.stderr.read() if proc.stderr else ""
    assert proc.wait(timeout=90) == 0, stderr
    assert "WARNING" not in stderr and "ERROR" not in stderr, stderr
    frames_per_second = device_rate(growth)
    assert 0.8 * RATE < frames_per_second < 1.2 * RATE, frames_per_second

    audio = read_raw(recording)
    gongs = onsets(audio, "gong", 0.8, 0.7)
    cries = onsets(audio, "cry", 0.0, 0.3)
    assert len(gongs) == 2, gongs
    assert len(cries) == 2, cries
    # Stream positions in real seconds on the emulated card's clock.
    start = gongs[0] / frames_per_second
    found = [(frame / frames_per_second) - start for frame in (gongs[0], cries[0], cries[1],
                                                               gongs[1])]
    # gong, cry, cry, gong at running time 0, 2, 4, 6 s: each in its own slot of the era. How
    # close to on time they are is `make bench`'s output-onset figure, not a test's: on a busy
    # machine SDL's audio thread itself may stall, which shifts the recording.
    for got, want in zip(found, [0.0, 2.0, 4.0, 6.0], strict=True):
        assert abs(got - want) < 1.0, (found, "expected 0, 2, 4, 6")

    times, level = tone_level_db(audio, RATE, MUSIC_HZ, window_s=0.05, hop_s=0.01)
    full = MUSIC_DBFS + 20 * np.log10(VOLUME)  # the music at the box's volume, not ducked

    def music_at(offset: float) -> float:
        """The music's level `offset` real seconds after the start gong."""
        at = (start + offset) * frames_per_second / RATE  # real seconds -> stream seconds
        return float(level[np.argmin(np.abs(times - at))])

    # Before the start gong there is no music; it starts with the gong.
    assert music_at(-0.3) < full - 40
    # Under each cue (after the 150 ms ramp) the music is ducked by about duck_db ...
    for onset in found[:3]:
        under = music_at(onset + 0.4)
        assert full - DUCK_DB - 2.5 <= under <= full - DUCK_DB + 2.5, (onset, under, full)
    # ... and audible all through the era, never gone and never louder than full.
    between = [music_at(x) for x in np.arange(0.3, found[3] - 0.1, 0.1)]
    assert min(between) > full - DUCK_DB - 3, min(between)
    assert max(between) < full + 1.0, max(between)
    # The gong ducks the music only while it is loud (until it falls DUCK_UNTIL_DB below its
    # peak). The built-in tam-tam stays loud ~4.7 s (its wash rings long), past the cry at
    # 2 s, so here the music is still ducked when the cry comes; a gong loud for less than
    # ~1.7 s would let it come back up before the cry.
    data, _ = soundfile.read(SOUNDS / "gong.ogg", dtype="int16", always_2d=True)
    loud = loud_seconds(np.repeat(data[:, :1], 2, axis=1).tobytes(), RATE)
    if loud < found[1] - 0.3:
        assert music_at(found[1] - 0.05) > music_at(0.4) + 3.0, (music_at(found[1] - 0.05),
                                                                 music_at(0.4))
    else:
        assert abs(music_at(found[1] - 0.05) - music_at(0.4)) < 2.0, (
            loud, music_at(found[1] - 0.05), music_at(0.4))
    # The end gong stops the music (a short fade), the gong itself rings on.
    assert music_at(found[3] + 0.8) < full - 40
