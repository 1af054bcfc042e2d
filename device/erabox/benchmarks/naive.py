"""The timer erabox is compared with: the way most hobby countdowns are written.

    for each second: time.sleep(1); if not paused: seconds_left -= 1; draw; play due cues

It is given the same eras as the daemon (length, scholar cues, final ticks, pauses at the same
running times for the same durations) and does the same per-second work (it renders the
running screen with the box's own renderer), so the comparison is fair. Its errors are what
that design makes: every second's work and every sleep's overshoot add up, and a pause or a
cue can only take effect on a whole-second tick.

Run as `python -m erabox.benchmarks.naive PLAN_JSON` in a process of its own so it never
competes with the daemon for the GIL; it prints its results as one JSON object.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from typing import Any

from erabox.core.model import Mode, Phase, Screen

from .cues import EraPlan, scheduled_time
from .stats import summary_ms

FINAL_TICKS_S = 10
ERA_GAP_S = 0.5  # between eras, as a table would take a moment to score


def naive_era(plan: dict[str, Any], era: int) -> dict[str, Any]:
    """Run one era the naive way; returns its end-of-era error and cue lateness."""
    from erabox.ui.render import render

    length = int(plan["length_s"])
    cue_times = sorted(plan["scholar_cues_s"]
                       + [length - k for k in range(FINAL_TICKS_S, 0, -1) if length - k > 0])
    paused = threading.Event()
    flips: list[tuple[float, float]] = []  # (paused at, resumed at), as the "button" saw them
    start = time.monotonic()

    def button() -> None:
        # The player's hand: pauses at the planned running times, like a button callback would.
        planned_paused = 0.0
        quit_early = threading.Event()
        for pause in plan["pauses"]:
            quit_early.wait(max(0.0, start + pause["at"] + planned_paused - time.monotonic()))
            paused_at = time.monotonic()
            paused.set()
            quit_early.wait(pause["seconds"])
            paused.clear()
            flips.append((paused_at, time.monotonic()))
            planned_paused += pause["seconds"]

    hand = threading.Thread(target=button, daemon=True)
    hand.start()
    cue_dispatch: list[tuple[float, float]] = []  # (cue running time, dispatched)
    next_cue = 0
    left = length
    while left > 0:
        time.sleep(1)
        if paused.is_set():
            continue
        left -= 1
        counted = length - left
        render(Screen(Phase.RUNNING, era, Mode.REALTIME, seconds_left=left,
                      length_s=float(length), elapsed=float(counted),
                      cue_marks=tuple(plan["scholar_cues_s"])))
        while next_cue < len(cue_times) and cue_times[next_cue] <= counted:
            cue_dispatch.append((cue_times[next_cue], time.monotonic()))
            next_cue += 1
    end = time.monotonic()
    hand.join(timeout=5.0)
    paused_total = sum(r - p for p, r in flips)
    late = [t - scheduled_time(start, flips, at) for at, t in cue_dispatch]
    return {
        "era": era,
        "paused_s": round(paused_total, 4),
        "end_error_ms": round((end - (start + length + paused_total)) * 1000, 3),
        # Either way: a whole-second tick fires a cue up to a second late, or early after a
        # pause that the countdown only noticed on its next tick.
        "cue_error": summary_ms([abs(x) for x in late]),
    }


def main(argv: list[str]) -> int:
    """Entry point of the subprocess: run every era of the plan and print the results."""
    plans = json.loads(argv[0])
    eras = []
    for era, plan in enumerate(plans, start=1):
        if era > 1:
            time.sleep(ERA_GAP_S)
        eras.append(naive_era(plan, min(era, 3)))
    errors = [abs(e["end_error_ms"]) for e in eras]
    print(json.dumps({"eras": eras, "end_error_max_abs_ms": max(errors)}))
    return 0


def start_naive(plans: list[EraPlan]) -> subprocess.Popen[str]:
    """Start the naive timer on the same eras in a process of its own."""
    payload = json.dumps([
        {"length_s": p.length_s, "scholar_cues_s": list(p.scholar_cues_s),
         "pauses": [{"at": x.at, "seconds": x.seconds} for x in p.pauses]}
        for p in plans
    ])
    return subprocess.Popen([sys.executable, "-m", "erabox.benchmarks.naive", payload],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish_naive(proc: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
    """Wait for the naive timer's results."""
    out, err = proc.communicate(timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"the naive timer failed ({proc.returncode}): {err.strip()[-500:]}")
    result: dict[str, Any] = json.loads(out)
    return result


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
