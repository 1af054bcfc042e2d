"""Mastering for a small mono box speaker: what happens to a score after FluidSynth.

The box plays through one 40-70 mm driver on a 3 W amplifier that sums left and right. So:

0. `narrow`: the stereo image halved (the sum kept), so nothing depends on stereo;
1. `high_pass`: a 4th-order Butterworth high-pass at 100 Hz. The driver does not play below
   it; energy down there only eats headroom and makes the amplifier work for nothing;
2. `shelves`: a gentle high shelf (+3 dB from ~4 kHz) for the air the samples lack on a
   small cone, and a small dip of the boomy 200-300 Hz;
3. `compress`: light bus compression (2:1 above a threshold 4 dB over the mean level, slow: 40 ms
   attack, 400 ms release, detected on the mono sum) so the quiet passages carry over a
   table's chatter without flattening the arcs;
4. loudness to `target` LUFS integrated (EBU R128), then `limit`: a look-ahead true-peak
   limiter (4x oversampled detection, 5 ms look-ahead, 80 ms release) to -1.5 dBTP.

Everything is deterministic numpy/scipy: the same input gives the same samples.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

SR = 44100
Audio = npt.NDArray[np.float64]
HIGH_PASS_HZ = 100.0
SHELF_HZ = 4000.0
SHELF_DB = 3.0
MUD_HZ = 250.0
MUD_DB = -2.0
CEILING_DBTP = -1.5


WIDTH = 0.5  # the side signal (L - R) kept: a mono driver plays only the mid


def narrow(audio: Audio, width: float = WIDTH) -> Audio:
    """Narrow the stereo image: the sum (what one driver plays) untouched, the difference
    scaled by `width`, so no 10 s of the piece depends on stereo for its balance."""
    mid, side = audio.mean(axis=1), (audio[:, 0] - audio[:, 1]) * 0.5 * width
    return np.stack([mid + side, mid - side], axis=1)


def high_pass(audio: Audio, hz: float = HIGH_PASS_HZ) -> Audio:
    from scipy.signal import butter, sosfilt

    sos = butter(4, hz, "highpass", fs=SR, output="sos")
    return np.asarray(sosfilt(sos, audio, axis=0))


def _biquad(kind: str, hz: float, gain_db: float, q: float = 0.707) -> npt.NDArray[np.float64]:
    """RBJ cookbook shelf / peak biquad as one second-order section."""
    a = 10.0 ** (gain_db / 40.0)
    w = 2.0 * np.pi * hz / SR
    cos, alpha = np.cos(w), np.sin(w) / (2.0 * q)
    if kind == "high_shelf":
        s = 2.0 * np.sqrt(a) * alpha
        b = (a * ((a + 1) + (a - 1) * cos + s), -2 * a * ((a - 1) + (a + 1) * cos),
             a * ((a + 1) + (a - 1) * cos - s))
        den = ((a + 1) - (a - 1) * cos + s, 2 * ((a - 1) - (a + 1) * cos),
               (a + 1) - (a - 1) * cos - s)
    else:  # peak
        b = (1 + alpha * a, -2 * cos, 1 - alpha * a)
        den = (1 + alpha / a, -2 * cos, 1 - alpha / a)
    return np.array([[*(x / den[0] for x in b), 1.0, den[1] / den[0], den[2] / den[0]]])


def shelves(audio: Audio) -> Audio:
    from scipy.signal import sosfilt

    sos = np.vstack([_biquad("high_shelf", SHELF_HZ, SHELF_DB),
                     _biquad("peak", MUD_HZ, MUD_DB, q=0.9)])
    return np.asarray(sosfilt(sos, audio, axis=0))


def _one_pole(x: Audio, seconds: float) -> Audio:
    from scipy.signal import lfilter

    a = np.exp(-1.0 / (seconds * SR))
    return np.asarray(lfilter([1.0 - a], [1.0, -a], x))


def compress(audio: Audio, ratio: float = 2.0, above_db: float = 4.0, attack_s: float = 0.04,
             release_s: float = 0.4) -> Audio:
    """Light bus compression, the same gain on both channels (the image cannot move).

    The threshold sits `above_db` over the piece's mean level; the detector is the mono sum's
    power smoothed over `attack_s`, the gain reduction then released over `release_s`.
    """
    power = np.mean(audio, axis=1) ** 2
    mean_db = 10.0 * np.log10(np.mean(power) + 1e-20)
    level_db = 10.0 * np.log10(_one_pole(power, attack_s) + 1e-20)
    over = np.maximum(level_db - (mean_db + above_db), 0.0)
    reduction = over * (1.0 - 1.0 / ratio)
    # Release: the reduction follows a rise at once (the detector already smoothed it) and
    # falls back slowly: a running maximum of it against its own slow decay.
    smoothed = np.maximum(reduction, _one_pole(reduction, release_s))
    smoothed = _one_pole(smoothed, attack_s / 4)
    return audio * (10.0 ** (-smoothed / 20.0))[:, None]


def true_peak_envelope(audio: Audio) -> Audio:
    """Per sample, the largest magnitude of the 4x oversampled signal around it, any channel."""
    from scipy.signal import resample_poly

    out = np.zeros(len(audio))
    for ch in range(audio.shape[1]):
        up = np.abs(resample_poly(audio[:, ch], 4, 1))[: 4 * len(audio)]
        out = np.maximum(out, up.reshape(-1, 4).max(axis=1))
    return out


def limit(audio: Audio, ceiling_dbtp: float = CEILING_DBTP, lookahead_s: float = 0.005,
          release_s: float = 0.08) -> Audio:
    """A look-ahead true-peak limiter: the gain drops before a peak arrives and recovers
    over `release_s`; a final check scales the whole down if any true peak still pokes out."""
    from scipy.ndimage import minimum_filter1d
    from scipy.signal import oaconvolve

    ceiling = 10.0 ** (ceiling_dbtp / 20.0)
    need = np.minimum(1.0, ceiling / np.maximum(true_peak_envelope(audio), 1e-12))
    ahead = max(1, round(lookahead_s * SR))
    # Hold the lowest gain over the look-ahead window, centred so it starts `ahead` early.
    held = minimum_filter1d(need, 2 * ahead + 1, mode="nearest")
    # Release smoothly: a one-pole on the gain, never above what the peak needs.
    gain = np.minimum(held, 1.0 - _one_pole(1.0 - held, release_s))
    gain = minimum_filter1d(gain, 2 * ahead + 1, mode="nearest")
    window = np.hanning(2 * ahead + 1)
    gain = oaconvolve(gain, window / window.sum(), "same")
    out = audio * gain[:, None]
    peak = float(true_peak_envelope(out).max())
    if peak > ceiling:
        out *= ceiling / peak
    return out


def tone(audio: Audio) -> Audio:
    """The speaker's side of the chain: narrowed image, high-pass, shelves."""
    return shelves(high_pass(narrow(audio)))


def finish(audio: Audio, target_lufs: float, compressed: bool = False) -> Audio:
    """Compression (unless done already), loudness to `target_lufs`, true-peak limiting."""
    from .measure import lufs

    x = audio if compressed else compress(audio)
    for _ in range(2):  # the limiter takes a little loudness off the loudest moments
        x = x * 10.0 ** ((target_lufs - lufs(x)) / 20.0)
        x = limit(x)
        if abs(lufs(x) - target_lufs) < 0.1:
            break
    return x
