"""The scoring's event lines in Time of Empires' words (`[game] lines = "eras"`,
core/era_lines_scores.py): every golden scenario played by the round file prints the era
engine's `points`, `buildings`, `entry`, `standings` and `ranking` lines, byte for byte.

tests/test_era_lines.py compares every golden script whole, these lines with the others;
here, what the goldens hold of them and how an era's entry is counted.
"""

from __future__ import annotations

import io
import json
from dataclasses import replace

from erabox.core.entry import by_setting
from erabox.core.era_lines_scores import EntryCount
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import Play, State, new_play
from test_golden import SCENARIOS
from test_one_engine_golden_cues import ERA_WORDS

SCORING = ("points", "buildings", "entry", "standings", "ranking")

def test_the_scoring_lines_of_goldens_are_many() -> None:
    """The comparison is not empty: the scenarios that score hold these lines."""
    counts = {kind: 0 for kind in SCORING}
    for path in SCENARIOS:
        scenario = json.loads(path.read_text(encoding="utf-8"))
        for line in io.StringIO(scenario["output"]):
            kind = json.loads(line)["type"]
            if kind in counts:
                counts[kind] += 1
    assert counts == {"points": 209, "buildings": 38, "entry": 52, "standings": 56,
                      "ranking": 13}


def test_an_entry_counts_presses_and_holds_with_their_time_past_the_threshold() -> None:
    """A press 0.25 s, a hold its threshold plus what it was held past it; counted from the
    gesture after the scoring begins (`seen`), ended when it ends."""
    count = EntryCount(hold_s=0.8)
    count.input(Input(Button.ERA, Gesture.PRESS), 0.0)  # before the scoring: not counted
    assert count.seen(_play_in("scoring")) is None
    count.input(Input(Button.NEXT, Gesture.HOLD), 1.0)
    count.input(Input(Button.NEXT, Gesture.RELEASE), 1.6)
    count.input(Input(Button.ERA, Gesture.PRESS), 2.0)
    assert count.seen(_play_in("standings")) is None
    count.input(Input(Button.ERA, Gesture.PRESS), 3.0)
    assert count.seen(_play_in("era_setup")) == {"era": 1, "gestures": 3, "button_s": 1.9}
    count.input(Input(Button.ERA, Gesture.PRESS), 4.0)
    assert count.seen(_play_in("era_setup")) is None


def _play_in(state: str) -> Play:
    play = new_play(by_setting(ERA_WORDS, "totals"), ("red", "blue"))
    return replace(play, spot=replace(play.spot, state=State(state)))
