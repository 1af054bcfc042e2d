"""Input latency of the real daemon: from the release edge on a mock pin to what follows.

In the setup screen of Era I the scenario taps, in turn, NEXT (toggles the mode: new state and
screen), VOL+ (new state, a mixer call and a screen), NEXT, VOL- (so the volume always changes
and every gesture really draws a new frame). Nothing else happens in setup (no clock, no
cues), so every "input", "state", "mixer" and "frame" moment after a tap belongs to that tap.

A press fires on release, and the buttons debounce: the release only counts once the pin has
been stable for `bounce_s` (20 ms by default, kept here as on the box). So every figure is
reported twice: raw (from the release edge) and after the debounce window (raw - bounce_s),
which is the time the software itself takes.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from erabox.core.model import Button, Phase

from .harness import Session, run_in_process
from .stats import summary_ms

BOUNCE_S = 0.02  # the config's default, written out so the report can name it
CONFIG = f"""
default_mode = "realtime"

[buttons]
bounce_s = {BOUNCE_S}
"""
ROUND = (Button.NEXT, Button.VOL_UP, Button.NEXT, Button.VOL_DOWN)
WAIT_S = 5.0  # generous: a frame that takes this long is a failure, not a measurement
STAGES = ("input", "state", "mixer", "frame")


def tap_and_time(session: Session, gestures: int, rng: random.Random) -> dict[str, Any]:
    """The scenario: `gestures` taps; per tap the delay from release edge to each stage."""
    session.wait_phase(Phase.SETUP, 10)
    # Let the start-up frame go out first, so the first tap's frame is its own.
    session.trace.wait_until(lambda: any(e.kind == "frame" for e in session.trace.entries),
                             10, "the first frame")
    quiet_after = session.wait_until_quiet()  # Era I's music is decoded after start-up
    samples: list[dict[str, Any]] = []
    for index in range(gestures):
        button = ROUND[index % len(ROUND)]
        wants_mixer = button is not Button.NEXT
        mark = session.trace.mark()
        released = session.press(button)

        def complete(mark: int = mark, wants_mixer: bool = wants_mixer) -> bool:
            kinds = {e.kind for e in session.trace.since(mark)}
            return "frame" in kinds and "state" in kinds and (not wants_mixer or "mixer" in kinds)

        session.trace.wait_until(complete, WAIT_S, f"tap {index} ({button}) to be drawn")
        first: dict[str, float] = {}
        for entry in session.trace.since(mark):
            first.setdefault(entry.kind, entry.t)
        samples.append({"button": button.value,
                        **{stage: first[stage] - released for stage in STAGES if stage in first}})
        # A short, varied gap so taps do not fall into step with any periodic work.
        session.pause_for(rng.uniform(0.01, 0.04))
    return {"samples": samples, "quiet_after_s": round(quiet_after, 2)}


def measure_latency(gestures: int, workdir: Path, rng: random.Random) -> dict[str, Any]:
    """Run the taps on the in-process daemon; p50/p99/max per stage, raw and after debounce."""
    outcome = run_in_process(CONFIG, lambda s: tap_and_time(s, gestures, rng), workdir)
    samples = outcome.result["samples"]
    result: dict[str, Any] = {"gestures": len(samples), "bounce_ms": BOUNCE_S * 1000,
                              "quiet_after_s": outcome.result["quiet_after_s"],
                              "raw": {}, "after_debounce": {}}
    for stage in STAGES:
        values = [s[stage] for s in samples if stage in s]
        result["raw"][stage] = summary_ms(values)
        result["after_debounce"][stage] = summary_ms([v - BOUNCE_S for v in values])
    return result
