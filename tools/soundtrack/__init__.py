"""The era scores: composed in `scores.py`, written as MIDI and rendered by `midi.py`.

`render_score(era)` gives the finished stereo audio of one era's 540 s piece, mastered for a
small mono box speaker (`master.py`) to `SCORE_LUFS` integrated loudness (EBU R128).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .listen import short_term
from .master import compress, finish, tone
from .midi import SR, midi_file, render
from .scores import COMPOSERS, LENGTH_S, RISE_S, SECTIONS_S, Piece
from .variants import VARIANTS
from .variants import finish as finish_piece

__all__ = ["VARIANTS", "compose", "render_score", "score_midi", "score_stem"]

Audio = npt.NDArray[np.float64]

# Integrated loudness of every score (EBU R128's programme level). The cues' loudness (max
# momentary) is set against the music under each cue (sounds/README.md, "Cues").
SCORE_LUFS = -23.0
FADE_S = 0.25  # a short fade at the very end (the last chord has nearly died by then)


def compose(era: int, variant: int = 1) -> Piece:
    """One era's piece in one of its `VARIANTS`: composed, then given its key, orchestration,
    breath and rubato (`variants.py`)."""
    return finish_piece(COMPOSERS[era](variant), era, variant)


def score_stem(era: int, variant: int = 1) -> str:
    """The file name (without extension) of an era's variant: era1_score, era1_score_v2..."""
    return f"era{era}_score" if variant == 1 else f"era{era}_score_v{variant}"


def score_midi(era: int, variant: int = 1) -> bytes:
    piece = compose(era, variant)
    return midi_file(piece.notes, piece.controls, piece.programs, LENGTH_S + 1.0)


def loudness(audio: Audio) -> float:
    """Integrated loudness in LUFS (ITU-R BS.1770-4 via pyloudnorm)."""
    import pyloudnorm  # build- and test-time only

    return float(pyloudnorm.Meter(SR).integrated_loudness(audio))


# The level plan of every score (LUFS, relative to each other; the master then sets the whole
# to SCORE_LUFS): the sections grow, section III rises from 6:00 and its last minute is the
# peak. Every score is brought to these, so the three eras sit alike on the box.
LEVELS = ((0.0, 180.0, -25.0), (180.0, 300.0, -24.0), (300.0, 360.0, -23.9),
          (360.0, 420.0, -23.4), (420.0, RISE_S, -23.0))
RAMP_S = 3.0  # the level moves between two stretches over this long (x3 inside a section)
# The last minute (up to the final chord) in 8 s blocks rising evenly from RISE_FROM to
# RISE_TO LUFS: it grows to its end, never a step and a plateau. The final chord, struck at
# ~8:56 and ringing into the end gong, then sits at FINAL_LUFS (a resolution, not a new peak).
RISE_FROM, RISE_TO, RISE_BLOCK_S, CHORD_S = -21.0, -17.0, 8.0, 536.0
FINAL_LUFS = -19.5
# The 3 s under each call of the box (the start gong, the two scholar cries) at these levels,
# so every cue stands the same few LU above the music under it (sounds/README.md, "Cues").
SPOTS = ((0.0, -25.0), (180.0, -25.0), (360.0, -24.0))
SPOT_S = 3.0
SPOT_IN_S, SPOT_OUT_S = 2.0, 8.0  # the bump eases in before the call and out slowly after


def _curve(n: int, points: list[tuple[float, float]]) -> Audio:
    xs = np.array([p[0] for p in points]) * SR
    return np.asarray(np.interp(np.arange(n), xs, np.array([p[1] for p in points])))


def _gain(audio: Audio, db: Audio) -> Audio:
    return np.asarray(audio * (10.0 ** (db / 20.0))[:, None])


def _cut(audio: Audio, a: float, b: float) -> Audio:
    return audio[round(a * SR) : round(b * SR)]


def level_plan(audio: Audio) -> Audio:
    """`audio` with a gain curve that brings each stretch of LEVELS to its loudness (flat in
    a stretch, so the composed arcs stay; short ramps between), the last minute to an even
    rise block by block, the final chord to FINAL_LUFS and the 3 s under each call up to its
    SPOTS level (a bump of the gain, eased in over 2 s and out over 8 s)."""
    gains = [target - loudness(_cut(audio, a, b)) for a, b, target in LEVELS]
    points: list[tuple[float, float]] = [(0.0, gains[0])]
    for (_, end, _), before, after in zip(LEVELS[:-1], gains[:-1], gains[1:], strict=True):
        ramp = RAMP_S if end in SECTIONS_S else 3 * RAMP_S
        points += [(end - ramp, before), (end + ramp, after)]
    points.append((LENGTH_S, gains[-1]))
    db = _curve(len(audio), points)
    # The last minute: each block's gain to its place on the rise (block centres, three
    # passes: neighbouring blocks share the ramps between them).
    starts = np.arange(RISE_S, CHORD_S - RISE_BLOCK_S + 1e-9, RISE_BLOCK_S)
    targets = np.linspace(RISE_FROM, RISE_TO, len(starts))
    extra = np.zeros(len(starts))
    for _ in range(3):
        levels = [loudness(_cut(_gain(audio, db + _rise(len(audio), starts, extra)), t,
                                t + RISE_BLOCK_S)) for t in starts]
        extra += targets - np.array(levels)
    db += _rise(len(audio), starts, extra)
    chord = FINAL_LUFS - loudness(_cut(_gain(audio, db), CHORD_S, LENGTH_S))
    db += _curve(len(audio), [(0.0, 0.0), (CHORD_S - 0.3, 0.0), (CHORD_S, chord),
                              (LENGTH_S, chord)])
    for at, target in SPOTS:  # raised to the level, never lowered (a loud entry stays)
        bump = max(0.0, target - short_term(_gain(_cut(audio, at, at + SPOT_S),
                                                  _cut(db, at, at + SPOT_S)), 0.0, SPOT_S))
        db += _curve(len(audio), [(0.0, 0.0), (max(0.0, at - SPOT_IN_S), 0.0), (at, bump),
                                  (at + SPOT_S, bump), (at + SPOT_S + SPOT_OUT_S, 0.0),
                                  (LENGTH_S, 0.0)])
    return _gain(audio, db)


def _rise(n: int, starts: Audio, extra: Audio) -> Audio:
    """The last minute's extra gain: `extra` at each block's centre, eased in from 0 over
    RAMP_S before 8:00, held from the last centre to the end."""
    centres = starts + RISE_BLOCK_S / 2
    return _curve(n, [(0.0, 0.0), (RISE_S - RAMP_S, 0.0), (RISE_S, float(extra[0])),
                      *zip(centres.tolist(), extra.tolist(), strict=True),
                      (LENGTH_S, float(extra[-1]))])


def master_score(raw: Audio) -> Audio:
    """FluidSynth's stereo output -> the finished score: the speaker's tone, the level plan
    (the last minute's peak held), the short fade at the end, compression, loudness and
    true-peak limiting."""
    audio = level_plan(compress(tone(raw)))
    fade = round(FADE_S * SR)
    audio[-fade:] *= (0.5 + 0.5 * np.cos(np.linspace(0.0, np.pi, fade)))[:, None]
    return finish(audio, SCORE_LUFS, compressed=True)


def render_score(era: int, variant: int = 1) -> Audio:
    """The mastered stereo audio (n, 2) of one era's score, exactly LENGTH_S long."""
    return master_score(render(score_midi(era, variant), LENGTH_S))
