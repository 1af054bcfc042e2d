"""Time of Empires' 84 golden scenarios (tests/golden/scenarios/toe-*.json), each played once
by each way the round engine plays Time of Empires, and every check made on those plays.

The era engine's output was recorded before its removal: its event lines are each scenario's
`output` (tests/golden/record.py), its screens tests/golden/era_engine/screens.jsonl (each new
screen model with its time, tests/golden/era_engine/record.py). Each scenario is played three
times: by the box's own Time of Empires (no profile given: the shipped round file,
games/time-of-empires.toml), by the test round file of Time of Empires in Time of Empires'
words (`[game] lines = "eras"`: its lines and its screens), and by the round file in its own
words (`[game] lines = "rounds"`: its lines). `simulate` hands each new screen model to
`on_screen` and each event line to `on_event` in the same play; the screens are computed
whether anyone collects them or not (`Simulation._show`), so collecting them changes nothing
in the lines. A module fixture holds one scenario's plays while that scenario's checks run
(pytest orders the tests scenario by scenario), and each check is its own test with its own
message:

- the box prints the era engine's recorded lines byte for byte (tests/test_golden.py: what
  the golden transcripts promise), and shows its recorded screens at the same times;
- the round engine in Time of Empires' words prints exactly those lines
  (tests/test_era_lines.py);
- it shows the era engine's recorded screens at the same times, field for field
  (tests/test_era_screen.py, with its known exceptions, `KNOWN`, expected to differ until
  they do not);
- in its own words it calls the same cues (tests/test_one_engine_golden_cues.py) and says
  each sound's era as the era engine does (tests/test_one_engine_lines.py,
  tools/one_engine_lines.py's classes).
"""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from erabox.core.config import Config
from erabox.core.model import Screen
from erabox.core.profile import Profile
from erabox.run.simulate import simulate
from test_era_screen import KNOWN
from test_golden import SCENARIOS, build, lines_of
from test_one_engine_golden_cues import ERA_WORDS, ROUND_FILE, cues

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from one_engine_lines import Tally, compare
from one_engine_screens import Plain, plain_screen, recorded

RECORDED = recorded()  # the era engine's screens, by scenario


@dataclass(frozen=True)
class Plays:
    """One scenario and its three plays."""

    scenario: dict[str, Any]
    own: list[dict[str, Any]]  # the recorded lines (the era engine's, before the one engine)
    era_screens: list[Plain]  # the recorded screens (the era engine's)
    box_text: str  # the box's own Time of Empires' lines as `erabox simulate` prints them
    box_screens: list[Plain]
    words_lines: list[dict[str, Any]]  # the round file in Time of Empires' words
    words_screens: list[Plain]
    rounds_lines: list[dict[str, Any]]  # the round file in its own words


def _play(scenario: dict[str, Any], on_event: Any, profile: Profile | None) -> list[Plain]:
    """Play the scenario with its own config and gestures; its screens, each with its time
    (as tools/one_engine_screens.py collects them), as data (`plain_screen`)."""
    shown: list[Plain] = []
    simulate(build(Config, scenario["config"]), lines_of(scenario["lines"]), scenario["until"],
             on_event, lambda model, t: shown.append((round(t, 3), plain_screen(model))),
             profile=profile)
    return shown


@pytest.fixture(scope="module")
def plays(request: pytest.FixtureRequest) -> Plays:
    path: Path = request.param
    scenario = json.loads(path.read_text(encoding="utf-8"))
    out = io.StringIO()
    box_screens = _play(scenario, lambda e: out.write(json.dumps(e, ensure_ascii=False) + "\n"),
                        None)
    words: list[dict[str, Any]] = []
    words_screens = _play(scenario, words.append, ERA_WORDS)
    rounds: list[dict[str, Any]] = []
    simulate(build(Config, scenario["config"]), lines_of(scenario["lines"]), scenario["until"],
             rounds.append, profile=ROUND_FILE)
    return Plays(scenario, [json.loads(line) for line in io.StringIO(scenario["output"])],
                 RECORDED[path.stem], out.getvalue(), box_screens, words, words_screens, rounds)


def _case(path: Path, known: dict[str, str] | None = None) -> object:
    reason = (known or {}).get(path.stem)
    marks = [] if reason is None else [pytest.mark.xfail(reason=reason, strict=True)]
    return pytest.param(path, id=path.stem, marks=marks)


EVERY = [_case(path) for path in SCENARIOS]
# the same order and ids (one shared play per scenario), the screens' known exceptions marked
SCREENS = [_case(path, KNOWN) for path in SCENARIOS]


@pytest.mark.parametrize("plays", EVERY, indirect=True)
def test_a_recorded_scenario_prints_the_same_lines(plays: Plays) -> None:
    assert plays.box_text == plays.scenario["output"]


@pytest.mark.parametrize("plays", SCREENS, indirect=True)
def test_the_box_shows_the_era_engines_screens(plays: Plays) -> None:
    assert plays.box_screens == plays.era_screens


@pytest.mark.parametrize("plays", EVERY, indirect=True)
def test_the_round_engine_prints_the_era_engines_lines(plays: Plays) -> None:
    assert plays.words_lines == plays.own


@pytest.mark.parametrize("plays", SCREENS, indirect=True)
def test_the_round_engine_shows_the_era_engines_screens(plays: Plays) -> None:
    assert all(model["type"] == Screen.__name__ for _, model in plays.words_screens)
    assert plays.words_screens == plays.era_screens


@pytest.mark.parametrize("plays", EVERY, indirect=True)
def test_the_round_engine_calls_the_same_cues(plays: Plays) -> None:
    assert cues(plays.rounds_lines) == cues(plays.own)


@pytest.mark.parametrize("plays", EVERY, indirect=True)
def test_every_sound_line_says_the_era_engines_era(plays: Plays) -> None:
    tally = Tally()
    compare("x", plays.own, plays.rounds_lines, tally)
    sound = sorted(name for name in tally.lines if name.startswith("`sound` lacks")
                   or name == "`sound` differs in `era`")
    assert sound == []


def test_every_golden_scenario_is_played() -> None:
    """The 84 golden scenarios of Time of Empires, all played above, each with its recorded
    screens."""
    assert len(SCENARIOS) == 84
    assert set(RECORDED) == {path.stem for path in SCENARIOS}
    assert all(RECORDED.values())
