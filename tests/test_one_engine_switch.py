"""The switch to one engine (docs/architecture.md, "Where the game engine is going"): the box
plays Time of Empires from games/time-of-empires.toml on the round engine (the
default; ERABOX_ONE_ENGINE=0 plays the era engine until it goes). The golden scenarios print
the same lines on it (here); `make test-era-engine` runs the whole suite on the era engine."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from erabox.core.config import Config
from erabox.files.games import ONE_ENGINE, one_engine, own_rounds
from erabox.run.simulate import simulate
from test_golden import SCENARIOS, build, lines_of

TESTS_FILE = Path(__file__).parent / "profiles" / "time-of-empires-rounds.toml"


def test_the_toggle_reads_only_one() -> None:
    assert one_engine({ONE_ENGINE: "1"})
    assert one_engine({})  # the default: the one engine
    assert not one_engine({ONE_ENGINE: "0"})


def test_the_shipped_round_file_is_the_tests_round_file() -> None:
    """One file, two places: the tests' copy differs only in its id, name and words."""
    shipped = own_rounds()
    assert (shipped.id, shipped.lines, shipped.name.en) == (
        "time-of-empires", "eras", "Time of Empires")
    body = [line for line in Path(shipped.source).read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    tests = [line for line in TESTS_FILE.read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")]
    differ = [line for line in body if line not in tests] + [
        line for line in tests if line not in body]
    assert sorted(differ) == sorted([
        'id = "time-of-empires"',
        'lines = "eras"  # the event lines in Time of Empires\' own words (docs/simulate.md)',
        'name = { en = "Time of Empires", ja = "タイム・オブ・エンパイア" }',
        'id = "time-of-empires-rounds"',
        'name = { en = "Time of Empires (rounds)", ja = '
        '"タイム・オブ・エンパイア（ラウンド形式）" }',
    ])


@pytest.mark.parametrize("path", SCENARIOS[::7], ids=lambda p: p.stem)
def test_the_switched_box_prints_the_recorded_lines(path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A sample of the golden scenarios (all 84 in tests/test_era_lines.py, through the same
    file) played by `simulate` with the switch on."""
    monkeypatch.setenv(ONE_ENGINE, "1")
    scenario = json.loads(path.read_text(encoding="utf-8"))
    out = io.StringIO()
    sim = simulate(build(Config, scenario["config"]), lines_of(scenario["lines"]),
                   scenario["until"], lambda e: out.write(json.dumps(e, ensure_ascii=False) + "\n"))
    assert sim.driver.profile is not None and sim.driver.profile.id == "time-of-empires"
    assert out.getvalue() == scenario["output"]
