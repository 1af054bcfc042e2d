"""How the era scores and the gong measure, as a small mono box speaker plays them.

Shared by `tools/make_sounds.py --report` and the asset tests (`tests/test_score_mix.py`,
and `tests/score_analysis.py` builds on its band analysis), so the figures in sounds/README.md
and the limits the tests hold are the same numbers.

- `mono_windows`: per 10 s window, the L/R correlation and the loudness lost when the two
  channels are summed to one driver (as the MAX98357A amplifier does: (L + R) / 2 on both);
- `true_peak_dbtp`: the highest sample after 4x oversampling (ITU-R BS.1770-4 annex 2);
- `quietest_second_dbfs`: the RMS of the quietest whole second between two times;
- `band_levels`, `onset_flux`: 16 band levels (80 Hz-8 kHz, dB, 90 frames a second) and
  their rises (the attacks);
- `smoothed_repeat`: the closest 20 s repeat of the onset envelopes smoothed over 200 ms
  (the ear hears rhythm at about that resolution), windows at least 20 s apart;
- `gong_figures`: the share of the gong's energy above 1 kHz, and when its 50 ms envelope
  falls for good 40 dB below its loudest.

numpy, scipy and pyloudnorm are build- and test-time tools only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

SR = 44100
Audio = npt.NDArray[np.float64]


def lufs(audio: npt.NDArray[np.floating]) -> float:
    """BS.1770 integrated (gated) loudness in LUFS."""
    import pyloudnorm

    return float(pyloudnorm.Meter(SR).integrated_loudness(np.asarray(audio, dtype=np.float64)))


def mono_sum(stereo: npt.NDArray[np.floating]) -> Audio:
    """What one driver fed (L + R) / 2 plays, as a two-channel signal (for the meter)."""
    mono = np.asarray(stereo, dtype=np.float64).mean(axis=1)
    return np.stack([mono, mono], axis=1)


def mono_windows(stereo: npt.NDArray[np.floating], window_s: float = 10.0
                 ) -> list[tuple[float, float, float]]:
    """(start s, L/R correlation, mono loss LU) for every whole `window_s` window.

    Mono loss = loudness of the stereo pair minus loudness of its mono sum on both channels:
    0 for identical channels, ~3 LU for unrelated ones, large where they cancel. Windows
    quieter than -70 LUFS (silence) are skipped.
    """
    out = []
    width = round(window_s * SR)
    for start in range(0, len(stereo) - width + 1, width):
        part = np.asarray(stereo[start : start + width], dtype=np.float64)
        left, right = part[:, 0] - part[:, 0].mean(), part[:, 1] - part[:, 1].mean()
        denom = np.sqrt(np.sum(left**2) * np.sum(right**2))
        if denom < 1e-12:
            continue
        level = lufs(part)
        if not np.isfinite(level) or level < -70.0:
            continue
        out.append((start / SR, float(np.sum(left * right) / denom), level - lufs(mono_sum(part))))
    return out


def true_peak_dbtp(audio: npt.NDArray[np.floating]) -> float:
    """The true peak in dBTP: the largest magnitude of the signal oversampled 4x."""
    from scipy.signal import resample_poly

    x = np.asarray(audio, dtype=np.float64)
    x = x if x.ndim == 2 else x[:, None]
    peak = 0.0
    for ch in range(x.shape[1]):
        for start in range(0, len(x), 60 * SR):  # a minute at a time: bounded memory
            part = x[max(0, start - 64) : start + 60 * SR + 64, ch]
            peak = max(peak, float(np.max(np.abs(resample_poly(part, 4, 1)))))
    return float(20.0 * np.log10(max(peak, 1e-12)))


def quietest_second_dbfs(stereo: npt.NDArray[np.floating], start_s: float, end_s: float
                         ) -> tuple[float, float]:
    """(dBFS, where s): RMS of the quietest 1 s window (stepped by 0.1 s) in [start, end)."""
    x = np.asarray(stereo, dtype=np.float64)
    power = np.mean(x**2, axis=1) if x.ndim == 2 else x**2
    cum = np.concatenate(([0.0], np.cumsum(power)))
    starts = np.arange(round(start_s * SR), round(end_s * SR) - SR + 1, SR // 10)
    rms = np.sqrt((cum[starts + SR] - cum[starts]) / SR)
    k = int(np.argmin(rms))
    return float(20.0 * np.log10(max(rms[k], 1e-12))), float(starts[k] / SR)


# --- onsets and repetition ---------------------------------------------------------------------
#
# One short-time spectrum pass per file (44.1 kHz mono halved to 22.05 kHz, 93 ms windows 90
# times a second, 16 log-spaced bands from 80 Hz to 8 kHz); everything else works on those 16
# band envelopes. The asset tests (`tests/score_analysis.py`) build their measures on these.

RATE = SR // 2  # the analysis works at half rate: nothing above 8 kHz is looked at
HOP = 245  # 11.1 ms: a whole number of frames a second
NFFT = 2048  # 93 ms
FPS = RATE // HOP  # 90 frames a second
BANDS = 16


def half_rate(mono: npt.NDArray[np.floating]) -> npt.NDArray[np.floating]:
    """44.1 kHz -> 22.05 kHz by averaging sample pairs (a gentle low-pass, then decimation)."""
    n = len(mono) // 2 * 2
    return (mono[:n:2] + mono[1:n:2]) * 0.5


def band_levels(mono44: npt.NDArray[np.floating]) -> npt.NDArray[np.float32]:
    """(frames, 16) band levels in dB, FPS frames a second, bands log-spaced 80 Hz..8 kHz."""
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


def onset_flux(levels: npt.NDArray[np.floating]) -> npt.NDArray[np.float32]:
    """Half-wave rectified rise of every band's level (dB per frame): the attacks."""
    rise = np.diff(levels, axis=0, prepend=levels[:1])
    return np.maximum(rise, 0.0).astype(np.float32)


def onset_envelopes(mono44: npt.NDArray[np.floating], smooth_s: float = 0.2
                    ) -> npt.NDArray[np.float64]:
    """(frames, 16): the onset flux of each band averaged over `smooth_s`."""
    rise = onset_flux(band_levels(mono44)).astype(np.float64)
    width = max(1, round(smooth_s * FPS))
    kernel = np.ones(width) / width
    return np.stack([np.convolve(rise[:, b], kernel, "same") for b in range(BANDS)], axis=1)


def closest_repeat(env: npt.NDArray[np.floating], window_s: float = 20.0, step_s: float = 2.5,
                   min_lag_s: float = 20.0) -> tuple[float, float, float]:
    """(score, where s, lag s): the most alike pair of `window_s` windows of `env`, at least
    `min_lag_s` apart, by normalised cross-correlation (mean removed, all bands together) at
    every lag (FFT); windows taken every `step_s`. 1.0 is an exact copy."""
    x = np.asarray(env, dtype=np.float64)
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


def smoothed_repeat(stereo: npt.NDArray[np.floating]) -> tuple[float, float, float]:
    """The closest 20 s repeat of a piece, on its 200 ms-smoothed onset envelopes."""
    return closest_repeat(onset_envelopes(np.asarray(stereo).mean(axis=1)))


# --- the whole report ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreFigures:
    lufs: float
    true_peak: float
    worst_correlation: float  # lowest L/R correlation of any 10 s window
    worst_mono_loss: float  # largest mono loss of any 10 s window, LU
    whole_mono_loss: float
    quietest: tuple[float, float]  # (dBFS, at s), 1 s windows, 0:05-8:55
    sections: tuple[float, float, float]
    before_rise: float  # 6:00-8:00
    last_minute: float  # 8:00-9:00
    section2_end: float  # 5:00-6:00
    section3_start: float  # 6:00-7:00
    loudest_3s: float
    repeat: tuple[float, float, float]
    low_share: float  # energy share below 200 Hz


def loudest_short_term(stereo: npt.NDArray[np.floating]) -> float:
    """The loudest 3 s short-term loudness (from 400 ms blocks every 100 ms)."""
    return _loudness(stereo)[1]


def _loudness(stereo: npt.NDArray[np.floating]) -> tuple[float, float]:
    """(`lufs`, `loudest_short_term`) from one pass of the meter (the blocks it gates)."""
    import pyloudnorm

    meter = pyloudnorm.Meter(SR)
    whole = float(meter.integrated_loudness(np.asarray(stereo, dtype=np.float64)))
    blocks = np.asarray(meter.blockwise_loudness, dtype=np.float64)
    power = 10.0 ** ((blocks + 0.691) / 10.0)
    return whole, float(
        -0.691 + 10.0 * np.log10(np.convolve(power, np.ones(27) / 27, "valid").max()))


def low_share(stereo: npt.NDArray[np.floating], below_hz: float = 200.0) -> float:
    mono = np.asarray(stereo, dtype=np.float64).mean(axis=1)
    power = np.abs(np.fft.rfft(mono)) ** 2
    freqs = np.fft.rfftfreq(len(mono), 1.0 / SR)
    return float(power[freqs < below_hz].sum() / power.sum())


def score_figures(stereo: npt.NDArray[np.floating]) -> ScoreFigures:
    x = np.asarray(stereo, dtype=np.float64)

    def cut(a: float, b: float) -> float:
        return lufs(x[round(a * SR) : round(b * SR)])

    windows = mono_windows(x)
    whole, loudest = _loudness(x)  # the meter's one pass over the whole piece
    return ScoreFigures(
        lufs=whole, true_peak=true_peak_dbtp(x),
        worst_correlation=min(w[1] for w in windows),
        worst_mono_loss=max(w[2] for w in windows),
        whole_mono_loss=whole - lufs(mono_sum(x)),
        quietest=quietest_second_dbfs(x, 5.0, 535.0),
        sections=(cut(0, 180), cut(180, 360), cut(360, 540)),
        before_rise=cut(360, 480), last_minute=cut(480, 540),
        section2_end=cut(300, 360), section3_start=cut(360, 420),
        loudest_3s=loudest, repeat=smoothed_repeat(x), low_share=low_share(x),
    )


def gong_figures(mono: npt.NDArray[np.floating]) -> tuple[float, float]:
    """(share of energy above 1 kHz, seconds until the 50 ms RMS stays 40 dB below its top)."""
    x = np.asarray(mono, dtype=np.float64)
    x = x.mean(axis=1) if x.ndim == 2 else x
    power = np.abs(np.fft.rfft(x)) ** 2
    freqs = np.fft.rfftfreq(len(x), 1.0 / SR)
    high = float(power[freqs > 1000.0].sum() / power.sum())
    frame = SR // 20
    n = len(x) // frame
    rms = np.sqrt(np.mean(x[: n * frame].reshape(n, frame) ** 2, axis=1))
    level = 20.0 * np.log10(rms / rms.max() + 1e-12)
    above = np.flatnonzero(level > -40.0)
    down_at = (above[-1] + 1) * frame / SR if len(above) else 0.0
    return high, float(down_at)
