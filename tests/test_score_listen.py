"""The soundtrack as a listener at the table hears it, measured on the shipped files.

Everything through the box's one driver: the mono sum, high-passed at 150 Hz
(`tools/soundtrack/listen.py`, the figures of sounds/README.md "Listening"):

- three versions of each era's score, shipped, sounds/ under 60 MB;
- no 20 s of a score close to another 20 s of it (<= 0.80 by the project's onset measure,
  by 8-band onsets and by chroma), and no minute of one version close to the same minute of
  another; the eras in keys of their own (pitch-class profiles correlate <= 0.85);
- the last minute grows to its end (8 s blocks, each louder than the one before);
- gong and cry 8-16 LU above the music under them after the box's duck, at every call of a
  score and anywhere in a loop; the tick 6 dB above the loudest minute in its own band;
  the gong's character above 150 Hz;
- the loops mastered like the scores; no held note with a flat expression (the MIDI).

The suite runs the measures at a third of their frame rate (windows every 5 s) so nine
files take well under a minute; `make test-deep` (ERABOX_TEST_DEEP=1) runs them at full
resolution, as `python tools/make_sounds.py --listen` prints them.
"""

from __future__ import annotations

import itertools
import os
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import soundtrack  # noqa: E402
from erabox.core.config import AudioConfig  # noqa: E402
from soundtrack import listen, measure  # noqa: E402

SOUNDS = ROOT / "sounds"
DEEP = bool(os.environ.get("ERABOX_TEST_DEEP"))
STEP_S = 2.5 if DEEP else 5.0
ERAS = (1, 2, 3)
STEMS = [soundtrack.score_stem(era, v) for era in ERAS for v in soundtrack.VARIANTS]
SR = measure.SR

SIZE_LIMIT_MB = 60.0
REPEAT_LIMIT = 0.80
KEY_LIMIT = 0.85
RISE_GROWTH_LU = 3.0  # the last block over the first
CUE_MARGIN_LU = (8.0, 16.0)
TICK_MARGIN_DB = 6.0
GONG_ABOVE_150 = 0.85
LOOP_LUFS, LOOP_TOLERANCE = -23.0, 1.0
MIN_CORRELATION, MONO_LOSS_LU = 0.5, 1.0


def decode(name: str) -> np.ndarray:
    import soundfile

    audio, rate = soundfile.read(SOUNDS / f"{name}.ogg", dtype="float32", always_2d=True)
    assert rate == SR
    return audio


@cache
def heard(stem: str) -> listen.Heard:
    return listen.hear(decode(stem), fast=not DEEP)


@cache
def cue_loudness(name: str) -> float:
    """A cue's loudest momentary loudness (400 ms windows, 100 ms apart), LUFS."""
    x = decode(name).astype(np.float64).mean(axis=1)
    x = np.stack([x, x], axis=1)  # a mono cue plays on both channels
    return max(listen.short_term(x, t / 10, 0.4) for t in range(0, max(1, len(x) * 10 // SR - 3)))


def test_three_versions_of_every_score_are_shipped_and_sounds_stay_small() -> None:
    for stem in STEMS:
        assert (SOUNDS / f"{stem}.ogg").is_file(), stem
        assert (SOUNDS / f"{stem}.mid").is_file(), stem
    total = sum(f.stat().st_size for f in SOUNDS.iterdir() if f.is_file()) / 1e6
    assert total < SIZE_LIMIT_MB, f"sounds/ is {total:.1f} MB"


@pytest.mark.parametrize("stem", STEMS)
def test_no_20_seconds_come_back_as_a_copy(stem: str) -> None:
    h = heard(stem)
    for label, env, fps in (("onsets (16 bands)", h.onsets16, h.fps),
                            ("onsets (8 bands)", h.onsets8, h.fps),
                            ("chroma", h.chroma, h.chroma_fps)):
        score, at, lag = listen.closest_repeat(env, fps, step_s=STEP_S)
        assert score <= REPEAT_LIMIT, f"{stem} {label}: {score:.2f} at {at:.0f} s (+{lag:.0f} s)"


@pytest.mark.parametrize("era", ERAS)
def test_no_minute_of_one_version_sounds_like_the_same_minute_of_another(era: int) -> None:
    stems = [soundtrack.score_stem(era, v) for v in soundtrack.VARIANTS]
    for a, b in itertools.combinations(stems, 2):
        ha, hb = heard(a), heard(b)
        for label, x, y, fps in (("onsets (16 bands)", ha.onsets16, hb.onsets16, ha.fps),
                                 ("onsets (8 bands)", ha.onsets8, hb.onsets8, ha.fps),
                                 ("chroma", ha.chroma, hb.chroma, ha.chroma_fps)):
            score, minute = listen.same_minute(x, y, fps, step_s=STEP_S)
            assert score <= REPEAT_LIMIT, f"{a} / {b} {label}: {score:.2f} in minute {minute:.0f} s"


def test_the_eras_are_in_keys_of_their_own() -> None:
    profiles = {stem: listen.pitch_profile((SOUNDS / f"{stem}.mid").read_bytes()) for stem in STEMS}
    for a, b in itertools.combinations(STEMS, 2):
        if a[:4] != b[:4]:  # another era
            r = float(np.corrcoef(profiles[a], profiles[b])[0, 1])
            assert r <= KEY_LIMIT, f"{a} / {b}: pitch-class profiles correlate {r:.2f}"


@pytest.mark.parametrize("stem", STEMS)
def test_the_last_minute_grows_to_its_end(stem: str) -> None:
    blocks = heard(stem).rise
    assert all(b > a for a, b in itertools.pairwise(blocks)), f"{stem}: {blocks}"
    assert blocks[-1] - blocks[0] >= RISE_GROWTH_LU, f"{stem}: {blocks}"


def margins(cue: str, music_lufs: float) -> float:
    return cue_loudness(cue) - (music_lufs - AudioConfig().duck_db)


@pytest.mark.parametrize("stem", STEMS)
def test_gong_and_cry_cut_through_the_score_without_startling(stem: str) -> None:
    at = heard(stem).at_calls
    low, high = CUE_MARGIN_LU
    for cue, music, when in (("gong", at[0], "0:00"), ("cry", at[1], "3:00"),
                             ("cry", at[2], "6:00"), ("gong", at[3], "9:00")):
        margin = margins(cue, music)
        assert low <= margin <= high, f"{stem}: the {cue} at {when} stands {margin:.1f} LU over"


@pytest.mark.parametrize("era", ERAS)
def test_gong_and_cry_cut_through_the_loops_without_startling(era: int) -> None:
    loop = decode(f"era{era}").astype(np.float64)
    levels = [listen.short_term(loop, t) for t in np.arange(0.0, len(loop) / SR - 3.0, 1.0)]
    quiet, loud = np.percentile(levels, (10, 90))
    low, high = CUE_MARGIN_LU
    for cue in ("gong", "cry"):
        assert low <= margins(cue, float(loud)) and margins(cue, float(quiet)) <= high, (
            era, cue, margins(cue, float(loud)), margins(cue, float(quiet)))


@pytest.mark.parametrize("stem", STEMS)
def test_the_tick_carries_over_the_loudest_minute_in_its_own_band(stem: str) -> None:
    tick = decode("tick").astype(np.float64).mean(axis=1)
    padded = np.zeros(round(0.4 * SR))
    padded[: len(tick)] = tick[: len(padded)]
    own = float(listen.band_energy_db(listen.speaker(padded), *listen.TICK_BAND).max())
    music = float(heard(stem).tick_band.max())
    assert own - music >= TICK_MARGIN_DB, f"{stem}: the tick {own - music:.1f} dB over"


def test_the_gong_keeps_its_character_through_a_small_speaker() -> None:
    gong = decode("gong").astype(np.float64).mean(axis=1)
    power = np.abs(np.fft.rfft(gong)) ** 2
    freqs = np.fft.rfftfreq(len(gong), 1.0 / SR)
    share = float(power[freqs > 150.0].sum() / power.sum())
    assert share >= GONG_ABOVE_150, f"{share:.1%} of the gong above 150 Hz"


@pytest.mark.parametrize("era", ERAS)
def test_the_loops_are_mastered_like_the_scores(era: int) -> None:
    loop = decode(f"era{era}").astype(np.float64)
    assert abs(measure.lufs(loop) - LOOP_LUFS) <= LOOP_TOLERANCE
    windows = measure.mono_windows(loop)
    assert min(w[1] for w in windows) >= MIN_CORRELATION
    assert max(w[2] for w in windows) <= MONO_LOSS_LU


@pytest.mark.parametrize("stem", STEMS)
def test_no_held_note_is_a_dead_steady_tone(stem: str) -> None:
    flat = listen.flat_held_notes((SOUNDS / f"{stem}.mid").read_bytes())
    assert flat == [], f"{stem}: {len(flat)} held notes with a flat expression, first {flat[:3]}"


# --- the measures can fail ------------------------------------------------------------------


def test_the_repeat_measures_find_a_pasted_copy() -> None:
    rng = np.random.default_rng(7)
    env = rng.random((90 * 120, 12))
    env[90 * 70 : 90 * 90] = env[90 * 10 : 90 * 30]
    assert listen.closest_repeat(env, 90, step_s=5.0)[0] > 0.99
    other = rng.random((90 * 120, 12))
    other[90 * 65 : 90 * 85] = env[90 * 70 : 90 * 90]
    assert listen.same_minute(env, other, 90, step_s=5.0)[0] > 0.99
    assert listen.closest_repeat(rng.random((90 * 120, 12)), 90, step_s=5.0)[0] < 0.5


def test_a_flat_held_note_is_found_in_the_midi() -> None:
    from soundtrack.midi import Control, Note, midi_file

    notes = [Note(0.0, 3.0, 0, 60, 90), Note(0.0, 3.0, 1, 64, 90), Note(0.0, 1.0, 2, 67, 90)]
    swell = [Control(t / 10, 1, 11, 100 + t) for t in range(20)]
    data = midi_file(notes, [Control(0.0, 0, 11, 127), *swell], [], 4.0)
    assert listen.flat_held_notes(data) == [(0.0, 0)]


def test_the_key_measure_tells_keys_apart() -> None:
    from soundtrack.midi import Note, midi_file

    def scale(tonic: int) -> bytes:
        steps = (0, 2, 4, 5, 7, 9, 11)
        return midi_file([Note(i * 0.5, 0.5, 0, tonic + steps[i % 7], 90) for i in range(28)],
                         [], [], 15.0)
    same = np.corrcoef(listen.pitch_profile(scale(60)), listen.pitch_profile(scale(72)))[0, 1]
    other = np.corrcoef(listen.pitch_profile(scale(60)), listen.pitch_profile(scale(66)))[0, 1]
    assert same > 0.99 and other < KEY_LIMIT


def test_the_soundfont_licence_ships_beside_the_scores() -> None:
    text = (SOUNDS / "SOUNDFONT-LICENSE.txt").read_text()
    for needed in ("MuseScore_General_HQ", "CC0", "Permission is hereby granted",
                   "era<N>_score*.ogg"):
        assert needed in text, needed
