"""The box on either engine (the one engine, the default, or ERABOX_ONE_ENGINE=0): what the
era engine's box gives a table, a listener or a benchmark, the round engine's gives too, for
Time of Empires' round file played on it (docs/architecture.md, "Where the game engine is
going")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from erabox.adapters.state_file import StateFile
from erabox.core.config import Config, parse_config
from erabox.core.engine import ProfileEngine, phase_of, state_of
from erabox.core.events import EventRecorder
from erabox.core.model import Button, Gesture, Input, Phase
from erabox.core.profile_play import new_play
from erabox.core.profile_record import snapshot
from erabox.core.script import ScriptLine
from erabox.files.games import ONE_ENGINE, load_game, own_rounds
from erabox.run.app import Box
from erabox.run.simulate import simulate
from saved_game import game_position

NO_LEAD_IN = """
[realtime]
length_s = 60
scholar_cues_s = [30]
lead_in_s = 0
final_ticks_s = 0
"""


def simulated(config: Config, script: list[ScriptLine], until: float) -> list[dict[str, Any]]:
    """What `erabox simulate` prints for `script`, on the engine the environment names."""
    out: list[dict[str, Any]] = []
    simulate(config, script, until, out.append)
    return out


@pytest.mark.parametrize("switched", [False, True], ids=["era-engine", "one-engine"])
def test_a_box_given_time_of_empires_lines_writes_them(switched: bool, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A box given Time of Empires' recorder (`events`) writes its lines on either engine: the
    round engine's, in Time of Empires' words, to the same stream."""
    if switched:
        monkeypatch.setenv(ONE_ENGINE, "1")
    else:
        monkeypatch.setenv(ONE_ENGINE, "0")
    lines: list[dict[str, Any]] = []
    box = Box(parse_config(NO_LEAD_IN, "test.toml"), state_file=StateFile(tmp_path / "s.json"),
              events=EventRecorder(lines.append), clock=lambda: 10.0)
    box.start_game()
    assert box.driver.profile is None if not switched else box.driver.profile is not None
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


def test_an_introductory_era_plays_the_config_s_intro_numbers_on_either_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The config's `[intro]` rounds and scholar calls: the round file takes them (its
    introductory variant's `config = "intro"`), printing the era engine's lines."""
    config = parse_config('players = ["red", "blue", "green"]\ndefault_mode = "intro"\n'
                          "[intro]\nrounds = 7\nscholar_after_rounds = [2, 4]\n", "test.toml")
    script = [ScriptLine(0.5, Input(Button.ERA, Gesture.PRESS), 1)] + [
        ScriptLine(1.0 + n, Input(Button.NEXT, Gesture.PRESS), n + 2) for n in range(20)]

    def lines() -> list[dict[str, Any]]:
        return simulated(config, script, 30.0)

    monkeypatch.setenv(ONE_ENGINE, "0")
    era = lines()
    states = [(e["state"], e["round"]) for e in era if e["type"] == "state"]
    assert ("scholars", 2) in states and ("scholars", 4) in states
    assert ("intro_round", 7) in states and ("intro_round", 8) not in states
    monkeypatch.setenv(ONE_ENGINE, "1")
    assert lines() == era


def test_a_box_updated_mid_game_resumes_the_era_engine_s_saved_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The era engine's saved game, read by the box switched to one engine: the same era,
    mode and round come back (the shipped round file reads Time of Empires' record)."""
    config = parse_config('default_mode = "intro"\n', "test.toml")
    state = tmp_path / "state.json"
    monkeypatch.setenv(ONE_ENGINE, "0")
    era = Box(config, state_file=StateFile(state), clock=lambda: 10.0)
    era.start_game()
    for n, button in enumerate([Button.ERA, Button.NEXT, Button.NEXT]):
        era.driver.step(Input(button, Gesture.PRESS), 11.0 + n)
    era.driver.shutdown(20.0)
    assert game_position(era.game_now(), 20.0) == ("intro_round", "intro", 3)
    monkeypatch.setenv(ONE_ENGINE, "1")
    box = Box(config, state_file=StateFile(state), clock=lambda: 30.0)
    box.start_game()
    assert box.driver.profile is not None
    assert game_position(box.game_now(), 30.0) == ("intro_round", "intro", 3)
    assert not list(tmp_path.glob("state.json.bad-*"))


def test_time_of_empires_on_either_engine_refuses_another_game_s_record_in_its_words() -> None:
    """A saved game of another kind is moved aside with the same line on either engine."""
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


def test_era_hold_in_the_lead_in_goes_back_to_the_setup_at_once_on_either_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
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

    def lines() -> list[dict[str, Any]]:
        return simulated(config, script, 12.0)

    monkeypatch.setenv(ONE_ENGINE, "0")
    reference = lines()
    monkeypatch.setenv(ONE_ENGINE, "1")
    played = lines()
    assert played == reference
    states = [(e["t"], e["state"]) for e in played if e["type"] == "state"]
    assert states == [(0.0, "setup"), (1.0, "lead_in"), (2.5, "setup"), (4.0, "lead_in"),
                      (5.2, "setup"), (6.0, "lead_in"), (9.0, "running")]
    ticks = [e["t"] for e in played if e.get("sound") == "tick"]
    assert ticks == [1.0, 2.0, 4.0, 5.0, 6.0, 7.0, 8.0]


@pytest.mark.parametrize("switched", [False, True], ids=["era-engine", "one-engine"])
def test_the_press_that_starts_the_lead_in_gives_its_first_tick_itself(
        switched: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lead-in's first tick sounds with the ERA press (after its record), in the press's
    own step and at its time, not from a deadline the loop wakes for once the press's
    durable save is done (on a slow card that came 100-200 ms late, and its `lead_in` line
    with it: the system test's eras all measured early)."""
    monkeypatch.setenv(ONE_ENGINE, "1" if switched else "0")
    lines: list[dict[str, Any]] = []
    config = parse_config(NO_LEAD_IN.replace("lead_in_s = 0", "lead_in_s = 3"), "test.toml")
    box = Box(config, state_file=StateFile(tmp_path / "s.json"),
              events=EventRecorder(lines.append), clock=lambda: 10.0)
    box.start_game()
    box.driver.step(Input(Button.ERA, Gesture.PRESS), 11.0)
    after = [(e["t"], e["type"], e.get("sound") or e.get("state")) for e in lines
             if e["t"] >= 1.0]
    assert after == [(1.0, "sound", "tick"), (1.0, "state", "lead_in")]
    assert box.driver.next_deadline(11.0) == pytest.approx(12.0)  # the second tick
