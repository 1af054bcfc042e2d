"""The box's buttons (NEXT, ERA, optional VOL+/VOL-) on gpiozero.

`Buttons` feeds the pure `erabox.core.gestures.GestureRecogniser` (debounce; press / hold /
both, docs/behaviour.md) from gpiozero `DigitalInputDevice`s (pulled up: pressed = active). Not
gpiozero's `Button`: its hold timing is the recogniser's job, and each `Button` keeps a hold
thread that wakes ten times a second. gpiozero's callbacks only record the edge (a few
microseconds under a lock); one thread of ours (a `erabox.adapters.workers.NewestWorker` used as a
timer: woken by an edge, or at the recogniser's next deadline) is the only caller of
`on_input`, so gestures arrive in order and never on gpiozero's threads.

`SimulatedButtons` are the same buttons on gpiozero's mock pins, with a finger: the window,
the terminal keys and `--script` pull those pins low and let them go (`pin_down`, `pin_up`,
`perform`: the `erabox.ports.SimulatedInput` port), so every simulated press still goes through
gpiozero and the recogniser. Real buttons have no such methods.

Pi platform notes:

* RPi.GPIO's edge detection fails on Bookworm kernels and on the Pi 5 ("Failed to add edge
  detection"), so the service runs gpiozero on lgpio (`GPIOZERO_PIN_FACTORY=lgpio`, package
  `lgpio` from the `pi` extra or `python3-lgpio`).
* gpiozero's own `bounce_time` means different things on different pin drivers (RPi.GPIO
  ignores every edge for a while after one edge, which can swallow a quick release; the mock
  driver ignores it), so it is left off and we debounce the same way on every driver.
* Without any pin library (a laptop) `erabox.adapters.pins.default_pin_factory()` falls back
  to gpiozero's `MockFactory`, and the app makes `SimulatedButtons`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from erabox.adapters.workers import Again, NewestWorker
from erabox.core.config import ButtonsConfig
from erabox.core.gestures import CHORD, GestureRecogniser
from erabox.core.model import Button, Gesture, Input
from erabox.ports import SimulatedInput

from .pins import ButtonsError

log = logging.getLogger(__name__)

# How `erabox run --script` acts out a gesture on a pin (docs/run.md): a press is a short tap,
# a hold is kept down a little past the threshold so the threshold surely passes.
SCRIPT_PRESS_S = 0.1
SCRIPT_MARGIN_S = 0.1

LABELS = {
    Button.NEXT: "NEXT",
    Button.ERA: "ERA",
    Button.VOL_UP: "VOL+",
    Button.VOL_DOWN: "VOL-",
}


class Buttons:
    """The fitted buttons as gpiozero `DigitalInputDevice`s, giving gestures
    (docs/behaviour.md) to `on_input`.

    `on_input` is called on one thread of ours (never gpiozero's), one gesture at a time; it
    should only queue the event. Pins come from `config` (None = not fitted); buttons connect
    the pin to GND, so the internal pull-ups are used. A pin that is invalid or busy raises
    `ButtonsError` naming the button and pin. `close()` releases the pins.
    """

    def __init__(
        self,
        config: ButtonsConfig,
        on_input: Callable[[Input], None],
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        on_chord: Callable[[float | None], None] | None = None,
    ) -> None:
        """Claim the pins and start watching them. `clock` must be monotonic seconds.

        `on_chord(since)` (optional) hears when NEXT and ERA start being held together (`since`,
        on `clock`) and when that hold ends or fires BOTH (None): the screen shows progress.
        """
        from gpiozero import DigitalInputDevice

        self.config = config
        self._on_input = on_input
        self._on_chord = on_chord
        self._chord_reported: float | None = None
        self._clock = clock
        self._pins: dict[Button, int] = {
            button: pin
            for button, pin in (
                (Button.NEXT, config.next_pin),
                (Button.ERA, config.era_pin),
                (Button.VOL_UP, config.vol_up_pin),
                (Button.VOL_DOWN, config.vol_down_pin),
            )
            if pin is not None
        }
        self._devices: dict[Button, Any] = {}
        for button, pin in self._pins.items():
            try:
                # bounce_time=None: we debounce ourselves (see the module docstring). A plain
                # input device, not gpiozero's Button: the recogniser times holds itself, and a
                # Button keeps a hold thread per pin waking ten times a second for nothing.
                self._devices[button] = DigitalInputDevice(
                    pin, pull_up=True, bounce_time=None, pin_factory=pin_factory
                )
            except Exception as exc:
                self._close_devices()
                raise ButtonsError(
                    f"{LABELS[button]} button on GPIO{pin}: cannot use the pin: "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
        self.pin_factory = self._devices[Button.NEXT].pin_factory
        held = [b for b, device in self._devices.items() if device.is_active]
        for button in held:
            log.warning(
                "buttons: %s (GPIO%d) reads pressed at start; ignored until released",
                LABELS[button], self._pins[button],
            )
        self._lock = threading.Lock()  # the recogniser: gpiozero's threads and ours
        self._recogniser = GestureRecogniser(
            self._pins,
            hold_s=config.hold_s,
            both_s=config.both_s,
            bounce_s=config.bounce_s,
            start=clock(),
            down_at_start=held,
        )
        self._closed = threading.Event()
        self._failures = 0
        # The value handed over is only "look again": the edges are in the recogniser.
        self._worker = NewestWorker[None]("erabox-buttons", self._step, again=Again.TIMER)
        for button, device in self._devices.items():
            device.when_activated = self._edge_callback(button, True)
            device.when_deactivated = self._edge_callback(button, False)
        self._worker.put(None)

    @property
    def fitted(self) -> tuple[Button, ...]:
        """The buttons that have a pin."""
        return tuple(self._pins)

    def pin_of(self, button: Button) -> int | None:
        """The BCM pin of `button`, None when not fitted."""
        return self._pins.get(button)

    # -- lifecycle --

    def close(self) -> None:
        """Stop the gesture thread and release the pins. Safe to call twice."""
        self._closed.set()
        self._worker.close(timeout=2.0)  # a deadline waiting is not fired early
        self._close_devices()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _close_devices(self) -> None:
        for device in self._devices.values():
            try:
                device.close()
            except Exception:  # closing is best effort; the pins die with the process anyway
                log.debug("buttons: error closing %r", device, exc_info=True)
        self._devices.clear()

    # -- threads --

    def _edge_callback(self, button: Button, down: bool) -> Callable[[], None]:
        """The gpiozero callback for one edge: record it and wake our thread, nothing else."""

        def on_edge() -> None:
            with self._lock:
                self._recogniser.edge(button, down, self._clock())
            self._worker.put(None)

        return on_edge

    def _step(self, _look_again: None) -> float | None:
        """Our one thread, woken by an edge or at the recogniser's deadline: hand out the
        gestures that are due; return the seconds until the next deadline (None: none)."""
        if self._closed.is_set():
            return None
        with self._lock:
            recognised = self._recogniser.advance(self._clock())
            chord = self._recogniser.chord_since
            chord_changed = chord != self._chord_reported
            self._chord_reported = chord
        if chord_changed and self._on_chord is not None:
            try:
                self._on_chord(chord)
            except Exception:
                log.exception("buttons: on_chord failed")
        for _, gesture in recognised:  # outside the lock: edges keep being recorded
            self._emit(gesture)
        with self._lock:  # after handing out: the deadline as it is now
            deadline = self._recogniser.next_deadline()
            return None if deadline is None else max(0.0, deadline - self._clock())

    def _emit(self, gesture: Input) -> None:
        log.debug("buttons: %s %s", gesture.button, gesture.gesture)
        try:
            self._on_input(gesture)
        except Exception:
            # A broken consumer must not kill the buttons; one traceback, then a count.
            self._failures += 1
            if self._failures == 1:
                log.exception("buttons: on_input failed for %s; further failures counted", gesture)
            else:
                log.debug("buttons: on_input failed again (%d failures)", self._failures)


class SimulatedButtons(Buttons):
    """`Buttons` on gpiozero's mock pins, which software can press like a finger (the
    `erabox.ports.SimulatedInput` port): the window's keys, the terminal's keys and `--script`
    lines go through gpiozero and the recogniser exactly as a real press does.

    The pins must be mock pins (`MockFactory`, `GPIOZERO_PIN_FACTORY=mock`): on real ones this
    raises `ButtonsError` and claims nothing.
    """

    def __init__(self, config: ButtonsConfig, on_input: Callable[[Input], None], *,
                 pin_factory: Any = None, clock: Callable[[], float] = time.monotonic,
                 on_chord: Callable[[float | None], None] | None = None) -> None:
        super().__init__(config, on_input, pin_factory=pin_factory, clock=clock,
                         on_chord=on_chord)
        from gpiozero.pins.mock import MockFactory

        if not isinstance(self.pin_factory, MockFactory):
            self.close()
            raise ButtonsError(
                f"cannot simulate a press: the buttons run on {type(self.pin_factory).__name__},"
                " not gpiozero's MockFactory (set GPIOZERO_PIN_FACTORY=mock to simulate)"
            )

    def pin_down(self, button: Button) -> None:
        """Pull the mock pin of `button` low, as a finger would (BOTH: NEXT and ERA)."""
        for pin in self._mock_pins(button):
            pin.drive_low()

    def pin_up(self, button: Button) -> None:
        """Let the mock pin of `button` go high again (BOTH: NEXT and ERA)."""
        for pin in self._mock_pins(button):
            pin.drive_high()

    def drive(self, button: Button, seconds: float) -> threading.Thread:
        """Hold the mock pin of `button` low now for `seconds` (in the background).

        Returns the started thread; `join()` it to wait for the release. `close()` releases
        early. Raises `ButtonsError` at once if the pins are not mock pins or not fitted.
        """
        pins = self._mock_pins(button)
        if not seconds >= 0:
            raise ValueError(f"seconds must be >= 0, got {seconds}")
        for pin in pins:
            pin.drive_low()

        def release_later() -> None:
            self._closed.wait(seconds)  # the stimulus: how long the finger stays down
            for pin in pins:
                pin.drive_high()

        thread = threading.Thread(target=release_later, name=f"erabox-drive-{button}",
                                  daemon=True)
        thread.start()
        return thread

    def perform(self, gesture: Input, held_s: float = 0.0) -> threading.Thread:
        """Act out a script gesture on the mock pins, as `erabox run --script` does (docs/run.md).

        press: pin low for 0.1 s; hold: low for `hold_s` + 0.1 s, or `held_s` past `hold_s`
        when longer (its release follows by itself: a `release` gesture drives nothing);
        both hold: NEXT and ERA low for `both_s` + 0.1 s; both press: NEXT and ERA low for
        0.1 s. Returns the thread that releases the pins.
        """
        if gesture.button is Button.BOTH:
            length = SCRIPT_PRESS_S if gesture.gesture is Gesture.PRESS else \
                self.config.both_s + SCRIPT_MARGIN_S
            return self.drive(Button.BOTH, length)
        if gesture.gesture is Gesture.RELEASE:  # the hold's own release comes by itself
            done = threading.Thread(target=lambda: None, name="erabox-release", daemon=True)
            done.start()
            return done
        if gesture.gesture is Gesture.PRESS:
            return self.drive(gesture.button, SCRIPT_PRESS_S)
        return self.drive(gesture.button, self.config.hold_s + max(SCRIPT_MARGIN_S, held_s))

    def _mock_pins(self, button: Button) -> list[Any]:
        wanted = CHORD if button is Button.BOTH else (button,)
        missing = [b for b in wanted if b not in self._devices]
        if missing:
            raise ButtonsError(f"the {LABELS[missing[0]]} button is not fitted (its pin is off)")
        return [self._devices[b].pin for b in wanted]


def act_out(gesture: Input, pins: SimulatedInput | None,
            post: Callable[[Input], None], held_s: float = 0.0) -> None:
    """Act out `gesture` on the simulated pins, so it goes through gpiozero like a finger;
    hand it over with `post` instead when there are none (the pins are real: software cannot
    push a real button) or the button is not fitted. `held_s`: how long a hold is kept on past
    its threshold. Used by `--script` and the terminal keys."""
    wanted = CHORD if gesture.button is Button.BOTH else (gesture.button,)
    if pins is not None and all(b in pins.fitted for b in wanted):
        pins.perform(gesture, held_s)
    else:
        post(gesture)
