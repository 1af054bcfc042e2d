"""Cue timing of the real daemon: how late each cue is dispatched, and where an era ends.

A compressed game: eras of a few dozen seconds with a scholar cue every 0.5-1 s, the final
ticks, no lead-in, and pauses (NEXT hold) and resumes (NEXT press) pulled on the mock pins.
Every cue's scheduled time is computed here, independently of the core, from the moments the
daemon's loop took the inputs (the `trace` hook's "input" times: the start press, each pause
and resume) and the configured timeline:

    scheduled = start + cue.at + (time paused before the cue's running time)

Lateness = dispatch time (the clock when the loop handed the cue to the mixer,
`TraceLog.cue_log`) minus when it meant to: scheduled minus the lead (`output_lead_s`, half a
mixer period: cues go to the mixer that much early); "at the mixer" also counts the mixer calls
of that step (trace "mixer"). The end-of-era error is the end gong's dispatch plus the lead
minus start + length + total paused time.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from erabox.core.audio_plan import output_lead_s
from erabox.core.config import parse_config
from erabox.core.engine import phase_of
from erabox.core.model import Button, Phase
from erabox.core.record import era_cues as timeline

from .harness import Session, TraceLog, run_in_process
from .stats import summary_ms

HOLD_S = 0.3  # a short hold keeps the bench quick; the gesture code is the same
LENGTH_SLACK_S = 30.0  # how much longer than planned an era may take before the bench gives up


@dataclass(frozen=True)
class PausePlan:
    """One pause: NEXT held so it fires at running time `at`, resumed `seconds` later."""

    at: float
    seconds: float


@dataclass(frozen=True)
class EraPlan:
    """One compressed real-time era: its length, scholar cues and pauses."""

    length_s: int
    scholar_cues_s: tuple[float, ...]
    pauses: tuple[PausePlan, ...]


def plan_eras(eras: int, length_s: int, pauses: int, pause_s: float,
              rng: random.Random) -> list[EraPlan]:
    """`eras` eras of `length_s` with a scholar cue every 0.5-1 s and `pauses` pauses each.

    Every era uses the same cue times (the config is one per run); the pauses fall at random
    running times, one per equal slot so they never crowd the end gong.
    """
    cues: list[float] = []
    at = rng.uniform(0.5, 1.0)
    while at < length_s - 0.25:
        cues.append(round(at, 3))
        at += rng.uniform(0.5, 1.0)
    plans = []
    slot = length_s / (pauses + 1)
    for _ in range(eras):
        plan = tuple(
            PausePlan(at=round(slot * (i + 1) + rng.uniform(-0.3, 0.3) * slot, 3),
                      seconds=round(pause_s * rng.uniform(0.6, 1.4), 3))
            for i in range(pauses)
        )
        plans.append(EraPlan(length_s, tuple(cues), plan))
    return plans


def era_config(plan: EraPlan) -> str:
    """The TOML config of the compressed game."""
    cues = ", ".join(f"{c:g}" for c in plan.scholar_cues_s)
    return (
        "[realtime]\n"
        f"length_s = {plan.length_s}\n"
        f"scholar_cues_s = [{cues}]\n"
        "lead_in_s = 0\n"
        "final_ticks_s = 10\n"
        "\n[buttons]\n"
        f"hold_s = {HOLD_S}\n"
    )


@dataclass
class EraRun:
    """What the scenario saw of one era: the start and each (pause, resume) input time."""

    start: float
    pauses: list[tuple[float, float]] = field(default_factory=list)
    end_seen: float = 0.0


def _input_time_before(trace: TraceLog, mark: int, phase: Phase) -> float:
    """The loop's time for the input whose step first left the game in `phase` after `mark`.

    The loop reports "input" (with the `now` it steps with) and then "state" for each input,
    so the input just before the first matching "state" is the one that did it.
    """
    last_input: float | None = None
    for entry in trace.since(mark):
        if entry.kind == "input":
            last_input = entry.t
        elif entry.kind == "state" and entry.game is not None and (
                phase_of(entry.game, entry.t) is phase):
            if last_input is None:
                break
            return last_input
    raise RuntimeError(f"no input led to {phase}")


def play_eras(session: Session, plans: list[EraPlan]) -> list[EraRun]:
    """The scenario: start each era, pause and resume as planned, let it end, go on."""
    runs: list[EraRun] = []
    for number, plan in enumerate(plans):
        if number > 0:  # scoring (points entered) -> setup of the next era
            session.leave_scoring()
            session.wait_phase(Phase.SETUP, 10)
        session.wait_until_quiet()  # the era's music is decoded while its setup shows
        mark = session.trace.mark()
        session.press(Button.ERA)
        session.wait_phase(Phase.RUNNING, 10)
        run = EraRun(start=_input_time_before(session.trace, mark, Phase.RUNNING))
        paused_total = 0.0
        for pause in plan.pauses:
            # Start holding so the hold threshold falls at the planned running time.
            session.wait_until_time(run.start + paused_total + pause.at - HOLD_S)
            mark = session.trace.mark()
            session.hold(Button.NEXT, HOLD_S)
            session.wait_phase(Phase.PAUSED, 10)
            paused_at = _input_time_before(session.trace, mark, Phase.PAUSED)
            session.pause_for(pause.seconds)
            mark = session.trace.mark()
            session.press(Button.NEXT)
            session.wait_phase(Phase.RUNNING, 10)
            resumed_at = _input_time_before(session.trace, mark, Phase.RUNNING)
            run.pauses.append((paused_at, resumed_at))
            paused_total += resumed_at - paused_at
        session.wait_phase(Phase.SCORING, plan.length_s + paused_total + LENGTH_SLACK_S)
        runs.append(run)
    return runs


def scheduled_time(start: float, pauses: list[tuple[float, float]], running_at: float) -> float:
    """The wall time at which running time `running_at` is reached, given the pauses."""
    t = start + running_at
    paused_before = 0.0
    for paused_at, resumed_at in pauses:
        held = paused_at - start - paused_before  # running time at which this pause began
        if held < running_at:
            t += resumed_at - paused_at
            paused_before += resumed_at - paused_at
    return t


def analyse(plans: list[EraPlan], runs: list[EraRun], cue_log: list[tuple[float, float, str]],
            mixer_times: list[float]) -> dict[str, Any]:
    """Lateness of every cue, the end-of-era error of every era, and cue-count checks."""
    config = parse_config(era_config(plans[0]), "<bench>")
    cues = timeline(config)
    lead = output_lead_s(config.audio)  # the loop hands each cue over this early
    late: list[float] = []
    late_mixer: list[float] = []
    eras: list[dict[str, Any]] = []
    problems: list[str] = []
    for index, run in enumerate(runs):
        until = runs[index + 1].start if index + 1 < len(runs) else float("inf")
        fired = [(d, s) for _, d, s in cue_log if run.start <= d < until]
        names = [s for _, s in fired]
        if names != [c.sound.value for c in cues]:
            problems.append(f"era {index + 1}: {len(fired)} cues dispatched, "
                            f"{len(cues)} expected")
        era_late = []
        for (dispatched, _), cue in zip(fired, cues, strict=False):
            due = scheduled_time(run.start, run.pauses, cue.at) - lead
            era_late.append(dispatched - due)
            at_mixer = bisect.bisect_left(mixer_times, dispatched)
            if at_mixer < len(mixer_times):
                late_mixer.append(mixer_times[at_mixer] - due)
        late += era_late
        paused = sum(r - p for p, r in run.pauses)
        end_error = None
        if fired and fired[-1][1] == "gong":
            end_error = fired[-1][0] + lead - (run.start + plans[index].length_s + paused)
        eras.append({
            "era": index + 1,
            "cues": len(fired),
            "cues_expected": len(cues),
            "pauses": len(run.pauses),
            "paused_s": round(paused, 4),
            "end_error_ms": None if end_error is None else round(end_error * 1000, 3),
            "lateness": summary_ms(era_late),
        })
    errors = [abs(e["end_error_ms"]) for e in eras if e["end_error_ms"] is not None]
    return {
        "lateness": summary_ms(late),
        "lateness_at_mixer": summary_ms(late_mixer),
        "end_error_max_abs_ms": max(errors) if errors else None,
        "eras": eras,
        "cue_count_problems": problems,
    }


def measure_cues(plans: list[EraPlan], workdir: Path) -> dict[str, Any]:
    """Play the compressed game on the in-process daemon and analyse its cue timing."""
    outcome = run_in_process(era_config(plans[0]), lambda s: play_eras(s, plans), workdir)
    mixer_times = [e.t for e in outcome.trace.entries if e.kind == "mixer"]
    result = analyse(plans, outcome.result, list(outcome.trace.cue_log), mixer_times)
    result["config"] = {
        "eras": len(plans),
        "length_s": plans[0].length_s,
        "scholar_cues": len(plans[0].scholar_cues_s),
        "final_ticks_s": 10,
        "pauses_per_era": len(plans[0].pauses),
        "hold_s": HOLD_S,
        "toml": era_config(plans[0]),
    }
    return result
