"""`erabox run` as a real process: mock pins, SDL's dummy audio, no display, events out.

These run the whole daemon (config, core, gpiozero buttons, mixer, renderer, state file) on
the real monotonic clock with a seconds-long era, and check what it reports it did.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from saved_game import saved_position, saved_round

SHORT_ERA = """
[realtime]
length_s = 4
scholar_cues_s = [1.5, 3]
lead_in_s = 0
final_ticks_s = 0
"""


def daemon_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(GPIOZERO_PIN_FACTORY="mock", SDL_AUDIODRIVER="dummy",
               ERABOX_STATE=str(tmp_path / "state.json"), ERABOX_LOG="INFO")
    env.pop("DISPLAY", None)
    env.pop("ERABOX_CONFIG", None)
    return env


def start_daemon(tmp_path: Path, config: str, script: str | None, events: Path,
                 name: str = "run") -> subprocess.Popen[bytes]:
    (tmp_path / "erabox.toml").write_text(config)
    args = [sys.executable, "-m", "erabox", "run", "--config", str(tmp_path / "erabox.toml"),
            "--display", "none", "--events", str(events)]
    if script is not None:
        (tmp_path / f"{name}.script").write_text(script)
        args += ["--script", str(tmp_path / f"{name}.script")]
    return subprocess.Popen(args, env=daemon_env(tmp_path), stdout=subprocess.PIPE,
                            stderr=open(tmp_path / f"{name}.log", "wb"))


def read_events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    return [json.loads(line) for line in lines if line.endswith("}")]


def wait_for(predicate: Any, timeout: float, what: str) -> Any:
    """Wait for a condition on the daemon's output (checked every 20 ms, bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = predicate()
        if result:
            return result
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def test_scripted_realtime_era_reports_cues_at_their_real_times(tmp_path: Path) -> None:
    events_file = tmp_path / "events.jsonl"
    proc = start_daemon(tmp_path, SHORT_ERA, "0.3 era press\n5.5 end\n", events_file)
    assert proc.wait(timeout=30) == 0, (tmp_path / "run.log").read_text()
    events = read_events(events_file)

    inputs = [e for e in events if e["type"] == "input"]
    assert [(e["button"], e["gesture"]) for e in inputs] == [("era", "press")]
    # press = pin low for 0.1 s from t=0.3, and a press fires on release (how much later on a
    # loaded machine is a figure for `make bench`, not an assertion).
    assert inputs[0]["t"] >= 0.35

    sounds = [(e["sound"], e["t"]) for e in events if e["type"] == "sound"]
    names = [s for s, _ in sounds]
    assert names == ["gong", "music_start", "cry", "cry", "gong", "music_stop"]
    gong = sounds[0][1]
    assert abs(gong - inputs[0]["t"]) < 0.1  # the start gong answers the press at once
    cries = [t for s, t in sounds if s == "cry"]
    end_gong = sounds[4][1]
    # Cues are scheduled from the start gong: never early. (How late, on a machine shared
    # with `stress-ng --cpu 2`, is a figure for `make bench`; the schedule itself is checked
    # exactly on a virtual clock in test_timeline.py.)
    for cue, due in ((cries[0], 1.5), (cries[1], 3.0), (end_gong, 4.0)):
        assert cue >= gong + due - 0.002

    states = [(e["state"], e["t"]) for e in events if e["type"] == "state"]
    assert [s for s, _ in states] == ["setup", "running", "scoring"]
    assert states[2][1] >= end_gong  # the era ends with its gong (stamped at its deadline)
    prompts = [e for e in events if e["type"] == "prompt"]
    assert [p["prompt"] for p in prompts] == ["scholars", "scholars"]


def test_sigkill_mid_era_resumes_paused_at_the_saved_running_time(tmp_path: Path) -> None:
    config = SHORT_ERA.replace("length_s = 4", "length_s = 120").replace(
        "[1.5, 3]", "[60, 90]")
    events_file = tmp_path / "events.jsonl"
    state = tmp_path / "state.json"
    proc = start_daemon(tmp_path, config, "0.2 era press\n", events_file)
    try:
        wait_for(lambda: any(e.get("state") == "running" for e in read_events(events_file)),
                 20, "the era to start")

        def saved_elapsed() -> float | None:
            try:
                saved = json.loads(state.read_text())
            except (OSError, ValueError):
                return None
            phase, elapsed = saved_position(saved, 120)
            return elapsed if phase == "running" and elapsed and elapsed > 5.5 else None

        wait_for(saved_elapsed, 30, "a periodic save past 5 s of running time")
        proc.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    running_started = next(e["t"] for e in read_events(events_file) if e.get("state") ==
                           "running")
    first_run_ready = events_file.stat().st_mtime  # unused, keeps the file for debugging
    del first_run_ready

    events_again = tmp_path / "events2.jsonl"
    proc2 = start_daemon(tmp_path, config, "1.0 end\n", events_again, name="run2")
    assert proc2.wait(timeout=30) == 0, (tmp_path / "run2.log").read_text()
    events = read_events(events_again)
    first_state = next(e for e in events if e["type"] == "state")
    assert first_state["state"] == "paused"
    assert first_state["era"] == 1 and first_state["mode"] == "realtime"
    assert any(e["type"] == "prompt" and e["prompt"] == "resumed" for e in events)
    # It comes back at most one save period (5 s) before the moment of the kill.
    assert saved_position(state.read_text(), 120)[0] == "paused"
    assert first_state["elapsed"] is not None
    assert first_state["elapsed"] >= 5.5
    # The kill happened within a few seconds of the last save we saw (>= 5.5 s running).
    assert time.monotonic() - killed_at < 60
    assert running_started >= 0
    # No cue may have been replayed: nothing but the resume happened in the second run.
    assert not [e for e in events if e["type"] == "sound"]


def test_sigkill_mid_intro_era_resumes_same_round_and_start_player(tmp_path: Path) -> None:
    config = 'players = ["red", "blue", "green"]\ndefault_mode = "intro"\n'
    script = "0.1 era press\n" + "".join(f"{0.5 + 0.4 * i:.1f} next press\n" for i in range(6))
    events_file = tmp_path / "events.jsonl"
    proc = start_daemon(tmp_path, config, script, events_file)
    try:
        wait_for(lambda: [e for e in read_events(events_file)
                          if e.get("state") == "intro_round" and e.get("round") == 6],
                 30, "round 6")
        wait_for(lambda: saved_round((tmp_path / "state.json").read_text()) == 6,
                 10, "round 6 to be saved")
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    events_again = tmp_path / "events2.jsonl"
    proc2 = start_daemon(tmp_path, config, "0.5 end\n", events_again, name="run2")
    assert proc2.wait(timeout=30) == 0, (tmp_path / "run2.log").read_text()
    first_state = next(e for e in read_events(events_again) if e["type"] == "state")
    assert (first_state["state"], first_state["round"], first_state["start_player"]) == (
        "intro_round", 6, "blue")


def test_sigterm_saves_and_exits_cleanly(tmp_path: Path) -> None:
    events_file = tmp_path / "events.jsonl"
    proc = start_daemon(tmp_path, SHORT_ERA.replace("length_s = 4", "length_s = 600").replace(
        "[1.5, 3]", "[300]"), "0.1 era press\n", events_file)
    try:
        wait_for(lambda: any(e.get("state") == "running" for e in read_events(events_file)),
                 20, "the era to start")
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=60)  # how fast is a bench figure; here: that it does
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 0, (tmp_path / "run.log").read_text()
    phase, elapsed = saved_position((tmp_path / "state.json").read_text(), 600)
    assert phase == "running" and elapsed is not None and elapsed > 0


def test_corrupt_state_file_never_stops_the_box(tmp_path: Path) -> None:
    (tmp_path / "state.json").write_text('{"schema": 1, "phase": "runn')
    events_file = tmp_path / "events.jsonl"
    proc = start_daemon(tmp_path, SHORT_ERA, "0.3 end\n", events_file)
    assert proc.wait(timeout=30) == 0
    first_state = next(e for e in read_events(events_file) if e["type"] == "state")
    assert first_state["state"] == "setup" and first_state["era"] == 1
    assert list(tmp_path.glob("state.json.bad-*")), "the unusable file is kept aside"
    assert "unusable" in (tmp_path / "run.log").read_text()


@pytest.mark.parametrize("bad", ["[realtime]\nlength_s = -3\n", "[audio]\nvolume = 2\n",
                                 "[display]\nheight = 48\n"])
def test_bad_config_exits_2_naming_the_key(tmp_path: Path, bad: str) -> None:
    (tmp_path / "bad.toml").write_text(bad)
    result = subprocess.run(
        [sys.executable, "-m", "erabox", "run", "--config", str(tmp_path / "bad.toml"),
         "--display", "none", "--audio", "none"],
        env=daemon_env(tmp_path), capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    key = bad.split("\n")[1].split(" =")[0]
    assert f"'{bad[1:bad.index(']')]}.{key}'" in result.stderr and "bad.toml" in result.stderr
    assert "Traceback" not in result.stderr


def test_unopenable_audio_driver_runs_silent_with_one_warning(tmp_path: Path) -> None:
    events_file = tmp_path / "events.jsonl"
    (tmp_path / "erabox.toml").write_text(SHORT_ERA)
    (tmp_path / "s.script").write_text("0.2 era press\n5.0 end\n")
    env = daemon_env(tmp_path)
    env["SDL_AUDIODRIVER"] = "no_such_driver"
    result = subprocess.run(
        [sys.executable, "-m", "erabox", "run", "--config", str(tmp_path / "erabox.toml"),
         "--display", "none", "--audio", "auto", "--script", str(tmp_path / "s.script"),
         "--events", str(events_file)],
        env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    # The era still ran on time: gong, two cries, gong, scoring.
    events = read_events(events_file)
    assert [e["sound"] for e in events if e["type"] == "sound"] == [
        "gong", "music_start", "cry", "cry", "gong", "music_stop"]
    assert [e["state"] for e in events if e["type"] == "state"][-1] == "scoring"
    warnings = [line for line in result.stderr.splitlines() if "WARNING" in line]
    sound_warnings = [line for line in warnings if "sound" in line.lower()]
    assert len(sound_warnings) == 1, warnings
    assert "Traceback" not in result.stderr


def test_a_128x32_panel_in_the_config_is_drawn_at_128x32(tmp_path: Path) -> None:
    """`[display] height = 32` reaches the screen worker and the display: every frame the box
    draws is a 128x32 picture, the 128x32 layout of what the box showed."""
    from PIL import Image

    frames = tmp_path / "frames"
    (tmp_path / "erabox.toml").write_text(SHORT_ERA + "[display]\nheight = 32\n")
    (tmp_path / "s.script").write_text("0.2 era press\n1.0 end\n")
    result = subprocess.run(
        [sys.executable, "-m", "erabox", "run", "--config", str(tmp_path / "erabox.toml"),
         "--display", f"png:{frames}", "--audio", "none", "--script", str(tmp_path / "s.script")],
        env=daemon_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    files = sorted(frames.glob("*.png"))
    assert len(files) >= 2  # the setup screen, then the running era
    for file in files:
        with Image.open(file) as image:
            assert image.size == (128, 32), file.name
    # The first frame is the first screen (the preparation guide) as the 128x32 layout draws it.
    from erabox.files.config import load_config
    from erabox.run.simulate import simulate
    from erabox.ui.panel import Panel
    from erabox.ui.render import render

    config = load_config(str(tmp_path / "erabox.toml"))
    shown: list[Any] = []
    simulate(config, [], 0.0, lambda event: None, lambda screen, t: shown.append(screen))
    expected = render(shown[0], panel=Panel.of(config.display))
    with Image.open(files[0]) as image:
        assert image.convert("1").tobytes() == expected.tobytes()
