"""`erabox selftest`: check the buttons, cue LED, screen and speaker one by one.

The builder's first hour (hardware.md points here). In order:

1. what was found: the pin factory (real pins or simulated), where the OLED answers on I2C,
   and the sound device (or why there is none);
2. the screen: all pixels on, a checkerboard, a one-pixel border (each held `pattern_s`);
3. the cue LED flashes;
4. each cue sound (gong, scholar cry, tick) plays at the configured volume;
5. the buttons: each one's live state, on screen and printed at every change, until every
   fitted button went down and up once, NEXT and ERA are held together, or `buttons_s` ends.

The same test runs on the box itself when NEXT is held while it powers up (`erabox run`).
It reports through `out` (one line per finding, plain text for a terminal or the journal) and
never raises for a missing part: a part that is absent is a finding, collected in
`Findings.problems` and summed up at the end. `erabox selftest` exits 0 only when there are
none: real pins, an OLED that answers, a sound device, NEXT and ERA each pressed; else 1, after
a last line that names every problem (the optional VOL+/VOL- need not be pressed).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from erabox.core.config import Config
from erabox.core.model import Button, PlaySound, SetVolume, Sound
from erabox.ports import AudioPort, DisplayPort, LedPort
from erabox.ui.panel import Panel
from erabox.ui.selftest_pages import (
    PATTERNS,
    buttons_page,
    done_page,
    found_page,
    page_image,
    pattern_image,
    sound_page,
)

log = logging.getLogger("erabox.selftest")

LABELS = {Button.NEXT: "NEXT", Button.ERA: "ERA", Button.VOL_UP: "VOL+",
          Button.VOL_DOWN: "VOL-"}


@dataclass
class Findings:
    """What the self-test found, for a caller (and a test) to read back."""

    pin_factory: str = ""
    oled: str = ""
    sound: str = ""
    patterns: list[str] = field(default_factory=list)
    led_flashes: int = 0
    sounds: list[str] = field(default_factory=list)
    button_changes: list[tuple[str, bool]] = field(default_factory=list)
    buttons_done: str = ""  # "all pressed", "NEXT+ERA held", "time is up"
    problems: list[str] = field(default_factory=list)  # what keeps the box from working

    @property
    def passed(self) -> bool:
        return not self.problems


class ButtonWatch:
    """Each fitted button's live level from gpiozero `Button`s (raw, no gestures)."""

    def __init__(self, config: Config, pin_factory: Any,
                 on_change: Callable[[Button, bool], None]) -> None:
        from gpiozero import Button as GpioButton

        pins = {Button.NEXT: config.buttons.next_pin, Button.ERA: config.buttons.era_pin,
                Button.VOL_UP: config.buttons.vol_up_pin,
                Button.VOL_DOWN: config.buttons.vol_down_pin}
        self.pins = {button: pin for button, pin in pins.items() if pin is not None}
        self.devices: dict[Button, Any] = {}
        self.problems: list[str] = []
        for button, pin in self.pins.items():
            try:
                device = GpioButton(pin, pull_up=True, bounce_time=None,
                                    pin_factory=pin_factory)
            except Exception as exc:  # a busy or invalid pin is a finding
                self.problems.append(f"{LABELS[button]} on GPIO{pin}: cannot use the pin ({exc})")
                continue
            device.when_pressed = self._callback(button, True, on_change)
            device.when_released = self._callback(button, False, on_change)
            self.devices[button] = device

    @staticmethod
    def _callback(button: Button, down: bool,
                  on_change: Callable[[Button, bool], None]) -> Callable[[], None]:
        return lambda: on_change(button, down)

    def is_down(self, button: Button) -> bool:
        device = self.devices.get(button)
        return bool(device is not None and device.is_pressed)

    def close(self) -> None:
        for device in self.devices.values():
            try:
                device.close()
            except Exception:
                log.debug("selftest: error closing a button", exc_info=True)
        self.devices.clear()


def held_at_power_up(config: Config, pin_factory: Any) -> bool:
    """Whether NEXT reads pressed right now (the box's way into the self-test)."""
    from gpiozero import Button as GpioButton

    try:
        device = GpioButton(config.buttons.next_pin, pull_up=True, pin_factory=pin_factory)
    except Exception:
        return False
    try:
        return bool(device.is_pressed)
    finally:
        device.close()


def run_selftest(
    config: Config,
    *,
    pin_factory: Any,
    pin_factory_name: str,
    display: DisplayPort | None,
    audio: AudioPort | None,
    led: LedPort | None,
    oled_address: int | None,
    out: Callable[[str], None],
    pattern_s: float = 1.5,
    sound_gap_s: float = 2.0,
    buttons_s: float = 60.0,
    stop: threading.Event | None = None,
) -> Findings:
    """Run every step (see the module docstring); returns what was found.

    `display`, `audio`, `led` are the box's adapters (None = not available); `oled_address` is
    where a panel answered (None = none). `stop` ends the wait of any step early.
    """
    stop = stop or threading.Event()
    found = Findings()

    # 1. What is fitted.
    found.pin_factory = pin_factory_name
    simulated = "Mock" in pin_factory_name
    out(f"pins: gpiozero pin factory {pin_factory_name}"
        + (" (simulated pins: no GPIO library)" if simulated else ""))
    if simulated:
        found.problems.append("no GPIO library: the pins are simulated, so no real button or "
                              "LED was tested")
    bus = f"/dev/i2c-{config.display.i2c_bus}"
    if oled_address is None:
        found.oled = f"no SSD1306 answers at 0x3C or 0x3D on {bus}"
        found.problems.append(f"screen: {found.oled}")
    else:
        found.oled = f"SSD1306 at 0x{oled_address:02X} on {bus}"
    out(f"screen: {found.oled}")
    silent = audio is None or bool(audio.problem)
    if audio is None:
        found.sound = "no sound (audio off)"
    else:
        problem = audio.problem
        device = config.audio.device or "the default device"
        found.sound = problem or f"sound device: {device}"
    if silent:
        found.problems.append(f"sound: {found.sound}")
    out(f"sound: {found.sound}")
    language = config.language
    panel = Panel.of(config.display)
    _show(display, found_page(language, pin_factory_name, oled_address,
                              audio is not None and not audio.problem, compact=panel.compact),
          panel)
    if stop.wait(pattern_s):
        return _stopped(found, out)

    # 2. Screen patterns.
    for name in PATTERNS:
        if display is not None:
            display.show(pattern_image(name, panel), f"selftest_{name}")
        found.patterns.append(name)
        out(f"screen: test pattern {name.replace('_', ' ')}")
        if stop.wait(pattern_s):
            return _stopped(found, out)

    # 3. The cue LED.
    fitted = led is not None and getattr(led, "fitted", False)
    if led is not None and fitted:
        led.flash()
        found.led_flashes += 1
        out(f"LED: flashing (GPIO{config.buttons.led_pin})"
            + (" on simulated pins: nothing lights" if simulated else ""))
    elif config.buttons.led_pin is None:
        out("LED: none fitted (led_pin = false)")
    else:
        out("LED: not available")
        found.problems.append(f"LED: GPIO{config.buttons.led_pin} cannot be used (led_pin = "
                              "false if none is fitted)")

    # 4. Each cue sound at the configured volume.
    if audio is not None:
        audio.apply((SetVolume(config.audio.volume),), time.monotonic())
    for sound in (Sound.GONG, Sound.CRY, Sound.TICK):
        percent = round(config.audio.volume * 100)
        if audio is not None and not silent:
            audio.apply((PlaySound(sound, 1),), time.monotonic())
            found.sounds.append(sound.value)
            out(f"sound: playing {sound.value} at {percent}%")
        else:
            out(f"sound: {sound.value} not played (no sound)")
        _show(display, sound_page(language, sound.value, percent, fitted, silent=silent), panel)
        if stop.wait(sound_gap_s):
            return _stopped(found, out)

    # 5. Buttons, live.
    _watch_buttons(config, pin_factory, display, out, found, buttons_s, stop)
    _show(display, [*done_page(language), found.buttons_done], panel)
    _summary(found, out)
    return found


def _stopped(found: Findings, out: Callable[[str], None]) -> Findings:
    found.problems.append("stopped before every part was tested")
    _summary(found, out)
    return found


def _summary(found: Findings, out: Callable[[str], None]) -> None:
    """The last line: passed, or every problem found."""
    if found.passed:
        out("selftest: passed (every part answered; the LED and the sounds: did you see and "
            "hear them?)")
    else:
        out(f"selftest: FAILED, {len(found.problems)} problem(s): " + "; ".join(found.problems))


def _watch_buttons(config: Config, pin_factory: Any, display: Any, out: Callable[[str], None],
                   found: Findings, buttons_s: float, stop: threading.Event) -> None:
    changed = threading.Condition()
    seen_down: set[Button] = set()
    seen_up: set[Button] = set()
    changes: list[tuple[Button, bool]] = []

    def on_change(button: Button, down: bool) -> None:  # gpiozero's thread
        with changed:
            changes.append((button, down))
            changed.notify_all()

    watch = ButtonWatch(config, pin_factory, on_change)
    panel = Panel.of(config.display)
    try:
        for problem in watch.problems:
            out(f"buttons: {problem}")
            found.problems.append(f"buttons: {problem}")
        names = ", ".join(f"{LABELS[b]} (GPIO{p})" for b, p in watch.pins.items())
        out(f"buttons: press each of {names} once; hold NEXT+ERA to finish")
        fitted = set(watch.devices)
        wait_for = ("all pressed", "NEXT+ERA held", "time is up")
        deadline: float | None = None  # when NEXT+ERA, held together, end the test
        start = time.monotonic()
        done = ""
        while not done:
            _show(display, buttons_page(config.language, [
                (LABELS[b], p, watch.is_down(b)) for b, p in watch.pins.items()],
                compact=panel.compact), panel)
            with changed:
                # Wake at the next change, the chord's deadline or the end: no polling.
                wake = start + buttons_s if deadline is None else min(start + buttons_s,
                                                                      deadline)
                left = wake - time.monotonic()
                if not changes and left > 0 and not stop.is_set():
                    changed.wait(left)
                batch, changes[:] = list(changes), []
            for button, down in batch:
                found.button_changes.append((LABELS[button], down))
                out(f"button {LABELS[button]}: {'down' if down else 'up'}")
                (seen_down if down else seen_up).add(button)
            if fitted and fitted <= seen_down and fitted <= seen_up:
                done = wait_for[0]
            elif watch.is_down(Button.NEXT) and watch.is_down(Button.ERA):
                deadline = deadline or time.monotonic() + config.buttons.both_s
                if time.monotonic() >= deadline:
                    done = wait_for[1]
            else:
                deadline = None
            if not done and (stop.is_set() or time.monotonic() - start >= buttons_s):
                done = wait_for[2]
        found.buttons_done = done
        missing = [LABELS[b] for b in watch.pins if b not in seen_down]
        out(f"buttons: {done}" + (f"; never pressed: {', '.join(missing)}" if missing else ""))
        needed = [LABELS[b] for b in (Button.NEXT, Button.ERA)
                  if b in watch.devices and b not in seen_down]
        if needed:
            found.problems.append(f"buttons: {' and '.join(needed)} never pressed")
    finally:
        watch.close()


def _show(display: Any, lines: Sequence[str], panel: Panel) -> None:
    if display is None:
        return
    try:
        display.show(page_image(lines, panel), "selftest")
    except Exception:  # a broken screen is reported by the display itself
        log.debug("selftest: could not draw", exc_info=True)


def main(args: Any) -> int:
    """`erabox selftest`: open the parts as `erabox run` would and test each one."""
    import os
    import sys

    from erabox import SOUNDS_DIR
    from erabox.adapters.cue_led import CueLed
    from erabox.adapters.display import DisplayError, open_display
    from erabox.adapters.pins import default_pin_factory
    from erabox.core.config import ConfigError
    from erabox.files.config import load_config

    logging.basicConfig(level=os.environ.get("ERABOX_LOG", "WARNING").upper(),
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    config = load_config(args.config)
    choice = default_pin_factory()
    from erabox.adapters.oled import find_ssd1306

    address = find_ssd1306(config.display)
    kind = args.display
    if kind == "auto":
        kind = "ssd1306" if address is not None else "none"
    try:
        display = open_display(kind, config.display)
    except DisplayError as exc:
        raise ConfigError(f"--display {kind}: {exc}") from None
    audio = None
    if args.audio == "auto":
        from erabox.adapters.audio import Audio

        audio = Audio(config.audio, SOUNDS_DIR)
    led: Any = None
    try:
        led = CueLed(config.buttons.led_pin, pin_factory=choice.factory)
    except Exception as exc:
        print(f"LED: {exc}", flush=True)

    def out(line: str) -> None:
        print(line, flush=True)

    try:
        found = run_selftest(config, pin_factory=choice.factory, pin_factory_name=choice.name,
                             display=display, audio=audio, led=led, oled_address=address,
                             out=out, pattern_s=args.pattern_seconds,
                             sound_gap_s=args.pattern_seconds, buttons_s=args.seconds)
    finally:
        if led is not None:
            led.close()
        if audio is not None:
            audio.close()
        display.close()
    return 0 if found.passed else 1
