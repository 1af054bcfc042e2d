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
# rise) come ~5 LU above this figure, so even there every cue stays 8 LU above the music.
SCORE_LUFS = -23.0
FADE_S = 0.25  # a short fade at the very end (the last chord has nearly died by then)
RISE_DB = 3.0  # the last minute's ramp starts this far above section III (then solved)


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
LEVELS = ((0.0, 180.0, -25.0), (180.0, 300.0, -23.8), (300.0, 360.0, -23.6),
          (360.0, 420.0, -22.9), (420.0, RISE_S, -22.4), (RISE_S, LENGTH_S, -19.0))
RAMP_S = 3.0  # the level moves between two stretches over this long (x3 inside a section)


def level_plan(audio: Audio) -> Audio:
    """`audio` with a gain curve that brings each stretch of LEVELS to its loudness: flat in
    a stretch (the composed arcs stay), short ramps between, and a rising ramp through the
    last minute (the composed crescendo, made sure)."""
    gains = [target - loudness(audio[round(a * SR) : round(b * SR)])
             for a, b, target in LEVELS[:-1]]
    points: list[tuple[float, float]] = [(0.0, gains[0])]
    for (_, end, _), before, after in zip(LEVELS[:-2], gains[:-1], gains[1:], strict=True):
        ramp = RAMP_S if end in SECTIONS_S else 3 * RAMP_S
        points += [(end - ramp, before), (end + ramp, after)]
    points.append((RISE_S, gains[-1]))
    # The last minute ramps up from there; its top is solved so the minute as a whole lands
    # on its target (a few passes: the ramp's effect on loudness is not quite linear).
    last = audio[round(RISE_S * SR) :]
    t = np.linspace(0.0, 1.0, len(last))
    top = gains[-1] + RISE_DB
    for _ in range(3):
        curve = gains[-1] + (top - gains[-1]) * np.minimum(t * 1.1, 1.0)
        top += LEVELS[-1][2] - loudness(last * (10.0 ** (curve / 20.0))[:, None])
    points += [(RISE_S + (LENGTH_S - RISE_S) / 1.1, top), (LENGTH_S, top)]
    xs = np.array([p[0] for p in points]) * SR
    db = np.interp(np.arange(len(audio)), xs, np.array([p[1] for p in points]))
    return np.asarray(audio * (10.0 ** (db / 20.0))[:, None])


def master_score(raw: Audio) -> Audio:
    """FluidSynth's stereo output -> the finished score: the speaker's tone, the level plan,
    the short fade at the end, compression, loudness and true-peak limiting."""
    audio = level_plan(tone(raw))
    fade = round(FADE_S * SR)
    audio[-fade:] *= (0.5 + 0.5 * np.cos(np.linspace(0.0, np.pi, fade)))[:, None]
    return finish(audio, SCORE_LUFS)


def render_score(era: int) -> Audio:
    """The mastered stereo audio (n, 2) of one era's score, exactly LENGTH_S long."""
    return master_score(render(score_midi(era), LENGTH_S))
