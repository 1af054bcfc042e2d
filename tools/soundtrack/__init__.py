"""The era scores: composed in `scores.py`, written as MIDI and rendered by `midi.py`.

`render_score(era)` gives the finished stereo audio of one era's 540 s piece, mastered to
`SCORE_LUFS` integrated loudness (ITU-R BS.1770, measured with pyloudnorm).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .midi import SR, midi_file, render
from .scores import COMPOSERS, LENGTH_S, RISE_S, Piece

Audio = npt.NDArray[np.float64]

# Integrated loudness of every score. The cues' loudness (max momentary) is -10 .. -15 LUFS
# (sounds/README.md); a score's loudest 3 s (the end of the rise) come ~8 LU above this
# integrated figure, so even there the quietest cue, the tick, stays 8 LU above the music.
SCORE_LUFS = -30.5
FADE_S = 0.25  # a short fade at the very end (the last chord has nearly died by then)
RISE_DB = 3.0  # a mix crescendo over the last minute, on top of the composed one


def compose(era: int) -> Piece:
    return COMPOSERS[era]()


def score_midi(era: int) -> bytes:
    piece = compose(era)
    return midi_file(piece.notes, piece.controls, piece.programs, LENGTH_S + 1.0)


def loudness(audio: Audio) -> float:
    """Integrated loudness in LUFS (ITU-R BS.1770-4 via pyloudnorm)."""
    import pyloudnorm  # build- and test-time only

    return float(pyloudnorm.Meter(SR).integrated_loudness(audio))


def render_score(era: int) -> Audio:
    """The mastered stereo audio (n, 2) of one era's score, exactly LENGTH_S long."""
    audio = render(score_midi(era), LENGTH_S)
    rise = np.zeros(len(audio))
    start, top = round(RISE_S * SR), round((LENGTH_S - 6.0) * SR)
    rise[start:top] = np.linspace(0.0, RISE_DB, top - start)
    rise[top:] = RISE_DB
    audio *= (10.0 ** (rise / 20.0))[:, None]
    fade = round(FADE_S * SR)
    audio[-fade:] *= (0.5 + 0.5 * np.cos(np.linspace(0.0, np.pi, fade)))[:, None]
    gain = 10.0 ** ((SCORE_LUFS - loudness(audio)) / 20.0)
    return audio * gain
