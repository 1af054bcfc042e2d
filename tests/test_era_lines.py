"""Time of Empires' golden scripts played by the round file writing its event lines in Time
of Empires' words (`[game] lines = "eras"`, core/era_lines.py): byte for byte.

Every scenario named in tests/golden/era_words_same.txt must print, through the round engine,
exactly the era engine's recorded lines (the scenario's `output`); the list only grows as the
round engine learns the era engine's words (`python tools/one_engine_lines.py --words eras`
shows what is left). The key itself is checked like every key: a wrong value names the file,
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

SAME = Path(__file__).parent / "golden" / "era_words_same.txt"
LISTED = [line.strip() for line in SAME.read_text(encoding="utf-8").splitlines()
          if line.strip() and not line.startswith("#")]
BY_NAME = {path.stem: path for path in SCENARIOS}


@pytest.mark.parametrize("name", LISTED)
def test_the_round_engine_prints_the_era_engines_lines(name: str) -> None:
    scenario = json.loads(BY_NAME[name].read_text(encoding="utf-8"))
    own = [json.loads(line) for line in io.StringIO(scenario["output"])]
    assert played_by_rounds(scenario, "eras") == own


def test_the_list_names_golden_scenarios_once() -> None:
    assert len(set(LISTED)) == len(LISTED)
    assert set(LISTED) <= set(BY_NAME)


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
