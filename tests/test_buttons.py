"""Buttons and cue LED: the real gpiozero code on mock pins (the pure gesture recogniser has
its own tests, tests/test_gestures.py).

The tests drive gpiozero's `MockFactory` pins (`drive_low`/`drive_high`), so the real
input-device code runs. To show that something did NOT fire, a sentinel press on another button is
made afterwards: gestures come out in the order they happened, so anything unwanted would arrive
before the sentinel. Short glitches are timed by the mock pin's own state log; a sample the
machine stretched past the debounce time is redone rather than misjudged.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero import Button as GpioButton
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin

from erabox.adapters.buttons import Buttons, SimulatedButtons
from erabox.adapters.cue_led import CueLed
from erabox.adapters.pins import ButtonsError, default_pin_factory, load_pin_factory
from erabox.core.config import ButtonsConfig
from erabox.core.model import Button, Gesture, Input

NEXT, ERA, BOTH, UP, DOWN = Button.NEXT, Button.ERA, Button.BOTH, Button.VOL_UP, Button.VOL_DOWN
PRESS, HOLD = Gesture.PRESS, Gesture.HOLD

HOLD_S = 0.2
BOTH_S = 0.4
BOUNCE_S = 0.02
WAIT_S = 5.0  # generous: a shared, noisy machine


# --- gpiozero on mock pins ----------------------------------------------------------------------

CONFIG = ButtonsConfig(next_pin=17, era_pin=27, vol_up_pin=22, vol_down_pin=23, led_pin=24,
                       hold_s=HOLD_S, both_s=BOTH_S, bounce_s=BOUNCE_S)


class Inputs:
    """What `on_input` received, with the monotonic time it arrived."""

    def __init__(self) -> None:
        self.queue: queue.Queue[tuple[float, Input]] = queue.Queue()
        self.threads: set[str] = set()

    def __call__(self, gesture: Input) -> None:
        self.threads.add(threading.current_thread().name)
        self.queue.put((time.monotonic(), gesture))

    def next(self) -> tuple[float, Input]:
        return self.queue.get(timeout=WAIT_S)

    def until_sentinel(self, button: Button) -> list[Input]:
        """Every gesture before the sentinel press of `button` (see `sentinel`)."""
        seen = []
        while True:
            _, gesture = self.next()
            if gesture.button is button:
                return seen
            seen.append(gesture)


@pytest.fixture
def inputs() -> Inputs:
    return Inputs()


class PinClock:
    """The buttons' clock: the real one, unless a test holds it to time edges exactly (a
    `time.sleep(0.005)` lasts 30 ms on a loaded machine: a glitch would become a press, and a
    0.15 s press a hold)."""

    def __init__(self) -> None:
        self.held: float | None = None

    def __call__(self) -> float:
        return time.monotonic() if self.held is None else self.held

    def edges(self, p: MockPin, lengths: list[float]) -> None:
        """Drive `p` low and high in turn (starting low), each level lasting the given seconds
        on this clock, then let the clock go (after the real one has caught up: it must never
        go back)."""
        self.held = time.monotonic()
        for index, length in enumerate(lengths):
            if index % 2 == 0:
                p.drive_low()
            else:
                p.drive_high()
            self.held += length
        if len(lengths) % 2 == 1:
            p.drive_high()
        while time.monotonic() < self.held:
            time.sleep(self.held - time.monotonic())  # not a wait for anything: see above
        self.held = None


@pytest.fixture
def clock() -> PinClock:
    return PinClock()


@pytest.fixture
def buttons(factory: MockFactory, inputs: Inputs, clock: PinClock) -> Iterator[SimulatedButtons]:
    box = SimulatedButtons(CONFIG, inputs, pin_factory=factory, clock=clock)
    yield box
    box.close()


def pin(factory: MockFactory, number: int) -> MockPin:
    return factory.pin(number)


def hold_pin(p: MockPin, seconds: float) -> None:
    """The stimulus: a finger on the button for `seconds`."""
    p.drive_low()
    time.sleep(seconds)
    p.drive_high()


def sentinel(factory: MockFactory, number: int) -> None:
    """A plain press on another button: anything unwanted before it would show up first."""
    hold_pin(pin(factory, number), 0.05)


def test_press_is_one_press_at_release(factory: MockFactory, buttons: SimulatedButtons,
                                       inputs: Inputs) -> None:
    p = pin(factory, 17)
    hold_pin(p, 0.1)
    released = time.monotonic()
    arrived, gesture = inputs.next()
    assert gesture == Input(NEXT, PRESS)
    assert arrived >= released  # fires on release, not before
    sentinel(factory, 27)
    assert inputs.until_sentinel(ERA) == []


def test_hold_fires_at_threshold_and_not_on_release(factory: MockFactory, buttons: SimulatedButtons,
                                                    inputs: Inputs) -> None:
    p = pin(factory, 27)
    p.drive_low()
    pressed = time.monotonic()
    arrived, gesture = inputs.next()  # while still held down
    assert gesture == Input(ERA, HOLD)
    assert HOLD_S - 0.005 <= arrived - pressed < HOLD_S + 1.0  # loose: shared machine
    time.sleep(0.1)
    p.drive_high()
    sentinel(factory, 17)
    assert inputs.until_sentinel(NEXT) == []


def test_both_is_exactly_one_both(factory: MockFactory, buttons: SimulatedButtons,
                                  inputs: Inputs) -> None:
    next_pin, era_pin = pin(factory, 17), pin(factory, 27)
    next_pin.drive_low()
    time.sleep(0.05)
    era_pin.drive_low()
    _, gesture = inputs.next()
    assert gesture == Input(BOTH, HOLD)
    time.sleep(0.1)
    era_pin.drive_high()
    time.sleep(0.05)
    next_pin.drive_high()
    sentinel(factory, 22)
    assert inputs.until_sentinel(UP) == []


def test_five_ms_glitch_on_the_pin_is_nothing(factory: MockFactory, buttons: SimulatedButtons,
                                               inputs: Inputs, clock: PinClock) -> None:
    clock.edges(pin(factory, 17), [0.005])  # 5 ms on the buttons' clock, however busy
    sentinel(factory, 27)
    assert inputs.until_sentinel(ERA) == []


def test_bouncy_press_on_the_pin_is_exactly_one_press(
        factory: MockFactory, buttons: SimulatedButtons, inputs: Inputs, clock: PinClock) -> None:
    # bounces of 1-2 ms, the press itself (0.15 s: under the hold time), bounces on release
    clock.edges(pin(factory, 27), [0.001, 0.001, 0.002, 0.001, 0.001, 0.001,
                                   0.15, 0.001, 0.002, 0.001, 0.001])
    sentinel(factory, 17)
    assert inputs.until_sentinel(NEXT) == [Input(ERA, PRESS)]


def test_volume_buttons(factory: MockFactory, buttons: SimulatedButtons, inputs: Inputs) -> None:
    hold_pin(pin(factory, 22), 0.05)
    assert inputs.next()[1] == Input(UP, PRESS)
    hold_pin(pin(factory, 23), HOLD_S + 0.1)
    assert inputs.next()[1] == Input(DOWN, HOLD)
    # A volume button under a NEXT+ERA chord still works and does not break the chord.
    buttons.pin_down(BOTH)
    hold_pin(pin(factory, 22), 0.05)
    assert inputs.next()[1] == Input(UP, PRESS)
    assert inputs.next()[1] == Input(BOTH, HOLD)
    buttons.pin_up(BOTH)


def test_absent_volume_pins_are_not_claimed(factory: MockFactory, inputs: Inputs) -> None:
    config = ButtonsConfig(next_pin=17, era_pin=27, vol_up_pin=None, vol_down_pin=None,
                           led_pin=None, hold_s=HOLD_S, both_s=BOTH_S, bounce_s=BOUNCE_S)
    with SimulatedButtons(config, inputs, pin_factory=factory) as box:
        assert box.fitted == (NEXT, ERA)
        assert box.pin_of(UP) is None
        other = GpioButton(22, pin_factory=factory)  # free for someone else
        other.close()
        with pytest.raises(ButtonsError, match="VOL\\+ button is not fitted"):
            box.pin_down(UP)
        hold_pin(pin(factory, 17), 0.05)
        assert inputs.next()[1] == Input(NEXT, PRESS)


def test_gestures_arrive_on_our_thread_only(factory: MockFactory, buttons: SimulatedButtons,
                                            inputs: Inputs) -> None:
    hold_pin(pin(factory, 17), 0.05)
    hold_pin(pin(factory, 27), HOLD_S + 0.05)
    assert [inputs.next()[1] for _ in range(2)] == [Input(NEXT, PRESS), Input(ERA, HOLD)]
    assert inputs.threads == {"erabox-buttons"}


@pytest.mark.parametrize("gesture", [Input(NEXT, PRESS), Input(ERA, HOLD), Input(BOTH, HOLD),
                                     Input(DOWN, PRESS)])
def test_perform_acts_out_a_script_gesture(buttons: SimulatedButtons, inputs: Inputs,
                                           gesture: Input) -> None:
    buttons.perform(gesture).join(timeout=WAIT_S)
    assert inputs.next()[1] == gesture


def test_pin_down_and_up_drive_the_mock_pin(factory: MockFactory, buttons: SimulatedButtons,
                                            inputs: Inputs) -> None:
    buttons.pin_down(ERA)
    assert pin(factory, 27).state == 0  # really pulled low: what the gpiozero Button reads
    time.sleep(0.05)
    buttons.pin_up(ERA)
    assert pin(factory, 27).state == 1
    assert inputs.next()[1] == Input(ERA, PRESS)


def test_busy_pin_is_a_clear_error_and_claims_nothing(factory: MockFactory,
                                                      inputs: Inputs) -> None:
    squatter = GpioButton(27, pin_factory=factory)
    with pytest.raises(ButtonsError, match=r"ERA button on GPIO27: cannot use the pin"):
        Buttons(CONFIG, inputs, pin_factory=factory)
    squatter.close()
    GpioButton(17, pin_factory=factory).close()  # NEXT, claimed before ERA failed, was released


def test_invalid_pin_is_a_clear_error(factory: MockFactory, inputs: Inputs) -> None:
    config = ButtonsConfig(next_pin=45, era_pin=27)
    with pytest.raises(ButtonsError, match=r"NEXT button on GPIO45"):
        Buttons(config, inputs, pin_factory=factory)


def test_close_releases_pins_and_stops_the_thread(factory: MockFactory,
                                                  inputs: Inputs) -> None:
    box = Buttons(CONFIG, inputs, pin_factory=factory)
    box.close()
    box.close()
    assert "erabox-buttons" not in {t.name for t in threading.enumerate()}
    for number in (17, 27, 22, 23):
        GpioButton(number, pin_factory=factory).close()


def test_a_failing_consumer_is_logged_once_and_buttons_go_on(
    factory: MockFactory, caplog: pytest.LogCaptureFixture
) -> None:
    received: queue.Queue[Input] = queue.Queue()

    def broken(gesture: Input) -> None:
        received.put(gesture)
        raise RuntimeError("queue full")

    with caplog.at_level(logging.DEBUG, logger="erabox.adapters.buttons"), \
            Buttons(CONFIG, broken, pin_factory=factory):
        for _ in range(3):
            hold_pin(pin(factory, 17), 0.05)
            assert received.get(timeout=WAIT_S) == Input(NEXT, PRESS)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1
    assert errors[0].exc_info is not None


# --- cue LED ------------------------------------------------------------------------------------


def wait_for(condition: Callable[[], bool], timeout: float = WAIT_S) -> bool:
    """Wait for a condition with a generous timeout, checking it every few milliseconds."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.005)
    return True


def test_cue_led_flashes_three_times(factory: MockFactory) -> None:
    led = CueLed(24, pin_factory=factory, blinks=3, on_s=0.02, off_s=0.02)
    p = pin(factory, 24)
    p.clear_states()
    led.flash()  # returns at once: gpiozero's blink thread does the blinking
    assert wait_for(lambda: len(p.states) >= 7)
    levels = [s.state for s in p.states]
    assert levels[:7] == [False, True, False, True, False, True, False]
    assert wait_for(lambda: p.state == 0)
    led.close()
    GpioButton(24, pin_factory=factory).close()  # pin released


def test_cue_led_not_fitted_is_a_no_op(factory: MockFactory) -> None:
    led = CueLed(None, pin_factory=factory)
    assert not led.fitted
    led.flash()
    led.close()
    assert factory.pins == {}


def test_cue_led_busy_pin_is_a_clear_error(factory: MockFactory) -> None:
    squatter = GpioButton(24, pin_factory=factory)
    with pytest.raises(ButtonsError, match="cue LED on GPIO24"):
        CueLed(24, pin_factory=factory)
    squatter.close()


# --- choosing a pin factory ---------------------------------------------------------------------


def test_default_pin_factory_falls_back_to_mock_and_says_so(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import erabox.adapters.pins as pins

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(pins, "DEFAULT_ORDER", ("no-such-driver",))
    with caplog.at_level(logging.DEBUG, logger="erabox.adapters.pins"):
        choice = default_pin_factory()
    assert choice.mock
    assert isinstance(choice.factory, MockFactory)
    # Off a Pi this is the normal case: one short INFO line, no warning; the why is for debug.
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert [m for level, m in said if level >= logging.WARNING] == []
    (failed,) = [m for level, m in said if level == logging.INFO and "simulated pins" in m
                 and "no GPIO pin library" in m]
    assert len(failed) < 100
    assert any(level == logging.DEBUG and "no-such-driver" in m for level, m in said)
    choice.factory.close()


def test_a_pin_factory_asked_for_by_name_that_fails_is_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-driver")
    with caplog.at_level(logging.INFO, logger="erabox.adapters.pins"):
        choice = default_pin_factory()
    assert choice.mock
    assert any(r.levelno == logging.WARNING and "no-such-driver" in r.getMessage()
               and "simulated" in r.getMessage() for r in caplog.records)
    choice.factory.close()


def test_default_pin_factory_honours_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    saved = Device.pin_factory
    choice = default_pin_factory()
    assert choice.mock and choice.name == "MockFactory"
    assert Device.pin_factory is saved  # no global set behind the app's back
    choice.factory.close()


def test_the_buttons_run_no_polling_threads_of_gpiozero(buttons: SimulatedButtons) -> None:
    """gpiozero's `Button` keeps a hold thread per pin that wakes ten times a second; the box
    times holds in its recogniser, so its pins are plain input devices and the only thread the
    buttons add is the one that sleeps until the recogniser's next deadline."""
    from gpiozero.mixins import HoldThread

    assert buttons.fitted and all(
        pin_of is not None for pin_of in map(buttons.pin_of, buttons.fitted))
    assert [t for t in threading.enumerate() if isinstance(t, HoldThread)] == []
    holder = GpioButton(5, pin_factory=buttons.pin_factory)  # what the check would catch
    try:
        assert [t for t in threading.enumerate() if isinstance(t, HoldThread)] != []
    finally:
        holder.close()


def test_a_pin_factory_is_found_by_its_name_in_any_case() -> None:
    factory = load_pin_factory("Mock")  # GPIOZERO_PIN_FACTORY is read case-insensitively
    assert isinstance(factory, MockFactory)
    factory.close()
    with pytest.raises(LookupError, match="no-such-driver"):
        load_pin_factory("no-such-driver")


def test_the_pin_factory_is_chosen_without_gpiozeros_private_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def private(*_: object) -> None:
        raise AssertionError("gpiozero's private Device._default_pin_factory was called")

    monkeypatch.setattr(Device, "_default_pin_factory", private)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    choice = default_pin_factory()
    assert choice.mock
    choice.factory.close()
