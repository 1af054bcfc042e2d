"""The box's buttons (NEXT, ERA, optional VOL+/VOL-), optional dial and cue LED, on gpiozero.

Two layers:

* `GestureRecogniser` is pure: raw pin edges with timestamps in, gestures out
  (docs/behaviour.md). It debounces (a level counts only once it was stable for `bounce_s`)
  and decides press / hold / both. It reads no clock and starts no thread, so every timing rule
  is tested exactly.
* `Buttons` wires it to gpiozero `DigitalInputDevice`s (pulled up: pressed = active). Not
  gpiozero's `Button`: its hold timing is the recogniser's job, and each `Button` keeps a hold
  thread that wakes ten times a second. gpiozero's callbacks only record the edge (a few
  microseconds under a lock); one thread of ours (a `erabox.workers.NewestWorker` used as a
  timer: woken by an edge, or at the recogniser's next deadline) is the only caller of
  `on_input`, so gestures arrive in order and never on gpiozero's threads.

Gesture semantics (docs/behaviour.md, with the corner cases decided here):

* press: down, then released before `hold_s`; fires at the release.
* hold: still down `hold_s` after the press began; fires once, at the threshold; the release
  that follows fires nothing. Released exactly at the threshold counts as a hold.
* both: NEXT and ERA down together. From the moment the second of them goes down until BOTH
  are up again (a "chord"), neither fires a press or hold of its own. If they stay down together
  for `both_s`, `Input(BOTH, HOLD)` fires once; letting one go earlier cancels it (and still
  fires nothing else). A hold that fired before the second button went down has fired: the core
  sees e.g. NEXT hold (pause) and then, 3 s later, both.
* VOL+/VOL- behave like NEXT/ERA on their own (press, or hold at the threshold) and never take
  part in a chord; the core may treat a VOL hold like a press.
* Times are the pins' own: a press that began at t0 holds at t0 + hold_s, even though debounce
  only confirms it at t0 + bounce_s. Events are processed in the order they happened, so a
  release or second button that the debounce has not confirmed yet still comes before a hold
  threshold that falls just after it.
* A button that reads pressed when the box starts (held during boot, or stuck) is ignored
  until it is released, with one warning.

Pi platform notes:

* RPi.GPIO's edge detection fails on Bookworm kernels and on the Pi 5 ("Failed to add edge
  detection"), so the service runs gpiozero on lgpio (`GPIOZERO_PIN_FACTORY=lgpio`, package
  `lgpio` from the `pi` extra or `python3-lgpio`).
* gpiozero's own `bounce_time` means different things on different pin drivers (RPi.GPIO
  ignores every edge for a while after one edge, which can swallow a quick release; the mock
  driver ignores it), so it is left off and we debounce the same way on every driver.
* Without any pin library (a laptop) `default_pin_factory()` falls back to gpiozero's
  `MockFactory`; the window, keyboard and `--script` then drive the mock pins through
  `Buttons.pin_down` / `pin_up` / `drive`, so every press still goes through gpiozero.
"""

from __future__ import annotations

import logging
import math
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from erabox.core.config import ButtonsConfig
from erabox.core.model import Button, Gesture, Input
from erabox.ports import InputSource
from erabox.workers import Again, NewestWorker

log = logging.getLogger(__name__)

# How `erabox run --script` acts out a gesture on a pin (docs/run.md): a press is a short tap,
# a hold is kept down a little past the threshold so the threshold surely passes.
SCRIPT_PRESS_S = 0.1
SCRIPT_MARGIN_S = 0.1

# The two buttons that together make "both".
CHORD = (Button.NEXT, Button.ERA)

LABELS = {
    Button.NEXT: "NEXT",
    Button.ERA: "ERA",
    Button.VOL_UP: "VOL+",
    Button.VOL_DOWN: "VOL-",
}


class ButtonsError(RuntimeError):
    """A button or LED pin that cannot be used (missing, busy, or the wrong pin factory)."""


# --- the pure part: edges in, gestures out ------------------------------------------------------


@dataclass
class _Key:
    """One physical button: its raw pin level, its debounced level and its gesture progress."""

    raw_down: bool = False
    raw_since: float = 0.0  # time of the last raw edge
    down: bool = False  # debounced level
    down_since: float = 0.0  # when the debounced press began (its first stable edge)
    hold_fired: bool = False
    quiet: bool = False  # fires no press/hold of its own until released (chord, held at start)

    @property
    def settling(self) -> bool:
        """The raw level differs from the debounced one: a change waits for confirmation."""
        return self.raw_down != self.down


Recognised = tuple[float, Input]
"""A gesture and the pin time at which it happened."""


class GestureRecogniser:
    """Debounce raw button edges and turn them into gestures (docs/behaviour.md).
    Pure: no clock, no threads.

    Feed every raw level change with `edge()` in time order; call `advance(now)` to collect the
    gestures that are due, and wake again at `next_deadline()`. Times are seconds on any
    monotonic clock (the caller's). Not thread-safe: the caller serialises calls.
    """

    def __init__(
        self,
        buttons: Iterable[Button],
        *,
        hold_s: float,
        both_s: float,
        bounce_s: float,
        start: float = 0.0,
        down_at_start: Iterable[Button] = (),
    ) -> None:
        """Watch `buttons` (not BOTH). `down_at_start` are ignored until first released."""
        if not (hold_s > 0 and both_s > 0 and bounce_s >= 0):
            raise ValueError(
                f"gesture times must be hold_s > 0, both_s > 0, bounce_s >= 0; "
                f"got hold_s={hold_s}, both_s={both_s}, bounce_s={bounce_s}"
            )
        self.hold_s = hold_s
        self.both_s = both_s
        self.bounce_s = bounce_s
        self._keys: dict[Button, _Key] = {}
        for button in buttons:
            if button is Button.BOTH:
                raise ValueError("BOTH is a gesture of NEXT and ERA, not a button with a pin")
            self._keys[button] = _Key(raw_since=start, down_since=start)
        for button in down_at_start:
            key = self._keys[button]
            key.raw_down = key.down = key.quiet = True
        self._chord_since: float | None = None  # both NEXT and ERA down since then
        self._chord_fired = False  # BOTH fired in this chord (once per chord)
        self._now = start
        self._out: list[Recognised] = []

    @property
    def buttons(self) -> tuple[Button, ...]:
        """The buttons being watched."""
        return tuple(self._keys)

    def is_down(self, button: Button) -> bool:
        """The debounced level of `button`."""
        return self._keys[button].down

    @property
    def chord_since(self) -> float | None:
        """When NEXT and ERA went down together, while that hold is on its way to BOTH
        (None: no chord, or BOTH already fired). Lets a screen show the hold's progress."""
        return None if self._chord_fired else self._chord_since

    def edge(self, button: Button, down: bool, t: float) -> None:
        """A raw level change of `button` at time `t` (down = pressed = pin low).

        Everything due before `t` is settled first, so a late `advance` loses nothing. Times
        that go backwards (two callback threads racing for the lock) are clamped to the last
        one seen; repeated edges with the same level are ignored.
        """
        t = max(t, self._now)
        self._settle(t)
        key = self._keys[button]
        if key.raw_down != down:
            key.raw_down = down
            key.raw_since = t

    def advance(self, now: float) -> list[Recognised]:
        """Settle everything due up to `now`; return the gestures since the last call, in order."""
        self._settle(max(now, self._now))
        out, self._out = self._out, []
        return out

    def next_deadline(self) -> float | None:
        """When `advance` may next have something to do without a new edge (None: never)."""
        horizon = self._horizon(self._now)
        times = [key.raw_since + self.bounce_s for key in self._keys.values() if key.settling]
        times += [t for t, _ in self._thresholds() if t < horizon]
        return min(times, default=None)

    # -- internals --

    def _horizon(self, now: float) -> float:
        """When the earliest change still unconfirmed at `now` happened: later is not final."""
        return min(
            (k.raw_since for k in self._keys.values()
             if k.settling and k.raw_since + self.bounce_s > now),
            default=math.inf,
        )

    def _thresholds(self) -> list[tuple[float, Button | None]]:
        """Pending hold thresholds (per button) and the chord's BOTH threshold (None)."""
        due: list[tuple[float, Button | None]] = [
            (key.down_since + self.hold_s, button)
            for button, key in self._keys.items()
            if key.down and not key.hold_fired and not key.quiet
        ]
        if self._chord_since is not None and not self._chord_fired:
            due.append((self._chord_since + self.both_s, None))
        return due

    def _settle(self, now: float) -> None:
        """Process, in the order they happened, every confirmation and threshold due by `now`."""
        while True:
            # A level change is confirmed once stable for bounce_s; it happened at raw_since.
            # Order key 1 vs 0: a threshold at the very instant of a release comes first (a
            # release exactly at hold_s counts as a hold).
            candidates: list[tuple[float, int, Button | None]] = [
                (key.raw_since, 1, button)
                for button, key in self._keys.items()
                if key.settling and key.raw_since + self.bounce_s <= now
            ]
            # A threshold is only final when no still-unconfirmed change happened before it.
            horizon = self._horizon(now)
            candidates += [(t, 0, button) for t, button in self._thresholds()
                           if t <= now and t < horizon]
            if not candidates:
                break
            t, order, button = min(candidates, key=lambda item: (item[0], item[1]))
            if order == 1 and button is not None:
                self._confirm(button, t)
            elif button is None:
                self._chord_fired = True
                self._out.append((t, Input(Button.BOTH, Gesture.HOLD)))
            else:
                self._keys[button].hold_fired = True
                self._out.append((t, Input(button, Gesture.HOLD)))
        self._now = max(self._now, now)

    def _confirm(self, button: Button, t: float) -> None:
        """The raw level of `button` has been stable since `t`: it is now the real level."""
        key = self._keys[button]
        key.down = key.raw_down
        partner = self._partner(button)
        if key.down:
            key.down_since = t
            key.hold_fired = False
            if partner is not None and partner.down:
                # The second of NEXT/ERA went down: a chord, no single gestures from either.
                key.quiet = partner.quiet = True
                self._chord_since = t
            return
        if not key.quiet and not key.hold_fired:
            self._out.append((t, Input(button, Gesture.PRESS)))
        key.quiet = False
        if partner is not None:
            self._chord_since = None  # one let go: no BOTH from this chord (unless re-pressed)
            if not partner.down:
                self._chord_fired = False  # both up: the chord is over

    def _partner(self, button: Button) -> _Key | None:
        """The other half of the NEXT/ERA chord, if `button` is one half and both are fitted."""
        if button not in CHORD:
            return None
        other = CHORD[1] if button is CHORD[0] else CHORD[0]
        return self._keys.get(other)


# --- pin factories ----------------------------------------------------------------------------


class PinFactoryChoice(NamedTuple):
    """The gpiozero pin factory the box uses, and whether it is the mock (no real pins)."""

    factory: Any
    mock: bool
    name: str


def default_pin_factory() -> PinFactoryChoice:
    """gpiozero's default pin factory if one loads, else a `MockFactory` (laptop). Logs which.

    Honours `GPIOZERO_PIN_FACTORY` (the service sets `lgpio`: RPi.GPIO's edge detection fails on
    Bookworm kernels and the Pi 5). If no pin library works the box still runs, on mock pins
    driven by the window/keyboard/script, and the log says why. Unlike gpiozero's
    `Device.ensure_pin_factory()` this sets no global: the app passes the factory on.
    """
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always")
        try:
            # gpiozero's own choice (env var, then lgpio, RPi.GPIO, pigpio, native), without
            # storing it in the global Device.pin_factory.
            factory = Device._default_pin_factory()
            error = None
        except Exception as exc:  # BadPinFactory, or an import/driver error of the named one
            factory = None
            error = exc
    tried = "; ".join(str(w.message) for w in fallbacks)
    if factory is None:
        log.info("buttons: no GPIO pin library works, so simulated pins (normal off a Pi)")
        log.debug("buttons: why no pin library: %s (%s)", error, tried)
        factory = MockFactory()
    elif tried:
        log.info("buttons: pin factory fallbacks: %s", tried)
    mock = isinstance(factory, MockFactory)
    name = type(factory).__name__
    log.info("buttons: using gpiozero pin factory %s%s", name, " (simulated pins)" if mock else "")
    return PinFactoryChoice(factory, mock, name)


# --- the gpiozero wiring ----------------------------------------------------------------------


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

        from gpiozero.pins.mock import MockFactory

        self.mock = isinstance(self.pin_factory, MockFactory)
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

    # -- simulated presses (MockFactory only) --

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

    def perform(self, gesture: Input) -> threading.Thread:
        """Act out a script gesture on the mock pins, as `erabox run --script` does (docs/run.md).

        press: pin low for 0.1 s; hold: low for `hold_s` + 0.1 s; both hold: NEXT and ERA low
        for `both_s` + 0.1 s. Returns the thread that releases the pins.
        """
        if gesture.button is Button.BOTH:
            if gesture.gesture is not Gesture.HOLD:
                raise ValueError("'both' only takes 'hold'")
            return self.drive(Button.BOTH, self.config.both_s + SCRIPT_MARGIN_S)
        if gesture.gesture is Gesture.PRESS:
            return self.drive(gesture.button, SCRIPT_PRESS_S)
        return self.drive(gesture.button, self.config.hold_s + SCRIPT_MARGIN_S)

    def _mock_pins(self, button: Button) -> list[Any]:
        if not self.mock:
            raise ButtonsError(
                f"cannot simulate a press: the buttons run on {type(self.pin_factory).__name__},"
                " not gpiozero's MockFactory (set GPIOZERO_PIN_FACTORY=mock to simulate)"
            )
        wanted = CHORD if button is Button.BOTH else (button,)
        missing = [b for b in wanted if b not in self._devices]
        if missing:
            raise ButtonsError(f"the {LABELS[missing[0]]} button is not fitted (its pin is off)")
        return [self._devices[b].pin for b in wanted]

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


def act_out(gesture: Input, buttons: InputSource | None,
            post: Callable[[Input], None]) -> None:
    """Act out `gesture` on the simulated pins, so it goes through gpiozero like a finger;
    hand it over with `post` instead when the pins are real or the button is not fitted
    (software cannot push a real button). Used by `--script` and the terminal keys."""
    wanted = CHORD if gesture.button is Button.BOTH else (gesture.button,)
    if buttons is not None and buttons.mock and all(b in buttons.fitted for b in wanted):
        buttons.perform(gesture)
    else:
        post(gesture)


# --- the optional dial (rotary encoder) --------------------------------------------------------


class Dial:
    """The optional rotary encoder (hardware.md) as gpiozero's `RotaryEncoder`: each detent
    clockwise gives `Input(DIAL_UP, PRESS)`, anticlockwise `Input(DIAL_DOWN, PRESS)`, to
    `on_input` (the core counts them +1/-1 in the points entry).

    gpiozero decodes the quadrature (its state machine ignores contact bounce that does not
    complete a step) and calls us on its own pin threads; we only hand the input on (`on_input`
    should only queue it, as `Box.post` does). The encoder keeps no position: `max_steps=0`
    means it never clamps, so a detent past any count still fires.
    """

    def __init__(self, a_pin: int, b_pin: int, on_input: Callable[[Input], None], *,
                 pin_factory: Any = None) -> None:
        """Claim pins A and B (pulled up; C goes to GND). A busy/invalid pin raises
        `ButtonsError` naming both pins."""
        from gpiozero import RotaryEncoder

        self.pins = (a_pin, b_pin)
        self._on_input = on_input
        self._failures = 0
        try:
            self._encoder: Any = RotaryEncoder(a_pin, b_pin, max_steps=0,
                                               pin_factory=pin_factory)
        except Exception as exc:
            raise ButtonsError(
                f"dial (rotary encoder) on GPIO{a_pin}/GPIO{b_pin}: cannot use the pins: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        self._encoder.when_rotated_clockwise = self._up
        self._encoder.when_rotated_counter_clockwise = self._down
        log.info("dial: rotary encoder on GPIO%d (A) and GPIO%d (B)", a_pin, b_pin)

    def _up(self) -> None:
        self._emit(Input(Button.DIAL_UP, Gesture.PRESS))

    def _down(self) -> None:
        self._emit(Input(Button.DIAL_DOWN, Gesture.PRESS))

    def _emit(self, turn: Input) -> None:
        try:
            self._on_input(turn)
        except Exception:
            self._failures += 1
            if self._failures == 1:
                log.exception("dial: on_input failed for %s; further failures counted", turn)

    def close(self) -> None:
        """Release the pins. Safe to call twice."""
        if self._encoder is not None:
            try:
                self._encoder.close()
            except Exception:
                log.debug("dial: error closing", exc_info=True)
            self._encoder = None

    def __enter__(self) -> Dial:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_dial(config: ButtonsConfig, on_input: Callable[[Input], None], *,
              pin_factory: Any = None) -> Dial | None:
    """The dial of `config`, or None when it is not fitted (its pins are false): then no pin
    is claimed and nothing is created. The box works fully without it.

    A dial whose pins cannot be used is logged and left out (None): it only speeds up
    entering points, so the box goes on with its buttons.
    """
    if config.dial_a_pin is None or config.dial_b_pin is None:
        return None
    try:
        return Dial(config.dial_a_pin, config.dial_b_pin, on_input, pin_factory=pin_factory)
    except ButtonsError as exc:
        log.warning("%s; the box goes on without the dial", exc)
        return None


# --- the cue LED ------------------------------------------------------------------------------


class CueLed:
    """The optional cue LED: flashes with every gong and scholar cry. A no-op when not fitted."""

    def __init__(
        self,
        pin: int | None,
        *,
        pin_factory: Any = None,
        blinks: int = 3,
        on_s: float = 0.15,
        off_s: float = 0.15,
    ) -> None:
        """Claim `pin` as an output (None = no LED). A busy/invalid pin raises `ButtonsError`."""
        self.pin = pin
        self.blinks = blinks
        self.on_s = on_s
        self.off_s = off_s
        self._led: Any = None
        self._failed = False
        if pin is None:
            return
        from gpiozero import LED

        try:
            self._led = LED(pin, initial_value=False, pin_factory=pin_factory)
        except Exception as exc:
            raise ButtonsError(
                f"cue LED on GPIO{pin}: cannot use the pin: {type(exc).__name__}: {exc}"
            ) from exc

    @property
    def fitted(self) -> bool:
        """Whether there is an LED to flash."""
        return self._led is not None

    def flash(self) -> None:
        """Blink `blinks` times in the background (gpiozero's blink thread); returns at once.

        A flash during a flash starts over. A driver error is logged once and the box goes on.
        """
        if self._led is None:
            return
        try:
            self._led.blink(on_time=self.on_s, off_time=self.off_s, n=self.blinks,
                            background=True)
        except Exception:
            if not self._failed:
                self._failed = True
                log.exception("cue LED on GPIO%s failed; the box goes on without it", self.pin)

    def close(self) -> None:
        """Switch the LED off and release its pin. Safe to call twice."""
        if self._led is not None:
            try:
                self._led.close()
            except Exception:
                log.debug("cue LED: error closing", exc_info=True)
            self._led = None
