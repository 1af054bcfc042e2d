"""The event lines of Time of Empires' golden scripts played by the round engine, measured
against the era engine's (tools/one_engine_lines.py; the map in docs/architecture.md, "Where
it stands"). The classes of difference closed stay closed: a game of eras says each sound's
era on its `sound` line, as the era engine does (the same era on every line paired; each
scenario checked in tests/test_golden_toe.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from one_engine_lines import Tally, compare, measure


def test_the_measure_plays_every_scenario_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tool's loop, on two scenarios (each of the 84 is checked in
    tests/test_golden_toe.py, `test_every_sound_line_says_the_era_engines_era`, on the play
    of the round file it shares with the scenario's other checks)."""
    import test_golden

    monkeypatch.setattr(test_golden, "SCENARIOS", test_golden.SCENARIOS[:2])
    tally, total, same = measure("eras")
    assert (total, same, dict(tally.lines)) == (2, 2, {})
    tally, total, _ = measure()
    assert total == 2 and tally.lines  # its own words: `round`, `phase` and `call` lines


def test_the_measure_names_a_missing_field_and_an_extra_line() -> None:
    tally = Tally()
    era = [{"t": 0.0, "type": "sound", "sound": "gong", "era": 1},
           {"t": 0.0, "type": "entry", "era": 1}]
    rounds = [{"t": 0.0, "type": "sound", "sound": "gong"},
              {"t": 0.0, "type": "round", "round": 1}]
    compare("x", era, rounds, tally)
    assert dict(tally.lines) == {"`sound` lacks era": 1, "era only `entry`": 1,
                                 "round only `round`": 1}
