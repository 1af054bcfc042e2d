"""The era scores: composed in `scores.py`, written as MIDI and rendered by `midi.py`.

`render_score(era)` gives the finished stereo audio of one era's 540 s piece, mastered for a
small mono box speaker (`master.py`) to `SCORE_LUFS` integrated loudness (EBU R128).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .master import finish, tone
from .midi import SR, midi_file, render
from .scores import COMPOSERS, LENGTH_S, RISE_S, SECTIONS_S, Piece

Audio = npt.NDArray[np.float64]

# Integrated loudness of every score (EBU R128's programme level). The cues' loudness (max
# momentary) is -6 .. -9 LUFS (sounds/README.md); a score's loudest 3 s (the end of the
# rise, held by `hold_the_peak`) come 4.5-4.7 LU above this figure, so even there every
# cue stays over 9 LU above the music.
SCORE_LUFS = -23.0
FADE_S = 0.25  # a short fade at the very end (the last chord has nearly died by then)
RISE_STEP_DB = 1.5  # the last minute starts this far above 7:00-8:00 (over RAMP_S)...
RISE_SHARE = 0.6  # ...and ramps up through this share of it to a top (solved), then holds
PEAK_CAP_LU = 0.3  # the last minute's loudest 3 s at most this far above the minute as a whole


def compose(era: int) -> Piece:
    return COMPOSERS[era]()


def score_midi(era: int) -> bytes:
    piece = compose(era)
    return midi_file(piece.notes, piece.controls, piece.programs, LENGTH_S + 1.0)


def loudness(audio: Audio) -> float:
    """Integrated loudness in LUFS (ITU-R BS.1770-4 via pyloudnorm)."""
    import pyloudnorm  # build- and test-time only

    return float(pyloudnorm.Meter(SR).integrated_loudness(audio))


# The level plan of every score (LUFS, relative to each other; the master then sets the whole
# to SCORE_LUFS): the sections grow, section III rises from 6:00 and its last minute is the
# peak. Every score is brought to these, so the three eras sit alike on the box.
LEVELS = ((0.0, 180.0, -25.0), (180.0, 300.0, -24.0), (300.0, 360.0, -23.9),
          (360.0, 420.0, -23.4), (420.0, RISE_S, -23.0), (RISE_S, LENGTH_S, -18.6))
RAMP_S = 3.0  # the level moves between two stretches over this long (x3 inside a section)


def level_plan(audio: Audio) -> Audio:
    """`audio` with a gain curve that brings each stretch of LEVELS to its loudness: flat in
    a stretch (the composed arcs stay), short ramps between, and through the last minute a
    step up, a rising ramp and a plateau (the composed crescendo, made sure, without a last
    few seconds that tower over the minute and come near the cues)."""
    gains = [target - loudness(audio[round(a * SR) : round(b * SR)])
             for a, b, target in LEVELS[:-1]]
    points: list[tuple[float, float]] = [(0.0, gains[0])]
    for (_, end, _), before, after in zip(LEVELS[:-2], gains[:-1], gains[1:], strict=True):
        ramp = RAMP_S if end in SECTIONS_S else 3 * RAMP_S
        points += [(end - ramp, before), (end + ramp, after)]
    start = gains[-1] + RISE_STEP_DB
    points += [(RISE_S - RAMP_S, gains[-1]), (RISE_S, start)]
    # The last minute ramps up from there; its top is solved so the minute as a whole lands
    # on its target (a few passes: the ramp's effect on loudness is not quite linear).
    last = audio[round(RISE_S * SR) :]
    t = np.linspace(0.0, 1.0, len(last))
    top = start + 2.0
    for _ in range(3):
        curve = start + (top - start) * np.minimum(t / RISE_SHARE, 1.0)
        top += LEVELS[-1][2] - loudness(last * (10.0 ** (curve / 20.0))[:, None])
    points += [(RISE_S + (LENGTH_S - RISE_S) * RISE_SHARE, top), (LENGTH_S, top)]
    xs = np.array([p[0] for p in points]) * SR
    db = np.interp(np.arange(len(audio)), xs, np.array([p[1] for p in points]))
    return np.asarray(audio * (10.0 ** (db / 20.0))[:, None])


def short_term(audio: Audio) -> tuple[Audio, float]:
    """(short-term loudness every 100 ms: the 3 s centred on each 400 ms block, LUFS;
    integrated loudness) of `audio`, from one BS.1770 meter pass."""
    import pyloudnorm  # build- and test-time only

    meter = pyloudnorm.Meter(SR)
    whole = float(meter.integrated_loudness(audio))
    power = 10.0 ** ((np.asarray(meter.blockwise_loudness, dtype=np.float64) + 0.691) / 10.0)
    return -0.691 + 10.0 * np.log10(np.convolve(power, np.ones(27) / 27, "same") + 1e-20), whole


def hold_the_peak(audio: Audio) -> Audio:
    """The last minute with its loudest few seconds held within PEAK_CAP_LU of the minute's
    own loudness (a slow, smooth gain: 3 s held, 3 s eased), then the minute lifted back to
    where the level plan put it. The minute stays the peak of the piece as a whole; its very
    end no longer towers over it and comes near the cues (the end gong, the last ticks)."""
    from scipy.ndimage import maximum_filter1d, uniform_filter1d

    start = round(RISE_S * SR)
    out = audio.copy()
    _, target = short_term(out[start:])
    ramp = np.minimum(np.arange(len(out) - start) / (RAMP_S * SR), 1.0)
    for _ in range(3):
        levels, whole = short_term(out[start:])
        over = np.maximum(levels - (whole + PEAK_CAP_LU), 0.0)
        over = uniform_filter1d(maximum_filter1d(over, 31), 31)
        at = (np.arange(len(over)) * 0.1 + 0.2) * SR
        db = np.interp(np.arange(len(out) - start), at, over)
        out[start:] *= (10.0 ** (-db / 20.0))[:, None]
        lift = target - loudness(out[start:])
        out[start:] *= (10.0 ** (lift * ramp / 20.0))[:, None]
    return out


def master_score(raw: Audio) -> Audio:
    """FluidSynth's stereo output -> the finished score: the speaker's tone, the level plan
    (the last minute's peak held), the short fade at the end, compression, loudness and
    true-peak limiting."""
    audio = hold_the_peak(level_plan(tone(raw)))
    fade = round(FADE_S * SR)
    audio[-fade:] *= (0.5 + 0.5 * np.cos(np.linspace(0.0, np.pi, fade)))[:, None]
    return finish(audio, SCORE_LUFS)


def render_score(era: int) -> Audio:
    """The mastered stereo audio (n, 2) of one era's score, exactly LENGTH_S long."""
    return master_score(render(score_midi(era), LENGTH_S))
