"""Synthesise the box's own sounds and write them to `sounds/` as Ogg Vorbis.

    make sounds                                   # or:
    .venv/bin/python tools/make_sounds.py [--out DIR] [--only gong cry ...]

The cues and loops are made here from sine waves, noise and a plucked-string model; no
recordings, no samples. The era scores are rendered from the MuseScore General SoundFont
(MIT).
The output is deterministic: every random choice comes from a generator seeded with the
sound's name, and the Ogg stream serial number (which libsndfile picks at random) is pinned,
so re-running this on the same library and FluidSynth versions gives the same bytes.

The sounds (see `sounds/README.md` for how the box uses them):
    gong.ogg  a struck tam-tam: a dense inharmonic wash 200 Hz-6 kHz over beating low
              modes, a sharp mallet strike, a 13 s ring
    cry.ogg   a baby's wail: three "waa" bursts with a voice break and breaths between, 2.7 s
    tick.ogg  a clock tick, 60 ms
    era1.ogg  Era I, ancient: D dorian lyre, drone, frame drum, bamboo flute, 70 bpm 4/4
    era2.ogg  Era II, medieval: G mixolydian shawm and recorder, bagpipe drone, tabor, 6/8
    era3.ogg  Era III, modern: A minor synth bass, arpeggio, pad, kick and hats, 126 bpm
    era1_score.ogg .. era3_score.ogg, era<N>_score_v2/_v3.ogg (+ .mid)  the 540 s
              through-composed era scores, three variants each (the box plays the next one
              each new game): composed in tools/soundtrack/scores.py, rendered by FluidSynth
              with the MuseScore General SoundFont (installed with apt when root and
              missing), mastered for a small mono speaker (tools/soundtrack/master.py); see
              sounds/README.md

Levels: the tick peaks at -1 dBFS (measured after a decode, then corrected once); gong and cry
are levelled by loudness (CUE_LUFS) to stand 8-16 LU above the music under them; every music
loop is mastered like the scores (LOOP_LUFS, -23 LUFS, a narrowed image).

Seamless loops by construction: a loop is a ring buffer one whole number of bars long. A note
that rings past the end is added into the start, reverb is a circular convolution, drones and
LFOs make a whole number of cycles per loop. The rendered loop is therefore one period of a
periodic signal, and its last sample leads into its first like any other pair of neighbours.

numpy and soundfile (libsndfile with Vorbis, bundled in its wheels) are build-time tools only;
the box itself plays the .ogg files with pygame.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))
import soundtrack  # tools/soundtrack: the era scores, rendered by FluidSynth
from soundtrack.midi import ensure_fluidsynth, package_version

Audio = npt.NDArray[np.float64]

SR = 44100
CUE_PEAK_DBFS = -1.0
# The loops are mastered like the scores (`master`): -23 LUFS integrated, the stereo image
# narrowed so that nothing cancels on the box's one driver, nothing below 100 Hz.
LOOP_LUFS = -23.0
LOOP_WIDTH = 0.4
LOOP_RIDE = 0.5  # how much of a loop's swings of loudness are ridden out (`ride`)
# soundfile's compression level for Vorbis is 1 - quality: 0.5 gives quality 0.5 (~160 kbit/s
# for stereo music), well above audible artefacts for this material, ~1.4 MB per minute.
VORBIS_COMPRESSION = 0.5
# The 9-minute scores: compression 0.8 is Vorbis quality 0.2 (~80 kbit/s for their narrowed
# stereo), ~5 MB each: nine of them (three variants of each era) keep sounds/ under 60 MB.
SCORE_VORBIS_COMPRESSION = 0.8
# Cues levelled by loudness instead of peak (max momentary loudness, BS.1770, in LUFS). They
# were the loudest sounds of the box (-7.6 and -9 LUFS), 25-35 LU above the ducked music: they
# startled. Now gong and cry stand 8-16 LU above the music under them after the box's duck
# (`duck_db`, 6 dB): the scores put the 3 s under each call at -24..-25 LUFS and their end at
# about -19.5 (`soundtrack.SPOTS`, `FINAL_LUFS`), the loops sit at -23. The tick keeps its
# -1 dBFS peak: short, bright and not ducked, it must carry over the loudest minute.
CUE_LUFS = {"gong": -16.5, "cry": -17.0}
OGG_SERIAL = 0x45524158  # "ERAX": pinned so the files do not change on every run
SOUNDS_DIR = Path(__file__).resolve().parent.parent / "sounds"


# --- small helpers ------------------------------------------------------------------------------


def rng_for(name: str) -> np.random.Generator:
    """The random generator of one sound or part, seeded by its name (stable across runs)."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def db(level_db: float) -> float:
    """Decibels to a linear amplitude factor."""
    return float(10.0 ** (level_db / 20.0))


def midi_hz(note: float) -> float:
    """MIDI note number to frequency (A4 = 69 = 440 Hz)."""
    return float(440.0 * 2.0 ** ((note - 69.0) / 12.0))


NOTE_NAMES = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}


def note_number(name: str) -> int:
    """'A4', 'F#3', 'Bb2' -> MIDI note number."""
    pitch = NOTE_NAMES[name[0]]
    rest = name[1:]
    if rest.startswith("#"):
        pitch, rest = pitch + 1, rest[1:]
    elif rest.startswith("b"):
        pitch, rest = pitch - 1, rest[1:]
    return pitch + 12 * (int(rest) + 1)


def times(n: int) -> Audio:
    """Sample times in seconds for n samples."""
    return np.arange(n, dtype=np.float64) / SR


def phase_of(freq: Audio | float, n: int) -> Audio:
    """Running phase (radians) of an oscillator whose frequency may vary per sample."""
    f = np.broadcast_to(np.asarray(freq, dtype=np.float64), (n,))
    return 2.0 * np.pi * np.concatenate(([0.0], np.cumsum(f[:-1]))) / SR


def resonance(freq: Audio, centre: float | Audio, bandwidth: float) -> Audio:
    """Gain of a two-pole resonator (1 at DC, centre/bandwidth at its peak) at `freq` Hz.

    Used as a spectral envelope for additive voices: the harmonics of a sawtooth weighted by a
    chain of these is the classic source-filter voice, without running an IIR filter per sample.
    """
    x = freq / centre
    return 1.0 / np.sqrt((1.0 - x * x) ** 2 + (freq * bandwidth / (centre * centre)) ** 2)


def band(noise: Audio, low: float, high: float) -> Audio:
    """Band-limit a short signal with an FFT mask (zero-padded, so nothing wraps round)."""
    n = len(noise)
    spectrum = np.fft.rfft(noise, 2 * n)
    freqs = np.fft.rfftfreq(2 * n, 1.0 / SR)
    # Soft edges (half an octave) so the band does not ring like a brick-wall filter.
    mask = np.clip(np.log2(np.maximum(freqs, 1.0) / low) * 2 + 1, 0, 1) * np.clip(
        np.log2(high / np.maximum(freqs, 1.0)) * 2 + 1, 0, 1
    )
    return np.fft.irfft(spectrum * mask, 2 * n)[:n]


def envelope(n: int, attack: float, release: float) -> Audio:
    """Linear attack, flat sustain, cosine release over n samples (times in seconds)."""
    env = np.ones(n)
    a = min(n, max(1, int(attack * SR)))
    r = min(n - a, max(1, int(release * SR)))
    env[:a] = np.linspace(0.0, 1.0, a, endpoint=False)
    if r > 0:
        env[n - r :] *= 0.5 + 0.5 * np.cos(np.linspace(0.0, np.pi, r))
    return env


def additive(phase: Audio, amps: Audio) -> Audio:
    """Sum of harmonics k = 1..K of one phase; `amps` is (K,) or (K, n) for moving timbres."""
    out = np.zeros_like(phase)
    for k in range(amps.shape[0]):
        out += amps[k] * np.sin((k + 1) * phase)
    return out


def peak_normalise(x: Audio, peak_dbfs: float) -> Audio:
    """Scale so the largest sample magnitude is `peak_dbfs`."""
    return x * (db(peak_dbfs) / np.max(np.abs(x)))


def frozen(x: Audio) -> Audio:
    """Mark a cached note read-only so no caller can change it for everyone else."""
    x.flags.writeable = False
    return x


# --- cues ---------------------------------------------------------------------------------------


GONG_SECONDS = 13.0
TICK_SECONDS = 0.08
GONG_DRIVE = 1.6
GONG_LOW_HZ = 168.0  # the lowest plate mode


def synth_gong(seconds: float = GONG_SECONDS) -> Audio:
    """A struck tam-tam (mono): a dense inharmonic wash over a few beating low modes.

    What makes a tam-tam: hundreds of crowded plate modes from ~200 Hz to ~6 kHz, none in a
    harmonic series, ringing 10-15 s (the high ones shorter), a bright wash that blooms a
    little after the strike as the hit plate passes energy upwards, and under it a handful of
    strong low modes in beating pairs that give the gong its "pitch". The felt mallet gives a
    sharp, broadband first 100 ms, so the strike is heard (and found) at once.
    """
    rng = rng_for("gong")
    n = int(seconds * SR)
    t = times(n)
    glide = 1.0 + 0.012 * np.exp(-t / 0.7)  # the struck plate relaxes: pitch sinks ~1 %
    out = np.zeros(n)
    # The low modes: a domed centre, crowded and far from the harmonic series. They start at
    # 168 Hz (they started at 96 Hz, a quarter of the gong's energy that a small box speaker
    # cannot play): the gong's "pitch" now sounds on the box, not only on a hi-fi.
    fundamental = GONG_LOW_HZ
    for ratio in (1.0, 1.52, 2.03, 2.41, 2.97, 3.38, 3.93, 4.61, 5.29):
        amp = ratio**-0.35 * rng.uniform(0.6, 1.0)
        t60 = 15.0 / (1.0 + 0.12 * (ratio - 1.0))
        split = rng.uniform(0.4, 2.2)  # a nearly degenerate pair of modes beats
        decay = np.exp(-6.91 * t / t60)
        for side in (-0.5, 0.5):
            freq = (fundamental * ratio + side * split) * glide
            out += 0.5 * amp * decay * np.sin(phase_of(freq, n) + rng.uniform(0, 2 * np.pi))
    # The wash: 220 modes spread log-evenly (with jitter) from 200 Hz to 6 kHz.
    edges = np.geomspace(200.0, 6000.0, 221)
    for lo, hi in pairwise(edges):
        freq = rng.uniform(lo, hi)
        amp = 0.16 * (freq / 200.0) ** -0.25 * rng.uniform(0.4, 1.0)
        t60 = 14.0 / (1.0 + freq / 2500.0)  # 13 s at 200 Hz, ~4 s at 6 kHz
        bloom = 1.0 - 0.5 * np.exp(-t / rng.uniform(0.1, 0.6))  # grows in after the strike
        out += amp * bloom * np.exp(-6.91 * t / t60) * np.sin(
            phase_of(freq * glide, n) + rng.uniform(0, 2 * np.pi))
    # The mallet: a broadband knock (noise 150 Hz-5 kHz, 25 ms) and a thump under it.
    hit = int(0.12 * SR)
    th = times(hit)
    out[:hit] += 1.2 * band(rng.standard_normal(hit), 150.0, 5000.0) * np.exp(-th / 0.025)
    out[:hit] += 0.5 * np.sin(phase_of(GONG_LOW_HZ * 0.95, hit)) * np.exp(-th / 0.04)
    # A big plate is not linear: loud, its modes mix and the peaks round off (tanh), which
    # also lets the ring sit louder under the same -1 dBFS peak.
    out = np.tanh(GONG_DRIVE * out / np.max(np.abs(out)))
    out *= envelope(n, 0.001, 1.5)
    # What the saturation folded below the low modes, taken out (a box speaker cannot play
    # it either): >= 85 % of the gong's energy lies above 150 Hz.
    from scipy.signal import butter, sosfilt

    out = sosfilt(butter(2, 130.0, "highpass", fs=SR, output="sos"), out)
    return peak_normalise(out, CUE_PEAK_DBFS)


@dataclass(frozen=True)
class CryBurst:
    """One exhaled wail: when, how long, its top pitch, and an optional falsetto voice break."""

    start: float
    length: float
    top_hz: float
    voice_break: tuple[float, float] | None = None  # fraction of the burst it spans


CRY_BURSTS = (
    CryBurst(0.04, 0.62, 520.0),
    CryBurst(0.92, 0.56, 545.0),
    CryBurst(1.74, 0.86, 550.0, voice_break=(0.42, 0.52)),
)
CRY_SECONDS = 2.7
# Timbre and level of the cry. It was a bright sawtooth with harmonics to ~10 kHz (the voice
# break pushed them up) at -4 LUFS: the loudest and harshest sound of the box. Now: a steeper
# source slope (k^-0.75, was k^-0.6), harmonics only below 6 kHz with a soft ceiling from
# ~3.5 kHz, a quieter third formant, and a level set by loudness rather than peak.
CRY_SLOPE = 0.75
CRY_TOP_HZ = 6000.0
CRY_SOFT_HZ = 3500.0


def synth_cry() -> Audio:
    """A baby's wail (mono): sawtooth harmonics through moving vowel formants, "waa-waa-waaah".

    Each burst rises from ~410 Hz to its top and falls back (the arch of an infant cry), with
    vibrato and jitter; the third flips briefly up into falsetto (a voice break). Between
    bursts the baby breathes in: noisy, higher, quieter.
    """
    rng = rng_for("cry")
    total = int(CRY_SECONDS * SR)
    out = np.zeros(total)
    for burst in CRY_BURSTS:
        n = int(burst.length * SR)
        t = times(n)
        u = t / burst.length
        f0 = 410.0 + (burst.top_hz - 410.0) * np.sin(np.pi * u**0.7)
        if burst.voice_break is not None:
            lo, hi = burst.voice_break
            # A smooth 10 ms switch up a minor sixth and back: the larynx flips register.
            edge = 0.010 / burst.length
            flip = np.clip((u - lo) / edge, 0, 1) * np.clip((hi - u) / edge, 0, 1)
            f0 = f0 * (1.0 + 0.6 * flip)
        vibrato = 1.0 + 0.015 * np.sin(2 * np.pi * 6.5 * t + rng.uniform(0, 2 * np.pi))
        # Jitter: slow random wander of the pitch (noise smoothed to ~25 Hz), about 1 %.
        wander = np.convolve(rng.standard_normal(n + 1800), np.hanning(1800), "valid")[:n]
        wander *= 0.01 / (np.std(wander) + 1e-12)
        f0 = f0 * vibrato * (1.0 + wander)
        phase = phase_of(f0, n)
        # "w" -> "aa": formants open from a rounded onset to the wide-open infant vowel, then
        # close a little as the breath runs out.
        opening = 1.0 - np.exp(-t / 0.05)
        closing = np.clip((u - 0.85) / 0.15, 0, 1)
        f1 = 600.0 + 500.0 * opening - 200.0 * closing
        f2 = 1400.0 + 1500.0 * opening - 300.0 * closing
        f3 = 4300.0
        harmonics = int(CRY_TOP_HZ / burst.top_hz)
        amps = np.empty((harmonics, n))
        for k in range(1, harmonics + 1):
            fk = k * f0
            # Formants in parallel, each scaled to 1 at its peak, so F2 keeps its own level
            # instead of sinking under F1's skirt as in a cascade.
            gain = sum(level * resonance(fk, centre, width) * width / centre
                       for centre, width, level in ((f1, 200.0, 1.0), (f2, 250.0, 0.8),
                                                    (f3, 400.0, 0.12)))
            # A strained but not buzzy voice: a source slope near speech's, and a soft
            # ceiling (-12 dB at 4.9 kHz) so the voice break's upper harmonics do not pierce.
            ceiling = 1.0 / (1.0 + (fk / CRY_SOFT_HZ) ** 4)
            amps[k - 1] = np.where(fk < CRY_TOP_HZ, gain * ceiling / k**CRY_SLOPE, 0.0)
        voice = additive(phase, amps)
        # Roughness: a subharmonic (period doubling) at the start of the wail and again in a
        # random strained moment or two; and the breath pressure swells irregularly (noise
        # smoothed to a few Hz), so no two wails have the same flat top.
        strain = np.exp(-t / 0.12)
        for _ in range(int(rng.integers(1, 3))):
            centre, width = rng.uniform(0.25, 0.8) * burst.length, rng.uniform(0.03, 0.07)
            strain = strain + 0.6 * np.exp(-(((t - centre) / width) ** 2))
        rough = 1.0 + 0.25 * np.sin(phase / 2.0) * np.minimum(strain, 1.0)
        swells = np.convolve(rng.standard_normal(n + 6615), np.hanning(6615), "valid")[:n]
        rough = rough * (1.0 + 0.3 * swells / (np.max(np.abs(swells)) + 1e-12))
        # Breath through the open vowel: noise in the two formant regions, not a flat band.
        noise = rng.standard_normal(n)
        breath = (band(noise, 900.0, 1300.0) + 0.7 * band(noise, 2500.0, 3200.0)) * 0.03
        shimmer = 1.0 + 0.08 * np.convolve(rng.standard_normal(n + 600), np.hanning(600) / 300,
                                           "valid")[:n]
        wail = (voice * rough * shimmer + breath * np.max(np.abs(voice))) * envelope(
            n, 0.04, 0.09
        )
        start = int(burst.start * SR)
        out[start : start + n] += wail[: total - start]
    peak = np.max(np.abs(out))
    # The in-breaths, in the gaps between bursts.
    for gap_start, gap_end in zip(
        [b.start + b.length for b in CRY_BURSTS[:-1]], [b.start for b in CRY_BURSTS[1:]],
        strict=True,
    ):
        # A short, squeaky gasp just before the next wail (the throat half closed): noise
        # whose resonance rises from ~1 kHz to ~2 kHz, a quick swell and a sharp stop.
        e = int((gap_end - 0.03) * SR)
        s = max(int((gap_start + 0.05) * SR), e - int(rng.uniform(0.13, 0.19) * SR))
        u = np.linspace(0.0, 1.0, e - s)
        noise = rng.standard_normal(e - s)
        gasp = (band(noise, 800.0, 1400.0) * (1.0 - u) + band(noise, 1500.0, 2400.0) * u
                + 0.25 * band(noise, 2400.0, 4500.0))
        gasp *= np.sin(np.pi * np.minimum(u / 0.7, 1.0) / 2) ** 2 * np.clip((1.0 - u) / 0.12, 0, 1)
        out[s:e] += 0.12 * peak * gasp / np.max(np.abs(gasp))
    out *= envelope(total, 0.001, 0.05)
    return peak_normalise(out, CUE_PEAK_DBFS)


def synth_tick() -> Audio:
    """A clock tick (mono), 80 ms: a noise click and a few tiny, fast-dying metal modes."""
    rng = rng_for("tick")
    n = int(TICK_SECONDS * SR)
    t = times(n)
    out = np.zeros(n)
    # The metal modes ring a little longer than a mantel clock's (25-30 ms at 2-4 kHz, where
    # the music is thinnest): the final ticks sound over the loudest seconds of every score,
    # and must stand 6 dB above them in their own band without being louder at the peak.
    for freq, tau, amp in ((1180.0, 0.016, 0.4), (2350.0, 0.03, 1.0), (3810.0, 0.025, 0.9),
                           (5230.0, 0.012, 0.5)):
        out += amp * np.exp(-t / tau) * np.sin(phase_of(freq, n))
    out += 0.8 * band(rng.standard_normal(n), 2000.0, 9000.0) * np.exp(-t / 0.0015)
    # Rounded like a hard little hammer on metal (tanh): more of it at the same peak.
    out = np.tanh(4.0 * out / np.max(np.abs(out)))
    out *= envelope(n, 0.0003, 0.01)
    return peak_normalise(out, CUE_PEAK_DBFS)


# --- instruments (each returns one note, mono, cached: loops repeat the same notes) -----------


@cache
def pluck(freq: float, seconds: float, brightness: float, t60: float) -> Audio:
    """A plucked string (Karplus-Strong): a noise burst circulating in a damped delay line.

    The loop `y[n] = g * (y[n-N] + y[n-N-1]) / 2` is computed one period at a time (every
    sample of a period depends only on the period before), then resampled so the pitch is
    exact rather than rounded to a whole-sample delay.
    """
    rng = rng_for(f"pluck {freq:.3f}")
    period = SR / freq
    delay = max(2, int(period))
    # The two-point average adds half a sample of delay.
    speed = (delay + 0.5) / period
    n = int(seconds * SR)
    m = int(n * speed) + 2
    gain = 10.0 ** (-3.0 / (t60 * freq))
    buf = np.zeros(m + delay + 1)
    burst = rng.uniform(-1.0, 1.0, delay)
    # Brightness: mix the raw burst with a smoothed one (a softer finger, fewer overtones).
    soft = np.convolve(burst, np.ones(5) / 5, "same")
    buf[1 : delay + 1] = brightness * burst + (1.0 - brightness) * soft
    pos = delay + 1
    while pos < len(buf):
        end = min(pos + delay, len(buf))
        seg = end - pos
        buf[pos:end] = gain * 0.5 * (buf[pos - delay : pos - delay + seg]
                                     + buf[pos - delay - 1 : pos - delay - 1 + seg])
        pos = end
    string = buf[1:]
    note = np.interp(np.arange(n) * speed, np.arange(len(string)), string)
    note -= np.mean(note)
    note *= envelope(n, 0.002, 0.08)
    return frozen(note / (np.max(np.abs(note)) + 1e-12))


@cache
def reed(freq: float, seconds: float, brightness: float) -> Audio:
    """A double-reed note (shawm, bagpipe chanter): bright harmonics, nasal formants, vibrato."""
    n = int(seconds * SR)
    t = times(n)
    vibrato = 1.0 + 0.004 * np.sin(2 * np.pi * 5.3 * t) * np.clip((t - 0.12) / 0.2, 0, 1)
    f0 = freq * vibrato
    harmonics = max(1, int(7000.0 / freq))
    k = np.arange(1, harmonics + 1, dtype=np.float64)
    fk = k * freq
    amps = k**-brightness * resonance(fk, 1250.0, 500.0) * resonance(fk, 2900.0, 900.0)
    note = additive(phase_of(f0, n), amps / np.sum(amps))
    note *= envelope(n, 0.025, 0.05)
    return frozen(note / (np.max(np.abs(note)) + 1e-12))


@cache
def flute(freq: float, seconds: float, breathiness: float, chiff: float) -> Audio:
    """A flute or recorder note: nearly sine, breath noise around it, a chiff at the attack."""
    rng = rng_for(f"flute {freq:.3f} {seconds:.3f}")
    n = int(seconds * SR)
    t = times(n)
    vibrato = 1.0 + 0.005 * np.sin(2 * np.pi * 4.6 * t) * np.clip((t - 0.25) / 0.3, 0, 1)
    tone = additive(phase_of(freq * vibrato, n), np.array([1.0, 0.18, 0.07, 0.03]))
    breath = band(rng.standard_normal(n), freq * 0.8, freq * 4.0)
    breath *= breathiness / (np.std(breath) + 1e-12) * 0.25
    puff = band(rng.standard_normal(n), 1500.0, 6000.0) * np.exp(-t / 0.02) * chiff
    note = (tone + breath + puff) * envelope(n, 0.06, 0.12)
    return frozen(note / (np.max(np.abs(note)) + 1e-12))


@cache
def saw_synth(freq: float, seconds: float, cutoff: float, sweep: float, detune: float) -> Audio:
    """An analogue-style sawtooth through a low-pass whose cutoff falls from cutoff*sweep.

    Band-limited by construction (harmonics only below 16 kHz), so no aliasing. `detune`
    (cents) adds a second saw for width and movement.
    """
    n = int(seconds * SR)
    t = times(n)
    fc = cutoff * (1.0 + (sweep - 1.0) * np.exp(-t / 0.08))
    note = np.zeros(n)
    for cents in (0.0, detune) if detune else (0.0,):
        f = freq * 2.0 ** (cents / 1200.0)
        harmonics = max(1, int(min(16000.0, cutoff * sweep * 4.0) / f))
        amps = np.empty((harmonics, n))
        for k in range(1, harmonics + 1):
            # 4-pole-like roll-off above the cutoff, a little resonance at it.
            x = k * f / fc
            bump = 1.0 + 0.6 * np.exp(-((x - 1.0) ** 2) * 8.0)
            amps[k - 1] = (1.0 / k) / np.sqrt(1.0 + x**8) * bump
        note += additive(phase_of(f, n), amps)
    note *= envelope(n, 0.004, 0.03)
    return frozen(note / (np.max(np.abs(note)) + 1e-12))


@cache
def pulse_pluck(freq: float, seconds: float, width: float, cutoff: float) -> Audio:
    """A short pulse-wave pluck (arpeggio, lead): duty cycle `width`, fast decaying filter."""
    n = int(seconds * SR)
    t = times(n)
    fc = cutoff * (0.5 + 1.5 * np.exp(-t / 0.06))
    harmonics = max(1, int(min(16000.0, cutoff * 3.0) / freq))
    amps = np.empty((harmonics, n))
    for k in range(1, harmonics + 1):
        amps[k - 1] = np.sin(np.pi * k * width) / k / np.sqrt(1.0 + (k * freq / fc) ** 4)
    note = additive(phase_of(freq, n), amps) * np.exp(-t / (seconds * 0.45))
    note *= envelope(n, 0.003, 0.02)
    return frozen(note / (np.max(np.abs(note)) + 1e-12))


@cache
def drum(kind: str) -> Audio:
    """One drum stroke by name: frame drum `dum`/`tak`, `tabor`, `naker`, `kick`, `hat`, `clap`."""
    rng = rng_for(f"drum {kind}")
    n = int({"dum": 0.7, "tak": 0.2, "tabor": 0.35, "naker": 0.5, "kick": 0.45,
             "hat": 0.08, "clap": 0.25}[kind] * SR)
    t = times(n)
    noise = rng.standard_normal(n)
    if kind == "dum":  # the open centre of a frame drum: a low, slightly falling boom
        f = 64.0 + 40.0 * np.exp(-t / 0.04)
        out = np.sin(phase_of(f, n)) * np.exp(-t / 0.28)
        out += 0.4 * np.sin(phase_of(f * 1.59, n)) * np.exp(-t / 0.1)
        out += 0.5 * band(noise, 80.0, 900.0) * np.exp(-t / 0.01)
    elif kind == "tak":  # a finger on the rim: high membrane modes, short
        out = sum((a * np.sin(phase_of(f, n)) * np.exp(-t / d)
                   for f, d, a in ((330.0, 0.05, 1.0), (565.0, 0.035, 0.7), (890.0, 0.025, 0.5))),
                  np.zeros(n))
        out += 0.9 * band(noise, 1000.0, 5000.0) * np.exp(-t / 0.012)
    elif kind == "tabor":  # a small snared drum: a tone plus the rattle of the snare gut
        out = np.sin(phase_of(185.0 + 40.0 * np.exp(-t / 0.02), n)) * np.exp(-t / 0.05)
        out += 1.2 * band(noise, 1500.0, 7000.0) * np.exp(-t / 0.09)
    elif kind == "naker":  # a small kettle drum, tuned to the drone's root
        out = np.sin(phase_of(98.0 * (1.0 + 0.1 * np.exp(-t / 0.03)), n)) * np.exp(-t / 0.2)
        out += 0.3 * band(noise, 100.0, 1200.0) * np.exp(-t / 0.008)
    elif kind == "kick":  # a sine sweeping down, plus a short click
        f = 48.0 + 110.0 * np.exp(-t / 0.03)
        out = np.sin(phase_of(f, n)) * np.exp(-t / 0.22)
        out += 0.3 * band(noise, 2000.0, 8000.0) * np.exp(-t / 0.002)
    elif kind == "hat":  # high noise, very short
        out = band(noise, 7000.0, 16000.0) * np.exp(-t / 0.018)
    elif kind == "clap":  # three quick slaps and a short tail
        out = np.zeros(n)
        for i, delay in enumerate((0.0, 0.011, 0.023)):
            d = int(delay * SR)
            out[d:] += np.exp(-t[: n - d] / (0.007 if i < 2 else 0.06))
        out *= band(noise, 900.0, 4000.0)
    else:
        raise ValueError(f"unknown drum {kind!r}")
    out *= envelope(n, 0.0008, 0.02)
    return frozen(out / (np.max(np.abs(out)) + 1e-12))


def forget_notes() -> None:
    """Empty the note caches (so a second render really synthesises everything again)."""
    for instrument in (pluck, reed, flute, saw_synth, pulse_pluck, drum):
        instrument.cache_clear()


# --- the loop -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Metre:
    """Tempo and bar of a loop. The beat is a whole number of samples so bars tile exactly."""

    beat_samples: int  # one counting unit (a quarter in 4/4, an eighth in 6/8)
    beats_per_bar: int

    @property
    def bar_samples(self) -> int:
        return self.beat_samples * self.beats_per_bar

    @property
    def beat_s(self) -> float:
        return self.beat_samples / SR


class Loop:
    """A stereo ring buffer of whole bars: what rings past the end is added into the start."""

    def __init__(self, metre: Metre, bars: int, name: str) -> None:
        self.metre = metre
        self.bars = bars
        self.length = metre.bar_samples * bars
        self.audio = np.zeros((self.length, 2))
        self.rng = rng_for(name)

    def seconds(self) -> float:
        """Length of the loop in seconds."""
        return self.length / SR

    def loop_hz(self, freq: float) -> float:
        """The nearest frequency that makes a whole number of cycles per loop (drones, LFOs)."""
        return max(1, round(freq * self.length / SR)) * SR / self.length

    def add(self, bar: int, beat: float, note: Audio, gain: float, pan: float = 0.0,
            humanise: float = 0.0) -> None:
        """Add a mono note at bar/beat (0-based), panned (-1 left .. 1 right), wrapping round.

        Notes in bars the loop does not have (a shortened test render) are dropped.
        `humanise` shifts the note by up to that many seconds and its loudness by up to 1 dB,
        randomly but reproducibly.
        """
        if bar >= self.bars:
            return
        start = bar * self.metre.bar_samples + round(beat * self.metre.beat_samples)
        if humanise:
            start += round(self.rng.uniform(-humanise, humanise) * SR)
            gain *= db(self.rng.uniform(-1.0, 1.0))
        angle = (pan + 1.0) * np.pi / 4.0  # constant-power pan
        sides = np.array([np.cos(angle), np.sin(angle)]) * gain
        pos = start % self.length
        done = 0
        while done < len(note):  # a note longer than the loop wraps more than once
            take = min(len(note) - done, self.length - pos)
            self.audio[pos : pos + take] += note[done : done + take, None] * sides
            done += take
            pos = 0

    def add_whole(self, signal: Audio, gain: float, pan: float = 0.0) -> None:
        """Add a loop-long mono signal (a drone) as it is."""
        self.add(0, 0.0, signal[: self.length], gain, pan)

    def play(self, melody: Iterator[tuple[float, float, str | None]], instrument:
             Callable[[float, float], Audio], gain: float, pan: float = 0.0, first_bar: int = 0,
             humanise: float = 0.005) -> None:
        """Play a parsed melody (beats from `first_bar`) on an instrument(freq, seconds)."""
        per_bar = self.metre.beats_per_bar
        for onset, length, name in melody:
            if name is None:
                continue
            bar = first_bar + int(onset // per_bar)
            note = instrument(midi_hz(note_number(name)), length * self.metre.beat_s)
            self.add(bar, onset % per_bar, note, gain, pan, humanise)


def melody(text: str) -> Iterator[tuple[float, float, str | None]]:
    """Parse 'A4:1 C5:.5 D5 -:2 ...' into (onset, length, note) in beats; '-' is a rest.

    A note without a length keeps the previous length; '|' (bar lines) is ignored.
    """
    onset, length = 0.0, 1.0
    for token in text.split():
        if token == "|":
            continue
        name, _, given = token.partition(":")
        if given:
            length = float(given)
        yield onset, length, None if name == "-" else name
        onset += length


def circular_reverb(loop: Loop, t60: float, wet: float) -> None:
    """A hall: convolve with decaying noise, circularly, so the reverb tail wraps seamlessly."""
    n_ir = min(int(t60 * SR), loop.length)
    t = times(n_ir)
    for ch in range(2):
        ir = loop.rng.standard_normal(n_ir) * np.exp(-6.91 * t / t60)
        ir = np.convolve(ir, np.ones(4) / 4, "same")  # a little darker than white
        ir[: int(0.018 * SR)] = 0.0  # pre-delay: the first reflection comes a bit later
        ir /= np.sqrt(np.sum(ir**2))
        tail = np.fft.irfft(np.fft.rfft(loop.audio[:, ch]) * np.fft.rfft(ir, loop.length),
                            loop.length)
        loop.audio[:, ch] = loop.audio[:, ch] * (1.0 - wet) + tail * wet * 1.6


def ride(audio: Audio, share: float = LOOP_RIDE, window_s: float = 3.0) -> Audio:
    """Halve (`share`) how far each moment's short-term loudness strays from the loop's
    middle level, round the ring (a 3 s K-weighted window, the gain smoothed over 1 s, both
    wrapping), so a cue lands the same few LU above the loop wherever it falls."""
    from soundtrack.listen import _k_weight

    n = len(audio)
    weighted = _k_weight(np.concatenate([audio, audio, audio]))[n : 2 * n]
    power = np.sum(weighted**2, axis=1)

    def circular_mean(x: Audio, seconds: float) -> Audio:
        width = max(1, min(round(seconds * SR), n))
        ring = np.concatenate([x[-width:], x, x[:width]])
        cum = np.concatenate([[0.0], np.cumsum(ring)])
        centred = (cum[width // 2 + width : width // 2 + width + n]
                   - cum[width // 2 : width // 2 + n]) / width
        return np.asarray(centred)

    level = 10.0 * np.log10(circular_mean(power, window_s) + 1e-12)
    gain_db = np.clip(-share * (level - np.median(level)), -6.0, 6.0)
    gain_db = circular_mean(gain_db, 1.0)
    return audio * (10.0 ** (gain_db / 20.0))[:, None]


def master(loop: Loop) -> Audio:
    """Master a loop like the scores, without breaking its seam (every step is circular or
    memoryless): the stereo image narrowed to LOOP_WIDTH (the sum untouched), a 4th-order
    high-pass at 100 Hz applied round the ring (a zero-phase Butterworth magnitude on the
    loop's own spectrum), the whole to LOOP_LUFS, rare peaks above -3 dBFS rounded off."""
    from soundtrack.master import HIGH_PASS_HZ
    from soundtrack.measure import lufs

    mid = loop.audio.mean(axis=1)
    side = (loop.audio[:, 0] - loop.audio[:, 1]) * 0.5 * LOOP_WIDTH
    audio = np.stack([mid + side, mid - side], axis=1)
    freqs = np.fft.rfftfreq(len(audio), 1.0 / SR)
    response = 1.0 / np.sqrt(1.0 + (HIGH_PASS_HZ / np.maximum(freqs, 1e-3)) ** 8)
    audio = np.fft.irfft(np.fft.rfft(audio, axis=0) * response[:, None], len(audio), axis=0)
    audio = ride(audio)
    for _ in range(2):  # the soft knee takes a little off the loudest moments
        audio = audio * db(LOOP_LUFS - lufs(np.concatenate([audio, audio])))
        knee = db(-3.0)
        over = np.abs(audio) > knee
        room = db(-1.0) - knee
        audio[over] = np.sign(audio[over]) * (knee + room * np.tanh((np.abs(audio[over]) - knee)
                                                                    / room))
    return audio


# --- Era I: ancient -----------------------------------------------------------------------------

# 70 bpm: a quarter is 37800 samples, a 16th 9450; 20 bars = 68.6 s.
ERA1_METRE = Metre(beat_samples=37800, beats_per_bar=4)
ERA1_BARS = 20
ERA1_MELODIES = {
    "ascent": "A4:1 C5:.5 D5 A4:1 G4 | F4:1.5 G4:.5 A4:2 "
              "| D5:1 C5:.5 A4 G4:1 F4 | E4:1 F4:.5 E4 D4:2",
    "height": "D5:2 E5:1 D5:.5 C5 | A4:3 G4:1 | A4:1 C5 D5 F5 | E5:2 D5",
    "return": "F5:1 E5:.5 D5 C5:1 A4 | G4:1 A4:.5 G4 F4:2 | E4:1 D4 E4 F4 | D4:4",
}


def compose_era1(bars: int = ERA1_BARS) -> Loop:
    """Era I: a slow D dorian piece over an open-fifth drone, lyre, frame drum and flute."""
    loop = Loop(ERA1_METRE, bars, "era1")
    seconds = loop.seconds()
    t = times(loop.length)
    # The drone: D2 and A2, reedy but soft, breathing once every four bars.
    swell = 0.8 + 0.2 * np.sin(2 * np.pi * loop.loop_hz(bars / 4 / seconds) * t)
    for root, pan in ((note_number("D2"), -0.3), (note_number("A2"), 0.3)):
        f = loop.loop_hz(midi_hz(root))
        amps = np.arange(1, 13, dtype=np.float64) ** -1.3
        loop.add_whole(additive(2 * np.pi * f * t, amps) * swell, 0.14, pan)
    # The lyre ostinato: the chord of each bar picked in eighths; bars 3 of 4 go to C.
    for bar in range(bars):
        root = note_number("C3") if bar % 4 == 2 else note_number("D3")
        third = 4 if bar % 4 == 2 else 3
        for i, step in enumerate((0, 7, 12, 7, 12 + third, 7, 12, 7)):
            if bar % 4 == 3 and i in (5, 7):
                continue  # breathe at the end of each four-bar line
            note = pluck(midi_hz(root + step), 2.4, 0.5, 2.2)
            loop.add(bar, i * 0.5, note, 0.32 if i == 0 else 0.22, -0.35, humanise=0.006)
    # The melodies: lyre high, then the flute, then both, then the way home.
    lyre = lambda f, s: pluck(f, max(s, 1.5) + 1.0, 0.75, 2.6)  # noqa: E731
    ney = lambda f, s: flute(f, s + 0.1, 0.5, 0.4)  # noqa: E731
    loop.play(melody(ERA1_MELODIES["ascent"]), lyre, 0.42, 0.25, first_bar=4)
    loop.play(melody(ERA1_MELODIES["height"]), ney, 0.34, 0.15, first_bar=8)
    loop.play(melody(ERA1_MELODIES["ascent"]), ney, 0.30, 0.15, first_bar=12)
    loop.play(melody(ERA1_MELODIES["ascent"]), lyre, 0.2, 0.45, first_bar=12)
    loop.play(melody(ERA1_MELODIES["return"]), lyre, 0.4, 0.25, first_bar=16)
    # The frame drum: dum . tak . dum tak . tak, with a fill closing each line.
    for bar in range(bars):
        pattern = "d.t.dt.t" if bar % 4 != 3 else "d.tdt.tt"
        for i, stroke in enumerate(pattern):
            if stroke == "d":
                loop.add(bar, i * 0.5, drum("dum"), 0.55, 0.0, humanise=0.004)
            elif stroke == "t":
                loop.add(bar, i * 0.5, drum("tak"), 0.22 if i % 2 else 0.3, 0.2, humanise=0.004)
    circular_reverb(loop, 2.8, 0.32)
    return loop


# --- Era II: medieval ---------------------------------------------------------------------------

# 6/8 at 80 dotted quarters per minute: an eighth is 11025 samples, a bar 1.5 s; 48 bars = 72 s.
ERA2_METRE = Metre(beat_samples=11025, beats_per_bar=6)
ERA2_BARS = 48
ERA2_MELODIES = {
    "call": "D5:3 B4 | C5:2 B4:1 A4:3 | G4:3 A4 | G4:6",
    "a": "G4:2 A4:1 B4:2 C5:1 | D5:3 B4:2 G4:1 | A4:2 B4:1 C5:2 A4:1 | B4:3 G4 "
         "| F4:2 G4:1 A4:2 B4:1 | C5:2 B4:1 A4:2 G4:1 | F4:2 A4:1 G4:2 F4:1 | G4:6",
    "b": "D5:2 E5:1 F5:2 E5:1 | D5:2 C5:1 B4:3 | C5:2 D5:1 E5:2 C5:1 | D5:6 "
         "| F5:2 E5:1 D5:2 C5:1 | B4:2 C5:1 D5:3 | C5:2 B4:1 A4:2 F4:1 | G4:6",
}
G_MIXOLYDIAN = ("G", "A", "B", "C", "D", "E", "F")


def organum(text: str, steps: int) -> str:
    """The same melody moved `steps` degrees within G mixolydian (a parallel voice)."""
    out = []
    for token in text.split():
        name, sep, length = token.partition(":")
        if name in ("-", "|"):
            out.append(token)
            continue
        index = G_MIXOLYDIAN.index(name[0]) + 7 * int(name[-1]) + steps
        moved = f"{G_MIXOLYDIAN[index % 7]}{index // 7}"
        out.append(moved + sep + length)
    return " ".join(out)


def compose_era2(bars: int = ERA2_BARS) -> Loop:
    """Era II: an estampie in G mixolydian: bagpipe drone, shawm, recorder, tabor, naker."""
    loop = Loop(ERA2_METRE, bars, "era2")
    t = times(loop.length)
    # The bagpipe drones, G2 and D3: reedy and steady, as a bag keeps them.
    for root, gain, pan in (("G2", 0.11, -0.2), ("D3", 0.07, 0.2)):
        f = loop.loop_hz(midi_hz(note_number(root)))
        k = np.arange(1, int(5000 / f) + 1, dtype=np.float64)
        amps = k**-0.9 * resonance(k * f, 1100.0, 700.0)
        wobble = 1.0 + 0.04 * np.sin(2 * np.pi * loop.loop_hz(0.23) * t)
        loop.add_whole(additive(2 * np.pi * f * t, amps / np.sum(amps)) * wobble, gain, pan)
    shawm = lambda f, s: reed(f, s * 0.92, 0.55)  # noqa: E731 (slightly detached, as tongued)
    recorder = lambda f, s: flute(f, s * 0.95, 0.35, 1.0)  # noqa: E731
    # Form: call (4) | A shawm | A shawm + recorder 4th below | B shawm | B recorder + shawm
    #       | A recorder + shawm organum | call on the recorder (4), leading back to the start.
    a, b, call = ERA2_MELODIES["a"], ERA2_MELODIES["b"], ERA2_MELODIES["call"]
    loop.play(melody(call), shawm, 0.3, 0.1, first_bar=0)
    loop.play(melody(a), shawm, 0.36, 0.1, first_bar=4)
    loop.play(melody(a), shawm, 0.33, 0.1, first_bar=12)
    loop.play(melody(organum(a, -3)), recorder, 0.28, -0.4, first_bar=12)
    loop.play(melody(b), shawm, 0.36, 0.1, first_bar=20)
    loop.play(melody(b), recorder, 0.34, -0.3, first_bar=28)
    loop.play(melody(organum(b, -4)), shawm, 0.24, 0.35, first_bar=28)
    loop.play(melody(a), recorder, 0.34, -0.3, first_bar=36)
    loop.play(melody(organum(a, 4)), shawm, 0.22, 0.35, first_bar=36)
    loop.play(melody(call), recorder, 0.3, -0.3, first_bar=44)
    # Tabor: the dance rhythm in eighths; the naker marks each bar, harder every fourth.
    for bar in range(bars):
        pattern = "X.xX.x" if bar % 4 != 3 else "X.xXxx"
        for i, stroke in enumerate(pattern):
            if stroke != ".":
                loop.add(bar, i, drum("tabor"), 0.3 if stroke == "X" else 0.17, 0.25,
                         humanise=0.005)
        loop.add(bar, 0, drum("naker"), 0.5 if bar % 4 == 0 else 0.35, -0.1, humanise=0.003)
    circular_reverb(loop, 2.2, 0.28)
    return loop


# --- Era III: modern ----------------------------------------------------------------------------

# 126 bpm: a quarter is 21000 samples, a 16th 5250; 36 bars = 68.6 s.
ERA3_METRE = Metre(beat_samples=21000, beats_per_bar=4)
ERA3_BARS = 36
ERA3_CHORDS = (  # i VI III VII in A minor, one bar each: (bass root, pad voicing)
    ("A1", ("A3", "C4", "E4")),
    ("F1", ("F3", "A3", "C4")),
    ("C2", ("G3", "C4", "E4")),
    ("G1", ("G3", "B3", "D4")),
)
ERA3_LEAD = ("E5:1.5 D5:.5 C5:1 B4 | A4:1.5 C5:.5 A4:2 | G4:1.5 A4:.5 C5:1 E5 | D5:4 "
             "| E5:1.5 D5:.5 C5:1 B4 | A4:1.5 B4:.5 C5:2 | B4:1 C5 D5 E5 | A4:4")


def compose_era3(bars: int = ERA3_BARS) -> Loop:
    """Era III: driving A minor electronica: arpeggio, synth bass, pad, kick, hats, a lead."""
    loop = Loop(ERA3_METRE, bars, "era3")

    def section(bar: int) -> str:
        # 4 intro | 8 groove | 8 lead | 4 breakdown | 8 lead | 4 outro (= intro, for the seam)
        for last, name in ((4, "intro"), (12, "groove"), (20, "lead"), (24, "break"),
                           (32, "lead"), (36, "intro")):
            if bar < last:
                return name
        return "intro"

    for bar in range(bars):
        part = section(bar)
        root, voicing = ERA3_CHORDS[bar % 4]
        # The arpeggio: chord tones in 16ths; its filter opens as the piece builds.
        cutoff = {"intro": 1400.0, "groove": 2200.0, "lead": 2800.0, "break": 1800.0}[part]
        tones = [note_number(v) for v in voicing] + [note_number(voicing[0]) + 12]
        for i, idx in enumerate((0, 1, 2, 3, 2, 1, 2, 3) * 2):
            note = pulse_pluck(midi_hz(tones[idx] + 12), 0.22, 0.3, cutoff)
            gain = 0.3 if i % 4 == 0 else 0.22
            loop.add(bar, i * 0.25, note, gain, -0.25 if i % 2 else 0.25)
        # The pad: a bar-long chord with a soft swell.
        for v, name in enumerate(voicing):
            pad = saw_synth(midi_hz(note_number(name)), loop.metre.bar_samples / SR + 0.3,
                            1200.0, 1.0, 9.0)
            loop.add(bar, 0.0, pad * envelope(len(pad), 0.35, 0.4), 0.1, (v - 1) * 0.6)
        # The bass: driving eighths, octave up on the seventh.
        if part != "intro":
            for i in range(8):
                octave = 12 if i == 6 else 0
                length = 0.95 if part == "break" and i == 0 else 0.22
                if part == "break" and i > 0:
                    continue
                note = saw_synth(midi_hz(note_number(root) + octave), length, 500.0, 3.0, 0.0)
                loop.add(bar, i * 0.5, note, 0.3, 0.0)
        # Drums.
        if part in ("groove", "lead"):
            for beat in range(4):
                loop.add(bar, beat, drum("kick"), 0.62, 0.0)
            for beat in (1, 3):
                loop.add(bar, beat, drum("clap"), 0.2, 0.05, humanise=0.002)
        for i in range(8):
            if part != "break" and (i % 2 == 1 or part != "intro"):
                loop.add(bar, i * 0.5, drum("hat"), 0.16 if i % 2 else 0.07, 0.4, humanise=0.002)
    lead = lambda f, s: pulse_pluck(f, s + 0.15, 0.5, 2600.0)  # noqa: E731
    loop.play(melody(ERA3_LEAD), lead, 0.22, 0.0, first_bar=12, humanise=0.0)
    loop.play(melody(ERA3_LEAD), lead, 0.22, 0.0, first_bar=24, humanise=0.0)
    # A ping-pong echo of everything, a dotted eighth late, circular like the reverb.
    echo = np.roll(loop.audio[:, ::-1], 3 * 5250, axis=0) * 0.22
    loop.audio += echo
    circular_reverb(loop, 1.3, 0.18)
    return loop


# --- encoding -----------------------------------------------------------------------------------


def _ogg_crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) if crc & 0x80000000 else crc << 1
        table.append(crc & 0xFFFFFFFF)
    return table


OGG_CRC = _ogg_crc_table()


def pin_ogg_serial(data: bytes, serial: int = OGG_SERIAL) -> bytes:
    """Rewrite every Ogg page's stream serial number (and its CRC) to `serial`.

    libsndfile picks the serial at random, which would make every regeneration a new file in
    git although the audio is identical.
    """
    out = bytearray(data)
    pos = 0
    while pos < len(out):
        if out[pos : pos + 4] != b"OggS":
            raise ValueError(f"not an Ogg page at byte {pos}")
        segments = out[pos + 26]
        body = sum(out[pos + 27 : pos + 27 + segments])
        end = pos + 27 + segments + body
        out[pos + 14 : pos + 18] = serial.to_bytes(4, "little")
        out[pos + 22 : pos + 26] = b"\0\0\0\0"
        crc = 0
        for byte in out[pos:end]:
            crc = ((crc << 8) & 0xFFFFFFFF) ^ OGG_CRC[(crc >> 24) ^ byte]
        out[pos + 22 : pos + 26] = crc.to_bytes(4, "little")
        pos = end
    return bytes(out)


def encode_ogg(audio: Audio, compression: float = VORBIS_COMPRESSION) -> bytes:
    """Encode mono (n,) or stereo (n, 2) float audio as Ogg Vorbis bytes, 44.1 kHz."""
    import soundfile  # build-time only; late so the synthesis can be imported without it

    clipped = np.clip(audio, -1.0, 1.0)
    buffer = io.BytesIO()
    with soundfile.SoundFile(buffer, "w", SR, 1 if clipped.ndim == 1 else clipped.shape[1],
                             format="OGG", subtype="VORBIS",
                             compression_level=compression) as ogg:
        # libsndfile's Vorbis writer crashes on very large single writes (a minute of stereo
        # at once segfaults libsndfile 1.2.2): feed it a second at a time.
        for start in range(0, len(clipped), SR):
            ogg.write(clipped[start : start + SR])
    return pin_ogg_serial(buffer.getvalue())


def decode_ogg(data: bytes) -> Audio:
    """Decode Ogg Vorbis bytes to float audio (for the level correction and the report)."""
    import soundfile

    audio, rate = soundfile.read(io.BytesIO(data), dtype="float64")
    if rate != SR:
        raise ValueError(f"decoded at {rate} Hz, expected {SR}")
    return np.asarray(audio)


def encode_cue(audio: Audio) -> bytes:
    """Encode a cue so that its *decoded* peak is CUE_PEAK_DBFS (Vorbis moves peaks a little).

    A few rounds of encode, measure, rescale: the codec's effect on a peak is not quite linear.
    """
    gain = 1.0
    for _ in range(4):
        data = encode_ogg(audio * gain)
        peak_db = 20.0 * np.log10(np.max(np.abs(decode_ogg(data))))
        if abs(peak_db - CUE_PEAK_DBFS) < 0.1:
            break
        gain *= db(CUE_PEAK_DBFS - peak_db)
    return data


# --- the catalogue ------------------------------------------------------------------------------

CUES: dict[str, Callable[[], Audio]] = {
    "gong": synth_gong,
    "cry": synth_cry,
    "tick": synth_tick,
}


@dataclass(frozen=True)
class EraScore:
    """One era's loop: its file stem, composer, metre and length (tests read the metre)."""

    stem: str
    compose: Callable[[int], Loop]
    metre: Metre
    bars: int


MUSIC: dict[int, EraScore] = {
    1: EraScore("era1", compose_era1, ERA1_METRE, ERA1_BARS),
    2: EraScore("era2", compose_era2, ERA2_METRE, ERA2_BARS),
    3: EraScore("era3", compose_era3, ERA3_METRE, ERA3_BARS),
}
# The era scores, three variants each: file stem -> (era, variant).
SCORES: dict[str, tuple[int, int]] = {soundtrack.score_stem(era, v): (era, v)
                                      for era in (1, 2, 3) for v in soundtrack.VARIANTS}
NAMES = tuple(CUES) + tuple(score.stem for score in MUSIC.values()) + tuple(SCORES)


def render_music(era: int, bars: int | None = None) -> Audio:
    """The mastered stereo loop of an era (n, 2); `bars` shortens it (for tests)."""
    score = MUSIC[era]
    return master(score.compose(score.bars if bars is None else bars))


def momentary_max_lufs(audio: Audio) -> float:
    """Loudest BS.1770 momentary loudness (400 ms windows, 50 ms apart) of a sound, in LUFS.

    A sound shorter than 400 ms is measured over its own length.
    """
    import pyloudnorm  # build- and test-time only

    stereo = audio if audio.ndim == 2 else np.stack([audio, audio], axis=1)
    window = min(round(0.4 * SR), len(stereo))
    meter = pyloudnorm.Meter(SR, block_size=window / SR)
    hop = round(0.05 * SR)
    return max(float(meter.integrated_loudness(stereo[s : s + window]))
               for s in range(0, len(stereo) - window + 1, hop))


def render(name: str) -> Audio:
    """The finished audio of one sound by file stem ('gong', 'era2', 'era1_score', ...)."""
    if name in CUES:
        audio = CUES[name]()
        if name in CUE_LUFS:
            audio = audio * db(CUE_LUFS[name] - momentary_max_lufs(audio))
        return audio
    if name in SCORES:
        return soundtrack.render_score(*SCORES[name])
    for era, score in MUSIC.items():
        if score.stem == name:
            return render_music(era)
    raise ValueError(f"unknown sound {name!r}; known: {', '.join(NAMES)}")


# The versions the committed files were rendered with (sounds/README.md). Another FluidSynth or
# SoundFont renders the same notes, but not to the same bytes.
RENDERED_WITH = {"fluidsynth": "2.3.1-2", "musescore-general-soundfont-lossless": "0.2.1-1",
                 "libsndfile": "1.2.2"}


def tool_versions() -> str:
    """Install FluidSynth and the SoundFont if needed; one line naming the versions in use.

    Warns (on stderr) when they differ from RENDERED_WITH: the output will then differ from
    the committed files.
    """
    import soundfile

    ensure_fluidsynth()
    found = {"fluidsynth": package_version("fluidsynth"),
             "musescore-general-soundfont-lossless":
                 package_version("musescore-general-soundfont-lossless"),
             "libsndfile": soundfile.__libsndfile_version__}
    for tool, version in found.items():
        if version != RENDERED_WITH[tool]:
            print(f"make_sounds: {tool} {version} here, the committed scores were rendered with "
                  f"{RENDERED_WITH[tool]}: expect different bytes", file=sys.stderr)
    return "rendering with " + ", ".join(f"{k} {v}" for k, v in found.items())


def level_report(name: str, audio: Audio) -> str:
    """One line: duration, peak and RMS of decoded audio."""
    peak = 20 * np.log10(np.max(np.abs(audio)) + 1e-12)
    rms = 20 * np.log10(np.sqrt(np.mean(audio**2)) + 1e-12)
    return f"{name:10s} {len(audio) / SR:6.2f} s  peak {peak:6.2f} dBFS  rms {rms:6.2f} dBFS"


def report(folder: Path) -> str:
    """The measured figures of the sounds in `folder` (sounds/README.md shows the same)."""
    import soundfile

    from soundtrack import measure

    lines = ["cue        momentary max   true peak   (gong: energy > 1 kHz, 40 dB down after)"]
    cue_lufs = {}
    for name in CUES:
        audio = decode_ogg((folder / f"{name}.ogg").read_bytes())
        cue_lufs[name] = momentary_max_lufs(audio)
        extra = ""
        if name == "gong":
            high, down = measure.gong_figures(audio)
            extra = f"   {high:.1%}, {down:.1f} s"
        peak = measure.true_peak_dbtp(audio)
        lines.append(f"{name:10s} {cue_lufs[name]:7.1f} LUFS   {peak:6.1f} dBTP{extra}")
    lines.append("score       LUFS   dBTP  sections I/II/III    6-8 min  last min  II end  III "
                 "start  loudest 3s  mono loss (worst 10 s)  corr (worst)  "
                 "quietest 1 s  repeat")
    for stem in SCORES:
        audio, _ = soundfile.read(folder / f"{stem}.ogg", dtype="float32", always_2d=True)
        f = measure.score_figures(audio)
        del audio
        lines.append(
            f"{stem:10s} {f.lufs:6.1f} {f.true_peak:6.1f}  "
            f"{' / '.join(f'{x:.1f}' for x in f.sections):18s} {f.before_rise:7.1f} "
            f"{f.last_minute:9.1f} {f.section2_end:7.1f} {f.section3_start:9.1f} "
            f"{f.loudest_3s:11.1f} {f.whole_mono_loss:6.2f} "
            f"({f.worst_mono_loss:.2f}) {f.worst_correlation:14.2f} "
            f"{f.quietest[0]:9.1f} dBFS {f.repeat[0]:7.2f}")
    return "\n".join(lines)


LICENCE_FILE = "SOUNDFONT-LICENSE.txt"
LICENCE_SOURCE = Path("/usr/share/doc/musescore-general-soundfont-lossless/copyright")
LICENCE_HEADER = """\
The era scores in this folder (era<N>_score*.ogg) were rendered by FluidSynth from the
project's own compositions (the era<N>_score*.mid files beside them) with the
MuseScore_General_HQ SoundFont 0.2.1 (Debian package musescore-general-soundfont-lossless
0.2.1-1). The SoundFont itself is not shipped. Its licence, as the Debian package states it
(/usr/share/doc/musescore-general-soundfont-lossless/copyright), follows verbatim.

--------------------------------------------------------------------------------------------

"""


def write_licence(folder: Path) -> None:
    """The SoundFont's licence text beside the scores rendered with it (from the package)."""
    (folder / LICENCE_FILE).write_text(LICENCE_HEADER + LICENCE_SOURCE.read_text())


def listening_report(folder: Path, duck_db: float = 6.0) -> str:
    """The listener's figures of the sounds in `folder` (sounds/README.md, "Listening"), at
    full resolution: as the box's one driver plays them (mono sum, 150 Hz high-pass)."""
    import itertools

    import soundfile

    from soundtrack import listen, measure

    def read(name: str) -> Audio:
        audio, _ = soundfile.read(folder / f"{name}.ogg", dtype="float32", always_2d=True)
        return np.asarray(audio, dtype=np.float64)

    def cue(name: str) -> float:
        mono = read(name).mean(axis=1)
        x = np.stack([mono, mono], axis=1)
        return max(listen.short_term(x, t / 10, 0.4) for t in range(max(1, len(x) * 10 // SR - 3)))

    gong, cry = cue("gong"), cue("cry")
    tick = read("tick").mean(axis=1)
    padded = np.zeros(round(0.4 * SR))
    padded[: len(tick)] = tick[: len(padded)]
    tick_db = float(listen.band_energy_db(listen.speaker(padded), *listen.TICK_BAND).max())
    lines = [f"cues (max momentary): gong {gong:.1f}, cry {cry:.1f} LUFS; music ducked "
             f"{duck_db:g} dB under them",
             "score          repeat: onsets16 onsets8 chroma   last minute (8 s blocks, LUFS)"
             "           cue margins 0:00 3:00 6:00 9:00   tick margin"]
    heard = {}
    for stem in SCORES:
        h = heard[stem] = listen.hear(read(stem))
        r = [listen.closest_repeat(env, fps)[0] for env, fps in
             ((h.onsets16, h.fps), (h.onsets8, h.fps), (h.chroma, h.chroma_fps))]
        margins = [level - (music - duck_db) for level, music in
                   zip((gong, cry, cry, gong), h.at_calls, strict=True)]
        lines.append(f"{stem:14s} {r[0]:15.2f} {r[1]:7.2f} {r[2]:6.2f}   "
                     f"{' '.join(f'{b:.1f}' for b in h.rise):44s} "
                     f"{' '.join(f'{m:4.1f}' for m in margins):22s} "
                     f"{tick_db - float(h.tick_band.max()):8.1f}")
    lines.append("same minute of two versions: onsets16 onsets8 chroma (worst minute)")
    for a, b in itertools.combinations(SCORES, 2):
        if SCORES[a][0] == SCORES[b][0]:
            ha, hb = heard[a], heard[b]
            r = [listen.same_minute(x, y, fps) for x, y, fps in
                 ((ha.onsets16, hb.onsets16, ha.fps), (ha.onsets8, hb.onsets8, ha.fps),
                  (ha.chroma, hb.chroma, ha.chroma_fps))]
            lines.append(f"{a} / {b}: " + " ".join(f"{x:.2f} ({m / 60:.0f}:00)" for x, m in r))
    profiles = {stem: listen.pitch_profile((folder / f"{stem}.mid").read_bytes())
                for stem in SCORES}
    worst = max(float(np.corrcoef(profiles[a], profiles[b])[0, 1])
                for a, b in itertools.combinations(SCORES, 2) if SCORES[a][0] != SCORES[b][0])
    lines.append(f"pitch-class profiles of two eras correlate at most {worst:.2f}")
    gong_audio = read("gong").mean(axis=1)
    power = np.abs(np.fft.rfft(gong_audio)) ** 2
    freqs = np.fft.rfftfreq(len(gong_audio), 1.0 / SR)
    lines.append(f"gong: {power[freqs > 150].sum() / power.sum():.1%} of its energy above 150 Hz")
    for era, score in MUSIC.items():
        loop = read(score.stem)
        windows = measure.mono_windows(loop)
        levels = [listen.short_term(loop, t) for t in np.arange(0.0, len(loop) / SR - 3.0, 1.0)]
        quiet, loud = np.percentile(levels, (10, 90))
        lines.append(f"loop era{era}: {measure.lufs(loop):.1f} LUFS, L/R correlation "
                     f">= {min(w[1] for w in windows):.2f}, mono loss <= "
                     f"{max(w[2] for w in windows):.2f} LU; cue margins "
                     f"{min(gong, cry) - (loud - duck_db):.1f}..."
                     f"{max(gong, cry) - (quiet - duck_db):.1f} LU (10-90 % of its 3 s levels)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Write the requested sounds (default: all) to --out as .ogg and print their levels."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=SOUNDS_DIR, help="output folder")
    parser.add_argument("--only", nargs="+", choices=NAMES, default=list(NAMES),
                        metavar="NAME", help=f"some of: {' '.join(NAMES)}")
    parser.add_argument("--report", action="store_true",
                        help="only measure the sounds in --out (loudness, true peak, mono "
                             "loss, repeats, the gong's ring) and print the figures")
    parser.add_argument("--listen", action="store_true",
                        help="only measure the sounds in --out as a listener at the table "
                             "hears them (repeats within and between versions, the last "
                             "minute, cue margins, keys, loops) and print the figures")
    args = parser.parse_args(argv)
    if args.report:
        print(report(args.out))
        return 0
    if args.listen:
        print(listening_report(args.out))
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    if any(name in SCORES for name in args.only):
        try:
            print(tool_versions(), flush=True)
        except RuntimeError as exc:
            print(f"make_sounds: {exc}", file=sys.stderr)
            return 2
    for name in args.only:
        started = time.monotonic()
        audio = render(name)
        if name in CUES and name not in CUE_LUFS:
            data = encode_cue(audio)
        else:
            data = encode_ogg(audio, SCORE_VORBIS_COMPRESSION if name in SCORES
                              else VORBIS_COMPRESSION)
        del audio
        path = args.out / f"{name}.ogg"
        path.write_bytes(data)
        if name in SCORES:  # the score as MIDI beside it: what was rendered, to read or reuse
            (args.out / f"{name}.mid").write_bytes(soundtrack.score_midi(*SCORES[name]))
            write_licence(args.out)
        print(f"{level_report(name, decode_ogg(data))}  {len(data) / 1e6:5.2f} MB  "
              f"{time.monotonic() - started:5.1f} s  {path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
