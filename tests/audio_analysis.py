"""Analyse recorded audio: what SDL's `disk` driver wrote, or any S16 interleaved stream.

Helpers for tests that check what the box really played (`tests/test_audio.py`, and end-to-end
tests through `erabox run` with `SDL_AUDIODRIVER=disk`):

- `read_raw` / `write_wav`: the raw stream in, WAV fixtures out (as float arrays in -1..1);
- `rms_db`, `tone_level_db`: level envelopes (all sound, or one sinusoid's amplitude, which
  still measures the music while a cue of another pitch plays over it);
- `sound_spans`: where the stream is digitally silent and where it is not (pauses, starts);
- `find_cue`: onsets of a known cue waveform by normalised matched filtering, to the sample,
  even with music underneath;
- `locate`: where a stretch of the stream sits in a reference (a loop or a track), to check
  start, resume and loop positions.

Everything is numpy only and works on mono (n,) or multi-channel (n, channels) arrays; stereo
is averaged to mono where a single signal is needed.
"""

from __future__ import annotations

import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

Signal = NDArray[np.float64]
FULL_SCALE = 32768.0
SILENCE_DB = -120.0  # what a level of exactly zero is reported as


def read_raw(path: str | Path, channels: int = 2) -> Signal:
    """Read signed 16-bit little-endian interleaved samples; returns (frames, channels) floats.

    A trailing partial frame (the writer was caught mid-write) is dropped.
    """
    data = np.fromfile(path, dtype="<i2")
    frames = len(data) // channels
    return data[: frames * channels].reshape(frames, channels).astype(np.float64) / FULL_SCALE


def write_wav(path: str | Path, samples: Signal, rate: int) -> Path:
    """Write floats in -1..1 (mono or (frames, channels)) as a 16-bit PCM WAV file."""
    samples = np.asarray(samples, dtype=np.float64)
    if samples.ndim == 1:
        samples = samples[:, None]
    pcm = np.clip(np.round(samples * FULL_SCALE), -FULL_SCALE, FULL_SCALE - 1).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(samples.shape[1])
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(pcm.tobytes())
    return Path(path)


def to_mono(samples: Signal) -> Signal:
    """Average the channels of (frames, channels) samples; mono input is returned as is."""
    samples = np.asarray(samples, dtype=np.float64)
    return samples.mean(axis=1) if samples.ndim == 2 else samples


def to_db(amplitude: NDArray[np.float64] | float) -> NDArray[np.float64]:
    """Amplitude (1.0 = full scale) in dBFS; zero maps to `SILENCE_DB`."""
    amplitude = np.asarray(amplitude, dtype=np.float64)
    with np.errstate(divide="ignore"):
        return np.maximum(20.0 * np.log10(np.abs(amplitude)), SILENCE_DB)


def rms_db(samples: Signal, rate: int, window_s: float = 0.01) -> tuple[Signal, Signal]:
    """RMS level in consecutive windows: (window start times in s, level in dBFS)."""
    mono = to_mono(samples)
    size = max(round(window_s * rate), 1)
    count = len(mono) // size
    blocks = mono[: count * size].reshape(count, size)
    rms = np.sqrt(np.mean(blocks**2, axis=1))
    return np.arange(count) * size / rate, to_db(rms)


def tone_level_db(
    samples: Signal, rate: int, freq: float, window_s: float = 0.02, hop_s: float = 0.01
) -> tuple[Signal, Signal]:
    """Amplitude of the sinusoid at `freq` in Hann windows: (window centre times, dBFS).

    A full-scale sine reads 0 dB. Other tones more than ~4/window_s Hz away barely leak in, so
    the music's level can be followed while a cue of another pitch plays over it.
    """
    mono = to_mono(samples)
    size = max(round(window_s * rate), 2)
    hop = max(round(hop_s * rate), 1)
    if len(mono) < size:
        return np.zeros(0), np.zeros(0)
    starts = np.arange(0, len(mono) - size + 1, hop)
    window = np.hanning(size)
    probe = window * np.exp(-2j * np.pi * freq * np.arange(size) / rate)
    frames = np.lib.stride_tricks.sliding_window_view(mono, size)[starts]
    amplitude = 2.0 * np.abs(frames @ probe) / window.sum()
    return (starts + size / 2) / rate, to_db(amplitude)


@dataclass(frozen=True)
class Span:
    """A stretch of the stream, in frames: [start, stop)."""

    start: int
    stop: int

    def seconds(self, rate: int) -> tuple[float, float]:
        return self.start / rate, self.stop / rate


def sound_spans(samples: Signal, min_gap: int = 64) -> list[Span]:
    """Stretches that are not digital silence; gaps shorter than `min_gap` frames are bridged.

    The mixer writes exact zeros when nothing plays, so this finds starts, pauses and stops to
    the frame (a zero-crossing of the music is far shorter than `min_gap`).
    """
    mono = np.abs(samples).max(axis=1) if np.ndim(samples) == 2 else np.abs(samples)
    loud = np.flatnonzero(mono > 0)
    if len(loud) == 0:
        return []
    breaks = np.flatnonzero(np.diff(loud) > min_gap)
    starts = np.concatenate(([loud[0]], loud[breaks + 1]))
    stops = np.concatenate((loud[breaks], [loud[-1]])) + 1
    return [Span(int(a), int(b)) for a, b in zip(starts, stops, strict=True)]


def _correlate(signal: Signal, template: Signal) -> Signal:
    """Cross-correlation c[k] = sum_n signal[k+n] * template[n] for k = 0..len(signal)-len(t)."""
    size = len(signal) + len(template)
    n = 1 << (size - 1).bit_length()
    spectrum = np.fft.rfft(signal, n) * np.conj(np.fft.rfft(template, n))
    return np.fft.irfft(spectrum, n)[: len(signal) - len(template) + 1]


def matched_filter(samples: Signal, template: Signal) -> Signal:
    """Normalised cross-correlation (-1..1) of `template` against every position of `samples`.

    1.0 means the stream holds an exact (scaled) copy of the template there. Music under the
    cue lowers the peak a little; it does not move it.
    """
    signal = to_mono(samples)
    template = to_mono(template)
    m = len(template)
    if m == 0 or len(signal) < m:
        return np.zeros(0)
    raw = _correlate(signal, template)
    energy = np.concatenate(([0.0], np.cumsum(signal**2)))
    local = np.sqrt(np.maximum(energy[m:] - energy[:-m], 0.0))
    norm = local * np.linalg.norm(template)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(norm > 1e-12, raw / np.where(norm > 1e-12, norm, 1.0), 0.0)
    return score


def find_cue(
    samples: Signal, template: Signal, rate: int, threshold: float = 0.6,
    min_gap_s: float = 0.05,
) -> list[int]:
    """Frames where copies of `template` begin (best match per group above `threshold`)."""
    score = matched_filter(samples, template)
    above = np.flatnonzero(score >= threshold)
    onsets: list[int] = []
    gap = max(int(min_gap_s * rate), 1)
    group: list[int] = []
    for index in above:
        if group and index - group[-1] > gap:
            onsets.append(int(max(group, key=lambda k: score[k])))
            group = []
        group.append(int(index))
    if group:
        onsets.append(int(max(group, key=lambda k: score[k])))
    return onsets


def locate(segment: Signal, reference: Signal, *, circular: bool = True) -> tuple[int, float]:
    """Where `segment` best matches inside `reference`: (frame offset, normalised score 0..1).

    With `circular` the reference is a loop, so a segment may run across its seam. Use a
    noise-like reference (a tone repeats every period and cannot tell positions apart).
    """
    seg = to_mono(segment)
    ref = to_mono(reference)
    if circular:
        ref = np.concatenate((ref, ref[: len(seg) - 1]))
    score = matched_filter(ref, seg)
    if len(score) == 0:
        raise ValueError("the segment is longer than the reference")
    best = int(np.argmax(score))
    length = len(to_mono(reference))
    return (best % length if circular else best), float(score[best])


def loop_distance(a: int, b: int, length: int) -> int:
    """Distance in frames between two positions of a loop of `length` frames."""
    d = (a - b) % length
    return min(d, length - d)
