"""Buttons and cue LED: the pure gesture recogniser, then the real gpiozero code on mock pins.

The gpiozero tests drive gpiozero's `MockFactory` pins (`drive_low`/`drive_high`), so the real
`Button` code runs. To show that something did NOT fire, a sentinel press on another button is
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
from hypothesis import given, settings
from hypothesis import strategies as st

from erabox.adapters.buttons import (
    Buttons,
    ButtonsError,
    CueLed,
    GestureRecogniser,
    default_pin_factory,
)
from erabox.core.config import ButtonsConfig
from erabox.core.model import Button, Gesture, Input

NEXT, ERA, BOTH, UP, DOWN = Button.NEXT, Button.ERA, Button.BOTH, Button.VOL_UP, Button.VOL_DOWN
PRESS, HOLD = Gesture.PRESS, Gesture.HOLD

HOLD_S = 0.2
BOTH_S = 0.4
BOUNCE_S = 0.02
WAIT_S = 5.0  # generous: a shared, noisy machine


# --- the pure recogniser ------------------------------------------------------------------------


def recogniser(**kw: float) -> GestureRecogniser:
    times = {"hold_s": 0.8, "both_s": 3.0, "bounce_s": 0.02} | kw
    return GestureRecogniser([NEXT, ERA, UP, DOWN], **times)


def run(r: GestureRecogniser, edges: list[tuple[float, Button, bool]],
        until: float) -> list[tuple[float, Input]]:
    """Feed edges (time, button, down) and settle up to `until`."""
    for t, button, down in edges:
        r.edge(button, down, t)
    return r.advance(until)


def tap(button: Button, start: float, length: float) -> list[tuple[float, Button, bool]]:
    return [(start, button, True), (start + length, button, False)]


def test_press_fires_at_release() -> None:
    out = run(recogniser(), tap(NEXT, 1.0, 0.1), until=5.0)
    assert out == [(1.1, Input(NEXT, PRESS))]


def test_press_is_not_reported_before_the_release_is_confirmed() -> None:
    r = recogniser()
    r.edge(NEXT, True, 1.0)
    r.edge(NEXT, False, 1.1)
    assert r.advance(1.11) == []  # release not yet stable for 20 ms
    assert r.next_deadline() == pytest.approx(1.12)
    assert r.advance(1.12) == [(1.1, Input(NEXT, PRESS))]


def test_hold_fires_once_at_threshold_and_not_on_release() -> None:
    r = recogniser()
    r.edge(ERA, True, 2.0)
    assert r.advance(2.5) == []
    assert r.next_deadline() == pytest.approx(2.8)
    assert r.advance(2.8) == [(2.8, Input(ERA, HOLD))]
    r.edge(ERA, False, 4.0)
    assert r.advance(10.0) == []
    assert r.next_deadline() is None


def test_release_exactly_at_the_hold_time_is_a_hold() -> None:
    out = run(recogniser(hold_s=0.5, bounce_s=0.0), tap(NEXT, 0.0, 0.5), until=1.0)
    assert out == [(0.5, Input(NEXT, HOLD))]


def test_release_just_before_threshold_is_a_press_though_confirmed_after_it() -> None:
    # Released 5 ms before the threshold; debounce confirms it 15 ms after: still a press.
    out = run(recogniser(), tap(NEXT, 0.0, 0.795), until=2.0)
    assert out == [(0.795, Input(NEXT, PRESS))]


def test_five_ms_glitch_is_nothing() -> None:
    r = recogniser()
    out = run(r, tap(NEXT, 1.0, 0.005), until=5.0)
    assert out == []
    assert not r.is_down(NEXT)


def test_bouncy_press_is_one_press() -> None:
    edges = []
    t = 1.0
    for length in (0.001, 0.002, 0.001):  # contact chatter going down
        edges += tap(NEXT, t, length)
        t += length + 0.001
    edges.append((t, NEXT, True))
    t += 0.150
    edges.append((t, NEXT, False))
    for length in (0.002, 0.001):  # and coming up
        edges += tap(NEXT, t + 0.001, length)
        t += length + 0.001
    out = run(recogniser(), edges, until=5.0)
    assert [g for _, g in out] == [Input(NEXT, PRESS)]


def test_both_fires_once_and_suppresses_single_gestures() -> None:
    r = recogniser()
    edges = [(0.0, NEXT, True), (0.3, ERA, True), (5.0, ERA, False), (5.2, NEXT, False)]
    assert run(r, edges, until=9.0) == [(3.3, Input(BOTH, HOLD))]


def test_both_let_go_early_fires_nothing_at_all() -> None:
    edges = [(0.0, ERA, True), (0.1, NEXT, True), (1.0, NEXT, False), (2.0, ERA, False)]
    assert run(recogniser(), edges, until=9.0) == []


def test_hold_that_fired_before_the_second_button_stays_fired() -> None:
    edges = [(0.0, NEXT, True), (1.0, ERA, True), (4.5, NEXT, False), (4.6, ERA, False)]
    out = run(recogniser(), edges, until=9.0)
    assert out == [(0.8, Input(NEXT, HOLD)), (4.0, Input(BOTH, HOLD))]


def test_second_button_down_just_before_threshold_blocks_the_hold() -> None:
    # ERA goes down 10 ms before NEXT's hold threshold; debounce confirms it 10 ms after.
    r = recogniser()
    r.edge(NEXT, True, 0.0)
    r.edge(ERA, True, 0.79)
    assert r.advance(0.805) == []  # threshold passed, but ERA's edge before it is unsettled
    assert r.next_deadline() == pytest.approx(0.81)
    assert r.advance(0.81) == []
    r.edge(ERA, False, 1.0)
    r.edge(NEXT, False, 1.1)
    assert r.advance(9.0) == []


def test_chord_fires_once_even_if_re_pressed() -> None:
    edges = [(0.0, NEXT, True), (0.1, ERA, True), (3.5, ERA, False), (3.7, ERA, True),
             (7.0, ERA, False), (7.1, NEXT, False)]
    out = run(recogniser(), edges, until=9.0)
    assert out == [(3.1, Input(BOTH, HOLD))]


def test_each_new_chord_can_fire_both_again() -> None:
    first = [(0.0, NEXT, True), (0.1, ERA, True), (3.5, ERA, False), (3.6, NEXT, False)]
    second = [(t + 10.0, b, d) for t, b, d in first]
    out = run(recogniser(), first + second, until=20.0)
    assert out == [(3.1, Input(BOTH, HOLD)), (13.1, Input(BOTH, HOLD))]


def test_released_half_of_a_chord_is_free_again_after_both_are_up() -> None:
    edges = [(0.0, NEXT, True), (0.1, ERA, True), (0.5, ERA, False), (0.6, NEXT, False),
             *tap(ERA, 1.0, 0.1)]
    assert run(recogniser(), edges, until=9.0) == [(1.1, Input(ERA, PRESS))]


def test_volume_buttons_press_and_hold_and_take_no_part_in_chords() -> None:
    edges = [(0.0, NEXT, True), *tap(UP, 0.1, 0.1), (0.3, DOWN, True), (1.5, DOWN, False),
             (2.0, NEXT, False)]
    out = run(recogniser(), edges, until=9.0)
    assert out == [(0.2, Input(UP, PRESS)), (0.8, Input(NEXT, HOLD)), (1.1, Input(DOWN, HOLD))]


def test_button_down_at_start_is_ignored_until_released() -> None:
    r = GestureRecogniser([NEXT, ERA], hold_s=0.8, both_s=3, bounce_s=0.02, start=0.0,
                          down_at_start=[NEXT])
    assert r.next_deadline() is None  # no hold for a stuck button
    out = run(r, [(5.0, NEXT, False), *tap(NEXT, 6.0, 0.1)], until=9.0)
    assert out == [(6.1, Input(NEXT, PRESS))]


def test_zero_bounce_confirms_at_once() -> None:
    out = run(recogniser(bounce_s=0.0), tap(NEXT, 1.0, 0.001), until=1.001)
    assert out == [(1.001, Input(NEXT, PRESS))]


def test_times_going_backwards_are_clamped_not_fatal() -> None:
    r = recogniser()
    r.edge(NEXT, True, 1.0)
    r.edge(NEXT, False, 0.9)  # racing callback threads
    r.edge(NEXT, True, 1.2)
    r.edge(NEXT, False, 1.3)
    assert [g for _, g in r.advance(2.0)] == [Input(NEXT, PRESS)]


@pytest.mark.parametrize("kw", [{"hold_s": 0}, {"both_s": -1}, {"bounce_s": -0.1}])
def test_bad_times_are_rejected(kw: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="gesture times"):
        recogniser(**kw)


def test_both_is_not_a_pin() -> None:
    with pytest.raises(ValueError, match="BOTH"):
        GestureRecogniser([NEXT, BOTH], hold_s=1, both_s=3, bounce_s=0)


# Random edge streams: when `advance` is called must not change what is recognised.
edge_streams = st.lists(
    st.tuples(st.sampled_from([NEXT, ERA, UP]),
              st.floats(min_value=0.0005, max_value=1.5, allow_nan=False)),
    max_size=40,
)


def timed_edges(stream: list[tuple[Button, float]]) -> list[tuple[float, Button, bool]]:
    """Turn (button, gap) pairs into edges that toggle that button."""
    level = {b: False for b in (NEXT, ERA, UP)}
    t, edges = 0.0, []
    for button, gap in stream:
        t += gap
        level[button] = not level[button]
        edges.append((t, button, level[button]))
    return edges


@settings(max_examples=300, deadline=None)
@given(edge_streams, st.lists(st.floats(min_value=0, max_value=1), max_size=40))
def test_result_does_not_depend_on_when_advance_runs(
    stream: list[tuple[Button, float]], polls: list[float]
) -> None:
    edges = timed_edges(stream)
    end = (edges[-1][0] if edges else 0.0) + 10.0
    reference = run(recogniser(hold_s=0.3, both_s=1.0), edges, until=end)

    r = recogniser(hold_s=0.3, both_s=1.0)
    got: list[tuple[float, Input]] = []
    polls = polls + [0.0] * len(edges)
    for i, (t, button, down) in enumerate(edges):
        got += r.advance(t * polls[i])  # poll somewhere before the edge, possibly long before
        r.edge(button, down, t)
        # Sometimes also wake at the deadline, as the thread does, if it comes before the next
        # edge (a real clock never runs ahead of an edge still to come).
        next_edge = edges[i + 1][0] if i + 1 < len(edges) else end
        deadline = r.next_deadline()
        if deadline is not None and deadline <= next_edge and polls[i] > 0.5:
            got += r.advance(deadline)
    got += r.advance(end)
    assert got == reference
    assert [t for t, _ in got] == sorted(t for t, _ in got)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(min_value=0.03, max_value=2.0),
                          st.lists(st.floats(min_value=0.0005, max_value=0.009), max_size=4)),
                min_size=1, max_size=8))
def test_chattering_presses_give_one_gesture_each(
    presses: list[tuple[float, list[float]]]
) -> None:
    """Each press (length, chatter pulses < debounce) is one press or one hold, by its length.

    The debounced press lasts from its last chattering down edge to its last up edge.
    """
    hold_s = 0.5
    edges: list[tuple[float, Button, bool]] = []
    expected: list[Input] = []
    t = 0.0
    for length, chatter in presses:
        for pulse in chatter:  # chatter before the press settles
            edges += tap(NEXT, t, pulse)
            t += pulse + 0.0005
        edges.append((t, NEXT, True))
        down_at = t
        t += length
        edges.append((t, NEXT, False))
        for pulse in chatter:  # and when letting go: brief re-contacts
            t += 0.0005
            edges += tap(NEXT, t, pulse)
            t += pulse
        if abs(t - down_at - hold_s) < 1e-6:
            return  # a float tie at the threshold says nothing
        expected.append(Input(NEXT, HOLD if t - down_at >= hold_s else PRESS))
        t += 0.05  # rest between presses, longer than the debounce
    out = run(recogniser(hold_s=hold_s, bounce_s=0.02), edges, until=t + 5)
    assert [g for _, g in out] == expected


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
def buttons(factory: MockFactory, inputs: Inputs, clock: PinClock) -> Iterator[Buttons]:
    box = Buttons(CONFIG, inputs, pin_factory=factory, clock=clock)
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


def test_press_is_one_press_at_release(factory: MockFactory, buttons: Buttons,
                                       inputs: Inputs) -> None:
    p = pin(factory, 17)
    hold_pin(p, 0.1)
    released = time.monotonic()
    arrived, gesture = inputs.next()
    assert gesture == Input(NEXT, PRESS)
    assert arrived >= released  # fires on release, not before
    sentinel(factory, 27)
    assert inputs.until_sentinel(ERA) == []


def test_hold_fires_at_threshold_and_not_on_release(factory: MockFactory, buttons: Buttons,
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


def test_both_is_exactly_one_both(factory: MockFactory, buttons: Buttons,
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


def test_five_ms_glitch_on_the_pin_is_nothing(factory: MockFactory, buttons: Buttons,
                                               inputs: Inputs, clock: PinClock) -> None:
    clock.edges(pin(factory, 17), [0.005])  # 5 ms on the buttons' clock, however busy
    sentinel(factory, 27)
    assert inputs.until_sentinel(ERA) == []


def test_bouncy_press_on_the_pin_is_exactly_one_press(factory: MockFactory, buttons: Buttons,
                                                      inputs: Inputs, clock: PinClock) -> None:
    # bounces of 1-2 ms, the press itself (0.15 s: under the hold time), bounces on release
    clock.edges(pin(factory, 27), [0.001, 0.001, 0.002, 0.001, 0.001, 0.001,
                                   0.15, 0.001, 0.002, 0.001, 0.001])
    sentinel(factory, 17)
    assert inputs.until_sentinel(NEXT) == [Input(ERA, PRESS)]


def test_volume_buttons(factory: MockFactory, buttons: Buttons, inputs: Inputs) -> None:
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
    with Buttons(config, inputs, pin_factory=factory) as box:
        assert box.fitted == (NEXT, ERA)
        assert box.pin_of(UP) is None
        other = GpioButton(22, pin_factory=factory)  # free for someone else
        other.close()
        with pytest.raises(ButtonsError, match="VOL\\+ button is not fitted"):
            box.pin_down(UP)
        hold_pin(pin(factory, 17), 0.05)
        assert inputs.next()[1] == Input(NEXT, PRESS)


def test_gestures_arrive_on_our_thread_only(factory: MockFactory, buttons: Buttons,
                                            inputs: Inputs) -> None:
    hold_pin(pin(factory, 17), 0.05)
    hold_pin(pin(factory, 27), HOLD_S + 0.05)
    assert [inputs.next()[1] for _ in range(2)] == [Input(NEXT, PRESS), Input(ERA, HOLD)]
    assert inputs.threads == {"erabox-buttons"}


@pytest.mark.parametrize("gesture", [Input(NEXT, PRESS), Input(ERA, HOLD), Input(BOTH, HOLD),
                                     Input(DOWN, PRESS)])
def test_perform_acts_out_a_script_gesture(buttons: Buttons, inputs: Inputs,
                                           gesture: Input) -> None:
    buttons.perform(gesture).join(timeout=WAIT_S)
    assert inputs.next()[1] == gesture


def test_pin_down_and_up_drive_the_mock_pin(factory: MockFactory, buttons: Buttons,
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
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-driver")
    with caplog.at_level(logging.DEBUG, logger="erabox.adapters.buttons"):
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


def test_default_pin_factory_honours_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    saved = Device.pin_factory
    choice = default_pin_factory()
    assert choice.mock and choice.name == "MockFactory"
    assert Device.pin_factory is saved  # no global set behind the app's back
    choice.factory.close()


def test_the_buttons_run_no_polling_threads_of_gpiozero(buttons: Buttons) -> None:
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
