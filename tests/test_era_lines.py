"""Time of Empires' golden scripts played by the round file writing its event lines in Time
of Empires' words (`[game] lines = "eras"`, core/era_lines.py): byte for byte.

Every one of the 84 golden scenarios prints, through the round engine, exactly the era
engine's recorded lines (the scenario's `output`): its states, guide steps, sounds, prompts,
numbers, standings and ranking (`python tools/one_engine_lines.py --words eras` classes any
difference). The key itself is checked like every key: a wrong value names the file,
line and key.
"""

from __future__ import annotations

import pytest

from erabox.core.profile import ProfileError, parse_profile
from test_golden import SCENARIOS

# Each scenario compared: tests/test_golden_toe.py
# (`test_the_round_engine_prints_the_era_engines_lines`), on the one play of the round file
# in Time of Empires' words that it makes per scenario for its lines and its screens.


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
