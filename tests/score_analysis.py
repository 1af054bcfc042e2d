"""Measures for long music files: onsets, repetition, section changes, loudness, pulse.

Built for the 540 s era scores (`tests/test_sound_assets.py`) and cheap enough for a shared
2-core machine: one short-time spectrum pass per file (44.1 kHz mono halved to 22.05 kHz,
93 ms windows 90 times a second, 16 log-spaced bands from 80 Hz to 8 kHz); everything else works
on those 16 band envelopes.

- `band_levels`: each band's level in dB, 90 frames a second;
- `onset_flux`: how much each band rose since the frame before (attacks);
- `worst_repeat`: the most similar pair of non-overlapping 20 s windows, by normalised
  cross-correlation of the onset flux over all lags (FFT), windows taken every 2.5 s. A copied
  20 s stretch scores ~1; through-composed music stays far below;
- `novelty`: how different the 10 s before and after each second sound (band levels, dB);
- `pulse_period`: the strongest beat period in a stretch (autocorrelation of the flux).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
FloatArray = NDArray[np.floating]
SR = 44100
RATE = SR // 2  # the analysis works at half rate: nothing above 8 kHz is looked at
HOP = 245  # 11.1 ms: a whole number of frames a second
NFFT = 2048  # 93 ms
BANDS = 16
FPS = RATE // HOP  # 90 frames a second


def half_rate(mono: FloatArray) -> FloatArray:
    """44.1 kHz -> 22.05 kHz by averaging sample pairs (a gentle low-pass, then decimation)."""
    n = len(mono) // 2 * 2
    return (mono[:n:2] + mono[1:n:2]) * 0.5


def band_levels(mono44: FloatArray) -> NDArray[np.float32]:
    """(frames, 16) band levels in dB, FPS frames a second."""
    mono = half_rate(np.asarray(mono44, dtype=np.float32))
    frames = (len(mono) - NFFT) // HOP + 1
    freqs = np.fft.rfftfreq(NFFT, 1.0 / RATE)
    band = np.digitize(freqs, np.geomspace(80.0, 8000.0, BANDS + 1)) - 1
    inside = (band >= 0) & (band < BANDS)
    pick = np.zeros((BANDS, len(freqs)), dtype=np.float32)
    pick[band[inside], np.flatnonzero(inside)] = 1.0
    window = np.hanning(NFFT).astype(np.float32)
    view = np.lib.stride_tricks.sliding_window_view(mono, NFFT)[::HOP]
    energy = np.empty((frames, BANDS), dtype=np.float32)
    for start in range(0, frames, 4096):
        spectrum = np.fft.rfft(view[start : start + 4096] * window, axis=1)
        energy[start : start + 4096] = (np.abs(spectrum) ** 2).astype(np.float32) @ pick.T
    return (10.0 * np.log10(energy + 1e-9)).astype(np.float32)


def onset_flux(levels: FloatArray) -> NDArray[np.float32]:
    """Half-wave rectified rise of every band's level (dB per frame): the attacks."""
    rise = np.diff(levels, axis=0, prepend=levels[:1])
    return np.maximum(rise, 0.0).astype(np.float32)


def worst_repeat(flux: FloatArray, window_s: float = 20.0, step_s: float = 2.5,
                 min_lag_s: float = 20.0) -> tuple[float, float, float]:
    """(score, where s, lag s) of the most alike pair of windows at least `min_lag_s` apart.

    For every window (every `step_s`), the normalised cross-correlation of its mean-removed
    onset flux (all bands together) with the flux at every other position, by FFT. 1.0 is an
    exact copy.
    """
    x = np.asarray(flux, dtype=np.float64)
    x = x - x.mean(axis=0)
    frames, width = len(x), int(window_s * FPS)
    size = 1 << (frames + width).bit_length()
    whole = np.fft.rfft(x, size, axis=0)
    energy = np.concatenate(([0.0], np.cumsum(np.sum(x * x, axis=1))))
    local = energy[width:] - energy[:-width]  # energy of the window starting at each frame
    positions = np.arange(frames - width + 1)
    best = (-1.0, 0.0, 0.0)
    for start in range(0, frames - width + 1, int(step_s * FPS)):
        part = np.fft.rfft(x[start : start + width], size, axis=0)
        corr = np.fft.irfft(np.sum(whole * np.conj(part), axis=1), size)[: frames - width + 1]
        score = corr / np.sqrt(local * local[start] + 1e-20)
        score[np.abs(positions - start) < min_lag_s * FPS] = -1.0
        k = int(np.argmax(score))
        if score[k] > best[0]:
            best = (float(score[k]), start / FPS, (k - start) / FPS)
    return best


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
