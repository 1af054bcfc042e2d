"""`erabox simulate` as a program: its output format, --until, `end`, `restart`, exit codes.

The format is docs/simulate.md's public contract: one JSON object per line, in time order, each
with "t" (rounded to milliseconds) and "type", and the fields its type names.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from erabox.core.config import Config

ROOT = Path(__file__).resolve().parent.parent
RT = Config().realtime
LEAD_IN, LENGTH = RT.lead_in_s, RT.length_s
DEFAULT_TAIL_S = 700.0  # docs/simulate.md: --until defaults to 700 s after the last script line

FIELDS = {
    "state": {"state", "era", "mode", "round", "start_player", "elapsed"},
    "sound": {"sound", "era"},
    "prompt": {"prompt"},
    "input": {"button", "gesture"},
    "guide": {"era", "part", "step", "steps", "what", "n"},
    "points": {"era", "step", "player", "points", "total"},
    "standings": {"era", "places"},
    "buildings": {"era", "player", "buildings"},
    "ranking": {"era", "places", "winners"},
    "entry": {"era", "gestures", "button_s"},
}
# only once points are entered
SCORES = {"points", "standings", "buildings", "ranking", "entry"}
STATES = {"setup", "lead_in", "running", "paused", "intro_round", "scholars", "scoring",
          "game_over", "confirm"}
SOUNDS = {"gong", "cry", "tick", "music_start", "music_stop", "music_pause", "music_resume"}


def simulate(script: str, *args: str) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "erabox", "simulate", "--script", "-", *args],
        input=script, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_every_line_follows_the_format() -> None:
    script = ("0 next press\n0 next press\n1 era press\n100 next hold\n110 next press\n"
              "120 vol_up press\n130 era hold\n131 next press\n140 both hold\n141 next press\n"
              "300 restart\n310 next press\n")
    events = simulate(script, "--until", "1000")
    assert events
    for event in events:
        assert set(event) == {"t", "type"} | FIELDS[event["type"]]
        assert event["t"] == round(event["t"], 3)
    stamps = [e["t"] for e in events]
    assert stamps == sorted(stamps)
    seen_types = {e["type"] for e in events}
    assert seen_types == set(FIELDS) - SCORES
    for event in events:
        if event["type"] == "state":
            assert event["state"] in STATES and event["era"] in (1, 2, 3)
            assert event["mode"] in ("realtime", "intro")
        elif event["type"] == "sound":
            assert event["sound"] in SOUNDS and event["era"] in (1, 2, 3)
        elif event["type"] == "prompt":
            assert event["prompt"] in ("scholars", "resumed")
        elif event["type"] == "guide":
            assert 1 <= event["step"] <= event["steps"]


def test_entered_points_standings_and_ranking_are_reported() -> None:
    """Three eras of two players, scored through the buttons: the points lines carry each
    number and the running total, the standings and the final ranking follow."""
    config = "players = [\"red\", \"blue\"]\n"
    lines = ["0 era press"]  # start Era I at once (past the guide)
    t = 0.0

    def add(what: str) -> None:
        nonlocal t
        t += 0.5
        lines.append(f"{t} {what}")

    for era in (1, 2, 3):
        t = max(t, (era - 1) * 600.0) + LEAD_IN + LENGTH + 1
        lines.append(f"{t} next hold")  # red: 5 for the era (era totals, the default)
        add("next press")  # 6
        add("era press")
        add("era press")  # blue: 0
        add("era press")  # the standings
        if era < 3:
            add("era press")  # start the next era at once
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "erabox.toml"
        path.write_text(config, encoding="utf-8")
        events = simulate("\n".join(lines) + "\n", "--config", str(path), "--until",
                          str(t + 1))
    points = [e for e in events if e["type"] == "points"]
    assert [(e["era"], e["step"], e["player"], e["points"]) for e in points[:2]] == [
        (1, None, "red", 6), (1, None, "blue", 0)]
    assert [e["total"] for e in points if e["player"] == "red" and e["points"]] == [6, 12, 18]
    standings = [e for e in events if e["type"] == "standings"]
    assert [e["era"] for e in standings] == [1, 2, 3]
    assert standings[1]["places"] == [{"place": 1, "player": "red", "total": 12},
                                      {"place": 2, "player": "blue", "total": 0}]
    (ranking,) = [e for e in events if e["type"] == "ranking"]
    assert ranking["winners"] == ["red"]
    assert [e for e in events if e["type"] == "buildings"] == []  # no tie: nobody asked
    # each era's scoring: a hold, a press and three ERA presses; 0.8 s for the hold
    assert [(e["era"], e["gestures"], e["button_s"]) for e in events
            if e["type"] == "entry"] == [(era, 5, 1.8) for era in (1, 2, 3)]


def test_a_state_line_only_when_something_but_elapsed_changed() -> None:
    events = simulate("0 era press\n100 vol_up press\n", "--until", "600")
    lines = [{k: v for k, v in e.items() if k not in ("t", "elapsed")}
             for e in events if e["type"] == "state"]
    assert all(a != b for a, b in itertools.pairwise(lines))
    # setup, lead_in, running, scoring: the running clock itself prints no lines (the guide's
    # step in setup has its own line type).
    assert [line["state"] for line in lines] == ["setup", "lead_in", "running", "scoring"]


def test_inputs_are_echoed_as_received() -> None:
    events = simulate("0 next press\n2.25 era hold\n3 vol_down press\n", "--until", "5")
    echoed = [(e["t"], e["button"], e["gesture"]) for e in events if e["type"] == "input"]
    assert echoed == [(0.0, "next", "press"), (2.25, "era", "hold"), (3.0, "vol_down", "press")]


def test_until_stops_at_that_virtual_time() -> None:
    events = simulate("0 era press\n", "--until", str(LEAD_IN + 200))
    assert max(e["t"] for e in events) <= LEAD_IN + 200
    assert [e["t"] for e in events if e.get("sound") == "cry"] == [LEAD_IN + RT.scholar_cues_s[0]]


def test_without_until_it_runs_700_s_past_the_last_line(tmp_path: Path) -> None:
    # A 1000 s era started at 0 ends at 1005: past 0 + 700, but within 400 + 700.
    config = tmp_path / "long.toml"
    config.write_text("[realtime]\nlength_s = 1000\n", encoding="utf-8")
    short = simulate("0 era press\n", "--config", str(config))
    assert [e for e in short if e.get("state") == "scoring"] == []
    assert max(e["t"] for e in short) <= DEFAULT_TAIL_S
    longer = simulate("0 era press\n400 vol_up press\n", "--config", str(config))
    assert [e["t"] for e in longer if e.get("state") == "scoring"] == [LEAD_IN + 1000]


def test_end_stops_there() -> None:
    events = simulate(f"0 era press\n{LEAD_IN + 50} end\n{LEAD_IN + 400} next hold\n")
    assert max(e["t"] for e in events) <= LEAD_IN + 50
    assert [e for e in events if e.get("sound") == "cry"] == []
    assert [e for e in events if e["type"] == "input"][-1]["button"] == "era"


def test_restart_before_anything_was_saved_is_a_fresh_game() -> None:
    events = simulate("0 restart\n1 era press\n", "--until", str(LEAD_IN + 2))
    assert [e["state"] for e in events if e["type"] == "state"][-2:] == ["lead_in", "running"]


def test_bad_until_is_refused() -> None:
    done = subprocess.run([sys.executable, "-m", "erabox", "simulate", "--until", "soon"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert "--until" in done.stderr


def test_missing_config_file_exits_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "erabox", "simulate", "--config", str(tmp_path / "x.toml")],
        capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert "x.toml" in done.stderr and done.stdout == ""
