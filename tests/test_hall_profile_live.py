"""A round game's countdown in a hall, with the real broker (docs/hall.md, "A round game's
countdown in a hall"): one real `erabox run` box playing a game profile, its `hall = true`
countdown held for the hall, obeys the director's START (its lead-in, then its start gong)
and PAUSE (held at the hall's running time), read from the box's own state file; the
director sees its round, phase and the countdown's running time."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from erabox.core.config import HallConfig, parse_config
from erabox.core.engine import ProfileEngine
from erabox.core.model import Button, Gesture, Input, SteerAction
from erabox.core.profile import parse_profile
from erabox.run.hall_director import Director
from hall_net import HALL, KEY, Broker, box_config, mosquitto

pytestmark = pytest.mark.skipif(mosquitto() is None,
                                reason="Debian's mosquitto is not installed (make test does)")

ERABOX = str(Path(sys.executable).parent / "erabox")
WAIT_S = 30.0  # bounds on waiting for a condition: generous, for a loaded machine

DASH = """\
[game]
id = "dash"
name = "Dash"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1
start_gong = false

[[phase]]
id = "ready"
label = "Ready"

[[phase]]
id = "dash"
label = "Dash"
timer_s = 60
lead_in_s = 2
hall = true

[[phase.call]]
at_s = 50
prompt = "Last lap"
"""


def run_box(folder: Path, config: Path, clock: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, ERABOX_TEST_CLOCK=clock, SDL_AUDIODRIVER="dummy")
    return subprocess.Popen([ERABOX, "run", "--config", str(config), "--display", "none",
                             "--audio", "none"], env=env, stdout=subprocess.DEVNULL,
                            stderr=(folder / "stderr.log").open("w"))


def saved(folder: Path, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The box's state file once `test` holds of it (polled, bounded)."""
    end = time.monotonic() + WAIT_S
    while True:
        record: dict[str, Any] = {}
        with contextlib.suppress(OSError, ValueError):  # not there yet, or being replaced
            record = dict(json.loads((folder / "state.json").read_text()))
        if record and test(record):
            return record
        assert time.monotonic() < end, f"the box never saved that: {record}"
        time.sleep(0.05)


@pytest.fixture
def box(tmp_path: Path) -> Iterator[tuple[Director, Path]]:
    broker = Broker(tmp_path, ["t1"])
    broker.start()
    folder = tmp_path / "t1"
    config_path = box_config(folder, "t1", broker.port, broker.passwords["t1"], length_s=14,
                             cues=[3.0])
    profile_path = tmp_path / "dash.toml"
    profile_path.write_text(DASH)
    config_path.write_text(f'game = "{profile_path}"\n' + config_path.read_text())
    # The box comes up at the countdown, held for the hall: the record the engine saves when
    # the table steps into it in a hall.
    config = parse_config(config_path.read_text(), str(config_path))
    engine = ProfileEngine(parse_profile(DASH, str(profile_path)), config)
    play, _ = engine.fresh(0.0, 0)
    for press in (Button.ERA, Button.NEXT):
        play, _ = engine.step(play, Input(press, Gesture.PRESS), 0.0)
    record = engine.snapshot(play, 0.0)
    assert record["timer_paused"] and record["timer_left"] == 62.0
    (folder / "state.json").write_text(json.dumps(record))
    process = run_box(folder, config_path, "0.8,120")
    director = Director(HallConfig(broker="127.0.0.1", port=broker.port, hall=HALL,
                                   user="director", password=broker.passwords["director"],
                                   key=KEY))
    try:
        director.start()
        yield director, folder
    finally:
        director.close()
        process.terminate()
        process.wait(timeout=20)
        broker.kill()


def test_a_box_playing_a_profile_obeys_the_halls_start_and_pause(
        box: tuple[Director, Path]) -> None:
    director, folder = box
    end = time.monotonic() + WAIT_S
    with director.changed:
        while not (director.tables.get("t1") or {}).get("synced"):
            assert time.monotonic() < end, director.tables
            director.changed.wait(end - time.monotonic())
    start = director.command(SteerAction.START, 1.5)
    assert start is not None
    assert set(director.wait_acks(start.seq, WAIT_S)) == {"t1"}
    # the lead-in's two ticks and the start gong given, on disk before the gong sounds
    running = saved(folder, lambda r: r.get("timer_cues") == 3 and not r.get("timer_paused"))
    assert 55.0 < running["timer_left"] <= 60.0
    # the director sees the table's round, phase and the countdown's running time
    end = time.monotonic() + WAIT_S
    with director.changed:
        while not ((seen := director.tables.get("t1") or {}).get("state") == "running"
                   and (seen.get("running_s") or 0) > 0):
            assert time.monotonic() < end, director.tables
            director.changed.wait(end - time.monotonic())
    assert (seen["game"], seen["era"], seen["round"], seen["phase"]) == ("Dash", 1, 1, "dash")
    pause = director.command(SteerAction.PAUSE, 1.0)
    assert pause is not None
    assert set(director.wait_acks(pause.seq, WAIT_S)) == {"t1"}
    held = saved(folder, lambda r: bool(r.get("timer_paused")))
    assert held["timer_left"] == pytest.approx(60.0 - pause.running_s, abs=0.002)
    assert "Traceback" not in (folder / "stderr.log").read_text()
