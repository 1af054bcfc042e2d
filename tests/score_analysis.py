"""Measures for long music files: onsets, repetition, section changes, loudness, pulse.

Built for the 540 s era scores (`tests/test_sound_assets.py`) and cheap enough for a shared
2-core machine: one short-time spectrum pass per file (44.1 kHz mono halved to 22.05 kHz,
93 ms windows 90 times a second, 16 log-spaced bands from 80 Hz to 8 kHz); everything else works
on those 16 band envelopes. The band analysis itself lives in `tools/soundtrack/measure.py`
(the figures `tools/make_sounds.py --report` prints); this module adds the test-only measures.

- `band_levels`: each band's level in dB, 90 frames a second (from `measure`);
- `onset_flux`: how much each band rose since the frame before (attacks; from `measure`);
- `worst_repeat` (`measure.closest_repeat`): the most similar pair of non-overlapping 20 s
  windows, by normalised cross-correlation of the onset flux over all lags (FFT), windows
  taken every 2.5 s. A copied 20 s stretch scores ~1; through-composed music stays far below;
- `novelty`: how different the 10 s before and after each second sound (band levels, dB);
- `pulse_period`: the strongest beat period in a stretch (autocorrelation of the flux).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
# The band analysis is the one `tools/make_sounds.py --report` uses (sounds/README.md's figures).
from soundtrack.measure import (
    BANDS,
    FPS,
    HOP,
    NFFT,
    RATE,
    SR,
    band_levels,
    half_rate,
    onset_flux,
)
from soundtrack.measure import closest_repeat as worst_repeat

__all__ = ["BANDS", "FPS", "HOP", "NFFT", "RATE", "SR", "band_levels", "half_rate",
           "integrated_lufs", "loudness_profile", "momentary_max_lufs", "novelty", "onset_flux",
           "pulse_period", "worst_repeat"]

Array = NDArray[np.float64]
FloatArray = NDArray[np.floating]


def novelty(levels: FloatArray, span_s: int = 10) -> Array:
    """Per whole second t: RMS over bands of (mean level of [t, t+span) - of [t-span, t)), dB.

    Zero where either side would run off the file.
    """
    seconds = len(levels) // FPS
    per_second = np.asarray(levels[: seconds * FPS], dtype=np.float64).reshape(
        seconds, FPS, -1).mean(axis=1)
    out = np.zeros(seconds)
    for t in range(span_s, seconds - span_s + 1):
        before = per_second[t - span_s : t].mean(axis=0)
        after = per_second[t : t + span_s].mean(axis=0)
        out[t] = float(np.sqrt(np.mean((after - before) ** 2)))
    return out


def pulse_period(flux: FloatArray, low_s: float = 0.25, high_s: float = 1.5) -> float:
    """The strongest period (s) between `low_s` and `high_s` in the summed onset flux."""
    strength = np.asarray(flux, dtype=np.float64).sum(axis=1)
    strength -= strength.mean()
    n = len(strength)
    ac = np.fft.irfft(np.abs(np.fft.rfft(strength, 2 * n)) ** 2)[:n]
    lags = np.arange(int(low_s * FPS), int(high_s * FPS) + 1)
    return float(lags[np.argmax(ac[lags])] / FPS)


def momentary_max_lufs(audio: FloatArray, rate: int = SR) -> float:
    """Loudest BS.1770 momentary loudness (400 ms windows every 50 ms) in LUFS (pyloudnorm).

    A sound shorter than 400 ms is measured over its own length.
    """
    import pyloudnorm

    stereo = np.asarray(audio, dtype=np.float64)
    if stereo.ndim == 1:
        stereo = np.stack([stereo, stereo], axis=1)
    window = min(round(0.4 * rate), len(stereo))
    meter = pyloudnorm.Meter(rate, block_size=window / rate)
    return max(float(meter.integrated_loudness(stereo[s : s + window]))
               for s in range(0, len(stereo) - window + 1, round(0.05 * rate)))


def integrated_lufs(audio: FloatArray, rate: int = SR) -> float:
    """BS.1770 integrated (gated) loudness in LUFS (pyloudnorm)."""
    import pyloudnorm

    return float(pyloudnorm.Meter(rate).integrated_loudness(audio))


def loudness_profile(audio: FloatArray, rate: int = SR) -> tuple[float, float]:
    """(integrated LUFS, loudest short-term LUFS) in one pyloudnorm pass.

    Short-term loudness (BS.1770 / EBU R128: 3 s windows) is taken from the meter's 400 ms
    blocks (every 100 ms): the mean power of the 27 blocks spanning each 3 s.
    """
    import pyloudnorm

    meter = pyloudnorm.Meter(rate)
    integrated = float(meter.integrated_loudness(audio))
    blocks = np.asarray(meter.blockwise_loudness, dtype=np.float64)
    power = 10.0 ** ((blocks + 0.691) / 10.0)
    short_term = np.convolve(power, np.ones(27) / 27, "valid")
    return integrated, float(-0.691 + 10.0 * np.log10(short_term.max()))
