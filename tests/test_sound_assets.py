"""The shipped sounds, decoded the way the box decodes them, measured like a critical listener.

Every file in `sounds/` is loaded with pygame's mixer (SDL's `dummy` driver, 44.1 kHz, 16-bit,
stereo, as `erabox run` opens it) and checked for length, level, loop seams, and for being the
sound it claims to be: the cry's pitch contour, the gong's inharmonic partials, each era's
pulse. The generator (`tools/make_sounds.py`) is checked for determinism at reduced length.

Level definitions used here:
- a cue's level is the RMS over its *active part*: the 20 ms frames whose own RMS lies within
  20 dB of the loudest frame (the strike and ring of the gong, the voiced bursts of the cry,
  the body of the tick), so silence and long tails do not dilute it;
- a music loop's level is its RMS over the whole loop, both channels.
The rule: every loop sits at least 8 dB below every cue.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import score_analysis

ROOT = Path(__file__).resolve().parent.parent
SOUNDS = ROOT / "sounds"
SR = 44100
CUE_NAMES = ("gong", "cry", "tick")
MUSIC_NAMES = ("era1", "era2", "era3")
SCORE_NAMES = ("era1_score", "era2_score", "era3_score")
PEAK_LEVELLED = ("tick",)  # gong and cry are levelled by loudness (make_sounds.CUE_LUFS)


def load_generator() -> ModuleType:
    """Import tools/make_sounds.py (a script, not part of the installed package)."""
    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "tools" / "make_sounds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_sounds"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


make_sounds = load_generator()


@pytest.fixture(scope="module")
def mixer() -> Iterator[None]:
    """pygame's mixer on SDL's dummy driver, opened as the box opens it."""
    mp = pytest.MonkeyPatch()
    mp.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    pygame.mixer.init(SR, -16, 2)
    try:
        assert pygame.mixer.get_init() == (SR, -16, 2)
        yield
    finally:
        pygame.mixer.quit()
        mp.undo()


@pytest.fixture(scope="module")
def decoded(mixer: None) -> dict[str, np.ndarray]:
    """Every shipped sound as float stereo (n, 2) in -1..1, decoded by pygame."""
    import pygame

    out = {}
    for name in CUE_NAMES + MUSIC_NAMES:
        raw = pygame.mixer.Sound(str(SOUNDS / f"{name}.ogg")).get_raw()
        out[name] = np.frombuffer(raw, dtype=np.int16).reshape(-1, 2) / 32768.0
    return out


# --- measures -----------------------------------------------------------------------------------


def dbfs(amplitude: float) -> float:
    return float(20.0 * np.log10(max(amplitude, 1e-12)))


def frame_rms(audio: np.ndarray, frame: int) -> np.ndarray:
    """RMS of consecutive frames of `frame` samples (all channels together)."""
    n = len(audio) // frame
    frames = audio[: n * frame].reshape(n, frame, -1)
    return np.sqrt(np.mean(frames**2, axis=(1, 2)))


def cue_level_db(audio: np.ndarray) -> float:
    """RMS over the active part: 20 ms frames within 20 dB of the loudest frame."""
    rms = frame_rms(audio, int(0.02 * SR))
    active = rms >= rms.max() * 0.1
    return dbfs(float(np.sqrt(np.mean(rms[active] ** 2))))


def music_level_db(audio: np.ndarray) -> float:
    """RMS over the whole loop, both channels."""
    return dbfs(float(np.sqrt(np.mean(audio**2))))


def seam_faults(loop: np.ndarray, bar: int | None) -> list[str]:
    """What is wrong where the loop's end joins its start ([] = a clean seam).

    - the jump from the last sample to the first must be no larger than the largest jump
      between neighbours anywhere else in the file, nor than the largest within 0.25 s of
      the seam (a click stands out against its own neighbourhood even in a busy file);
    - the seam is a bar line (loops are whole bars), so the 20 ms around it must be neither
      louder nor rougher (energy of sample-to-sample differences) than the 20 ms around every
      other bar line in the loop: the join sounds like any other downbeat (skipped when
      `bar` is None: a loop of a few bars has too few bar lines to compare with).
    """
    faults = []
    seam_jump = np.abs(loop[0] - loop[-1]).max()
    steps = np.abs(np.diff(loop, axis=0)).max(axis=1)
    if seam_jump > steps.max():
        faults.append(f"seam jump {seam_jump:.4f} > largest jump in the file {steps.max():.4f}")
    near = int(0.25 * SR)
    local = max(steps[:near].max(), steps[-near:].max())
    if seam_jump > local:
        faults.append(f"seam jump {seam_jump:.4f} > largest jump near the seam {local:.4f}")
    if bar is None:
        return faults
    half = int(0.01 * SR)
    ring = np.concatenate([loop[-half:], loop, loop[:half]])  # ring[i + half] = loop[i]
    diffs = np.diff(ring, axis=0, prepend=ring[:1])

    def around(line: int) -> tuple[float, float]:
        """(level, roughness) of the 20 ms centred on sample `line` of the loop."""
        sl = slice(line, line + 2 * half)
        return float(np.sqrt(np.mean(ring[sl] ** 2))), float(np.sqrt(np.mean(diffs[sl] ** 2)))

    seam = around(0)
    lines = [around(b) for b in range(bar, len(loop) - half, bar)]
    for i, name in enumerate(("level", "roughness")):
        most = max(line[i] for line in lines)
        if seam[i] > most:
            faults.append(f"{name} spike at the seam: {seam[i]:.4f} > {most:.4f} at every "
                          f"other bar line")
    return faults


def pitch_track(mono: np.ndarray, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
    """Autocorrelation pitch per 40 ms frame (hop 10 ms) -> (times s, Hz; NaN where unvoiced).

    A frame counts as voiced when it is within 15 dB of the loudest frame and its normalised
    autocorrelation at the chosen lag exceeds 0.5 (clearly periodic).
    """
    frame, hop = int(0.04 * SR), int(0.01 * SR)
    starts = np.arange(0, len(mono) - frame, hop)
    energies = np.array([np.sum(mono[s : s + frame] ** 2) for s in starts])
    min_lag, max_lag = int(SR / high), int(SR / low)
    hz = np.full(len(starts), np.nan)
    for i, s in enumerate(starts):
        if energies[i] < energies.max() * 10 ** (-1.5):
            continue
        x = mono[s : s + frame] - np.mean(mono[s : s + frame])
        ac = np.correlate(x, x, "full")[frame - 1 :]
        lag = min_lag + int(np.argmax(ac[min_lag : max_lag + 1]))
        if ac[lag] / ac[0] > 0.5:
            hz[i] = SR / lag
    return starts / SR, hz


def spectral_centroid(audio: np.ndarray) -> float:
    mono = audio.mean(axis=1)
    power = np.abs(np.fft.rfft(mono)) ** 2
    freqs = np.fft.rfftfreq(len(mono), 1.0 / SR)
    return float(np.sum(power * freqs) / np.sum(power))


def pulse_period(audio: np.ndarray) -> float:
    """The strongest period (s) between 0.2 and 2 s in the music's onsets (autocorrelation of
    the rise of the 10 ms log-energy of the sample differences, i.e. of attacks)."""
    hop = int(0.01 * SR)
    mono = audio.mean(axis=1)
    attack = np.diff(mono, prepend=mono[0])
    n = len(attack) // hop
    energy = np.log(np.sqrt(np.mean(attack[: n * hop].reshape(n, hop) ** 2, axis=1)) + 1e-5)
    onsets = np.maximum(np.diff(energy, prepend=energy[0]), 0.0)
    onsets -= onsets.mean()
    ac = np.fft.irfft(np.abs(np.fft.rfft(onsets, 2 * n)) ** 2)[:n]
    lags = np.arange(20, 201)
    return float(lags[np.argmax(ac[lags])] * 0.01)


# --- what ships ---------------------------------------------------------------------------------


def test_every_sound_is_shipped_and_the_sizes_are_sensible() -> None:
    files = {p.stem: p for p in SOUNDS.glob("*.ogg")}
    assert set(files) >= set(CUE_NAMES + MUSIC_NAMES + SCORE_NAMES)
    loops = sum(files[name].stat().st_size for name in CUE_NAMES + MUSIC_NAMES)
    assert loops < 5_000_000, f"cues and loops (music_style synth): {loops / 1e6:.1f} MB"
    for name in SCORE_NAMES:
        size = files[name].stat().st_size
        assert size < 8_000_000, f"{name}.ogg is {size / 1e6:.1f} MB"
    total = sum(p.stat().st_size for p in SOUNDS.iterdir() if p.is_file())
    assert total < 60_000_000, f"sounds/ holds {total / 1e6:.1f} MB"  # three versions a score


@pytest.mark.parametrize(("name", "shortest", "longest"), [
    ("cry", 2.0, 3.0), ("gong", 10.0, 16.0), ("tick", 0.005, 0.15),
    ("era1", 60.0, 180.0), ("era2", 60.0, 180.0), ("era3", 60.0, 180.0),
])
def test_durations(decoded: dict[str, np.ndarray], name: str, shortest: float,
                   longest: float) -> None:
    seconds = len(decoded[name]) / SR
    assert shortest <= seconds <= longest, f"{name} lasts {seconds:.3f} s"


@pytest.mark.parametrize("name", PEAK_LEVELLED)
def test_cues_peak_near_minus_one_dbfs(decoded: dict[str, np.ndarray], name: str) -> None:
    peak = dbfs(float(np.abs(decoded[name]).max()))
    assert -2.0 <= peak < 0.0, f"{name} peaks at {peak:.2f} dBFS"


@pytest.mark.parametrize("music", MUSIC_NAMES)
def test_music_is_neither_nearly_silent_nor_clipping(decoded: dict[str, np.ndarray],
                                                     music: str) -> None:
    """(How far the cues stand above the loops: tests/test_score_listen.py.)"""
    level = music_level_db(decoded[music])
    assert level > -45.0, f"{music} is nearly silent ({level:.1f} dBFS)"
    assert dbfs(float(np.abs(decoded[music]).max())) < -1.0, f"{music} comes close to clipping"


# --- loops --------------------------------------------------------------------------------------


@pytest.mark.parametrize("music", MUSIC_NAMES)
def test_loop_seam_is_clean(decoded: dict[str, np.ndarray], music: str) -> None:
    score = next(s for s in make_sounds.MUSIC.values() if s.stem == music)
    assert seam_faults(decoded[music], score.metre.bar_samples) == []


def test_seam_check_catches_a_click() -> None:
    """The seam check can fail: a tone cut off mid-cycle, and a click at the join."""
    t = np.arange(3 * SR) / SR
    whole_cycles = 0.3 * np.sin(2 * np.pi * 220.0 * t)[:, None].repeat(2, axis=1)
    bar = SR // 2
    assert seam_faults(whole_cycles, bar) == []
    assert seam_faults(whole_cycles[:-37], bar) != []  # ends a sixth of a cycle early
    clicked = whole_cycles.copy()
    clicked[-1] += 0.2
    assert seam_faults(clicked, bar) != []


def test_loops_are_distinct_and_keep_their_score_tempo(decoded: dict[str, np.ndarray]) -> None:
    """Each era sounds different (brightness) and pulses at its own score's tempo."""
    centroids = {m: spectral_centroid(decoded[m]) for m in MUSIC_NAMES}
    ordered = sorted(centroids.values())
    # (1.2 before the loops were high-passed at 100 Hz like the scores: most of what set Era
    # III apart was its 50-100 Hz synth bass, which the box's speaker never played.)
    for lower, higher in pairwise(ordered):
        assert higher / lower > 1.15, f"spectral centroids too close: {centroids}"
    periods = {}
    for score in make_sounds.MUSIC.values():
        period = pulse_period(decoded[score.stem])
        beat = score.metre.beat_s
        # The strongest pulse must be a simple multiple or division of the score's beat
        # (the eighth of Era I, the dotted quarter of Era II's 6/8, two beats of Era III...).
        ratios = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
        assert min(abs(period / beat - r) / r for r in ratios) < 0.04, (
            f"{score.stem}: strongest pulse {period:.2f} s does not fit a {beat:.3f} s beat"
        )
        periods[score.stem] = period
    assert len(set(periods.values())) == len(periods), f"same pulse in two eras: {periods}"


# --- is it the sound it claims to be? -----------------------------------------------------------


def test_cry_wails_in_bursts_with_an_arched_pitch(decoded: dict[str, np.ndarray]) -> None:
    mono = decoded["cry"].mean(axis=1)
    times, hz = pitch_track(mono, 300.0, 1000.0)
    voiced = ~np.isnan(hz)
    # Bursts: voiced stretches separated by a breath (>= 0.15 s unvoiced); a shorter gap is a
    # voice break inside a burst.
    edges = np.flatnonzero(np.diff(np.concatenate(([0], voiced.astype(int), [0]))))
    stretches = list(zip(edges[::2], edges[1::2], strict=True))
    runs = [stretches[0]]
    breaks = 0
    for a, b in stretches[1:]:
        if a - runs[-1][1] < 15:
            runs[-1] = (runs[-1][0], b)
            breaks += 1
        else:
            runs.append((a, b))
    runs = [(a, b) for a, b in runs if b - a >= 30]
    assert 2 <= len(runs) <= 3, f"{len(runs)} cry bursts"
    # A voice break: phonation drops out for a moment, or the pitch leaps by more than a fifth.
    leaps = np.abs(np.diff(np.log2(hz))) > np.log2(1.5)
    assert breaks + int(np.sum(leaps[~np.isnan(leaps)])) >= 1, "no voice break"
    pitches = hz[voiced]
    assert 400.0 <= float(np.median(pitches)) <= 560.0
    assert float(np.percentile(pitches, 10)) >= 350.0
    assert float(np.percentile(pitches, 90)) <= 700.0
    for a, b in runs:
        burst = hz[a:b][~np.isnan(hz[a:b])]
        edge = max(3, len(burst) // 10)
        top = np.max(np.convolve(burst, np.ones(5) / 5, "valid"))
        # The arch: each wail climbs from its onset to a peak and sinks again at its end.
        assert top > np.median(burst[:edge]) + 30 and top > np.median(burst[-edge:]) + 30
    # Between bursts the voice stops (a breath), it does not just dip.
    gap = times[runs[1][0]] - times[runs[0][1] - 1]
    assert gap >= 0.1


def test_cry_has_vowel_formants(decoded: dict[str, np.ndarray]) -> None:
    """An open "aa": energy peaks near 1 kHz and 2.5-3 kHz, above the source's own slope."""
    mono = decoded["cry"].mean(axis=1)
    power = np.abs(np.fft.rfft(mono)) ** 2
    freqs = np.fft.rfftfreq(len(mono), 1.0 / SR)

    def band_db(lo: float, hi: float) -> float:
        sel = (freqs >= lo) & (freqs < hi)
        return float(10 * np.log10(np.mean(power[sel])))

    trough = band_db(1700, 2200)  # between the two formants
    assert band_db(900, 1300) > trough + 6
    assert band_db(2500, 3100) > trough + 2
    assert band_db(2500, 3100) > band_db(3500, 4000) + 3


def test_gong_rings_with_inharmonic_partials_and_decays(decoded: dict[str, np.ndarray]) -> None:
    mono = decoded["gong"].mean(axis=1)
    # The first two seconds, after the mallet: the strongest spectral peaks below 1 kHz.
    ring = mono[int(0.1 * SR) : int(2.1 * SR)] * np.hanning(2 * SR)
    power = np.abs(np.fft.rfft(ring)) ** 2
    freqs = np.fft.rfftfreq(len(ring), 1.0 / SR)
    sel = (freqs > 40) & (freqs < 1000)
    p, f = power[sel], freqs[sel]
    is_peak = (p[1:-1] > p[:-2]) & (p[1:-1] >= p[2:]) & (p[1:-1] > p.max() * 1e-3)
    peaks = f[1:-1][is_peak]
    # Merge the members of a beating pair (a few Hz apart) into one partial.
    partials = [peaks[0]]
    for freq in peaks[1:]:
        if freq - partials[-1] > 8.0:
            partials.append(freq)
    assert len(partials) >= 5, f"only {len(partials)} partials: {partials}"
    lowest = partials[0]
    off_series = [q for q in partials[1:] if abs(q / lowest - round(q / lowest)) > 0.1]
    assert len(off_series) >= len(partials[1:]) // 2, (
        f"partials {np.round(partials)} mostly sit on the harmonic series of {lowest:.0f} Hz"
    )
    # Decay: rings for seconds, then dies away.
    rms = frame_rms(decoded["gong"], SR // 2)
    assert dbfs(rms[8]) > dbfs(rms[0]) - 40, "silent by 4 s: too short a ring"
    assert dbfs(rms[-1]) < dbfs(rms[0]) - 30, "still loud at the end: cut off, not decayed"
    assert np.all(np.diff(rms[1:]) < 0), "the ring does not decay steadily"


def test_tick_is_a_sharp_click(decoded: dict[str, np.ndarray]) -> None:
    """Most of it in its first 40 ms (its metal modes ring 25-30 ms: it must carry over the
    loudest minute in its own band, tests/test_score_listen.py), nothing after 80 ms."""
    energy = np.sum(decoded["tick"] ** 2, axis=1)
    first_40ms = np.sum(energy[: int(0.04 * SR)])
    assert first_40ms > 0.85 * np.sum(energy)
    assert len(energy) <= int(0.085 * SR)


# --- the generator ------------------------------------------------------------------------------


def test_generator_is_deterministic_at_reduced_length() -> None:
    for cue in (make_sounds.synth_tick, make_sounds.synth_cry):
        assert np.array_equal(cue(), cue())
    short_gong = (make_sounds.synth_gong(1.0), make_sounds.synth_gong(1.0))
    assert np.array_equal(*short_gong)
    for era in make_sounds.MUSIC:
        make_sounds.forget_notes()
        first = make_sounds.render_music(era, bars=1)
        make_sounds.forget_notes()
        second = make_sounds.render_music(era, bars=1)
        assert first.shape == (make_sounds.MUSIC[era].metre.bar_samples, 2)
        assert np.array_equal(first, second)
        assert np.any(first != 0.0)


def test_short_renders_loop_seamlessly_before_encoding() -> None:
    """The ring buffer at work: even two bars, full of ringing notes, join without a jump."""
    for era in make_sounds.MUSIC:
        assert seam_faults(make_sounds.render_music(era, bars=2), None) == [], f"era {era}"


def test_a_note_past_the_end_wraps_into_the_start() -> None:
    loop = make_sounds.Loop(make_sounds.Metre(beat_samples=100, beats_per_bar=4), 1, "test")
    note = np.ones(250)
    loop.add(0, 3.0, note, gain=1.0, pan=-1.0)  # starts 100 samples before the end
    left = loop.audio[:, 0]
    assert np.allclose(left[300:], 1.0) and np.allclose(left[:150], 1.0)
    assert np.allclose(left[150:300], 0.0)
    assert np.allclose(loop.audio[:, 1], 0.0)
    assert np.isclose(left.sum(), note.sum())  # nothing lost at the seam


def test_encoding_is_byte_for_byte_repeatable() -> None:
    tick = make_sounds.synth_tick()
    assert make_sounds.encode_ogg(tick) == make_sounds.encode_ogg(tick)


def test_shipped_cues_are_what_the_generator_makes(decoded: dict[str, np.ndarray]) -> None:
    """The committed files are not stale: a fresh render matches them (through the codec)."""
    for name in ("tick", "cry"):
        fresh = make_sounds.CUES[name]()
        shipped = decoded[name][:, 0]
        n = min(len(fresh), len(shipped))
        fresh = fresh[:n] * (np.abs(shipped).max() / np.abs(fresh).max())
        error = shipped[:n] - fresh
        snr = 10 * np.log10(np.sum(fresh**2) / np.sum(error**2))
        assert snr > 15.0, f"{name}: shipped file differs from the generator ({snr:.1f} dB)"


# --- the 540 s era scores -------------------------------------------------------------------------
#
# Each score is decoded once (libsndfile, float32) and reduced to a few measures; the decoded
# audio is dropped before the next one is read. See tests/score_analysis.py for the measures.


@dataclass(frozen=True)
class ScoreFacts:
    frames: int
    levels: np.ndarray  # (frames, 16) band levels, dB, score_analysis.FPS a second
    flux: np.ndarray  # onset flux, same shape
    lufs: float  # integrated, whole score
    lufs_loudest_3s: float  # the loudest short-term (3 s) loudness anywhere
    lufs_before_rise: float  # 6:00-8:00
    lufs_last_minute: float  # 8:00-9:00
    lufs_sections: tuple[float, float, float]


def score_facts(path: Path) -> ScoreFacts:
    import soundfile

    audio, rate = soundfile.read(path, dtype="float32", always_2d=True)
    assert rate == SR and audio.shape[1] == 2, f"{path.name}: {rate} Hz, {audio.shape[1]} ch"
    levels = score_analysis.band_levels(audio.mean(axis=1))
    whole, loudest = score_analysis.loudness_profile(audio)
    lufs = score_analysis.integrated_lufs
    facts = ScoreFacts(
        frames=len(audio), levels=levels, flux=score_analysis.onset_flux(levels),
        lufs=whole, lufs_loudest_3s=loudest, lufs_before_rise=lufs(audio[360 * SR : 480 * SR]),
        lufs_last_minute=lufs(audio[480 * SR :]),
        lufs_sections=(lufs(audio[: 180 * SR]), lufs(audio[180 * SR : 360 * SR]),
                       lufs(audio[360 * SR :])),
    )
    del audio
    return facts


@pytest.fixture(scope="module")
def scores() -> dict[str, ScoreFacts]:
    return {name: score_facts(SOUNDS / f"{name}.ogg") for name in SCORE_NAMES}


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_score_lasts_540_seconds(scores: dict[str, ScoreFacts], name: str) -> None:
    seconds = scores[name].frames / SR
    assert abs(seconds - 540.0) <= 0.5, f"{name} lasts {seconds:.3f} s"


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_score_has_no_repeated_20_second_window(scores: dict[str, ScoreFacts],
                                                name: str) -> None:
    score, where, lag = score_analysis.worst_repeat(scores[name].flux)
    assert score < REPEAT_LIMIT, (
        f"{name}: the 20 s from {where:.0f} s come back {lag:+.1f} s later (similarity "
        f"{score:.2f})")


REPEAT_LIMIT = 0.82  # a pasted copy scores 0.85-1.0 (below); see also test_score_mix.py


def test_repetition_check_finds_a_copied_passage_and_a_loop(mixer: None) -> None:
    """The repetition measure can fail: 20 s of a score pasted 50.13 s later; a loop."""
    import soundfile

    audio, _ = soundfile.read(SOUNDS / "era2_score.ogg", dtype="float32", frames=120 * SR)
    mono = audio.mean(axis=1)
    clean = score_analysis.worst_repeat(score_analysis.onset_flux(
        score_analysis.band_levels(mono)))
    assert clean[0] < REPEAT_LIMIT
    # A copy as an editor would paste it (50 ms crossfades, no clicks at the joins), placed
    # half-way between the measure's 2.5 s steps and off its 10 ms frames: the worst case.
    src, dst, length, fade = int(11.25 * SR), int(61.38 * SR), 20 * SR, int(0.05 * SR)
    mix = np.ones(length, dtype=np.float32)
    mix[:fade] = mix[-fade:][::-1] = np.linspace(0.0, 1.0, fade)
    pasted = mono.copy()
    pasted[dst : dst + length] = (mix * mono[src : src + length]
                                  + (1.0 - mix) * mono[dst : dst + length])
    found = score_analysis.worst_repeat(score_analysis.onset_flux(
        score_analysis.band_levels(pasted)))
    assert found[0] >= REPEAT_LIMIT and abs(abs(found[2]) - 50.13) < 0.1, found
    import pygame

    raw = pygame.mixer.Sound(str(SOUNDS / "era1.ogg")).get_raw()
    loop = np.frombuffer(raw, dtype=np.int16).reshape(-1, 2).mean(axis=1) / 32768.0
    looped = score_analysis.worst_repeat(score_analysis.onset_flux(
        score_analysis.band_levels(np.tile(loop, 2))))
    assert looped[0] >= REPEAT_LIMIT, looped


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_score_sections_change_audibly_at_3_and_6_minutes(scores: dict[str, ScoreFacts],
                                                          name: str) -> None:
    """The section starts are big changes of sound (10 s before vs 10 s after, band levels):
    at least 6 dB each, and of the size of the biggest changes inside a section (at least
    0.6 of the biggest). (They had to be the biggest, by 10 %, while the rhythm parts ran as
    loops; now a drum group or layer returning inside a section changes the band levels as
    much. The calls also change key, tempo and instruments, which band levels do not see.)"""
    curve = score_analysis.novelty(scores[name].levels)
    at = {b: float(curve[b - 3 : b + 4].max()) for b in (180, 360)}
    elsewhere = np.ones(len(curve), dtype=bool)
    for b in (180, 360):
        elsewhere[b - 10 : b + 11] = False
    rest = float(curve[elsewhere].max())
    for boundary, change in at.items():
        assert change >= 6.0 and change >= 0.6 * rest, (
            f"{name}: change at {boundary} s is {change:.1f} dB, elsewhere up to {rest:.1f} dB")


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_score_rises_in_the_last_minute(scores: dict[str, ScoreFacts], name: str) -> None:
    """Louder (BS.1770) and a faster pulse in 8:00-9:00 than in 6:00-8:00."""
    facts = scores[name]
    assert facts.lufs_last_minute >= facts.lufs_before_rise + 2.0, (
        f"{name}: last minute {facts.lufs_last_minute:.1f} LUFS, "
        f"before {facts.lufs_before_rise:.1f} LUFS")
    fps = score_analysis.FPS
    before = score_analysis.pulse_period(facts.flux[360 * fps : 480 * fps])
    end = score_analysis.pulse_period(facts.flux[500 * fps : 535 * fps])
    assert end < 0.9 * before, f"{name}: pulse {before:.2f} s before, {end:.2f} s at the end"


# How far the cues stand above the scores and loops (8-16 LU over the music under them, after
# the box's duck): tests/test_score_listen.py.


def test_cry_is_levelled_by_loudness_and_not_piercing(decoded: dict[str, np.ndarray]) -> None:
    """At its loudness target (near the gong, no longer ~7 LU above it), and little energy
    above 6 kHz (the old cry's harmonics reached 10 kHz)."""
    cry = score_analysis.momentary_max_lufs(decoded["cry"])
    gong = score_analysis.momentary_max_lufs(decoded["gong"])
    assert abs(cry - make_sounds.CUE_LUFS["cry"]) < 0.5, f"cry at {cry:.1f} LUFS"
    assert cry - gong < 3.0, f"cry {cry:.1f} LUFS vs gong {gong:.1f} LUFS"
    mono = decoded["cry"].mean(axis=1)
    power = np.abs(np.fft.rfft(mono)) ** 2
    freqs = np.fft.rfftfreq(len(mono), 1.0 / SR)
    high = float(np.sum(power[freqs > 6000.0]) / np.sum(power))
    assert high < 1e-3, f"{high:.2%} of the cry's energy lies above 6 kHz"


@pytest.mark.parametrize(("stem", "era_variant"), make_sounds.SCORES.items())
def test_shipped_score_midi_is_what_the_composer_writes(stem: str,
                                                        era_variant: tuple[int, int]) -> None:
    """The committed score (its MIDI, rendered into the .ogg) matches the composition code
    byte for byte, every version: composing is cheap and deterministic; rendering
    (FluidSynth, ~20 s) is `make sounds`."""
    shipped = (SOUNDS / f"{stem}.mid").read_bytes()
    assert make_sounds.soundtrack.score_midi(*era_variant) == shipped


def test_midi_writer_keeps_a_restruck_key_sounding() -> None:
    """A key struck again before its note-off: the old note ends at the new strike, so the
    note-off of the old one cannot silence the new one; a double strike becomes one."""
    from soundtrack.midi import Note, midi_file

    data = midi_file([Note(0.0, 2.0, 0, 60, 100), Note(1.0, 2.0, 0, 60, 90),
                      Note(1.0, 2.0, 0, 60, 80)], [], [], 4.0)
    track = data[data.index(b"MTrk") + 8 :]
    events = []
    pos, tick = 7, 0  # after the tempo event
    while pos < len(track):
        delta = 0
        while True:
            byte = track[pos]
            pos += 1
            delta = (delta << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        tick += delta
        if track[pos] == 0xFF:
            break
        events.append((tick, track[pos] & 0xF0, track[pos + 1]))
        pos += 3
    assert events == [(0, 0x90, 60), (960, 0x80, 60), (960, 0x90, 60), (2880, 0x80, 60)]
