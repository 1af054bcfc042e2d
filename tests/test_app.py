"""The box end to end, in process: gpiozero's MockFactory drives the real buttons code, the
loop runs the core on the real clock, the real renderer draws into a display that keeps the
last frame. Checks the states, sounds and screens that pin edges produce."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from erabox.adapters.buttons import Buttons
from erabox.adapters.display import NullDisplay, frame_bytes
from erabox.adapters.state_file import StateFile
from erabox.benchmarks.harness import TraceLog
from erabox.core.config import parse_config
from erabox.core.events import PlayRecorder
from erabox.core.model import Phase
from erabox.run.app import Box, ScreenWorker, Stop
from erabox.ui.render import render

CONFIG = """
[realtime]
length_s = 60
scholar_cues_s = [30]
lead_in_s = 0
final_ticks_s = 0

[buttons]
hold_s = 0.3
both_s = 0.6
bounce_s = 0.02
"""


@dataclass
class Rig:
    box: Box
    buttons: Buttons
    factory: MockFactory
    display: NullDisplay
    screens: ScreenWorker
    events: list[dict[str, Any]]
    changed: threading.Condition

    def pin(self, number: int) -> Any:
        return self.factory.pin(number)

    def wait(self, predicate: Callable[[list[dict[str, Any]]], Any], what: str,
             timeout: float = 10.0) -> Any:
        """Wait (on a condition, not a guess) until the event list satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                result = predicate(self.events)
                if result:
                    return result
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}; events: "
                                         f"{self.events[-8:]}")
                self.changed.wait(left)

    def inputs(self) -> list[tuple[str, str]]:
        return [(e["button"], e["gesture"]) for e in self.events if e["type"] == "input"]

    def press(self, number: int, seconds: float = 0.1) -> None:
        """The finger down for `seconds` on the pins' clock: a press, however busy the
        machine (a real `sleep(0.1)` between the edges may last past the hold time)."""
        clock = self.buttons._clock
        assert isinstance(clock, PinClock)
        clock.held = time.monotonic()
        self.pin(number).drive_low()
        clock.held += seconds
        self.pin(number).drive_high()
        time.sleep(seconds)  # not a wait for anything: the real clock must not go back
        clock.held = None


class PinClock:
    """The buttons' clock: the real one, unless a test holds it to time an edge exactly (a
    `time.sleep(0.005)` lasts 30 ms on a loaded machine: a glitch would become a press)."""

    def __init__(self) -> None:
        self.held: float | None = None

    def __call__(self) -> float:
        return time.monotonic() if self.held is None else self.held


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    config = parse_config(CONFIG, "test.toml")
    events: list[dict[str, Any]] = []
    changed = threading.Condition()

    def emit(event: dict[str, Any]) -> None:
        with changed:
            events.append(event)
            changed.notify_all()

    display = NullDisplay()
    screens = ScreenWorker(display, "en")
    state_file = StateFile(tmp_path / "state.json")
    box = Box(config, state_file=state_file, screen_worker=screens,
              play_events=PlayRecorder(emit))
    factory = MockFactory()
    clock = PinClock()
    buttons = Buttons(config.buttons, box.post, pin_factory=factory, clock=clock)
    box.start_game()
    loop = threading.Thread(target=box.run_loop)
    loop.start()
    try:
        yield Rig(box, buttons, factory, display, screens, events, changed)
    finally:
        box.post(Stop("test over"))
        loop.join(timeout=5)
        buttons.close()
        screens.close()
        factory.close()
    assert not loop.is_alive()


def last_state(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    states = [e for e in events if e["type"] == "state"]
    return states[-1] if states else None


def wait_screen(rig: Rig, kind: Phase) -> None:
    """Wait until the display holds exactly the rendered screen of `kind`."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        shown = rig.screens.last
        image = rig.display.last
        if shown is not None and image is not None and shown[0].kind is kind and (
                frame_bytes(image) == frame_bytes(render(shown[0], language="en",
                                                         no_sound=shown[1]))):
            return
        time.sleep(0.01)
    raise AssertionError(f"the display never showed exactly the rendered {kind} screen")


def test_era_press_starts_the_era_with_a_gong(rig: Rig) -> None:
    rig.press(27)
    rig.wait(lambda ev: (last_state(ev) or {}).get("state") == "running", "running")
    sounds = [e["sound"] for e in rig.events if e["type"] == "sound"]
    assert sounds == ["gong", "music_start"]
    assert rig.inputs() == [("era", "press")]
    wait_screen(rig, Phase.RUNNING)


def test_next_hold_pauses_and_press_resumes(rig: Rig) -> None:
    rig.press(27)
    rig.wait(lambda ev: (last_state(ev) or {}).get("state") == "running", "running")
    rig.pin(17).drive_low()
    # The hold fires at the threshold, while the button is still down.
    rig.wait(lambda ev: (last_state(ev) or {}).get("state") == "paused", "paused")
    rig.pin(17).drive_high()
    wait_screen(rig, Phase.PAUSED)
    time.sleep(0.1)  # the stimulus: the finger is up for a moment before pressing again
    rig.press(17)
    rig.wait(lambda ev: (last_state(ev) or {}).get("state") == "running", "resumed")
    assert rig.inputs() == [("era", "press"), ("next", "hold"), ("next", "release"),
                            ("next", "press")]
    sounds = [e["sound"] for e in rig.events if e["type"] == "sound"]
    assert sounds == ["gong", "music_start", "music_pause", "music_resume"]


def test_both_held_asks_new_game_and_suppresses_single_gestures(rig: Rig) -> None:
    rig.pin(17).drive_low()
    rig.pin(27).drive_low()
    rig.wait(lambda ev: (last_state(ev) or {}).get("state") == "confirm", "confirm")
    rig.pin(17).drive_high()
    rig.pin(27).drive_high()
    wait_screen(rig, Phase.CONFIRM)
    time.sleep(0.1)  # the stimulus: fingers up for a moment
    rig.press(27)  # ERA: yes
    rig.wait(lambda ev: len(rig.inputs()) >= 2, "the answer")
    assert rig.inputs() == [("both", "hold"), ("era", "press")]
    state = rig.wait(lambda ev: (last_state(ev) or {}).get("state") == "setup" and
                     last_state(ev), "setup")
    assert state["era"] == 1 and state["mode"] == "realtime"


def test_a_5ms_glitch_is_not_a_press(rig: Rig) -> None:
    pin = rig.pin(17)
    clock = rig.buttons._clock
    assert isinstance(clock, PinClock)
    clock.held = time.monotonic()
    pin.drive_low()
    clock.held += 0.005  # the glitch: 5 ms on the pins' clock, however busy the machine is
    pin.drive_high()
    time.sleep(0.006)  # not a wait for anything: the real clock must not go back when let go
    clock.held = None
    # A real press on ERA afterwards: once it is seen, the glitch had its chance to count.
    rig.press(27)
    rig.wait(lambda ev: ("era", "press") in rig.inputs(), "the ERA press")
    assert rig.inputs() == [("era", "press")]
    assert (last_state(rig.events) or {}).get("mode") == "realtime"  # NEXT would toggle it


def test_next_press_in_setup_toggles_the_mode_on_screen(rig: Rig) -> None:
    wait_screen(rig, Phase.PREPARE)  # the era's setup opens on the preparation guide
    guide = [e for e in rig.events if e["type"] == "guide"]
    assert (guide[0]["part"], guide[0]["what"]) == ("game", "players")  # the game's setup first
    shown, pressed = guide[0], 0
    while (shown["part"], shown["step"]) != ("era", shown["steps"]):  # NEXT walks the
        rig.press(17)  # game's steps, then the era's, each a guide line of its own
        pressed += 1
        shown = rig.wait(lambda ev, n=pressed: [
            e for e in ev if e["type"] == "guide"][n:n + 1], f"guide step {pressed}")[0]
    rig.press(17)  # past the era's last step: its setup
    wait_screen(rig, Phase.SETUP)
    rig.press(17)
    state = rig.wait(lambda ev: (last_state(ev) or {}).get("mode") == "intro" and
                     last_state(ev), "intro mode")
    assert state["state"] == "setup" and state["start_player"] == "red"
    deadline = time.monotonic() + 10
    while rig.screens.last is None or rig.screens.last[0].mode.value != "intro":
        assert time.monotonic() < deadline, "the setup screen never showed the intro mode"
        time.sleep(0.01)
    wait_screen(rig, Phase.SETUP)


class StuckDisplay(NullDisplay):
    """A display whose first frame never finishes until the test lets it (a hung I2C bus)."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def show(self, image: Any, label: str | None = None) -> None:
        self.entered.set()
        self.release.wait(60)  # the fault being simulated
        super().show(image, label)


def test_a_slow_display_never_delays_a_cue(tmp_path: Path) -> None:
    """Behaviour, not timing: with the display stuck in its first frame for the whole era,
    every cue still fires, in order, and the era ends. (How late cues are under load is a
    figure for `make bench`, not an assertion a shared machine can miss.)"""
    config = parse_config(
        "[realtime]\nlength_s = 3\nscholar_cues_s = [0.5, 1.0, 1.5, 2.0, 2.5]\n"
        "lead_in_s = 0\nfinal_ticks_s = 2\n", "slow.toml")
    display = StuckDisplay()
    screens = ScreenWorker(display, "en")
    done = threading.Event()
    events: list[dict[str, Any]] = []

    def emit(event: dict[str, Any]) -> None:
        events.append(event)
        if event.get("state") == "scoring":
            done.set()

    observer = TraceLog()  # the bench's observer: it keeps each deadline cue's dispatch time
    box = Box(config, state_file=StateFile(tmp_path / "state.json"), screen_worker=screens,
              play_events=PlayRecorder(emit), observer=observer)
    box.start_game()
    loop = threading.Thread(target=box.run_loop)
    loop.start()
    try:
        from erabox.core.model import Button, Gesture, Input

        assert display.entered.wait(30), "the screen worker never drew"
        box.post(Input(Button.ERA, Gesture.PRESS))
        assert done.wait(60), "the era never ended while the display was stuck"
        still_stuck = not display.release.is_set() and display.frames == 0
    finally:
        display.release.set()
        box.post(Stop("test over"))
        loop.join(timeout=10)
        screens.close()
    assert still_stuck
    # the era's cues in time order: a cry at each call, a tick each second of the last two,
    # the end gong (the era engine's `timeline(config)`, pinned before its removal)
    assert [sound for _, _, sound in observer.cue_log] == [
        "cry", "cry", "tick", "cry", "cry", "tick", "cry", "gong"]
    assert all(dispatched >= due for due, dispatched, _ in observer.cue_log)  # never early
