"""The optional dial (rotary encoder): gpiozero's real `RotaryEncoder` on MockFactory pins.

The two mock pins are driven through the quadrature sequence an EC11-type encoder makes at one
detent (pins pulled up, a contact closing pulls its pin low). gpiozero's mock pins call their
edge callbacks on the thread that drives them, so every turn has been posted when the drive
returns: the tests need no waiting.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest
from gpiozero import InputDevice
from gpiozero.pins.mock import MockFactory, MockPin

from erabox.adapters.dial import Dial, open_dial
from erabox.adapters.pins import ButtonsError
from erabox.core.config import ButtonsConfig, parse_config
from erabox.core.model import Button, Gesture, Input

A_PIN, B_PIN = 5, 6
UP = Input(Button.DIAL_UP, Gesture.PRESS)
DOWN = Input(Button.DIAL_DOWN, Gesture.PRESS)
FITTED = ButtonsConfig(dial_a_pin=A_PIN, dial_b_pin=B_PIN)


def detent(factory: MockFactory, clockwise: bool) -> None:
    """One detent of the knob: the leading contact closes, then the other, then the leading
    one opens, then the other (A leads clockwise, B leads anticlockwise)."""
    first: MockPin = factory.pin(A_PIN if clockwise else B_PIN)
    second: MockPin = factory.pin(B_PIN if clockwise else A_PIN)
    first.drive_low()
    second.drive_low()
    first.drive_high()
    second.drive_high()


def test_a_clockwise_detent_posts_dial_up_and_anticlockwise_dial_down(
        factory: MockFactory) -> None:
    posted: list[Input] = []
    dial = open_dial(FITTED, posted.append, pin_factory=factory)
    assert isinstance(dial, Dial)
    with dial:
        detent(factory, clockwise=True)
        assert posted == [UP]
        detent(factory, clockwise=False)
        assert posted == [UP, DOWN]


def test_every_detent_counts_past_any_limit(factory: MockFactory) -> None:
    """gpiozero's encoder clamps its position at max_steps (16 by default); the dial keeps no
    position, so the 40th detent one way still posts."""
    posted: list[Input] = []
    with Dial(A_PIN, B_PIN, posted.append, pin_factory=factory):
        for _ in range(40):
            detent(factory, clockwise=True)
        for _ in range(3):
            detent(factory, clockwise=False)
    assert posted == [UP] * 40 + [DOWN] * 3


def test_a_contact_that_bounces_without_completing_a_step_posts_nothing(
        factory: MockFactory) -> None:
    posted: list[Input] = []
    a, b = factory.pin(A_PIN), factory.pin(B_PIN)
    with Dial(A_PIN, B_PIN, posted.append, pin_factory=factory):
        for _ in range(5):  # A chatters on its own, B never moves
            a.drive_low()
            a.drive_high()
        a.drive_low()  # half a step clockwise, then back
        b.drive_low()
        b.drive_high()
        a.drive_high()
    assert posted == []


def test_no_dial_pins_create_nothing(factory: MockFactory) -> None:
    config = parse_config("", "x.toml").buttons  # the defaults: no dial fitted
    assert (config.dial_a_pin, config.dial_b_pin) == (None, None)
    before = set(factory.pins)
    posted: list[Input] = []
    assert open_dial(config, posted.append, pin_factory=factory) is None
    assert set(factory.pins) == before  # no pin was even looked at
    assert posted == []


def test_a_busy_dial_pin_leaves_the_dial_out_with_a_warning(
        factory: MockFactory, caplog: pytest.LogCaptureFixture) -> None:
    other = InputDevice(B_PIN, pin_factory=factory)
    try:
        with pytest.raises(ButtonsError, match="GPIO5/GPIO6"):
            Dial(A_PIN, B_PIN, lambda _: None, pin_factory=factory)
        with caplog.at_level(logging.WARNING, logger="erabox.adapters.buttons"):
            assert open_dial(FITTED, lambda _: None, pin_factory=factory) is None
        assert "goes on without the dial" in caplog.text
    finally:
        other.close()


def test_close_releases_the_pins(factory: MockFactory) -> None:
    dial = Dial(A_PIN, B_PIN, lambda _: None, pin_factory=factory)
    dial.close()
    dial.close()  # twice is fine
    for number in (A_PIN, B_PIN):
        InputDevice(number, pin_factory=factory).close()  # free again


def test_a_consumer_that_fails_does_not_break_the_dial(factory: MockFactory) -> None:
    posted: list[Input] = []

    def flaky(turn: Input) -> None:
        posted.append(turn)
        raise RuntimeError("queue closed")

    with Dial(A_PIN, B_PIN, flaky, pin_factory=factory):
        detent(factory, clockwise=True)
        detent(factory, clockwise=False)
    assert posted == [UP, DOWN]


def test_turns_enter_points_in_the_box(tmp_path: Path) -> None:
    """End to end: the dial posts on the box's inbox like the buttons; in the points entry
    seven detents clockwise and two back, then ERA, enter 5 for the first player."""
    from test_points_game import CONFIG, Table, of, play_era

    config = dataclasses.replace(CONFIG, buttons=FITTED)
    t = Table(tmp_path, config)
    try:
        dial = open_dial(config.buttons, t.box.post, pin_factory=t.factory)
        assert dial is not None
        with dial:
            play_era(t)
            for clockwise in [True] * 7 + [False] * 2:
                with t.changed:
                    seen = t.box.handled
                detent(t.factory, clockwise)
                with t.changed:
                    assert t.changed.wait_for(lambda: t.box.handled > seen, timeout=20)  # noqa: B023
            t.do(Button.ERA)
        first = of(t, "points")[0]
        assert (first["player"], first["points"]) == (config.players[0], 5)
    finally:
        t.close()
