"""Time of Empires' golden scripts played by the round file in Time of Empires' words
(`[game] lines = "eras"`): the `state` lines (core/era_lines_state.py), byte for byte.

Each of the 84 golden scenarios is played by the round engine and its `state` lines compared
with the era engine's recorded ones: the state's word (`setup`, `lead_in`, `running`,
`paused`, `intro_round`, `scholars`, `scoring`, `game_over`, `confirm`, `settings`) read off
the round play, the era, the mode, the introductory round, the start player and the era's
running time. tests/test_era_lines.py compares every golden script whole, these lines with
the others; here, what the goldens hold of them.
"""

from __future__ import annotations

import io
import json
from typing import Any

from test_golden import SCENARIOS


def states(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in lines if line["type"] == "state"]


def test_the_goldens_have_state_lines_of_every_word() -> None:
    """What tests/test_era_lines.py compares holds every state word the round play reads."""
    words = {json.loads(line)["state"] for path in SCENARIOS for line in io.StringIO(
        json.loads(path.read_text(encoding="utf-8"))["output"]) if '"type": "state"' in line}
    assert words == {"setup", "lead_in", "running", "paused", "intro_round", "scholars",
                     "scoring", "game_over", "confirm", "settings"}


def test_every_golden_scenario_is_compared() -> None:
    assert len(SCENARIOS) == 84
