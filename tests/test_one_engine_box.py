"""The box on one engine: Time of Empires played from its shipped round file
(games/time-of-empires.toml) on the round engine, with no profile given, gives a table, a
listener or a benchmark what the era engine's box gave (docs/architecture.md, "Where the game
engine is going"); the era engine's lines that these tests compared with live until its
removal are recorded (tests/golden/era_engine/values.json, made by
tests/golden/era_engine/record.py on the era engine as at e906392)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from erabox.adapters.state_file import StateFile
from erabox.core.config import Config, parse_config
from erabox.core.engine import ProfileEngine, phase_of, state_of
from erabox.core.events import PlayRecorder
from erabox.core.model import Button, Gesture, Input, Phase
from erabox.core.play import new_play
from erabox.core.play_record import snapshot
from erabox.core.script import ScriptLine
from erabox.files.games import load_game, own_rounds
from erabox.run.app import Box
from erabox.run.simulate import simulate
from saved_game import game_position

# what the era engine's box did in the tests below, recorded before its removal
ERA_ENGINE: dict[str, Any] = json.loads((Path(__file__).parent / "golden" / "era_engine" /
                                         "values.json").read_text(encoding="utf-8"))[
    "test_one_engine_box"]

NO_LEAD_IN = """
[realtime]
length_s = 60
scholar_cues_s = [30]
lead_in_s = 0
final_ticks_s = 0
"""


def simulated(config: Config, script: list[ScriptLine], until: float) -> list[dict[str, Any]]:
    """What `erabox simulate` prints for `script` (no profile: Time of Empires)."""
    out: list[dict[str, Any]] = []
    simulate(config, script, until, out.append)
    return out


TESTS_FILE = Path(__file__).parent / "profiles" / "time-of-empires-rounds.toml"


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


def test_the_box_plays_time_of_empires_from_its_shipped_round_file() -> None:
    """No profile given: `simulate` (and so the box, the bench, the hall) plays the shipped
    round file (every golden scenario's lines compared in tests/test_golden_toe.py)."""
    sim = simulate(Config(), [], 1.0, lambda e: None)
    assert sim.driver.profile is not None and sim.driver.profile.id == "time-of-empires"


def test_a_box_given_time_of_empires_lines_writes_them(tmp_path: Path) -> None:
    """A box given a recorder (`play_events`) writes Time of Empires' lines: the round
    engine's, in Time of Empires' words, as the era engine's box wrote them."""
    lines: list[dict[str, Any]] = []
    box = Box(parse_config(NO_LEAD_IN, "test.toml"), state_file=StateFile(tmp_path / "s.json"),
              play_events=PlayRecorder(lines.append), clock=lambda: 10.0)
    box.start_game()
    assert box.driver.profile is not None
    assert [json.dumps(e) for e in lines][:1] == [json.dumps(
        {"t": 0.0, "type": "state", "state": "setup", "era": 1, "mode": "realtime",
         "round": None, "start_player": None, "elapsed": None})]
    game = box.game_now()
    assert phase_of(game, 10.0) is Phase.SETUP and state_of(game, 10.0) is Phase.SETUP
    box.driver.step(Input(Button.ERA, Gesture.PRESS), 11.0)
    game = box.game_now()
    assert phase_of(game, 11.0) is Phase.RUNNING
    box.driver.step(Input(Button.BOTH, Gesture.HOLD), 12.0)
    game = box.game_now()
    assert (phase_of(game, 12.0), state_of(game, 12.0)) == (Phase.RUNNING, Phase.CONFIRM)


def test_an_introductory_era_plays_the_config_s_intro_numbers() -> None:
    """The config's `[intro]` rounds and scholar calls: the round file takes them (its
    introductory variant's `config = "intro"`), printing the era engine's lines."""
    config = parse_config('players = ["red", "blue", "green"]\ndefault_mode = "intro"\n'
                          "[intro]\nrounds = 7\nscholar_after_rounds = [2, 4]\n", "test.toml")
    script = [ScriptLine(0.5, Input(Button.ERA, Gesture.PRESS), 1)] + [
        ScriptLine(1.0 + n, Input(Button.NEXT, Gesture.PRESS), n + 2) for n in range(20)]

    played = simulated(config, script, 30.0)
    states = [(e["state"], e["round"]) for e in played if e["type"] == "state"]
    assert ("scholars", 2) in states and ("scholars", 4) in states
    assert ("intro_round", 7) in states and ("intro_round", 8) not in states
    assert played == ERA_ENGINE["intro"]


def test_a_box_updated_mid_game_resumes_the_era_engine_s_saved_game(tmp_path: Path) -> None:
    """The era engine's saved game (its box's state file after ERA, NEXT, NEXT in an
    introductory era and a shutdown: round 3, recorded), read by the box on one engine: the
    same era, mode and round come back (the shipped round file reads Time of Empires'
    record)."""
    config = parse_config('default_mode = "intro"\n', "test.toml")
    state = tmp_path / "state.json"
    state.write_text(ERA_ENGINE["mid_game_state"], encoding="utf-8")
    assert '"phase":"intro_round","round":3' in state.read_text(encoding="utf-8")
    box = Box(config, state_file=StateFile(state), clock=lambda: 30.0)
    box.start_game()
    assert box.driver.profile is not None
    assert game_position(box.game_now(), 30.0) == ("intro_round", "intro", 3)
    assert not list(tmp_path.glob("state.json.bad-*"))


def test_time_of_empires_refuses_another_game_s_record_in_its_words() -> None:
    """A saved game of another kind is moved aside with a line that names both games."""
    config = parse_config('players = ["red", "blue", "green"]\n', "test.toml")
    own = ProfileEngine(own_rounds(), config)
    other = ProfileEngine(load_game("lords-of-xidit", []), config)
    own_record = json.dumps(snapshot(new_play(own.profile, config.players), 0.0))
    other_record = json.dumps(snapshot(new_play(other.profile, config.players), 0.0))
    with pytest.raises(ValueError, match=re.escape(
            "it holds a play of the game profile 'lords-of-xidit', not a Time of Empires game")):
        own.parse(other_record)
    with pytest.raises(ValueError, match=re.escape(
            "it holds a Time of Empires game, not a play of lords-of-xidit")):
        other.parse(own_record)
    assert own.parse(own_record)["game"] == "time-of-empires"


def test_era_hold_in_the_lead_in_goes_back_to_the_setup_at_once() -> None:
    """ERA hold while the lead-in ticks cancels it: straight back to the era's setup, no
    "Restart the era?" (nothing of the era is played yet), its ticks stopped; ERA starts the
    lead-in again (the system test's GPIO part does this twice before its third start)."""
    config = parse_config('players = ["red", "blue"]\n[realtime]\nlength_s = 60\n'
                          "scholar_cues_s = [20, 40]\nlead_in_s = 3\nfinal_ticks_s = 0\n",
                          "test.toml")
    era = (Button.ERA, Gesture.PRESS)
    hold = (Button.ERA, Gesture.HOLD)
    script = [ScriptLine(at, Input(*gesture), n + 1) for n, (at, gesture) in enumerate(
        [(1.0, era), (2.5, hold), (4.0, era), (5.2, hold), (6.0, era)])]

    played = simulated(config, script, 12.0)
    assert played == ERA_ENGINE["lead_in_hold"]  # the era engine's lines
    states = [(e["t"], e["state"]) for e in played if e["type"] == "state"]
    assert states == [(0.0, "setup"), (1.0, "lead_in"), (2.5, "setup"), (4.0, "lead_in"),
                      (5.2, "setup"), (6.0, "lead_in"), (9.0, "running")]
    ticks = [e["t"] for e in played if e.get("sound") == "tick"]
    assert ticks == [1.0, 2.0, 4.0, 5.0, 6.0, 7.0, 8.0]


def test_the_press_that_starts_the_lead_in_gives_its_first_tick_itself(tmp_path: Path) -> None:
    """The lead-in's first tick sounds with the ERA press (after its record), in the press's
    own step and at its time, not from a deadline the loop wakes for once the press's
    durable save is done (on a slow card that came 100-200 ms late, and its `lead_in` line
    with it: the system test's eras all measured early)."""
    lines: list[dict[str, Any]] = []
    config = parse_config(NO_LEAD_IN.replace("lead_in_s = 0", "lead_in_s = 3"), "test.toml")
    box = Box(config, state_file=StateFile(tmp_path / "s.json"),
              play_events=PlayRecorder(lines.append), clock=lambda: 10.0)
    box.start_game()
    box.driver.step(Input(Button.ERA, Gesture.PRESS), 11.0)
    after = [(e["t"], e["type"], e.get("sound") or e.get("state")) for e in lines
             if e["t"] >= 1.0]
    assert after == [(1.0, "sound", "tick"), (1.0, "state", "lead_in")]
    assert after == [(e["t"], e["type"], e.get("sound") or e.get("state"))
                     for e in ERA_ENGINE["first_tick"] if e["t"] >= 1.0]  # the era engine's
    assert box.driver.next_deadline(11.0) == pytest.approx(12.0)  # the second tick
