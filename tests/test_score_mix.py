"""The era scores as a small mono box speaker plays them, and the gong as a tam-tam.

Measured on the shipped files (decoded with libsndfile, nothing re-rendered) with the same
measures `tools/make_sounds.py --report` prints (`tools/soundtrack/measure.py`):

- summed to one driver ((L + R) / 2, as the MAX98357A does) no 10 s window loses more than
  1 LU, and in every 10 s window the two channels correlate at least 0.5;
- EBU R128: integrated -23 +- 1 LUFS, true peak at most -1 dBTP;
- never near-silence: no 1 s window below -50 dBFS between 0:05 and 8:55;
- the arc: the last minute at least 3 LU above 6:00-8:00; section III's first minute not
  quieter than section II's last;
- no near-copies: the closest 20 s repeat of the 200 ms-smoothed onset envelopes <= 0.80;
- the gong: >= 5 % of its energy above 1 kHz, and 40 dB down no sooner than 8 s.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from soundtrack import measure  # noqa: E402

SOUNDS = ROOT / "sounds"
SCORE_NAMES = ("era1_score", "era2_score", "era3_score")
SR = measure.SR

MONO_LOSS_LU = 1.0
MIN_CORRELATION = 0.5
TARGET_LUFS, TOLERANCE_LU = -23.0, 1.0
MAX_TRUE_PEAK = -1.0
SILENCE_DBFS = -50.0
RISE_LU = 3.0
REPEAT_LIMIT = 0.80
GONG_HIGH_SHARE = 0.05
GONG_RING_S = 8.0


@pytest.fixture(scope="module")
def figures() -> dict[str, measure.ScoreFigures]:
    import soundfile

    out = {}
    for name in SCORE_NAMES:
        audio, rate = soundfile.read(SOUNDS / f"{name}.ogg", dtype="float32", always_2d=True)
        assert rate == SR
        out[name] = measure.score_figures(audio)
        del audio
    return out


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_score_survives_a_mono_speaker(figures: dict[str, measure.ScoreFigures],
                                       name: str) -> None:
    f = figures[name]
    assert f.worst_mono_loss <= MONO_LOSS_LU, (
        f"{name}: a 10 s window loses {f.worst_mono_loss:.2f} LU")
    assert f.worst_correlation >= MIN_CORRELATION, (
        f"{name}: a 10 s window's L/R correlation is {f.worst_correlation:.2f}")


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_score_loudness_and_true_peak(figures: dict[str, measure.ScoreFigures],
                                      name: str) -> None:
    f = figures[name]
    assert abs(f.lufs - TARGET_LUFS) <= TOLERANCE_LU, f"{name}: {f.lufs:.1f} LUFS"
    assert f.true_peak <= MAX_TRUE_PEAK, f"{name}: true peak {f.true_peak:.2f} dBTP"


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_score_never_drops_to_near_silence(figures: dict[str, measure.ScoreFigures],
                                           name: str) -> None:
    level, at = figures[name].quietest
    assert level >= SILENCE_DBFS, f"{name}: the second from {at:.1f} s is at {level:.1f} dBFS"


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_score_rises_to_its_last_minute(figures: dict[str, measure.ScoreFigures],
                                        name: str) -> None:
    f = figures[name]
    assert f.last_minute >= f.before_rise + RISE_LU, (
        f"{name}: last minute {f.last_minute:.1f} LUFS, 6:00-8:00 {f.before_rise:.1f} LUFS")
    assert f.section3_start >= f.section2_end, (
        f"{name}: section III opens at {f.section3_start:.1f} LUFS, section II ended at "
        f"{f.section2_end:.1f} LUFS")


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_score_has_no_near_copy(figures: dict[str, measure.ScoreFigures], name: str) -> None:
    score, where, lag = figures[name].repeat
    assert score <= REPEAT_LIMIT, (
        f"{name}: the 20 s from {where:.0f} s come back {lag:+.1f} s later ({score:.2f})")


def test_repeat_measure_finds_a_pasted_copy() -> None:
    """The measure can fail: 20 s of noise bursts pasted 40 s later scores near 1."""
    rng = np.random.default_rng(5)
    seconds = 90
    bursts = np.zeros(seconds * SR)
    for start in rng.uniform(0, seconds - 0.2, 400):
        s = int(start * SR)
        bursts[s : s + 2000] += rng.standard_normal(2000) * np.hanning(2000)
    pasted = bursts.copy()
    pasted[50 * SR : 70 * SR] = bursts[10 * SR : 30 * SR]
    stereo = np.stack([pasted, pasted], axis=1)
    assert measure.smoothed_repeat(stereo)[0] > 0.95
    assert measure.smoothed_repeat(np.stack([bursts, bursts], axis=1))[0] < REPEAT_LIMIT


def test_mono_measure_finds_cancelling_channels() -> None:
    """The measure can fail: a tone in opposite phase on the two channels."""
    t = np.arange(10 * SR) / SR
    tone = 0.1 * np.sin(2 * np.pi * 440.0 * t) + 0.01 * np.sin(2 * np.pi * 97.0 * t)
    (_, corr, loss), = measure.mono_windows(np.stack([tone, -0.9 * tone], axis=1))
    assert corr < -0.9 and loss > 10.0
    (_, corr, loss), = measure.mono_windows(np.stack([tone, tone], axis=1))
    assert corr > 0.99 and abs(loss) < 0.01


def test_gong_is_bright_and_rings_long() -> None:
    import soundfile

    gong, rate = soundfile.read(SOUNDS / "gong.ogg", dtype="float64")
    assert rate == SR
    high, down_at = measure.gong_figures(gong)
    assert high >= GONG_HIGH_SHARE, f"{high:.1%} of the gong's energy lies above 1 kHz"
    assert down_at >= GONG_RING_S, f"the gong is 40 dB down after {down_at:.1f} s"
    # Clear at once: its first 100 ms are within 6 dB of its loudest 100 ms.
    frames = np.sqrt(np.mean(gong[: len(gong) // 4410 * 4410].reshape(-1, 4410) ** 2, axis=1))
    assert frames[0] >= frames.max() * 0.5
