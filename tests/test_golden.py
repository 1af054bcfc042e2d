"""Golden transcripts: what `erabox simulate` printed for every scenario the test suite played,
recorded before the one engine (tests/golden/record.py), played again and compared byte for
byte (Time of Empires' scenarios in tests/test_golden_toe.py, each played once there for
every check made on it); and the state files written before it (tests/golden/states/),
resumed.

A scenario holds the config (every field of the Config value), the script lines exactly as
parsed, `--until` and the output. Its config is rebuilt field by field; a scenario whose config
a TOML file can say also runs through the command line itself (`erabox simulate --config
FILE --script FILE`).
"""

from __future__ import annotations

import dataclasses
import enum
import io
import json
import sys
import types
import typing
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from erabox.cli import main
from erabox.core.config import Config
from erabox.core.model import Button, Gesture, Input
from erabox.core.profile import Profile
from erabox.core.script import End, Restart, ScriptLine, parse_script
from erabox.run.simulate import Simulation, simulate

GOLDEN = Path(__file__).resolve().parent / "golden"
SCENARIOS = sorted((GOLDEN / "scenarios").glob("toe-*.json"))
STATES = sorted((GOLDEN / "states").glob("toe-*.state.json"))
PROFILE_SCENARIOS = sorted((GOLDEN / "scenarios").glob("profile-*.json"))
PROFILE_STATES = sorted((GOLDEN / "states").glob("profile-*.state.json"))


def build(kind: Any, data: Any) -> Any:
    """A value of type `kind` from its plain (JSON) form: dataclasses field by field."""
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        hints = typing.get_type_hints(kind)
        return kind(**{f.name: build(hints[f.name], data[f.name])
                       for f in dataclasses.fields(kind) if f.init and f.name in data})
    origin = typing.get_origin(kind)
    if origin is tuple:
        args = typing.get_args(kind)
        inner = args[0] if len(args) == 2 and args[1] is Ellipsis else None
        if inner is None:
            return tuple(build(a, v) for a, v in zip(args, data, strict=True))
        return tuple(build(inner, v) for v in data)
    if origin in (typing.Union, types.UnionType):
        if data is None:
            return None
        options = [a for a in typing.get_args(kind) if a is not type(None)]
        return build(options[0], data)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind(data)
    if kind is float and isinstance(data, int):
        return float(data)
    return data


def lines_of(rows: list[list[Any]]) -> list[ScriptLine]:
    lines = []
    for at, what, gesture, number in rows:
        action: Input | Restart | End
        if what == "restart":
            action = Restart()
        elif what == "end":
            action = End()
        else:
            action = Input(Button(what), Gesture(gesture))
        lines.append(ScriptLine(at, action, number))
    return lines


def test_the_scenarios_were_recorded() -> None:
    assert len(SCENARIOS) >= 80, "tests/golden/scenarios/ should hold the suite's scenarios"
    assert len(PROFILE_SCENARIOS) >= 40
    # and a config file can say enough of them for the command line's own run (a default
    # changed since they were recorded must not silently leave that test with no case)
    assert len(_cli_cases()) >= 25
    assert len(STATES) >= 6


# Each Time of Empires scenario played in-process and compared byte for byte:
# tests/test_golden_toe.py (`test_a_recorded_scenario_prints_the_same_lines`), where the same
# play also gives the era engine's screens to tests/test_era_screen.py's check.


# --- the same through the command line, for the scenarios a config file can say -------------

_FILE_KEYS = {
    "language": "language", "default_mode": "default_mode", "keep_score": "keep_score",
    "points_entry": "points_entry",
}
_TABLES = ("realtime", "intro", "display", "buttons", "audio")


def config_text(config: dict[str, Any]) -> str | None:
    """The TOML a config file would hold for this config, or None where no file can say it
    (a value the box sets itself, such as the settings menu's choices)."""
    default = json.loads(json.dumps(_plain_default()))
    top: list[str] = []
    for key in config:
        if key in ("source", "state_file"):
            continue
        if config[key] == default[key]:
            continue
        if key in _FILE_KEYS:
            top.append(f"{key} = {json.dumps(config[key])}")
        elif key == "players":
            top.append(f"players = {json.dumps(config[key])}")
        elif key in _TABLES:
            if key == "audio" and config[key].get("eras") != default[key].get("eras"):
                return None  # per-era music files: [eraN] tables, not written here
            rows = [f"{k} = {json.dumps(v)}" for k, v in config[key].items()
                    if k in default[key] and v != default[key][k] and k != "width"]
            top.append(f"[{key}]\n" + "\n".join(rows))
        else:
            return None
    # tables after plain keys
    plain_rows = [r for r in top if not r.startswith("[")]
    tables = [r for r in top if r.startswith("[")]
    return "\n".join(plain_rows + tables) + "\n"


def _plain_default() -> dict[str, Any]:
    sys.path.insert(0, str(GOLDEN))
    from record import plain

    value = plain(Config())
    assert isinstance(value, dict)
    return value


def _cli_cases() -> list[Path]:
    cases = []
    for path in SCENARIOS:
        scenario = json.loads(path.read_text(encoding="utf-8"))
        text = config_text(scenario["config"])
        lines = lines_of(scenario["lines"])
        if text is None or parse_script(scenario["text"], "x") != lines:
            continue
        cases.append(path)
    return cases


@pytest.mark.parametrize("game", [None, "time-of-empires"], ids=["own", "game"])
@pytest.mark.parametrize("path", _cli_cases(), ids=lambda p: p.stem)
def test_the_command_line_prints_the_same_lines(path: Path, tmp_path: Path, game: str | None,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """`erabox simulate` and `erabox simulate --game time-of-empires` (the game played from
    its profile, games/time-of-empires.toml) both print the recorded lines."""
    scenario = json.loads(path.read_text(encoding="utf-8"))
    text = config_text(scenario["config"])
    assert text is not None
    (tmp_path / "erabox.toml").write_text(text, encoding="utf-8")
    (tmp_path / "script.txt").write_text(scenario["text"], encoding="utf-8")
    args = ["simulate", "--config", str(tmp_path / "erabox.toml"),
            "--script", str(tmp_path / "script.txt")]
    if scenario["until"] is not None:
        args += ["--until", repr(scenario["until"])]
    if game is not None:
        args += ["--game", game]
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(args)
    assert code == 0
    assert out.getvalue() == scenario["output"]


def test_the_shipped_profile_holds_the_numbers_every_scenario_played() -> None:
    """The scenarios built in-process ran with the default numbers; those are exactly what
    games/time-of-empires.toml says, so the profile's path plays them the same."""
    from erabox.core.own_game import own_numbers_of
    from erabox.files.games import available_games, read_profile

    own = own_numbers_of(read_profile(available_games([])["time-of-empires"].where))
    defaults = Config()
    assert (own.realtime, own.intro, own.prep, own.checklist, own.eras) == (
        defaults.realtime, defaults.intro, defaults.prep, defaults.checklist, defaults.eras)


# --- state files written before the one engine ----------------------------------------------


def resumed(path: Path, profile: Profile | None = None) -> tuple[str, str]:
    """The events of a box resuming the state file `path` and played on with its script
    (Time of Empires, or `profile`), and those committed with it."""
    name = path.name.split(".")[0]
    config = build(Config, json.loads(
        (GOLDEN / "states" / f"{name}.config.json").read_text(encoding="utf-8"))["config"])
    after = (GOLDEN / "states" / f"{name}.after.txt").read_text(encoding="utf-8")
    out = io.StringIO()
    sim = Simulation(config, lambda e: out.write(json.dumps(e, ensure_ascii=False) + "\n"),
                     profile=profile)
    sim.state.text = path.read_text(encoding="utf-8")
    sim.restart()
    sim.run(parse_script(after, "after"), None)
    return out.getvalue(), (GOLDEN / "states" / f"{name}.after.jsonl").read_text(
        encoding="utf-8")


@pytest.mark.parametrize("path", STATES, ids=lambda p: p.name.split(".")[0])
def test_a_state_file_of_the_earlier_version_resumes(path: Path) -> None:
    got, expected = resumed(path)
    assert got == expected


@pytest.mark.parametrize("path", STATES, ids=lambda p: p.name.split(".")[0])
def test_a_state_file_of_the_era_engine_resumes_the_same_on_the_round_file(path: Path) -> None:
    """The box updated mid-game to Time of Empires on the round engine (its shipped round
    file, as the box plays it) comes back where the era engine would, with the
    same events to the last line (the number being entered at the cut too)."""
    from erabox.files.games import own_rounds

    got, expected = resumed(path, own_rounds())
    assert got == expected


# --- game profiles' plays, as the profile engine played them ----------------------------------


@pytest.mark.parametrize("path", PROFILE_SCENARIOS, ids=lambda p: p.stem)
def test_a_recorded_profile_play_prints_the_same_lines(path: Path, tmp_path: Path) -> None:
    from erabox.files.games import read_profile


    scenario = json.loads(path.read_text(encoding="utf-8"))
    source = Path(scenario["source"])
    copy = tmp_path / source.name
    copy.write_text(scenario["profile_text"], encoding="utf-8")
    profile = read_profile(copy)
    out = io.StringIO()
    simulate(Config(players=tuple(scenario["players"])), lines_of(scenario["lines"]),
             scenario["until"], lambda e: out.write(json.dumps(e, ensure_ascii=False) + "\n"),
             profile=profile, seed=scenario["seed"])
    expected = scenario["output"].replace(str(source.parent), str(tmp_path))
    assert out.getvalue() == expected


@pytest.mark.parametrize("path", PROFILE_STATES, ids=lambda p: p.name.split(".")[0])
def test_a_profile_state_file_of_the_earlier_version_resumes(path: Path) -> None:
    from erabox.files.games import load_game

    name = path.name.split(".")[0]
    setup = json.loads((GOLDEN / "states" / f"{name}.config.json").read_text(encoding="utf-8"))
    after = (GOLDEN / "states" / f"{name}.after.txt").read_text(encoding="utf-8")
    out = io.StringIO()
    sim = Simulation(Config(players=tuple(setup["players"])),
                     lambda e: out.write(json.dumps(e, ensure_ascii=False) + "\n"),
                     profile=load_game(setup["game"], []), seed=setup["seed"])
    sim.state.text = path.read_text(encoding="utf-8")
    sim.restart()
    sim.run(parse_script(after, "after"), None)
    expected = (GOLDEN / "states" / f"{name}.after.jsonl").read_text(encoding="utf-8")
    assert out.getvalue() == expected
