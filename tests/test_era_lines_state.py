"""Time of Empires' golden scripts played by the round file in Time of Empires' words
(`[game] lines = "eras"`): the `state` lines (core/era_lines_state.py), byte for byte.

Each of the 84 golden scenarios is played by the round engine and its `state` lines compared
with the era engine's recorded ones: the state's word (`setup`, `lead_in`, `running`,
`paused`, `intro_round`, `scholars`, `scoring`, `game_over`, `confirm`, `settings`) read off
the round play, the era, the mode, the introductory round, the start player and the era's
running time. The other lines are other tests' (tests/test_era_lines.py holds whole scripts).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from test_golden import SCENARIOS
from test_one_engine_golden_cues import played_by_rounds


def states(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in lines if line["type"] == "state"]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_the_state_lines_are_the_era_engines(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    own = [json.loads(line) for line in io.StringIO(scenario["output"])]
    assert states(played_by_rounds(scenario, "eras")) == states(own)


def test_every_golden_scenario_is_compared() -> None:
    assert len(SCENARIOS) == 84
