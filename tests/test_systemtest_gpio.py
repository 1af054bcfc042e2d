"""The system test's GPIO check: the gestures pressed on the VM's gpio-sim chip against the box's
event log (tools/systemtest/gpio_drive.py check). It must fail on any gesture lost, added or out
of order, and on a press never heard or an LED that never lit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

DRIVER = Path(__file__).resolve().parents[1] / "tools" / "systemtest" / "gpio_drive.py"

MADE = [["next", "press"], ["next", "hold"], ["both", "hold"], ["era", "press"]]


def made(**changes: Any) -> dict[str, Any]:
    return {"gestures": MADE, "pulled_up": {"17": 1, "27": 1, "22": 1, "23": 1},
            "latencies": [{"release_to_sound_ms": 31.5, "press_to_sound_ms": 165.0}],
            "led": [[3.05, 1], [3.25, 0]], "led_at_start": 0, "ten_presses_s": 2.9,
            "bursts_ms": [5.2, 14.8], "capture_overruns": 0, "captured_s": 40.0} | changes


def run_check(tmp_path: Path, driven: dict[str, Any], logged: list[list[str]]) -> list[str]:
    (tmp_path / "made.json").write_text(json.dumps(driven))
    lines = ["2026-11-24 03:59:00,000 INFO erabox.run.app: ready"]
    lines += [json.dumps({"t": 1.0 + i, "type": "input", "button": b, "gesture": g})
              for i, (b, g) in enumerate(logged)]
    lines.append(json.dumps({"t": 9.0, "type": "sound", "sound": "tick", "era": 1}))
    (tmp_path / "events.txt").write_text("\n".join(lines) + "\n")
    done = subprocess.run([sys.executable, str(DRIVER), "check", str(tmp_path / "made.json"),
                           str(tmp_path / "events.txt")], capture_output=True, text=True,
                          timeout=30, check=False)
    failed = [line.split(":")[0].removeprefix("CHECK ") for line in done.stdout.splitlines()
              if line.startswith("CHECK") and ": FAIL" in line]
    assert (done.returncode != 0) == bool(failed), done.stdout + done.stderr
    return failed


def test_the_gestures_made_pass(tmp_path: Path) -> None:
    assert run_check(tmp_path, made(), MADE) == []


def test_a_gesture_lost_added_or_out_of_order_fails(tmp_path: Path) -> None:
    assert run_check(tmp_path, made(), MADE[:-1]) == ["gpio_gestures"]
    assert run_check(tmp_path, made(), [*MADE, ["next", "press"]]) == ["gpio_gestures"]
    assert run_check(tmp_path, made(), [MADE[1], MADE[0], *MADE[2:]]) == ["gpio_gestures"]


def test_an_unheard_press_an_unlit_led_or_a_missing_pull_up_fails(tmp_path: Path) -> None:
    unheard = made(latencies=[{"release_to_sound_ms": None, "press_to_sound_ms": None}])
    assert run_check(tmp_path, unheard, MADE) == ["gpio_press_heard"]
    assert run_check(tmp_path, made(led=[]), MADE) == ["gpio_cue_led"]
    # lit, but not with the gong (3 s lead-in after the ERA press)
    assert run_check(tmp_path, made(led=[[0.4, 1], [0.6, 0]]), MADE) == ["gpio_cue_led"]
    assert run_check(tmp_path, made(led_at_start=1), MADE) == ["gpio_cue_led"]
    floating = made(pulled_up={"17": 0, "27": 1, "22": 1, "23": 1})
    assert run_check(tmp_path, floating, MADE) == ["gpio_pull_ups"]
    assert run_check(tmp_path, made(ten_presses_s=3.4), MADE) == ["gpio_ten_presses"]
