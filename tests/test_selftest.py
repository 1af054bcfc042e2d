"""`erabox selftest` headless: MockFactory pins drive real gpiozero Buttons, the real Audio
adapter runs on SDL's dummy driver, the frames go to a display that keeps every one."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from PIL import Image

from erabox import SOUNDS_DIR
from erabox.adapters.cue_led import CueLed
from erabox.adapters.display import frame_bytes
from erabox.core.config import Config, parse_config
from erabox.core.model import PlaySound, SetVolume
from erabox.run.selftest import PATTERNS, held_at_power_up, pattern_image, run_selftest

ROOT = Path(__file__).resolve().parent.parent


class KeepAll:
    """A display that keeps every frame it is shown."""

    def __init__(self) -> None:
        self.frames: list[tuple[bytes, str | None]] = []

    def show(self, image: Image.Image, label: str | None = None) -> None:
        self.frames.append((frame_bytes(image), label))

    def close(self) -> None:
        pass


class Spy:
    """Passes effects on to the real Audio adapter and remembers them."""

    def __init__(self, audio: Any) -> None:
        self.audio = audio
        self.applied: list[object] = []

    @property
    def problem(self) -> str | None:
        return self.audio.problem  # type: ignore[no-any-return]

    def apply(self, effects: Sequence[object], now: float) -> None:
        self.applied.extend(effects)
        self.audio.apply(effects, now)


def test_patterns_are_what_they_say() -> None:
    assert frame_bytes(pattern_image("all_on")) == b"\xff" * (128 * 64 // 8)
    board = pattern_image("checkerboard")
    assert board.getpixel((0, 0)) != 0 and board.getpixel((1, 0)) == 0
    assert board.getpixel((0, 1)) == 0 and board.getpixel((1, 1)) != 0
    assert frame_bytes(board) == (b"\xaa" * 16 + b"\x55" * 16) * 32
    border = pattern_image("border")
    lit = {(x, y) for y in range(64) for x in range(128) if border.getpixel((x, y))}
    assert lit == {(x, y) for y in range(64) for x in range(128)
                   if x in (0, 127) or y in (0, 63)}
    with pytest.raises(ValueError):
        pattern_image("plaid")


def test_selftest_on_mock_pins_and_dummy_audio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from erabox.adapters.audio import Audio

    config = parse_config("[audio]\nvolume = 0.4\n", "test.toml")
    factory = MockFactory()
    led = CueLed(config.buttons.led_pin, pin_factory=factory, on_s=0.01, off_s=0.01)
    audio = Audio(config.audio, SOUNDS_DIR)
    spy = Spy(audio)
    display = KeepAll()
    lines: list[str] = []
    said = threading.Condition()

    def out(line: str) -> None:
        with said:
            lines.append(line)
            said.notify_all()

    def wait_for(text: str) -> None:
        with said:
            assert said.wait_for(lambda: any(text in line for line in lines), timeout=20), lines

    result: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: result.setdefault("found", run_selftest(
        config, pin_factory=factory, pin_factory_name=type(factory).__name__, display=display,
        audio=spy, led=led, oled_address=None, out=out, pattern_s=0, sound_gap_s=0,
        buttons_s=30)))
    try:
        worker.start()
        wait_for("press each of")
        for pin in (17, 27, 22, 23):  # NEXT, ERA, VOL+, VOL- of the default config
            factory.pin(pin).drive_low()
            wait_for(f"GPIO{pin}")  # the button page lists every pin from the start
            factory.pin(pin).drive_high()
        worker.join(timeout=20)
        assert not worker.is_alive()
    finally:
        led.close()
        audio.close()
        factory.close()
    found = result["found"]
    assert audio.problem is None, audio.problem  # the dummy driver opened
    assert found.pin_factory == "MockFactory"
    assert "no SSD1306" in found.oled
    assert found.patterns == list(PATTERNS)
    shown = [frame for frame, _ in display.frames]
    for name in PATTERNS:
        assert frame_bytes(pattern_image(name)) in shown
    assert found.led_flashes == 1
    sounds = [e.sound.value for e in spy.applied if isinstance(e, PlaySound)]
    assert sounds == ["gong", "cry", "tick"]
    assert [e.level for e in spy.applied if isinstance(e, SetVolume)] == [0.4]
    assert found.button_changes == [("NEXT", True), ("NEXT", False), ("ERA", True),
                                    ("ERA", False), ("VOL+", True), ("VOL+", False),
                                    ("VOL-", True), ("VOL-", False)]
    assert found.buttons_done == "all pressed"
    # Simulated pins and no OLED: the test says so and does not pass.
    assert found.problems == [
        "no GPIO library: the pins are simulated, so no real button or LED was tested",
        "screen: no SSD1306 answers at 0x3C or 0x3D on /dev/i2c-1"]
    assert not found.passed
    assert lines[-1] == "selftest: FAILED, 2 problem(s): " + "; ".join(found.problems)


def selftest_on(monkeypatch: pytest.MonkeyPatch, *, name: str, oled: int | None,
                press: tuple[int, ...], audio_on: bool = True) -> tuple[Any, list[str]]:
    """The self-test on mock pins reported as `name`, pressing the pins in `press`."""
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from erabox.adapters.audio import Audio

    config = parse_config("", "test.toml")
    factory = MockFactory()
    audio = Audio(config.audio, SOUNDS_DIR) if audio_on else None
    led = CueLed(config.buttons.led_pin, pin_factory=factory, on_s=0.01, off_s=0.01)
    lines: list[str] = []
    said = threading.Condition()

    def out(line: str) -> None:
        with said:
            lines.append(line)
            said.notify_all()

    result: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: result.setdefault("found", run_selftest(
        config, pin_factory=factory, pin_factory_name=name, display=None, audio=audio,
        led=led, oled_address=oled, out=out, pattern_s=0, sound_gap_s=0,
        buttons_s=0.5 if not press else 30)))
    try:
        worker.start()
        with said:
            assert said.wait_for(lambda: any("press each of" in line for line in lines),
                                 timeout=20), lines
        for pin in press:
            factory.pin(pin).drive_low()
            factory.pin(pin).drive_high()
        if press:  # NEXT and ERA held together end the test
            factory.pin(17).drive_low()
            factory.pin(27).drive_low()
        worker.join(timeout=20)
        assert not worker.is_alive()
    finally:
        led.close()
        if audio is not None:
            audio.close()
        factory.close()
    return result["found"], lines


def test_selftest_passes_only_with_every_part(monkeypatch: pytest.MonkeyPatch) -> None:
    found, lines = selftest_on(monkeypatch, name="LGPIOFactory", oled=0x3C, press=(17, 27))
    assert found.problems == [] and found.passed, found.problems
    assert lines[-1].startswith("selftest: passed")
    assert "sound: playing gong at 80%" in lines


def test_selftest_fails_when_next_and_era_were_never_pressed_or_sound_is_off(
        monkeypatch: pytest.MonkeyPatch) -> None:
    found, lines = selftest_on(monkeypatch, name="LGPIOFactory", oled=0x3C, press=(),
                               audio_on=False)
    assert found.problems == ["sound: no sound (audio off)",
                              "buttons: NEXT and ERA never pressed"]
    assert "sound: gong not played (no sound)" in lines
    assert not any("playing" in line for line in lines)
    assert found.sounds == []


class FingerOnPin(MockPin):
    """A pin a finger holds to GND: setting the pull-up does not lift it."""

    def _set_pull(self, value: str) -> None:
        self._pull = value


def test_next_held_at_power_up_is_seen() -> None:
    factory = MockFactory()
    try:
        assert not held_at_power_up(Config(), factory)
        factory.pin(17).close()
        factory.pins.clear()
        factory.pin(17, pin_class=FingerOnPin).drive_low()
        assert held_at_power_up(Config(), factory)
    finally:
        factory.close()


def test_erabox_selftest_command_headless(tmp_path: Path) -> None:
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", SDL_AUDIODRIVER="dummy",
               ERABOX_CONFIG=str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("[display]\ni2c_bus = 97\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "erabox", "selftest", "--display", "none", "--seconds", "0",
         "--pattern-seconds", "0"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    # Nothing real was found and nothing pressed: exit 1, every problem on the last line.
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert "pin factory MockFactory" in out
    assert "no SSD1306 answers at 0x3C or 0x3D on /dev/i2c-97" in out
    assert "sound: playing gong" in out and "sound: playing tick" in out
    assert "buttons: time is up; never pressed: NEXT, ERA, VOL+, VOL-" in out
    last = out.rstrip().splitlines()[-1]
    assert last.startswith("selftest: FAILED, 3 problem(s): no GPIO library"), last
    assert "/dev/i2c-97" in last and last.endswith("buttons: NEXT and ERA never pressed")


def test_selftest_draws_at_the_configured_panel_size(tmp_path: Path) -> None:
    """With `[display] height = 32` every page and test pattern is a 128x32 frame (so the
    self-test shows at once whether the key matches the panel)."""
    from erabox.ui.panel import Panel

    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", SDL_AUDIODRIVER="dummy",
               ERABOX_CONFIG=str(tmp_path / "small.toml"))
    (tmp_path / "small.toml").write_text("[display]\nheight = 32\ni2c_bus = 97\n",
                                         encoding="utf-8")
    frames = tmp_path / "frames"
    done = subprocess.run(
        [sys.executable, "-m", "erabox", "selftest", "--display", f"png:{frames}",
         "--seconds", "0", "--pattern-seconds", "0"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr  # simulated pins, no OLED: not a pass
    written = {}
    for path in sorted(frames.glob("*.png")):
        with Image.open(path) as image:
            assert image.size == (128, 32), path.name
            written[path.name] = frame_bytes(image)
    for name in PATTERNS:
        assert frame_bytes(pattern_image(name, Panel(height=32))) in written.values(), name


class NoDevice:
    """An audio adapter that found no sound device."""

    problem = "no sound: ALSA: Couldn't open audio device"

    def __init__(self) -> None:
        self.applied: list[object] = []

    def apply(self, effects: Sequence[object], now: float) -> None:
        self.applied.extend(effects)


def test_selftest_plays_nothing_and_says_so_without_a_sound_device() -> None:
    config = parse_config("", "test.toml")
    factory = MockFactory()
    audio = NoDevice()
    lines: list[str] = []
    try:
        found = run_selftest(config, pin_factory=factory, pin_factory_name="LGPIOFactory",
                             display=None, audio=audio, led=None, oled_address=0x3C,
                             out=lines.append, pattern_s=0, sound_gap_s=0, buttons_s=0)
    finally:
        factory.close()
    assert not [e for e in audio.applied if isinstance(e, PlaySound)]
    assert [line for line in lines if line.startswith("sound: ")] == [
        f"sound: {NoDevice.problem}", "sound: gong not played (no sound)",
        "sound: cry not played (no sound)", "sound: tick not played (no sound)"]
    assert f"sound: {NoDevice.problem}" in found.problems
