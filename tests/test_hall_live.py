"""A hall with the real broker: Mosquitto on 127.0.0.1, three real `erabox run` boxes whose
clocks are off (seconds and a hundred-odd ppm) behind a delaying proxy each, and the director.

Behaviour only (timing figures are `make hall-bench`'s): every box starts, pauses, resumes and
ends its era on the director's commands, each cue once; duplicates and replays change nothing;
malformed and unsigned messages are ignored with one log line each; a wrong password is a
clear error at start.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from erabox.adapters.hall import make_client
from erabox.core.config import HallConfig
from erabox.core.model import SteerAction
from erabox.run.hall_director import Director
from hall_net import (
    HALL,
    KEY,
    Broker,
    DelayProxy,
    box_config,
    make_certificates,
    mosquitto,
)

pytestmark = pytest.mark.skipif(mosquitto() is None,
                                reason="Debian's mosquitto is not installed (make test does)")
ERABOX = str(Path(sys.executable).parent / "erabox")
CLOCKS = ["1.7,180", "-1.9,-160", "0.4,90"]
WAIT_S = 30.0  # bounds on waiting for a condition: generous, for a loaded machine


def run_box(folder: Path, config: Path, clock: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, ERABOX_TEST_CLOCK=clock, SDL_AUDIODRIVER="dummy")
    return subprocess.Popen([ERABOX, "run", "--config", str(config), "--display", "none",
                             "--audio", "none", "--events", str(folder / "events.jsonl")],
                            env=env, stdout=subprocess.DEVNULL,
                            stderr=(folder / "stderr.log").open("w"))


def until(director: Director, test: Callable[[dict[str, dict[str, object]]], bool]) -> None:
    end = time.monotonic() + WAIT_S
    with director.changed:
        while not test(director.tables):
            left = end - time.monotonic()
            assert left > 0, f"the hall never got there: {director.tables}"
            director.changed.wait(left)


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[tuple[Broker, Director, dict[str, Path]]]:
    tables = ["t1", "t2", "t3"]
    broker = Broker(tmp_path, tables)
    broker.start()
    proxies, boxes, folders = [], [], {}
    try:
        for index, table in enumerate(tables):
            proxy = DelayProxy(broker.port, seed=index)
            proxies.append(proxy)
            folders[table] = tmp_path / table
            config = box_config(folders[table], table, proxy.port, broker.passwords[table],
                                length_s=14, cues=[3.0, 6.0])
            boxes.append(run_box(folders[table], config, CLOCKS[index]))
        director = Director(HallConfig(broker="127.0.0.1", port=broker.port, hall=HALL,
                                       user="director", password=broker.passwords["director"],
                                       key=KEY))
        director.start()
        yield broker, director, folders
        director.close()
    finally:
        for box in boxes:
            box.terminate()
        for box in boxes:
            box.wait(timeout=20)
        for proxy in proxies:
            proxy.close()
        broker.kill()


def sounds(folder: Path) -> list[str]:
    lines = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    return [e["sound"] for e in lines if e["type"] == "sound"]


def test_every_box_obeys_the_hall_once_and_ignores_what_is_not_a_command(
        hall: tuple[Broker, Director, dict[str, Path]]) -> None:
    broker, director, folders = hall
    until(director, lambda t: len(t) == 3 and all(s.get("synced") and s.get("state") == "setup"
                                                  for s in t.values()))
    start = director.command(SteerAction.START, 1.5)
    assert start is not None
    assert set(director.wait_acks(start.seq, WAIT_S)) == set(folders)
    # A replay of the start (as a late copy would come), a malformed and an unsigned message.
    from erabox.core.hall import encode

    topic = director.topics["command"]
    director.client.publish(topic, encode(start, director.key), qos=1).wait_for_publish(5)
    director.client.publish(topic, b"{not json", qos=1).wait_for_publish(5)
    director.client.publish(topic, json.dumps({"body": {"seq": 10**15}}), qos=1
                            ).wait_for_publish(5)
    until(director, lambda t: all((s.get("running_s") or 0) >= 4 for s in t.values()))
    orders = {}
    for action, then in ((SteerAction.PAUSE, "paused"), (SteerAction.RESUME, "running")):
        sent = director.command(action, 1.0)
        assert sent is not None
        orders[action] = sent
        director.wait_acks(sent.seq, WAIT_S)
        until(director, lambda t, then=then: all(s.get("state") == then for s in t.values()))
    # The pause again, word for word, after the resume (a replay): obeyed, it would pause the
    # tables and they would never reach 7 s below.
    director.client.publish(topic, encode(orders[SteerAction.PAUSE], director.key), qos=1
                            ).wait_for_publish(5)
    # A table that knows the hall key still cannot command the hall: the broker's ACL drops a
    # newer, well-signed pause from table t1's user.
    rogue = make_client(director.config, "rogue", "t1")
    rogue.username_pw_set("t1", broker.passwords["t1"])
    rogue.connect("127.0.0.1", broker.port)
    rogue.loop_start()
    newer = replace(orders[SteerAction.PAUSE], seq=orders[SteerAction.RESUME].seq + 1)
    rogue.publish(topic, encode(newer, director.key), qos=1).wait_for_publish(5)
    rogue.loop_stop()
    rogue.disconnect()
    until(director, lambda t: all((s.get("running_s") or 0) >= 7 for s in t.values()))
    end = director.command(SteerAction.END, 1.0)
    assert end is not None
    until(director, lambda t: all(s.get("state") == "scoring" for s in t.values()))
    for table, folder in folders.items():
        heard = sounds(folder)
        assert heard.count("gong") == 2, (table, heard)  # the start and the end, once each
        assert heard.count("cry") == 2, (table, heard)  # 3:00 and 6:00 scaled: 3 s and 6 s
        assert heard.count("music_pause") == 1 and heard.count("music_resume") == 1, heard
        log = (folder / "stderr.log").read_text()
        ignored = [line for line in log.splitlines() if "hall: ignored" in line]
        assert len(ignored) == 2, ignored  # one line each: the malformed, the unsigned
    # The director's one-shot status, as a script reads it.
    config = folders["t1"].parent / "director.toml"
    config.write_text(f'[hall]\nbroker = "127.0.0.1:{broker.port}"\nhall = "{HALL}"\n'
                      f'user = "director"\npassword = "{broker.passwords["director"]}"\n'
                      f'key = "{KEY}"\n')
    out = subprocess.run([ERABOX, "hall", "status", "--config", str(config)],
                         capture_output=True, text=True, timeout=60, check=True)
    tables = [json.loads(line) for line in out.stdout.splitlines()]
    assert sorted(t["table"] for t in tables) == sorted(folders)
    assert all(t["state"] == "scoring" and t["era"] == 1 for t in tables)


def test_a_wrong_password_is_a_clear_error_at_start(tmp_path: Path) -> None:
    broker = Broker(tmp_path, ["t1"])
    broker.start()
    try:
        config = box_config(tmp_path / "t1", "t1", broker.port, "wrong", length_s=14,
                            cues=[3.0])
        out = subprocess.run([ERABOX, "run", "--config", str(config), "--display", "none",
                              "--audio", "none"], capture_output=True, text=True, timeout=60,
                             env=dict(os.environ, SDL_AUDIODRIVER="dummy"))
    finally:
        broker.kill()
    assert out.returncode == 2
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("erabox: [hall] the broker at 127.0.0.1") and "refused" in last
    assert "password" in last and "Traceback" not in out.stderr


@pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl to make certificates")
def test_a_box_joins_a_broker_over_tls(tmp_path: Path) -> None:
    ca, cert, key = make_certificates(tmp_path)
    broker = Broker(tmp_path, ["t1"], tls=(ca, cert, key))
    broker.start()
    config = box_config(tmp_path / "t1", "t1", broker.port, broker.passwords["t1"],
                        length_s=14, cues=[3.0])
    config.write_text(config.read_text() + f'tls_ca = "{ca}"\n')
    box = subprocess.Popen([ERABOX, "run", "--config", str(config), "--display", "none",
                            "--audio", "none"], stderr=subprocess.PIPE, text=True,
                           env=dict(os.environ, SDL_AUDIODRIVER="dummy"))
    bound = threading.Timer(WAIT_S, box.kill)  # a box that never connects: the test fails
    bound.start()
    try:
        assert box.stderr is not None
        seen = []
        for line in box.stderr:  # ends when the box does (at the latest, killed by `bound`)
            seen.append(line)
            if "hall: table 't1' connected" in line:
                break
        assert any("hall: table 't1' connected" in line for line in seen), seen
    finally:
        bound.cancel()
        box.terminate()
        box.communicate(timeout=20)
        broker.kill()
