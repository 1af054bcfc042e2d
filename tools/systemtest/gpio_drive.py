"""Fingers on the buttons of the system-test VM: gestures on a gpio-sim chip, heard at the card.

Runs in the VM as root, with the system's Python and nothing else (standard library, and
alsa-utils' arecord), while the installed unit runs the box with gpiozero on lgpio on the chip.
Each button is a line of the chip standing for the Pi's GPIO of that number; the box pulls its
inputs up and a press connects them to ground. gpio-sim's `pull` attribute is that finger:
"pull-down" presses, "pull-up" lets go. Every edge comes as a contact bounce burst (5-15 ms of
random toggles, a few ms apart, as a real switch chatters), then the level settles.

Meanwhile it records the ALSA loopback card's capture side (the box plays into the other side)
and reads the cue LED's line back from the chip, so it can tell when a press was heard and when
the LED lit. The card's frames and this script share one clock: the origin of the capture stream
is the earliest (arrival time - frames received so far / rate) over all chunks `arecord` hands
over, and a sound's onset is that origin plus its frame index over the rate.

Usage: python3 gpio_drive.py drive CHIP_DIR OUT_JSON
         CHIP_DIR: the chip's sysfs folder (/sys/devices/platform/gpio-sim.N/gpiochipM).
         Writes OUT_JSON: the gestures made, in order, as the box's events name them; the
         press-to-sound latencies; the LED's transitions; the bounce bursts' lengths.
       python3 gpio_drive.py check OUT_JSON EVENTS
         Compares the gestures made with the `input` events of the box's JSON-lines EVENTS
         and prints the system test's CHECK and FIGURE lines.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from array import array

NEXT, ERA, VOL_UP, VOL_DOWN, LED = 17, 27, 22, 23, 24  # the config's defaults (BCM numbers)
NAMES = {NEXT: "next", ERA: "era", VOL_UP: "vol_up", VOL_DOWN: "vol_down"}
RATE = 44100
CHANNELS = 2
CAPTURE = "hw:CARD=Loopback,DEV=1,SUBDEV=0"
HOLD_S = 1.3  # past the box's hold_s (0.8 s)
BOTH_S = 3.6  # past both_s (3 s)

# The gestures before the ERA presses: (kind, line, how long held)
SEQUENCE = [
    ("press", NEXT, 0.12), ("press", NEXT, 0.12),  # two steps of the guide
    ("press", VOL_UP, 0.12), ("press", VOL_DOWN, 0.12),
    ("press", NEXT, HOLD_S),  # hold: past the guide
    ("chord", NEXT, BOTH_S),  # both: "New game?"
    ("press", NEXT, 0.12),  # no
    ("chord", NEXT, 1.0),  # both let go early: a short chord (nothing here, -1 in points)
]

rng = random.Random(23)  # the same bursts every run


class Chip:
    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.bursts_ms: list[float] = []

    def _write(self, line: int, what: str) -> None:
        fd = os.open(f"{self.folder}/sim_gpio{line}/pull", os.O_WRONLY)
        try:
            os.write(fd, what.encode())
        finally:
            os.close(fd)

    def value(self, line: int) -> int:
        with open(f"{self.folder}/sim_gpio{line}/value") as f:
            return int(f.read().strip())

    def set(self, line: int, down: bool) -> float:
        """Bounce, then settle pressed (down) or released; returns when it settled."""
        level, other = ("pull-down", "pull-up") if down else ("pull-up", "pull-down")
        length = rng.uniform(0.005, 0.015)
        start = time.monotonic()
        end = start + length
        toggles = 0
        while time.monotonic() < end:
            self._write(line, level if toggles % 2 == 0 else other)
            toggles += 1
            time.sleep(rng.uniform(0.0005, 0.003))
        self._write(line, level)
        settled = time.monotonic()
        self.bursts_ms.append(round((settled - start) * 1000, 1))
        return settled


class Capture(threading.Thread):
    """The loopback card's capture side through `arecord` (raw S16 stereo on its stdout), read
    as it comes; keeps the left channel's samples and when each chunk arrived."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.process = subprocess.Popen(
            ["arecord", "-q", "-D", CAPTURE, "-f", "S16_LE", "-r", str(RATE), "-c", str(CHANNELS),
             "-t", "raw", "--period-time=5000", "--buffer-time=500000"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.samples = array("h")
        self.origin = float("inf")
        self.overruns = 0

    def run(self) -> None:
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        frame_bytes = 2 * CHANNELS
        pending = b""
        total = 0
        while True:
            data = os.read(fd, 4096)
            now = time.monotonic()
            if not data:
                break
            pending += data
            whole = len(pending) - len(pending) % frame_bytes
            chunk = array("h", pending[:whole])
            pending = pending[whole:]
            self.samples.extend(chunk[0::CHANNELS])
            total += whole // frame_bytes
            self.origin = min(self.origin, now - total / RATE)

    def finish(self) -> None:
        self.process.terminate()
        _, err = self.process.communicate(timeout=5)
        self.join(timeout=2)
        self.overruns = err.decode(errors="replace").lower().count("overrun")

    def onset_after(self, t: float, within_s: float = 2.0) -> float | None:
        """When the first sound after time `t` began (this script's clock), or None."""
        if self.origin == float("inf"):
            return None  # nothing was recorded
        first = max(int((t - self.origin) * RATE), 0)
        quiet = self.samples[max(first - RATE // 10, 0):first]
        floor = max((abs(s) for s in quiet), default=0)
        threshold = max(10 * floor, 300)
        for i in range(first, min(first + int(within_s * RATE), len(self.samples))):
            if abs(self.samples[i]) > threshold:
                return self.origin + i / RATE
        return None


def drive(chip_dir: str, out_path: str) -> int:
    chip = Chip(chip_dir)
    made: list[list[str]] = []
    pulled_up = {line: chip.value(line) for line in NAMES}  # the box's pull-ups, before a press
    led_at_start = chip.value(LED)
    capture = Capture()
    capture.start()
    time.sleep(0.5)

    def press(line: int, down_s: float = 0.12) -> tuple[float, float]:
        pressed = chip.set(line, True)
        time.sleep(down_s)
        released = chip.set(line, False)
        made.append([NAMES[line], "press" if down_s < 0.8 else "hold"])
        if line == NEXT and down_s >= 0.8:  # NEXT says when a hold is let go (points entry)
            made.append([NAMES[line], "release"])
        return pressed, released

    def chord(held_s: float) -> None:
        chip.set(NEXT, True)
        time.sleep(0.08)
        chip.set(ERA, True)
        time.sleep(held_s)
        chip.set(ERA, False)
        time.sleep(0.05)
        chip.set(NEXT, False)
        # held past both_s: "New game?"; let go sooner: a short chord (-1 in the points entry)
        made.append(["both", "hold" if held_s >= 3.0 else "press"])

    def gap(s: float = 0.6) -> None:
        time.sleep(s)

    # At the setup of Era I (its preparation guide first): what each does there is in
    # docs/behaviour.md; only the gestures are checked, in the box's events.
    for kind, line, held_s in SEQUENCE:
        if kind == "chord":
            chord(held_s)
        else:
            press(line, held_s)
        gap()
    # 10 presses in 3 s, each started on a grid from the first (0.28 s apart: the bounce
    # bursts of a slow VM do not add up), never less than 0.1 s after the last release
    ten_start = time.monotonic()
    for k in range(10):
        time.sleep(max(0.0, ten_start + 0.28 * k - time.monotonic()))
        _, released = press(NEXT, 0.12)
        time.sleep(0.1)
    ten_s = released - ten_start
    gap(1.0)
    latencies: list[dict[str, float | None]] = []
    led: list[list[float]] = []
    for k in range(3):
        pressed, released = press(ERA)  # starts the era's lead-in: its first tick
        if k < 2:
            gap(1.0)
            press(ERA, HOLD_S)  # back to setup
            gap(1.0)
        else:
            # the lead-in (3 s), then the gong: the cue LED flashes with it
            last = chip.value(LED)
            end = time.monotonic() + 6.0
            while time.monotonic() < end:
                value = chip.value(LED)
                if value != last:
                    led.append([round(time.monotonic() - released, 3), value])
                    last = value
                time.sleep(0.002)
        onset = capture.onset_after(released - 0.05)
        latencies.append({
            "release_to_sound_ms": None if onset is None else round((onset - released) * 1000, 1),
            "press_to_sound_ms": None if onset is None else round((onset - pressed) * 1000, 1),
        })
    capture.finish()
    with open(out_path, "w") as f:
        json.dump({"gestures": made, "latencies": latencies, "led": led,
                   "led_at_start": led_at_start, "pulled_up": pulled_up,
                   "ten_presses_s": round(ten_s, 2), "bursts_ms": chip.bursts_ms,
                   "capture_overruns": capture.overruns,
                   "captured_s": round(len(capture.samples) / RATE, 1)}, f, indent=1)
    print(f"{len(made)} gestures made; release to sound: "
          f"{[lat['release_to_sound_ms'] for lat in latencies]} ms")
    return 0


def check(made_path: str, events_path: str) -> int:
    with open(made_path) as f:
        made = json.load(f)
    with open(events_path) as f:
        events = [json.loads(line) for line in f if line.startswith("{")]
    got = [[e["button"], e["gesture"]] for e in events if e.get("type") == "input"]
    failed = 0

    def line(name: str, ok: bool | None, text: str) -> None:
        nonlocal failed
        if ok is None:
            print(f"FIGURE {name}: {text}")
        else:
            print(f"CHECK {name}: {'PASS' if ok else 'FAIL'} {text}")
            failed += not ok

    ok = got == made["gestures"]
    line("gpio_gestures", ok, f"{len(got)} gestures in the box's events, "
         f"{len(made['gestures'])} made: {' '.join(b + ':' + g for b, g in got)}"
         + ("" if ok else f"; made: {' '.join(b + ':' + g for b, g in made['gestures'])}"))
    ups = made["pulled_up"]
    line("gpio_pull_ups", all(v == 1 for v in ups.values()),
         f"lines before any press, GPIO: level {ups} (1: the box's pull-up bias, through lgpio)")
    release = [lat["release_to_sound_ms"] for lat in made["latencies"]]
    press = [lat["press_to_sound_ms"] for lat in made["latencies"]]
    line("gpio_press_heard", all(v is not None for v in release),
         f"ERA press to its first sound at the card (the lead-in's tick), from the release: "
         f"{release} ms; from the press: {press} ms")
    lit = [t for t, v in made["led"] if v == 1]
    line("gpio_cue_led", made["led_at_start"] == 0 and bool(lit) and 2.5 < lit[0] < 5.0,
         f"LED line read from the chip: off at start, lit {len(lit)} times, first "
         f"{lit[0] if lit else '-'} s after the ERA press (3 s lead-in, then the gong); "
         f"transitions {made['led']}")
    line("gpio_ten_presses", made["ten_presses_s"] <= 3.0,
         f"10 NEXT presses in {made['ten_presses_s']} s")
    bursts = made["bursts_ms"]
    line("gpio_bounce_bursts_ms", None,
         f"{len(bursts)} edges, each a burst of {min(bursts)}-{max(bursts)} ms of toggles; "
         f"capture: {made['captured_s']} s, {made['capture_overruns']} overruns")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "drive":
        sys.exit(drive(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 4 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    sys.exit(__doc__)
