"""The optional dial (a rotary encoder, hardware.md) on gpiozero: detents in, inputs out."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from erabox.core.config import ButtonsConfig
from erabox.core.model import Button, Gesture, Input

from .pins import ButtonsError

log = logging.getLogger(__name__)


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
