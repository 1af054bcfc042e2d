"""Time of Empires' golden scripts played by the round file writing its event lines in Time
of Empires' words (`[game] lines = "eras"`, core/era_lines.py): byte for byte.

Every one of the 84 golden scenarios prints, through the round engine, exactly the era
engine's recorded lines (the scenario's `output`): its states, guide steps, sounds, prompts,
numbers, standings and ranking (`python tools/one_engine_lines.py --words eras` classes any
difference). The key itself is checked like every key: a wrong value names the file,
line and key.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from erabox.core.profile import ProfileError, parse_profile
from test_golden import SCENARIOS
from test_one_engine_golden_cues import played_by_rounds


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_the_round_engine_prints_the_era_engines_lines(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    own = [json.loads(line) for line in io.StringIO(scenario["output"])]
    assert played_by_rounds(scenario, "eras") == own


def test_every_golden_scenario_is_played() -> None:
    assert len(SCENARIOS) == 84


MINIMAL = """
[game]
name = "G"
lines = "{lines}"
[players]
min = 2
max = 4
[rounds]
name = "Round"
count = 2
[[phase]]
id = "act"
label = "Act"
steps = ["Act"]
"""


def test_lines_takes_rounds_or_eras() -> None:
    assert parse_profile(MINIMAL.format(lines="eras"), "g.toml").lines == "eras"
    assert parse_profile(MINIMAL.format(lines="rounds"), "g.toml").lines == "rounds"
    with pytest.raises(ProfileError, match=r"g\.toml:4: key 'game\.lines': expected one of"):
        parse_profile(MINIMAL.format(lines="words"), "g.toml")
