"""The soak: hours of random play through the core, then minutes of it through the daemon.

Both parts feed random gestures at random times (weighted so games really progress: eras
start, pause, resume, end, get restarted, modes get toggled, intro rounds counted) and check
the same things from the same JSON-lines event stream `erabox simulate` and `erabox run
--events` write:

- no exception anywhere (virtual: the core's step, `next_deadline` and the renderer for every
  distinct screen; real: ERROR lines and tracebacks in the daemon's log, and its exit code);
- every real-time era's cues are exactly right: an era that reached its end gong played
  exactly the configured timeline (each scholar cry, each final tick, the end gong), each at
  its running time (pauses excluded); an era cut short (restart, new game) played a prefix.

The real part runs the daemon in this process (so the player can see the game it reacts to)
and samples the process's resident memory (VmRSS) to see whether it grows.
"""

from __future__ import annotations

import json
import random
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from erabox.core.config import Config, parse_config
from erabox.core.engine import state_of
from erabox.core.model import Button, Gesture, Input, Phase
from erabox.core.play import Play
from erabox.core.record import era_cues as timeline
from erabox.core.script import ScriptLine

from .harness import ProblemLog, Session, run_in_process

# The random players: what they do next depends on what the table sees (mostly playing the
# game properly, with undos, restarts, new games, volume fiddling and idle stretches), plus a
# little chaos: any gesture at all, whatever the screen shows. None = let time pass.
Choice = tuple[Input | None, float]
NEXT_PRESS = Input(Button.NEXT, Gesture.PRESS)
NEXT_HOLD = Input(Button.NEXT, Gesture.HOLD)
ERA_PRESS = Input(Button.ERA, Gesture.PRESS)
ERA_HOLD = Input(Button.ERA, Gesture.HOLD)
VOL_UP = Input(Button.VOL_UP, Gesture.PRESS)
VOL_DOWN = Input(Button.VOL_DOWN, Gesture.PRESS)
BOTH_HOLD = Input(Button.BOTH, Gesture.HOLD)
ANY_GESTURE = (NEXT_PRESS, NEXT_HOLD, ERA_PRESS, ERA_HOLD, VOL_UP, VOL_DOWN, BOTH_HOLD,
               Input(Button.VOL_DOWN, Gesture.HOLD))
PLAYER: dict[Phase, tuple[Choice, ...]] = {
    Phase.SETUP: ((ERA_PRESS, 6), (NEXT_PRESS, 3), (VOL_UP, 0.5), (VOL_DOWN, 0.5),
                  (BOTH_HOLD, 0.2)),
    Phase.LEAD_IN: ((None, 8), (ERA_HOLD, 1), (NEXT_PRESS, 1)),
    Phase.RUNNING: ((None, 10), (NEXT_HOLD, 4), (NEXT_PRESS, 2), (VOL_UP, 1), (VOL_DOWN, 1),
                    (ERA_HOLD, 0.6), (ERA_PRESS, 1), (BOTH_HOLD, 0.2)),
    Phase.PAUSED: ((NEXT_PRESS, 6), (NEXT_HOLD, 1), (ERA_HOLD, 0.5), (VOL_UP, 0.5),
                   (None, 2)),
    Phase.INTRO_ROUND: ((NEXT_PRESS, 8), (NEXT_HOLD, 1.5), (ERA_HOLD, 0.3), (VOL_DOWN, 0.5),
                        (None, 1)),
    Phase.SCHOLARS: ((NEXT_PRESS, 8), (NEXT_HOLD, 1), (None, 1)),
    Phase.SCORING: ((NEXT_PRESS, 3), (ERA_PRESS, 5), (None, 1)),
    Phase.GAME_OVER: ((ERA_HOLD, 5), (NEXT_PRESS, 1), (None, 1)),
    Phase.CONFIRM: ((ERA_PRESS, 3), (NEXT_PRESS, 4), (None, 3)),  # None: it times out
    Phase.SETTINGS: ((ERA_HOLD, 4), (NEXT_PRESS, 3), (NEXT_HOLD, 1), (ERA_PRESS, 2)),
}
CHAOS = 0.05  # share of gestures picked blindly
SETTLE_S = 0.3  # pins up and debounced before the next gesture begins

# The real-play config: eras of a minute, so ten minutes see many of them end and restart.
REAL_SOAK_CONFIG = """
[realtime]
length_s = 60
scholar_cues_s = [20, 40]
lead_in_s = 3
final_ticks_s = 5
"""
RSS_EVERY_S = 10.0


def choose_gesture(game: Play, rng: random.Random, now: float) -> Input | None:
    """What a random player does next, seeing this game (None: nothing, let time pass)."""
    if rng.random() < CHAOS:
        return rng.choice(ANY_GESTURE)
    choices = PLAYER[state_of(game, now)]
    picked: Input | None = rng.choices([c for c, _ in choices], [w for _, w in choices])[0]
    return picked


# --- checking cues from the event stream --------------------------------------------------------


@dataclass
class _Era:
    start: float
    era: int
    paused_at: float | None = None
    paused_total: float = 0.0
    pauses: int = 0
    cues: list[tuple[str, float]] = field(default_factory=list)  # (sound, running time)


@dataclass
class CueCheck:
    """What `check_cues` found."""

    completed: int = 0
    cut_short: int = 0
    unfinished: int = 0
    cues_checked: int = 0
    max_timing_error_s: float = 0.0
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """For the JSON report."""
        return {
            "realtime_eras_completed": self.completed,
            "realtime_eras_cut_short": self.cut_short,
            "realtime_era_unfinished_at_end": self.unfinished,
            "cues_checked": self.cues_checked,
            "max_cue_timing_error_ms": round(self.max_timing_error_s * 1000, 3),
            "problems": self.problems[:20],
            "problem_count": len(self.problems),
        }


def check_cues(events: list[dict[str, Any]], config: Config, tolerance_s: float) -> CueCheck:
    """Check every real-time era in an event stream against the configured timeline.

    A real-time era runs from its `music_start` (the last state line said mode realtime) to
    its `music_stop`; `music_pause`/`music_resume` bracket the pauses. A cue's running time is
    its time minus the start minus the pauses before it; it must match the timeline within
    `tolerance_s` (event times are rounded to the millisecond).
    """
    expected = [(c.sound.value, c.at) for c in timeline(config)]
    check = CueCheck()
    mode = config.default_mode.value
    era: _Era | None = None

    def close(era: _Era, stopped: bool) -> None:
        sounds = [s for s, _ in era.cues]
        where = f"era {era.era} started at t={era.start:.3f}"
        complete = stopped and sounds == [s for s, _ in expected]
        if complete:
            check.completed += 1
        elif sounds != [s for s, _ in expected[:len(sounds)]]:
            check.problems.append(f"{where}: cues {sounds} are not the timeline "
                                  f"{[s for s, _ in expected]} or a prefix of it")
        elif stopped:
            check.cut_short += 1
        else:
            check.unfinished += 1
        for (sound, running), (_, at) in zip(era.cues, expected, strict=False):
            error = abs(running - at)
            check.cues_checked += 1
            check.max_timing_error_s = max(check.max_timing_error_s, error)
            if error > tolerance_s + 0.001 * era.pauses:
                check.problems.append(f"{where}: {sound} at running time {running:.3f}, "
                                      f"due at {at:g}")

    for event in events:
        if event["type"] == "state":
            mode = event["mode"]
            continue
        if event["type"] != "sound":
            continue
        sound, t = event["sound"], float(event["t"])
        if sound == "music_start":
            if era is not None:
                close(era, stopped=False)
                check.problems.append(f"era {era.era}: music started again without a stop")
            era = _Era(t, int(event["era"])) if mode == "realtime" else None
        elif era is None:
            continue
        elif sound == "music_pause":
            era.paused_at = t
        elif sound == "music_resume" and era.paused_at is not None:
            era.paused_total += t - era.paused_at
            era.pauses += 1
            era.paused_at = None
        elif sound in ("cry", "tick", "gong"):
            if era.paused_at is not None:
                check.problems.append(f"era {era.era}: {sound} at t={t:.3f} while paused")
            era.cues.append((sound, t - era.start - era.paused_total))
        elif sound == "music_stop":
            close(era, stopped=True)
            era = None
    if era is not None:
        close(era, stopped=False)
    return check


# --- the virtual part ---------------------------------------------------------------------------


def virtual_soak(hours: float, rng: random.Random, mean_gap_s: float = 25.0) -> dict[str, Any]:
    """`hours` of random play through the core on a virtual clock, like `erabox simulate`.

    The real `Simulation` of `erabox simulate` runs it (deadlines via `next_deadline`, inputs
    at their times); every distinct screen is also rendered, as the box would draw it.
    """
    from erabox.run.simulate import Simulation
    from erabox.ui.render import render

    config = parse_config("", "<defaults>")
    events: list[dict[str, Any]] = []
    exceptions: list[str] = []
    rendered = 0
    gestures = 0

    def draw(screen: Any, t: float) -> None:
        nonlocal rendered
        try:
            render(screen, language=config.language)
            rendered += 1
        except Exception:  # counted and reported, the soak goes on
            exceptions.append(f"render at t={t:.3f}: {traceback.format_exc(limit=3)}")

    began = time.monotonic()
    sim = Simulation(config, events.append, draw)
    end = hours * 3600
    at = 0.0
    while True:
        at += SETTLE_S + rng.expovariate(1 / mean_gap_s)
        if at >= end:
            break
        try:
            sim.advance(at)  # the deadlines up to now first, so the player sees this moment
            gesture = choose_gesture(sim.game, rng, at)
            if gesture is not None:
                gestures += 1
                sim.perform(ScriptLine(round(at, 3), gesture, gestures))
        except Exception:
            exceptions.append(f"at t={at:.3f}: {traceback.format_exc(limit=3)}")
    try:
        sim.advance(end)
    except Exception:
        exceptions.append(f"final advance: {traceback.format_exc(limit=3)}")
    check = check_cues(events, config, tolerance_s=0.003)
    return {
        "virtual_hours": hours,
        "gestures": gestures,
        "events": len(events),
        "screens_rendered": rendered,
        "exceptions": len(exceptions),
        "exception_samples": exceptions[:3],
        "wall_s": round(time.monotonic() - began, 2),
        "cue_check": check.as_dict(),
    }


# --- the real part ------------------------------------------------------------------------------


def gesture_seconds(gesture: Input, config: Config) -> float:
    """How long a finger keeps the pins down for `gesture` (as `erabox run --script` does)."""
    if gesture.button is Button.BOTH:
        return config.buttons.both_s + 0.1
    if gesture.gesture is Gesture.HOLD:
        return config.buttons.hold_s + 0.1
    return 0.1


def _rss_kb() -> int | None:
    """This process's resident memory (VmRSS), or None without /proc."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def real_soak(minutes: float, workdir: Path, rng: random.Random,
              mean_gap_s: float = 1.5) -> dict[str, Any]:
    """`minutes` of random play through the in-process daemon on mock pins.

    Every gesture goes through gpiozero's Button and the gesture recogniser (`Buttons.perform`
    holds the pins as long as a finger would); the player looks at the game before each one.
    Reports resident memory over time (sampled between gestures), ERROR log records and
    uncaught thread exceptions, lost gestures, and the cue check of the daemon's event stream.
    """
    config = parse_config(REAL_SOAK_CONFIG, "<soak>")
    seconds = minutes * 60
    events_path = workdir / "soak.events"
    workdir.mkdir(parents=True, exist_ok=True)

    def play(session: Session) -> dict[str, Any]:
        session.wait_phase(Phase.SETUP, 10)
        began = time.monotonic()
        rss: list[tuple[float, int]] = []
        next_sample = began
        performed = 0
        while (now := time.monotonic()) < began + seconds:
            if now >= next_sample:
                kb = _rss_kb()
                if kb is not None:
                    rss.append((round(now - began, 1), kb))
                next_sample += RSS_EVERY_S
            session.pause_for(min(rng.expovariate(1 / mean_gap_s),
                                  max(0.0, began + seconds - time.monotonic())))
            gesture = choose_gesture(session.game, rng, time.monotonic())
            if gesture is None or time.monotonic() >= began + seconds:
                continue
            finger = session.buttons.perform(gesture)
            # Wait for the finger to let go (bounded), then let the pins settle.
            finger.join(timeout=gesture_seconds(gesture, config) + 5.0)
            performed += 1
            session.pause_for(SETTLE_S)
        kb = _rss_kb()
        if kb is not None:
            rss.append((round(time.monotonic() - began, 1), kb))
        return {"performed": performed, "rss": rss}

    with ProblemLog() as problems:
        outcome = run_in_process(REAL_SOAK_CONFIG, play, workdir, events=events_path)
    events = [json.loads(line) for line in events_path.read_text().splitlines()
              if line.endswith("}")]
    check = check_cues(events, config, tolerance_s=0.05)
    # A hold's release is reported as its own input (the end of the hold), not a gesture.
    inputs = sum(1 for e in events if e["type"] == "input" and e.get("gesture") != "release")
    rss = outcome.result["rss"]
    return {
        "minutes": minutes,
        "gestures_performed": outcome.result["performed"],
        "inputs_received": inputs,
        "exit_code": outcome.exit_code,
        "exceptions": len(problems.problems),
        "exception_samples": problems.problems[:5],
        "rss_samples_kb": rss,
        **rss_growth(rss),
        "cue_check": check.as_dict(),
    }


def rss_growth(rss: list[tuple[float, int]]) -> dict[str, Any]:
    """Resident memory at the start, half-way and at the end, and how much it grew.

    Start to end includes one-time growth: each era's music is decoded the first time that era
    is set up. The second half shows whether memory keeps growing once everything was used.
    """
    if not rss:
        return {"rss_start_mb": None, "rss_end_mb": None, "rss_growth_mb": None,
                "rss_growth_second_half_mb": None}
    end_t = rss[-1][0]
    half = next((kb for t, kb in rss if t >= end_t / 2), rss[0][1])
    return {
        "rss_start_mb": round(rss[0][1] / 1024, 2),
        "rss_half_way_mb": round(half / 1024, 2),
        "rss_end_mb": round(rss[-1][1] / 1024, 2),
        "rss_max_mb": round(max(kb for _, kb in rss) / 1024, 2),
        "rss_growth_mb": round((rss[-1][1] - rss[0][1]) / 1024, 2),
        "rss_growth_second_half_mb": round((rss[-1][1] - half) / 1024, 2),
    }
