"""The scoring's event lines in Time of Empires' words (`[game] lines = "eras"`,
core/era_lines_scores.py): every golden scenario played by the round file prints the era
engine's `points`, `buildings`, `entry`, `standings` and `ranking` lines, byte for byte.

Only those lines are compared (the others are the other line types' work: `python
tools/one_engine_lines.py --words eras`). The scenarios the round play itself still plays
differently are listed in `KNOWN`, each with its reason; they are expected to differ (strict:
one that starts matching is taken off the list).
"""

from __future__ import annotations

import io
import json
from dataclasses import replace
from typing import Any

import pytest

from erabox.core.era_lines_scores import EntryCount
from erabox.core.model import Button, Gesture, Input
from erabox.core.profile_entry import by_setting
from erabox.core.profile_play import Play, State, new_play
from test_golden import SCENARIOS
from test_one_engine_golden_cues import ERA_WORDS, played_by_rounds

SCORING = ("points", "buildings", "entry", "standings", "ranking")

KNOWN: dict[str, str] = {}  # none left: every scenario that scores matches


def scoring_lines(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in lines if line["type"] in SCORING]


@pytest.mark.parametrize("path", SCENARIOS, ids=[path.stem for path in SCENARIOS])
def test_the_scoring_lines_are_the_era_engines(path: Any) -> None:
    if path.stem in KNOWN:
        pytest.xfail(KNOWN[path.stem])
    scenario = json.loads(path.read_text(encoding="utf-8"))
    own = [json.loads(line) for line in io.StringIO(scenario["output"])]
    assert scoring_lines(played_by_rounds(scenario, "eras")) == scoring_lines(own)


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_a_known_exception_still_differs(name: str) -> None:
    """A scenario listed in `KNOWN` still differs (else it belongs with the others)."""
    path = next(p for p in SCENARIOS if p.stem == name)
    scenario = json.loads(path.read_text(encoding="utf-8"))
    own = [json.loads(line) for line in io.StringIO(scenario["output"])]
    assert scoring_lines(played_by_rounds(scenario, "eras")) != scoring_lines(own)


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
