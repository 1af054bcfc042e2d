"""What a listener at the table hears: the measures of sounds/README.md's "Listening" figures.

The box plays everything through one small driver: (L + R) / 2, nothing much below 150 Hz.
So every measure here starts from `speaker`: the mono sum, high-passed at 150 Hz. On top of
the band analysis in `measure.py`:

- `onsets8`: attacks in 8 bands (150 Hz-8 kHz), smoothed over 100 ms: the rhythm parts;
- `chroma`: the 12 pitch classes' share of the sound, 10 frames a second: the harmony;
- `closest_repeat` (from `measure`, at any frame rate): the most alike pair of non-overlapping
  20 s windows of one of these; `same_minute`: the most alike 20 s of two variants' same
  minute (at any lag inside it);
- `rise_blocks`: the loudness of 8:00-8:56 in 8 s blocks (the last minute must grow);
- `cue_margins`: each cue's loudness over the music under it (after the box's duck);
- `band_margin`: the tick over the music in the tick's own band (400 ms windows);
- `midi_*`: read straight from the MIDI files: held notes whose expression never moves, and
  each era's pitch-class profile.

Deterministic numpy/scipy/pyloudnorm; build- and test-time only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .measure import SR, band_levels, lufs, onset_flux

Audio = npt.NDArray[np.float64]
HIGH_PASS_HZ = 150.0
CHROMA_FPS = 10
ONSET_FPS = 90


def speaker(audio: npt.NDArray[np.floating]) -> Audio:
    """What the box's driver plays: the mono sum, 4th-order high-passed at 150 Hz."""
    from scipy.signal import butter, sosfilt

    x = np.asarray(audio, dtype=np.float64)
    mono = x.mean(axis=1) if x.ndim == 2 else x
    return np.asarray(sosfilt(butter(4, HIGH_PASS_HZ, "highpass", fs=SR, output="sos"), mono))


def onsets8(mono: npt.NDArray[np.floating], smooth_s: float = 0.1) -> Audio:
    """(frames, 8) onset envelopes at 90 frames a second: the 16 analysis bands merged in
    pairs (power), their rises, averaged over `smooth_s`."""
    levels = band_levels(mono).astype(np.float64)
    power = 10.0 ** (levels / 10.0)
    merged = 10.0 * np.log10(power[:, 0::2] + power[:, 1::2] + 1e-9)
    rise = onset_flux(merged).astype(np.float64)
    width = max(1, round(smooth_s * ONSET_FPS))
    kernel = np.ones(width) / width
    return np.stack([np.convolve(rise[:, b], kernel, "same") for b in range(8)], axis=1)


def chroma(mono: npt.NDArray[np.floating], fps: int = CHROMA_FPS) -> Audio:
    """(frames, 12) pitch-class profile, 10 frames a second: the power of every STFT bin from
    130 Hz to 4 kHz added to its nearest pitch class, square-rooted, each frame to unit length
    (so loudness does not count, only which notes sound)."""
    x = np.asarray(mono, dtype=np.float64)
    nfft, hop = 8192, SR // fps
    freqs = np.fft.rfftfreq(nfft, 1.0 / SR)
    use = (freqs >= 130.0) & (freqs <= 4000.0)
    pc = np.round(12.0 * np.log2(freqs[use] / 440.0) + 69.0).astype(int) % 12
    pick = np.zeros((int(use.sum()), 12))
    pick[np.arange(len(pc)), pc] = 1.0
    window = np.hanning(nfft)
    frames = (len(x) - nfft) // hop + 1
    view = np.lib.stride_tricks.sliding_window_view(x, nfft)[::hop][:frames]
    out = np.empty((frames, 12))
    for start in range(0, frames, 512):
        spec = np.abs(np.fft.rfft(view[start : start + 512] * window, axis=1)) ** 2
        out[start : start + 512] = np.sqrt(spec[:, use] @ pick)
    return out / (np.linalg.norm(out, axis=1, keepdims=True) + 1e-12)


def _local_energy(x: Audio, width: int) -> Audio:
    """For every window of `width` frames: its energy with its own mean (per column) removed."""
    c1 = np.concatenate((np.zeros((1, x.shape[1])), np.cumsum(x, axis=0)))
    c2 = np.concatenate((np.zeros((1, x.shape[1])), np.cumsum(x * x, axis=0)))
    s1, s2 = c1[width:] - c1[:-width], c2[width:] - c2[:-width]
    return np.asarray(np.maximum(np.sum(s2 - s1 * s1 / width, axis=1), 0.0))


def closest_repeat(env: npt.NDArray[np.floating], fps: float, window_s: float = 20.0,
                   step_s: float = 2.5, min_lag_s: float = 20.0) -> tuple[float, float, float]:
    """(score, where s, lag s): the most alike pair of `window_s` windows at least
    `min_lag_s` apart: normalised cross-correlation at every lag, all columns together, each
    window's own mean removed (a shared key or a steady level is not a repeat; the same
    changes in the same order are). 1.0 is an exact copy."""
    x = np.asarray(env, dtype=np.float64)
    frames, width = len(x), int(window_s * fps)
    size = 1 << (frames + width).bit_length()
    whole = np.fft.rfft(x, size, axis=0)
    local = _local_energy(x, width)
    positions = np.arange(frames - width + 1)
    best = (-1.0, 0.0, 0.0)
    for start in range(0, frames - width + 1, max(1, int(step_s * fps))):
        part = x[start : start + width] - x[start : start + width].mean(axis=0)
        spec = np.fft.rfft(part, size, axis=0)
        corr = np.fft.irfft(np.sum(whole * np.conj(spec), axis=1), size)[: frames - width + 1]
        score = corr / np.sqrt(local * np.sum(part * part) + 1e-20)
        score[np.abs(positions - start) < min_lag_s * fps] = -1.0
        k = int(np.argmax(score))
        if score[k] > best[0]:
            best = (float(score[k]), start / fps, (k - start) / fps)
    return best


def same_minute(a: npt.NDArray[np.floating], b: npt.NDArray[np.floating], fps: float,
                window_s: float = 20.0, step_s: float = 2.5) -> tuple[float, float]:
    """(score, minute s): two variants' most alike 20 s in the same minute: every window of
    `a` (every `step_s`) against every place of `b` inside that minute, normalised as in
    `closest_repeat`."""
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    width, minute = int(window_s * fps), int(60 * fps)
    best = (-1.0, 0.0)
    for m0 in range(0, min(len(x), len(y)) - minute + 1, minute):
        ys = y[m0 : m0 + minute]
        local = _local_energy(ys, width)
        size = 1 << (minute + width).bit_length()
        whole = np.fft.rfft(ys, size, axis=0)
        for s in range(m0, m0 + minute - width + 1, max(1, int(step_s * fps))):
            part = x[s : s + width] - x[s : s + width].mean(axis=0)
            spec = np.fft.rfft(part, size, axis=0)
            corr = np.fft.irfft(np.sum(whole * np.conj(spec), axis=1), size)[: len(local)]
            top = float(np.max(corr / np.sqrt(local * np.sum(part * part) + 1e-20)))
            if top > best[0]:
                best = (top, m0 / fps)
    return best


def short_term(audio: npt.NDArray[np.floating], start_s: float, seconds: float = 3.0
               ) -> float:
    """Loudness (LUFS, BS.1770, ungated over `seconds`) from `start_s`."""
    x = np.asarray(audio, dtype=np.float64)
    part = x[round(start_s * SR) : round((start_s + seconds) * SR)]
    stereo = part if part.ndim == 2 else np.stack([part, part], axis=1)
    power = float(np.mean(np.sum(_k_weight(stereo) ** 2, axis=1)))
    return -0.691 + 10.0 * np.log10(power + 1e-20)


def _k_weight(stereo: Audio) -> Audio:
    """BS.1770's K-weighting (its two biquads at 44.1 kHz, as pyloudnorm uses them)."""
    from scipy.signal import lfilter

    shelf_b = [1.53512485958697, -2.69169618940638, 1.19839281085285]
    shelf_a = [1.0, -1.69065929318241, 0.73248077421585]
    hp_b, hp_a = [1.0, -2.0, 1.0], [1.0, -1.99004745483398, 0.99007225036621]
    return np.asarray(lfilter(hp_b, hp_a, lfilter(shelf_b, shelf_a, stereo, axis=0), axis=0))


def rise_blocks(audio: npt.NDArray[np.floating], start_s: float = 480.0, end_s: float = 536.0,
                block_s: float = 8.0) -> list[float]:
    """Loudness of each `block_s` block of [start, end): the last minute, without the final
    chord (struck at ~8:56, it rings into the end gong)."""
    return [lufs(np.asarray(audio)[round(t * SR) : round((t + block_s) * SR)])
            for t in np.arange(start_s, end_s - block_s + 1e-9, block_s)]


def band_energy_db(mono: npt.NDArray[np.floating], low: float, high: float,
                   window_s: float = 0.4, hop_s: float = 0.1) -> Audio:
    """Mean power (dB) in [low, high] Hz of every `window_s` window, `hop_s` apart."""
    from scipy.signal import butter, sosfiltfilt

    sos = butter(4, (low, high), "bandpass", fs=SR, output="sos")
    y = np.asarray(sosfiltfilt(sos, np.asarray(mono, dtype=np.float64)))
    cum = np.concatenate(([0.0], np.cumsum(y * y)))
    w, h = round(window_s * SR), round(hop_s * SR)
    starts = np.arange(0, max(1, len(y) - w + 1), h)
    ends = np.minimum(starts + w, len(y))
    return np.asarray(10.0 * np.log10((cum[ends] - cum[starts]) / w + 1e-20))


# --- from the MIDI files ----------------------------------------------------------------------


def midi_events(data: bytes) -> list[tuple[float, int, int, int, int]]:
    """(seconds, status high nibble, channel, data1, data2) of a type-0 file written by
    `midi.midi_file` (960 ticks a second, one tempo)."""
    from .midi import TICKS_PER_SECOND

    pos = 14 + 8  # header chunk, then the track chunk's header
    tick, out, status = 0, [], 0
    while pos < len(data):
        delta = 0
        while True:
            byte = data[pos]
            pos += 1
            delta = (delta << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        tick += delta
        if data[pos] == 0xFF:
            length = data[pos + 2]
            pos += 3 + length
            continue
        status = data[pos]
        kind, ch = status >> 4, status & 0x0F
        if kind == 0xC:
            out.append((tick / TICKS_PER_SECOND, kind, ch, data[pos + 1], 0))
            pos += 2
        else:
            out.append((tick / TICKS_PER_SECOND, kind, ch, data[pos + 1], data[pos + 2]))
            pos += 3
    return out


def midi_notes(data: bytes) -> list[tuple[float, float, int, int, int]]:
    """(start, end, channel, pitch, velocity) of every note."""
    held: dict[tuple[int, int], tuple[float, int]] = {}
    notes = []
    for t, kind, ch, a, b in midi_events(data):
        if kind == 0x9 and b > 0:
            held[(ch, a)] = (t, b)
        elif kind in (0x8, 0x9) and (ch, a) in held:
            start, vel = held.pop((ch, a))
            notes.append((start, t, ch, a, vel))
    return notes


def flat_held_notes(data: bytes, longer_s: float = 2.0, moves: int = 6) -> list[tuple[float, int]]:
    """(start, channel) of every non-percussion note longer than `longer_s` over which its
    channel's expression (CC11) moves by less than `moves` steps: a dead-steady held tone."""
    events = midi_events(data)
    cc: dict[int, list[tuple[float, int]]] = {}
    for t, kind, ch, a, b in events:
        if kind == 0xB and a == 11:
            cc.setdefault(ch, []).append((t, b))
    flat = []
    for start, end, ch, _, _ in midi_notes(data):
        if ch == 9 or end - start <= longer_s:
            continue
        curve = cc.get(ch, [])
        before = [v for t, v in curve if t <= start]
        inside = [v for t, v in curve if start < t < end]
        values = before[-1:] + inside
        if not values or max(values) - min(values) < moves:
            flat.append((start, ch))
    return flat


def pitch_profile(data: bytes) -> Audio:
    """The 12 pitch classes' share of a piece's notes (non-percussion), weighted by length
    and velocity."""
    out = np.zeros(12)
    for start, end, ch, pitch, vel in midi_notes(data):
        if ch != 9:
            out[pitch % 12] += (end - start) * vel
    return out / out.sum()


# --- one pass over a file ---------------------------------------------------------------------


@dataclass(frozen=True)
class Heard:
    """What the listener's measures need of one score, from one analysis pass."""

    onsets16: Audio  # the project's measure: 16 bands, 200 ms (`measure.onset_envelopes`)
    onsets8: Audio
    chroma: Audio
    fps: float  # frames a second of the three above
    chroma_fps: float
    rise: list[float]  # `rise_blocks`
    at_calls: tuple[float, float, float, float]  # music at 0:00, 3:00, 6:00 (3 s from), 9:00
    tick_band: Audio  # the last minute's level in TICK_BAND, 400 ms windows (dB)


TICK_BAND = (2000.0, 6000.0)


def hear(audio: npt.NDArray[np.floating], fast: bool = False) -> Heard:
    """Analyse a 540 s score. `fast` (the test suite): the envelopes kept at a third of the
    frame rate (30 a second, after their smoothing) and chroma at 5 frames a second."""
    from .measure import FPS

    x = np.asarray(audio, dtype=np.float64)
    mono = speaker(x)
    levels = band_levels(mono).astype(np.float64)
    rise16 = onset_flux(levels).astype(np.float64)
    o16 = _smooth(rise16, round(0.2 * FPS))
    power = 10.0 ** (levels / 10.0)
    o8 = _smooth(onset_flux(10.0 * np.log10(power[:, 0::2] + power[:, 1::2] + 1e-9))
                 .astype(np.float64), round(0.1 * FPS))
    chroma_fps = CHROMA_FPS // 2 if fast else CHROMA_FPS
    chroma_frames = chroma(mono, chroma_fps)
    fps = float(FPS)
    if fast:
        o16, o8, fps = o16[::3], o8[::3], fps / 3
    calls = (short_term(x, 0.0), short_term(x, 180.0), short_term(x, 360.0),
             short_term(x, 537.0))
    return Heard(o16, o8, chroma_frames, fps, float(chroma_fps), rise_blocks(x), calls,
                 band_energy_db(mono[480 * SR :], *TICK_BAND))


def _smooth(rise: Audio, width: int) -> Audio:
    kernel = np.ones(max(1, width)) / max(1, width)
    return np.stack([np.convolve(rise[:, b], kernel, "same") for b in range(rise.shape[1])],
                    axis=1)
