"""When the loop may collect garbage: a pure policy (counts and times in, a decision out).

CPython's cyclic garbage collector runs its older generations whenever allocation counts cross
their thresholds, in whichever thread happens to allocate, and it holds the GIL for the whole
pass. A full pass over the box's heap takes tens of milliseconds on a PC and several times that
on a Pi Zero; if it starts just before a cue is due, the loop thread waits for the GIL and hands
the cue over that much late. So the box keeps the young collections automatic (cheap: a few
hundred objects) and the loop runs the older ones itself, when its next wake-up is far enough
away (`erabox.adapters.collector.LoopCollector` executes this).
"""

from __future__ import annotations

MIN_SLACK_S = 0.05  # never collect less than this before the loop's next wake-up
MARGIN = 3.0  # ... nor unless the last pass of that generation fits this many times over
# what a pass is taken to cost before one was timed: generous (a full pass of the box's heap is
# ~10-40 ms on a PC), so the first full pass waits for a quiet moment (setup, scoring)
FIRST_GUESS_S = {1: 0.01, 2: 0.1}


def due_generation(counts: tuple[int, int, int], thresholds: tuple[int, int, int]) -> int | None:
    """The older generation CPython's own collector would have run by now, if any.

    `counts` is `gc.get_count()` while the loop owns the older generations: young collections
    since the last middle one, then middle collections since the last full one. Like CPython, a
    full collection is due instead of a middle one once enough middle ones have run.
    """
    _, young_runs, middle_runs = counts
    _, middle_threshold, full_threshold = thresholds
    if young_runs <= middle_threshold:
        return None
    return 2 if middle_runs >= full_threshold else 1


def fits(slack_s: float | None, last_cost_s: float) -> bool:
    """May a collection run now? `slack_s` is the time until the loop's next wake-up (None: no
    deadline at all); `last_cost_s` how long the last pass of that generation took."""
    if slack_s is None:
        return True
    return slack_s >= max(MIN_SLACK_S, MARGIN * last_cost_s)
