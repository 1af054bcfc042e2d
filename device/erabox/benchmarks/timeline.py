"""The cues a real-time era must sound, as the config says them: what the cue and soak
benchmarks check the box's event stream against (each call, each final tick, the end gong,
at its running time)."""

from __future__ import annotations

from typing import NamedTuple

from erabox.core.config import Config
from erabox.core.model import Sound


class Expected(NamedTuple):
    at: float  # running seconds from the start gong
    sound: Sound


def timeline(config: Config) -> tuple[Expected, ...]:
    """The cues of a real-time era in firing order: timed calls (the scholar cries), final
    ticks, end gong; at equal times a call before a tick."""
    rt = config.realtime
    cues = [(at, 0, Expected(at, rt.call(n).sound)) for n, at in enumerate(rt.scholar_cues_s)]
    cues += [(rt.length_s - k, 1, Expected(rt.length_s - k, Sound.TICK))
             for k in range(rt.final_ticks_s, 0, -1) if rt.length_s - k > 0]
    cues.append((rt.length_s, 2, Expected(rt.length_s, Sound.GONG)))
    return tuple(cue for _, _, cue in sorted(cues, key=lambda c: (c[0], c[1])))
