"""What a saved record owes the card, and the check of a record an older box wrote.

Around a call the record carries two marks (docs/power-cuts.md): "armed", saved `ARM_LEAD_S`
before the call is due and not yet handed to the mixer, and "sounded", saved durably ahead of
the call by the card's lead (`card_lead`: it grows with the card's measured write time). The
engine that sets them is `machine.py` (`_arm`, `_record_ahead`); this module holds
the numbers they share with the driver.

`cue_problem` checks the cues of a Time of Empires record written by the box before it played
every game on one engine (its "era engine"): `snapshot.loads` reads such a state file, and
`era_save` turns it into the play (docs/state-file.md).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from .config import Config
from .model import Phase, Sound

SCHEMA_VERSION = 1  # of the older box's Time of Empires record
ARM_LEAD_S = 0.5  # a call is recorded on disk held at it this long before it sounds
SOUNDED_LEAD_S = 0.1  # ... and recorded as sounded at least this long before it is handed over
MAX_SOUNDED_LEAD_S = 5.0  # ... and at most this long, however slow the card (`card_lead`)
MAX_WRITE_S = 60.0  # a measured write time is taken as at most this (a hung card)
SAVED_TIME_SLACK_S = 2e-3  # `elapsed` is saved rounded to the millisecond


def card_lead(write_s: float) -> float:
    """How long before a call its "sounded" record goes to disk, for a card whose durable
    writes take `write_s`: the least lead `SOUNDED_LEAD_S` plus twice the write time (the
    record may queue behind a save being written), at most `MAX_SOUNDED_LEAD_S`. A card that
    writes in time never makes the call late nor lets a cut sound it twice; a cut in this
    window before the call shows the call instead (docs/power-cuts.md), so the window grows
    with the card. A press waits for its record this long too."""
    return min(MAX_SOUNDED_LEAD_S, SOUNDED_LEAD_S + 2.0 * clean_write_s(write_s))


def clean_write_s(write_s: float) -> float:
    """A measured durable-write time as the box keeps it: seconds to the ms; negative or not
    finite: 0, beyond `MAX_WRITE_S`: that."""
    return round(min(max(write_s, 0.0), MAX_WRITE_S), 3) if math.isfinite(write_s) else 0.0


class Cue(NamedTuple):
    """One cue of a real-time era as the config says it, at `at` seconds of running time."""

    at: float
    sound: Sound
    call: int | None = None  # a timed call: which one of the era
    ends_era: bool = False

    @property
    def recorded(self) -> bool:
        """A cue with its own records: a timed call or the end gong."""
        return self.call is not None or self.ends_era


def era_cues(config: Config) -> tuple[Cue, ...]:
    """A real-time era's cues in firing order as the config says them (the older box's record
    is checked against them; the benchmarks expect them): the calls, the final ticks, the end
    gong (at equal times a call before a tick)."""
    rt = config.realtime
    cues = [(at, 0, Cue(at, rt.call(n).sound, call=n)) for n, at in enumerate(rt.scholar_cues_s)]
    cues += [(rt.length_s - k, 1, Cue(rt.length_s - k, Sound.TICK))
             for k in range(rt.final_ticks_s, 0, -1) if rt.length_s - k > 0]
    cues.append((rt.length_s, 2, Cue(rt.length_s, Sound.GONG, ends_era=True)))
    return tuple(cue for _, _, cue in sorted(cues, key=lambda c: (c[0], c[1])))


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _just_sounded(cues: tuple[Cue, ...], sounded: object, done: int) -> bool:
    """Cue `sounded` is the timed call just done when `done` cues are: only final ticks
    since (a call among the final ticks keeps its prompt, and its record, over them)."""
    return (isinstance(sounded, int) and not isinstance(sounded, bool)
            and 0 <= sounded < done <= len(cues) and cues[sounded].call is not None
            and not any(cue.recorded for cue in cues[sounded + 1:done]))


def cue_problem(snapshot: dict[str, Any], config: Config) -> str | None:
    """What makes a well-typed snapshot inconsistent with the era's cue list, or None.

    A real-time era's record must fit its timeline: every cue clearly before `elapsed` done,
    none clearly after it; "armed" only on the next cue, a call due within `ARM_LEAD_S`, while
    running; "sounded" only on the cry just done. Outside a running era neither is set.
    """
    armed, sounded = snapshot.get("armed"), snapshot.get("sounded")
    phase = snapshot.get("phase")
    if phase not in (Phase.RUNNING.value, Phase.PAUSED.value):
        if armed is not None or sounded is not None:
            return f"a cue is armed or sounded in {phase}, outside a running era"
        return None
    cues = era_cues(config)
    done = snapshot.get("cues_done", 0)
    at = min(float(snapshot["elapsed"]), config.realtime.length_s)
    slack = SAVED_TIME_SLACK_S
    if not _int(done) or done > len(cues) - 1:
        return f"{done} cues done in an era of {len(cues)} (the last one ends it)"
    before = sum(1 for c in cues if c.at < at - slack)
    upto = sum(1 for c in cues if c.at <= at + slack)
    if not before <= done <= upto:
        return (f"{done} cues done at {at:g} s running time, the era's cue list says "
                f"{before}" + ("" if before == upto else f" to {upto}"))
    if armed is not None and not (phase == Phase.RUNNING.value and armed == done
                                  and cues[done].recorded
                                  and cues[done].at - at <= ARM_LEAD_S + slack):
        return f"cue {armed} is armed at {at:g} s, it is not the next call due"
    if sounded is not None and not _just_sounded(cues, sounded, done):
        return f"cue {sounded} is recorded sounded, it is not the call just done"
    return None
