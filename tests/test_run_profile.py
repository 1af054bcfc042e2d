"""A game profile played by the real box: `erabox run --game` as a real process (mock pins,
no display, no sound, the real state file), checked against `erabox simulate --game`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from test_run import daemon_env, read_events

PLAYERS = 'players = ["red", "blue", "green", "yellow"]\n'
GESTURE_S = 0.3  # between two presses: far longer than a press (0.1 s), as a hand would
HOLD_S = 1.2  # after a hold (0.8 s by default)
SETTLE_S = 1.0  # before a restart or the end: the gesture before it has surely arrived


def xidit_script() -> str:
    """Start, through year 1 into year 2, the Titans (ERA hold) and one of their steps, an
    undo (NEXT hold), a power cut, then on."""
    lines: list[str] = []
    t = 0.3

    def add(gesture: str, gap: float = GESTURE_S) -> None:
        nonlocal t
        lines.append(f"{t:.2f} {gesture}")
        t += gap

    add("era press")
    for _ in range(8):
        add("next press")
    add("era hold", HOLD_S)
    add("next press")
    add("next hold", HOLD_S + SETTLE_S)
    add("restart")
    for _ in range(5):
        add("next press")
    add("next press", GESTURE_S + SETTLE_S)
    add("end")
    return "\n".join(lines) + "\n"


def run_box(tmp_path: Path, config: str, script: str, game: str | None,
            name: str) -> tuple[int, list[dict[str, Any]], str]:
    (tmp_path / "erabox.toml").write_text(config)
    (tmp_path / f"{name}.script").write_text(script)
    events = tmp_path / f"{name}.jsonl"
    args = [sys.executable, "-m", "erabox", "run", "--config", str(tmp_path / "erabox.toml"),
            "--display", "none", "--audio", "none", "--events", str(events),
            "--script", str(tmp_path / f"{name}.script")]
    if game is not None:
        args += ["--game", game]
    done = subprocess.run(args, env=daemon_env(tmp_path), capture_output=True, timeout=60)
    return done.returncode, read_events(events), done.stderr.decode()


def simulate(tmp_path: Path, script: str, game: str) -> list[dict[str, Any]]:
    (tmp_path / "sim.script").write_text(script)
    done = subprocess.run(
        [sys.executable, "-m", "erabox", "simulate", "--config", str(tmp_path / "erabox.toml"),
         "--script", str(tmp_path / "sim.script"), "--game", game],
        env=daemon_env(tmp_path), capture_output=True, timeout=60, check=True)
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


def untimed(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "t"} for e in events]


def test_run_plays_a_profile_like_simulate_across_a_power_cut(tmp_path: Path) -> None:
    script = xidit_script()
    code, events, log = run_box(tmp_path, PLAYERS, script, "lords-of-xidit", "run")
    assert code == 0, log
    assert untimed(events) == untimed(simulate(tmp_path, script, "lords-of-xidit"))
    # what the lines say: the Titans began and were undone, the cut came back in year 2
    kinds = [(e["type"], e.get("prompt")) for e in events]
    assert ("prompt", "titans") in kinds and ("prompt", "resumed") in kinds
    rounds = [e["start_player"] for e in events if e["type"] == "round"]
    assert rounds[:2] == ["red", "blue"]  # the start player passes left
    assert "resumed the saved play of lords-of-xidit" in log
    saved = json.loads((tmp_path / "state.json").read_text())
    assert (saved["kind"], saved["game"]) == ("profile", "lords-of-xidit")


def test_a_saved_game_of_the_other_kind_is_moved_aside_not_resumed(tmp_path: Path) -> None:
    """Time of Empires' record under a profile, a profile's under Time of Empires, another
    game's under a profile: each moved aside with one clear line, a fresh game begun."""
    script = "0.3 era press\n0.8 end\n"
    code, _, log = run_box(tmp_path, PLAYERS, script, None, "toe")  # saves a ToE game
    assert code == 0, log
    code, events, log = run_box(tmp_path, PLAYERS, script, "hadrians-wall", "hw")
    assert code == 0, log
    assert "it holds a Time of Empires game, not a play of hadrians-wall" in log
    assert "Traceback" not in log
    assert events[0] == {"t": events[0]["t"], "type": "state", "state": "setup"}
    assert json.loads((tmp_path / "state.json").read_text())["game"] == "hadrians-wall"

    code, events, log = run_box(tmp_path, PLAYERS, script, "lords-of-xidit", "lx")
    assert code == 0, log
    assert "it holds a play of 'hadrians-wall', not of 'lords-of-xidit'" in log
    assert next(e["state"] for e in events if e["type"] == "state") == "setup"

    code, events, log = run_box(tmp_path, PLAYERS, script, None, "toe2")
    assert code == 0, log
    assert "it holds a play of the game profile 'lords-of-xidit', not a Time of Empires" in log
    assert "Traceback" not in log
    assert len(list(tmp_path.glob("state.json.bad-*"))) == 3


def test_the_config_game_is_played_and_a_bad_player_count_exits_2(tmp_path: Path) -> None:
    config = PLAYERS + 'game = "hadrians-wall"\n'
    code, events, log = run_box(tmp_path, config, "0.3 era press\n0.8 end\n", None, "cfg")
    assert code == 0, log
    assert {"type": "setup", "game": "hadrians-wall"}.items() <= events[1].items()
    two = 'players = ["red", "blue"]\n'
    code, _, log = run_box(tmp_path, two, "0.3 end\n", "lords-of-xidit", "two")
    assert code == 2
    assert "Lords of Xidit is for 3 to 5 players, not 2" in log and "Traceback" not in log
